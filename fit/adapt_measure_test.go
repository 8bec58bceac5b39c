package fit

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/eval"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run/runtest"
)

// TestAdaptationCurve measures what a user's own labelled runs buy: for
// each labelled system, weights are fitted on the other systems, then
// fitted again, pulled toward them, on n runs of this one (dealt five
// ways), and score the rest of its runs. It prints agent and step accuracy
// by n beside, on the same scored runs, what the weights of the other
// systems alone answer and the best label-free floors: with a few dozen
// runs a deal's half can differ from the whole by several points, so a
// floor is measured on the runs it is compared with. It checks the promise
// of adaptation: fitted on half of a system's runs, step accuracy on the
// other half is at least the best floor's there. It fits some hundred
// times, so it runs only when OFFATTR_ADAPT_TABLE is set.
func TestAdaptationCurve(t *testing.T) {
	if os.Getenv("OFFATTR_ADAPT_TABLE") == "" {
		t.Skip("set OFFATTR_ADAPT_TABLE=1 to measure adaptation by the number of runs (a minute)")
	}
	exs := load(t, runtest.DevDir(t), runtest.TauDir(t), runtest.TrailDir(t))
	ctx := context.Background()
	base := Options{Prior: EvidencePrior(rules.Registry)}

	var table strings.Builder
	fmt.Fprintf(&table, "\n%-20s %5s %6s %7s %7s   %-15s   %s\n", "corpus", "runs", "fitted", "agent", "step", "unadapted a/s", "best floor a/s")
	for _, held := range FoldsByCorpus(exs) {
		mine, others := split(exs, held)
		corpus := mine[0].Corpus
		prior, err := Fit(ctx, others, base)
		require.NoError(t, err)
		adapt := Options{Prior: prior}
		for _, n := range []int{0, 5, 10, 20, 40, len(mine) / 2} {
			if n > len(mine)/2 {
				continue
			}
			var preds, unadapted []rules.Attribution
			var scored []Example
			for deal := range 5 {
				train, test := dealt(mine, n, deal)
				w := prior
				if n > 0 {
					w, err = Fit(ctx, train, adapt)
					require.NoError(t, err)
				}
				for _, ex := range test {
					preds = append(preds, Predict(w, ex, rules.Registry))
					unadapted = append(unadapted, Predict(prior, ex, rules.Registry))
					scored = append(scored, ex)
				}
				if n == 0 {
					break // nothing dealt: one deal says it all
				}
			}
			_, all := Score(scored, preds)
			_, before := Score(scored, unadapted)
			agentFloor, stepFloor := bestFloors(scored)
			fmt.Fprintf(&table, "%-20s %5d %6d %7.3f %7.3f   %.3f / %.3f   %.3f / %.3f\n", corpus, len(mine), n, all.AgentAccuracy, all.StepAccuracy, before.AgentAccuracy, before.StepAccuracy, agentFloor, stepFloor)
			if n == len(mine)/2 {
				assert.GreaterOrEqual(t, all.StepAccuracy, stepFloor, "%s: fitted on half its runs, below its best label-free step floor", corpus)
			}
		}
	}
	t.Log(table.String())
}

// split returns the examples at the indices held, and the others.
func split(exs []Example, held []int) (in, out []Example) {
	for _, i := range held {
		in = append(in, exs[i])
	}
	return in, without(exs, held)
}

// dealt deals n of exs to fit on and the rest to score, in an order set by
// a hash of each run's name and the deal's number.
func dealt(exs []Example, n, deal int) (train, test []Example) {
	key := func(ex Example) uint64 {
		h := fnv.New64a()
		fmt.Fprintf(h, "%d/%s", deal, filepath.Base(ex.Name))
		return h.Sum64()
	}
	order := slices.Clone(exs)
	slices.SortStableFunc(order, func(a, b Example) int {
		switch ka, kb := key(a), key(b); {
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		return 0
	})
	return order[:n], order[n:]
}

// bestFloors returns the best agent and the best step accuracy of the
// label-free guesses on exs, each on its own.
func bestFloors(exs []Example) (agent, step float64) {
	floors := map[string]eval.Accuracy{}
	for _, b := range rules.LabelFreeBaselines() {
		_, all := Score(exs, Guessed(b, exs))
		floors[b] = eval.Accuracy{AgentAccuracy: all.AgentAccuracy, StepAccuracy: all.StepAccuracy}
	}
	best := eval.BestFloor(floors)
	return best.AgentAccuracy, best.StepAccuracy
}
