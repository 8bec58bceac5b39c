package run

// The results multi-agent teams return, saved as they are: the OpenAI
// Agents SDK's RunResult (Python) with its new items, Strands' Swarm and
// Graph results with each node's result, a PraisonAI team's results per
// task, AG2's chat results (one, or the list initiate_chats returns),
// Magentic-One's event log and a Mastra agent network's streamed chunks.

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// runResultItems finds the items of a run of the OpenAI Agents SDK for
// Python as an app saves its RunResult: {"input", "new_items": [{"type",
// "raw_item", "agent"}…], "final_output", "last_agent"}, each item's agent
// its name or an object naming it. The input (a text, the user's, or a
// list of input items) comes first, then each item's raw item (a
// Responses API item), made by the item's agent; a handoff's output by
// the agent it hands off from (its source_agent). ok is false for any
// other object.
func runResultItems(data []byte) (list []any, agents []string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var res struct {
		Input any              `json:"input"`
		Items []map[string]any `json:"new_items"`
	}
	if dec.Decode(&res) != nil || len(res.Items) == 0 || !slices.ContainsFunc(res.Items, func(it map[string]any) bool { return it["raw_item"] != nil }) {
		return nil, nil, false
	}
	list, agents = runItems(res.Input, res.Items, "raw_item", "source_agent")
	return list, agents, true
}

// namedAgent is the agent v names: a name, or an object with one.
func namedAgent(v any) string {
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t)
	case map[string]any:
		return strings.TrimSpace(stringOrEmpty(t["name"]))
	}
	return ""
}

// nodeResults reads a multi-agent result that keeps each node's result
// under its id ("results": {ID: {"result": an agent's result, "status"}})
// beside the order the nodes ran in (Strands' SwarmResult "node_history",
// GraphResult "execution_order", each an id or {"node_id"}): each node's
// result, the last message its agent made, is its turn, at its last run
// (a result keeps its node's last run only). A node that failed without a
// result is its error. ok is false for any other object.
func nodeResults(o map[string]any) ([]dumpMessage, bool) {
	results, _ := o["results"].(map[string]any)
	order, _ := firstNonNil(o["node_history"], o["execution_order"]).([]any)
	if len(results) == 0 || len(order) == 0 {
		return nil, false
	}
	var ids []string
	for _, e := range order {
		id := namedAgent(e)
		if m, ok := e.(map[string]any); ok {
			id = firstNonEmpty(strings.TrimSpace(stringOrEmpty(m["node_id"])), id)
		}
		if _, ok := results[id].(map[string]any); !ok {
			return nil, false
		}
		ids = append(ids, id)
	}
	var out []dumpMessage
	for i, id := range ids {
		if slices.Contains(ids[i+1:], id) {
			continue
		}
		node := results[id].(map[string]any)
		res, _ := node["result"].(map[string]any)
		msg, _ := res["message"].(map[string]any)
		text := strings.TrimSpace(blocksText(msg["content"]))
		if text == "" {
			if errText := strings.TrimSpace(stringOrEmpty(firstNonNil(node["error"], res["error"]))); errText != "" {
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: id, Text: errorText(errText)}})
			}
			continue
		}
		out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: id, Text: text}})
	}
	return out, len(out) > 0
}

// blocksText is the text of a message's content: a text, or a list of
// blocks whose texts are joined ({"text"}; other blocks, a tool's use or
// result, hold none).
func blocksText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case []any:
		var parts []string
		for _, e := range t {
			if m, ok := e.(map[string]any); ok {
				if s, ok := m["text"].(string); ok && strings.TrimSpace(s) != "" {
					parts = append(parts, s)
				}
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

// taskResults reads a team's results per task as PraisonAI returns them
// ("task_results": {ID: {"description", "raw", "agent"}}, beside
// "task_status"): in the order of their ids, each task's description (the
// team's author's), then what its agent gave. ok is false for any other
// object.
func taskResults(o map[string]any) ([]dumpMessage, bool) {
	results, _ := o["task_results"].(map[string]any)
	if len(results) == 0 || o["task_status"] == nil {
		return nil, false
	}
	ids := make([]string, 0, len(results))
	for id, t := range results {
		m, ok := t.(map[string]any)
		if !ok || m["raw"] == nil || m["agent"] == nil {
			return nil, false
		}
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		a, aerr := strconv.Atoi(ids[i])
		b, berr := strconv.Atoi(ids[j])
		if aerr == nil && berr == nil {
			return a < b
		}
		if (aerr == nil) != (berr == nil) {
			return aerr == nil
		}
		return ids[i] < ids[j]
	})
	var out []dumpMessage
	for _, id := range ids {
		t := results[id].(map[string]any)
		out = append(out,
			dumpMessage{chatMessage: chatMessage{Role: "user", Text: stringOrEmpty(t["description"])}},
			dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: namedAgent(t["agent"]), Text: stringOrEmpty(t["raw"])}})
	}
	return out, true
}

// chatResults are the messages of AG2's (AutoGen 0.2's) chat results,
// each {"chat_history": [messages], "summary", "cost"}, one after another
// (initiate_chats returns one for each chat in turn: the next chat's
// first message carries the summaries before it), the first the request
// the chats were started with. ok is false when some element is no chat
// result.
func chatResults(list []any) ([]message, bool) {
	var all []json.RawMessage
	for _, e := range list {
		m, _ := e.(map[string]any)
		history, ok := m["chat_history"].([]any)
		if !ok || m["summary"] == nil && m["cost"] == nil {
			return nil, false
		}
		for _, h := range history {
			raw, err := json.Marshal(h)
			if err != nil {
				return nil, false
			}
			all = append(all, raw)
		}
	}
	if len(all) == 0 {
		return nil, false
	}
	msgs := make([]message, len(all))
	for i, raw := range all {
		if json.Unmarshal(raw, &msgs[i]) != nil || !msgs[i].said() {
			return nil, false
		}
	}
	if msgs[0].Role == "assistant" {
		// A chat's history is kept as its initiator sees it, its own
		// messages the assistant's: the first is the request the chat
		// was started with, the user's.
		msgs[0].Role = "user"
	}
	return msgs, true
}

// sourceEvents reads a log of events each naming its type ("…Event") and
// the source of its message, as Magentic-One's log writes them
// ({"source": "Orchestrator (thought)", "message", "type":
// "OrchestrationEvent"}; a model call's tokens, "LLMCallEvent", say
// nothing and are passed over): each message is its source's step, the
// source named as a Who&When history names its speakers ("Orchestrator
// (-> WebSurfer)"), but the first message, the request the team was
// given, which is the user's and the task. ok is false when some event has no such type.
func sourceEvents(list []any) (*Case, bool, error) {
	var history []map[string]string
	for _, e := range list {
		m, _ := e.(map[string]any)
		typ, _ := m["type"].(string)
		if !strings.HasSuffix(typ, "Event") {
			return nil, false, nil
		}
		source, _ := m["source"].(string)
		text, _ := m["message"].(string)
		if strings.TrimSpace(source) == "" || strings.TrimSpace(text) == "" {
			continue
		}
		history = append(history, map[string]string{"role": source, "content": text})
	}
	if len(history) == 0 {
		return nil, false, nil
	}
	history[0]["role"] = "human"
	js, err := json.Marshal(map[string]any{"question": history[0]["content"], "history": history})
	if err != nil {
		return nil, false, nil
	}
	c, err := object(js, FormatAuto)
	return c, true, err
}

// networkChunks reads the chunks an agent network streams as it runs, as
// Mastra's network writes them ({"type", "payload"}): the routing agent's
// choice (routing-agent-end: the agent or tool it picks, "primitiveId",
// with the prompt it gives and its reason; or, when it finds the task
// complete, the result) is its handoff to that agent, or its answer; an
// agent's tool calls and their results (agent-execution-event-tool-call,
// …-tool-result) its calls; and what the agent gives back
// (agent-execution-end's "result") its message. The task the payloads
// carry is the run's. ok is false when some chunk has no such type, or
// none is an agent's or the router's.
func networkChunks(list []any) (ms []dumpMessage, task string, ok bool) {
	router, agent := "", ""
	for _, e := range list {
		m, _ := e.(map[string]any)
		typ, _ := m["type"].(string)
		p, _ := m["payload"].(map[string]any)
		if typ == "" || p == nil {
			return nil, "", false
		}
		if t := strings.TrimSpace(stringOrEmpty(p["task"])); t != "" && task == "" {
			task = t
		}
		switch {
		case typ == "routing-agent-start":
			router = firstNonEmpty(strings.TrimSpace(stringOrEmpty(p["agentId"])), router)
		case typ == "routing-agent-end":
			name := firstNonEmpty(router, "routing-agent")
			if id := strings.TrimSpace(stringOrEmpty(p["primitiveId"])); id != "" {
				text := strings.TrimSpace(strings.Join(nonEmpty([]string{stringOrEmpty(p["selectionReason"]), stringOrEmpty(p["prompt"])}), "\n"))
				ms = append(ms, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: name, Text: firstNonEmpty(text, id)}, kind: KindHandoff, target: id})
				agent = id
			} else if res := strings.TrimSpace(stringOrEmpty(p["result"])); res != "" {
				ms = append(ms, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: name, Text: res}})
			}
		case typ == "agent-execution-start":
			agent = firstNonEmpty(strings.TrimSpace(stringOrEmpty(p["agentId"])), agent)
		case strings.HasSuffix(typ, "-tool-call"):
			args, _ := json.Marshal(p["args"])
			ms = append(ms, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: agent, Calls: []ToolCall{{
				ID: stringOrEmpty(p["toolCallId"]), Name: stringOrEmpty(p["toolName"]), Arguments: string(args)}}}})
		case strings.HasSuffix(typ, "-tool-result"):
			res, _ := p["result"].(map[string]any)
			text, isText := p["result"].(string)
			if !isText {
				raw, _ := json.Marshal(p["result"])
				text = string(raw)
			}
			failed := p["isError"] == true || res["error"] != nil && len(res) == 1
			ms = append(ms, dumpMessage{chatMessage: chatMessage{Role: "tool", Text: text, CallID: stringOrEmpty(p["toolCallId"])}, tool: stringOrEmpty(p["toolName"]), failed: failed})
		case typ == "agent-execution-end":
			id := firstNonEmpty(strings.TrimSpace(stringOrEmpty(p["agentId"])), agent)
			if res := strings.TrimSpace(stringOrEmpty(p["result"])); res != "" {
				ms = append(ms, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: id, Text: res}})
			}
		}
	}
	return ms, task, len(ms) > 0
}

// chatResultObject is chatResults for data, one chat result.
func chatResultObject(data []byte) ([]message, bool) {
	if !bytes.Contains(data, []byte(`"chat_history"`)) {
		return nil, false
	}
	var o map[string]any
	if json.Unmarshal(data, &o) != nil || o == nil {
		return nil, false
	}
	return chatResults([]any{o})
}
