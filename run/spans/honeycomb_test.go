package spans

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// honeycombEvents are Honeycomb's raw data of a trace: a root span, a
// model call under it, a span event of the call and a link.
const honeycombEvents = `[` +
	`{"Timestamp":"2026-11-25T19:42:00.000Z","trace.trace_id":"c4a1e7f0b35d49e28d7f6a5b4c3d2e1f","trace.span_id":"8a0000000000aa01","name":"trivia.agent","service.name":"trivia","duration_ms":4800.5,"traceloop.span.kind":"agent","meta.signal_type":"trace"},` +
	`{"Timestamp":"2026-11-25T19:42:00.050Z","trace.trace_id":"c4a1e7f0b35d49e28d7f6a5b4c3d2e1f","trace.span_id":"8a0000000000aa02","trace.parent_id":"8a0000000000aa01","name":"openai.chat","span.kind":"client","duration_ms":820,"gen_ai.prompt.0.content":"When did it open?","error":true,"status_message":"rate limited"},` +
	`{"Timestamp":"2026-11-25T19:42:00.060Z","trace.trace_id":"c4a1e7f0b35d49e28d7f6a5b4c3d2e1f","trace.parent_id":"8a0000000000aa02","name":"gen_ai.choice","meta.annotation_type":"span_event","index":0},` +
	`{"Timestamp":"2026-11-25T19:42:00.060Z","trace.trace_id":"c4a1e7f0b35d49e28d7f6a5b4c3d2e1f","trace.parent_id":"8a0000000000aa02","trace.link.trace_id":"ffff","meta.annotation_type":"link"}]`

// TestHoneycomb: each of Honeycomb's trace events is a span, its fields
// but Honeycomb's own its attributes, its duration its end; a span event
// is an event of the span it names, a link is passed over.
func TestHoneycomb(t *testing.T) {
	require.Equal(t, OpenInference, Detect([]byte(honeycombEvents)))
	ss, err := Decode(context.Background(), []byte(honeycombEvents), OpenInference)
	require.NoError(t, err)
	require.Len(t, ss, 2)
	root, chat := ss[0], ss[1]
	assert.Equal(t, "c4a1e7f0b35d49e28d7f6a5b4c3d2e1f", root.TraceID)
	assert.Equal(t, "8a0000000000aa01", root.SpanID)
	assert.Empty(t, root.ParentID)
	assert.Equal(t, "trivia.agent", root.Name)
	assert.Equal(t, "agent", root.Attrs.Str("traceloop.span.kind"))
	assert.Equal(t, "trivia", root.Attrs.Str("service.name"))
	assert.Equal(t, int64(4800500000), root.End-root.Start)
	_, named := root.Attrs.Get("trace.span_id")
	assert.False(t, named, "Honeycomb's own fields are no attributes")

	assert.Equal(t, root.SpanID, chat.ParentID)
	assert.Equal(t, "client", chat.Kind)
	assert.Equal(t, "When did it open?", chat.Attrs.Str("gen_ai.prompt.0.content"))
	assert.Equal(t, Status{Code: StatusError, Message: "rate limited"}, chat.Status)
	require.Len(t, chat.Events, 1)
	assert.Equal(t, "gen_ai.choice", chat.Events[0].Name)
	assert.Equal(t, "0", chat.Events[0].Attrs.Str("index"))
}

func FuzzHoneycomb(f *testing.F) {
	f.Add([]byte(honeycombEvents))
	fuzzDecode(f, OpenInference)
}
