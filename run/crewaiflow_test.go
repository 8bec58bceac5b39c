package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// flowRows are a CrewAI Flow's persisted states as `sqlite3 -json` lists
// the rows of its flow_states table: the state after each method.
const flowRows = `[
 {"id": 1, "flow_uuid": "f1", "method_name": "generate_outline", "timestamp": "2025-04-02 12:01:09", "state_json": "{\"id\": \"f1\", \"topic\": \"Heat pumps in cold climates\", \"outline\": [\"Heat pumps stop working below -15 C\"], \"sections\": [], \"final_report\": \"\"}"},
 {"id": 2, "flow_uuid": "f1", "method_name": "write_sections", "timestamp": "2025-04-02 12:02:41", "state_json": "{\"id\": \"f1\", \"topic\": \"Heat pumps in cold climates\", \"outline\": [\"Heat pumps stop working below -15 C\"], \"sections\": [\"Below -15 C a heat pump gives no heat.\"], \"final_report\": \"\"}"},
 {"id": 3, "flow_uuid": "f1", "method_name": "compile_report", "timestamp": "2025-04-02 12:03:05", "state_json": {"id": "f1", "topic": "Heat pumps in cold climates", "outline": ["Heat pumps stop working below -15 C"], "sections": ["Below -15 C a heat pump gives no heat."], "final_report": "Keep gas boilers."}}]`

// TestCrewAIFlowStateNumbers: a state's numbers read as written, and the
// same whether the state is kept as text or as an object.
func TestCrewAIFlowStateNumbers(t *testing.T) {
	for _, tc := range []struct {
		name, rows string
		want       []string
	}{
		{
			name: "a large number changed by one",
			rows: `[{"flow_uuid": "f", "method_name": "a", "state_json": "{\"id\": \"f\", \"n\": 12345678901234567890}"},
				{"flow_uuid": "f", "method_name": "b", "state_json": "{\"id\": \"f\", \"n\": 12345678901234567891}"}]`,
			want: []string{"n: 12345678901234567890", "n: 12345678901234567891"},
		},
		{
			name: "text then object, a number unchanged",
			rows: `[{"flow_uuid": "f", "method_name": "a", "state_json": "{\"id\": \"f\", \"n\": 5}"},
				{"flow_uuid": "f", "method_name": "b", "state_json": {"id": "f", "n": 5, "note": "done"}}]`,
			want: []string{"n: 5", "note: done"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			list, err := anyList([]byte(tc.rows), "")
			require.NoError(t, err)
			ms, _, ok := flowStates(list)
			require.True(t, ok)
			require.Len(t, ms, 2)
			assert.Equal(t, tc.want, []string{ms[0].Text, ms[1].Text})
		})
	}
}

// TestCrewAIFlowStates: a Flow's persisted states read a step of each
// method, the state's fields it changed its words, and the text fields
// no method changes the task.
func TestCrewAIFlowStates(t *testing.T) {
	for name, data := range map[string]string{
		"rows":     flowRows,
		"labelled": `{"mistake_agent": "generate_outline", "mistake_step": 1, "rows": ` + flowRows + `}`,
	} {
		t.Run(name, func(t *testing.T) {
			c, err := ParseCase("flow_states.json", []byte(data), Options{})
			require.NoError(t, err)
			r := c.Run
			assert.Equal(t, "Heat pumps in cold climates", r.Question)
			assert.Equal(t, []string{"user user", "generate_outline message", "write_sections message", "compile_report message"}, agentKinds(r))
			assert.Contains(t, r.Steps[1].Content, "Heat pumps stop working below -15 C")
			assert.NotContains(t, r.Steps[2].Content, "stop working", "a field its method did not change")
			assert.Contains(t, r.Steps[2].Content, "Below -15 C a heat pump gives no heat.")
			assert.Contains(t, r.Steps[3].Content, "Keep gas boilers.")
			if name == "labelled" {
				require.NotNil(t, c.Label)
				assert.Equal(t, 1, c.Label.Step)
			}
		})
	}
	_, _, ok := flowStates([]any{map[string]any{"flow_uuid": "a", "method_name": "m", "state_json": "{}"}, map[string]any{"flow_uuid": "b", "method_name": "m", "state_json": "{}"}})
	assert.False(t, ok, "the states of two flows")
}

// FuzzParseCrewAIFlow reads fuzzed CrewAI Flow states, from the test's
// shapes.
func FuzzParseCrewAIFlow(f *testing.F) {
	f.Add([]byte(flowRows))
	f.Add([]byte(`{"mistake_agent": "m", "mistake_step": 0, "rows": [{"flow_uuid": "a", "method_name": "m", "state_json": "{\"x\": 1}"}, {"flow_uuid": "a", "method_name": "n", "state_json": {"x": [1], "y": {}}}]}`))
	fuzzFormat(f, FormatAuto)
}
