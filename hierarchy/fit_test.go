package hierarchy

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"
	"testing/quick"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
)

// fitCase is one random case of the budget property: the run is made from
// Seed by synthRun, so a failing case prints as a few numbers that rebuild it.
type fitCase struct {
	Seed   uint64
	Steps  int
	Target int
	// Pick chooses how the budget is drawn against the run's minimum and
	// full sizes, which the case cannot know before the run is built.
	Pick uint32
}

// Generate draws runs of 1 to 60 steps; quick calls it for every case.
func (fitCase) Generate(rng *rand.Rand, _ int) reflect.Value {
	n := 1 + rng.Intn(60)
	return reflect.ValueOf(fitCase{Seed: rng.Uint64(), Steps: n, Target: rng.Intn(n), Pick: rng.Uint32()})
}

// budget draws a budget: below or near the least possible size, between it
// and the full size, or anywhere up to twice the full size.
func (fc fitCase) budget(least, full int) int {
	k := int(fc.Pick >> 2)
	switch fc.Pick % 4 {
	case 0:
		return 1 + k%(least+5)
	case 1:
		return least - 1 + k%3
	case 2:
		return least + k%(max(full-least, 0)+1)
	}
	return 1 + k%(2*full)
}

// TestFitBudgetProperty: for random runs, targets and budgets, Fit fails
// with ErrBudgetTooSmall exactly when the budget is below the least a
// context can take (every other step omitted, the target's label alone);
// otherwise the context renders within the budget, shows the target, and
// is left whole when it fitted already.
func TestFitBudgetProperty(t *testing.T) {
	property := func(fc fitCase) bool {
		r, f := synthRun(fc.Steps, fc.Seed)
		c, err := Build(r, f, fc.Target)
		require.NoError(t, err)
		least := leastTokens(c)
		budget := fc.budget(least, c.Tokens)
		where := fmt.Sprintf("%+v: budget %d, least %d, full %d", fc, budget, least, c.Tokens)

		fitted, err := Fit(c, budget)
		if budget < least {
			return assert.ErrorIs(t, err, ErrBudgetTooSmall, where)
		}
		if !assert.NoError(t, err, where) {
			return false
		}
		text := fitted.Render()
		ok := assert.LessOrEqual(t, extract.EstimateTokens(text), budget, where)
		ok = assert.Equal(t, extract.EstimateTokens(text), fitted.Tokens, where) && ok
		assertShowsTarget(t, fitted, text, where)
		if budget >= c.Tokens {
			ok = assert.Equal(t, c.Render(), text, "%s: a context that fits is left whole", where) && ok
		}
		// A fitted context fits again to a smaller budget: the fitter starts
		// from runs of omitted steps it did not make.
		smaller := (least + fitted.Tokens) / 2
		again, err := Fit(fitted, smaller)
		if assert.NoError(t, err, "%s: again at %d", where, smaller) {
			ok = assert.LessOrEqual(t, again.Tokens, smaller, "%s: again", where) && ok
			assertShowsTarget(t, again, again.Render(), where)
		}
		return ok && !t.Failed()
	}
	require.NoError(t, quick.Check(property, &quick.Config{MaxCount: 400}))
}

// leastTokens is the size of the smallest context Fit can make of c: every
// step but the target omitted, and the target shown by its label alone.
func leastTokens(c Context) int {
	c.Entries = append([]Entry(nil), c.Entries...)
	for i := range c.Entries {
		c.Entries[i].setDetail(DetailOmitted)
	}
	c.Entries[c.Target].setDetail(DetailHeader)
	return extract.EstimateTokens(c.Render())
}

// TestFitAllocationsGrowLinearly guards against fitting going quadratic
// again without timing anything: it counts the allocations of fitting the
// middle step of runs of 500 and 4000 steps tightly, which re-measuring the
// whole context after each reduction made grow with the square of the
// length. Per step they must stay about the same.
func TestFitAllocationsGrowLinearly(t *testing.T) {
	perStep := func(n int) float64 {
		r, f := synthRun(n, 1)
		c, err := Build(r, f, n/2)
		require.NoError(t, err)
		allocs := testing.AllocsPerRun(2, func() {
			_, err := Fit(c, 600)
			require.NoError(t, err)
		})
		return allocs / float64(n)
	}
	short, long := perStep(500), perStep(4000)
	assert.Less(t, long, 1.5*short, "allocations per step: %.2f at 500 steps, %.2f at 4000", short, long)
}

// BenchmarkFit builds and fits the context of the middle step of synthetic
// runs of growing length to 2000 tokens, which omits most of the run: the
// cost per step should not grow with the length.
func BenchmarkFit(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000, 8000} {
		b.Run(fmt.Sprintf("steps=%d", n), func(b *testing.B) {
			r, f := synthRun(n, 1)
			for b.Loop() {
				if _, err := BuildWithin(r, f, n/2, 2000); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/step")
		})
	}
}
