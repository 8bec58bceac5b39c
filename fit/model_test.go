package fit

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/localllm"
	"github.com/offattr/offattr/rules"
)

// syntheticCases are n runs of four candidates whose rules favour step 0;
// the label is step 0 in every third run, else step 2. A model whose
// analysts all vote for named, when named(run, label) says which.
func syntheticCases(n int, named func(run, label int) int) []ModelCase {
	var out []ModelCase
	for i := range n {
		label := 2
		if i%3 == 0 {
			label = 0
		}
		att := rules.Attribution{Step: 0, Agent: "A", Candidates: []rules.Candidate{{Step: 0, Agent: "A", Score: 0.4}, {Step: 1, Agent: "B", Score: 0.3}, {Step: 2, Agent: "C", Score: 0.2}, {Step: 3, Agent: "D", Score: 0.1}}}
		voted := named(i, label)
		sig := rules.ModelSignal{Step: voted, Agent: "X", Judged: true, Votes: map[string]float64{"a": 0.8, "b": 0.8}, Criteria: map[string]float64{"a": 0.8, "b": 0.8}}
		out = append(out, ModelCase{Name: fmt.Sprintf("run%d.json", i), Corpus: "synthetic", Rules: att, Target: label, Review: &rules.ModelReview{Analysts: []string{"a", "b"}, Signals: []rules.ModelSignal{sig}}})
	}
	return out
}

func hits(cases []ModelCase, w map[string]float64) int {
	n := 0
	for _, c := range cases {
		if PredictModel(w, c).Step == c.Target {
			n++
		}
	}
	return n
}

func TestFitModelLearnsHowGoodTheModelIs(t *testing.T) {
	ctx := context.Background()
	right, err := FitModel(ctx, syntheticCases(30, func(_, label int) int { return label }), "good", nil, 3)
	require.NoError(t, err)
	assert.Equal(t, 30, right.Used)
	wrong, err := FitModel(ctx, syntheticCases(30, func(_, label int) int { return 3 - label }), "bad", nil, 3)
	require.NoError(t, err)
	d := localllm.DefaultModelWeights()
	assert.Greater(t, right.Weights.Weights[rules.ModelVotes], d[rules.ModelVotes], "a model that is always right counts more")
	assert.Less(t, wrong.Weights.Weights[rules.ModelVotes], d[rules.ModelVotes], "one that is always wrong, less")
	assert.Equal(t, "good", right.Weights.Model)
	assert.Contains(t, right.Weights.Weights, "vote:a")

	cases := syntheticCases(30, func(_, label int) int { return label })
	assert.Equal(t, len(cases), hits(cases, right.Weights.Weights), "the fitted weights follow a model that is always right")
	cv, err := CrossValidateModel(ctx, syntheticCases(30, func(_, label int) int { return 3 - label }), [][]int{{0, 1, 2, 3, 4}, {5, 6, 7, 8, 9}}, "bad", nil, 0)
	require.NoError(t, err)
	assert.Len(t, cv, 30)
}

// TestFitModelChooses: with the pull left to it, the fit follows a model
// that is right, and gives no say to one that is no better than the
// rules on runs held out of the fit.
func TestFitModelChooses(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name       string
		named      func(run, label int) int
		wantSilent bool
	}{
		{"a model always right decides", func(_, label int) int { return label }, false},
		{"a model that names the rules' step or a wrong one has no say", func(run, label int) int {
			if run%2 == 0 {
				return 0
			}
			return 1
		}, true},
		{"a model right only where the rules are has no say", func(_, label int) int {
			if label == 0 {
				return 0
			}
			return 3
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			cases := syntheticCases(60, c.named)
			got, err := FitModel(ctx, cases, "m", nil, 0)
			require.NoError(t, err)
			assert.Equal(t, c.wantSilent, got.Silent)
			assert.Equal(t, 60, got.Runs)
			assert.Equal(t, 20, got.RulesRight, "the rules are right where the label is step 0")
			if c.wantSilent {
				assert.True(t, localllm.Silent(got.Weights.Weights))
				assert.Equal(t, 20, hits(cases, got.Weights.Weights), "the rules' answers stand")
				return
			}
			assert.False(t, localllm.Silent(got.Weights.Weights))
			assert.Greater(t, got.Right, got.RulesRight)
			assert.Equal(t, 60, hits(cases, got.Weights.Weights))
		})
	}
}

// TestFitModelMustGainOnEverySystem: a model that gains clearly on one
// corpus and not at all on another is given no say, though it gains
// clearly pooled.
func TestFitModelMustGainOnEverySystem(t *testing.T) {
	ctx := context.Background()
	good := syntheticCases(60, func(_, label int) int { return label })
	idle := syntheticCases(60, func(_, label int) int {
		if label == 0 {
			return 0
		}
		return 3
	})
	for i := range idle {
		idle[i].Corpus = "other"
	}
	cases := append(good, idle...)
	right := make([]bool, len(cases))
	rulesRight := make([]bool, len(cases))
	for i, c := range cases {
		right[i] = c.Target == 0 || c.Corpus == "synthetic"
		rulesRight[i] = c.Target == 0
	}
	require.True(t, clearlyBetter(right, rulesRight), "pooled, the model gains clearly")
	got, err := FitModel(ctx, cases, "m", nil, 0)
	require.NoError(t, err)
	assert.True(t, got.Silent)
	assert.Equal(t, 40, hits(cases, got.Weights.Weights), "the rules' answers stand")

	alone, err := FitModel(ctx, good, "m", nil, 0)
	require.NoError(t, err)
	assert.False(t, alone.Silent, "on the corpus where it gains, it decides")
}

func TestFitModelWithoutAnswersIsSilent(t *testing.T) {
	cases := syntheticCases(10, func(_, label int) int { return label })
	for i := range cases {
		cases[i].Review = nil
	}
	got, err := FitModel(context.Background(), cases, "m", nil, 0)
	require.NoError(t, err)
	assert.Zero(t, got.Used)
	assert.True(t, got.Silent)
}

func TestFitModelStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := FitModel(ctx, syntheticCases(30, func(_, label int) int { return label }), "m", nil, 0)
	assert.ErrorIs(t, err, context.Canceled)
}

// TestFitModelFallsBackToThePrior: where the fitted weights do not clearly
// beat the rules on every corpus but the prior did better than the rules
// and no worse on any corpus, the prior stands rather than no say: a good
// model shown on a corpus where it changes nothing keeps the lift the
// defaults give it on the other.
func TestFitModelFallsBackToThePrior(t *testing.T) {
	ctx := context.Background()
	read := func(cases []ModelCase, corpus string) []ModelCase {
		for i := range cases {
			cases[i].Corpus = corpus
			s := &cases[i].Review.Signals[0]
			s.Reader, s.ReaderChoices = true, 20
		}
		return cases
	}
	good := read(syntheticCases(60, func(_, label int) int { return label }), "good")
	idle := read(syntheticCases(60, func(int, int) int { return 0 }), "idle")
	prior := localllm.DefaultModelWeights()
	require.Greater(t, hits(good, prior), 20, "the defaults follow the model where it reads a step")
	require.Equal(t, 20, hits(idle, prior), "and change nothing where it names the rules' step")

	got, err := FitModel(ctx, append(good, idle...), "m", nil, 0)
	require.NoError(t, err)
	assert.False(t, got.Silent)
	assert.True(t, math.IsInf(got.Lambda, 1), "the prior stands")
	assert.Equal(t, hits(good, prior)+20, hits(append(good, idle...), got.Weights.Weights))
}
