package localllm

import (
	"context"
	"net/http"
	"testing"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/localllm/ollamatest"
)

// byteTokenizer answers like a server whose model spends a token per byte:
// a prompt over its num_ctx is refused as Ollama refuses it.
func byteTokenizer(req *api.ChatRequest, n int) ollamatest.Reply {
	size := 0
	for _, m := range req.Messages {
		size += len(m.Content)
	}
	if size > toInt(req.Options["num_ctx"]) {
		return ollamatest.Reply{Status: http.StatusBadRequest, Error: "the input length exceeds the context length"}
	}
	return ollamatest.SchemaReply(req, n)
}

func TestOverflowShrinksPrompts(t *testing.T) {
	srv := newServer(t, qwen(4096))
	srv.Respond = byteTokenizer
	cacheDir := t.TempDir()
	j, warn := newJudge(t, srv, func(o *Options) { o.CacheDir = cacheDir })
	r := testRun(40, 200)

	a, err := j.Attribute(context.Background(), r, testAttribution(r))
	require.NoError(t, err)
	assert.Equal(t, "rules+llm", a.Mode, "the smaller prompts were answered")
	assert.Contains(t, warn.String(), "shrinking them")
	assert.Greater(t, j.shrink.get(), 1)
	first := len(srv.Chats())
	require.Greater(t, first, 3, "the first prompts overflowed and were asked again smaller")
	for _, c := range srv.Chats()[first-3:] {
		size := 0
		for _, m := range c.Messages {
			size += len(m.Content)
		}
		assert.LessOrEqual(t, size, 4096)
	}

	// A new process learns nothing in memory, but the cache remembers both
	// the overflow and the answers: a re-run makes no call.
	j2, _ := newJudge(t, srv, func(o *Options) { o.CacheDir = cacheDir })
	b, err := j2.Attribute(context.Background(), r, testAttribution(r))
	require.NoError(t, err)
	assert.Equal(t, first, len(srv.Chats()), "a cached re-run makes no model call")
	assert.Equal(t, 0, b.Usage.LLMCalls)
	assert.Equal(t, a.Step, b.Step)
}

func TestOverflowGivesUpWhenNothingFits(t *testing.T) {
	srv := newServer(t, qwen(4096))
	srv.Respond = func(req *api.ChatRequest, n int) ollamatest.Reply {
		return ollamatest.Reply{Status: http.StatusBadRequest, Error: "the input length exceeds the context length"}
	}
	j, warn := newJudge(t, srv, nil)
	// Long enough that each shrink makes a different prompt: a short run's
	// prompts hit the context floor (minContextTokens) at 2× already, and
	// the cache then answers the same prompt at 4× without a call.
	r := testRun(40, 200)
	rulesAnswer := testAttribution(r)
	a, err := j.Attribute(context.Background(), r, rulesAnswer)
	require.NoError(t, err)
	assert.Equal(t, rulesAnswer.Step, a.Step, "the rules' answer stands")
	assert.Equal(t, maxShrink, j.shrink.get())
	assert.Contains(t, warn.String(), overflowProblem)
	assert.Equal(t, 9, len(srv.Chats()), "three panels of three: at 1×, 2× and 4× smaller")
}
