package run

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// llamaEvent is an event as a LlamaIndex workflow's JSON serializer
// writes it.
func llamaEvent(class string, value map[string]any) map[string]any {
	return map[string]any{"__is_pydantic": true, "value": value,
		"qualified_name": "llama_index.core.agent.workflow.workflow_events." + class}
}

// llamaChat is a LlamaIndex ChatMessage as pydantic dumps it.
func llamaChat(role, text string, kw map[string]any) map[string]any {
	if kw == nil {
		kw = map[string]any{}
	}
	var blocks []any
	if text != "" {
		blocks = append(blocks, map[string]any{"block_type": "text", "text": text})
	}
	return map[string]any{"role": role, "additional_kwargs": kw, "blocks": blocks}
}

// llamaStream is an AgentWorkflow's events: a researcher given the
// question searches, its search fails, it hands over to a writer who
// answers. Each AgentInput gives the whole history again; AgentStream,
// ToolCall and StopEvent repeat what an output said.
func llamaStream() []any {
	sys := llamaChat("system", "You research.", nil)
	user := llamaChat("user", "When did the bridge open?", nil)
	call := map[string]any{"tool_id": "c1", "tool_name": "search", "tool_kwargs": map[string]any{"q": "bridge opened"}}
	asked := llamaChat("assistant", "", map[string]any{"tool_calls": []any{map[string]any{"id": "c1", "type": "function",
		"function": map[string]any{"name": "search", "arguments": `{"q": "bridge opened"}`}}}})
	result := llamaChat("tool", "timed out", map[string]any{"tool_call_id": "c1", "name": "search"})
	hand := map[string]any{"tool_id": "c2", "tool_name": "handoff", "tool_kwargs": map[string]any{"to_agent": "Writer", "reason": "write it up"}}
	handed := llamaChat("tool", "Agent Writer is now handling the request", map[string]any{"tool_call_id": "c2", "name": "handoff"})
	answer := llamaChat("assistant", "It opened in 1932.", nil)
	return []any{
		llamaEvent("AgentInput", map[string]any{"input": []any{sys, user}, "current_agent_name": "Researcher"}),
		llamaEvent("AgentStream", map[string]any{"delta": "", "response": "", "current_agent_name": "Researcher", "tool_calls": []any{call}}),
		llamaEvent("AgentOutput", map[string]any{"response": asked, "tool_calls": []any{call}, "current_agent_name": "Researcher", "retry_messages": []any{}}),
		llamaEvent("ToolCall", map[string]any{"tool_name": "search", "tool_kwargs": call["tool_kwargs"], "tool_id": "c1"}),
		llamaEvent("ToolCallResult", map[string]any{"tool_name": "search", "tool_kwargs": call["tool_kwargs"], "tool_id": "c1",
			"tool_output": map[string]any{"content": "timed out", "tool_name": "search", "raw_output": "timed out", "is_error": true}, "return_direct": false}),
		llamaEvent("AgentInput", map[string]any{"input": []any{sys, user, asked, result}, "current_agent_name": "Researcher"}),
		llamaEvent("AgentOutput", map[string]any{"response": llamaChat("assistant", "", nil), "tool_calls": []any{hand}, "current_agent_name": "Researcher"}),
		llamaEvent("ToolCallResult", map[string]any{"tool_name": "handoff", "tool_kwargs": hand["tool_kwargs"], "tool_id": "c2",
			"tool_output": map[string]any{"blocks": []any{map[string]any{"block_type": "text", "text": "Agent Writer is now handling the request"}}, "is_error": false}}),
		llamaEvent("AgentInput", map[string]any{"input": []any{sys, user, asked, result, handed}, "current_agent_name": "Writer"}),
		llamaEvent("AgentOutput", map[string]any{"response": answer, "tool_calls": []any{}, "current_agent_name": "Writer"}),
		map[string]any{"__is_pydantic": true, "qualified_name": "llama_index.core.workflow.events.StopEvent",
			"value": map[string]any{"result": map[string]any{"response": answer, "current_agent_name": "Writer"}}},
	}
}

// TestLlamaWorkflowEvents: a LlamaIndex agent workflow's serialized
// events, one a line with a label of its own or as a list, read as the
// agents' turns: each message given once however often the history is
// given again, each output under the agent that gave it with the calls it
// selected, each result after its call and failed when its output is an
// error (its text under "content" or in its blocks).
func TestLlamaWorkflowEvents(t *testing.T) {
	events := llamaStream()
	var lines []string
	for _, e := range events {
		b, err := json.Marshal(e)
		require.NoError(t, err)
		lines = append(lines, string(b))
	}
	list, err := json.Marshal(events)
	require.NoError(t, err)
	for name, tc := range map[string]struct {
		data  string
		label bool
	}{
		"lines with a label": {data: strings.Join(append(lines, `{"mistake_agent": "Writer", "mistake_step": 6}`), "\n"), label: true},
		"a list":             {data: string(list)},
	} {
		t.Run(name, func(t *testing.T) {
			c, err := ParseCase("events.jsonl", []byte(tc.data), Options{})
			require.NoError(t, err)
			var got []string
			for _, s := range c.Run.Steps {
				got = append(got, s.Agent+" "+string(s.Kind)+" "+s.Content)
			}
			assert.Equal(t, []string{
				"system system You research.",
				"user user When did the bridge open?",
				`Researcher tool_call search({"q": "bridge opened"})`,
				"Researcher tool_result Error: timed out",
				`Researcher tool_call handoff({"reason":"write it up","to_agent":"Writer"})`,
				"Researcher tool_result Agent Writer is now handling the request",
				"Writer message It opened in 1932.",
			}, got)
			require.Len(t, c.Run.Steps[2].ToolCalls(), 1)
			assert.Equal(t, ToolCall{ID: "c1", Name: "search", Arguments: `{"q": "bridge opened"}`}, c.Run.Steps[2].ToolCalls()[0])
			assert.Equal(t, "handoff", c.Run.Steps[4].ToolCalls()[0].Name)
			assert.Equal(t, "When did the bridge open?", c.Run.Question)
			if tc.label {
				require.NotNil(t, c.Label)
				assert.Equal(t, Label{Agent: "Writer", Step: 6}, *c.Label)
			}
		})
	}
}

// TestLlamaWorkflowToolCallAlone: a ToolCall no output selected is the
// call of the agent then running; a list of serialized values none of
// which is an output or a result is not read as a workflow's events.
func TestLlamaWorkflowToolCallAlone(t *testing.T) {
	events := []any{
		llamaEvent("AgentInput", map[string]any{"input": []any{llamaChat("user", "Add 2 and 3.", nil)}, "current_agent_name": "Agent"}),
		llamaEvent("ToolCall", map[string]any{"tool_name": "add", "tool_kwargs": map[string]any{"a": 2, "b": 3}, "tool_id": "t1"}),
		llamaEvent("ToolCallResult", map[string]any{"tool_name": "add", "tool_id": "t1", "tool_output": map[string]any{"content": "5", "is_error": false}}),
	}
	ms, ok := llamaWorkflowEvents(events)
	require.True(t, ok)
	require.Len(t, ms, 3)
	assert.Equal(t, "Agent", ms[1].Name)
	assert.Equal(t, []ToolCall{{ID: "t1", Name: "add", Arguments: `{"a":2,"b":3}`}}, ms[1].Calls)
	assert.Equal(t, "t1", ms[2].CallID)

	_, ok = llamaWorkflowEvents(events[:1])
	assert.False(t, ok)
	_, ok = llamaWorkflowEvents(append([]any{map[string]any{"value": map[string]any{}}}, events...))
	assert.False(t, ok)
}
