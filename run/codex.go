package run

// Codex CLI's rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl):
// one record a line, {"timestamp", "type": "session_meta" |
// "response_item" | "event_msg" | "turn_context", "payload"}. The
// response items are the conversation as the model was given it, OpenAI
// Responses items; the events repeat them for the CLI's display, and are
// passed over.

import (
	"encoding/json"
	"fmt"
	"strings"
)

// codexAgent names the agent of a rollout.
const codexAgent = "assistant"

type codexRecord struct {
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
}

// codexItem is a response item: message, reasoning, function_call,
// function_call_output, custom_tool_call, custom_tool_call_output,
// local_shell_call.
type codexItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   []codexContent  `json:"content"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	CallID    string          `json:"call_id"`
	Action    json.RawMessage `json:"action"`
	Output    json.RawMessage `json:"output"`
	// Metadata says who wrote each part of a message: the user, or the
	// CLI (its "harness"), which adds its context as user messages.
	Metadata *struct {
		Parts []struct {
			Provenance struct {
				Type string `json:"type"`
			} `json:"provenance"`
		} `json:"content_item_metadata"`
	} `json:"internal_chat_message_metadata_passthrough"`
}

type codexContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// codex reads a Codex CLI rollout.
func codex(data []byte) (*Case, error) {
	r := &Run{Format: FormatCodex}
	err := eachLine(data, func(_ int, v json.RawMessage) error {
		var rec codexRecord
		if err := json.Unmarshal(v, &rec); err != nil {
			return jsonError(v, err)
		}
		if rec.Type != "response_item" || !isObject(rec.Payload) {
			return nil
		}
		var it codexItem
		if err := json.Unmarshal(rec.Payload, &it); err != nil {
			return fmt.Errorf("payload: %w", jsonError(rec.Payload, err))
		}
		s, ok, err := it.step()
		if ok {
			r.Steps = append(r.Steps, s)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(r.Steps) == 0 {
		return nil, fmt.Errorf("%w: a Codex CLI rollout with no message", errNotSessionLog)
	}
	for _, s := range r.Steps {
		if s.Kind == KindUser {
			r.Question = strings.TrimSpace(s.Content)
			break
		}
	}
	return &Case{Run: r}, nil
}

// step is the step an item makes, if any: reasoning is not what the agent
// said, and the instructions and context the CLI gives are not steps.
func (it codexItem) step() (Step, bool, error) {
	switch it.Type {
	case "message":
		text := it.text()
		switch {
		case strings.TrimSpace(text) == "":
		case it.Role == "assistant":
			return Step{Agent: codexAgent, Role: "assistant", Kind: KindMessage, Content: text, Extra: &Extra{From: "message"}}, true, nil
		case it.Role == "user" && !it.fromCLI(text):
			return Step{Agent: "user", Role: "user", Kind: KindUser, Content: text, Extra: &Extra{From: "message"}}, true, nil
		}
	case "function_call", "custom_tool_call", "local_shell_call":
		c := ToolCall{ID: it.CallID, Name: it.Name, Arguments: firstNonEmpty(it.Arguments, it.Input)}
		if it.Type == "local_shell_call" {
			c.Name, c.Arguments = "local_shell", compactJSON(it.Action)
		}
		calls := []ToolCall{c}
		return Step{Agent: codexAgent, Role: "assistant", Kind: KindToolCall, Content: callText(calls), Extra: &Extra{ToolCalls: calls, From: it.Type}}, true, nil
	case "function_call_output", "custom_tool_call_output":
		text, err := codexOutput(it.Output)
		if err != nil {
			return Step{}, false, fmt.Errorf("%s %s: %w", it.Type, it.CallID, err)
		}
		return Step{Agent: codexAgent, Role: "tool", Kind: KindToolResult, Content: text, Extra: &Extra{ToolCallID: it.CallID, From: it.Type}}, true, nil
	}
	return Step{}, false, nil
}

func (it codexItem) text() string {
	var texts []string
	for _, c := range it.Content {
		if c.Text != "" {
			texts = append(texts, c.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// fromCLI reports whether a user message is context the CLI added (its
// environment, the project's instructions), not the user's: its parts'
// provenance says so, or, where a rollout records none, its text is one
// tagged block, as the CLI writes that context.
func (it codexItem) fromCLI(text string) bool {
	if it.Metadata != nil && len(it.Metadata.Parts) > 0 {
		for _, p := range it.Metadata.Parts {
			if p.Provenance.Type == "user" {
				return false
			}
		}
		return true
	}
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "<") {
		return false
	}
	end := strings.IndexAny(t, "> \n")
	return end > 1 && strings.HasSuffix(t, "</"+t[1:end]+">")
}

// codexOutput reads a tool's output: text, as the shell tools write it
// (a failed command's marked as an error), or, in older rollouts, JSON
// text {"output", "metadata": {"exit_code"}}, or {"content", "success"}.
func codexOutput(raw json.RawMessage) (string, error) {
	text, isText, err := claudeString(raw)
	if err != nil {
		return "", err
	}
	if !isText {
		text = string(raw)
	}
	var res struct {
		Output   *string `json:"output"`
		Content  *string `json:"content"`
		Success  *bool   `json:"success"`
		Metadata struct {
			ExitCode *int `json:"exit_code"`
		} `json:"metadata"`
	}
	if t := strings.TrimSpace(text); strings.HasPrefix(t, "{") && json.Unmarshal([]byte(t), &res) == nil && (res.Output != nil || res.Content != nil) {
		text = firstNonEmpty(deref(res.Output), deref(res.Content))
		if c := res.Metadata.ExitCode; c != nil && *c != 0 || res.Success != nil && !*res.Success {
			return errorText(text), nil
		}
		return text, nil
	}
	if failedExit(text) {
		return errorText(text), nil
	}
	return text, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
