package hierarchy

import (
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/run/runtest"
)

// budgets are the token budgets the dev test fits every context to.
var budgets = []int{150, 300, 500, 1000, 2000, 4000, 8000, 16000}

// TestDevBudgets fits contexts of dev steps to every budget: the rendering
// never exceeds the budget and the target step is always there. Every step
// of the short Algorithm-Generated runs is a target; in the long
// Hand-Crafted runs every seventh step and the last are.
func TestDevBudgets(t *testing.T) {
	largest := map[int]int{}
	sizes := map[int][]int{}
	unbounded := 0
	contexts := 0
	for _, path := range runtest.DevFiles(t) {
		r, err := run.Load(path, run.Options{})
		require.NoError(t, err)
		f := extract.Run(r)
		for target := range r.Steps {
			if len(r.Steps) > 20 && target%7 != 0 && target != len(r.Steps)-1 {
				continue
			}
			c, err := Build(r, f, target)
			require.NoError(t, err)
			unbounded = max(unbounded, c.Tokens)
			for _, budget := range budgets {
				fitted, err := Fit(c, budget)
				require.NoError(t, err, "%s step %d budget %d", path, target, budget)
				text := fitted.Render()
				tokens := extract.EstimateTokens(text)
				assert.LessOrEqual(t, tokens, budget, "%s step %d", path, target)
				assert.Equal(t, tokens, fitted.Tokens)
				e := fitted.Entries[target]
				assert.NotEqual(t, DetailOmitted, e.Detail)
				assert.Contains(t, text, e.label(), "%s step %d budget %d", path, target, budget)
				largest[budget] = max(largest[budget], tokens)
				sizes[budget] = append(sizes[budget], tokens)
				contexts++
			}
		}
	}
	for _, b := range budgets {
		sort.Ints(sizes[b])
		t.Logf("budget %5d: largest context %5d tokens, median %5d", b, largest[b], sizes[b][len(sizes[b])/2])
	}
	t.Logf("unbounded: largest context %d tokens; %d fitted contexts checked", unbounded, contexts)
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
		if err != nil {
			b.Fatal(err)
		}
		items = append(items, item{r, extract.Run(r)})
	}
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
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
