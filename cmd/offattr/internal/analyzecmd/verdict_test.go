package analyzecmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/localllm/ollamatest"
	"github.com/offattr/offattr/rules"
)

func TestVerdict(t *testing.T) {
	review := func(model *rules.Pick, signals ...rules.ModelSignal) *rules.ModelReview {
		return &rules.ModelReview{RulesPick: &rules.Pick{Step: 2, Agent: "Coder"}, ModelPick: model, Weights: "default",
			Analysts: []string{"conservative", "liberal", "detail-focused"}, Signals: signals}
	}
	three := rules.ModelSignal{Step: 5, Reader: true, Votes: map[string]float64{"conservative": 1, "liberal": 1, "detail-focused": 1}}
	one := rules.ModelSignal{Step: 5, Votes: map[string]float64{"liberal": 1}}
	for _, c := range []struct {
		name string
		a    rules.Attribution
		want string
	}{
		{"no model", rules.Attribution{Step: 2, Agent: "Coder"}, ""},
		{"no counted vote", rules.Attribution{Step: 2, Agent: "Coder", Model: review(nil)},
			"rules' pick step 2 (Coder), model's pick none, final answer step 2 (Coder): no analyst's vote counted, so the rules' answer stands"},
		{"agree", rules.Attribution{Step: 5, Agent: "Web", Model: &rules.ModelReview{RulesPick: &rules.Pick{Step: 5, Agent: "Web"}, ModelPick: &rules.Pick{Step: 5, Agent: "Web"}, Analysts: []string{"a", "b", "c"}, Signals: []rules.ModelSignal{three}}},
			"rules' pick step 5 (Web), model's pick step 5 (Web), final answer step 5 (Web): the rules and the model agree (3 of 3 analysts and a reader)"},
		{"rules stand", rules.Attribution{Step: 2, Agent: "Coder", Model: review(&rules.Pick{Step: 5, Agent: "Web"}, one)},
			"rules' pick step 2 (Coder), model's pick step 5 (Web), final answer step 2 (Coder): 1 of 3 analysts named step 5, not enough to outweigh the rules under the default model weights"},
		{"model wins", rules.Attribution{Step: 5, Agent: "Web", Model: review(&rules.Pick{Step: 5, Agent: "Web"}, three)},
			"rules' pick step 2 (Coder), model's pick step 5 (Web), final answer step 5 (Web): 3 of 3 analysts and a reader named step 5, which outweighs the rules under the default model weights"},
		{"neither", rules.Attribution{Step: 7, Agent: "Web", Model: review(&rules.Pick{Step: 5, Agent: "Web"}, one)},
			"weighing the rules' probabilities with the model's signals under the default model weights puts step 7 (0 of 3 analysts) ahead of both"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.want == "" {
				assert.Empty(t, verdict(c.a))
				return
			}
			assert.Contains(t, verdict(c.a), c.want)
		})
	}
}

// TestAnalyzeSaysWhatTheModelAdded runs analyze against a stand-in judge
// that always names the labelled step, with weights fitted for another
// model: the warning says so, and the verdict line shows the three picks.
func TestAnalyzeSaysWhatTheModelAdded(t *testing.T) {
	judge := ollamatest.NewJudge(1, 3)
	judge.Expect(1)
	srv := ollamatest.New(ollamatest.Model{Name: "qwen3:8b", ContextLength: 32768})
	srv.Respond = judge.Reply
	t.Cleanup(srv.Close)
	w := rules.DefaultWeights()
	w.Model = &rules.ModelWeights{Model: "llama3:70b", Weights: map[string]float64{rules.ModelVotes: 5}}
	data, err := json.Marshal(w)
	require.NoError(t, err)
	weights := filepath.Join(t.TempDir(), "w.json")
	require.NoError(t, os.WriteFile(weights, data, 0o644))
	path := filepath.Join("..", "..", "..", "..", "testdata", "runs", "magentic.json")
	out, errOut, err := runAnalyze(t, path, "--model", "qwen3:8b", "--ollama-host", srv.URL, "--no-cache", "--weights", weights)
	require.NoError(t, err)
	assert.Contains(t, errOut, "fitted with llama3:70b, not qwen3:8b; weighing qwen3:8b by the default model weights")
	assert.Regexp(t, `Model verdict: rules' pick step \d+ \([^)]*\), model's pick step 1 \([^)]*\), final answer step 1 \([^)]*\): `, out)
}
