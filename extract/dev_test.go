package extract

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/run/runtest"
)

// devRuns loads every dev run, keyed "Subset/N.json", in a stable order.
func devRuns(t testing.TB) (names []string, runs map[string]*run.Run) {
	runs = map[string]*run.Run{}
	for _, r := range runtest.DevRuns(t) {
		name := runtest.Name(r.Source)
		names = append(names, name)
		runs[name] = r
	}
	return names, runs
}

var (
	devOnce     sync.Once
	devFeatures map[string]*RunFeatures
)

// extracted returns the features of every dev run, extracted once for all
// the tests that read them.
func extracted(t testing.TB) (names []string, runs map[string]*run.Run, features map[string]*RunFeatures) {
	names, runs = devRuns(t)
	devOnce.Do(func() {
		devFeatures = map[string]*RunFeatures{}
		for _, n := range names {
			devFeatures[n] = Run(runs[n])
		}
	})
	return names, runs, devFeatures
}

func TestDevRuns(t *testing.T) {
	names, runs, features := extracted(t)
	for _, name := range names {
		r := runs[name]
		rf := features[name]
		require.Len(t, rf.Steps, len(r.Steps), name)
		for i, f := range rf.Steps {
			assert.Equal(t, i, f.Index, name)
			assert.NotEmpty(t, f.Kinds, "%s step %d", name, i)
			assert.Equal(t, f.Kind, f.Kinds[0], "%s step %d", name, i)
			assert.NotEmpty(t, f.ContextType, "%s step %d", name, i)
			assert.LessOrEqual(t, len(strings.Fields(f.Reductions.KeyDecision)), KeyDecisionWords)
			for _, c := range f.Claims {
				if f.Ledger == nil {
					assert.Equal(t, c.Text, r.Steps[i].Content[c.Offset:c.Offset+len(c.Text)], "%s step %d", name, i)
				}
			}
			for _, s := range append(f.Errors, f.Successes...) {
				assert.True(t, s.Offset >= 0 && s.Offset <= len(r.Steps[i].Content), "%s step %d", name, i)
			}
		}
	}
}

// TestDevCoverage measures, on the dev half, how often each extractor fired
// rather than fell back. It asserts only loose floors; run it with -v to
// read the figures.
func TestDevCoverage(t *testing.T) {
	names, _, features := extracted(t)
	type counts struct {
		steps, fallback                                 int
		bySource                                        map[string]int
		kinds                                           map[StepKind]int
		otar, ledger, target, errors, successes, claims int
		final                                           map[string]int
		runs                                            int
	}
	subsets := map[string]*counts{}
	for _, name := range names {
		subset := filepath.Dir(name)
		c := subsets[subset]
		if c == nil {
			c = &counts{bySource: map[string]int{}, kinds: map[StepKind]int{}, final: map[string]int{}}
			subsets[subset] = c
		}
		rf := features[name]
		c.runs++
		if rf.FinalAnswer != nil {
			c.final[rf.FinalAnswer.Source]++
		} else {
			c.final["none"]++
		}
		for _, f := range rf.Steps {
			c.steps++
			for _, level := range []string{LevelKeyDecision, LevelSummary, LevelMilestone} {
				src := f.Reductions.Sources[level]
				if strings.HasPrefix(src, "pattern:") {
					src = "pattern"
				}
				c.bySource[level+" "+src]++
			}
			if f.Reductions.Fallback[LevelKeyDecision] {
				c.fallback++
			}
			for _, k := range f.Kinds {
				c.kinds[k]++
			}
			if f.OTAR != (OTAR{}) {
				c.otar++
			}
			if f.Ledger != nil {
				c.ledger++
			}
			if f.Target != "" {
				c.target++
			}
			if len(f.Errors) > 0 {
				c.errors++
			}
			if len(f.Successes) > 0 {
				c.successes++
			}
			if len(f.Claims) > 0 {
				c.claims++
			}
		}
	}
	pct := func(n, d int) string { return fmt.Sprintf("%5.1f%%", 100*float64(n)/float64(d)) }
	for _, subset := range sortedKeys(subsets) {
		c := subsets[subset]
		t.Logf("%s: %d runs, %d steps", subset, c.runs, c.steps)
		for _, k := range sortedKeys(c.bySource) {
			t.Logf("  reduction %-28s %s", k, pct(c.bySource[k], c.steps))
		}
		for _, k := range sortedKeys(c.kinds) {
			t.Logf("  kind %-16s %s", k, pct(c.kinds[k], c.steps))
		}
		t.Logf("  OTAR (any part) %s, ledger %s, target %s, error signal %s, success signal %s, claims %s",
			pct(c.otar, c.steps), pct(c.ledger, c.steps), pct(c.target, c.steps), pct(c.errors, c.steps), pct(c.successes, c.steps), pct(c.claims, c.steps))
		for _, k := range sortedKeys(c.final) {
			t.Logf("  final answer from %-12s %s of runs", k, pct(c.final[k], c.runs))
		}
		assert.Less(t, c.fallback, c.steps, "%s: every key decision fell back", subset)
	}
}

func sortedKeys[K ~string, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}

// BenchmarkExtractDev extracts every dev run once per iteration.
func BenchmarkExtractDev(b *testing.B) {
	names, runs := devRuns(b)
	steps, bytes := 0, 0
	for _, n := range names {
		steps += len(runs[n].Steps)
		for _, s := range runs[n].Steps {
			bytes += len(s.Content)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, n := range names {
			Run(runs[n])
		}
	}
	b.ReportMetric(float64(len(names)), "runs/op")
	b.ReportMetric(float64(steps)*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
	b.ReportMetric(float64(bytes)/1e6, "MB/op")
}
