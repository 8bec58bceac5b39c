package spans

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// datadogEvents is a request of span events in the shape dd-trace's
// LLM Observability writer posts (its span processor's
// llmObsSpanEvent): a root agent span and a failed tool inside it.
const datadogEvents = `[{"_dd.stage":"raw","event_type":"span","spans":[{"trace_id":"6b0999890000000078294037d9a2e150","span_id":"854745921364257065","parent_id":"undefined",` +
	`"name":"researcher","tags":["service:trip-planner","ml_app:trip-planner"],"start_ns":1764250000000000000,"duration":87189453,"status":"ok",` +
	`"meta":{"span.kind":"agent","input":{"value":"Weather in Oslo?"},"output":{"value":"7 °F."}},"metrics":{},"session_id":"s1"}]},` +
	`{"_dd.stage":"raw","event_type":"span","spans":[{"trace_id":"6b0999890000000078294037d9a2e150","span_id":"193025441975005533","parent_id":"854745921364257065",` +
	`"name":"get_weather","tags":[],"start_ns":1764250000001000000,"duration":747803.5,"status":"error",` +
	`"meta":{"span.kind":"tool","input":{"value":"{\"city\":\"Olso\"}"},"output":{},"error.message":"unknown city: Olso","error.type":"Error"},"metrics":{"input_tokens":3}}]}]`

// TestDatadog: span events are read as spans: a root's "undefined"
// parent is none, the duration nanoseconds, meta and metrics the
// attributes the SDKs give a span, the service tag its service, and an
// error its status.
func TestDatadog(t *testing.T) {
	assert.Equal(t, Datadog, Detect([]byte(datadogEvents)))
	assert.Equal(t, Datadog, Detect([]byte(`{"event_type":"span","spans":[]}`)))
	assert.Equal(t, Datadog, Detect([]byte(`[{"trace_id":"t","span_id":"1","start_ns":1,"meta":{}}]`)))

	ss, err := Decode(context.Background(), []byte(datadogEvents), Datadog)
	require.NoError(t, err)
	require.Len(t, ss, 2)
	agent, tool := ss[0], ss[1]
	assert.Equal(t, "", agent.ParentID)
	assert.Equal(t, "researcher", agent.Name)
	assert.Equal(t, int64(1764250000087189453), agent.End)
	assert.Equal(t, "agent", agent.Attrs.Str("_ml_obs.meta.span.kind"))
	assert.Equal(t, "Weather in Oslo?", agent.Attrs.Str("_ml_obs.meta.input.value"))
	assert.Equal(t, "s1", agent.Attrs.Str("_ml_obs.session_id"))
	assert.Equal(t, "trip-planner", agent.Resource.Str("service.name"))
	assert.Equal(t, Status{Code: StatusOK}, agent.Status)

	assert.Equal(t, "854745921364257065", tool.ParentID)
	assert.Equal(t, int64(1764250000001747803), tool.End)
	assert.Equal(t, `{"city":"Olso"}`, tool.Attrs.Str("_ml_obs.meta.input.value"))
	assert.Equal(t, "3", tool.Attrs.Str("_ml_obs.metrics.input_tokens"))
	assert.Equal(t, Status{Code: StatusError, Message: "Error: unknown city: Olso"}, tool.Status)
	assert.Nil(t, tool.Resource)
}

func TestDatadogBadFiles(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"no span id", `{"event_type":"span","spans":[{"trace_id":"t","name":"x"}]}`, `Datadog span "x" at line 1 has no trace_id or span_id`},
		{"span not an object", "{\"event_type\":\"span\",\"spans\":[]}\n{\"event_type\":\"span\",\"spans\":[3]}", "line 2: a Datadog span is a JSON object"},
		{"bad duration", `{"event_type":"span","spans":[{"trace_id":"t","span_id":"1","name":"x","start_ns":5,"duration":"long"}]}`, `Datadog span "x" at line 1: duration long is not a count of nanoseconds`},
		{"bad start", `{"event_type":"span","spans":[{"trace_id":"t","span_id":"1","name":"x","start_ns":"soon"}]}`, `Datadog span "x" at line 1: start_ns "soon" is not a time`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(context.Background(), []byte(tt.data), Datadog)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func FuzzDatadog(f *testing.F) {
	fuzzSeeds(f, "../traces/datadog-llmobs-js.jsonl")
	f.Add([]byte(datadogEvents))
	fuzzDecode(f, Datadog)
}
