package stepscmd

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
)

var testdata = filepath.Join("..", "..", "..", "..", "testdata")

func runSteps(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	return cmdutil.Execute(func(io *cmdutil.IOStreams) *cobra.Command { return NewCmdSteps(io, nil) }, args...)
}

func TestStepsJSON(t *testing.T) {
	path := filepath.Join(testdata, "telemetry", "jaeger.json")
	out, _, err := runSteps(t, path, "--json")
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.ElementsMatch(t, []string{"file", "trace_id", "question", "steps"}, keys(got))
	assert.Equal(t, path+"#4bf92f3577b34da65eed0000cafe0001", got["file"])
	steps := got["steps"].([]any)
	require.Len(t, steps, 8)
	assert.ElementsMatch(t, []string{"index", "agent", "role", "kind", "text", "span_id", "from", "target"}, keys(steps[1]), "a handoff names its target")
	assert.ElementsMatch(t, []string{"index", "agent", "role", "kind", "text", "span_id", "from"}, keys(steps[2]))
	assert.Equal(t, "00f067aa0ba90005", steps[2].(map[string]any)["span_id"])

	plain, _, err := runSteps(t, filepath.Join(testdata, "runs", "magentic.json"), "--json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal([]byte(plain), &got))
	assert.Equal(t, "", got["trace_id"], "the same keys for every format")
}

// A run joined from its session's traces names, for each step read from
// another trace than the run's, that step's own trace: with its span id it
// is what a trace viewer finds the step by.
func TestStepsJSONNamesEachStepsTrace(t *testing.T) {
	path := filepath.Join(testdata, "traces", "traceloop-langgraph-js.jsonl")
	out, _, err := runSteps(t, path, "--json")
	require.NoError(t, err)
	var r Run
	require.NoError(t, json.Unmarshal([]byte(out), &r))
	assert.Equal(t, "a370d181a4934232ce952192d8e54765", r.TraceID)
	var traces []string
	for _, s := range r.Steps {
		traces = append(traces, s.TraceID)
	}
	assert.Equal(t, []string{"16a4775652690eb315161ea3ccde0717", "16a4775652690eb315161ea3ccde0717", "dcabb9cb1820a606c94c0e1b4bd40935", "dcabb9cb1820a606c94c0e1b4bd40935"}, traces)

	one, _, err := runSteps(t, filepath.Join(testdata, "telemetry", "jaeger.json"), "--json")
	require.NoError(t, err)
	var own Run
	require.NoError(t, json.Unmarshal([]byte(one), &own))
	require.NotEmpty(t, own.Steps)
	for _, s := range own.Steps {
		assert.Empty(t, s.TraceID, "a step of the run's own trace names none")
	}
}

func TestStepsJSONLinesForManyTraces(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testdata, "telemetry", "otel-sdk.jsonl"))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "traces.jsonl")
	require.NoError(t, os.WriteFile(path, append(data, strings.ReplaceAll(string(data), "cafe0001", "cafe0002")...), 0o644))
	out, _, err := runSteps(t, path, "--json")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 2)
	for i, line := range lines {
		var r Run
		require.NoError(t, json.Unmarshal([]byte(line), &r))
		assert.Equal(t, []string{"4bf92f3577b34da65eed0000cafe0001", "4bf92f3577b34da65eed0000cafe0002"}[i], r.TraceID)
		assert.Equal(t, "What will the weather be in Oslo tomorrow, in Fahrenheit?", r.Question)
	}
	text, _, err := runSteps(t, path)
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(text, "task: What will the weather"))
}

// TestStepsTextIsInert: nothing a span holds reaches the terminal as
// control: its escape sequences (begun by ESC or by their 8-bit C1
// control) are read away, and an escape that begins none, bells and
// bidirectional overrides are printed as escapes; the JSON keeps the text
// as it was read (its CRLF line ends as LF, as every run's are, its
// escape sequences away).
func TestStepsTextIsInert(t *testing.T) {
	hostile := "clear\x1b[2J\x1b\x07 the \u009b31m screen \u202eevil\r\nnext line"
	line, err := json.Marshal(map[string]any{
		"name": "chat", "context": map[string]any{"trace_id": "t\x1b]0;pwned\x07", "span_id": "s1"},
		"attributes": map[string]any{"openinference.span.kind": "LLM", "output.value": hostile},
	})
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "spans.jsonl")
	require.NoError(t, os.WriteFile(path, line, 0o644))

	out, _, err := runSteps(t, path, "--width", "0")
	require.NoError(t, err)
	for _, c := range []string{"\x1b", "\x07", "\u009b", "\u202e", "\r"} {
		assert.NotContains(t, out, c)
	}
	assert.Contains(t, out, `clear\x1b\x07 the screen \u202eevil next line`)
	assert.Contains(t, out, `#t]0;pwned `, "ids lose their control characters when read")

	js, _, err := runSteps(t, path, "--json")
	require.NoError(t, err)
	var r Run
	require.NoError(t, json.Unmarshal([]byte(js), &r))
	assert.Equal(t, "clear\x1b\x07 the  screen \u202eevil\nnext line", r.Steps[0].Text)
}

func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"  two\n\n lines\t ", "two lines"},
		{"a\x00b\x7fc", `a\x00b\x7fc`},
		{"\u2066isolate\u2069", `\u2066isolate\u2069`},
		{"bad \xff byte", `bad \ufffd byte`},
		{"ünïcode °F", "ünïcode °F"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Printable(tt.in), "%q", tt.in)
	}
	assert.Equal(t, "abc…", clip("abcdef", 4))
	assert.Equal(t, "abcdef", clip("abcdef", 0))
}

func TestStepsErrors(t *testing.T) {
	path := filepath.Join(testdata, "bad", "invalid.json")
	_, _, err := runSteps(t, path)
	require.Error(t, err)
	assert.Contains(t, err.Error(), path)
	_, _, err = runSteps(t, path, "--width", "-1")
	assert.EqualError(t, err, `invalid argument "-1" for "--width" flag: must be at least 0`)
}

func TestStepsFlags(t *testing.T) {
	var got *StepsOptions
	cmd := NewCmdSteps(&cmdutil.IOStreams{}, func(o *StepsOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"t.json", "--json", "--input-format", "otlp", "--width", "0"})
	require.NoError(t, cmd.Execute())
	assert.Equal(t, &StepsOptions{IO: &cmdutil.IOStreams{}, Path: "t.json", JSON: true, Width: 0,
		Load: cmdutil.LoadFlags{Format: "otlp", MaxInput: 256 << 20}}, got)
}

func keys(v any) []string {
	var out []string
	for k := range v.(map[string]any) {
		out = append(out, k)
	}
	return out
}

func TestStepsRedacts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"question": "q", "history": [{"role": "human", "content": "mail bob@example.com"}, {"role": "Coder", "content": "password=Kestrel9Harbor"}]}`), 0o644))
	for _, args := range [][]string{{path, "--redact"}, {path, "--redact", "--json"}} {
		stdout, _, err := runSteps(t, args...)
		require.NoError(t, err)
		assert.Contains(t, stdout, "[EMAIL_1]")
		assert.NotContains(t, stdout, "bob@example.com")
		assert.NotContains(t, stdout, "Kestrel9Harbor")
	}
	stdout, _, err := runSteps(t, path)
	require.NoError(t, err)
	assert.Contains(t, stdout, "bob@example.com", "off unless asked")
}

// An interrupted steps prints nothing of a run it was still laying out.
func TestRenderStopsWhenCancelled(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	page, err := render(ctx, func(io.Writer) error { <-release; return nil })
	assert.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, page)

	page, err = render(context.Background(), func(w io.Writer) error { _, err := io.WriteString(w, "0 Planner"); return err })
	require.NoError(t, err)
	assert.Equal(t, "0 Planner", string(page))
}
