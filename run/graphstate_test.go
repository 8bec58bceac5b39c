package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGraphStateShapes: a thread's state as LangGraph's API gives it
// (snake case, messages as dicts) reads as LangGraph.js's does; values
// holding messages without a snapshot's other members are no state.
func TestGraphStateShapes(t *testing.T) {
	data := `{"values": {"messages": [
  {"type": "human", "content": "What should I pack for Oslo tomorrow?", "id": "m1"},
  {"type": "ai", "name": "researcher", "content": "Oslo tomorrow: 7 degrees Fahrenheit and rain.", "id": "m2"}]},
 "next": [], "tasks": [], "metadata": {"step": 3}, "created_at": "2026-11-29T01:00:00+00:00",
 "checkpoint": {"thread_id": "t1", "checkpoint_ns": "", "checkpoint_id": "c3"}, "parent_checkpoint": null}`
	r, err := Parse("state.json", []byte(data), Options{})
	require.NoError(t, err)
	assert.Equal(t, "What should I pack for Oslo tomorrow?", r.Question)
	require.Len(t, r.Steps, 2)
	assert.Equal(t, "researcher", r.Steps[1].Agent)

	_, ok := graphStateMessages([]byte(`{"values": {"messages": [{"type": "human", "content": "hi"}]}}`))
	assert.False(t, ok, "no snapshot's members")
	_, ok = graphStateMessages([]byte(`[{"values": {"messages": []}, "next": []}, {"role": "user"}]`))
	assert.False(t, ok, "a list that is not all snapshots")
}

// TestGraphCheckpointShapes: a checkpoint as a LangGraph checkpointer
// keeps it ({"v", "ts", "id", "channel_values", "channel_versions"…}),
// alone or in the tuple get_tuple gives ({"config", "checkpoint",
// "metadata", "parent_config", "pending_writes"}), reads its messages
// channel, dumpd's constructors, with the speakers they name.
func TestGraphCheckpointShapes(t *testing.T) {
	msgs := `[{"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "HumanMessage"], "kwargs": {"content": "What is 12,000 USD at 4.5% for 5 years?", "type": "human", "id": "h1"}},
  {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "AIMessage"], "kwargs": {"content": "", "type": "ai", "name": "supervisor", "id": "a1", "tool_calls": [{"name": "transfer_to_research_expert", "args": {}, "id": "c1", "type": "tool_call"}]}},
  {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "ToolMessage"], "kwargs": {"content": "Successfully transferred to research_expert", "type": "tool", "name": "transfer_to_research_expert", "id": "t1", "tool_call_id": "c1"}},
  {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "AIMessage"], "kwargs": {"content": "About 14,700 USD.", "type": "ai", "name": "research_expert", "id": "a2"}}]`
	checkpoint := `{"v": 4, "ts": "2025-08-21T16:40:12+00:00", "id": "1f0", "channel_values": {"messages": ` + msgs + `}, "channel_versions": {"messages": "9"}, "versions_seen": {}, "pending_sends": []}`
	for name, data := range map[string]string{
		"checkpoint": checkpoint,
		"tuple":      `{"config": {"configurable": {"thread_id": "7"}}, "checkpoint": ` + checkpoint + `, "metadata": {"source": "loop", "step": 8}, "parent_config": null, "pending_writes": [], "mistake_agent": "supervisor", "mistake_step": 1}`,
	} {
		t.Run(name, func(t *testing.T) {
			c, err := ParseCase("checkpoint.json", []byte(data), Options{})
			require.NoError(t, err)
			r := c.Run
			assert.Equal(t, "What is 12,000 USD at 4.5% for 5 years?", r.Question)
			require.Len(t, r.Steps, 4)
			assert.Equal(t, "supervisor", r.Steps[1].Agent)
			assert.Equal(t, "research_expert", r.Steps[3].Agent)
			if name == "tuple" {
				require.NotNil(t, c.Label)
				assert.Equal(t, 1, c.Label.Step)
			}
		})
	}
	_, ok := graphStateMessages([]byte(`{"channel_values": {"messages": [{"type": "human", "content": "hi"}]}}`))
	assert.False(t, ok, "channel values without a checkpoint's other members")
}
