package run

// OpenHands' event streams: the list of events an OpenHands session
// records (its trajectory export, and the "history" of each record its
// SWE-bench evaluation writes), read into a run.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ohEvent is one event of an OpenHands stream: an action (what the user
// or the agent did) or an observation (what came back), as its
// serialisation writes them.
type ohEvent struct {
	ID          int                        `json:"id"`
	Source      string                     `json:"source"`
	Message     string                     `json:"message"`
	Action      string                     `json:"action"`
	Observation string                     `json:"observation"`
	Args        map[string]json.RawMessage `json:"args"`
	Content     string                     `json:"content"`
	Cause       *int                       `json:"cause"`
	Extras      struct {
		Command  string `json:"command"`
		ExitCode *int   `json:"exit_code"` // where earlier versions kept it
		Metadata struct {
			ExitCode *int `json:"exit_code"`
		} `json:"metadata"`
	} `json:"extras"`
	ToolCallMetadata *struct {
		FunctionName string `json:"function_name"`
		ToolCallID   string `json:"tool_call_id"`
	} `json:"tool_call_metadata"`
}

// openHandsFile reads a file of events, a JSON array or one a line.
func openHandsFile(data []byte) (*Case, error) {
	var events []json.RawMessage
	var err error
	if data = bytes.TrimSpace(data); len(data) > 0 && data[0] == '[' {
		err = json.Unmarshal(data, &events)
	} else {
		events, err = decodeStream(data)
	}
	if err != nil {
		return nil, jsonError(data, err)
	}
	return caseOf(openHands(events))
}

// evaluationRecords reads the file OpenHands' SWE-bench evaluation writes
// (output.jsonl): one record a line, each a task's session (its
// "history" of events), as the runs of a directory are read: each is a
// run of its own, named FILE#INSTANCE_ID by the record's instance_id (by
// its line, for a record without one), with its own label. false when
// data is not several such records.
func evaluationRecords(data []byte, format Format) ([]*Case, bool, error) {
	if data[0] != '{' || format != FormatAuto && format != FormatWhoWhen && format != "" {
		return nil, false, nil
	}
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	if len(bytes.TrimSpace(rest)) == 0 || !bytes.Contains(first, []byte(`"history"`)) || !json.Valid(first) {
		return nil, false, nil
	}
	var head fileObject
	if json.Unmarshal(first, &head) != nil || len(head.History) == 0 || !head.History[0].event() {
		return nil, false, nil
	}
	var cases []*Case
	err := eachLine(data, func(line int, v json.RawMessage) error {
		o := fileObject{raw: v}
		if err := json.Unmarshal(v, &o); err != nil {
			return err
		}
		if len(o.History) == 0 || !o.History[0].event() {
			return errors.New("a record with no OpenHands history among records with one")
		}
		c, err := o.whoWhen()
		if err != nil {
			return err
		}
		c.Run.TraceID = firstNonEmpty(strings.TrimSpace(o.InstanceID), "line-"+strconv.Itoa(line))
		cases = append(cases, c)
		return nil
	})
	return cases, true, err
}

// openHands reads an event stream. The user's messages are the task and
// its later turns; each of the agent's actions that runs a tool (a
// command, an edit, a file read or written, code run) is a call, and the
// observation it caused is the call's result (an error observation, or a
// command that exited with a code other than 0, as an error); the agent's
// messages, thoughts and finish are its words. Events that only record
// the session's state (its agent's state changing, a recall, a
// condensation) are passed over.
func openHands(events []json.RawMessage) (*Run, error) {
	r := &Run{Format: FormatTranscript}
	callOf := map[int]string{} // an action's id, and the id of the call it made
	for i, raw := range events {
		var e ohEvent
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("event %d: %w", i, jsonError(raw, err))
		}
		s, ok := e.step(callOf)
		if ok {
			s.Content = Excerpt(s.Content)
			r.Steps = append(r.Steps, s)
		}
	}
	taskFromMessages(r)
	return r, nil
}

// step is the step an event makes, if any; callOf records the call an
// action makes, for the observation it causes.
func (e ohEvent) step(callOf map[int]string) (Step, bool) {
	agent := strings.TrimSpace(e.Source)
	if agent == "" {
		agent = "agent"
	}
	if e.Observation != "" {
		return e.result(agent, callOf)
	}
	text := firstNonEmpty(e.arg("thought"), e.arg("content"), e.Message)
	switch e.Action {
	case "message":
		if e.Source == "user" {
			return Step{Agent: "user", Role: "user", Kind: KindUser, Content: firstNonEmpty(e.arg("content"), e.Message), Extra: &Extra{From: "message"}}, true
		}
		return Step{Agent: agent, Role: "assistant", Kind: KindMessage, Content: text, Extra: &Extra{From: "message"}}, true
	case "system":
		return Step{Agent: "system", Role: "system", Kind: KindSystem, Content: firstNonEmpty(e.arg("content"), e.Message), Extra: &Extra{From: "system"}}, true
	case "think":
		return Step{Agent: agent, Role: "assistant", Kind: KindThought, Content: e.arg("thought"), Extra: &Extra{From: "think"}}, strings.TrimSpace(e.arg("thought")) != ""
	case "finish":
		return Step{Agent: agent, Role: "assistant", Kind: KindMessage, Content: e.finishText(), Extra: &Extra{From: "finish"}}, true
	}
	c, ok := e.call()
	if !ok {
		return Step{}, false
	}
	callOf[e.ID] = c.ID
	calls := []ToolCall{c}
	if strings.TrimSpace(e.arg("thought")) == "" {
		text = callText(calls)
	} else {
		text = e.arg("thought")
	}
	return Step{Agent: agent, Role: "assistant", Kind: KindToolCall, Content: text, Extra: &Extra{ToolCalls: calls, From: e.Action}}, true
}

// finishText is a finish action's words: its message (final_thought),
// after what the model wrote before calling it (thought) when that says
// something else. A model may state its answer in its own words and
// close with a summary: both are what it handed in.
func (e ohEvent) finishText() string {
	msg, thought := strings.TrimSpace(e.arg("final_thought")), strings.TrimSpace(e.arg("thought"))
	switch {
	case msg == "":
		return firstNonEmpty(thought, e.Message)
	case thought == "" || strings.Contains(msg, thought):
		return msg
	case strings.Contains(thought, msg):
		return thought
	}
	return thought + "\n\n" + msg
}

// call is the tool call an action that runs a tool makes: the function
// the model called (tool_call_metadata), given the action's arguments as
// OpenHands' tools take them.
func (e ohEvent) call() (ToolCall, bool) {
	var name string
	args := map[string]string{}
	switch e.Action {
	case "run":
		name, args["command"] = "execute_bash", e.arg("command")
	case "run_ipython":
		name, args["code"] = "execute_ipython_cell", e.arg("code")
		if edit, ok := skillEdit(args["code"]); ok {
			// A cell that only calls an agent skill that changes a
			// file is that edit.
			name, args = "str_replace_editor", edit
		}
	case "edit":
		name = "str_replace_editor"
		for _, k := range []string{"command", "path", "old_str", "new_str", "file_text", "insert_line"} {
			if v := e.arg(k); v != "" {
				args[k] = v
			}
		}
		if args["command"] == "" && e.arg("content") != "" {
			args["command"], args["file_text"] = "create", e.arg("content") // an edit given the file's whole text
		}
	case "read":
		name, args["command"], args["path"] = "str_replace_editor", "view", e.arg("path")
	case "write":
		name, args["command"], args["path"], args["file_text"] = "str_replace_editor", "create", e.arg("path"), e.arg("content")
	case "browse", "browse_interactive":
		name, args["url"], args["code"] = "browser", e.arg("url"), e.arg("browser_actions")
		for k, v := range args {
			if v == "" {
				delete(args, k)
			}
		}
	default:
		return ToolCall{}, false
	}
	id := "event-" + strconv.Itoa(e.ID)
	if m := e.ToolCallMetadata; m != nil {
		name = firstNonEmpty(m.FunctionName, name)
		id = firstNonEmpty(m.ToolCallID, id)
	}
	return ToolCall{ID: id, Name: name, Arguments: textOf(args)}, true
}

// result is the step an observation makes: the result of the call its
// cause made, or, for one no call of the stream caused, a tool's output
// all the same; an observation of the session's state makes none.
func (e ohEvent) result(agent string, callOf map[int]string) (Step, bool) {
	switch e.Observation {
	case "agent_state_changed", "null", "recall", "condensation", "agent_condensation", "user_rejected":
		return Step{}, false
	}
	text := firstNonEmpty(e.Content, e.Message)
	code := e.Extras.Metadata.ExitCode
	if code == nil {
		code = e.Extras.ExitCode
	}
	if code != nil && !strings.Contains(text, "exit code") {
		text += fmt.Sprintf("\n[The command completed with exit code %d.]", *code)
	}
	if e.Observation == "error" {
		text = errorText(text)
	}
	x := &Extra{From: e.Observation}
	if e.Cause != nil {
		x.ToolCallID = callOf[*e.Cause]
	}
	if x.ToolCallID == "" && e.ToolCallMetadata != nil {
		x.ToolCallID = e.ToolCallMetadata.ToolCallID
	}
	return Step{Agent: agent, Role: "tool", Kind: KindToolResult, Content: text, Extra: x}, true
}

// arg is an action's argument as text: a string as it is, any other
// value as compact JSON, "" when absent or null.
func (e ohEvent) arg(key string) string {
	raw, ok := e.Args[key]
	if !ok {
		return ""
	}
	if s, isString, err := stringOrNull(raw); isString && err == nil {
		return s
	}
	return compactJSON(bytes.TrimSpace(raw))
}
