package run

import (
	"encoding/json"
	"strconv"
	"strings"
)

// browserUseEntry is one step of browser-use's saved agent history
// (AgentHistoryList, as Agent.save_history writes it): the model's
// output (its state and the actions it chose), the actions' results, and
// the browser's state the model was shown, whose screenshot is never
// read.
type browserUseEntry struct {
	ModelOutput *struct {
		CurrentState json.RawMessage `json:"current_state"`
		Action       json.RawMessage `json:"action"`
	} `json:"model_output"`
	Result []struct {
		IsDone           bool    `json:"is_done"`
		ExtractedContent *string `json:"extracted_content"`
		Error            *string `json:"error"`
	} `json:"result"`
	State *struct {
		URL string `json:"url"`
	} `json:"state"`
}

// browserUseHistory reads browser-use's saved agent history ({"history":
// [{"model_output", "result", "state", "metadata"}, …]}): each step's
// output is the agent's call of its actions, in the shape browser-use
// gives its model (AgentOutput: {"current_state", "action"}), and the
// actions' results (what each extracted or did, or its error) the call's
// result. The file names no task; a task or question beside the history
// is the user's. ok is false unless every entry is such a step and one
// has the model's output.
func browserUseHistory(data []byte, o *fileObject) ([]dumpMessage, bool) {
	var h struct {
		History []browserUseEntry `json:"history"`
	}
	if json.Unmarshal(data, &h) != nil || len(h.History) == 0 {
		return nil, false
	}
	var out []dumpMessage
	if q := strings.TrimSpace(firstNonEmpty(o.Question, scalarString(o.Task))); q != "" {
		out = append(out, dumpMessage{chatMessage: chatMessage{Role: "user", Text: q}})
	}
	outputs := 0
	for i, e := range h.History {
		if e.State == nil || e.ModelOutput == nil && e.Result == nil {
			return nil, false
		}
		if e.ModelOutput == nil {
			continue // a step whose model gave no output: nothing was done
		}
		outputs++
		args, err := json.Marshal(map[string]json.RawMessage{"current_state": nonNull(e.ModelOutput.CurrentState), "action": nonNull(e.ModelOutput.Action)})
		if err != nil {
			return nil, false
		}
		id := "browser-use-step-" + strconv.Itoa(i+1)
		out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Calls: []ToolCall{{ID: id, Name: "AgentOutput", Arguments: string(args)}}}})
		var lines []string
		failed := false
		for _, r := range e.Result {
			if r.Error != nil && strings.TrimSpace(*r.Error) != "" {
				lines = append(lines, "Error: "+strings.TrimSpace(*r.Error))
				failed = true
			} else if r.ExtractedContent != nil && strings.TrimSpace(*r.ExtractedContent) != "" {
				lines = append(lines, strings.TrimSpace(*r.ExtractedContent))
			}
		}
		out = append(out, dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: id, Text: strings.Join(lines, "\n")}, failed: failed})
	}
	return out, outputs > 0
}

// nonNull is raw, or JSON's null for a value not given.
func nonNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}
