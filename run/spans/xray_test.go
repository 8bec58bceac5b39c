package spans

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// xraySegment is a segment document as the OpenTelemetry exporter for
// X-Ray writes one: a span's attributes in the default namespace's
// metadata, a subsegment holding another, a failed one with its cause.
const xraySegment = `{"id":"5e1f0a9b8c7d6e01","name":"weather-bot","start_time":1796000000.0,"end_time":1796000012.1,"trace_id":"1-6a1b2c3d-4e5f60718293a4b5c6d7e8f9","origin":"AWS::EC2::Instance",` +
	`"annotations":{"otel_resource_service_name":"weather-bot"},"metadata":{"default":{"otel.resource.service.name":"weather-bot"}},` +
	`"subsegments":[{"id":"a1b2c3d4e5f60004","name":"weather_assistant.agent","start_time":1796000000.1,"end_time":1796000012.05,"metadata":{"default":{"traceloop.span.kind":"agent"},"app":{"version":"2"}},` +
	`"subsegments":[{"id":"a1b2c3d4e5f60001","name":"openai.chat","namespace":"remote","start_time":1796000000.15,"end_time":1796000001.02,"metadata":{"default":{"gen_ai.prompt.0.content":"Weather in Reykjavik?","offattr.mistake":true}}},` +
	`{"id":"a1b2c3d4e5f60002","name":"get_weather.tool","start_time":1796000001.05,"end_time":1796000011.06,"fault":true,"cause":{"exceptions":[{"id":"f00d","type":"TimeoutError","message":"no answer in 10s"}]}}]}]}`

// TestXRay: BatchGetTraces' answer, its documents as JSON strings, is read
// as the trace's spans, a subsegment the child of the one holding it,
// metadata's default namespace its attributes, a fault an error.
func TestXRay(t *testing.T) {
	doc, err := json.Marshal(xraySegment)
	require.NoError(t, err)
	batch := `{"Traces":[{"Id":"1-6a1b2c3d-4e5f60718293a4b5c6d7e8f9","Duration":12.1,"LimitExceeded":false,"Segments":[{"Id":"5e1f0a9b8c7d6e01","Document":` + string(doc) + `}]}],"UnprocessedTraceIds":[]}`
	for name, data := range map[string]string{
		"batch":               batch,
		"console's raw data":  `{"Traces":[{"Id":"1-6a1b2c3d-4e5f60718293a4b5c6d7e8f9","Segments":[{"Id":"5e1f0a9b8c7d6e01","Document":` + xraySegment + `}]}]}`,
		"sent documents":      `{"TraceSegmentDocuments":[` + string(doc) + `]}`,
		"one document a line": xraySegment + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			require.Equal(t, XRay, Detect([]byte(data)))
			ss, err := Decode(context.Background(), []byte(data), XRay)
			require.NoError(t, err)
			require.Len(t, ss, 4)
			root, agent, chat, tool := ss[0], ss[1], ss[2], ss[3]
			for _, s := range ss {
				assert.Equal(t, "6a1b2c3d4e5f60718293a4b5c6d7e8f9", s.TraceID)
			}
			assert.Empty(t, root.ParentID)
			assert.Equal(t, "server", root.Kind)
			assert.Equal(t, "weather-bot", root.Attrs.Str("otel_resource_service_name"))
			assert.Equal(t, root.SpanID, agent.ParentID)
			assert.Equal(t, "agent", agent.Attrs.Str("traceloop.span.kind"))
			assert.Equal(t, "2", agent.Attrs.Str("app.version"), "another namespace under its name")
			assert.Equal(t, agent.SpanID, chat.ParentID)
			assert.Equal(t, "client", chat.Kind)
			assert.Equal(t, "Weather in Reykjavik?", chat.Attrs.Str("gen_ai.prompt.0.content"))
			assert.Equal(t, "true", chat.Attrs.Str("offattr.mistake"))
			assert.InDelta(t, 870e6, float64(chat.End-chat.Start), 1e6, "seconds as nanoseconds")
			assert.Equal(t, "get_weather.tool", tool.Name)
			assert.Equal(t, Status{Code: StatusError, Message: "TimeoutError: no answer in 10s"}, tool.Status)
		})
	}
}

func TestXRayBadFiles(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"document not JSON", `{"Traces":[{"Id":"1-a-b","Segments":[{"Id":"x","Document":"{oops"}]}]}`, "line 1: an X-Ray segment's document is not JSON"},
		{"document not an object", `{"Traces":[{"Id":"1-a-b","Segments":[{"Id":"x","Document":"3"}]}]}`, "line 1: an X-Ray segment document is a JSON object"},
		{"segment not an object", `{"Traces":[{"Id":"1-a-b","Segments":[3]}]}`, "line 1: an X-Ray segment is a JSON object"},
		{"no trace id", `{"TraceSegmentDocuments":["{\"id\":\"a\",\"name\":\"n\"}"]}`, `line 1: an X-Ray segment "n" with no trace_id`},
		{"no id", `{"TraceSegmentDocuments":["{\"trace_id\":\"1-a-b\",\"name\":\"n\"}"]}`, "has no trace id or span id"},
		{"subsegment not an object", `{"TraceSegmentDocuments":["{\"trace_id\":\"t\",\"id\":\"a\",\"subsegments\":[1]}"]}`, "line 1: an X-Ray subsegment is a JSON object, in trace t"},
		{"bad time", `{"TraceSegmentDocuments":["{\"trace_id\":\"t\",\"id\":\"a\",\"name\":\"n\",\"start_time\":\"soon\"}"]}`, `span "n" at line 1: start time "soon" is not a time`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(context.Background(), []byte(tt.data), XRay)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// TestXRayStandaloneSubsegment: a subsegment sent on its own names its
// parent; it is no service's entry.
func TestXRayStandaloneSubsegment(t *testing.T) {
	ss, err := Decode(context.Background(), []byte(`{"type":"subsegment","id":"b","parent_id":"a","trace_id":"1-6a1b2c3d-4e5f60718293a4b5c6d7e8f9","name":"n","start_time":1796000000,"in_progress":true}`), XRay)
	require.NoError(t, err)
	require.Len(t, ss, 1)
	assert.Equal(t, "a", ss[0].ParentID)
	assert.Empty(t, ss[0].Kind)
}

func FuzzXRay(f *testing.F) {
	doc, _ := json.Marshal(xraySegment)
	f.Add([]byte(`{"Traces":[{"Id":"1-6a1b2c3d-4e5f60718293a4b5c6d7e8f9","Segments":[{"Id":"5e1f0a9b8c7d6e01","Document":` + string(doc) + `}]}]}`))
	f.Add([]byte(xraySegment))
	fuzzDecode(f, XRay)
}
