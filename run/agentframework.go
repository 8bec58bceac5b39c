package run

// The Microsoft Agent Framework's saved runs: its ChatMessage as Python's
// to_dict and .NET's serializer write it ({"role", "author_name",
// "contents": [{"type": "text" | "function_call" | "function_result", …}]},
// the role also as {"type": "role", "value"}; .NET's "authorName" and
// contents by "$type"), a serialized thread (its message store's
// messages) and a workflow run's events, whose agent executors' responses
// and streamed updates hold the messages. Each content list is read as
// Semantic Kernel's items are (kernelMessages), its ancestor's shape.

import (
	"maps"
	"slices"
	"strings"
)

// frameworkContents are the content types of the Agent Framework's
// messages that carry what was said or called, in Python's and .NET's
// spelling, as the content_type of the Semantic Kernel item each is read
// as; its other contents (usage, reasoning, a hosted file) say nothing a
// step holds.
var frameworkContents = map[string]string{
	"text": "text", "function_call": "function_call", "functionCall": "function_call",
	"function_result": "function_result", "functionResult": "function_result", "error": "text",
}

// contentsKeys mark a list of contents as the Agent Framework's.
var contentsKeys = []string{"type", "$type"}

// frameworkMessage reads one of the Agent Framework's messages, whose
// contents are listed under "contents"; ok is false when m is none (no
// role, or no content of a type the framework writes).
func frameworkMessage(m map[string]any) (out []dumpMessage, ok bool) {
	contents, _ := m["contents"].([]any)
	role := frameworkRole(m)
	if role == "" || !objectsWith(contents, contentsKeys...) {
		return nil, false
	}
	items := make([]any, 0, len(contents))
	failed := map[string]bool{}
	for _, c := range contents {
		cm, _ := c.(map[string]any)
		typ := firstNonEmpty(stringOrEmpty(cm["type"]), stringOrEmpty(cm["$type"]))
		kind, known := frameworkContents[typ]
		if !known {
			continue
		}
		id := firstNonEmpty(stringOrEmpty(cm["call_id"]), stringOrEmpty(cm["callId"]))
		item := map[string]any{"content_type": kind, "id": id, "name": cm["name"], "arguments": cm["arguments"], "result": cm["result"], "text": cm["text"]}
		if typ == "error" {
			item["text"] = strings.TrimSpace("Error: " + firstNonEmpty(stringOrEmpty(cm["message"]), stringOrEmpty(cm["error_code"])))
		}
		if kind == "function_result" && (cm["exception"] != nil || cm["Exception"] != nil) {
			failed[id] = true
			if cm["result"] == nil {
				item["result"] = textOf(firstNonNil(cm["exception"], cm["Exception"]))
			}
		}
		items = append(items, item)
	}
	name := firstNonEmpty(stringOrEmpty(m["author_name"]), stringOrEmpty(m["authorName"]))
	out = kernelMessages(map[string]any{"role": role, "name": name}, items)
	for i := range out {
		if out[i].CallID != "" && failed[out[i].CallID] {
			out[i].failed = true
		}
	}
	return out, true
}

// frameworkRole is a message's role: a string, or the object Python's
// to_dict writes ({"type": "role", "value": "user"}).
func frameworkRole(m map[string]any) string {
	switch r := m["role"].(type) {
	case string:
		return r
	case map[string]any:
		return stringOrEmpty(r["value"])
	}
	return ""
}

func firstNonNil(xs ...any) any {
	for _, x := range xs {
		if x != nil {
			return x
		}
	}
	return nil
}

// frameworkThread is the list of messages a serialized thread keeps in
// its message store ({"chat_message_store_state": {"messages"}}, .NET's
// "storeState"); ok is false for any other object.
func frameworkThread(data []byte) ([]any, bool) {
	top, err := anyList(data, "")
	if err != nil || len(top) != 1 {
		return nil, false
	}
	o, _ := top[0].(map[string]any)
	for _, key := range []string{"chat_message_store_state", "storeState", "StoreState"} {
		store, _ := o[key].(map[string]any)
		if list, ok := store["messages"].([]any); ok && slices.ContainsFunc(list, frameworkMarked) {
			return list, true
		}
	}
	return nil, false
}

// frameworkMarked reports whether e is one of the Agent Framework's
// messages.
func frameworkMarked(e any) bool {
	m, _ := e.(map[string]any)
	_, ok := frameworkMessage(m)
	return ok
}

// frameworkEvents reads a workflow run's events (a list, or an object's
// "events"): the messages of each agent executor's response
// (AgentRunEvent's data, an AgentRunResponse) and of its streamed updates
// (AgentRunUpdateEvent's, each part of one message, joined by the
// message's id), each named for its executor when it names no author, and
// the workflow's output when no message said it already. ok is false
// unless some event is an agent's run or the workflow's output.
func frameworkEvents(data []byte) (list []any, agents []string, ok bool) {
	events, err := anyList(data, "")
	if err == nil && len(events) == 1 {
		if o, is := events[0].(map[string]any); is {
			events, _ = o["events"].([]any)
		}
	}
	var stream map[string]any // the message updates are being joined into
	streamKey := ""
	output := map[int]bool{} // the workflow's outputs among list
	add := func(m any, agent string) {
		list = append(list, m)
		agents = append(agents, agent)
	}
	for _, e := range events {
		em, _ := e.(map[string]any)
		typ := stringOrEmpty(em["type"])
		if !strings.HasSuffix(typ, "Event") {
			if em != nil && typ != "" {
				return nil, nil, false
			}
			continue
		}
		executor := firstNonEmpty(stringOrEmpty(em["executor_id"]), stringOrEmpty(em["executorId"]), stringOrEmpty(em["source_executor_id"]))
		data, _ := em["data"].(map[string]any)
		switch typ {
		case "AgentRunEvent", "AgentResponseEvent":
			ok = true
			stream = nil
			msgs, _ := data["messages"].([]any)
			for _, m := range msgs {
				add(m, executor)
			}
		case "AgentRunUpdateEvent", "AgentResponseUpdateEvent":
			ok = true
			contents, _ := data["contents"].([]any)
			key := executor + "\x00" + firstNonEmpty(stringOrEmpty(data["message_id"]), stringOrEmpty(data["messageId"])) + "\x00" + frameworkRole(data)
			if stream != nil && key == streamKey {
				stream["contents"] = append(stream["contents"].([]any), contents...)
				continue
			}
			stream, streamKey = map[string]any{"role": firstNonEmpty(frameworkRole(data), "assistant"), "author_name": firstNonEmpty(stringOrEmpty(data["author_name"]), stringOrEmpty(data["authorName"])), "contents": append([]any(nil), contents...)}, key
			list = append(list, stream)
			agents = append(agents, executor)
		case "WorkflowOutputEvent":
			ok = true
			stream = nil
			if executor == "" && len(agents) > 0 {
				// An output that names no executor is the last one's.
				executor = agents[len(agents)-1]
			}
			if text, is := em["data"].(string); is && strings.TrimSpace(text) != "" {
				output[len(list)] = true
				add(map[string]any{"role": "assistant", "contents": []any{map[string]any{"type": "text", "text": text}}}, executor)
			}
		}
	}
	said := map[string]bool{}
	var kept []any
	var keptAgents []string
	for i, m := range list {
		// Streamed text arrives in pieces: each message's are one text.
		mm, _ := m.(map[string]any)
		mm = joinedTexts(mm)
		ms, _ := frameworkMessage(mm)
		if output[i] && len(ms) == 1 && said[strings.TrimSpace(ms[0].Text)] {
			continue // the output repeats what an agent said
		}
		for _, dm := range ms {
			said[strings.TrimSpace(dm.Text)] = true
		}
		kept, keptAgents = append(kept, mm), append(keptAgents, agents[i])
	}
	return kept, keptAgents, ok && len(kept) > 0
}

// joinedTexts is m with its text contents that follow one another joined
// into one, as a stream's pieces make one message's text.
func joinedTexts(m map[string]any) map[string]any {
	contents, _ := m["contents"].([]any)
	var out []any
	for _, c := range contents {
		cm, _ := c.(map[string]any)
		if stringOrEmpty(cm["type"]) == "text" && len(out) > 0 {
			if prev, _ := out[len(out)-1].(map[string]any); stringOrEmpty(prev["type"]) == "text" {
				out[len(out)-1] = map[string]any{"type": "text", "text": stringOrEmpty(prev["text"]) + stringOrEmpty(cm["text"])}
				continue
			}
		}
		out = append(out, c)
	}
	if len(out) == len(contents) {
		return m
	}
	joined := maps.Clone(m)
	joined["contents"] = out
	return joined
}

// frameworkEvent reports whether m is an event of an Agent Framework
// workflow: an agent's run or update, or the workflow's output.
func (m message) frameworkEvent() bool {
	return m.Role == "" && (strings.HasPrefix(m.Type, "AgentRun") || strings.HasPrefix(m.Type, "AgentResponse") || m.Type == "WorkflowOutputEvent")
}
