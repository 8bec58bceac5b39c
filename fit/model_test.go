package fit

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/localllm"
	"github.com/offattr/offattr/rules"
)

// syntheticCases are runs of four candidates whose rules favour step 0; the
// label is step 0 in every third run, else step 2. A model whose analysts
// all vote for named, when named(label) says which.
func syntheticCases(named func(label int) int) []ModelCase {
	var out []ModelCase
	for i := range 30 {
		label := 2
		if i%3 == 0 {
			label = 0
		}
		att := rules.Attribution{Step: 0, Agent: "A", Candidates: []rules.Candidate{{Step: 0, Agent: "A", Score: 0.4}, {Step: 1, Agent: "B", Score: 0.3}, {Step: 2, Agent: "C", Score: 0.2}, {Step: 3, Agent: "D", Score: 0.1}}}
		voted := named(label)
		sig := rules.ModelSignal{Step: voted, Agent: "X", Judged: true, Votes: map[string]float64{"a": 0.8, "b": 0.8}, Criteria: map[string]float64{"a": 0.8, "b": 0.8}}
		out = append(out, ModelCase{Rules: att, Target: label, Review: &rules.ModelReview{Analysts: []string{"a", "b"}, Signals: []rules.ModelSignal{sig}}})
	}
	return out
}

func TestFitModelLearnsHowGoodTheModelIs(t *testing.T) {
	ctx := context.Background()
	right, used, err := FitModel(ctx, syntheticCases(func(label int) int { return label }), "good", nil, 0)
	require.NoError(t, err)
	assert.Equal(t, 30, used)
	wrong, _, err := FitModel(ctx, syntheticCases(func(label int) int { return 3 - label }), "bad", nil, 0)
	require.NoError(t, err)
	d := localllm.DefaultModelWeights()
	assert.Greater(t, right.Weights[rules.ModelVotes], d[rules.ModelVotes], "a model that is always right counts more")
	assert.Less(t, wrong.Weights[rules.ModelVotes], d[rules.ModelVotes], "one that is always wrong, less")
	assert.Equal(t, "good", right.Model)
	assert.Contains(t, right.Weights, "vote:a")

	cases := syntheticCases(func(label int) int { return label })
	hits := 0
	for _, c := range cases {
		if PredictModel(right.Weights, c).Step == c.Target {
			hits++
		}
	}
	assert.Equal(t, len(cases), hits, "the fitted weights follow a model that is always right")
	cv, err := CrossValidateModel(ctx, syntheticCases(func(label int) int { return 3 - label }), [][]int{{0, 1, 2, 3, 4}, {5, 6, 7, 8, 9}}, "bad", nil, 0)
	require.NoError(t, err)
	assert.Len(t, cv, 30)
}
