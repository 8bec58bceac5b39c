package run

// The logs agent benchmarks' harnesses save: several runs to a file, each
// a record holding its messages (Inspect AI's eval logs, tau2-bench's and
// tau-bench's results), a harness's trajectory of steps (Harbor's ATIF),
// and a desktop agent's step records (OSWorld's traj.jsonl).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// harnessRecord is one run of a harness's results: an Inspect AI
// sample ({"id", "epoch", "input", "target", "messages", …}), a tau2-bench
// simulation ({"id", "task_id", "trial", "messages", "reward_info", …}) or
// a tau-bench result ({"task_id", "reward", "info", "traj", "trial"}) or
// an AgentBench task's output ({"index", "output": {"result", "history",
// "status"}, …}).
type harnessRecord struct {
	ID       json.RawMessage `json:"id"`
	TaskID   json.RawMessage `json:"task_id"`
	Input    json.RawMessage `json:"input"`
	Target   json.RawMessage `json:"target"`
	Messages []any           `json:"messages"`
	Traj     []any           `json:"traj"`
	Index    json.RawMessage `json:"index"`
	Output   struct {
		History []any `json:"history"`
	} `json:"output"`
	// A label beside a record's messages is that run's.
	MistakeAgent  string          `json:"mistake_agent"`
	MistakeStep   json.RawMessage `json:"mistake_step"`
	MistakeReason string          `json:"mistake_reason"`
}

// messages are the record's messages, under either key.
func (h harnessRecord) messages() []any {
	if h.Messages != nil {
		return h.Messages
	}
	if h.Traj != nil {
		return h.Traj
	}
	return h.Output.History
}

// chatList reports whether list is a run's messages: objects each of
// which says its role.
func chatList(list []any) bool {
	return len(list) > 0 && objectsAll(list, func(m map[string]any) bool {
		role, _ := m["role"].(string)
		return strings.TrimSpace(role) != ""
	})
}

// harnessRecords reads data as a harness's results holding several runs,
// each a record with its messages: Inspect AI's eval log (its "samples";
// a sample's "input", when a text, is the task, its "target" the
// answer), tau2-bench's results (their "simulations") or tau-bench's (a
// list of results, each with its messages under "traj"). Each record is
// one run, named by its task's id (else its own; a name the file repeats,
// as each epoch or trial of one task does, gets the record's place
// after it). The records may also be a JSONL file's lines (AgentBench's
// runs.jsonl, each line a task's output, its messages under the output's
// "history"), a label record among them labelling the one run beside it.
// ok is false when data is none of them.
func harnessRecords(data []byte) (cases []*Case, ok bool, err error) {
	var raws []json.RawMessage
	var beside *fileObject
	switch data[0] {
	case '{':
		var top struct {
			Samples     []json.RawMessage `json:"samples"`
			Simulations []json.RawMessage `json:"simulations"`
		}
		if json.Unmarshal(data, &top) != nil {
			values, err := decodeStream(data)
			if err != nil || len(values) < 2 {
				return nil, false, nil
			}
			raws, beside = withoutLabelRecord(values)
			if beside != nil && len(raws) != 1 {
				return nil, false, nil
			}
			break
		}
		raws = top.Samples
		if raws == nil {
			raws = top.Simulations
		}
	case '[':
		if json.Unmarshal(data, &raws) != nil {
			return nil, false, nil
		}
	}
	if len(raws) == 0 {
		return nil, false, nil
	}
	records := make([]harnessRecord, len(raws))
	for i, raw := range raws {
		if json.Unmarshal(raw, &records[i]) != nil || !chatList(records[i].messages()) {
			return nil, false, nil
		}
	}
	names := make([]string, len(records))
	for i, h := range records {
		names[i] = h.name()
	}
	names = recordNames(names)
	for i, h := range records {
		meta := &fileObject{MistakeAgent: h.MistakeAgent, MistakeStep: h.MistakeStep, MistakeReason: h.MistakeReason}
		if beside != nil {
			meta = beside
		}
		if len(bytes.TrimSpace(h.Input)) > 0 && bytes.TrimSpace(h.Input)[0] == '"' {
			meta.Question = scalarString(h.Input)
		}
		meta.GroundTruth = firstTarget(h.Target)
		c, ok, err := dumpCaseOf(h.messages(), meta)
		name := names[i]
		if err != nil {
			return nil, true, fmt.Errorf("run %s: %w", name, err)
		}
		if !ok {
			return nil, true, fmt.Errorf("run %s: no message says anything", name)
		}
		c.Run.TraceID = name
		cases = append(cases, c)
	}
	return cases, true, nil
}

// recordNames is the run name of each of a file's records, given the
// name each gives itself: that name, or, where it is empty or the file
// repeats it (each epoch or trial of one task), the name followed by the
// record's place, from 1, so that no two runs of the file share a name.
func recordNames(given []string) []string {
	seen := map[string]int{}
	for _, n := range given {
		seen[n]++
	}
	out := make([]string, len(given))
	for i, n := range given {
		out[i] = n
		if n == "" || seen[n] > 1 {
			out[i] = strings.TrimLeft(n+"-", "-") + strconv.Itoa(i+1)
		}
	}
	return out
}

// name is the record's task's id, else its own.
func (h harnessRecord) name() string {
	return strings.TrimSpace(firstNonEmpty(scalarString(h.TaskID), scalarString(h.ID), scalarString(h.Index)))
}

// firstTarget is a record's target as its ground truth: a text, or the
// first of the several answers a list accepts.
func firstTarget(raw json.RawMessage) json.RawMessage {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		if len(list) == 0 {
			return nil
		}
		return list[0]
	}
	return raw
}

// harnessLabel is a label beside a trajectory's steps.
type harnessLabel struct {
	MistakeAgent  string          `json:"mistake_agent"`
	MistakeStep   json.RawMessage `json:"mistake_step"`
	MistakeReason string          `json:"mistake_reason"`
}

func (l harnessLabel) meta() *fileObject {
	return &fileObject{MistakeAgent: l.MistakeAgent, MistakeStep: l.MistakeStep, MistakeReason: l.MistakeReason}
}

// harnessTrajectory reads data as one run a harness saved as a list of
// steps: an ATIF trajectory (atifMessages) or a desktop agent's step
// records (desktopMessages). ok is false when data is neither.
func harnessTrajectory(data []byte) (c *Case, ok bool, err error) {
	values, err := decodeStream(data)
	if err != nil || len(values) == 0 {
		return nil, false, nil
	}
	var label harnessLabel
	var ms []dumpMessage
	if len(values) == 1 && bytes.HasPrefix(bytes.TrimSpace(values[0]), []byte("{")) {
		_ = json.Unmarshal(values[0], &label)
		if ms, ok = atifMessages(values[0]); !ok {
			var wrapped struct {
				Instruction string            `json:"instruction"`
				Traj        []json.RawMessage `json:"traj"`
			}
			if json.Unmarshal(values[0], &wrapped) == nil && wrapped.Traj != nil {
				ms, ok = desktopMessages(wrapped.Instruction, wrapped.Traj)
			} else {
				ms, ok = desktopMessages("", values)
			}
		}
	} else {
		if len(values) == 1 && json.Unmarshal(values[0], &values) != nil {
			return nil, false, nil
		}
		ms, ok = desktopMessages("", values)
	}
	if !ok {
		return nil, false, nil
	}
	c, ok, err = dumpCaseOfMessages(ms, label.meta())
	if !ok {
		return nil, true, fmt.Errorf("no step says anything")
	}
	return c, true, err
}

// atifStep is a step of an ATIF trajectory (the Agent Trajectory
// Interchange Format Harbor's agents write: {"schema_version", "agent":
// {"name", …}, "steps": [{"step_id", "source", "message", "tool_calls",
// "observation": {"results": [{"source_call_id", "content"}]}}]}).
type atifStep struct {
	StepID    json.RawMessage `json:"step_id"`
	Source    string          `json:"source"`
	Message   any             `json:"message"`
	ToolCalls []struct {
		ID        string `json:"tool_call_id"`
		Name      string `json:"function_name"`
		Arguments any    `json:"arguments"`
	} `json:"tool_calls"`
	Observation *struct {
		Results []struct {
			CallID  string `json:"source_call_id"`
			Content any    `json:"content"`
		} `json:"results"`
	} `json:"observation"`
}

// atifMessages reads an ATIF trajectory: the system's and the user's
// steps are their messages, each of the agent's its message (under the
// agent's name) with its calls, and the results its observation gives
// back are those calls' results. ok is false when data is no such
// trajectory: steps each with an id and a source of the three.
func atifMessages(data []byte) ([]dumpMessage, bool) {
	var t struct {
		Agent struct {
			Name string `json:"name"`
		} `json:"agent"`
		Steps []atifStep `json:"steps"`
	}
	if json.Unmarshal(data, &t) != nil || len(t.Steps) == 0 {
		return nil, false
	}
	agent := firstNonEmpty(strings.TrimSpace(t.Agent.Name), "agent")
	var out []dumpMessage
	for _, s := range t.Steps {
		if len(s.StepID) == 0 {
			return nil, false
		}
		text := textOf(s.Message)
		switch s.Source {
		case "system", "user":
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: s.Source, Text: text}})
			continue
		case "agent":
		default:
			return nil, false
		}
		m := dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: agent, Text: text}}
		for _, tc := range s.ToolCalls {
			m.Calls = append(m.Calls, ToolCall{ID: tc.ID, Name: tc.Name, Arguments: textOf(tc.Arguments)})
		}
		out = append(out, m)
		if s.Observation != nil {
			for _, r := range s.Observation.Results {
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: r.CallID, Text: textOf(r.Content)}})
			}
		}
	}
	return out, true
}

// desktopRecord is a step record of a desktop agent's trajectory, as
// OSWorld writes each to traj.jsonl: the action it ran, the model's
// response that chose it, and the reward and whether the task is done.
type desktopRecord struct {
	StepNum  json.RawMessage `json:"step_num"`
	Action   any             `json:"action"`
	Response any             `json:"response"`
}

// desktopMessages reads a desktop agent's step records, after the
// instruction it was given (the user's message, when there is one): each
// record is the agent's response with the action it ran as its call, but
// for the actions that only end or pause the task (DONE, FAIL, WAIT). The
// records keep no observation. ok is false when a record has no step
// number or no action.
func desktopMessages(instruction string, records []json.RawMessage) ([]dumpMessage, bool) {
	if len(records) == 0 {
		return nil, false
	}
	var out []dumpMessage
	if strings.TrimSpace(instruction) != "" {
		out = append(out, dumpMessage{chatMessage: chatMessage{Role: "user", Text: instruction}})
	}
	for i, raw := range records {
		var r desktopRecord
		if json.Unmarshal(raw, &r) != nil || len(r.StepNum) == 0 || r.Action == nil {
			return nil, false
		}
		m := dumpMessage{chatMessage: chatMessage{Role: "assistant", Text: textOf(r.Response)}}
		action := textOf(r.Action)
		switch strings.TrimSpace(action) {
		case "DONE", "FAIL", "WAIT":
			if m.Text == "" {
				m.Text = action
			}
		default:
			args := r.Action
			if _, code := r.Action.(string); code {
				args = map[string]any{"code": action}
			}
			m.Calls = []ToolCall{{ID: "step-" + strconv.Itoa(i+1), Name: "computer", Arguments: textOf(args)}}
		}
		out = append(out, m)
	}
	return out, true
}

// systemAnsweredBlocks reads the turns of an agent whose harness runs the
// one code block of its turn and answers in a system turn (gptme's, whose
// tools are blocks fenced with the tool's name, a file's path after it
// for those that write one): such a turn, making no call of its own,
// calls a shell with a shell's block and else the tool its fence names,
// given the path and the block, and the system turn after it is that
// call's result. A turn of several blocks shows code rather than runs
// it, one that no system turn answers was not run, and a block of data
// (a JSON or YAML document) names no tool.
func systemAnsweredBlocks(r *Run) {
	for i := 0; i+1 < len(r.Steps); i++ {
		s, next := &r.Steps[i], &r.Steps[i+1]
		if s.Kind != KindMessage || len(s.ToolCalls()) > 0 || next.Kind != KindSystem || !strings.EqualFold(s.Role, "assistant") {
			continue
		}
		blocks := fences(s.Content)
		if len(blocks) != 1 {
			continue
		}
		info, body := blocks[0].info, blocks[0].body
		if len(info) == 0 || body == "" || !toolName(info[0]) || dataFences[blocks[0].lang()] {
			continue
		}
		call := ToolCall{Name: "bash", Arguments: textOf(map[string]any{"command": body})}
		if !shellFences[blocks[0].lang()] {
			args := map[string]any{"content": body}
			if len(info) > 1 {
				args["path"] = info[1]
			}
			call = ToolCall{Name: info[0], Arguments: textOf(args)}
		}
		s.Kind = KindToolCall
		s.Edit().ToolCalls = []ToolCall{call}
		next.Kind, next.Agent, next.Role = KindToolResult, "tool", "tool"
		i++
	}
}

// fencedCommands reads the turns of an agent that writes each command it
// runs as its turn's one shell code block, and is answered by what the
// command printed (mini-swe-agent's, whose harness runs that block and
// replies with its output): such a turn, followed by a tool's result and
// making no call of its own, calls the agent's shell with the block's
// command. A turn with several blocks, or whose next turn is no result,
// shows code rather than runs it.
func fencedCommands(r *Run) {
	for i := 0; i+1 < len(r.Steps); i++ {
		s := &r.Steps[i]
		if s.Kind != KindMessage || len(s.ToolCalls()) > 0 || r.Steps[i+1].Kind != KindToolResult {
			continue
		}
		var cmds []string
		for _, b := range fences(s.Content) {
			if b.shell() {
				cmds = append(cmds, b.body)
			}
		}
		if len(cmds) != 1 || cmds[0] == "" {
			continue
		}
		s.Kind = KindToolCall
		s.Edit().ToolCalls = []ToolCall{{Name: "bash", Arguments: textOf(map[string]any{"command": cmds[0]})}}
	}
}
