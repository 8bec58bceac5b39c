package run_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestPareaTeam: Parea's trace log of a team, each agent a traced function
// with a model call inside it, is read agent by agent, each answer spoken
// by the agent whose function holds the call.
func TestPareaTeam(t *testing.T) {
	const data = `{"trace_id":"r","root_trace_id":"r","parent_trace_id":"r","trace_name":"team","start_timestamp":"2024-12-02T14:00:00Z","end_timestamp":"2024-12-02T14:00:09Z","inputs":{"task":"Write slugify."},"output":"Ready.","children_logs":[` +
		`{"trace_id":"c","root_trace_id":"r","parent_trace_id":"r","trace_name":"coder","start_timestamp":"2024-12-02T14:00:01Z","end_timestamp":"2024-12-02T14:00:04Z","inputs":{"task":"Write slugify."},"output":"def slugify(t): return t","children_logs":[` +
		`{"trace_id":"c1","root_trace_id":"r","parent_trace_id":"c","trace_name":"llm-openai","start_timestamp":"2024-12-02T14:00:02Z","end_timestamp":"2024-12-02T14:00:03Z","configuration":{"model":"gpt-4o","messages":[{"role":"system","content":"You are coder."},{"role":"user","content":"Write slugify."}]},"output":"def slugify(t): return t"}]},` +
		`{"trace_id":"x","root_trace_id":"r","parent_trace_id":"r","trace_name":"tester","start_timestamp":"2024-12-02T14:00:04.5Z","end_timestamp":"2024-12-02T14:00:04.9Z","inputs":{"code":"def slugify(t): return t"},"output":"1 passed","children_logs":[` +
		`{"trace_id":"x1","root_trace_id":"r","parent_trace_id":"x","trace_name":"llm-openai","start_timestamp":"2024-12-02T14:00:04.6Z","end_timestamp":"2024-12-02T14:00:04.8Z","configuration":{"model":"gpt-4o","messages":[{"role":"user","content":"def slugify(t): return t"}]},"output":"1 passed"}]},` +
		`{"trace_id":"v","root_trace_id":"r","parent_trace_id":"r","trace_name":"reviewer","start_timestamp":"2024-12-02T14:00:05Z","end_timestamp":"2024-12-02T14:00:08Z","inputs":{"code":"def slugify(t): return t"},"output":"Ready.","children_logs":[` +
		`{"trace_id":"v1","root_trace_id":"r","parent_trace_id":"v","trace_name":"llm-openai","start_timestamp":"2024-12-02T14:00:06Z","end_timestamp":"2024-12-02T14:00:07Z","configuration":{"model":"gpt-4o","messages":[{"role":"user","content":"def slugify(t): return t"}]},"output":"Ready."}]}]}`
	cases, err := run.ParseAll(context.Background(), "parea.json", []byte(data), run.Options{})
	require.NoError(t, err)
	require.Len(t, cases, 1)
	said := map[string]string{}
	for _, s := range cases[0].Run.Steps {
		if s.Agent != "user" {
			said[s.Content] = s.Agent
		}
	}
	assert.Equal(t, map[string]string{"def slugify(t): return t": "coder", "1 passed": "tester", "Ready.": "reviewer"}, said)
}

// TestModelCallTextOutputAlone: a model call's span whose output is the
// answer as plain text, with no span around it that repeats it, is read
// as that answer.
func TestModelCallTextOutputAlone(t *testing.T) {
	const data = `[{"span_id":"a","trace_id":"t","name":"chat","span_kind":"LLM","start_time":1,"end_time":2,"input":[{"role":"user","content":"Capital of France?"}],"output":"Lyon."}]`
	cases, err := run.ParseAll(context.Background(), "spans.json", []byte(data), run.Options{})
	require.NoError(t, err)
	require.Len(t, cases, 1)
	steps := cases[0].Run.Steps
	require.Len(t, steps, 2)
	assert.Equal(t, "Lyon.", steps[1].Content)
	assert.NotEqual(t, "user", steps[1].Agent)
}
