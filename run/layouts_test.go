package run_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
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

// TestSpansAmongProgramOutput reads the spans an exporter printed to
// standard output among the program's own lines (a run's output
// redirected to a file, its first line the program's) as the spans alone
// read: OpenTelemetry Go's stdouttrace, pretty or one a line, and Python's
// ConsoleSpanExporter. A file that holds no spans among its lines, a span
// cut short, a format named by the user, or a file that starts with a
// span, gets the error it got before.
func TestSpansAmongProgramOutput(t *testing.T) {
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "traces", name))
		require.NoError(t, err)
		return string(data)
	}
	goPretty := read("openai-go-stdouttrace.json")
	python := read("otel-python-console.txt")
	// stdouttrace without pretty printing: each span's JSON on one line.
	var compact strings.Builder
	dec := json.NewDecoder(strings.NewReader(goPretty))
	for dec.More() {
		var v json.RawMessage
		require.NoError(t, dec.Decode(&v))
		compact.Write(v)
		compact.WriteString("\n")
	}
	// between puts a program's line after each value of a file of values
	// one after another.
	between := func(data, line string) string {
		var b strings.Builder
		b.WriteString("starting the planner\n")
		dec := json.NewDecoder(strings.NewReader(data))
		start := 0
		for dec.More() {
			var v json.RawMessage
			require.NoError(t, dec.Decode(&v))
			end := int(dec.InputOffset())
			b.WriteString(data[start:end])
			b.WriteString("\n" + line + "\n")
			start = end
		}
		b.WriteString("Answer: 4350 USD\n")
		return b.String()
	}
	tests := []struct {
		name, clean, mixed string
	}{
		{"stdouttrace, pretty", goPretty, between(goPretty, "researcher: got a rate {of 1450}")},
		{"stdouttrace, a span a line", compact.String(), between(compact.String(), "2026/11/27 10:00:00 INFO call done")},
		{"Python's ConsoleSpanExporter", python, between(python, "print: [debug] planner answered")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := run.ParseAll(context.Background(), "clean", []byte(tt.clean), run.Options{})
			require.NoError(t, err)
			got, err := run.ParseAll(context.Background(), "mixed", []byte(tt.mixed), run.Options{})
			require.NoError(t, err)
			require.Len(t, got, len(want))
			for i := range want {
				assert.Equal(t, want[i].Run.TraceID, got[i].Run.TraceID)
				assert.Equal(t, want[i].Run.Question, got[i].Run.Question)
				assert.Equal(t, steps(want[i].Run), steps(got[i].Run))
			}
		})
	}
	refused := []struct {
		name, data, err string
		opts            run.Options
	}{
		{"no spans among the lines", "hello\n{\"role\": \"user\", \"content\": \"hi\"}\nbye\n", "not JSON", run.Options{}},
		{"a span cut short", "starting\n" + goPretty[:len(goPretty)/2], "not JSON", run.Options{}},
		{"a format named", between(goPretty, "hello"), "line 1, column 1: a span is a JSON object", run.Options{Format: run.FormatOpenInference}},
		// Only a file that starts with a line of text is read so: one
		// that starts with JSON is read as a whole.
		{"spans first", goPretty + "Answer: 4350 USD\n", "line 1657, column 1", run.Options{}},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			_, err := run.ParseAll(context.Background(), "mixed", []byte(tt.data), tt.opts)
			require.Error(t, err)
			assert.ErrorContains(t, err, tt.err)
		})
	}
}

// quote writes s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
