package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMistralConversation: a Mistral Agents API conversation's history and
// a turn's response read entry by entry, agents named as the handoffs name
// their ids, a built-in tool's execution a call and its result, and a label
// beside the entries the run's.
func TestMistralConversation(t *testing.T) {
	tests := []struct {
		name  string
		data  string
		steps []string
		label *Label
	}{
		{"history with a handoff and a function call", `{"object": "conversation.history", "conversation_id": "conv_1", "entries": [
 {"object": "entry", "type": "message.input", "id": "m1", "role": "user", "content": "Where is order 7?", "prefix": false},
 {"object": "entry", "type": "agent.handoff", "id": "h1", "previous_agent_id": "ag_a", "previous_agent_name": "triage", "next_agent_id": "ag_b", "next_agent_name": "tracker"},
 {"object": "entry", "type": "function.call", "id": "fc1", "tool_call_id": "k1", "name": "get_status", "arguments": "{\"order_id\": \"7\"}"},
 {"object": "entry", "type": "function.result", "id": "fr1", "tool_call_id": "k1", "result": "{\"error\": \"timeout\"}"},
 {"object": "entry", "type": "message.output", "id": "m2", "agent_id": "ag_b", "model": "mistral-medium-latest", "role": "assistant", "content": [{"type": "text", "text": "It arrives today."}]}
], "mistake_agent": "tracker", "mistake_step": 4}`,
			[]string{
				"user user Where is order 7?",
				"triage handoff tracker",
				`tracker tool_call get_status({"order_id": "7"})`,
				`tracker tool_result {"error": "timeout"}`,
				"tracker message It arrives today.",
			}, &Label{Agent: "tracker", Step: 4}},
		{"a response with a built-in tool", `{"object": "conversation.response", "conversation_id": "conv_2", "outputs": [
 {"object": "entry", "type": "tool.execution", "id": "te1", "name": "web_search", "arguments": "{\"query\": \"Lyon weather\"}", "info": {"results": 3}},
 {"object": "entry", "type": "message.output", "id": "m3", "agent_id": "ag_c", "role": "assistant", "content": "Sunny."}
], "usage": {"prompt_tokens": 10}}`,
			[]string{
				`assistant tool_call web_search({"query": "Lyon weather"})`,
				`assistant tool_result {"results":3}`,
				"assistant message Sunny.",
			}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCase("conversation.json", []byte(tt.data), Options{})
			require.NoError(t, err)
			var got []string
			for _, s := range c.Run.Steps {
				got = append(got, s.Agent+" "+string(s.Kind)+" "+s.Content)
			}
			assert.Equal(t, tt.steps, got)
			assert.Equal(t, tt.label, c.Label)
		})
	}

	_, ok := mistralConversation(map[string]any{"object": "list", "entries": []any{map[string]any{"type": "message.input"}}})
	assert.False(t, ok, "no conversation object")
}
