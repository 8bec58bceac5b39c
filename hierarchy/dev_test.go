package hierarchy

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/run/runtest"
)

// digestBudgets are the budgets the digest fits every context to: 0 (no
// limit), a budget too small for some runs, budgets small enough to reach
// the neighbours' and the target's truncation, and budgets at which only
// far steps degrade.
var digestBudgets = []int{0, 60, 100, 150, 250, 400, 1000, 2000, 4000, 16000}

// TestDevDigest pins the fitted contexts of every run of both dev corpora
// (Who&When's dev half and tau-retail) to a golden file, so a change to
// fitting that alters any byte a model would be shown shows up as a diff.
// For the first, middle and last step it records the tokens at each budget
// and a digest of the contexts (JSON and rendering); a last line per run
// digests the contexts of about sampledSteps steps spread over the run.
// Every context is also checked against the budget on the way.
func TestDevDigest(t *testing.T) {
	var b strings.Builder
	for _, path := range runtest.AllFiles(t) {
		r, err := run.Load(path, run.Options{})
		require.NoError(t, err)
		f := extract.Run(r)
		name := runtest.Name(path)
		sampled := sha256.New()
		for target := range r.Steps {
			if !pinned(target, len(r.Steps)) && !sample(target, len(r.Steps)) {
				continue
			}
			h := sha256.New()
			tokens := digestContexts(t, h, r, f, target)
			sampled.Write(h.Sum(nil))
			if pinned(target, len(r.Steps)) {
				fmt.Fprintf(&b, "%s step %d:%s %x\n", name, target, tokens, h.Sum(nil)[:8])
			}
		}
		fmt.Fprintf(&b, "%s sampled steps: %x\n", name, sampled.Sum(nil)[:8])
	}
	checkGolden(t, filepath.Join("testdata", "golden", "dev_digest.txt"), b.String())
}

// pinned reports whether the golden file has a line of its own for target:
// the first, middle and last step.
func pinned(target, steps int) bool {
	return target == 0 || target == steps/2 || target == steps-1
}

// sampledSteps bounds the steps of a run the digest covers: each context
// spans the whole run, so digesting every step of the long runs would cost
// the square of their length.
const sampledSteps = 16

// sample reports whether target is one of the evenly spaced steps the
// digest covers besides the pinned ones: every step of a short run.
func sample(target, steps int) bool {
	return target%max(1, steps/sampledSteps) == 0
}

// digestContexts writes the context of target at every digest budget to h,
// as JSON and as rendered, and returns the tokens each took (" 150:149"),
// "small" where the budget was too small. Each context must be within its
// budget and show the target.
func digestContexts(t *testing.T, h hash.Hash, r *run.Run, f *extract.RunFeatures, target int) string {
	t.Helper()
	var tokens strings.Builder
	built, err := Build(r, f, target)
	require.NoError(t, err)
	for _, budget := range digestBudgets {
		c, err := Fit(built, budget) // as BuildWithin, without building again
		if errors.Is(err, ErrBudgetTooSmall) {
			fmt.Fprintf(&tokens, " %d:small", budget)
			fmt.Fprintf(h, "budget %d: too small\n", budget)
			continue
		}
		require.NoError(t, err)
		text := c.Render()
		where := fmt.Sprintf("%s step %d budget %d", r.Source, target, budget)
		assert.Equal(t, extract.EstimateTokens(text), c.Tokens, where)
		if budget > 0 {
			assert.LessOrEqual(t, c.Tokens, budget, where)
		}
		assertShowsTarget(t, c, text, where)
		fmt.Fprintf(&tokens, " %d:%d", budget, c.Tokens)
		fmt.Fprintf(h, "budget %d:\n", budget)
		require.NoError(t, json.NewEncoder(h).Encode(c))
		h.Write([]byte(text))
	}
	return tokens.String()
}

// assertShowsTarget checks that the target step is in the context and its
// label in the rendering.
func assertShowsTarget(t *testing.T, c Context, text, where string) {
	t.Helper()
	e := c.Entries[c.Target]
	assert.True(t, e.IsTarget, where)
	assert.NotEqual(t, DetailOmitted, e.Detail, where)
	assert.Contains(t, text, e.label(), where)
}

// BenchmarkFitDev builds and fits the context of every tenth step of every
// dev run at 2000 tokens (extraction excluded).
func BenchmarkFitDev(b *testing.B) {
	type item struct {
		r *run.Run
		f *extract.RunFeatures
	}
	var items []item
	for _, path := range runtest.DevFiles(b) {
		r, err := run.Load(path, run.Options{})
		require.NoError(b, err)
		items = append(items, item{r, extract.Run(r)})
	}
	n := 0
	for b.Loop() {
		for _, it := range items {
			for target := 0; target < len(it.r.Steps); target += 10 {
				if _, err := BuildWithin(it.r, it.f, target, 2000); err != nil {
					b.Fatal(err)
				}
				n++
			}
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "contexts/s")
}
