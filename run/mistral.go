package run

import "strings"

// mistralConversation reads a conversation of Mistral's Agents API as its
// endpoints return it: the history ({"object": "conversation.history",
// "entries": [...]}) or a turn's response ({"object":
// "conversation.response", "outputs": [...]}). Each entry says what it is
// by its "type": "message.input" (the user's), "message.output" (an
// agent's words, "content" a text or chunks), "function.call" (a call,
// "tool_call_id", "name", "arguments") and "function.result" (its
// "result"), "tool.execution" (a built-in tool the API ran, "name",
// "arguments", "info") and "agent.handoff" (from "previous_agent_name" to
// "next_agent_name"). An agent is named as the handoffs name its id, and
// an entry without an agent id is the agent that was handed the
// conversation last (before any handoff, the first handoff's previous
// agent). ok is false for any other object.
func mistralConversation(o map[string]any) ([]dumpMessage, bool) {
	var entries []any
	switch o["object"] {
	case "conversation.history":
		entries = dataList(o["entries"])
	case "conversation.response":
		entries = dataList(o["outputs"])
	default:
		return nil, false
	}
	if !objectsAll(entries, func(e map[string]any) bool { _, ok := e["type"].(string); return ok }) {
		return nil, false
	}
	names := map[string]string{}
	current := ""
	for _, e := range entries {
		m := e.(map[string]any)
		if m["type"] != "agent.handoff" {
			continue
		}
		prev, next := strings.TrimSpace(stringOrEmpty(m["previous_agent_name"])), strings.TrimSpace(stringOrEmpty(m["next_agent_name"]))
		if id := stringOrEmpty(m["previous_agent_id"]); id != "" && prev != "" {
			names[id] = prev
		}
		if id := stringOrEmpty(m["next_agent_id"]); id != "" && next != "" {
			names[id] = next
		}
		if current == "" {
			current = prev
		}
	}
	agent := func(m map[string]any) string {
		if n := names[stringOrEmpty(m["agent_id"])]; n != "" {
			return n
		}
		return current
	}
	var out []dumpMessage
	for _, e := range entries {
		m := e.(map[string]any)
		switch m["type"] {
		case "message.input":
			role := stringOrEmpty(m["role"])
			if role == "" {
				role = "user"
			}
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: role, Text: llamaStackText(m["content"])}})
		case "message.output":
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: agent(m), Text: llamaStackText(m["content"])}})
		case "function.call", "tool.execution":
			id := stringOrEmpty(firstNonNil(m["tool_call_id"], m["id"]))
			call := ToolCall{ID: id, Name: stringOrEmpty(m["name"]), Arguments: textOf(m["arguments"])}
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: agent(m), Calls: []ToolCall{call}}})
			if m["type"] == "tool.execution" && m["info"] != nil {
				// A built-in tool's entry holds what it returned.
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "tool", Name: agent(m), Text: textOf(m["info"]), CallID: id}, tool: call.Name})
			}
		case "function.result":
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "tool", Name: agent(m), Text: textOf(m["result"]), CallID: stringOrEmpty(m["tool_call_id"])}})
		case "agent.handoff":
			next := strings.TrimSpace(stringOrEmpty(m["next_agent_name"]))
			prev := strings.TrimSpace(stringOrEmpty(m["previous_agent_name"]))
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: prev, Text: next}, kind: KindHandoff, target: next})
			current = next
		}
	}
	return out, len(out) > 0
}
