package analyzecmd

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/localllm/ollamatest"
	"github.com/offattr/offattr/rules"
)

func TestAnalyzeWithModel(t *testing.T) {
	srv := ollamatest.New(ollamatest.Model{Name: "qwen3:8b", ContextLength: 4096, Digest: "sha256:q"})
	t.Cleanup(srv.Close)
	path := filepath.Join("..", "..", "..", "..", "testdata", "runs", "magentic.json")
	cache := t.TempDir()
	analyze := func() rules.Attribution {
		out, errOut, err := runAnalyze(t, path, "--json", "--model", "qwen3:8b", "--ollama-host", srv.URL, "--cache-dir", cache)
		require.NoError(t, err)
		assert.Empty(t, errOut)
		var a rules.Attribution
		require.NoError(t, json.Unmarshal([]byte(out), &a))
		return a
	}
	first := analyze()
	assert.Equal(t, rules.ModeRulesLLM, first.Mode)
	// auto sweeps this short run: one reader, then the panel of three.
	assert.Equal(t, 4, first.Usage.LLMCalls)
	assert.Positive(t, first.Usage.PromptTokens)
	assert.Contains(t, first.Rationale, "Model qwen3:8b (3 analysts")
	assert.Contains(t, first.Rationale, "Auto chose sweep: the whole run")
	require.NotNil(t, first.Model)
	assert.Equal(t, "sweep", first.Model.Strategy)
	assert.Equal(t, "auto", first.Model.Requested)
	assert.NotEmpty(t, first.Model.CandidatesSeen)
	assert.Len(t, srv.Chats(), 4)

	second := analyze()
	assert.Len(t, srv.Chats(), 4, "the second run is answered from the cache")
	assert.Equal(t, rules.Usage{}, second.Usage)
	second.Usage = first.Usage
	assert.Equal(t, first, second)
}

func TestAnalyzeModelErrors(t *testing.T) {
	srv := ollamatest.New(ollamatest.Model{Name: "qwen3:8b", ContextLength: 4096})
	t.Cleanup(srv.Close)
	down := ollamatest.New()
	downURL := down.URL
	down.Close()
	path := filepath.Join("..", "..", "..", "..", "testdata", "runs", "magentic.json")
	tests := []struct {
		name, host, model, want string
	}{
		{"missing model", srv.URL, "llama3.3", "model llama3.3 is not available on " + srv.URL + "; run 'ollama pull llama3.3'"},
		{"no server", downURL, "qwen3:8b", "no Ollama server answers at " + downURL + " (connection refused); start it with 'ollama serve', or drop --model to use rules alone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := runAnalyze(t, path, "--model", tt.model, "--ollama-host", tt.host, "--no-cache")
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
			assert.Empty(t, out, "nothing on stdout")
		})
	}
	assert.Equal(t, 0, srv.Hits("/api/chat"))
}

func TestAnalyzeCancelKeepsRulesAnswer(t *testing.T) {
	srv := ollamatest.New(ollamatest.Model{Name: "qwen3:8b", ContextLength: 4096})
	t.Cleanup(srv.Close)
	arrived := make(chan struct{}, 3)
	srv.Respond = func(*api.ChatRequest, int) ollamatest.Reply {
		arrived <- struct{}{}
		return ollamatest.Reply{Content: "{}", Delay: 10 * time.Second}
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-arrived; cancel() }()
	var out, errOut bytes.Buffer
	cmd := NewCmdAnalyze(&cmdutil.IOStreams{Out: &out, ErrOut: &errOut}, nil)
	path := filepath.Join("..", "..", "..", "..", "testdata", "runs", "magentic.json")
	cmd.SetArgs([]string{path, "--json", "--model", "qwen3:8b", "--ollama-host", srv.URL, "--no-cache"})
	err := cmd.ExecuteContext(ctx)
	require.ErrorIs(t, err, context.Canceled)
	var a rules.Attribution
	require.NoError(t, json.Unmarshal(out.Bytes(), &a), "the rules' answer is printed")
	assert.Equal(t, rules.ModeRules, a.Mode)
	assert.Equal(t, path, a.File)
	assert.Contains(t, errOut.String(), "model calls cancelled; the rules' answer stands")
}
