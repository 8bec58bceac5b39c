package fit

import (
	"context"
	"math"
	"slices"

	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/localllm"
	"github.com/offattr/offattr/rules"
)

// ModelCase is one labelled run as a local model saw it: the rules' answer
// it was given and what it said (Review, whose signals the model weights
// weigh). Review is nil when the model took no part in the run.
type ModelCase struct {
	// Name and Corpus are the run's (Example's): folds deal on them.
	Name, Corpus string
	Rules        rules.Attribution
	Review       *rules.ModelReview
	// Target is the labelled step.
	Target int
}

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
		out[i] = ModelCase{Name: exs[i].Name, Corpus: exs[i].Corpus, Rules: rulesAtts[i], Review: got.Model, Target: exs[i].Label.Step}
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

// How FitModel chooses. The model weights are a conditional logit pulled
// toward the prior (the defaults); how hard is chosen on runs held out of
// the fit, among ModelLambdas and the prior itself. The choice is then
// held against the rules alone on the same held-out runs: unless, in
// every corpus, it answers more of them right by a paired difference
// significant at 5% (one-sided), the model is given no say
// (localllm.Silent), so that a model no better than the rules, a fit too
// noisy to tell, or one that gains on some systems and not on another,
// leaves the rules' answers as they were.

// ModelLambdas are the pulls toward the prior FitModel chooses among.
var ModelLambdas = []float64{0.3, 1, 3, 10, 30}

// modelInnerFolds is how many folds the choice is made on.
const modelInnerFolds = 5

// ModelFit is fitted model weights and how they were chosen.
type ModelFit struct {
	Weights *rules.ModelWeights
	// Used is how many runs the weights were fitted on: those in which an
	// analyst was counted and the labelled step was a candidate.
	Used int
	// Lambda is the pull toward the prior that was chosen, +Inf for the
	// prior itself; 0 when Silent.
	Lambda float64
	// Silent is set when the model was given no say.
	Silent bool
	// Right and RulesRight count the held-out runs the choice and the
	// rules alone answered right, of Runs (0 when the pull was given).
	Right, RulesRight, Runs int
}

// FitModel fits the model weights on cases: a conditional logit over each
// run's candidate steps (localllm.Rows) whose target is the labelled one,
// pulled toward prior (nil: localllm.DefaultModelWeights) with strength
// lambda; lambda 0 chooses it, or no say for the model, on held-out runs
// (see ModelLambdas). The fitted weights stand only where, on held-out
// runs, they clearly beat the rules on every corpus; else the prior
// stands if it did better than the rules and no worse on any corpus;
// else the model is given no say. Runs in which no analyst was counted, or whose
// label is no candidate, say nothing of the weights and are left out of
// the logit. A model that never answered usably is given no say.
func FitModel(ctx context.Context, cases []ModelCase, model string, prior map[string]float64, lambda float64) (ModelFit, error) {
	if prior == nil {
		prior = localllm.DefaultModelWeights()
	}
	if lambda > 0 {
		w, used, err := fitModelAt(ctx, cases, model, prior, lambda)
		return ModelFit{Weights: w, Used: used, Lambda: lambda}, err
	}
	folds := KFolds(modelExamples(cases), modelInnerFolds)
	rulesRight := make([]bool, len(cases))
	for i, c := range cases {
		rulesRight[i] = c.Rules.Step == c.Target
	}
	// The prior first, then ever weaker pulls: a tie keeps the stronger.
	best, bestRight, bestLambda := []bool(nil), -1, 0.0
	var priorRight []bool
	for _, lambda := range append([]float64{math.Inf(1)}, reversed(ModelLambdas)...) {
		held, err := predictHeldOut(ctx, cases, folds, model, prior, lambda)
		if err != nil {
			return ModelFit{}, err
		}
		right := make([]bool, len(cases))
		for i, a := range held {
			right[i] = a.Step == cases[i].Target
		}
		if math.IsInf(lambda, 1) {
			priorRight = right
		}
		if n := count(right); n > bestRight {
			best, bestRight, bestLambda = right, n, lambda
		}
	}
	// A fit that does not clearly beat the rules on every corpus falls
	// back to the prior (the weights the model would have without this
	// fit) where the prior did better than the rules and no worse on any
	// corpus: a few runs of a good model's cannot show it clearly better,
	// and the prior already lets it lift the answer. Else the model is
	// given no say.
	corpora := corporaOf(cases)
	silent := false
	switch {
	case clearlyBetterEverywhere(corpora, best, rulesRight):
	case count(priorRight) > count(rulesRight) && !worseSomewhere(corpora, priorRight, rulesRight):
		best, bestRight, bestLambda = priorRight, count(priorRight), math.Inf(1)
	default:
		silent = true
	}
	out := ModelFit{Lambda: bestLambda, Right: bestRight, RulesRight: count(rulesRight), Runs: len(cases)}
	var err error
	if out.Weights, out.Used, err = fitModelAt(ctx, cases, model, prior, bestLambda); err != nil {
		return ModelFit{}, err
	}
	if silent || out.Used == 0 {
		out.Silent, out.Lambda = true, 0
		localllm.Silence(out.Weights.Weights)
	}
	return out, nil
}

// significance is the one-sided z the paired gain over the rules must
// pass: a 5% chance that a model no better than the rules passes it.
const significance = 1.645

// clearlyBetter reports whether a answers more runs right than b by more
// than significance standard errors of the mean paired difference.
func clearlyBetter(a, b []bool) bool { return betterBy(a, b, significance) }

// betterBy reports whether a answers more runs right than b by more than z
// standard errors of the mean paired difference.
func betterBy(a, b []bool, z float64) bool {
	n := float64(len(a))
	if n == 0 {
		return false
	}
	var sum, sq float64
	for i := range a {
		d := 0.0
		if a[i] {
			d++
		}
		if b[i] {
			d--
		}
		sum += d
		sq += d * d
	}
	mean := sum / n
	se := math.Sqrt(max(sq/n-mean*mean, 0) / n)
	return mean > z*se
}

// clearlyBetterEverywhere reports whether a is clearlyBetter than b in
// every corpus (corpora[i] is run i's): a gain that holds pooled but not
// on each system is not to be counted on for the next.
func clearlyBetterEverywhere(corpora []string, a, b []bool) bool {
	if len(a) == 0 {
		return false
	}
	by := map[string][]int{}
	for i, c := range corpora {
		by[c] = append(by[c], i)
	}
	for _, idx := range by {
		var ac, bc []bool
		for _, i := range idx {
			ac, bc = append(ac, a[i]), append(bc, b[i])
		}
		if !clearlyBetter(ac, bc) {
			return false
		}
	}
	return true
}

// corporaOf lists each case's corpus.
func corporaOf(cases []ModelCase) []string {
	out := make([]string, len(cases))
	for i, c := range cases {
		out[i] = c.Corpus
	}
	return out
}

// worseSomewhere reports whether, in some corpus (corpora[i] is run i's), a answers
// fewer runs right than b: a gain that holds pooled but not on one
// system is not to be counted on for the next.
func worseSomewhere(corpora []string, a, b []bool) bool {
	diff := map[string]int{}
	for i, c := range corpora {
		if a[i] {
			diff[c]++
		}
		if b[i] {
			diff[c]--
		}
	}
	for _, d := range diff {
		if d < 0 {
			return true
		}
	}
	return false
}

func count(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

func reversed(xs []float64) []float64 {
	out := slices.Clone(xs)
	slices.Reverse(out)
	return out
}

// modelExamples are the cases as examples, as far as dealing them into
// folds needs (name and corpus).
func modelExamples(cases []ModelCase) []Example {
	out := make([]Example, len(cases))
	for i, c := range cases {
		out[i] = Example{Name: c.Name, Corpus: c.Corpus}
	}
	return out
}

// predictHeldOut predicts every case by weights fitted at lambda (+Inf:
// the prior itself) without its fold.
func predictHeldOut(ctx context.Context, cases []ModelCase, folds [][]int, model string, prior map[string]float64, lambda float64) ([]rules.Attribution, error) {
	if !math.IsInf(lambda, 1) {
		return CrossValidateModel(ctx, cases, folds, model, prior, lambda)
	}
	out := make([]rules.Attribution, len(cases))
	for i, c := range cases {
		out[i] = PredictModel(prior, c)
	}
	return out, nil
}

// fitModelAt fits the conditional logit at one pull toward prior (+Inf:
// the prior itself); used is how many runs it was fitted on.
func fitModelAt(ctx context.Context, cases []ModelCase, model string, prior map[string]float64, lambda float64) (w *rules.ModelWeights, used int, err error) {
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
	if len(groups) > 0 && !math.IsInf(lambda, 1) {
		if beta, err = conditionalLogit(ctx, groups, p, evenPull(lambda, len(p)), nil); err != nil {
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

// CrossValidateModel fits the model weights on all folds but one (as
// FitModel does with lambda, 0 choosing within those folds) and predicts
// the held-out one, for every fold.
func CrossValidateModel(ctx context.Context, cases []ModelCase, folds [][]int, model string, prior map[string]float64, lambda float64) ([]rules.Attribution, error) {
	out := make([]rules.Attribution, len(cases))
	for _, test := range folds {
		var train []ModelCase
		for i, c := range cases {
			if !slices.Contains(test, i) {
				train = append(train, c)
			}
		}
		f, err := FitModel(ctx, train, model, prior, lambda)
		if err != nil {
			return nil, err
		}
		for _, i := range test {
			out[i] = PredictModel(f.Weights.Weights, cases[i])
		}
	}
	return out, nil
}
