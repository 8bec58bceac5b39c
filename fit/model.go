package fit

import (
	"context"
	"slices"

	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/localllm"
	"github.com/offattr/offattr/rules"
)

// ModelCase is one labelled run as a local model saw it: the rules' answer
// it was given and what it said (Review, whose signals the model weights
// weigh). Review is nil when the model took no part in the run.
type ModelCase struct {
	Rules  rules.Attribution
	Review *rules.ModelReview
	// Target is the labelled step.
	Target int
}

// DefaultModelLambda is the L2 pull of the model weights toward the
// defaults: few features, and a few dozen runs, so the pull matters.
const DefaultModelLambda = 3.0

// CollectModel asks judge about every example, given the rules' answer to
// each (rulesAtts, in order); before, when set, is called before each, so
// that a stand-in judge can be told the label. A run the model fails on
// keeps the rules' answer; only a cancelled ctx is an error.
func CollectModel(ctx context.Context, exs []Example, rulesAtts []rules.Attribution, judge engine.Judge, before func(*Example)) ([]ModelCase, error) {
	out := make([]ModelCase, len(exs))
	for i := range exs {
		if before != nil {
			before(&exs[i])
		}
		got, err := judge.Review(ctx, exs[i].In, rulesAtts[i])
		if err != nil {
			return nil, err
		}
		out[i] = ModelCase{Rules: rulesAtts[i], Review: got.Model, Target: exs[i].Label.Step}
	}
	return out, nil
}

// ModelFeatureNames are the names the model weights of cases are fitted
// over: rules.ModelFeatureNames, then each analyst's features, analysts in
// the order they first appear.
func ModelFeatureNames(cases []ModelCase) []string {
	names := slices.Clone(rules.ModelFeatureNames)
	for _, c := range cases {
		if c.Review == nil {
			continue
		}
		for _, a := range c.Review.Analysts {
			if v := rules.ModelVotePrefix + a; !slices.Contains(names, v) {
				names = append(names, v, rules.ModelCriteriaPrefix+a)
			}
		}
	}
	return names
}

// FitModel fits the model weights on cases: a conditional logit over each
// run's candidate steps (localllm.Rows) whose target is the labelled one,
// pulled toward prior (nil: localllm.DefaultModelWeights) with strength
// lambda (0: DefaultModelLambda). Runs in which no analyst was counted,
// or whose label is no candidate, say nothing of the weights and are left
// out; used is how many were fitted on. With none (a model that never
// answered usably) the weights are the prior.
func FitModel(ctx context.Context, cases []ModelCase, model string, prior map[string]float64, lambda float64) (w *rules.ModelWeights, used int, err error) {
	if prior == nil {
		prior = localllm.DefaultModelWeights()
	}
	if lambda <= 0 {
		lambda = DefaultModelLambda
	}
	names := ModelFeatureNames(cases)
	var groups []group
	for _, c := range cases {
		if c.Review == nil || len(c.Review.Analysts) == 0 {
			continue
		}
		m := localllm.Rows(c.Rules, c.Review)
		target := slices.IndexFunc(m.Candidates, func(k rules.Candidate) bool { return k.Step == c.Target })
		if target < 0 {
			continue
		}
		g := group{target: target}
		for _, x := range m.X {
			row := make([]float64, len(names))
			for k, n := range m.Names {
				row[slices.Index(names, n)] = x[k]
			}
			g.rows = append(g.rows, rules.StepRow{X: row})
		}
		groups = append(groups, g)
	}
	p := make([]float64, len(names))
	for i, n := range names {
		p[i] = prior[n]
	}
	beta := p
	if len(groups) > 0 {
		if beta, err = conditionalLogit(ctx, groups, p, lambda); err != nil {
			return nil, 0, err
		}
	}
	w = &rules.ModelWeights{Model: model, Weights: map[string]float64{}}
	for i, n := range names {
		w.Weights[n] = round3(beta[i])
	}
	return w, len(groups), nil
}

// PredictModel is the answer weights w (nil: the defaults) give a case.
func PredictModel(w map[string]float64, c ModelCase) rules.Attribution {
	if c.Review == nil {
		return c.Rules
	}
	review := *c.Review
	return localllm.Weigh(c.Rules, &review, w)
}

// CrossValidateModel fits the model weights on all folds but one and
// predicts the held-out one, for every fold.
func CrossValidateModel(ctx context.Context, cases []ModelCase, folds [][]int, model string, prior map[string]float64, lambda float64) ([]rules.Attribution, error) {
	out := make([]rules.Attribution, len(cases))
	for _, test := range folds {
		var train []ModelCase
		for i, c := range cases {
			if !slices.Contains(test, i) {
				train = append(train, c)
			}
		}
		w, _, err := FitModel(ctx, train, model, prior, lambda)
		if err != nil {
			return nil, err
		}
		for _, i := range test {
			out[i] = PredictModel(w.Weights, cases[i])
		}
	}
	return out, nil
}
