package spans

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// galileoRequest is an ingestion request in the shape Galileo's
// JavaScript SDK posts it: a trace, an agent span in it, and a model call
// and a tool span in the agent's.
const galileoRequest = `{"log_stream_id":"ls","experiment_id":null,"traces":[{"type":"trace","id":"t1","name":"researcher","input":"Weather in Oslo?","output":"7 °F.","created_at":"2026-11-27T16:10:47.717Z","metrics":{"duration_ns":40000000},` +
	`"spans":[{"type":"agent","id":"a1","name":"researcher","input":"Weather in Oslo?","output":"7 °F.","created_at":"2026-11-27T16:10:47.718Z","metrics":{"duration_ns":30000000},` +
	`"spans":[{"type":"llm","id":"l1","name":"openai-completion-generation","input":[{"role":"user","content":"Weather in Oslo?"}],"output":{"role":"assistant","content":"7 °F."},"status_code":200,"created_at":"2026-11-27T16:10:47.720Z","metrics":{"duration_ns":2000000}},` +
	`{"type":"tool","id":"w1","name":"get_weather","input":"{\"city\":\"Oslo\"}","output":"{\"tempC\":7}","created_at":"2026-11-27T16:10:47.723Z","metrics":{}}]}]}]}
`

// TestGalileo: a trace and every span nested in it are spans of the
// trace, each the child of the one holding it; a span's type is its kind,
// its end its start and duration.
func TestGalileo(t *testing.T) {
	assert.Equal(t, Galileo, Detect([]byte(galileoRequest)))
	assert.Equal(t, Galileo, Detect([]byte(`[{"type":"trace","id":"t1","created_at":"2026-11-27T16:10:47.717Z","metrics":{},"spans":[]}]`)))

	ss, err := Decode(context.Background(), []byte(galileoRequest), Galileo)
	require.NoError(t, err)
	require.Len(t, ss, 4)
	trace, agent, llm, tool := ss[0], ss[1], ss[2], ss[3]
	assert.Empty(t, trace.ParentID)
	assert.Equal(t, "Weather in Oslo?", trace.Attrs.Str("input"))

	assert.Equal(t, "t1", agent.TraceID)
	assert.Equal(t, "t1", agent.ParentID)
	assert.Equal(t, "AGENT", agent.Attrs.Str("openinference.span.kind"))
	assert.Equal(t, int64(30000000), agent.End-agent.Start)

	assert.Equal(t, "a1", llm.ParentID)
	assert.Equal(t, "LLM", llm.Attrs.Str("openinference.span.kind"))
	assert.Equal(t, StatusUnset, llm.Status.Code, "200 is no error")

	assert.Equal(t, "TOOL", tool.Attrs.Str("openinference.span.kind"))
	assert.Equal(t, "get_weather", tool.Name)
	assert.Zero(t, tool.End, "no duration, no end")
}

func TestGalileoBadFiles(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"trace with no id", `{"log_stream_id":"ls","traces":[{"type":"trace","spans":[]}]}`, "line 1: a Galileo trace with no id"},
		{"span with no id", `{"log_stream_id":"ls","traces":[{"type":"trace","id":"t1","spans":[{"type":"llm"}]}]}`, "line 1: a Galileo span with no id, in trace t1"},
		{"span not an object", `{"log_stream_id":"ls","traces":[{"type":"trace","id":"t1","spans":[3]}]}`, "line 1: a Galileo span is a JSON object, in trace t1"},
		{"trace not an object", `{"log_stream_id":"ls","traces":[3]}`, "a Galileo trace is a JSON object"},
		{"bad time", `{"log_stream_id":"ls","traces":[{"type":"trace","id":"t1","name":"x","created_at":"soon"}]}`, `span "x" at line 1: start time "soon" is not a time`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(context.Background(), []byte(tt.data), Galileo)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// TestGalileoFailedCall: a status code of 400 or more is an error, its
// message the span's output.
func TestGalileoFailedCall(t *testing.T) {
	ss, err := Decode(context.Background(), []byte(`{"log_stream_id":"ls","traces":[{"type":"llm","id":"t1","status_code":500,"output":"overloaded"}]}`), Galileo)
	require.NoError(t, err)
	require.Len(t, ss, 1)
	assert.Equal(t, Status{Code: StatusError, Message: "status 500: overloaded"}, ss[0].Status)
}

func FuzzGalileo(f *testing.F) {
	fuzzSeeds(f, "../traces/galileo-js.jsonl")
	f.Add([]byte(galileoRequest))
	fuzzDecode(f, Galileo)
}
