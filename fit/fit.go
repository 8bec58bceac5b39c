// Package fit learns how the rules' findings combine, from labelled runs of
// any supported format: the weights of a conditional logit over each run's
// steps (see rules.Weights), the share that makes a step critical, the
// confidence's calibration and the triage bands, the last three chosen on
// predictions for corpora held out of the fit, so that they hold on a
// system the weights have not seen. It also measures weights honestly:
// leave-one-corpus-out (the figure that decides a change), k-fold and
// leave-one-run-out, beside each corpus's label-free floors (Report).
package fit

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/eval"
	"github.com/offattr/offattr/internal/escape"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/triage"
)

// Example is one labelled run, read once: the analyzers' findings and the
// step rows the combiner weighs.
type Example struct {
	Name   string
	Corpus string
	In     *rules.Input
	Rows   []rules.StepRow
	Label  run.Label
	// Target is the row of the labelled step, -1 when the label names a
	// step that cannot be blamed (the task, a system prompt, no such step).
	Target int
	// Fingerprint is the run's (run.Run.Fingerprint): the fitted weights
	// list those of their runs.
	Fingerprint string
	// Blind is the same run read without its ground truth, nil when it
	// has none: the triage of runs without one is chosen on it, and fit
	// reports how the weights do on it.
	Blind    *Example
	findings []rules.Finding
}

// Load reads every case of the subsets (each subset is a corpus; each
// labelled trace of a telemetry file is a case) and runs the analyzers over
// each: twice over one with a ground truth, read with and without it
// (Example.Blind). A case that does not load or has no label is reported on
// warn and left out.
func Load(ctx context.Context, subsets []eval.Subset, opts run.Options, as []*rules.Analyzer, warn io.Writer) ([]Example, error) {
	exs, _, err := LoadCounted(ctx, subsets, opts, as, warn)
	return exs, err
}

// LoadStats counts the files and cases Load left out: Failed those that did
// not load, did not analyse or whose label names a step outside the run,
// and what a subset holds unread (eval.Subset.Unread);
// Unlabelled the files with no label at all.
type LoadStats struct{ Failed, Unlabelled int }

// LoadCounted is Load, also saying how many it left out and why.
func LoadCounted(ctx context.Context, subsets []eval.Subset, opts run.Options, as []*rules.Analyzer, warn io.Writer) ([]Example, LoadStats, error) {
	var out []Example
	var stats LoadStats
	for _, sub := range subsets {
		for _, file := range sub.Files {
			if err := ctx.Err(); err != nil {
				return nil, stats, err
			}
			if eval.LabelsGiven(file, opts) {
				continue
			}
			cases, err := eval.LabelledCases(ctx, file, opts, warn)
			if err != nil {
				if ctx.Err() != nil {
					return nil, stats, ctx.Err()
				}
				fmt.Fprintf(warn, "offattr: %s (left out)\n", escape.Line(err.Error()))
				switch {
				case eval.Unlabelled(err):
					stats.Unlabelled++
				case !eval.LeftOut(err):
					stats.Failed++
				}
				continue
			}
			for _, c := range cases {
				fingerprint := c.Run.Fingerprint()
				ex, err := example(ctx, c.Run, *c.Label, sub.Name, fingerprint, as)
				if err == nil && c.Run.GroundTruth != "" {
					blind := *c.Run
					blind.GroundTruth = ""
					ex.Blind, err = example(ctx, &blind, *c.Label, sub.Name, fingerprint, as)
				}
				if err != nil {
					if ctx.Err() != nil {
						return nil, stats, ctx.Err()
					}
					fmt.Fprintf(warn, "offattr: %s (left out)\n", escape.Line(fmt.Sprintf("analyze %s: %s", c.Run.Source, err)))
					stats.Failed++
					continue
				}
				out = append(out, *ex)
			}
		}
		for _, u := range sub.Unread {
			fmt.Fprintf(warn, "offattr: %s (left out)\n", escape.Line(u.Err.Error()))
			stats.Failed++
		}
	}
	return out, stats, nil
}

// example runs the analyzers over one labelled run.
func example(ctx context.Context, r *run.Run, label run.Label, corpus, fingerprint string, as []*rules.Analyzer) (*Example, error) {
	in, err := engine.PrepareContext(ctx, r)
	if err != nil {
		return nil, err
	}
	findings := rules.Apply(in, as)
	ex := &Example{Name: r.Source, Corpus: corpus, In: in, Label: label, Rows: rules.StepRows(in, as, findings), Target: -1, Fingerprint: fingerprint, findings: findings}
	for k, row := range ex.Rows {
		if row.Step == label.Step {
			ex.Target = k
		}
	}
	return ex, nil
}

// Options control a fit.
type Options struct {
	Analyzers []*rules.Analyzer
	// Prior is what the weights are pulled toward (EvidencePrior, or the
	// weights in use); nil pulls them to zero.
	// Fitting a few dozen runs of one system from the embedded defaults
	// adapts them without forgetting what the defaults learned.
	Prior *rules.Weights
	// Lambda is the strength of that pull.
	Lambda float64
	// InnerFolds is how many folds the out-of-fold predictions that choose
	// the critical share, the confidence and the triage bands use when the
	// runs are of one corpus (with several, each corpus is held out in turn).
	InnerFolds int

	// frozen marks the step features Fit keeps at the prior's value for
	// these examples (frozenColumns).
	frozen []bool
}

// DefaultLambda is the L2 pull toward the prior, chosen as the other
// design choices are: by the accuracy of each labelled system when the
// weights are fitted on the others (see docs/rules.md).
const DefaultLambda = 4.0

// TwinPull is how many times harder than DefaultLambda's pull the tools
// twins (rules.ToolsPrefix) are pulled toward the prior. A twin says how
// runs whose agents call tools by name differ from the rest; with few
// such systems to learn from, the difference is kept to what they show
// clearly, and what all systems share is learned from all of them.
const TwinPull = 10.0

// EvidenceWeight is what each analyzer's findings weigh under
// EvidencePrior: an analyzer that never fires in the labelled runs keeps
// it, and on a system where it does fire its findings still outweigh the
// structural features' pull.
const EvidenceWeight = 0.5

// EvidencePrior is the prior of a fit that knows nothing but how the
// analyzers are meant: each one's findings are evidence of a fault and
// weigh EvidenceWeight; structural features and the tools twins weigh
// nothing. Pulled toward zero instead, an analyzer that rarely fires in
// the labelled runs (one written for another kind of system) ends near
// zero and counts for nothing on the system it was written for.
func EvidencePrior(as []*rules.Analyzer) *rules.Weights {
	w := &rules.Weights{Version: rules.WeightsVersion, Step: map[string]float64{}}
	for _, a := range as {
		w.Step[rules.RuleFeature(a.Name)] = EvidenceWeight
	}
	return w
}

func (o Options) withDefaults() Options {
	if o.Analyzers == nil {
		o.Analyzers = rules.Registry
	}
	if o.Lambda <= 0 {
		o.Lambda = DefaultLambda
	}
	if o.InnerFolds < 2 {
		o.InnerFolds = 5
	}
	return o
}

// Fit learns weights from the examples.
func Fit(ctx context.Context, exs []Example, opts Options) (*rules.Weights, error) {
	opts = opts.withDefaults()
	names := rules.StepFeatureNames(opts.Analyzers)
	w := &rules.Weights{Version: rules.WeightsVersion, Step: map[string]float64{}}
	opts.frozen = frozenColumns(exs, names)
	beta, err := fitSteps(ctx, exs, names, opts)
	if err != nil {
		return nil, err
	}
	for k, n := range names {
		w.Step[n] = beta[k]
	}
	// The critical share, the confidence and the bands are chosen on
	// predictions for runs the step model did not see: of systems it did
	// not see, when there are several.
	oof, blindOOF, err := outOfFold(ctx, exs, names, opts)
	if err != nil {
		return nil, err
	}
	flagged := slices.Index(names, rules.FeatFlagged)
	w.Critical = bestCritical(exs, oof, flagged, startShare(opts.Prior))
	how := answering{critical: w.Critical, flagged: flagged}
	if w.Guess = bestGuess(exs, oof, how); w.Guess == "" {
		w.AgentRole = bestRole(exs, oof, how)
		if w.AgentRole == "" && len(FoldsByCorpus(exs)) == 1 {
			w.AgentRole = adaptedRole(exs, oof, how)
		}
	}
	how.guess, how.role = w.Guess, w.AgentRole
	// Confidence and bands: on what the finished model says of the same
	// unseen runs.
	calib, spreads, hits, corpora := answers(exs, oof, how, func(ex *Example) *Example { return ex })
	delta, err := logistic(ctx, calib, hits, calibrationLambda)
	if err != nil {
		return nil, err
	}
	w.Confidence = map[string]float64{}
	for k, n := range rules.CalibrationFeatureNames {
		w.Confidence[n] = delta[k]
	}
	confs := make([]float64, len(calib))
	for i, x := range calib {
		confs[i] = sigmoid(dotf(delta, x))
	}
	w.Triage = chooseBands(confs, hits, corpora)
	w.Triage.ClearSpread = chooseSpread(spreads, hits, corpora)
	// Without its ground truth a run's answer can be checked against
	// nothing, and the same confidence is right less often: its bands are
	// chosen on the same unseen runs read without it.
	if blindCalib, blindSpreads, blindHits, blindCorpora := answers(exs, blindOOF, how, func(ex *Example) *Example { return ex.Blind }); len(blindCalib) > 0 {
		blindConfs := make([]float64, len(blindCalib))
		for i, x := range blindCalib {
			blindConfs[i] = sigmoid(dotf(delta, x))
		}
		bands := chooseBands(blindConfs, blindHits, blindCorpora)
		bands.ClearSpread = chooseSpread(blindSpreads, blindHits, blindCorpora)
		w.TriageWithoutGroundTruth = &bands
	}
	for _, ex := range exs {
		w.FittedOn = append(w.FittedOn, ex.Fingerprint)
	}
	slices.Sort(w.FittedOn)
	w.FittedOn = slices.Compact(w.FittedOn)
	return w, nil
}

// answers returns, for each example's reading (read(ex); nil or without
// rows: none) under its out-of-fold probabilities p, the calibration row of
// the answer the engine gives (how), the step model's spread (as the
// attribution rounds it), whether that answer is right, and the example's
// corpus.
func answers(exs []Example, p [][]float64, how answering, read func(*Example) *Example) (calib [][]float64, spreads []float64, hits []bool, corpora []string) {
	for i := range exs {
		ex := read(&exs[i])
		if ex == nil || len(ex.Rows) == 0 {
			continue
		}
		k := answerRow(ex, p[i], how)
		step := ex.Rows[k].Step
		calib = append(calib, rules.CalibrationRow(p[i][k], len(ex.Rows), rules.Agreeing(ex.findings, step)))
		spreads = append(spreads, round3(rules.Spread(p[i])))
		hits = append(hits, step == ex.Label.Step)
		corpora = append(corpora, ex.Corpus)
	}
	return calib, spreads, hits, corpora
}

// calibrationLambda is the L2 pull of the confidence's calibration toward
// zero: light, for four features and a hundred runs.
const calibrationLambda = 1.0

// logistic fits P(yes | x) = sigmoid(beta · x): a conditional logit
// choosing between x (yes) and nothing (no).
func logistic(ctx context.Context, xs [][]float64, yes []bool, lambda float64) ([]float64, error) {
	if len(xs) == 0 {
		return nil, fmt.Errorf("fit: no runs to calibrate the confidence on")
	}
	groups := make([]group, len(xs))
	for i, x := range xs {
		target := 1
		if yes[i] {
			target = 0
		}
		groups[i] = group{rows: []rules.StepRow{{X: x}, {X: make([]float64, len(x))}}, target: target}
	}
	return conditionalLogit(ctx, groups, make([]float64, len(xs[0])), evenPull(lambda, len(xs[0])), nil)
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

func dotf(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// priorVector returns the weights of names under the prior, zero where
// there is none; model picks the prior's map.
func priorVector(prior *rules.Weights, model func(*rules.Weights) map[string]float64, names []string) []float64 {
	v := make([]float64, len(names))
	if prior == nil {
		return v
	}
	p := model(prior)
	for i, n := range names {
		v[i] = p[n]
	}
	return v
}

func fitSteps(ctx context.Context, exs []Example, names []string, opts Options) ([]float64, error) {
	var groups []group
	for _, ex := range exs {
		if ex.Target >= 0 && len(ex.Rows) > 1 {
			groups = append(groups, group{rows: ex.Rows, target: ex.Target})
		}
	}
	prior := priorVector(opts.Prior, func(w *rules.Weights) map[string]float64 { return w.Step }, names)
	return conditionalLogit(ctx, groups, prior, stepPull(names, opts.Lambda), opts.frozen)
}

// stepPull is the pull of each step feature toward the prior: lambda, and
// TwinPull times lambda for the tools twins.
func stepPull(names []string, lambda float64) []float64 {
	pull := evenPull(lambda, len(names))
	for k, n := range names {
		if strings.HasPrefix(n, rules.ToolsPrefix) {
			pull[k] *= TwinPull
		}
	}
	return pull
}

// frozenColumns marks the agent-role features (rules.SystemFeature) when
// the examples come from more than one corpus: they carry where one
// system's labellers look, and fitted on several systems they learn a
// mixture that is right for none, so they keep the prior's values. Fitted
// on one system's runs, they are that system's.
func frozenColumns(exs []Example, names []string) []bool {
	if len(FoldsByCorpus(exs)) < 2 {
		return nil
	}
	frozen := make([]bool, len(names))
	for k, n := range names {
		frozen[k] = rules.SystemFeature(n)
	}
	return frozen
}

// outOfFold returns, for every example, the step model's probabilities
// over its rows when fitted without it, and over the rows of its reading
// without the ground truth (nil where it has none). With examples of two
// or more corpora, each corpus is held out in turn: what is chosen on
// these predictions (the critical share, the confidence, the bands) is
// then chosen for a system the model has not seen, as a user's is. With
// one corpus, its runs are split into folds.
func outOfFold(ctx context.Context, exs []Example, names []string, opts Options) (out, blind [][]float64, err error) {
	out, blind = make([][]float64, len(exs)), make([][]float64, len(exs))
	folds := FoldsByCorpus(exs)
	if len(folds) < 2 {
		folds = foldsByHash(exs, opts.InnerFolds)
	}
	for _, test := range folds {
		beta, err := fitSteps(ctx, without(exs, test), names, opts)
		if err != nil {
			return nil, nil, err
		}
		for _, i := range test {
			out[i] = rules.Softmax(exs[i].Rows, beta)
			if b := exs[i].Blind; b != nil {
				blind[i] = rules.Softmax(b.Rows, beta)
			}
		}
	}
	return out, blind, nil
}

// criticalShares are the shares the fit tries: 1 answers with the most
// probable step; lower shares prefer earlier steps nearly as probable.
var criticalShares = []float64{1, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3}

// DefaultCritical is the critical share a fit keeps unless another is
// clearly better (bestCritical) when its prior has no share of its own
// (EvidencePrior, or none). Chosen as DefaultLambda is: by the accuracy of
// each labelled system when the weights are fitted on the others. Without
// it, shares a run or two apart on the out-of-fold answers are chosen by
// those runs, and a small change to what extract reads moves the share and
// with it every near-tied answer.
const DefaultCritical = 0.8

// startShare is the critical share a fit from prior keeps unless another
// is clearly better: the prior's own, or DefaultCritical.
func startShare(prior *rules.Weights) float64 {
	if prior != nil && prior.Critical > 0 {
		return prior.Critical
	}
	return DefaultCritical
}

// shareZ is how many standard errors of the paired difference another
// critical share must be ahead of the prior's to replace it.
const shareZ = 1.0

// bestCritical returns the critical share whose answers are right most
// often under the out-of-fold probabilities p. From a prior with a share
// of its own (prior > 0), another share must be ahead of it by more than
// shareZ standard errors of the paired difference: on a few runs of a
// user's own, shares differ by a run or two, and a share chosen by that is
// chosen by chance.
func bestCritical(exs []Example, p [][]float64, flagged int, prior float64) float64 {
	best, bestRight := 1.0, []bool(nil)
	for _, c := range criticalShares {
		if r := rightAnswers(exs, p, answering{critical: c, flagged: flagged}); bestRight == nil || count(r) > count(bestRight) {
			best, bestRight = c, r
		}
	}
	if prior > 0 && best != prior && !betterBy(bestRight, rightAnswers(exs, p, answering{critical: prior, flagged: flagged}), shareZ) {
		return prior
	}
	return best
}

// answering is how the engine picks its answer from the step model's
// probabilities: the weights' critical share, the label-free guess and the
// agent they name first (rules.AnswerOrder), and the column of the
// step:flagged feature.
type answering struct {
	critical    float64
	flagged     int
	guess, role string
}

// rightAnswers reports, for each example, whether the row the engine would
// answer it with (answerRow) is its labelled step; false for one without
// rows.
func rightAnswers(exs []Example, p [][]float64, how answering) []bool {
	out := make([]bool, len(exs))
	for i := range exs {
		ex := &exs[i]
		out[i] = len(ex.Rows) > 0 && ex.Rows[answerRow(ex, p[i], how)].Step == ex.Label.Step
	}
	return out
}

// rightAgents reports, for each example, whether the agent of the row the
// engine would answer it with is its labelled agent, as eval scores it.
func rightAgents(exs []Example, p [][]float64, how answering) []bool {
	out := make([]bool, len(exs))
	for i := range exs {
		ex := &exs[i]
		out[i] = len(ex.Rows) > 0 && run.NamesAgent(ex.Label.Agent, ex.Rows[answerRow(ex, p[i], how)].Agent)
	}
	return out
}

// answerRow is the row the engine answers an example with, given the step
// model's probabilities p of its rows.
func answerRow(ex *Example, p []float64, how answering) int {
	order, _ := rules.AnswerOrder(how.guess, how.role, ex.In, ex.Rows, rules.Rank(ex.Rows, p, how.critical, how.flagged), p, how.flagged)
	return order[0]
}

// bestGuess returns the label-free guess (rules.Guesses) that is to answer
// in place of the step model, or "" for none: the one right most often on
// the out-of-fold runs, if it is surely right more often than the step
// model's answers (surelyBetter: the sign test bestRole holds a role to)
// and no less often on any corpus. On a system whose decisive faults sit
// where a guess that reads nothing finds them, a user's own labelled runs
// then answer no worse than that guess; where the rules do better, or too
// few runs tell them apart, nothing changes.
func bestGuess(exs []Example, p [][]float64, how answering) string {
	corpora := corporaOfExamples(exs)
	rulesRight := rightAnswers(exs, p, how)
	best, bestRight := "", count(rulesRight)
	for _, g := range rules.Guesses {
		guessed := how
		guessed.guess = g
		right := rightAnswers(exs, p, guessed)
		if n := count(right); n > bestRight && surelyBetter(right, rulesRight) && !worseSomewhere(corpora, right, rulesRight) {
			best, bestRight = g, n
		}
	}
	return best
}

// bestRole returns the agent the weights are to name first
// (rules.AgentRoleNames), whose best-ranked step then answers, or "" for
// none. The engine names the agent who answers for its best-ranked step;
// on a system whose labels point among its agents in a way the rules do
// not read (the one who speaks most, or last), another agent's best step
// can name the agent more often. So, on the out-of-fold runs, as
// bestGuess chooses a step: a role is kept only if its answers name the
// agent more often than the rules' on every corpus, by a sign test
// significant at 5% (surelyBetterEverywhere), and their steps are right
// no less often than the rules' on any corpus, so that the agent is named
// better and the step no worse; of such roles, the one naming the agent
// most often, then the step. Fitted on several systems, the out-of-fold
// runs are each of a system held out, so a role is kept only where it
// wins on every system left out.
func bestRole(exs []Example, p [][]float64, how answering) string {
	corpora := corporaOfExamples(exs)
	rulesAgents, rulesSteps := rightAgents(exs, p, how), rightAnswers(exs, p, how)
	best, bestAgents, bestSteps := "", count(rulesAgents), 0
	for _, role := range rules.AgentRoleNames {
		if role == "dominant" {
			continue // adaptedRole's, on one system's runs: its rationale says so
		}
		named := how
		named.role = role
		agents, steps := rightAgents(exs, p, named), rightAnswers(exs, p, named)
		if !surelyBetterEverywhere(corpora, agents, rulesAgents) || worseSomewhere(corpora, steps, rulesSteps) {
			continue
		}
		if na, ns := count(agents), count(steps); na > bestAgents || na == bestAgents && ns > bestSteps {
			best, bestAgents, bestSteps = role, na, ns
		}
	}
	return best
}

// adaptedRole is the agent a fit on one system's runs names first when
// bestRole names none: the dominant agent (rules.DominantShare), unless
// on the out-of-fold runs the rules' pick was surely right more often,
// by bestRole's sign test, in naming the agent or the step. Fitted on a
// few runs, the step likelihood moves the answer among near-tied steps
// with no regard to whose they are, and no sign test on those runs can
// show a role better; an agent that holds far more of the probability is
// kept until the runs refute it, as the prior's critical share is.
func adaptedRole(exs []Example, p [][]float64, how answering) string {
	named := how
	named.role = "dominant"
	if surelyBetter(rightAgents(exs, p, how), rightAgents(exs, p, named)) || surelyBetter(rightAnswers(exs, p, how), rightAnswers(exs, p, named)) {
		return ""
	}
	return named.role
}

// signLevel is the one-sided significance a sign test must reach.
const signLevel = 0.05

// surelyBetterEverywhere reports whether, in every corpus (corpora[i] is
// run i's), a is right on more runs than b by an exact one-sided sign
// test at signLevel: of the runs where they differ, a must be the right
// one so often that a fair coin would be as lucky less than one time in
// twenty. On the few runs a user labels, the normal approximation
// clearlyBetter relies on passes three wins and no losses; the sign test
// needs five.
func surelyBetterEverywhere(corpora []string, a, b []bool) bool {
	type record struct{ won, lost int }
	by := map[string]record{}
	for i, c := range corpora {
		r := by[c]
		switch {
		case a[i] && !b[i]:
			r.won++
		case b[i] && !a[i]:
			r.lost++
		}
		by[c] = r
	}
	for _, r := range by {
		if signTail(r.won, r.won+r.lost) > signLevel {
			return false
		}
	}
	return len(by) > 0
}

// surelyBetter reports whether a is right on more runs than b by the sign
// test of surelyBetterEverywhere, every run counted in one corpus.
func surelyBetter(a, b []bool) bool { return surelyBetterEverywhere(make([]string, len(a)), a, b) }

// signTail is the chance that a fair coin tossed n times comes up heads
// at least k times.
func signTail(k, n int) float64 {
	if k <= 0 {
		return 1
	}
	tail := 0.0
	for j := k; j <= n; j++ {
		tail += math.Exp(lchoose(n, j) - float64(n)*math.Ln2)
	}
	return tail
}

// lchoose is the logarithm of n choose k.
func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// corporaOfExamples lists each example's corpus.
func corporaOfExamples(exs []Example) []string {
	out := make([]string, len(exs))
	for i, ex := range exs {
		out[i] = ex.Corpus
	}
	return out
}

// Triage targets: clear must mean no model or person is needed.
const (
	clearAccuracy = 0.75
	clearCoverage = 0.10
	// clearZ is how many standard errors the accuracy of a clear band's
	// runs must stand above clearAccuracy on each corpus (the Wilson
	// score interval's lower end, strictly above): a band seen right 3
	// times in 3, or 15 in 20, is too little evidence that a new system's
	// runs will be.
	clearZ = 1.0
	// wilsonTie is the rounding a lower end at exactly clearAccuracy (3
	// right in 3) may carry; it must not decide the band, on any machine.
	wilsonTie = 1e-9
)

// chooseBands picks the triage thresholds from out-of-fold confidences,
// whether each answer was right, and each run's corpus. Clear is the
// highest confidence at which the surest runs cover 10% of all and, in
// every corpus that has runs among them, were right often enough that the
// lower end of their accuracy's interval is at least 75%: a promise that
// holds pooled but not on one system, or holds on too few runs to tell,
// is not kept on the next. When no threshold does, no run is clear:
// better an empty band than a wrong promise. Escalate is the share of runs
// answered right: a run whose calibrated confidence is below it is less
// likely right than the average run, and is worth a stronger model's
// tokens first.
func chooseBands(conf []float64, hit []bool, corpus []string) rules.Bands {
	n := len(conf)
	b := rules.Bands{Clear: 1, Escalate: 0}
	if n == 0 {
		return b
	}
	idx := make([]int, n)
	right := 0
	for i := range idx {
		idx[i] = i
		if hit[i] {
			right++
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return conf[idx[a]] > conf[idx[b]] })
	covered, hits := map[string]int{}, map[string]int{}
	for k, i := range idx {
		covered[corpus[i]]++
		if hit[i] {
			hits[corpus[i]]++
		}
		last := k == n-1 || conf[idx[k+1]] < conf[i]
		if last && float64(k+1) >= clearCoverage*float64(n) && everyCorpusRight(covered, hits) {
			b.Clear = conf[i]
			break
		}
	}
	b.Escalate = min(b.Clear, float64(right)/float64(n))
	b.Clear, b.Escalate = round3(b.Clear), round3(b.Escalate)
	return b
}

// spreadAccuracy is how often, on each corpus, the out-of-fold answers at
// or below the chosen spread must have been right. It stands above
// clearAccuracy: of the thresholds tried, the one that just holds on the
// systems it is chosen on is flattered by the choice, and a system left
// out of the choosing reads it lower.
const spreadAccuracy = 0.85

// chooseSpread picks the spread at or below which a run is clear, from
// out-of-fold spreads (rules.Spread), whether each answer was right, and
// each run's corpus: the highest at which, on every corpus with runs at or
// below it, the answers were right at spreadAccuracy. The spread reads the
// evidence's shape, not a probability calibrated on one system's runs, and
// so keeps its meaning on a system the weights have not seen. 0 (no such
// spread) clears no run by its spread.
func chooseSpread(spread []float64, hit []bool, corpus []string) float64 {
	idx := make([]int, len(spread))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return spread[idx[a]] < spread[idx[b]] })
	covered, hits := map[string]int{}, map[string]int{}
	best := 0.0
	for k, i := range idx {
		covered[corpus[i]]++
		if hit[i] {
			hits[corpus[i]]++
		}
		if k < len(idx)-1 && spread[idx[k+1]] == spread[i] {
			continue
		}
		ok := true
		for c, n := range covered {
			if float64(hits[c]) < spreadAccuracy*float64(n)-wilsonTie {
				ok = false
			}
		}
		if ok {
			best = spread[i]
		}
	}
	return best
}

// everyCorpusRight reports whether each corpus's covered runs were right
// often enough that the lower end of their accuracy's interval reaches
// clearAccuracy.
func everyCorpusRight(covered, hits map[string]int) bool {
	for c, n := range covered {
		if wilsonLower(hits[c], n, clearZ) < clearAccuracy+wilsonTie {
			return false
		}
	}
	return true
}

// wilsonLower is the lower end of the Wilson score interval, z standard
// errors wide, of the share of n trials that were k successes.
func wilsonLower(k, n int, z float64) float64 {
	if n == 0 {
		return 0
	}
	nf, p, z2 := float64(n), float64(k)/float64(n), z*z
	return (p + z2/(2*nf) - z*math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))) / (1 + z2/nf)
}

func round3(x float64) float64 { return float64(int(x*1000+0.5)) / 1000 }

// foldsByHash splits examples into k folds by a hash of their corpus and
// file name (not the directories above it), so the split is the same on
// every machine, from any checkout or working directory, and does not
// follow file order.
func foldsByHash(exs []Example, k int) [][]int { return foldsBySaltedHash(exs, k, 0) }

// foldsBySaltedHash is foldsByHash under another assignment for each salt
// (salt 0 is foldsByHash's).
func foldsBySaltedHash(exs []Example, k, salt int) [][]int {
	k = min(k, len(exs))
	folds := make([][]int, k)
	for i, ex := range exs {
		h := fnv.New32a()
		if salt != 0 {
			fmt.Fprintf(h, "%d\x00", salt)
		}
		fmt.Fprintf(h, "%s\x00%s", ex.Corpus, filepath.Base(ex.Name))
		f := int(h.Sum32() % uint32(k))
		folds[f] = append(folds[f], i)
	}
	var out [][]int
	for _, f := range folds {
		if len(f) > 0 {
			out = append(out, f)
		}
	}
	return out
}

// FoldsByCorpus holds out one corpus at a time.
func FoldsByCorpus(exs []Example) [][]int {
	byName := map[string][]int{}
	var order []string
	for i, ex := range exs {
		if _, ok := byName[ex.Corpus]; !ok {
			order = append(order, ex.Corpus)
		}
		byName[ex.Corpus] = append(byName[ex.Corpus], i)
	}
	out := make([][]int, len(order))
	for k, c := range order {
		out[k] = byName[c]
	}
	return out
}

// KFolds splits examples into k folds (k ≥ the number of examples, or 0,
// leaves one run out at a time).
func KFolds(exs []Example, k int) [][]int { return KFoldsAssigned(exs, k, 0) }

// KFoldsAssigned is KFolds under the assignment'th way of dealing the runs
// into folds (0 is KFolds's own). With a few dozen runs, which fold a run
// lands in moves k-fold figures by several points; averaging over several
// assignments (repeated k-fold) steadies them.
func KFoldsAssigned(exs []Example, k, assignment int) [][]int {
	if k <= 0 || k >= len(exs) {
		out := make([][]int, len(exs))
		for i := range exs {
			out[i] = []int{i}
		}
		return out
	}
	return foldsBySaltedHash(exs, k, assignment)
}

func without(exs []Example, drop []int) []Example {
	skip := map[int]bool{}
	for _, i := range drop {
		skip[i] = true
	}
	var out []Example
	for i, ex := range exs {
		if !skip[i] {
			out = append(out, ex)
		}
	}
	return out
}

// Guessed is what the named label-free guess (rules.Baselines) answers
// for each example: the floors a fit's figures stand beside.
func Guessed(name string, exs []Example) []rules.Attribution {
	out := make([]rules.Attribution, len(exs))
	for i, ex := range exs {
		out[i] = rules.Baselines[name](ex.In)
	}
	return out
}

// Predict is the attribution weights give an example, banded as the
// engine bands it.
func Predict(w *rules.Weights, ex Example, as []*rules.Analyzer) rules.Attribution {
	a := w.Decide(ex.In, as, ex.Rows, ex.findings)
	d := triage.Decide(a, triage.Override{}.For(w.BandsFor(ex.In.Run)))
	a.Triage, a.TriageReason = string(d.Class), d.Reason
	return a
}

// CrossValidate fits on all folds but one and predicts the held-out one,
// for every fold, and returns each example's out-of-fold attribution; and,
// in the same order, that of each reading without the ground truth
// (Blinds(exs)).
func CrossValidate(ctx context.Context, exs []Example, folds [][]int, opts Options) (out, blind []rules.Attribution, err error) {
	opts = opts.withDefaults()
	out = make([]rules.Attribution, len(exs))
	blindOf := make([]*rules.Attribution, len(exs))
	for _, test := range folds {
		w, err := Fit(ctx, without(exs, test), opts)
		if err != nil {
			return nil, nil, err
		}
		for _, i := range test {
			out[i] = Predict(w, exs[i], opts.Analyzers)
			if b := exs[i].Blind; b != nil {
				a := Predict(w, *b, opts.Analyzers)
				blindOf[i] = &a
			}
		}
	}
	for _, a := range blindOf {
		if a != nil {
			blind = append(blind, *a)
		}
	}
	return out, blind, nil
}

// Blinds returns the examples' readings without the ground truth, in
// order, for those that have one.
func Blinds(exs []Example) []Example {
	var out []Example
	for _, ex := range exs {
		if ex.Blind != nil {
			out = append(out, *ex.Blind)
		}
	}
	return out
}

// Score tallies attributions of the examples per corpus and overall, as
// eval reports them.
func Score(exs []Example, as []rules.Attribution) (subsets []eval.Score, overall eval.Score) {
	var order []string
	tallies := map[string]*eval.Tally{}
	all := eval.NewTally("overall")
	for i, ex := range exs {
		t, ok := tallies[ex.Corpus]
		if !ok {
			t = eval.NewTally(ex.Corpus)
			tallies[ex.Corpus] = t
			order = append(order, ex.Corpus)
		}
		label := ex.Label
		t.Add(&label, &as[i])
		all.Add(&label, &as[i])
	}
	for _, c := range order {
		subsets = append(subsets, tallies[c].Score())
	}
	return subsets, all.Score()
}
