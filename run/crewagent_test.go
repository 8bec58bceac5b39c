package run

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAgentInInput: an agent span that names no agent but runs one given
// in its input (CrewAI's Task._execute_core, one span name for every
// agent of a crew) is that agent's.
func TestAgentInInput(t *testing.T) {
	var spans []any
	add := func(id, parent string, start int, attrs map[string]any) {
		spans = append(spans, map[string]any{"trace_id": "t1", "span_id": id, "parent_span_id": parent, "name": attrs["name"],
			"start_time": start, "end_time": start + 5, "attributes": attrs})
	}
	task := func(id string, start int, agent any) {
		in, err := json.Marshal(map[string]any{"agent": agent, "context": ""})
		require.NoError(t, err)
		add(id, "", start, map[string]any{"name": "Task._execute_core", "openinference.span.kind": "AGENT", "input.value": string(in)})
	}
	llm := func(id, parent string, start int, reply string) {
		add(id, parent, start, map[string]any{"name": "completion", "openinference.span.kind": "LLM",
			"llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": "Write the site.",
			"llm.output_messages.0.message.role": "assistant", "llm.output_messages.0.message.content": reply})
	}
	task("a", 10, "id=UUID('5b92f546') role='Researcher' goal='Find facts' backstory='Careful.'")
	llm("a1", "a", 11, "Facts found.")
	task("b", 20, map[string]any{"role": "Writer", "goal": "Write"})
	llm("b1", "b", 21, "Site written.")
	task("c", 30, "a plain text with no fields")
	llm("c1", "c", 31, "Reviewed.")
	task("d", 40, `id=UUID('77') role="Editor's aide" goal='Edit'`)
	llm("d1", "d", 41, "Edited.")
	data, err := json.Marshal(spans)
	require.NoError(t, err)

	r, err := Parse("crew.json", data, Options{})
	require.NoError(t, err)
	byText := map[string]string{}
	for _, s := range r.Steps {
		byText[s.Content] = s.Agent
	}
	assert.Equal(t, "Researcher", byText["Facts found."], "a repr's role")
	assert.Equal(t, "Writer", byText["Site written."], "an object's role")
	assert.Equal(t, "Task._execute_core", byText["Reviewed."], "no agent in the input: the span's name")
	assert.Equal(t, "Editor's aide", byText["Edited."], "a repr's double-quoted role")
}
