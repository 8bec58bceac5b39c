package spans

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// genkitTrace returns one span of Genkit's trace data (its SpanData type)
// with the given state and status, a trace of its own.
func genkitTrace(state, status, events string) string {
	return `{"traceId":"0eede9d8c037dddbf32a307be30dc9a0","displayName":"","startTime":0,"endTime":0,"spans":{"f67806cd2713f3db":` +
		`{"spanId":"f67806cd2713f3db","traceId":"0eede9d8c037dddbf32a307be30dc9a0","parentSpanId":"ac10ae6a3cced65e",` +
		`"startTime":1795801749870.25,"endTime":1795801749871.5,"attributes":{"genkit:type":"action","genkit:name":"getRate",` +
		`"genkit:metadata:subtype":"tool.v2"` + state + `},"displayName":"getRate",` +
		`"instrumentationLibrary":{"name":"genkit-tracer","version":"v1"},"spanKind":"INTERNAL",` +
		`"sameProcessAsParentSpan":{"value":true},"status":` + status + `,"timeEvents":` + events + `}}}`
}

// TestGenkit: Genkit's trace data holds its spans by their ids; a span's
// name is its displayName, its events its timeEvents, and its status
// what its genkit:state says, whichever runtime's code it carries.
func TestGenkit(t *testing.T) {
	exception := `{"timeEvent":[{"time":1795801749870.5486,"annotation":{"attributes":` +
		`{"exception.message":"unknown city: Bergne","exception.type":"*errors.errorString"},"description":"exception"}}]}`
	tests := []struct {
		name, data string
		status     Status
		events     int
	}{
		{"Go's error, code 1", genkitTrace(`,"genkit:state":"error"`, `{"code":1,"message":"unknown city: Bergne"}`, exception),
			Status{Code: StatusError, Message: "unknown city: Bergne"}, 1},
		{"JavaScript's error, code 2", genkitTrace(`,"genkit:state":"error"`, `{"code":2,"message":"unknown city: Bergne"}`, exception),
			Status{Code: StatusError, Message: "unknown city: Bergne"}, 1},
		{"success", genkitTrace(`,"genkit:state":"success"`, `{"code":0}`, `{}`), Status{Code: StatusOK}, 0},
		{"no state, a code alone", genkitTrace(``, `{"code":1}`, `{}`), Status{}, 0},
		{"no state, a message", genkitTrace(``, `{"code":2,"message":"boom"}`, `{}`), Status{Code: StatusError, Message: "boom"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, OpenInference, Detect([]byte(tt.data)))
			ss, err := Decode(context.Background(), []byte(tt.data), OpenInference)
			require.NoError(t, err)
			require.Len(t, ss, 1)
			s := ss[0]
			assert.Equal(t, "0eede9d8c037dddbf32a307be30dc9a0", s.TraceID)
			assert.Equal(t, "f67806cd2713f3db", s.SpanID)
			assert.Equal(t, "ac10ae6a3cced65e", s.ParentID)
			assert.Equal(t, "getRate", s.Name)
			assert.Equal(t, "internal", s.Kind)
			assert.InDelta(t, 1795801749870250000, s.Start, 1e3, "milliseconds with a fraction, to a microsecond")
			assert.Equal(t, tt.status, s.Status)
			require.Len(t, s.Events, tt.events)
			if tt.events > 0 {
				assert.Equal(t, "exception", s.Events[0].Name)
				assert.Equal(t, "unknown city: Bergne", s.Events[0].Attrs.Str("exception.message"))
				assert.InDelta(t, 1795801749870548600, s.Events[0].Time, 1e3)
			}
		})
	}
}

// TestGenkitPosts: the trace data Genkit's Go runtime posts to its
// telemetry server, a span a request, read one a line, are the spans of
// one trace.
func TestGenkitPosts(t *testing.T) {
	data := genkitTrace(`,"genkit:state":"success"`, `{"code":0}`, `{}`) + "\n" +
		`{"traceId":"0eede9d8c037dddbf32a307be30dc9a0","displayName":"planner","startTime":1795801749860,"endTime":1795801749880,"spans":{"ac10ae6a3cced65e":` +
		`{"spanId":"ac10ae6a3cced65e","traceId":"0eede9d8c037dddbf32a307be30dc9a0","startTime":1795801749860,"endTime":1795801749880,` +
		`"attributes":{"genkit:type":"action","genkit:metadata:subtype":"flow","genkit:name":"planner","genkit:state":"success"},` +
		`"displayName":"planner","spanKind":"INTERNAL","sameProcessAsParentSpan":{"value":true},"status":{"code":0},"timeEvents":{}}}}` + "\n"
	ss, err := Decode(context.Background(), []byte(data), OpenInference)
	require.NoError(t, err)
	require.Len(t, ss, 2)
	assert.Equal(t, "getRate", ss[0].Name)
	assert.Equal(t, "planner", ss[1].Name)
	assert.Equal(t, "", ss[1].ParentID)
	assert.Equal(t, 2, ss[1].Line)
}
