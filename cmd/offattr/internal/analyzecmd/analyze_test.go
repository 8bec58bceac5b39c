package analyzecmd

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/redact"
	"github.com/offattr/offattr/run"
)

func runAnalyze(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	return cmdutil.Execute(func(io *cmdutil.IOStreams) *cobra.Command { return NewCmdAnalyze(io, nil) }, args...)
}

func TestAnalyzeJSONKeys(t *testing.T) {
	path := filepath.Join("..", "..", "..", "..", "testdata", "runs", "magentic.json")
	out, _, err := runAnalyze(t, path, "--json")
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	assert.ElementsMatch(t, []string{"file", "agent", "step", "confidence", "spread", "triage", "triage_reason", "mode", "rationale", "evidence", "candidates", "usage"}, keys)
	assert.Equal(t, path, got["file"])
	assert.Equal(t, "rules", got["mode"])
	ev := got["evidence"].([]any)
	require.NotEmpty(t, ev)
	assert.ElementsMatch(t, []string{"rule", "step", "quote"}, mapKeys(ev[0]))
	cands := got["candidates"].([]any)
	require.NotEmpty(t, cands)
	assert.ElementsMatch(t, []string{"step", "agent", "score", "rules"}, mapKeys(cands[0]))
	assert.ElementsMatch(t, []string{"llm_calls", "prompt_tokens", "completion_tokens"}, mapKeys(got["usage"]))
}

// TestAnalyzeCollectsMoreOften: while a run is analysed, the collector
// lets the heap grow by AnalyzeGCPercent, unless the user set GOGC.
func TestAnalyzeCollectsMoreOften(t *testing.T) {
	if _, set := os.LookupEnv("GOGC"); set {
		t.Skip("GOGC is set: analyze keeps it")
	}
	during := -1
	runF := func(opts *AnalyzeOptions) error {
		analyzer := opts.Analyzer
		opts.Analyzer = func(p *redact.Patterns) (engine.AnalyzeFunc, error) {
			analyze, err := analyzer(p)
			return func(ctx context.Context, r *run.Run) (engine.Result, error) {
				during = debug.SetGCPercent(-1)
				debug.SetGCPercent(during)
				return analyze(ctx, r)
			}, err
		}
		return analyzeRun(context.Background(), opts)
	}
	path := filepath.Join("..", "..", "..", "..", "testdata", "runs", "autogen.json")
	_, _, err := cmdutil.Execute(func(io *cmdutil.IOStreams) *cobra.Command { return NewCmdAnalyze(io, runF) }, path)
	require.NoError(t, err)
	assert.Equal(t, AnalyzeGCPercent, during)
}

func TestAnalyzeText(t *testing.T) {
	out, _, err := runAnalyze(t, filepath.Join("..", "..", "..", "..", "testdata", "runs", "autogen.json"))
	require.NoError(t, err)
	assert.Contains(t, out, "agent ")
	assert.Contains(t, out, "step ")
	assert.Contains(t, out, "confidence ")
	assert.Contains(t, out, "Evidence:")
}

func TestAnalyzeBadInput(t *testing.T) {
	path := filepath.Join("..", "..", "..", "..", "testdata", "bad", "invalid.json")
	out, _, err := runAnalyze(t, path)
	require.Error(t, err)
	assert.Empty(t, out)
	assert.Contains(t, err.Error(), path)
	assert.Contains(t, err.Error(), "line 4, column 23")
}

func TestAnalyzeFlags(t *testing.T) {
	var got *AnalyzeOptions
	cmd := NewCmdAnalyze(&cmdutil.IOStreams{}, func(o *AnalyzeOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"run.json", "--json", "--no-ground-truth", "--format", "transcript", "--question", "Q"})
	require.NoError(t, cmd.Execute())
	assert.Equal(t, "run.json", got.Path)
	assert.True(t, got.JSON)
	assert.True(t, got.Load.NoGroundTruth)
	assert.Equal(t, "transcript", got.Load.Format)
	assert.Equal(t, "Q", got.Load.Question)
}

func mapKeys(v any) []string {
	var out []string
	for k := range v.(map[string]any) {
		out = append(out, k)
	}
	return out
}

func TestAnalyzeRedact(t *testing.T) {
	path := filepath.Join(t.TempDir(), "leaky.json")
	require.NoError(t, os.WriteFile(path, []byte(`[
  {"role": "user", "content": "Mail the report to bob@example.com."},
  {"role": "assistant", "name": "mailer", "content": "Error: SMTP login failed for bob@example.com with password=Hunter22 at 10.2.3.4"}
]`), 0o644))
	plain, _, err := runAnalyze(t, path, "--json")
	require.NoError(t, err)
	require.Contains(t, plain, "bob@example.com", "the evidence quotes the step")

	out, _, err := runAnalyze(t, path, "--json", "--redact")
	require.NoError(t, err)
	for _, secret := range []string{"bob@example.com", "Hunter22", "10.2.3.4"} {
		assert.NotContains(t, out, secret)
	}
	assert.Contains(t, out, "[EMAIL_1]")

	_, _, err = runAnalyze(t, path, "--redact-patterns", filepath.Join(t.TempDir(), "none.txt"))
	assert.ErrorContains(t, err, "none.txt: no such file or directory")
}

// twoTraces writes the SDK's trip twice under two trace ids: a collector
// file holding two runs.
func twoTraces(t *testing.T) (path string, ids []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "testdata", "telemetry", "otel-sdk.jsonl"))
	require.NoError(t, err)
	const id = "4bf92f3577b34da65eed0000cafe0001"
	other := strings.Replace(id, "0001", "0002", 1)
	both := string(data) + strings.ReplaceAll(string(data), id, other)
	path = filepath.Join(t.TempDir(), "traces.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(both), 0o644))
	return path, []string{id, other}
}

func TestAnalyzeTelemetry(t *testing.T) {
	path, ids := twoTraces(t)
	out, _, err := runAnalyze(t, path, "--json")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 2, "one JSON line per trace")
	for i, line := range lines {
		var got struct {
			File       string `json:"file"`
			Step       int    `json:"step"`
			TraceID    string `json:"trace_id"`
			SpanID     string `json:"span_id"`
			Candidates []struct {
				Step    int    `json:"step"`
				TraceID string `json:"trace_id"`
				SpanID  string `json:"span_id"`
			} `json:"candidates"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &got))
		assert.Equal(t, path+"#"+ids[i], got.File)
		assert.Equal(t, ids[i], got.TraceID)
		assert.Regexp(t, `^00f067aa0ba9[0-9a-f]{4}$`, got.SpanID)
		require.NotEmpty(t, got.Candidates)
		for _, c := range got.Candidates {
			assert.Equal(t, ids[i], c.TraceID)
			assert.NotEmpty(t, c.SpanID)
		}
	}

	one, _, err := runAnalyze(t, path+"#"+ids[1], "--json")
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(one), &got), "one trace: one indented object")
	assert.Equal(t, ids[1], got["trace_id"])

	text, _, err := runAnalyze(t, path)
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(text, "  span        00f067aa0ba9"), text)
}
