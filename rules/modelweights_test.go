package rules

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseModelWeights(t *testing.T) {
	for _, c := range []struct {
		name  string
		model any
		error string
	}{
		{"fitted for a model", map[string]any{"model": "qwen3:32b", "weights": map[string]float64{ModelRulesLogP: 1, ModelVotes: 2, ModelVotePrefix + "liberal": -0.3}}, ""},
		{"no model named", map[string]any{"weights": map[string]float64{ModelVotes: 1}}, `name no "model"`},
		{"no weights", map[string]any{"model": "m"}, `no "weights"`},
		{"unknown feature", map[string]any{"model": "m", "weights": map[string]float64{"mood": 1}}, `unknown feature "mood"`},
		{"analyst without a role", map[string]any{"model": "m", "weights": map[string]float64{ModelVotePrefix: 1}}, `unknown feature "vote:"`},
		{"unknown field", map[string]any{"model": "m", "weights": map[string]float64{ModelVotes: 1}, "extra": 1}, "not a weights file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var m map[string]any
			require.NoError(t, json.Unmarshal(defaultWeights, &m))
			m["model"] = c.model
			data, err := json.Marshal(m)
			require.NoError(t, err)
			w, err := ParseWeights(data)
			if c.error != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.error)
				return
			}
			require.NoError(t, err)
			require.NotNil(t, w.Model)
			assert.Equal(t, "qwen3:32b", w.Model.Model)
			assert.Equal(t, -0.3, w.Model.Weights["vote:liberal"])
		})
	}
	assert.Nil(t, DefaultWeights().Model, "the embedded weights weigh no model: its defaults are localllm's")
}
