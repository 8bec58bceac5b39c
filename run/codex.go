package run

// Codex CLI's rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl):
// one record a line, {"timestamp", "type": "session_meta" |
// "response_item" | "event_msg" | "turn_context", "payload"}. The
// response items are the conversation as the model was given it, OpenAI
// Responses items; the events repeat them for the CLI's display, and are
// passed over. A sub-agent that spawn_agent starts writes a rollout of
// its own (its session_meta names the parent thread), named for its
// thread id, beside its parent's: the parent's reading takes it in.

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// codexAgent names the agent of a rollout.
const codexAgent = "assistant"

type codexRecord struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

// codexMeta is a rollout's session_meta: a sub-agent's names the thread
// that spawned it, and the agent's role or nickname.
type codexMeta struct {
	ID       string          `json:"id"`
	Source   json.RawMessage `json:"source"`
	Nickname string          `json:"agent_nickname"`
	Role     string          `json:"agent_role"`
}

// agent names the agent of the rollout: a sub-agent by its role, else its
// nickname.
func (m codexMeta) agent() string {
	if !isObject(m.Source) {
		return codexAgent
	}
	var src struct {
		Subagent json.RawMessage `json:"subagent"`
	}
	if json.Unmarshal(m.Source, &src) != nil || len(src.Subagent) == 0 {
		return codexAgent
	}
	return firstNonEmpty(cleanName(m.Role), cleanName(m.Nickname), unnamedSubagent)
}

// parent returns the thread that spawned the rollout's agent, "" for a
// rollout of its own.
func (m codexMeta) parent() string {
	if !isObject(m.Source) {
		return ""
	}
	var src struct {
		Subagent struct {
			ThreadSpawn struct {
				Parent string `json:"parent_thread_id"`
			} `json:"thread_spawn"`
		} `json:"subagent"`
	}
	if json.Unmarshal(m.Source, &src) != nil {
		return ""
	}
	return src.Subagent.ThreadSpawn.Parent
}

// Rollouts tells, over the files of one walk, which are the rollouts of
// Codex sub-agents that their parent's rollout, beside them, reads: the
// parent records the spawn's result naming the thread. A walk over runs
// leaves such a rollout out. Of a sub-agent's rollout only its first
// record, the session_meta, is read, and each parent's rollout is read
// once however many sub-agents it spawned. A parent that never recorded
// the spawn's result (a session stopped while the sub-agent ran) does not
// read it, so it is a run of its own. The zero value is ready to use.
type Rollouts struct {
	spawned map[string]map[string]bool // parent's file → the threads it read
}

// IsSubagent reports whether the rollout at path is read with its
// parent's.
func (rs *Rollouts) IsSubagent(path string) bool {
	base := filepath.Base(path)
	if !strings.HasPrefix(base, "rollout-") || !strings.HasSuffix(base, ".jsonl") {
		return false
	}
	id, parent := rolloutParent(path)
	if id == "" || parent == "" || !safeThreadID(parent) {
		return false
	}
	names, err := filepath.Glob(filepath.Join(filepath.Dir(path), "rollout-*-"+parent+".jsonl"))
	if err != nil || len(names) == 0 {
		return false
	}
	return rs.spawnedBy(names[0])[id]
}

// spawnedBy returns the threads whose spawn the rollout in file records,
// read once, within DefaultMaxInput: past it, its sub-agents are runs of
// their own, as nothing is then lost.
func (rs *Rollouts) spawnedBy(file string) map[string]bool {
	if ids, ok := rs.spawned[file]; ok {
		return ids
	}
	var ids map[string]bool
	if data, err := readBeside(file, Options{MaxInput: DefaultMaxInput}); err == nil {
		ro := &codexRollout{read: map[string]bool{}}
		if ro.readRollout(data) == nil {
			ids = ro.spawnedIDs
		}
	}
	if rs.spawned == nil {
		rs.spawned = map[string]map[string]bool{}
	}
	rs.spawned[file] = ids
	return ids
}

// maxMetaRecord bounds the first record IsSubagentRollout reads: a
// session_meta holds the CLI's instructions, some kilobytes.
const maxMetaRecord = 1 << 20

// rolloutParent returns the thread of the rollout at path and the parent
// thread that the session_meta beginning it names, or "".
func rolloutParent(path string) (id, parent string) {
	f, err := os.Open(path)
	if err != nil {
		return "", ""
	}
	defer f.Close()
	line, err := bufio.NewReader(io.LimitReader(f, maxMetaRecord)).ReadBytes('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", ""
	}
	var rec codexRecord
	var m codexMeta
	if json.Unmarshal(line, &rec) != nil || rec.Type != "session_meta" || json.Unmarshal(rec.Payload, &m) != nil {
		return "", ""
	}
	return m.ID, m.parent()
}

// safeThreadID reports whether id can stand in a file name pattern as it
// is: no separator, no pattern character, no parent directory.
func safeThreadID(id string) bool {
	return !strings.ContainsAny(id, `/\*?[`) && !strings.Contains(id, "..")
}

// codexSpawned is what spawn_agent returns: the new agent's thread.
type codexSpawned struct {
	AgentID  string `json:"agent_id"`
	Nickname string `json:"nickname"`
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

// codexRollout reads one rollout, and the sub-agents' rollouts beside it.
type codexRollout struct {
	dir    string          // where the rollouts of the sub-agents are; "" for none
	read   map[string]bool // the threads read, so that none is read twice
	opts   Options         // how a sub-agent's rollout is read
	agent  string
	steps  []Step
	stamps []time.Time
	// wrapped is the last user message wrapped in a tag as the CLI wraps
	// its context, read before any step: the task, when the rollout has
	// no other user message (a harness that wraps the task it gives,
	// <issue>...</issue>).
	wrapped string
	// spawns are the steps of each call of spawn_agent, by call id.
	spawns map[string]int
	// spawnedIDs are the threads whose spawn this rollout records.
	spawnedIDs map[string]bool
	children   []timedSteps
}

// codex reads a Codex CLI rollout; path is its file, for the rollouts of
// its sub-agents beside it, read as opts say any input is; empty for data
// read otherwise.
func codex(data []byte, path string, opts Options) (*Case, error) {
	ro := &codexRollout{read: map[string]bool{}, opts: opts}
	if path != "" {
		ro.dir = filepath.Dir(path)
	}
	if err := ro.readRollout(data); err != nil {
		return nil, err
	}
	r := &Run{Format: FormatCodex, Steps: ro.steps}
	if len(r.Steps) == 0 {
		return nil, fmt.Errorf("%w: a Codex CLI rollout with no message", errNotSessionLog)
	}
	if !slices.ContainsFunc(r.Steps, func(s Step) bool { return s.Kind == KindUser }) && ro.wrapped != "" {
		// The CLI's own context comes before the task it is given: with no
		// plain user message, the last wrapped one before the agent spoke is
		// the task.
		task := Step{Agent: "user", Role: "user", Kind: KindUser, Content: ro.wrapped, Extra: &Extra{From: "message"}}
		r.Steps = slices.Insert(r.Steps, 0, task)
	}
	for _, s := range r.Steps {
		if s.Kind == KindUser {
			r.Question = strings.TrimSpace(s.Content)
			break
		}
	}
	return &Case{Run: r}, nil
}

// readRollout reads data's records into ro's steps, its sub-agents' laid
// among them by time.
func (ro *codexRollout) readRollout(data []byte) error {
	ro.agent, ro.spawns = codexAgent, map[string]int{}
	err := eachLine(data, func(_ int, v json.RawMessage) error {
		var rec codexRecord
		if err := json.Unmarshal(v, &rec); err != nil {
			return jsonError(v, err)
		}
		if !isObject(rec.Payload) {
			return nil
		}
		switch rec.Type {
		case "session_meta":
			var m codexMeta
			if err := json.Unmarshal(rec.Payload, &m); err != nil {
				return fmt.Errorf("payload: %w", jsonError(rec.Payload, err))
			}
			ro.agent = m.agent()
		case "response_item":
			var it codexItem
			if err := json.Unmarshal(rec.Payload, &it); err != nil {
				return fmt.Errorf("payload: %w", jsonError(rec.Payload, err))
			}
			s, ok, err := it.step(ro.agent)
			if err != nil || !ok {
				if text := strings.TrimSpace(it.text()); err == nil && len(ro.steps) == 0 && it.Type == "message" && it.Role == "user" && text != "" {
					ro.wrapped = text
				}
				return err
			}
			at, _ := time.Parse(time.RFC3339Nano, rec.Timestamp)
			ro.steps, ro.stamps = append(ro.steps, s), append(ro.stamps, at)
			if it.Name == "spawn_agent" {
				ro.spawns[it.CallID] = len(ro.steps) - 1
			}
			if call, ok := ro.spawns[it.CallID]; ok && s.Kind == KindToolResult {
				return ro.spawned(call, s.Content)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	ro.steps, ro.stamps = layByTime(ro.steps, ro.stamps, ro.children)
	return nil
}

// spawned reads the rollout of the sub-agent that the spawn_agent call at
// step call started (output, the call's result, names its thread), when
// it is beside this one, to be laid among this rollout's steps by time;
// the call is addressed to it.
func (ro *codexRollout) spawned(call int, output string) error {
	var sp codexSpawned
	if json.Unmarshal([]byte(output), &sp) != nil || sp.AgentID == "" {
		return nil
	}
	if ro.spawnedIDs == nil {
		ro.spawnedIDs = map[string]bool{}
	}
	ro.spawnedIDs[sp.AgentID] = true
	if ro.dir == "" || ro.read[sp.AgentID] || !safeThreadID(sp.AgentID) {
		return nil
	}
	ro.read[sp.AgentID] = true
	names, err := filepath.Glob(filepath.Join(ro.dir, "rollout-*-"+sp.AgentID+".jsonl"))
	if err != nil || len(names) == 0 {
		return nil
	}
	data, err := readBeside(names[0], ro.opts) // within --max-input, as this rollout
	if err != nil {
		return fmt.Errorf("sub-agent %s: rollout %s: %w", sp.AgentID, names[0], err)
	}
	child := &codexRollout{dir: ro.dir, read: ro.read, opts: ro.opts}
	if err := child.readRollout(data); err != nil {
		return fmt.Errorf("sub-agent rollout %s: %w", names[0], err)
	}
	ro.steps[call].Edit().Target = child.agent
	// Its user messages are what this agent sent it, read as the calls
	// that sent them.
	var said timedSteps
	for i, s := range child.steps {
		if s.Kind != KindUser {
			said.steps, said.stamps = append(said.steps, s), append(said.stamps, child.stamps[i])
		}
	}
	if len(said.steps) > 0 {
		said.after = len(ro.steps) - 1
		ro.children = append(ro.children, said)
	}
	return nil
}

// step is the step an item makes, if any: reasoning is not what the agent
// said, and the instructions and context the CLI gives are not steps.
func (it codexItem) step(agent string) (Step, bool, error) {
	switch it.Type {
	case "message":
		text := it.text()
		switch {
		case strings.TrimSpace(text) == "":
		case it.Role == "assistant":
			return Step{Agent: agent, Role: "assistant", Kind: KindMessage, Content: text, Extra: &Extra{From: "message"}}, true, nil
		case it.Role == "user" && !it.fromCLI(text):
			return Step{Agent: "user", Role: "user", Kind: KindUser, Content: text, Extra: &Extra{From: "message"}}, true, nil
		}
	case "function_call", "custom_tool_call", "local_shell_call":
		c := ToolCall{ID: it.CallID, Name: cleanName(it.Name), Arguments: firstNonEmpty(it.Arguments, it.Input)}
		if it.Type == "local_shell_call" {
			c.Name, c.Arguments = "local_shell", compactJSON(it.Action)
		}
		calls := []ToolCall{c}
		return Step{Agent: agent, Role: "assistant", Kind: KindToolCall, Content: callText(calls), Extra: &Extra{ToolCalls: calls, From: it.Type}}, true, nil
	case "function_call_output", "custom_tool_call_output":
		text, err := codexOutput(it.Output)
		if err != nil {
			return Step{}, false, fmt.Errorf("%s %s: %w", it.Type, it.CallID, err)
		}
		return Step{Agent: agent, Role: "tool", Kind: KindToolResult, Content: text, Extra: &Extra{ToolCallID: it.CallID, From: it.Type}}, true, nil
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
	text, isText, err := stringOrNull(raw)
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
