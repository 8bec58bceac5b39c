package fitcmd

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/eval/evaltest"
	"github.com/offattr/offattr/internal/escape"
	"github.com/offattr/offattr/localllm"
	"github.com/offattr/offattr/localllm/ollamatest"
	"github.com/offattr/offattr/rules"
)

func TestFitWithModelWritesModelWeights(t *testing.T) {
	srv := ollamatest.New(ollamatest.Model{Name: "fake", ContextLength: 8192})
	t.Cleanup(srv.Close)
	dir := evaltest.WriteCases(t)
	corpus := "A\x1b[2J" // named for its directory: printed escaped
	require.NoError(t, os.Rename(filepath.Join(dir, "A"), filepath.Join(dir, corpus)))
	out := filepath.Join(t.TempDir(), "w.json")
	var stdout, stderr bytes.Buffer
	cmd := NewCmdFit(&cmdutil.IOStreams{Out: &stdout, ErrOut: &stderr}, nil)
	cmd.SetArgs([]string{dir, "-o", out, "--cv", "2", "--repeats", "1", "--model", "fake", "--ollama-host", srv.URL, "--no-cache", "--panel", "2"})
	require.ErrorIs(t, cmd.Execute(), cmdutil.ErrInputsFailed, "the weights are written; the exit says the unreadable case was left out: %s", stderr.String())
	assert.Contains(t, stderr.String(), "asking fake about 4 labelled runs")
	assert.Contains(t, stdout.String(), "with the model fake")
	assert.Contains(t, stdout.String(), "model, fitted, 2-fold CV")
	assert.Contains(t, stdout.String(), "model alone (its analysts' pick): "+escape.Line(corpus)+" agent")
	assert.NotContains(t, stdout.String(), "\x1b")
	assert.Contains(t, stdout.String(), "model weights: ", "how the model weights were chosen")
	assert.Positive(t, srv.Hits("/api/chat"))
	w, err := rules.LoadWeights(out)
	require.NoError(t, err)
	require.NotNil(t, w.Model, "the file has a model section")
	assert.Equal(t, "fake", w.Model.Model)
	assert.Contains(t, w.Model.Weights, rules.ModelVotes)
	assert.Contains(t, w.Model.Weights, "vote:liberal", "each analyst's own weight")
	assert.Contains(t, w.Model.About, "offattr fit --model fake on 4 runs")
}

func TestFitWithAMissingModelFails(t *testing.T) {
	srv := ollamatest.New(ollamatest.Model{Name: "fake", ContextLength: 8192})
	t.Cleanup(srv.Close)
	var sink bytes.Buffer
	cmd := NewCmdFit(&cmdutil.IOStreams{Out: &sink, ErrOut: &sink}, nil)
	cmd.SetArgs([]string{evaltest.WriteCases(t), "--model", "nope", "--ollama-host", srv.URL, "-o", filepath.Join(t.TempDir(), "w.json")})
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "model nope is not available")
}

// TestFitWithAModelThatNeverAnswers: a model whose every answer is dropped
// is given no say, and fit says so rather than fail.
func TestFitWithAModelThatNeverAnswers(t *testing.T) {
	srv := ollamatest.New(ollamatest.Model{Name: "fake", ContextLength: 8192})
	srv.Respond = func(*api.ChatRequest, int) ollamatest.Reply { return ollamatest.Reply{Content: "not JSON"} }
	t.Cleanup(srv.Close)
	out := filepath.Join(t.TempDir(), "w.json")
	var stdout, stderr bytes.Buffer
	cmd := NewCmdFit(&cmdutil.IOStreams{Out: &stdout, ErrOut: &stderr}, nil)
	cmd.SetArgs([]string{evaltest.WriteCases(t), "-o", out, "--cv", "2", "--repeats", "1", "--model", "fake", "--ollama-host", srv.URL, "--no-cache", "--panel", "1"})
	require.ErrorIs(t, cmd.Execute(), cmdutil.ErrInputsFailed, "the unreadable case is left out and said so")
	assert.Contains(t, stderr.String(), "fake answered usably on none of the 4 runs")
	assert.Contains(t, stdout.String(), "model weights: the model is given no say")
	w, err := rules.LoadWeights(out)
	require.NoError(t, err)
	require.NotNil(t, w.Model)
	assert.True(t, localllm.Silent(w.Model.Weights), "its signals weigh nothing: %v", w.Model.Weights)
}
