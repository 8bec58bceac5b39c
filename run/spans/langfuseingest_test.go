package spans

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// langfuseBatchFile holds two requests in the shape the Langfuse
// JavaScript SDK 3.x posts them to /api/public/ingestion (see
// testdata/traces/langfuse-js-v3.jsonl): a trace created and then
// updated with its output, a span whose update was sent before its
// create, a generation, an event, and a score and an SDK log that are no
// observations. The span named "root" has the trace's id, as
// langfuse-langchain's root run has.
const langfuseBatchFile = `{"batch":[` +
	`{"id":"e1","type":"trace-create","timestamp":"2026-11-27T15:36:45.353Z","body":{"id":"t","timestamp":"2026-11-27T15:36:45.323Z","name":"trip","input":"q?","sessionId":"s1"}},` +
	`{"id":"e2","type":"span-create","timestamp":"2026-11-27T15:36:45.353Z","body":{"id":"t","traceId":"t","startTime":"2026-11-27T15:36:45.323Z","name":"root","parentObservationId":null}},` +
	`{"id":"e3","type":"span-update","timestamp":"2026-11-27T15:36:45.376Z","body":{"id":"w","traceId":"t","level":"ERROR","statusMessage":"unknown city: Olso","endTime":"2026-11-27T15:36:45.375Z"}},` +
	`{"id":"e4","type":"span-create","timestamp":"2026-11-27T15:36:45.377Z","body":{"id":"w","traceId":"t","startTime":"2026-11-27T15:36:45.370Z","name":"get_weather","input":{"city":"Olso"},"parentObservationId":"t"}},` +
	`{"id":"e5","type":"generation-create","timestamp":"2026-11-27T15:36:45.377Z","body":{"id":"g","traceId":"t","startTime":"2026-11-27T15:36:45.360Z","name":"llm","model":"gpt-4o-mini","input":[{"role":"user","content":"q?"}],"parentObservationId":"t"}},` +
	`{"id":"e6","type":"sdk-log","timestamp":"2026-11-27T15:36:45.378Z","body":{"log":"hello"}},` +
	`{"id":"e7","type":"score-create","timestamp":"2026-11-27T15:36:45.378Z","body":{"id":"sc","traceId":"t","name":"ok","value":0}}],` +
	`"metadata":{"sdk_integration":"DEFAULT","sdk_name":"langfuse-js","sdk_version":"3.39.2"}}` + "\n" +
	`{"batch":[` +
	`{"id":"e8","type":"generation-update","timestamp":"2026-11-27T15:36:45.384Z","body":{"id":"g","traceId":"t","output":{"role":"assistant","content":"a"},"endTime":"2026-11-27T15:36:45.369Z"}},` +
	`{"id":"e9","type":"event-create","timestamp":"2026-11-27T15:36:45.385Z","body":{"id":"ev","traceId":"t","startTime":"2026-11-27T15:36:45.385Z","name":"done"}},` +
	`{"id":"e10","type":"trace-create","timestamp":"2026-11-27T15:36:45.388Z","body":{"id":"t","timestamp":"2026-11-27T15:36:45.388Z","output":"a"}}],` +
	`"metadata":{"sdk_integration":"DEFAULT","sdk_name":"langfuse-js","sdk_version":"3.39.2"}}` + "\n"

// TestLangfuseIngestion: the events of one observation are one span, the
// updates over what was created whatever order they came in; a trace's
// later trace-create adds to it and keeps when it began; the trace's span
// gives its id up to an observation that has it.
func TestLangfuseIngestion(t *testing.T) {
	assert.Equal(t, Langfuse, Detect([]byte(langfuseBatchFile)))
	assert.Equal(t, Langfuse, Detect([]byte(`[{"id":"e","type":"span-create","timestamp":"2026-11-27T15:36:45Z","body":{}}]`)), "events listed")

	ss, err := Decode(context.Background(), []byte(langfuseBatchFile), Langfuse)
	require.NoError(t, err)
	require.Len(t, ss, 5, "the trace, two spans, a generation and an event")
	byID := map[string]Span{}
	for _, s := range ss {
		byID[s.SpanID] = s
	}
	trace := ss[0]
	assert.Equal(t, "t/trace", trace.SpanID)
	assert.Equal(t, "TRACE", trace.Attrs.Str("langfuse.observation.type"))
	assert.Equal(t, "q?", trace.Attrs.Str("langfuse.trace.input"))
	assert.Equal(t, "a", trace.Attrs.Str("langfuse.trace.output"))
	start, _ := flatTime("2026-11-27T15:36:45.323Z")
	assert.Equal(t, start, trace.Start, "the trace began with its first event's time")

	root := byID["t"]
	assert.Equal(t, "t/trace", root.ParentID)
	assert.Equal(t, "SPAN", root.Attrs.Str("langfuse.observation.type"))
	assert.Equal(t, "DEFAULT", root.Attrs.Str("langfuse.sdk.integration"))
	assert.Equal(t, "3.39.2", root.Attrs.Str("langfuse.sdk.version"))

	tool := byID["w"]
	assert.Equal(t, "get_weather", tool.Name)
	assert.Equal(t, "t", tool.ParentID)
	assert.Equal(t, Status{Code: StatusError, Message: "unknown city: Olso"}, tool.Status, "the update sent before its create")
	assert.Equal(t, int64(5e6), tool.End-tool.Start)

	gen := byID["g"]
	assert.Equal(t, "GENERATION", gen.Attrs.Str("langfuse.observation.type"))
	assert.Equal(t, "gpt-4o-mini", gen.Attrs.Str("langfuse.observation.model.name"))
	assert.JSONEq(t, `{"role":"assistant","content":"a"}`, gen.Attrs.Str("langfuse.observation.output"), "the update of another request")
	assert.Equal(t, 1, gen.Line, "the line of its first event")

	assert.Equal(t, "EVENT", byID["ev"].Attrs.Str("langfuse.observation.type"))
	assert.Equal(t, "t/trace", byID["ev"].ParentID)
	assert.Equal(t, 2, byID["ev"].Line)
}

func TestLangfuseIngestionBadFiles(t *testing.T) {
	tests := []struct{ name, data, want string }{
		{"an event of no id", `{"batch":[{"id":"e","type":"span-create","timestamp":"2026-11-27T15:36:45Z","body":{"traceId":"t"}}]}`, "line 1: a Langfuse observation event with no id"},
		{"a trace of no id", `{"batch":[{"id":"e","type":"trace-create","timestamp":"2026-11-27T15:36:45Z","body":{"name":"x"}}]}`, "line 1: a Langfuse trace-create event with no id"},
		{"an observation of no trace", `{"batch":[{"id":"e","type":"span-create","timestamp":"2026-11-27T15:36:45Z","body":{"id":"o","name":"x"}}]}`, `line 1: Langfuse observation "x" has no traceId`},
		{"an event that is no object", `{"batch":[{"id":"e","type":"span-create","timestamp":"2026-11-27T15:36:45Z","body":{"id":"o","traceId":"t"}},3]}`, "line 1: a Langfuse ingestion event is a JSON object"},
		{"a bad time", `{"batch":[{"id":"e","type":"trace-create","timestamp":"2026-11-27T15:36:45Z","body":{"id":"t"}}]}` + "\n" + `{"batch":[{"id":"e","type":"span-create","timestamp":"2026-11-27T15:36:45Z","body":{"id":"o","traceId":"t","startTime":"soon"}}]}`, `line 2: Langfuse observation "": startTime "soon" is not a time`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(context.Background(), []byte(tt.data), Langfuse)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func FuzzLangfuseIngestion(f *testing.F) {
	fuzzSeeds(f, "../traces/langfuse-js-v3.jsonl", "../traces/langfuse-langchain-js.jsonl")
	f.Add([]byte(langfuseBatchFile))
	f.Add([]byte(`{"batch":[{"id":"e","type":"span-update","timestamp":"x","body":{"id":"o","traceId":"o"}},{"id":"f","type":"sdk-log","timestamp":"x","body":7}]}`))
	fuzzDecode(f, Langfuse)
}
