package run

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
)

// AgentOps' session records, as its API gives a session's events and
// agents: {"session": {…}, "agents": [{"id", "name"}], "events": [event…]},
// an event {"id", "event_type", "agent_id", "init_timestamp",
// "end_timestamp", "params", "returns", …} of one of its types: a model
// call (llms: "prompt", the messages sent, and "completion", the message
// back), a tool's run (tools: "name", its "params" and what it "returns"),
// an action (actions: "action_type", "logs") or an error (errors:
// "error_type", "details", "trigger_event"). Each agent is named by its
// record; events are read in the order they began. An agent's first model
// call brings the request it was given (its prompt's last user message)
// as the user's words; a tool's run is the call and its result.

// agentOpsTypes are AgentOps' event types.
var agentOpsTypes = map[string]bool{"llms": true, "tools": true, "actions": true, "errors": true, "apis": true}

type agentOpsEvent struct {
	ID            string          `json:"id"`
	EventType     string          `json:"event_type"`
	AgentID       string          `json:"agent_id"`
	InitTimestamp string          `json:"init_timestamp"`
	Params        json.RawMessage `json:"params"`
	Returns       json.RawMessage `json:"returns"`
	Prompt        json.RawMessage `json:"prompt"`
	Completion    json.RawMessage `json:"completion"`
	Name          string          `json:"name"`
	ActionType    string          `json:"action_type"`
	Logs          json.RawMessage `json:"logs"`
	ErrorType     string          `json:"error_type"`
	Details       json.RawMessage `json:"details"`
	Exception     json.RawMessage `json:"exception"`
}

type agentOpsExport struct {
	Session json.RawMessage `json:"session"`
	Agents  []struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"agents"`
	Events []agentOpsEvent `json:"events"`
}

// agentOpsSession reads data as AgentOps' session records; ok is false
// when it is none: an object whose events are of AgentOps' types.
func agentOpsSession(data []byte) (c *Case, ok bool, err error) {
	if len(data) == 0 || data[0] != '{' {
		return nil, false, nil
	}
	var x agentOpsExport
	if json.Unmarshal(data, &x) != nil || len(x.Events) == 0 {
		return nil, false, nil
	}
	for _, e := range x.Events {
		if !agentOpsTypes[e.EventType] || e.InitTimestamp == "" {
			return nil, false, nil
		}
	}
	var meta fileObject
	if err := json.Unmarshal(data, &meta); err != nil {
		return nil, true, fmt.Errorf("AgentOps session: %w", err)
	}
	names := map[string]string{}
	for _, a := range x.Agents {
		if n := cleanName(a.Name); n != "" {
			names[a.ID] = n
		}
	}
	events := x.Events
	at := func(e agentOpsEvent) time.Time {
		t, _ := time.Parse(time.RFC3339Nano, e.InitTimestamp)
		return t
	}
	sort.SliceStable(events, func(i, j int) bool { return at(events[i]).Before(at(events[j])) })
	var out []dumpMessage
	spoke := map[string]bool{}
	for _, e := range events {
		agent := firstNonEmpty(names[e.AgentID], e.AgentID)
		switch e.EventType {
		case "llms":
			if !spoke[agent] {
				if u := lastUserText(e.Prompt); u != "" {
					out = append(out, dumpMessage{chatMessage: chatMessage{Role: "user", Text: u}, target: agent})
				}
				spoke[agent] = true
			}
			for _, dm := range elementMessages(completionMessage(e.Completion)) {
				dm.Role, dm.Name = "assistant", agent
				out = append(out, dm)
			}
		case "tools":
			id := "agentops-" + e.ID
			out = append(out,
				dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: agent, Calls: []ToolCall{{ID: id, Name: e.Name, Arguments: eventText(e.Params)}}}},
				dumpMessage{chatMessage: chatMessage{Role: "tool", Name: e.Name, Text: eventText(e.Returns), CallID: id}, tool: e.Name})
		case "errors":
			text := strings.TrimSpace(strings.Join([]string{e.ErrorType, eventText(e.Details), eventText(e.Exception)}, " "))
			if text != "" {
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "tool", Name: "error", Text: text}, failed: true})
			}
		}
	}
	if len(out) == 0 {
		return nil, true, fmt.Errorf("an AgentOps session with no model call or tool run")
	}
	c, _, err = dumpCaseOfMessages(out, &meta)
	return c, true, err
}

// completionMessage is a model call's completion as a message: the
// message it is, or a text the assistant said.
func completionMessage(raw json.RawMessage) map[string]any {
	var x any
	if json.Unmarshal(raw, &x) != nil {
		return nil
	}
	switch v := x.(type) {
	case map[string]any:
		return v
	case string:
		return map[string]any{"role": "assistant", "content": v}
	}
	return nil
}

// lastUserText is the text of the last user message of a prompt (a list
// of messages, or a text).
func lastUserText(raw json.RawMessage) string {
	var x any
	if json.Unmarshal(raw, &x) != nil {
		return ""
	}
	if s, ok := x.(string); ok {
		return strings.TrimSpace(s)
	}
	list, _ := x.([]any)
	for i := len(list) - 1; i >= 0; i-- {
		m, _ := list[i].(map[string]any)
		if m != nil && m["role"] == "user" {
			for _, dm := range elementMessages(m) {
				if t := strings.TrimSpace(dm.Text); t != "" {
					return t
				}
			}
		}
	}
	return ""
}

// eventText is an event's value as text (rawText), "" when it is null
// or absent.
func eventText(raw json.RawMessage) string {
	if t := strings.TrimSpace(string(raw)); t == "" || t == "null" {
		return ""
	}
	return rawText(raw)
}
