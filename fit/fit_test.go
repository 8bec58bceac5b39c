package fit

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/eval"
	"github.com/offattr/offattr/eval/evaltest"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/run/runtest"
)

// load reads the labelled runs of dirs as fit's examples, each subset a
// corpus.
func load(t testing.TB, dirs ...string) []Example {
	t.Helper()
	subs, err := eval.Discover(dirs)
	require.NoError(t, err)
	exs, err := Load(context.Background(), subs, run.Options{}, rules.Registry, io.Discard)
	require.NoError(t, err)
	return exs
}

func stepAccuracy(w *rules.Weights, exs []Example) float64 {
	preds := make([]rules.Attribution, len(exs))
	for i, ex := range exs {
		preds[i] = Predict(w, ex, rules.Registry)
	}
	_, all := Score(exs, preds)
	return all.StepAccuracy
}

// TestAdaptsToANewSystem is the promise to a user with a few dozen
// labelled runs of their own system: weights fitted on other systems
// (Who&When) do poorly on tau-bench's retail assistant; fitting on half of
// its runs, from those weights, raises step accuracy on the other half by
// at least 0.10.
func TestAdaptsToANewSystem(t *testing.T) {
	if testing.Short() {
		t.Skip("fits on two corpora")
	}
	ctx := context.Background()
	others := load(t, runtest.DevDir(t))
	tau := load(t, runtest.TauDir(t))
	base, err := Fit(ctx, others, Options{})
	require.NoError(t, err)

	var train, test []Example
	for _, fold := range foldsByHash(tau, 2) {
		if train == nil {
			for _, i := range fold {
				train = append(train, tau[i])
			}
			continue
		}
		for _, i := range fold {
			test = append(test, tau[i])
		}
	}
	require.NotEmpty(t, train)
	require.NotEmpty(t, test)
	adapted, err := Fit(ctx, train, Options{Prior: base})
	require.NoError(t, err)
	before, after := stepAccuracy(base, test), stepAccuracy(adapted, test)
	t.Logf("tau-retail, %d held-out runs: step accuracy %.3f with Who&When's weights, %.3f after fitting %d of its runs", len(test), before, after, len(train))
	assert.GreaterOrEqual(t, after-before, 0.10)
}

// TestBlindReadings: each run with a ground truth is also read without it,
// and the fit chooses bands for such runs on that reading; runs read
// without their ground truth have no second reading.
func TestBlindReadings(t *testing.T) {
	exs := load(t, evaltest.WriteCases(t))
	require.NotEmpty(t, exs)
	for _, ex := range exs {
		require.NotNil(t, ex.Blind, ex.Name)
		assert.Equal(t, "the answer", ex.In.Run.GroundTruth)
		assert.Empty(t, ex.Blind.In.Run.GroundTruth, ex.Name)
		assert.Equal(t, ex.Fingerprint, ex.Blind.Fingerprint, "the same run")
	}
	w, err := Fit(context.Background(), exs, Options{})
	require.NoError(t, err)
	require.NotNil(t, w.TriageWithoutGroundTruth)
	preds, blindPreds, err := CrossValidate(context.Background(), exs, KFoldsAssigned(exs, 2, 0), Options{})
	require.NoError(t, err)
	assert.Len(t, preds, len(exs))
	assert.Len(t, blindPreds, len(Blinds(exs)), "one attribution for each reading without the ground truth")
	assert.Len(t, Blinds(exs), len(exs))

	subs, err := eval.Discover([]string{evaltest.WriteCases(t)})
	require.NoError(t, err)
	blind, err := Load(context.Background(), subs, run.Options{NoGroundTruth: true}, rules.Registry, io.Discard)
	require.NoError(t, err)
	for _, ex := range blind {
		assert.Nil(t, ex.Blind, ex.Name)
	}
	w, err = Fit(context.Background(), blind, Options{})
	require.NoError(t, err)
	assert.Nil(t, w.TriageWithoutGroundTruth, "no run read with a ground truth: one set of bands")
}

func TestChooseBands(t *testing.T) {
	one := func(n int) []string { return make([]string, n) }
	// Ten answers at 0.8, `top` of them right; ten at 0.5, five right; ten
	// at 0.2, two right.
	tiers := func(top int) (conf []float64, hit []bool) {
		for i := range 30 {
			c := []float64{0.8, 0.5, 0.2}[i/10]
			conf, hit = append(conf, c), append(hit, i%10 < []int{top, 5, 2}[i/10])
		}
		return conf, hit
	}
	conf, hit := tiers(10)
	b := chooseBands(conf, hit, one(30))
	assert.InDelta(t, 0.8, b.Clear, 1e-9, "10 of 10 right at 0.8 or more")
	assert.InDelta(t, 0.567, b.Escalate, 1e-9, "17 of 30 runs were right: below that, a run is worse than the average")

	conf, hit = tiers(8)
	b = chooseBands(conf, hit, one(30))
	assert.Equal(t, 1.0, b.Clear, "8 of 10 is above 75% but too few runs to promise it")
	assert.InDelta(t, 0.5, b.Escalate, 1e-9, "half the runs were right")

	b = chooseBands(conf[10:], hit[10:], one(20))
	assert.Equal(t, 1.0, b.Clear, "no band of ≥10% of runs is right 75% of the time: nothing is clear")
	assert.InDelta(t, 0.35, b.Escalate, 1e-9)

	// Three runs, the surest wrong: a band of one is 10% but not 75% right.
	b = chooseBands([]float64{0.9, 0.6, 0.3}, []bool{false, true, true}, one(3))
	assert.Equal(t, 1.0, b.Clear)
	assert.InDelta(t, 0.667, b.Escalate, 1e-9)

	// Right 9 of 10 at the top, then 15 of 20 down to 0.5: both bands meet
	// the targets; clear stops at the first, with its margin.
	conf, hit = nil, nil
	for i := range 40 {
		conf = append(conf, 1-float64(i)*0.0125)
		hit = append(hit, i < 10 && i != 4 || i >= 10 && i < 20 && i%2 == 0 || i == 30)
	}
	b = chooseBands(conf, hit, one(40))
	assert.InDelta(t, 0.963, b.Clear, 1e-9, "4 runs (10% of 40), all right, are the first band to meet both: down to 0.9625")
	assert.Equal(t, rules.Bands{Clear: 1}, chooseBands(nil, nil, nil), "no runs, no bands")
}

// TestChooseBandsHoldsOnEveryCorpus: a clear band right 80% of the time
// pooled is refused when on one corpus its runs were right half the time.
func TestChooseBandsHoldsOnEveryCorpus(t *testing.T) {
	var conf []float64
	var hit []bool
	var corpus []string
	for i := range 10 { // the surest ten: eight of corpus a, all right; two of b, one right
		conf = append(conf, 0.9)
		hit = append(hit, i != 9)
		corpus = append(corpus, map[bool]string{true: "a", false: "b"}[i < 8])
	}
	for i := range 30 {
		conf = append(conf, 0.3)
		hit = append(hit, i%3 == 0)
		corpus = append(corpus, "a")
	}
	assert.InDelta(t, 0.9, chooseBands(conf, hit, make([]string, len(conf))).Clear, 1e-9, "pooled, 9 of 10 are right")
	assert.Equal(t, 1.0, chooseBands(conf, hit, corpus).Clear, "b's runs in the band are right one time in two")
}

// TestChooseSpread: the clear band by spread is the highest spread at or
// below which every corpus's answers were right at spreadAccuracy.
func TestChooseSpread(t *testing.T) {
	for _, tt := range []struct {
		name   string
		spread []float64
		hit    []bool
		corpus []string
		want   float64
	}{
		{"the narrow answers right, the wide not", []float64{0.2, 0.4, 0.6, 1.5, 2, 3}, []bool{true, true, true, false, true, false}, []string{"a", "b", "a", "a", "b", "a"}, 0.6},
		{"a tie is taken whole", []float64{0.2, 0.5, 0.5, 0.5}, []bool{true, true, true, false}, []string{"a", "a", "a", "a"}, 0.2},
		{"one corpus wrong at the narrowest", []float64{0.1, 0.3, 0.4}, []bool{true, false, true}, []string{"a", "b", "a"}, 0.1},
		{"five in six is below the bar", []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}, []bool{true, true, true, true, true, false}, []string{"a", "a", "a", "a", "a", "a"}, 0.5},
		{"six in seven is not", []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7}, []bool{true, true, true, true, true, false, true}, []string{"a", "a", "a", "a", "a", "a", "a"}, 0.7},
		{"the narrowest wrong: none clear", []float64{0.1, 0.2}, []bool{false, true}, []string{"a", "a"}, 0},
		{"no runs", nil, nil, nil, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, chooseSpread(tt.spread, tt.hit, tt.corpus), 1e-9)
		})
	}
}

func TestConditionalLogitFindsTheSignal(t *testing.T) {
	// The labelled row is always the one with the feature set: the weight
	// grows positive and the fitted model picks it.
	var groups []group
	for i := range 20 {
		g := group{target: i % 3}
		for k := range 3 {
			x := []float64{0, float64(k)}
			if k == g.target {
				x[0] = 1
			}
			g.rows = append(g.rows, rules.StepRow{X: x})
		}
		groups = append(groups, g)
	}
	beta, err := conditionalLogit(context.Background(), groups, []float64{0, 0}, evenPull(0.1, 2), nil)
	require.NoError(t, err)
	assert.Greater(t, beta[0], 2.0)
	assert.InDelta(t, 0, beta[1], 0.5, "a feature that says nothing stays near zero")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = conditionalLogit(ctx, groups, []float64{0, 0}, evenPull(0.1, 2), nil)
	assert.ErrorIs(t, err, context.Canceled)
}

// TestKFoldsAssignedDealsEveryRunOnce checks that each assignment is a
// partition of the runs into k folds, that assignment 0 is KFolds's, and
// that other assignments deal the runs differently (else repeating the
// cross-validation would only repeat its noise).
func TestKFoldsAssignedDealsEveryRunOnce(t *testing.T) {
	exs := make([]Example, 40)
	for i := range exs {
		exs[i].Name = fmt.Sprintf("runs/%d.json", i)
	}
	assert.Equal(t, KFolds(exs, 5), KFoldsAssigned(exs, 5, 0))
	foldOf := func(folds [][]int) []int {
		of := make([]int, len(exs))
		for i := range of {
			of[i] = -1
		}
		for f, fold := range folds {
			for _, i := range fold {
				require.Equal(t, -1, of[i], "run %d dealt twice", i)
				of[i] = f
			}
		}
		require.NotContains(t, of, -1, "a run left undealt")
		return of
	}
	first := foldOf(KFoldsAssigned(exs, 5, 0))
	for a := 1; a < 4; a++ {
		folds := KFoldsAssigned(exs, 5, a)
		assert.Len(t, folds, 5)
		assert.NotEqual(t, first, foldOf(folds), "assignment %d", a)
	}
	assert.Len(t, KFoldsAssigned(exs, 0, 3), len(exs), "one run out at a time has one assignment")
}

// TestFoldsDoNotDependOnWhereTheFilesAre: the same corpus read from another
// checkout or working directory is dealt into the same folds.
func TestFoldsDoNotDependOnWhereTheFilesAre(t *testing.T) {
	at := func(dir string) []Example {
		var exs []Example
		for i := range 40 {
			exs = append(exs, Example{Name: fmt.Sprintf("%s/dev/%d.json", dir, i), Corpus: "dev"})
		}
		return exs
	}
	assert.Equal(t, KFolds(at("../shared/whowhen"), 5), KFolds(at("/tmp/ci/shared/whowhen"), 5))
	assert.NotEqual(t, KFolds(at("x"), 5), KFoldsAssigned(at("x"), 5, 1), "another assignment is another split")
}

func TestWilsonLower(t *testing.T) {
	for _, tc := range []struct {
		name string
		k, n int
		z    float64
		want float64
	}{
		{"no runs", 0, 0, 1, 0},
		{"no width is the share itself", 5, 10, 0, 0.5},
		{"ten of ten still leaves room below", 10, 10, 1, 1 / 1.1},
		{"three of three is just the target, not above it", 3, 3, 1, 0.75},
		{"fifteen of twenty falls short of it", 15, 20, 1, (0.775 - 0.1) / 1.05},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.InDelta(t, tc.want, wilsonLower(tc.k, tc.n, tc.z), 1e-9)
		})
	}
}

// TestGuessAnswersWhereItIsClearlyRight: on a system whose decisive fault
// is always the first agent message after the task, a fit on half of its
// runs answers with that guess and gets the other half right; on the real
// labels, where the rules do better than any guess, none is kept.
func TestGuessAnswersWhereItIsClearlyRight(t *testing.T) {
	if testing.Short() {
		t.Skip("fits on a corpus")
	}
	ctx := context.Background()
	exs := load(t, runtest.DevDir(t))
	w, err := Fit(ctx, exs, Options{})
	require.NoError(t, err)
	assert.Empty(t, w.Guess, "the rules beat every guess on Who&When")

	first := make([]Example, 0, len(exs))
	for _, ex := range exs {
		guess := rules.FirstStepBaseline(ex.In.Run)
		ex.Label = run.Label{Agent: guess.Agent, Step: guess.Step}
		ex.Target = slices.IndexFunc(ex.Rows, func(r rules.StepRow) bool { return r.Step == guess.Step })
		ex.Blind = nil
		first = append(first, ex)
	}
	folds := foldsByHash(first, 2)
	train, test := without(first, folds[1]), without(first, folds[0])
	w, err = Fit(ctx, train, Options{})
	require.NoError(t, err)
	assert.Equal(t, "first-step", w.Guess)
	before := stepAccuracy(&rules.Weights{Version: w.Version, Step: w.Step, Critical: w.Critical}, test)
	after := stepAccuracy(w, test)
	t.Logf("%d held-out runs: step accuracy %.3f by the rules, %.3f with the guess", len(test), before, after)
	assert.Less(t, before, 0.6)
	assert.Equal(t, 1.0, after)
}

// TestBestCriticalKeepsThePriorsShareOnNoise: from scratch the share right
// most often wins; from a prior's share, another must be ahead of it run
// for run, not by a count that wins on some runs and loses on others.
func TestBestCriticalKeepsThePriorsShareOnNoise(t *testing.T) {
	// Two steps a run at 0.45 and 0.55: shares of 0.9 and up answer the
	// second, 0.8 and below the first.
	runs := func(labels ...int) ([]Example, [][]float64) {
		var exs []Example
		var p [][]float64
		for _, l := range labels {
			exs = append(exs, Example{Rows: []rules.StepRow{{Step: 1}, {Step: 2}}, Label: run.Label{Step: l}})
			p = append(p, []float64{0.45, 0.55})
		}
		return exs, p
	}
	for _, c := range []struct {
		name   string
		labels []int
		prior  float64
		want   float64
	}{
		{"from scratch, three of five", []int{1, 1, 1, 2, 2}, 0, 0.8},
		{"from a prior, three won and two lost", []int{1, 1, 1, 2, 2}, 1, 1},
		{"from a prior, five won and none lost", []int{1, 1, 1, 1, 1}, 1, 0.8},
		{"the prior's own share is best", []int{2, 2, 2, 1, 2}, 0.9, 0.9},
		{"without a prior's share, three won and two lost", []int{2, 2, 2, 1, 1}, startShare(EvidencePrior(nil)), DefaultCritical},
		{"without a prior, five won and none lost", []int{2, 2, 2, 2, 2}, startShare(nil), 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			exs, p := runs(c.labels...)
			assert.Equal(t, c.want, bestCritical(exs, p, -1, c.prior))
		})
	}
}

// TestAgentRoleFeaturesFitOnOneSystemOnly: where a system's labellers
// look (here: at the busiest agent's last message) is learned from that
// system's own runs, and helps on its unseen runs; fitted on runs of two
// corpora, the agent-role features stay at zero.
func TestAgentRoleFeaturesFitOnOneSystemOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("fits on a corpus")
	}
	ctx := context.Background()
	var relabelled []Example
	for _, ex := range load(t, runtest.DevDir(t)) {
		busiest := rules.BusiestFirstBaseline(ex.In.Run)
		last := busiest.Candidates[len(busiest.Candidates)-1]
		ex.Label = run.Label{Agent: last.Agent, Step: last.Step}
		ex.Target = slices.IndexFunc(ex.Rows, func(r rules.StepRow) bool { return r.Step == last.Step })
		ex.Blind = nil
		ex.Corpus = "one system"
		relabelled = append(relabelled, ex)
	}
	folds := foldsByHash(relabelled, 2)
	train, test := without(relabelled, folds[1]), without(relabelled, folds[0])

	w, err := Fit(ctx, train, Options{})
	require.NoError(t, err)
	assert.Positive(t, w.Step[rules.FeatBusiestAgent])
	zeroed := &rules.Weights{Version: w.Version, Step: maps.Clone(w.Step), Critical: w.Critical}
	for name := range zeroed.Step {
		if rules.SystemFeature(name) {
			zeroed.Step[name] = 0
		}
	}
	before, after := stepAccuracy(zeroed, test), stepAccuracy(w, test)
	t.Logf("%d held-out runs: step accuracy %.3f without the agent-role features, %.3f with them", len(test), before, after)
	assert.Greater(t, after, before+0.10)

	for i := range train {
		train[i].Corpus = []string{"one system", "another"}[i%2]
	}
	w, err = Fit(ctx, train, Options{})
	require.NoError(t, err)
	for name, v := range w.Step {
		if rules.SystemFeature(name) {
			assert.Zero(t, v, "%s fitted on two corpora", name)
		}
	}
}

// TestEveryCorpusRight: a clear band must stand above 75% on every corpus
// it covers, by the lower end of the interval; three right in three sits
// exactly on it, which rounding must not tip either way.
func TestEveryCorpusRight(t *testing.T) {
	for _, tc := range []struct {
		name          string
		covered, hits map[string]int
		want          bool
	}{
		{"three of three", map[string]int{"a": 3}, map[string]int{"a": 3}, false},
		{"four of four", map[string]int{"a": 4}, map[string]int{"a": 4}, true},
		{"fifteen of twenty", map[string]int{"a": 20}, map[string]int{"a": 15}, false},
		{"one corpus short", map[string]int{"a": 4, "b": 20}, map[string]int{"a": 4, "b": 15}, false},
		{"every corpus", map[string]int{"a": 4, "b": 20}, map[string]int{"a": 4, "b": 19}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, everyCorpusRight(tc.covered, tc.hits))
		})
	}
}

// TestTwinsPulledHarder: a tools twin is pulled toward its prior TwinPull
// times as hard as the feature it twins.
func TestTwinsPulledHarder(t *testing.T) {
	names := rules.StepFeatureNames(rules.Registry)
	pull := stepPull(names, 2)
	twins := 0
	for k, n := range names {
		if strings.HasPrefix(n, rules.ToolsPrefix) {
			twins++
			assert.Equal(t, 2*TwinPull, pull[k], n)
			assert.Equal(t, 2.0, pull[slices.Index(names, strings.TrimPrefix(n, rules.ToolsPrefix))], n)
		}
	}
	assert.Equal(t, len(names)/2, twins)
}

// TestAnswersAsTheEngine: the row fit scores an example by is the step
// the engine answers it with, under the same weights, on runs where the
// engine answers a session's first change (coding sessions with no
// finding) as on the others: a fit judged on answers analyze does not give
// would choose its critical share, guess and bands for another engine.
// TestAnswersAsTheEngine: fit's answers and spreads, from which it chooses
// the confidence and the bands, are those the engine gives.
func TestAnswersAsTheEngine(t *testing.T) {
	exs := load(t, "../testdata/kinds/coding-agent")
	require.NotEmpty(t, exs)
	w := rules.DefaultWeights()
	names := rules.StepFeatureNames(rules.Registry)
	beta := make([]float64, len(names))
	for k, n := range names {
		beta[k] = w.Step[n]
	}
	flagged := slices.Index(names, rules.FeatFlagged)
	for _, ex := range exs {
		if len(ex.Rows) == 0 {
			continue
		}
		p := rules.Softmax(ex.Rows, beta)
		how := answering{critical: w.Critical, flagged: flagged, guess: w.Guess, role: w.AgentRole}
		got := ex.Rows[answerRow(&ex, p, how)].Step
		a := Predict(w, ex, rules.Registry)
		assert.Equal(t, a.Step, got, ex.Name)
		_, spreads, _, _ := answers([]Example{ex}, [][]float64{p}, how, func(ex *Example) *Example { return ex })
		assert.Equal(t, []float64{a.Spread}, spreads, "%s: the spread the bands are chosen on is the one triage reads", ex.Name)
	}
}

// TestSurelyBetterEverywhere: the sign test behind an agent-naming choice
// holds three wins and no losses to be chance, as the normal approximation
// does not, and needs its gain in every corpus.
func TestSurelyBetterEverywhere(t *testing.T) {
	// runs returns paired answers for a corpus: won runs where only a is
	// right, lost where only b is, tied where both are.
	type pairs struct{ won, lost, tied int }
	for _, tc := range []struct {
		name    string
		corpora map[string]pairs
		want    bool
	}{
		{"three won, none lost", map[string]pairs{"a": {3, 0, 10}}, false},
		{"five won, none lost", map[string]pairs{"a": {5, 0, 10}}, true},
		{"six won, one lost", map[string]pairs{"a": {6, 1, 10}}, false},
		{"seven won, one lost", map[string]pairs{"a": {7, 1, 10}}, true},
		{"one corpus short", map[string]pairs{"a": {5, 0, 0}, "b": {3, 0, 0}}, false},
		{"every corpus", map[string]pairs{"a": {5, 0, 0}, "b": {6, 0, 4}}, true},
		{"no runs", map[string]pairs{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var corpora []string
			var a, b []bool
			for _, c := range slices.Sorted(maps.Keys(tc.corpora)) {
				p := tc.corpora[c]
				for k := range p.won + p.lost + p.tied {
					corpora = append(corpora, c)
					a = append(a, k < p.won || k >= p.won+p.lost)
					b = append(b, k >= p.won)
				}
			}
			assert.Equal(t, tc.want, surelyBetterEverywhere(corpora, a, b))
			if tc.name == "three won, none lost" {
				assert.True(t, clearlyBetter(a, b), "the normal approximation passes it")
			}
		})
	}
}

// TestBestRoleNamesTheAgentOnlyWhereSurelyBetter: on runs whose labels
// name the last speaker's step while the rules pick an earlier agent's,
// the last speaker is named first once that wins clearly enough, on every
// corpus, and never at the cost of a step the rules had right.
func TestBestRoleNamesTheAgentOnlyWhereSurelyBetter(t *testing.T) {
	// Each run (lastSpeakerRun): the step model prefers A's first message;
	// B's one message is second.
	lastStep := run.Label{Agent: "B", Step: 4}
	agentOnly := run.Label{Agent: "B", Step: 1} // the rules' step, another agent
	for _, tc := range []struct {
		name   string
		labels map[string][]run.Label
		want   string
	}{
		{"five runs of the last speaker's step", map[string][]run.Label{"x": slices.Repeat([]run.Label{lastStep}, 5)}, "last"},
		{"three are chance", map[string][]run.Label{"x": slices.Repeat([]run.Label{lastStep}, 3)}, ""},
		{"agents won, steps lost", map[string][]run.Label{"x": slices.Repeat([]run.Label{agentOnly}, 6)}, ""},
		{"won on one system only", map[string][]run.Label{"x": slices.Repeat([]run.Label{lastStep}, 5), "y": slices.Repeat([]run.Label{lastStep}, 3)}, ""},
		{"won on every system", map[string][]run.Label{"x": slices.Repeat([]run.Label{lastStep}, 5), "y": slices.Repeat([]run.Label{lastStep}, 6)}, "last"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var exs []Example
			var p [][]float64
			for _, c := range slices.Sorted(maps.Keys(tc.labels)) {
				for _, l := range tc.labels[c] {
					ex, pr := lastSpeakerRun(c, l)
					exs, p = append(exs, ex), append(p, pr)
				}
			}
			assert.Equal(t, tc.want, bestRole(exs, p, answering{critical: 1, flagged: 0}))
		})
	}
}

// TestBestGuessOnlyWhereSurelyBetter: a label-free guess answers in place
// of the step model only where the sign test an agent-naming choice passes
// says it is surely right more often, and it is worse on no corpus: three
// runs won and none lost are chance, as the normal approximation does not
// hold them.
func TestBestGuessOnlyWhereSurelyBetter(t *testing.T) {
	// Each run (lastSpeakerRun): the step model answers A's first message,
	// as the first-step guess does; the busiest-first guess answers A's
	// second, the last-step guess B's.
	// runs labels a corpus's runs: won where only the last-step guess is
	// right, lost where only the step model is, tied where no answer is.
	type runs struct{ won, lost, tied int }
	labels := func(r runs) []run.Label {
		out := slices.Repeat([]run.Label{{Agent: "B", Step: 4}}, r.won)
		out = append(out, slices.Repeat([]run.Label{{Agent: "A", Step: 1}}, r.lost)...)
		return append(out, slices.Repeat([]run.Label{{Agent: "A", Step: 3}}, r.tied)...)
	}
	for _, tc := range []struct {
		name    string
		corpora map[string]runs
		want    string
	}{
		{"three won, none lost", map[string]runs{"x": {3, 0, 10}}, ""},
		{"five won, none lost", map[string]runs{"x": {5, 0, 10}}, "last-step"},
		{"six won, one lost", map[string]runs{"x": {6, 1, 0}}, ""},
		{"seven won, one lost", map[string]runs{"x": {7, 1, 0}}, "last-step"},
		{"three won on each of two systems", map[string]runs{"x": {3, 0, 0}, "y": {3, 0, 4}}, "last-step"},
		{"lost on one system", map[string]runs{"x": {9, 0, 0}, "y": {0, 1, 0}}, ""},
		{"lost", map[string]runs{"x": {0, 5, 0}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var exs []Example
			var p [][]float64
			for _, c := range slices.Sorted(maps.Keys(tc.corpora)) {
				for _, l := range labels(tc.corpora[c]) {
					ex, pr := lastSpeakerRun(c, l)
					exs, p = append(exs, ex), append(p, pr)
				}
			}
			assert.Equal(t, tc.want, bestGuess(exs, p, answering{critical: 1, flagged: 0}))
		})
	}
}

// lastSpeakerRun returns a run of corpus labelled label, and the step
// model's probabilities of its rows: the task, three messages of A, the
// last of B; the model gives A's first message 0.5, B's 0.4, the others
// 0.05, and every step is implicated, so the ranking is the model's.
func lastSpeakerRun(corpus string, label run.Label) (Example, []float64) {
	r, rows := messagesBy([]float64{1}, "A", "A", "A", "B")
	return Example{Corpus: corpus, In: &rules.Input{Run: r}, Rows: rows, Label: label}, []float64{0.5, 0.05, 0.05, 0.4}
}

// messagesBy is a run of the task and one message by each of agents, and
// a row of features x for each message.
func messagesBy(x []float64, agents ...string) (*run.Run, []rules.StepRow) {
	r := &run.Run{Steps: []run.Step{{Index: 0, Agent: "user", Kind: run.KindUser}}}
	var rows []rules.StepRow
	for i, a := range agents {
		r.Steps = append(r.Steps, run.Step{Index: i + 1, Agent: a, Kind: run.KindMessage})
		rows = append(rows, rules.StepRow{Step: i + 1, Agent: a, X: x})
	}
	return r, rows
}

// TestLoadCountsUnread: what a subset holds unread (a subdirectory that
// cannot be listed, a pipe among the case files) is warned of and counted
// as failed, as a case that does not load is.
func TestLoadCountsUnread(t *testing.T) {
	subs, err := eval.Discover([]string{evaltest.WriteCases(t)})
	require.NoError(t, err)
	require.Len(t, subs, 2)
	subs[0].Unread = []eval.Unread{{Path: "A/locked", Err: fmt.Errorf("eval A/locked: %w", eval.ErrNotRegular)}}
	var warn strings.Builder
	exs, stats, err := LoadCounted(context.Background(), subs, run.Options{}, rules.Registry, &warn)
	require.NoError(t, err)
	assert.Len(t, exs, 4)
	assert.Equal(t, LoadStats{Failed: 2}, stats, "B/9.json does not load; A/locked is unread")
	assert.Contains(t, warn.String(), "offattr: eval A/locked: not a regular file")
}

// TestLoadSkipsTheLabelsFileGiven: the labels file --labels names,
// sitting among the cases, is no case and counted nowhere; another labels
// file is left out, not counted as holding no label.
func TestLoadSkipsTheLabelsFileGiven(t *testing.T) {
	dir := evaltest.WriteCases(t)
	label := `{"trace_id": "t1", "span_id": "s1", "reason": "r"}` + "\n"
	given := filepath.Join(dir, "A", "labels.jsonl")
	require.NoError(t, os.WriteFile(given, []byte(label), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "A", "other.jsonl"), []byte(label), 0o644))
	subs, err := eval.Discover([]string{dir})
	require.NoError(t, err)
	var warn strings.Builder
	_, stats, err := LoadCounted(context.Background(), subs, run.Options{LabelsFile: given}, rules.Registry, &warn)
	require.NoError(t, err)
	assert.Equal(t, LoadStats{Failed: 1}, stats, "B/9.json does not load; neither labels file is counted")
	assert.NotContains(t, warn.String(), "labels.jsonl")
	assert.Contains(t, warn.String(), "other.jsonl: unknown format: a labels file")
}

// TestAdaptedRoleNamesTheDominantAgentUntilRefuted: fitted on one
// system's runs, the weights name the agent holding far more of the
// probability than the ranked step's agent, on any number of runs, unless
// those runs show the rules' pick surely right more often, in the agent
// or the step.
func TestAdaptedRoleNamesTheDominantAgentUntilRefuted(t *testing.T) {
	// Each run: four steps as likely, A's first; B answers for the other
	// three and holds three times A's probability.
	dominantRun := func(label run.Label) (Example, []float64) {
		r, rows := messagesBy([]float64{1}, "A", "B", "B", "B")
		return Example{Corpus: "x", In: &rules.Input{Run: r}, Rows: rows, Label: label}, []float64{0.25, 0.25, 0.25, 0.25}
	}
	ofB, ofA := run.Label{Agent: "B", Step: 2}, run.Label{Agent: "A", Step: 1}
	agentOnly := run.Label{Agent: "A", Step: 3} // A named, B's step labelled: neither way has the step
	for _, tc := range []struct {
		name   string
		labels []run.Label
		want   string
	}{
		{"two runs of the dominant agent", slices.Repeat([]run.Label{ofB}, 2), "dominant"},
		{"one run each way", []run.Label{ofB, ofA}, "dominant"},
		{"five runs of the ranked agent's step", slices.Repeat([]run.Label{ofA}, 5), ""},
		{"five runs of the ranked agent", slices.Repeat([]run.Label{agentOnly}, 5), ""},
		{"four runs of the ranked agent's step are chance", slices.Repeat([]run.Label{ofA}, 4), "dominant"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var exs []Example
			var p [][]float64
			for _, l := range tc.labels {
				ex, pr := dominantRun(l)
				exs, p = append(exs, ex), append(p, pr)
			}
			assert.Equal(t, tc.want, adaptedRole(exs, p, answering{critical: 1, flagged: 0}))
		})
	}
}

// TestFitNamesTheDominantAgentOnOneSystemOnly: a fit on one system's runs
// names the dominant agent where no sign test can yet tell; a fit on
// several systems' runs names an agent only as bestRole does.
func TestFitNamesTheDominantAgentOnOneSystemOnly(t *testing.T) {
	names := rules.StepFeatureNames(rules.Registry)
	x := make([]float64, len(names))
	x[slices.Index(names, rules.FeatFlagged)] = 1
	example := func(corpus string, i int) Example {
		r, rows := messagesBy(x, "A", "B", "B", "B")
		r.Source = fmt.Sprintf("%s/%d.json", corpus, i)
		return Example{Name: r.Source, Corpus: corpus, In: &rules.Input{Run: r}, Rows: rows, Label: run.Label{Agent: "B", Step: 2}, Target: 1}
	}
	var one, two []Example
	for i := range 3 {
		one = append(one, example("x", i))
		two = append(two, example("x", i), example("y", i))
	}
	w, err := Fit(context.Background(), one, Options{})
	require.NoError(t, err)
	assert.Equal(t, "dominant", w.AgentRole)
	w, err = Fit(context.Background(), two, Options{})
	require.NoError(t, err)
	assert.Empty(t, w.AgentRole)
}
