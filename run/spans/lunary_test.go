package spans

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lunaryRequests are two requests of run events in the shape Lunary's
// JavaScript SDK posts them: an agent, and a tool inside it that fails,
// its start in the first request and its error in the second.
const lunaryRequests = `{"events":[{"event":"start","type":"agent","timestamp":1764250000000,"runId":"a","input":"Weather in Oslo?","name":"researcher"},` +
	`{"event":"start","type":"tool","parentRunId":"a","timestamp":1764250001000,"runId":"w","input":{"city":"Olso"},"name":"get_weather"}]}
{"events":[{"event":"error","type":"tool","parentRunId":"a","timestamp":1764250001500,"runId":"w","name":"get_weather","error":{"message":"unknown city: Olso","stack":"Error: unknown city: Olso"}},` +
	`{"event":"end","type":"agent","timestamp":1764250002000,"runId":"a","name":"researcher","output":"7 °F."}]}
`

// TestLunary: a run's events are one span, of the trace of the run at the
// root of its parents, its type its kind, its error its status.
func TestLunary(t *testing.T) {
	assert.Equal(t, Lunary, Detect([]byte(lunaryRequests)))
	assert.Equal(t, Lunary, Detect([]byte(`[{"event":"start","type":"llm","runId":"r"}]`)))

	ss, err := Decode(context.Background(), []byte(lunaryRequests), Lunary)
	require.NoError(t, err)
	require.Len(t, ss, 2)
	agent, tool := ss[0], ss[1]
	assert.Equal(t, "a", agent.TraceID)
	assert.Equal(t, "researcher", agent.Name)
	assert.Equal(t, "AGENT", agent.Attrs.Str("openinference.span.kind"))
	assert.Equal(t, int64(1764250000000000000), agent.Start)
	assert.Equal(t, int64(1764250002000000000), agent.End)
	assert.Equal(t, "Weather in Oslo?", agent.Attrs.Str("input"))
	assert.Equal(t, "7 °F.", agent.Attrs.Str("output"))

	assert.Equal(t, "a", tool.TraceID)
	assert.Equal(t, "a", tool.ParentID)
	assert.Equal(t, 1, tool.Line, "the line of its first event")
	assert.Equal(t, int64(1764250001500000000), tool.End)
	assert.Equal(t, Status{Code: StatusError, Message: "unknown city: Olso"}, tool.Status)
}

func TestLunaryBadFiles(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"no run id", `{"events":[{"event":"start","type":"llm"}]}`, "line 1: a Lunary event with no runId"},
		{"event not an object", `{"events":[3]}`, "a Lunary event is a JSON object"},
		{"bad time", `{"events":[{"event":"start","type":"llm","runId":"r","name":"x","timestamp":"soon"}]}`, `span "x" at line 1: start time "soon" is not a time`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(context.Background(), []byte(tt.data), Lunary)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// TestLunaryParentLoop: runs whose parents loop still end: the walk up
// stops at the run it meets again, itself.
func TestLunaryParentLoop(t *testing.T) {
	ss, err := Decode(context.Background(), []byte(`{"events":[{"event":"start","type":"llm","runId":"a","parentRunId":"b"},{"event":"start","type":"llm","runId":"b","parentRunId":"a"}]}`), Lunary)
	require.NoError(t, err)
	require.Len(t, ss, 2)
	assert.Equal(t, "a", ss[0].TraceID)
	assert.Equal(t, "b", ss[1].TraceID)
}

func FuzzLunary(f *testing.F) {
	fuzzSeeds(f, "../traces/lunary-js.jsonl")
	f.Add([]byte(lunaryRequests))
	fuzzDecode(f, Lunary)
}
