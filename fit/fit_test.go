package fit

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/eval"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/run/runtest"
)

func load(t *testing.T, dir string) []Example {
	t.Helper()
	subs, err := eval.Discover([]string{dir})
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

func TestChooseBands(t *testing.T) {
	// Ten confident answers, nine right; ten middling, five right; ten
	// unsure, one right.
	var conf []float64
	var hit []bool
	for i := range 30 {
		switch {
		case i < 10:
			conf, hit = append(conf, 0.9-float64(i)*0.01), append(hit, i != 3)
		case i < 20:
			conf, hit = append(conf, 0.5-float64(i-10)*0.01), append(hit, i%2 == 0)
		default:
			conf, hit = append(conf, 0.2-float64(i-20)*0.01), append(hit, i == 25)
		}
	}
	b := chooseBands(conf, hit)
	// From the top: 9 of 10, then through the middling ones 10 of 11, 11 of
	// 13, 12 of 16 (0.75), 13 of 17 at 0.44 (0.76), 13 of 18 (0.72), and
	// never 75% again.
	assert.InDelta(t, 0.44, b.Clear, 1e-9, "the lowest confidence above which 75% of answers were right, over ≥15% of runs")
	// Below clear: three middling answers (one right) over the ten unsure
	// (one right). Escalating the unsure leaves 1 in 3 against 1 in 10, and
	// every other split leaves fewer than three runs on a side.
	assert.InDelta(t, 0.41, b.Escalate, 1e-9, "the escalated are the least accurate")

	b = chooseBands(conf[10:], hit[10:])
	assert.Equal(t, 1.0, b.Clear, "no band of ≥15% of runs is right 75% of the time: nothing is clear")
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
	beta, err := conditionalLogit(context.Background(), groups, []float64{0, 0}, 0.1)
	require.NoError(t, err)
	assert.Greater(t, beta[0], 2.0)
	assert.InDelta(t, 0, beta[1], 0.5, "a feature that says nothing stays near zero")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = conditionalLogit(ctx, groups, []float64{0, 0}, 0.1)
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
