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
