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
	"github.com/offattr/offattr/run"
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

// TestAgentAfterAdaptation measures ways of naming the agent once weights
// are fitted on half of a system's runs (five deals, as
// TestAdaptationCurve deals them), each keeping the agent the one who
// answers for the blamed step: the rules' answer; the best-ranked step of
// the agent a label-free guess names (the busiest, the first, the last
// speaker); and the best-ranked step of the agent the step model gives the
// most probability, summed over its steps. It prints agent and step
// accuracy on the scored halves beside the best label-free floors, so
// that a choice of the agent is judged by both figures at once. It runs
// only when OFFATTR_ADAPT_TABLE is set.
func TestAgentAfterAdaptation(t *testing.T) {
	if os.Getenv("OFFATTR_ADAPT_TABLE") == "" {
		t.Skip("set OFFATTR_ADAPT_TABLE=1 to measure how adapted weights name the agent (a minute)")
	}
	exs := load(t, runtest.DevDir(t), runtest.TauDir(t), runtest.TrailDir(t))
	ctx := context.Background()
	names := rules.StepFeatureNames(rules.Registry)
	flagged := slices.Index(names, rules.FeatFlagged)
	// Each way returns the row it answers with, given the rows in the
	// order the engine ranks them and their probabilities.
	ways := []struct {
		name   string
		answer func(ex Example, order []int, p []float64) int
	}{
		{"rules", func(_ Example, order []int, _ []float64) int { return order[0] }},
		{"busiest agent's step", func(ex Example, order []int, _ []float64) int { return roleStep(ex, order, 0) }},
		{"first agent's step", func(ex Example, order []int, _ []float64) int { return roleStep(ex, order, 1) }},
		{"last agent's step", func(ex Example, order []int, _ []float64) int { return roleStep(ex, order, 2) }},
		{"most probable agent's step", mostProbableAgentStep},
	}
	var table strings.Builder
	fmt.Fprintf(&table, "\n%-20s %-28s %7s %7s   %s\n", "corpus", "agent named by", "agent", "step", "best floor a/s")
	for _, held := range FoldsByCorpus(exs) {
		mine, others := split(exs, held)
		prior, err := Fit(ctx, others, Options{Prior: EvidencePrior(rules.Registry)})
		require.NoError(t, err)
		preds := make([][]rules.Attribution, len(ways))
		var scored []Example
		for deal := range 5 {
			train, test := dealt(mine, len(mine)/2, deal)
			w, err := Fit(ctx, train, Options{Prior: prior})
			require.NoError(t, err)
			beta := priorVector(w, func(w *rules.Weights) map[string]float64 { return w.Step }, names)
			for _, ex := range test {
				p := rules.Softmax(ex.Rows, beta)
				order, _ := rules.AnswerOrder(w.Guess, w.AgentRole, ex.In, ex.Rows, rules.Rank(ex.Rows, p, w.Critical, flagged), p, flagged)
				for k, way := range ways {
					row := ex.Rows[way.answer(ex, order, p)]
					preds[k] = append(preds[k], rules.Attribution{Step: row.Step, Agent: row.Agent})
				}
				scored = append(scored, ex)
			}
		}
		agentFloor, stepFloor := bestFloors(scored)
		for k, way := range ways {
			_, all := Score(scored, preds[k])
			fmt.Fprintf(&table, "%-20s %-28s %7.3f %7.3f   %.3f / %.3f\n", mine[0].Corpus, way.name, all.AgentAccuracy, all.StepAccuracy, agentFloor, stepFloor)
		}
	}
	t.Log(table.String())
}

// roleStep is the first of the rows in order whose agent is the one the
// label-free guesses name (rules.AgentRoles: 0 the busiest, 1 the first,
// 2 the last speaker); order[0] when no row is that agent's.
func roleStep(ex Example, order []int, role int) int {
	busiest, first, last := rules.AgentRoles(ex.In.Run)
	key := []string{busiest, first, last}[role]
	for _, i := range order {
		if run.AgentKey(ex.Rows[i].Agent) == key {
			return i
		}
	}
	return order[0]
}

// mostProbableAgentStep is the first of the rows in order whose agent has
// the most of the step model's probability p, summed over its rows.
func mostProbableAgentStep(ex Example, order []int, p []float64) int {
	mass := map[string]float64{}
	for i, r := range ex.Rows {
		mass[run.AgentKey(r.Agent)] += p[i]
	}
	best := order[0]
	for _, i := range order {
		if mass[run.AgentKey(ex.Rows[i].Agent)] > mass[run.AgentKey(ex.Rows[best].Agent)] {
			best = i
		}
	}
	return best
}
