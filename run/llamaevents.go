package run

// LlamaIndex agent workflows' event streams (AgentWorkflow, FunctionAgent,
// ReActAgent), each event as the workflow's JSON serializer writes a
// pydantic value: {"__is_pydantic": true, "value": {…}, "qualified_name":
// "llama_index.core.agent.workflow.workflow_events.AgentOutput"}. The
// events the agent's turns are: AgentInput ({"input": [ChatMessage…],
// "current_agent_name"}: the messages the agent is given, its history
// again each time), AgentOutput ({"response": ChatMessage, "tool_calls":
// [{"tool_id", "tool_name", "tool_kwargs"}], "current_agent_name"}),
// ToolCall ({"tool_name", "tool_kwargs", "tool_id"}) and ToolCallResult
// (the same and "tool_output": {"content" or "blocks", "is_error", …}).
// AgentStream's deltas and StopEvent's result repeat an AgentOutput.

import "strings"

// llamaEventClass is the class an element of a workflow's serialized
// stream names ("AgentOutput"), and its value; ok is false for an element
// that is no serialized pydantic value.
func llamaEventClass(e any) (class string, value map[string]any, ok bool) {
	m, _ := e.(map[string]any)
	q, _ := m["qualified_name"].(string)
	value, _ = m["value"].(map[string]any)
	if m == nil || q == "" || value == nil || m["__is_pydantic"] != true {
		return "", nil, false
	}
	return q[strings.LastIndex(q, ".")+1:], value, true
}

// llamaWorkflowEvents reads list as a LlamaIndex agent workflow's events;
// ok is false when some element is no serialized event or none is an
// agent's output or a tool's result. Each message an AgentInput gives is
// read once, the first time it is given (the history the agent is given
// again holds the outputs and results already read), an AgentOutput as
// the reply of the agent it names, with the calls it selected, and a
// ToolCallResult as the result of its call, failed when its output says
// it is an error. A ToolCall whose call no output selected is that
// agent's call.
func llamaWorkflowEvents(list []any) ([]dumpMessage, bool) {
	turns := 0
	for _, e := range list {
		class, _, ok := llamaEventClass(e)
		if !ok {
			return nil, false
		}
		if class == "AgentOutput" || class == "ToolCallResult" {
			turns++
		}
	}
	if turns == 0 {
		return nil, false
	}
	var out []dumpMessage
	seen := map[string]bool{}   // the messages read, by llamaMessageKey
	called := map[string]bool{} // the ids of the calls read
	agent := ""
	add := func(dm dumpMessage) {
		if r := normalRole(dm.Role); r != "user" && r != "system" && dm.Name == "" {
			dm.Name = agent
		}
		seen[llamaMessageKey(dm)] = true
		for _, c := range dm.Calls {
			if c.ID != "" {
				called[c.ID] = true
			}
		}
		out = append(out, dm)
	}
	for _, e := range list {
		class, v, _ := llamaEventClass(e)
		if name := strings.TrimSpace(stringOrEmpty(v["current_agent_name"])); name != "" {
			agent = name
		}
		switch class {
		case "AgentInput":
			input, _ := v["input"].([]any)
			for _, in := range input {
				m, ok := withoutNulls(in).(map[string]any)
				if !ok {
					continue
				}
				for _, dm := range elementMessages(m) {
					if !seen[llamaMessageKey(dm)] {
						add(dm)
					}
				}
			}
		case "AgentOutput":
			var ms []dumpMessage
			if m, ok := withoutNulls(v["response"]).(map[string]any); ok {
				ms = elementMessages(m)
			}
			if len(ms) != 1 {
				ms = []dumpMessage{{chatMessage: chatMessage{Role: "assistant"}}}
			}
			ms[0].Calls = uniqueCalls(append(ms[0].Calls, llamaCalls(v["tool_calls"])...))
			if ms[0].Text != "" || len(ms[0].Calls) > 0 {
				add(ms[0])
			}
		case "ToolCall":
			if c := llamaCall(v); c.Name != "" && !called[c.ID] {
				add(dumpMessage{chatMessage: chatMessage{Role: "assistant", Calls: []ToolCall{c}}})
			}
		case "ToolCallResult":
			o, _ := v["tool_output"].(map[string]any)
			text := strings.TrimSpace(textOf(o["content"]))
			if text == "" {
				if blocks, ok := o["blocks"].([]any); ok {
					text = blocksText(blocks)
				}
			}
			id := stringOrEmpty(v["tool_id"])
			add(dumpMessage{
				chatMessage: chatMessage{Role: "tool", CallID: id, Text: text},
				tool:        stringOrEmpty(v["tool_name"]),
				failed:      o["is_error"] == true,
			})
		}
	}
	return out, len(out) > 0
}

// llamaCalls are the calls of a list of LlamaIndex's ToolSelections.
func llamaCalls(x any) []ToolCall {
	list, _ := x.([]any)
	var calls []ToolCall
	for _, e := range list {
		m, _ := e.(map[string]any)
		if c := llamaCall(m); c.Name != "" {
			calls = append(calls, c)
		}
	}
	return calls
}

// llamaCall is the call a ToolSelection or a ToolCall event makes.
func llamaCall(m map[string]any) ToolCall {
	return ToolCall{ID: stringOrEmpty(m["tool_id"]), Name: stringOrEmpty(m["tool_name"]), Arguments: textOf(m["tool_kwargs"])}
}

// llamaMessageKey is what makes a message given again the same one: its
// role, text, the calls it makes and the call it answers.
func llamaMessageKey(dm dumpMessage) string {
	var b strings.Builder
	b.WriteString(normalRole(dm.Role))
	b.WriteByte(0)
	b.WriteString(strings.TrimSpace(dm.Text))
	b.WriteByte(0)
	b.WriteString(dm.CallID)
	for _, c := range dm.Calls {
		b.WriteByte(0)
		b.WriteString(c.ID)
		b.WriteByte(0)
		b.WriteString(c.Name)
	}
	return b.String()
}
