package run

// Letta's (formerly MemGPT's) messages, as its API lists an agent's
// (GET /v1/agents/ID/messages, a list) or answers a message sent to it
// (a LettaResponse, {"messages", "stop_reason", "usage"}): each message
// says what it is by its message_type, not by a role. Its agent thinks
// (reasoning_message), calls tools (tool_call_message, the calls that
// edit its memory among them), gets their returns (tool_return_message)
// and speaks to the user (assistant_message).

import (
	"encoding/json"
	"strings"
)

// lettaTypes are the message types of Letta's messages, and whether one
// holds something said (the rest report on the run: its stop reason, its
// usage, a compaction, a ping).
var lettaTypes = map[string]bool{
	"system_message": true, "user_message": true, "reasoning_message": true,
	"hidden_reasoning_message": false, "tool_call_message": true, "tool_return_message": true,
	"assistant_message": true, "approval_request_message": true, "approval_response_message": true,
	"summary_message": true, "event_message": false, "stop_reason": false, "usage_statistics": false, "ping": false,
}

// lettaMarked reports whether m is one of Letta's messages: no role, and
// a message_type of Letta's.
func lettaMarked(m message) bool {
	_, ok := lettaTypes[m.MessageType]
	return m.Role == "" && ok
}

// lettaMessages reads list as Letta's messages; ok is false unless every
// element is one. A reasoning message is the text of the call or the
// reply right after it that its model's same turn made (the same message
// id, as Letta gives both); the reasoning that no such step follows is a
// thought of its own.
func lettaMessages(list []any) (out []dumpMessage, ok bool) {
	elems := make([]map[string]any, 0, len(list))
	for _, e := range list {
		m, _ := withoutNulls(e).(map[string]any)
		if _, known := lettaTypes[stringOrEmpty(m["message_type"])]; m == nil || m["role"] != nil || !known {
			return nil, false
		}
		elems = append(elems, m)
	}
	var thought *dumpMessage // reasoning not yet given to a step
	thoughtID := ""
	flush := func() {
		if thought != nil && strings.TrimSpace(thought.Text) != "" {
			out = append(out, *thought)
		}
		thought = nil
	}
	for _, m := range elems {
		name := strings.TrimSpace(stringOrEmpty(m["name"]))
		typ := stringOrEmpty(m["message_type"])
		if !lettaTypes[typ] {
			continue
		}
		switch typ {
		case "reasoning_message":
			flush()
			thought = &dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: name, Text: strings.TrimSpace(stringOrEmpty(m["reasoning"]))}, kind: KindThought}
			thoughtID = stringOrEmpty(m["id"])
			continue
		case "tool_call_message", "approval_request_message", "assistant_message":
			dm := dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: name}}
			if typ == "assistant_message" {
				dm.Text = strings.TrimSpace(contentOf(m["content"]))
			} else {
				dm.Calls = lettaCalls(m)
			}
			if thought != nil && (thoughtID == "" || thoughtID == stringOrEmpty(m["id"]) || stringOrEmpty(m["id"]) == "") {
				dm.Text = strings.TrimSpace(strings.TrimSpace(thought.Text + "\n\n" + dm.Text))
				thought = nil
			}
			flush()
			out = append(out, dm)
			continue
		}
		flush()
		switch typ {
		case "system_message":
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "system", Text: contentOf(m["content"])}})
		case "summary_message":
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "system", Text: stringOrEmpty(m["summary"])}})
		case "user_message":
			if role, text := lettaUserText(contentOf(m["content"])); text != "" {
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: role, Name: name, Text: text}})
			}
		case "tool_return_message":
			out = append(out, lettaReturns(m)...)
		case "approval_response_message":
			out = append(out, lettaApprovals(m)...)
		}
	}
	flush()
	return out, true
}

// lettaCalls reads the calls of a tool call or an approval request:
// tool_calls, else the one tool_call (the field Letta kept from before
// parallel calls); arguments as compact JSON.
func lettaCalls(m map[string]any) []ToolCall {
	list, _ := m["tool_calls"].([]any)
	if len(list) == 0 {
		list = []any{m["tool_call"]}
	}
	var calls []ToolCall
	for _, e := range list {
		c, _ := e.(map[string]any)
		if stringOrEmpty(c["name"]) == "" {
			continue
		}
		args := textOf(c["arguments"])
		if a, ok := c["arguments"].(string); ok {
			args = compactJSON(json.RawMessage(a))
		}
		calls = append(calls, ToolCall{ID: stringOrEmpty(c["tool_call_id"]), Name: stringOrEmpty(c["name"]), Arguments: args})
	}
	return calls
}

// lettaReturns reads a tool return message: each of its tool_returns,
// else its one return (tool_return, status, tool_call_id); a return
// whose status is "error" is an error, its stderr its text when it
// returned none.
func lettaReturns(m map[string]any) []dumpMessage {
	list, _ := m["tool_returns"].([]any)
	if len(list) == 0 {
		list = []any{m}
	}
	var out []dumpMessage
	for _, e := range list {
		r, _ := e.(map[string]any)
		text := strings.TrimSpace(contentOf(r["tool_return"]))
		failed := stringOrEmpty(r["status"]) == "error"
		if text == "" && failed {
			text = strings.TrimSpace(contentOf(r["stderr"]))
		}
		out = append(out, dumpMessage{chatMessage: chatMessage{Role: "tool", Text: text, CallID: stringOrEmpty(r["tool_call_id"])}, failed: failed})
	}
	return out
}

// lettaApprovals reads the user's answer to an approval request: each
// approval as the user's word (approved, or denied with its reason), and
// a tool's return given with it as that tool's result.
func lettaApprovals(m map[string]any) []dumpMessage {
	list, _ := m["approvals"].([]any)
	if len(list) == 0 && m["approve"] != nil {
		list = []any{m}
	}
	var out []dumpMessage
	for _, e := range list {
		a, _ := e.(map[string]any)
		if a["tool_return"] != nil {
			out = append(out, lettaReturns(a)...)
			continue
		}
		approve, ok := a["approve"].(bool)
		if !ok {
			continue
		}
		text := "Approved."
		if !approve {
			text = "Denied."
		}
		if reason := strings.TrimSpace(stringOrEmpty(a["reason"])); reason != "" {
			text += " " + reason
		}
		out = append(out, dumpMessage{chatMessage: chatMessage{Role: "user", Text: text}})
	}
	return out
}

// lettaUserText reads what a user message of Letta's says. Letta's
// earlier agents packed the user's words into JSON ({"type":
// "user_message", "message", "time"}), and its own notices came in the
// user's role the same way: a heartbeat or a login is no one's words and
// is left out, a system alert the system's.
func lettaUserText(text string) (role, said string) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "{") {
		return "user", t
	}
	var packed struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}
	if json.Unmarshal([]byte(t), &packed) != nil {
		return "user", t
	}
	switch packed.Type {
	case "user_message":
		return "user", strings.TrimSpace(packed.Message)
	case "heartbeat", "login":
		return "", ""
	case "system_alert":
		return "system", strings.TrimSpace(packed.Message)
	}
	return "user", t
}
