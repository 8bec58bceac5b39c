package spans

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cloudTraceSpans is a batchWrite request of Cloud Trace's v2 API: an
// agent's span and a model call's under it, with an annotation, and a
// failed tool call.
const cloudTraceSpans = `{"spans":[` +
	`{"name":"projects/p1/traces/8f3e2d1c0b9a79685746352413021100/spans/a000000000000002","spanId":"a000000000000002","displayName":{"value":"invoke_agent coordinator","truncatedByteCount":0},"startTime":"2026-11-28T10:15:01.010Z","endTime":"2026-11-28T10:15:08.990Z",` +
	`"attributes":{"attributeMap":{"gen_ai.agent.name":{"stringValue":{"value":"coordinator","truncatedByteCount":0}},"gen_ai.operation.name":{"stringValue":{"value":"invoke_agent"}}},"droppedAttributesCount":0},"status":{},"spanKind":"INTERNAL","sameProcessAsParentSpan":true},` +
	`{"name":"projects/p1/traces/8f3e2d1c0b9a79685746352413021100/spans/a000000000000003","spanId":"a000000000000003","parentSpanId":"a000000000000002","displayName":{"value":"call_llm"},"startTime":"2026-11-28T10:15:01.020Z","endTime":"2026-11-28T10:15:02.100Z",` +
	`"attributes":{"attributeMap":{"gen_ai.usage.input_tokens":{"intValue":"184"},"offattr.mistake":{"boolValue":true}}},"spanKind":"CLIENT",` +
	`"timeEvents":{"timeEvent":[{"time":"2026-11-28T10:15:02.000Z","annotation":{"description":{"value":"gen_ai.choice"},"attributes":{"attributeMap":{"index":{"intValue":"0"}}}}},{"time":"2026-11-28T10:15:02.000Z","messageEvent":{"type":"SENT","id":"1"}}]}},` +
	`{"name":"projects/p1/traces/8f3e2d1c0b9a79685746352413021100/spans/a000000000000004","spanId":"a000000000000004","parentSpanId":"a000000000000002","displayName":{"value":"execute_tool lookup"},"startTime":"2026-11-28T10:15:02.110Z","endTime":"2026-11-28T10:15:02.120Z","status":{"code":2,"message":"lookup failed"}}]}`

// TestCloudTrace: a span of Cloud Trace's v2 API is of the trace its
// resource name names, named by its display name; its attribute map's
// typed values are its attributes, its annotations its events, a status
// code other than 0 an error.
func TestCloudTrace(t *testing.T) {
	require.Equal(t, OpenInference, Detect([]byte(cloudTraceSpans)))
	ss, err := Decode(context.Background(), []byte(cloudTraceSpans), OpenInference)
	require.NoError(t, err)
	require.Len(t, ss, 3)
	agent, chat, tool := ss[0], ss[1], ss[2]
	for _, s := range ss {
		assert.Equal(t, "8f3e2d1c0b9a79685746352413021100", s.TraceID)
	}
	assert.Equal(t, "invoke_agent coordinator", agent.Name)
	assert.Equal(t, "coordinator", agent.Attrs.Str("gen_ai.agent.name"))
	assert.Empty(t, agent.ParentID)
	assert.Equal(t, StatusUnset, agent.Status.Code)
	assert.Empty(t, agent.Events)

	assert.Equal(t, "call_llm", chat.Name)
	assert.Equal(t, agent.SpanID, chat.ParentID)
	assert.Equal(t, "client", chat.Kind)
	assert.Equal(t, Value{Kind: KindInt, Int: 184}, func() Value { v, _ := chat.Attrs.Get("gen_ai.usage.input_tokens"); return v }())
	assert.Equal(t, "true", chat.Attrs.Str("offattr.mistake"))
	require.Len(t, chat.Events, 1, "a message event is no annotation")
	assert.Equal(t, "gen_ai.choice", chat.Events[0].Name)
	assert.Equal(t, "0", chat.Events[0].Attrs.Str("index"))
	assert.NotZero(t, chat.Events[0].Time)
	assert.Equal(t, int64(1080e6), chat.End-chat.Start)

	assert.Equal(t, Status{Code: StatusError, Message: "lookup failed"}, tool.Status)
}

func FuzzCloudTrace(f *testing.F) {
	f.Add([]byte(cloudTraceSpans))
	fuzzDecode(f, OpenInference)
}
