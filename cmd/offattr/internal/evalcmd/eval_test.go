package evalcmd

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/eval"
	"github.com/offattr/offattr/eval/evaltest"
	"github.com/offattr/offattr/localllm/ollamatest"
	"github.com/offattr/offattr/rules"
)

func TestEvalJSONShape(t *testing.T) {
	dir := evaltest.WriteCases(t)
	var out, errOut bytes.Buffer
	cmd := NewCmdEval(&cmdutil.IOStreams{Out: &out, ErrOut: &errOut}, nil)
	cmd.SetArgs([]string{dir, "--json"})
	require.NoError(t, cmd.Execute())
	var rep map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	assert.ElementsMatch(t, []string{"setting", "mode", "subsets", "overall"}, keys(rep))
	assert.Equal(t, "rules", rep["mode"])
	overall := rep["overall"].(map[string]any)
	assert.ElementsMatch(t, []string{"name", "cases", "failed", "agent_accuracy", "step_accuracy", "step_within", "recall_at", "usage", "seconds", "triage"}, keys(overall))
	for band := range overall["triage"].(map[string]any) {
		assert.Contains(t, []string{"clear", "review", "escalate"}, band)
	}
	assert.ElementsMatch(t, []string{"1", "2", "3", "5"}, keys(overall["step_within"].(map[string]any)))
	assert.ElementsMatch(t, []string{"1", "3", "5"}, keys(overall["recall_at"].(map[string]any)))
	assert.ElementsMatch(t, []string{"llm_calls", "prompt_tokens", "completion_tokens"}, keys(overall["usage"].(map[string]any)))
}

func TestEvalMissingPath(t *testing.T) {
	var out, errOut bytes.Buffer
	cmd := NewCmdEval(&cmdutil.IOStreams{Out: &out, ErrOut: &errOut}, nil)
	cmd.SetArgs([]string{"does/not/exist"})
	cmd.SilenceUsage = true
	assert.EqualError(t, cmd.Execute(), "eval does/not/exist: no such file or directory")
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestEvalWithModel(t *testing.T) {
	srv := ollamatest.New(ollamatest.Model{Name: "fake", ContextLength: 8192, Digest: "sha256:f"})
	t.Cleanup(srv.Close)
	dir := evaltest.WriteCases(t)
	cache := t.TempDir()
	runEval := func() eval.Report {
		var out, errOut bytes.Buffer
		cmd := NewCmdEval(&cmdutil.IOStreams{Out: &out, ErrOut: &errOut}, nil)
		cmd.SetArgs([]string{dir, "--json", "--model", "fake", "--ollama-host", srv.URL, "--cache-dir", cache, "--panel", "2"})
		require.NoError(t, cmd.Execute())
		var rep eval.Report
		require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
		return rep
	}
	first := runEval()
	assert.Equal(t, rules.ModeRulesLLM, first.Mode)
	// The 4 readable cases differ only in their labels, which the model never
	// sees: the first case's 3 answers (a reader's, two analysts') serve the
	// other 3 from the cache.
	assert.Equal(t, 3, first.Overall.Usage.LLMCalls)
	require.NotNil(t, first.Overall.ModelExposure)
	assert.InDelta(t, 0.8, *first.Overall.ModelExposure, 1e-9, "4 of 5 cases: one fails to load")
	second := runEval()
	assert.Equal(t, rules.ModeRulesLLM, second.Mode, "still rules+llm when every answer is cached")
	assert.Equal(t, 0, second.Overall.Usage.LLMCalls)
	assert.Equal(t, 3, srv.Hits("/api/chat"))
	assert.Equal(t, first.Overall.ModelExposure, second.Overall.ModelExposure)
}
