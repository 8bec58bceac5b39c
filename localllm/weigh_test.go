package localllm

import (
	"bytes"
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/rules"
)

func weighRules() rules.Attribution {
	return rules.Attribution{Step: 3, Agent: "A", Confidence: 0.4, Candidates: []rules.Candidate{
		{Step: 3, Agent: "A", Score: 0.4}, {Step: 5, Agent: "B", Score: 0.3}, {Step: 8, Agent: "C", Score: 0.2}, {Step: 9, Agent: "C", Score: 0.1},
	}}
}

func review(reader []int, votes map[string]int) *rules.ModelReview {
	r := &rules.ModelReview{}
	by := map[int]*rules.ModelSignal{}
	get := func(step int) *rules.ModelSignal {
		if by[step] == nil {
			by[step] = &rules.ModelSignal{Step: step, Agent: "X", Judged: true, Votes: map[string]float64{}, Criteria: map[string]float64{}}
		}
		return by[step]
	}
	for _, s := range reader {
		get(s).Reader = true
		get(s).ReaderChoices = 10
	}
	for _, role := range []string{"conservative", "liberal", "detail-focused"} {
		if step, ok := votes[role]; ok {
			r.Analysts = append(r.Analysts, role)
			get(step).Votes[role] = 0.8
		}
	}
	for s := range by {
		r.Signals = append(r.Signals, *by[s])
	}
	return r
}

func TestWeigh(t *testing.T) {
	for _, c := range []struct {
		name      string
		review    *rules.ModelReview
		w         map[string]float64
		wantStep  int
		wantAgent string
		wantPick  *rules.Pick
		untouched bool // the rules' attribution is returned as it was
	}{
		{"no analyst: the rules' answer stands", review([]int{8}, nil), nil, 3, "A", nil, true},
		{"one vote for another step only tips nothing", review(nil, map[string]int{"conservative": 8, "liberal": 3, "detail-focused": 9}), nil, 3, "A", &rules.Pick{Step: 3, Agent: "X"}, false},
		{"a unanimous panel seconded by a reader moves the answer", judging(review([]int{8}, map[string]int{"conservative": 8, "liberal": 8, "detail-focused": 8}), 3, 5, 9), nil, 8, "C", &rules.Pick{Step: 8, Agent: "X"}, false},
		{"a panel agreeing with the rules keeps their agent", review([]int{3}, map[string]int{"conservative": 3, "liberal": 3}), nil, 3, "A", &rules.Pick{Step: 3, Agent: "X"}, false},
		{"fitted weights that distrust the model keep the rules", review([]int{8}, map[string]int{"conservative": 8, "liberal": 8, "detail-focused": 8}),
			map[string]float64{rules.ModelRulesLogP: 1, rules.ModelVotes: -1}, 3, "A", &rules.Pick{Step: 8, Agent: "X"}, false},
		{"weights that give the model no say leave the rules' answer and confidence", review([]int{8}, map[string]int{"conservative": 8, "liberal": 8, "detail-focused": 8}),
			map[string]float64{rules.ModelRulesLogP: 1, rules.ModelRulesPick: 2, rules.ModelVotes: 0, rules.ModelAgree: 0}, 3, "A", &rules.Pick{Step: 8, Agent: "X"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Weigh(weighRules(), c.review, c.w)
			assert.Equal(t, c.wantStep, got.Step)
			assert.Equal(t, c.wantAgent, got.Agent)
			assert.Equal(t, c.wantPick, got.Model.ModelPick)
			assert.Equal(t, &rules.Pick{Step: 3, Agent: "A"}, got.Model.RulesPick)
			if c.untouched {
				assert.Equal(t, weighRules(), func() rules.Attribution { got.Model = nil; return got }(), "untouched")
				return
			}
			assert.Equal(t, got.Step, got.Candidates[0].Step)
			sum := 0.0
			for _, k := range got.Candidates {
				sum += k.Score
			}
			assert.InDelta(t, 1, sum, 0.003)
		})
	}
}

func TestRowsNameEveryAnalyst(t *testing.T) {
	m := Rows(weighRules(), review([]int{5}, map[string]int{"conservative": 5, "liberal": 3}))
	assert.Equal(t, append(append([]string{}, rules.ModelFeatureNames...), "vote:conservative", "criteria:conservative", "vote:liberal", "criteria:liberal"), m.Names)
	require.Len(t, m.X, 4)
	x := m.X[1] // step 5
	at := func(name string) float64 {
		for i, n := range m.Names {
			if n == name {
				return x[i]
			}
		}
		t.Fatalf("no feature %s", name)
		return 0
	}
	assert.Equal(t, 1.0, at(rules.ModelReader))
	assert.Equal(t, 0.5, at(rules.ModelVotes))
	assert.Equal(t, 0.0, at(rules.ModelMajority))
	assert.Equal(t, 1.0, at(rules.ModelSeconded))
	assert.Equal(t, 1.0, at("vote:conservative"))
	assert.Equal(t, 0.0, at("vote:liberal"))
	assert.InDelta(t, math.Log(9*SafeJudge/(1-SafeJudge)), at(rules.ModelReaderEvidence), 1e-12, "a reader that chose among ten steps")
	assert.Equal(t, 0.0, at(rules.ModelVoteEvidence), "a vote among two finalists is no better than a guess")
	assert.Equal(t, 0.0, at(rules.ModelConsensus), "one analyst voted for another step")
}

func TestEvidence(t *testing.T) {
	odds := SafeJudge / (1 - SafeJudge)
	for _, c := range []struct {
		n    int
		want float64
	}{
		{0, 0}, {1, 0}, {2, 0},
		{3, 0}, // 2·odds < 1: worse than a guess, so no evidence
		{4, math.Log(3 * odds)},
		{10, math.Log(9 * odds)},
	} {
		assert.InDelta(t, c.want, evidence(c.n), 1e-12, "n=%d", c.n)
	}
}

// judging adds steps the panel judged and nobody named to r.
func judging(r *rules.ModelReview, steps ...int) *rules.ModelReview {
	for _, step := range steps {
		if !hasSignal(r, step) {
			r.Signals = append(r.Signals, rules.ModelSignal{Step: step, Agent: "X", Judged: true})
		}
	}
	return r
}

// TestWeighConsensus: a reader and every analyst agreeing on a step the
// rules rank low moves the answer; the same step named by the reader and
// the analysts split leaves the rules' answer.
func TestWeighConsensus(t *testing.T) {
	all := judging(review([]int{9}, map[string]int{"conservative": 9, "liberal": 9, "detail-focused": 9}), 3, 5, 8)
	split := judging(review([]int{9}, map[string]int{"conservative": 9, "liberal": 3, "detail-focused": 5}), 3, 5, 8)
	assert.Equal(t, 9, Weigh(weighRules(), all, nil).Step)
	assert.Equal(t, 3, Weigh(weighRules(), split, nil).Step)
}

// TestFittedWeightsOfAnotherModelWarn: weights fitted with one model are
// not applied to another; the user is told.
func TestFittedWeightsOfAnotherModelWarn(t *testing.T) {
	srv := newServer(t, qwen(32768))
	for _, c := range []struct {
		model, want string
	}{{"llama3:70b", "fitted with llama3:70b, not qwen3:8b"}, {testModel, ""}} {
		var warn bytes.Buffer
		j, err := New(context.Background(), Options{Model: testModel, Host: srv.URL, NoCache: true, Warn: &warn,
			ModelWeights: &rules.ModelWeights{Model: c.model, Weights: map[string]float64{rules.ModelVotes: 1}}})
		require.NoError(t, err)
		if c.want == "" {
			assert.Empty(t, warn.String())
			assert.Equal(t, "fitted for "+testModel, j.weighing.label())
			continue
		}
		assert.Contains(t, warn.String(), c.want)
		assert.Equal(t, "default", j.weighing.label())
	}
}
