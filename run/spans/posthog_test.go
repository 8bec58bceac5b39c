package spans

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// postHogBatchFile holds a request of events in the shape posthog-node
// posts them: a generation and a failed tool span inside an agent's span,
// the trace's record, and an event of no LLM analytics. The generation
// that follows the tool seems to start a millisecond before the tool
// ended.
const postHogBatchFile = `{"api_key":"phc_test","batch":[` +
	`{"event":"$ai_span","uuid":"u1","distinct_id":"d","timestamp":"2026-11-27T15:09:49.194Z","properties":{"$ai_trace_id":"t","$ai_span_id":"w","$ai_parent_id":"a","$ai_span_name":"get_weather","$ai_input_state":{"city":"Olso"},"$ai_is_error":true,"$ai_error":"unknown city: Olso","$ai_latency":0}},` +
	`{"event":"$ai_generation","uuid":"u2","distinct_id":"d","timestamp":"2026-11-27T15:09:49.204Z","properties":{"$ai_trace_id":"t","$ai_parent_id":"a","$ai_model":"gpt-4o-mini","$ai_latency":0.011,"$lib":"posthog-node"}},` +
	`{"event":"$ai_span","uuid":"u3","distinct_id":"d","timestamp":"2026-11-27T15:09:49.215Z","properties":{"$ai_trace_id":"t","$ai_span_id":"a","$ai_parent_id":"t","$ai_span_name":"researcher","$ai_latency":0.049}},` +
	`{"event":"$pageview","uuid":"u4","distinct_id":"d","timestamp":"2026-11-27T15:09:49.216Z","properties":{}},` +
	`{"event":"$ai_trace","uuid":"u5","distinct_id":"d","timestamp":"2026-11-27T15:09:49.223Z","properties":{"$ai_trace_id":"t","$ai_span_name":"trip"}}],"sent_at":"2026-11-27T15:09:49.230Z"}`

// TestPostHog: LLM analytics events are spans joined by their ids, a
// generation named by its event's uuid, the trace's record the trace's
// root, starting with its first span; a span ends at its event's time and
// lasts its latency, and starts no earlier than the span beside it that
// ended before it.
func TestPostHog(t *testing.T) {
	assert.Equal(t, PostHog, Detect([]byte(postHogBatchFile)))
	assert.Equal(t, PostHog, Detect([]byte(`[{"event":"$ai_span","uuid":"u","properties":{}}]`)))

	ss, err := Decode(context.Background(), []byte(postHogBatchFile), PostHog)
	require.NoError(t, err)
	require.Len(t, ss, 4, "the page view is no span")
	tool, gen, agent, trace := ss[0], ss[1], ss[2], ss[3]
	assert.Equal(t, Status{Code: StatusError, Message: "unknown city: Olso"}, tool.Status)
	assert.JSONEq(t, `{"city":"Olso"}`, tool.Attrs.Str("$ai_input_state"))
	assert.Equal(t, "$ai_span", tool.Attrs.Str("posthog.event"))
	assert.Equal(t, tool.End, tool.Start)

	assert.Equal(t, "u2", gen.SpanID)
	assert.Equal(t, "a", gen.ParentID)
	assert.Equal(t, "gpt-4o-mini", gen.Name)
	assert.Equal(t, tool.End, gen.Start, "started as the tool ended, not a millisecond before")
	_, hasLib := gen.Attrs.Get("$lib")
	assert.False(t, hasLib, "only LLM analytics' properties")

	assert.Equal(t, "t", agent.ParentID)
	assert.Equal(t, agent.End-49e6, agent.Start)
	assert.Equal(t, Span{TraceID: "t", SpanID: "t", Name: "trip", Start: agent.Start, End: trace.End, Line: 1, Attrs: trace.Attrs}, trace,
		"the trace's record, which says no latency, starts with its trace's first span")
}

func TestPostHogBadFiles(t *testing.T) {
	_, err := Decode(context.Background(), []byte(`{"batch":[{"event":"$ai_span","properties":{"$ai_span_id":"s"}}]}`), PostHog)
	assert.ErrorContains(t, err, "PostHog event $ai_span at line 1 has no $ai_trace_id or span id")
	_, err = Decode(context.Background(), []byte(`{"batch":[{"event":"$ai_span","timestamp":"soon","properties":{"$ai_trace_id":"t","$ai_span_id":"s"}}]}`), PostHog)
	assert.ErrorContains(t, err, `timestamp "soon" is not a time`)
}

func FuzzPostHog(f *testing.F) {
	fuzzSeeds(f, "../traces/posthog-ai-js.jsonl")
	f.Add([]byte(postHogBatchFile))
	fuzzDecode(f, PostHog)
}

// TestPostHogGenerationID: a generation that names itself by
// $ai_generation_id, as Mastra's exporter writes one, is the span its
// steps name as their parent.
func TestPostHogGenerationID(t *testing.T) {
	data := `{"batch":[{"event":"$ai_span","timestamp":"2026-11-27T15:09:49.100Z","properties":{"$ai_trace_id":"t","$ai_span_id":"s","$ai_parent_id":"g","$ai_span_name":"step: 0"}},` +
		`{"event":"$ai_generation","uuid":"u","timestamp":"2026-11-27T15:09:49.200Z","properties":{"$ai_trace_id":"t","$ai_generation_id":"g","$ai_model":"m"}}]}`
	ss, err := Decode(context.Background(), []byte(data), PostHog)
	require.NoError(t, err)
	require.Len(t, ss, 2)
	assert.Equal(t, "g", ss[1].SpanID)
	assert.Equal(t, ss[1].SpanID, ss[0].ParentID)
}
