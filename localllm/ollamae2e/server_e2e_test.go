//go:build ollama_e2e

package ollamae2e

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/localllm/ollamae2e/tinymodel"
)

// verdictSchema is the shape of answer offattr asks a model for, reduced to
// what this test needs: the server must turn it into a grammar.
const verdictSchema = `{
  "type": "object",
  "properties": {
    "agent": {"type": "string"},
    "step": {"type": "integer"},
    "is_fault": {"type": "boolean"},
    "confidence": {"type": "number"}
  },
  "required": ["agent", "step", "is_fault", "confidence"]
}`

// TestE2EServerChat checks, with the api client alone, what offattr relies
// on from a real server: /api/show reports the model's context length, and
// /api/chat takes a JSON schema in format, temperature 0, a seed and a
// num_predict, and answers deterministically. The tiny model's answer is
// nonsense and usually cut off; that is expected and only recorded.
func TestE2EServerChat(t *testing.T) {
	srv := Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	show, err := srv.Client.Show(ctx, &api.ShowRequest{Model: srv.Model})
	require.NoError(t, err)
	assert.Equal(t, "llama", show.ModelInfo["general.architecture"])
	// JSON numbers decode as float64 into map[string]any.
	assert.EqualValues(t, tinymodel.ContextLength, show.ModelInfo["llama.context_length"])
	assert.Equal(t, "gguf", show.Details.Format)

	const numPredict = 48
	stream := false
	req := &api.ChatRequest{
		Model: srv.Model,
		Messages: []api.Message{
			{Role: "system", Content: "You judge multi-agent runs. Answer with JSON only."},
			{Role: "user", Content: "Step 3 (WebSurfer) reported the wrong year. Is it the decisive fault?"},
		},
		Format: json.RawMessage(verdictSchema),
		Stream: &stream,
		Options: map[string]any{
			"temperature": 0,
			"seed":        42,
			"num_predict": numPredict,
			"num_ctx":     tinymodel.ContextLength,
		},
	}

	chat := func() (api.ChatResponse, time.Duration) {
		t.Helper()
		var resp api.ChatResponse
		start := time.Now()
		err := srv.Client.Chat(ctx, req, func(r api.ChatResponse) error {
			resp = r
			return nil
		})
		require.NoError(t, err)
		return resp, time.Since(start)
	}

	first, latency := chat()
	t.Logf("server %s, chat in %s (load %s): done_reason=%q prompt_eval_count=%d eval_count=%d content=%q",
		srv.Version, latency.Round(time.Millisecond), first.LoadDuration.Round(time.Millisecond),
		first.DoneReason, first.PromptEvalCount, first.EvalCount, first.Message.Content)
	assert.True(t, first.Done)
	assert.Contains(t, []string{"stop", "length"}, first.DoneReason)
	assert.Positive(t, first.PromptEvalCount)
	assert.LessOrEqual(t, first.EvalCount, numPredict)
	assert.NotEmpty(t, first.Message.Content)
	if first.DoneReason == "stop" {
		// Finished within the budget: the grammar must have held.
		assert.True(t, json.Valid([]byte(first.Message.Content)), "content %q", first.Message.Content)
	}

	second, latency := chat()
	t.Logf("second chat in %s", latency.Round(time.Millisecond))
	assert.Equal(t, first.Message.Content, second.Message.Content, "temperature 0 and a fixed seed must repeat the answer")
	assert.Equal(t, first.DoneReason, second.DoneReason)
}
