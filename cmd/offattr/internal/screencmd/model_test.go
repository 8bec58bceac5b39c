package screencmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/cmd/offattr/internal/screenfile"
	"github.com/offattr/offattr/localllm/ollamatest"
	"github.com/offattr/offattr/rules"
)

// TestScreenSpreadsRunsOverHosts goes through the real flags, the real
// pipeline and two in-process Ollama servers.
func TestScreenSpreadsRunsOverHosts(t *testing.T) {
	model := ollamatest.Model{Name: "qwen3:8b", ContextLength: 4096}
	a, b := ollamatest.New(model), ollamatest.New(model)
	t.Cleanup(a.Close)
	t.Cleanup(b.Close)

	src, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "testdata", "runs", "magentic.json"))
	require.NoError(t, err)
	dir := t.TempDir()
	for _, name := range []string{"1.json", "2.json", "3.json", "4.json"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), src, 0o644))
	}

	var out, errOut bytes.Buffer
	cmd := NewCmdScreen(&cmdutil.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, nil)
	cmd.SetArgs([]string{dir, "--workers", "2", "--model", "qwen3:8b", "--no-cache",
		"--ollama-host", a.URL + "," + b.URL})
	require.NoError(t, cmd.Execute(), errOut.String())

	c, err := screenfile.Parse(out.Bytes(), screenfile.JSONL)
	require.NoError(t, err)
	require.Len(t, c.Records, 4)
	for _, r := range c.Records {
		assert.Equal(t, rules.ModeRulesLLM, r.Mode)
		assert.Positive(t, r.Usage.LLMCalls)
		if assert.NotNil(t, r.Model, "the record says how the model was asked") {
			assert.Equal(t, "auto", r.Model.Requested)
			assert.Contains(t, r.Model.Reason, "auto chose "+r.Model.Strategy)
		}
	}
	assert.Equal(t, len(a.Chats()), len(b.Chats()), "two runs each")
	assert.Positive(t, len(a.Chats()))
	assert.Contains(t, errOut.String(), "model: ")

	// A host that does not answer is named before any run is read.
	down := ollamatest.New(model)
	downURL := down.URL
	down.Close()
	cmd = NewCmdScreen(&cmdutil.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, nil)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetArgs([]string{dir, "--model", "qwen3:8b", "--ollama-host", a.URL + "," + downURL})
	assert.ErrorContains(t, cmd.Execute(), "ollama host "+downURL+": no Ollama server answers")
}
