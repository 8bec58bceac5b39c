package spans

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newRelicAnswer is NerdGraph's answer to an NRQL query of New Relic's AI
// monitoring events, newest first: a model call (its summary and three
// messages, the model's answer last) and a tool's run that failed.
const newRelicAnswer = `{"data":{"actor":{"account":{"nrql":{"results":[` +
	`{"appName":"bot","ingest_source":"Python","trace_id":"7d3f9c1e2a4b5c6d8e9f0a1b2c3d4e5f","span_id":"b2e31d4e5f607182","timestamp":1795600001190,"id":"t1","run_id":"t1","name":"get_order_status","input":"{'order_id': '55120'}","error":true,"duration":5003.1,"vendor":"langchain"},` +
	`{"appName":"bot","ingest_source":"Python","trace_id":"7d3f9c1e2a4b5c6d8e9f0a1b2c3d4e5f","span_id":"a1f20c3d4e5b6071","timestamp":1795600000003,"id":"c1-2","completion_id":"c1","sequence":2,"role":"assistant","content":"Let me look.","is_response":true,"vendor":"openai"},` +
	`{"appName":"bot","ingest_source":"Python","trace_id":"7d3f9c1e2a4b5c6d8e9f0a1b2c3d4e5f","span_id":"a1f20c3d4e5b6071","timestamp":1795600000002,"id":"c1-1","completion_id":"c1","sequence":1,"role":"user","content":"Where is order 55120?","vendor":"openai"},` +
	`{"appName":"bot","ingest_source":"Python","trace_id":"7d3f9c1e2a4b5c6d8e9f0a1b2c3d4e5f","span_id":"a1f20c3d4e5b6071","timestamp":1795600000001,"id":"c1-0","completion_id":"c1","sequence":0,"role":"system","content":"You are support.","vendor":"openai"},` +
	`{"appName":"bot","ingest_source":"Python","trace_id":"7d3f9c1e2a4b5c6d8e9f0a1b2c3d4e5f","span_id":"a1f20c3d4e5b6071","timestamp":1795600000000,"id":"c1","request.model":"gpt-4o","response.model":"gpt-4o-2024-08-06","response.number_of_messages":3,"duration":1184.2,"vendor":"openai"}` +
	`]}}}},"mistake_agent":"assistant","mistake_step":3}`

// TestNewRelic: an NRQL answer's rows are read as spans in the order
// they began: each model call one span of its messages in sequence (what
// it answered its output), each tool's run a tool span, a failed one an
// error. The query API's tables of events and the rows alone are read
// the same.
func TestNewRelic(t *testing.T) {
	require.Equal(t, OpenInference, Detect([]byte(newRelicAnswer)))
	ss, err := Decode(context.Background(), []byte(newRelicAnswer), OpenInference)
	require.NoError(t, err)
	require.Len(t, ss, 2)
	call, tool := ss[0], ss[1]
	assert.Equal(t, "7d3f9c1e2a4b5c6d8e9f0a1b2c3d4e5f", call.TraceID)
	assert.Equal(t, "a1f20c3d4e5b6071", call.SpanID)
	assert.Equal(t, "LLM", call.Attrs.Str("openinference.span.kind"))
	assert.Equal(t, "gpt-4o-2024-08-06", call.Attrs.Str("llm.model_name"))
	assert.JSONEq(t, `[{"message.role":"system","message.content":"You are support."},{"message.role":"user","message.content":"Where is order 55120?"}]`, call.Attrs.Str("llm.input_messages"))
	assert.JSONEq(t, `[{"message.role":"assistant","message.content":"Let me look."}]`, call.Attrs.Str("llm.output_messages"))
	assert.Equal(t, int64(1184200000), call.End-call.Start)

	assert.Equal(t, "get_order_status", tool.Name)
	assert.Equal(t, "TOOL", tool.Attrs.Str("openinference.span.kind"))
	assert.Equal(t, "{'order_id': '55120'}", tool.Attrs.Str("input.value"))
	assert.Equal(t, StatusError, tool.Status.Code)

	for _, doc := range []string{
		`{"results":[{"events":[` + newRelicRowsOnly() + `]}],"metadata":{}}`,
		`[` + newRelicRowsOnly() + `]`,
	} {
		require.Equal(t, OpenInference, Detect([]byte(doc)), doc)
		got, err := Decode(context.Background(), []byte(doc), OpenInference)
		require.NoError(t, err)
		assert.Len(t, got, 2)
	}
}

// newRelicRowsOnly is newRelicAnswer's rows, without what holds them.
func newRelicRowsOnly() string {
	const open = `{"data":{"actor":{"account":{"nrql":{"results":[`
	const close = `]}}}},"mistake_agent":"assistant","mistake_step":3}`
	return newRelicAnswer[len(open) : len(newRelicAnswer)-len(close)]
}

func FuzzNewRelic(f *testing.F) {
	f.Add([]byte(newRelicAnswer))
	fuzzDecode(f, OpenInference)
}

// TestNewRelicSummariesWithoutID: summaries no id names are each a call
// of their own, not one.
func TestNewRelicSummariesWithoutID(t *testing.T) {
	row := func(span string, at int) string {
		return fmt.Sprintf(`{"appName":"bot","ingest_source":"Python","trace_id":"7d3f","span_id":%q,"timestamp":%d,"request.model":"gpt-4o","response.number_of_messages":1,"duration":10}`, span, at)
	}
	doc := `[` + row("a1", 1795600000000) + `,` + row("b2", 1795600001000) + `]`
	got, err := Decode(context.Background(), []byte(doc), OpenInference)
	require.NoError(t, err)
	assert.Len(t, got, 2)
}

// TestNewRelicLines: each span read from a query's rows points at the
// line of its first row, a tool's run at its own, so that messages can
// point at them.
func TestNewRelicLines(t *testing.T) {
	rows := strings.ReplaceAll(newRelicRowsOnly(), "},{", "},\n{")
	got, err := Decode(context.Background(), []byte("[\n"+rows+"\n]"), OpenInference)
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, 3, got[0].Line, "the call's first row")
	assert.Equal(t, 2, got[1].Line, "the tool's row")
}
