package run_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestLayouts reads one small run in each layout exporters write, detected
// from its structure: the same task and answer from each.
func TestLayouts(t *testing.T) {
	const (
		task   = `[{"role":"user","parts":[{"type":"text","content":"Capital of France?"}]}]`
		answer = `[{"role":"assistant","parts":[{"type":"text","content":"Paris."}]}]`
	)
	tests := []struct {
		name   string
		data   string
		format run.Format
	}{
		{
			name:   "OTLP/JSON with instrumentationLibrarySpans (before OTLP 0.15)",
			format: run.FormatOTLP,
			data: `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"planner"}}]},
 "instrumentationLibrarySpans":[{"instrumentationLibrary":{"name":"old-sdk"},"spans":[
  {"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b173","name":"invoke_agent Planner","startTimeUnixNano":"1","endTimeUnixNano":"9",
   "attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"invoke_agent"}},{"key":"gen_ai.input.messages","value":{"stringValue":` + quote(task) + `}}]},
  {"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","parentSpanId":"eee19b7ec3c1b173","name":"chat","startTimeUnixNano":"2","endTimeUnixNano":"3",
   "attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.output.messages","value":{"stringValue":` + quote(answer) + `}}]}]}]}]}`,
		},
		{
			name:   "OpenTelemetry JS span dump, times as [seconds, nanoseconds]",
			format: run.FormatOpenInference,
			data: `[{"traceId":"5b8efff798038103d269b633813fc60c","id":"eee19b7ec3c1b173","name":"invoke_agent Planner","kind":0,"startTime":[1700000000,0],"endTime":[1700000009,0],
  "attributes":{"gen_ai.operation.name":"invoke_agent","gen_ai.input.messages":` + quote(task) + `},"status":{"code":0},"events":[]},
 {"traceId":"5b8efff798038103d269b633813fc60c","parentSpanContext":{"spanId":"eee19b7ec3c1b173"},"id":"eee19b7ec3c1b174","name":"chat","kind":2,"startTime":[1700000002,500],"duration":[1,0],
  "attributes":{"gen_ai.operation.name":"chat","gen_ai.output.messages":` + quote(answer) + `},"status":{"code":0},"events":[]}]`,
		},
		{
			name:   "a span written as two records, at its start and at its end",
			format: run.FormatOpenInference,
			data: `{"name":"invoke_agent Planner","context":{"trace_id":"t1","span_id":"a"},"start_time":1,"attributes":{"gen_ai.operation.name":"invoke_agent","gen_ai.input.messages":` + quote(task) + `}}
{"name":"chat","context":{"trace_id":"t1","span_id":"b"},"parent_id":"a","start_time":2,"attributes":{"gen_ai.operation.name":"chat"}}
{"name":"chat","context":{"trace_id":"t1","span_id":"b"},"parent_id":"a","start_time":2,"end_time":3,"attributes":{"gen_ai.output.messages":` + quote(answer) + `}}
{"name":"invoke_agent Planner","context":{"trace_id":"t1","span_id":"a"},"start_time":1,"end_time":9}`,
		},
		{
			name:   "Langfuse observations alone, without their trace",
			format: run.FormatLangfuse,
			data: `{"data":[{"id":"a","traceId":"t1","type":"AGENT","name":"Planner","startTime":"2024-11-04T10:00:00Z","input":` + task + `},
 {"id":"b","traceId":"t1","parentObservationId":"a","type":"GENERATION","name":"chat","startTime":"2024-11-04T10:00:01Z","output":{"role":"assistant","content":"Paris."}}]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "trace.json")
			require.NoError(t, os.WriteFile(path, []byte(tt.data), 0o644))
			r, err := run.Load(path, run.Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.format, r.Format)
			assert.Equal(t, "Capital of France?", r.Question)
			assert.Equal(t, []string{"user user: Capital of France?", "Planner message: Paris."}, steps(r))
		})
	}
}

// TestPythonConsoleExporter reads what OpenTelemetry Python's
// ConsoleSpanExporter prints: indented JSON objects one after another,
// ids as 0x-prefixed hex, kinds as Python enums.
func TestPythonConsoleExporter(t *testing.T) {
	cases, err := run.LoadAll(context.Background(), filepath.Join("..", "testdata", "traces", "otel-python-console.txt"), run.Options{})
	require.NoError(t, err)
	require.Len(t, cases, 1)
	r := cases[0].Run
	assert.Equal(t, "5b8efff798038103d269b633813fc60c", r.TraceID)
	assert.Equal(t, []string{"user user: Capital of France?", "Planner message: Paris.", "Planner message: ValueError: no city"}, steps(r))
	assert.Equal(t, "eee19b7ec3c1b174", r.Steps[1].SpanID())
}

// quote writes s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
