package fit

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
)

// wayCase is what a way of naming the agent reads of one held-out run:
// its rows in the order the engine ranks them, the step model's
// probability of each row, and that of a step model reading the rules'
// evidence alone (its structural weights zeroed).
type wayCase struct {
	ex       Example
	order    []int
	p        []float64
	evidence []float64
}

// agentWay names the agent whose best-ranked row answers a held-out run;
// "" keeps the rules' answer.
type agentWay struct {
	name  string
	agent func(c wayCase) string
}

// marginSteps are the margins by which another agent's summed probability
// must exceed that of the top step's agent for it to be named instead.
var marginSteps = []float64{0, 0.1, 0.2, 0.3, 0.5}

// agentWays are the ways measured: the rules' answer; the agent with the
// most probability summed over its rows ("probable", rules.AgentRoleNames);
// the same with the evidence-only model; summed over its flagged rows
// only; its mean over its rows; summed over the top k rows of the order;
// the most probable agents when the top step is not flagged; the most
// probable when the top step's agent holds less than a third of the
// probability; the top step's agent unless another's summed probability
// exceeds it by a margin; and the agent of the first step that states a
// value the final answer carries.
func agentWays(flagged int) []agentWay {
	ways := []agentWay{
		{"rules", func(wayCase) string { return "" }},
		{"most probable (sum p)", func(c wayCase) string { return mostMass(c, c.p, allRows) }},
		{"most evidence (sum p, rules only)", func(c wayCase) string { return mostMass(c, c.evidence, allRows) }},
		{"most flagged mass", func(c wayCase) string {
			return mostMass(c, c.p, func(c wayCase, i int) bool { return c.ex.Rows[i].X[flagged] > 0 })
		}},
		{"highest mean p", meanMass},
		{"most mass in top 3", func(c wayCase) string { return mostMass(c, c.p, topRows(3)) }},
		{"most mass in top 5", func(c wayCase) string { return mostMass(c, c.p, topRows(5)) }},
	}
	unflagged := func(c wayCase) bool { return c.ex.Rows[c.order[0]].X[flagged] == 0 }
	ways = append(ways,
		agentWay{"most probable if top step unflagged", func(c wayCase) string {
			if unflagged(c) {
				return mostMass(c, c.p, allRows)
			}
			return ""
		}},
		agentWay{"most flagged mass if top unflagged", func(c wayCase) string {
			if unflagged(c) {
				return mostMass(c, c.p, func(c wayCase, i int) bool { return c.ex.Rows[i].X[flagged] > 0 })
			}
			return ""
		}},
		agentWay{"top agent unless it holds < 1/3 mass", func(c wayCase) string {
			mass := masses(c, c.p, allRows)
			if mass[run.AgentKey(c.ex.Rows[c.order[0]].Agent)] < 1.0/3 {
				return bestOf(c, mass)
			}
			return ""
		}},
	)
	for _, m := range marginSteps[1:] {
		ways = append(ways, agentWay{fmt.Sprintf("top agent unless margin %.1f", m), func(c wayCase) string { return marginAgent(c, m) }})
	}
	return append(ways, agentWay{"first to state the answer's value", valueOrigin})
}

// allRows counts every row.
func allRows(wayCase, int) bool { return true }

// topRows counts the first k rows of the order.
func topRows(k int) func(c wayCase, i int) bool {
	return func(c wayCase, i int) bool { return slices.Index(c.order, i) < k }
}

// masses sums p over the rows counted, by agent (run.AgentKey).
func masses(c wayCase, p []float64, counted func(wayCase, int) bool) map[string]float64 {
	mass := map[string]float64{}
	for i, r := range c.ex.Rows {
		if counted(c, i) {
			mass[run.AgentKey(r.Agent)] += p[i]
		}
	}
	return mass
}

// bestOf is the agent with the most of mass; of agents holding as much,
// the one whose row comes first in the order; "" when none holds any.
func bestOf(c wayCase, mass map[string]float64) string {
	best := ""
	for _, i := range c.order {
		if key := run.AgentKey(c.ex.Rows[i].Agent); mass[key] > 0 && (best == "" || mass[key] > mass[best]) {
			best = key
		}
	}
	return best
}

// mostMass is the agent holding the most of p over the rows counted.
func mostMass(c wayCase, p []float64, counted func(wayCase, int) bool) string {
	return bestOf(c, masses(c, p, counted))
}

// meanMass is the agent whose rows' mean probability is highest.
func meanMass(c wayCase) string {
	mass, n := masses(c, c.p, allRows), map[string]float64{}
	for _, r := range c.ex.Rows {
		n[run.AgentKey(r.Agent)]++
	}
	for k := range mass {
		mass[k] /= n[k]
	}
	return bestOf(c, mass)
}

// marginAgent is the agent of the top step, unless another agent's summed
// probability exceeds its own by more than margin.
func marginAgent(c wayCase, margin float64) string {
	mass := masses(c, c.p, allRows)
	top, best := run.AgentKey(c.ex.Rows[c.order[0]].Agent), bestOf(c, mass)
	if best != "" && mass[best] > mass[top]+margin {
		return best
	}
	return top
}

// valueOrigin is the agent answering for the first step whose claims hold
// a value the final answer states (or that the answer's words state and an
// earlier step's text holds); "" when the run has no such step.
func valueOrigin(c wayCase) string {
	f := c.ex.In.Features
	if f == nil || f.FinalAnswer == nil {
		return ""
	}
	fa := f.FinalAnswer
	agentOf := map[int]string{}
	for _, r := range c.ex.Rows {
		agentOf[r.Step] = run.AgentKey(r.Agent)
	}
	first := -1
	for _, claim := range fa.Claims {
		for j := range f.Steps {
			if j >= fa.Step || first >= 0 && j >= first {
				break
			}
			if _, ok := agentOf[j]; ok && slices.ContainsFunc(f.Steps[j].Claims, func(x extract.Claim) bool { return x.Norm == claim.Norm }) {
				first = j
			}
		}
	}
	for _, steps := range fa.Seen {
		for _, j := range steps {
			if _, ok := agentOf[j]; ok && j < fa.Step && (first < 0 || j < first) {
				first = j
			}
		}
	}
	if first < 0 {
		return ""
	}
	return agentOf[first]
}

// wayAnswer is the attribution a way gives: the best-ranked row of the
// agent it names moved to the front of the order (the order as it is when
// it names none, or no row is that agent's).
func wayAnswer(c wayCase, agent string) rules.Attribution {
	order := c.order
	if agent != "" {
		if k := slices.IndexFunc(order, func(i int) bool { return run.AgentKey(c.ex.Rows[i].Agent) == agent }); k > 0 {
			order = append([]int{order[k]}, slices.Delete(slices.Clone(order), k, k+1)...)
		}
	}
	a := rules.Attribution{Step: c.ex.Rows[order[0]].Step, Agent: c.ex.Rows[order[0]].Agent}
	for _, i := range order {
		a.Candidates = append(a.Candidates, rules.Candidate{Step: c.ex.Rows[i].Step, Agent: c.ex.Rows[i].Agent})
	}
	return a
}

// heldOutCases fits on all folds but one and reads each run of the one
// held out as the ways read it, for every fold, in the examples' order.
func heldOutCases(ctx context.Context, t *testing.T, exs []Example, folds [][]int) []wayCase {
	t.Helper()
	names := rules.StepFeatureNames(rules.Registry)
	flagged := slices.Index(names, rules.FeatFlagged)
	out := make([]wayCase, len(exs))
	for _, test := range folds {
		w, err := Fit(ctx, without(exs, test), Options{Prior: EvidencePrior(rules.Registry)})
		require.NoError(t, err)
		beta := priorVector(w, func(w *rules.Weights) map[string]float64 { return w.Step }, names)
		evidence := slices.Clone(beta)
		for k, n := range names {
			if !strings.HasPrefix(strings.TrimPrefix(n, rules.ToolsPrefix), rules.RuleFeature("")) {
				evidence[k] = 0
			}
		}
		for _, i := range test {
			ex := exs[i]
			p := rules.Softmax(ex.Rows, beta)
			order, _ := rules.AnswerOrder(w.Guess, w.AgentRole, ex.In, ex.Rows, rules.Rank(ex.Rows, p, w.Critical, flagged), p, flagged)
			out[i] = wayCase{ex: ex, order: order, p: p, evidence: rules.Softmax(ex.Rows, evidence)}
			// The measure reads the order the engine answers from.
			a, engine := wayAnswer(out[i], ""), Predict(w, ex, rules.Registry)
			assert.Equal(t, [2]any{engine.Step, engine.Agent}, [2]any{a.Step, a.Agent}, "%s: the rules' way answers otherwise than the engine", ex.Name)
		}
	}
	return out
}

// chosenMargin is the margin (marginSteps) whose answers name the agent
// best on the worst of the systems of cases (each run read with weights
// fitted without its system); of margins as good, the largest (the
// nearest to the rules' answer).
func chosenMargin(cases []wayCase) float64 {
	exs := make([]Example, len(cases))
	for i, c := range cases {
		exs[i] = c.ex
	}
	best, bestWorst := 0.0, -1.0
	for _, m := range marginSteps {
		preds := make([]rules.Attribution, len(cases))
		for i, c := range cases {
			preds[i] = wayAnswer(c, marginAgent(c, m))
		}
		subsets, _ := Score(exs, preds)
		worst := 1.0
		for _, s := range subsets {
			worst = min(worst, s.AgentAccuracy)
		}
		if worst >= bestWorst {
			best, bestWorst = m, worst
		}
	}
	return best
}

// agentRows returns the agents of a case (run.AgentKey, in the order their
// best rows rank) and a row of features for each: the log of its best
// row's probability, of its rows' summed probability and of its share of
// the rows; whether it answers for the top row; its flagged rows' summed
// probability; and its probability summed over the top five rows.
func agentRows(c wayCase, flagged int) ([]string, []rules.StepRow) {
	var keys []string
	best, sum, n, flaggedMass, top5 := map[string]float64{}, map[string]float64{}, map[string]float64{}, map[string]float64{}, map[string]float64{}
	for k, i := range c.order {
		key := run.AgentKey(c.ex.Rows[i].Agent)
		if !slices.Contains(keys, key) {
			keys = append(keys, key)
		}
		best[key] = max(best[key], c.p[i])
		sum[key] += c.p[i]
		n[key]++
		if c.ex.Rows[i].X[flagged] > 0 {
			flaggedMass[key] += c.p[i]
		}
		if k < 5 {
			top5[key] += c.p[i]
		}
	}
	rows := make([]rules.StepRow, len(keys))
	for j, key := range keys {
		top := 0.0
		if j == 0 {
			top = 1
		}
		rows[j] = rules.StepRow{Step: j, X: []float64{
			math.Log(max(best[key], 1e-12)), math.Log(max(sum[key], 1e-12)), math.Log(n[key] / float64(len(c.order))),
			top, flaggedMass[key], top5[key],
		}}
	}
	return keys, rows
}

// agentModel fits, on cases (each read with weights fitted without its
// system), a conditional logit over each run's agents (agentRows) for the
// labelled one, pulled toward naming the top row's agent.
func agentModel(ctx context.Context, t *testing.T, cases []wayCase, flagged int) []float64 {
	t.Helper()
	var groups []group
	for _, c := range cases {
		keys, rows := agentRows(c, flagged)
		target := slices.IndexFunc(keys, func(k string) bool {
			return slices.ContainsFunc(c.ex.Rows, func(r rules.StepRow) bool {
				return run.AgentKey(r.Agent) == k && run.NamesAgent(c.ex.Label.Agent, r.Agent)
			})
		})
		if target >= 0 && len(rows) > 1 {
			groups = append(groups, group{rows: rows, target: target})
		}
	}
	prior := []float64{0, 0, 0, 1, 0, 0}
	beta, err := conditionalLogit(ctx, groups, prior, evenPull(1, len(prior)), nil)
	require.NoError(t, err)
	return beta
}

// modelAgent is the agent the fitted agent model finds likeliest.
func modelAgent(c wayCase, beta []float64, flagged int) string {
	keys, rows := agentRows(c, flagged)
	p := rules.Softmax(rows, beta)
	return keys[slices.Index(p, slices.Max(p))]
}

// TestAgentWaysHeldOut measures ways of naming the agent on systems the
// weights never saw: each labelled system scored with weights fitted on
// the others (and, beside it, five folds of all runs), in both readings of
// TRAIL, every way keeping the agent the one who answers for the blamed
// step (agentWays; the top step's agent unless another's summed
// probability exceeds it by a margin, and a conditional logit over each
// run's agents (agentRows), each chosen on the training runs alone by
// holding each of their systems out). It prints agent, step and recall@5
// per system and way, the worst system's and the mean, and the runs whose
// agent each way names rightly where the rules do not and the other way
// round, so that a way is judged on the system it does worst on and on
// how many runs decide it. It checks that the rules' way answers as the
// engine does. It fits some eighty times, so it runs only when
// OFFATTR_AGENT_WAYS is set (a directory, else the shared data;
// OFFATTR_BAND_SET keeps one reading).
func TestAgentWaysHeldOut(t *testing.T) {
	root := os.Getenv("OFFATTR_AGENT_WAYS")
	if root == "" {
		t.Skip("set OFFATTR_AGENT_WAYS=1 to measure ways of naming the agent on held-out systems (minutes)")
	}
	ctx := context.Background()
	names := rules.StepFeatureNames(rules.Registry)
	flagged := slices.Index(names, rules.FeatFlagged)
	ways := agentWays(flagged)
	var table strings.Builder
	for _, set := range loadReadings(ctx, t, root, os.Getenv("OFFATTR_BAND_SET")) {
		exs := set.exs
		for _, scheme := range []struct {
			name  string
			folds [][]int
		}{{"held out by system", FoldsByCorpus(exs)}, {"5 folds", KFolds(exs, 5)}} {
			cases := heldOutCases(ctx, t, exs, scheme.folds)
			// Load reads each corpus's runs together, in Score's order.
			systems := slices.Compact(corporaOfExamples(exs))
			margin := make([]rules.Attribution, len(cases))
			modelled := make([]rules.Attribution, len(cases))
			var chosen []string
			for _, test := range scheme.folds {
				train := without(exs, test)
				inner := heldOutCases(ctx, t, train, FoldsByCorpus(train))
				m := chosenMargin(inner)
				beta := agentModel(ctx, t, inner, flagged)
				chosen = append(chosen, fmt.Sprintf("%.1f", m))
				t.Logf("[%s] %s: agent model %.2f", set.name, scheme.name, beta)
				for _, i := range test {
					margin[i] = wayAnswer(cases[i], marginAgent(cases[i], m))
					modelled[i] = wayAnswer(cases[i], modelAgent(cases[i], beta, flagged))
				}
			}
			fmt.Fprintf(&table, "\n[%s] %s: agent / step / recall@5 (margins chosen per fold: %s)\n%-36s", set.name, scheme.name, strings.Join(chosen, " "), "agent named by")
			for _, c := range systems {
				fmt.Fprintf(&table, " %19.19s", c)
			}
			fmt.Fprintf(&table, " %19s %19s  %s\n", "worst", "mean", "agent won/lost against the rules, by system")
			rulesRight := make([]bool, len(cases))
			for i, c := range cases {
				rulesRight[i] = run.NamesAgent(c.ex.Label.Agent, wayAnswer(c, "").Agent)
			}
			row := func(name string, preds []rules.Attribution) {
				// Runs whose agent the way names rightly where the rules
				// do not (won) and the other way round (lost), by system.
				var changed []string
				for _, c := range systems {
					won, lost := 0, 0
					for i, ex := range exs {
						if right := run.NamesAgent(ex.Label.Agent, preds[i].Agent); ex.Corpus == c && right != rulesRight[i] {
							if right {
								won++
							} else {
								lost++
							}
						}
					}
					changed = append(changed, fmt.Sprintf("+%d-%d", won, lost))
				}
				defer fmt.Fprintf(&table, "  %s\n", strings.Join(changed, " "))
				subsets, _ := Score(exs, preds)
				fmt.Fprintf(&table, "%-36s", name)
				worst := [3]float64{1, 1, 1}
				var mean [3]float64
				for _, s := range subsets {
					f := [3]float64{s.AgentAccuracy, s.StepAccuracy, s.RecallAt["5"]}
					fmt.Fprintf(&table, " %5.3f/%5.3f/%5.3f", f[0], f[1], f[2])
					for k := range f {
						worst[k] = min(worst[k], f[k])
						mean[k] += f[k] / float64(len(subsets))
					}
				}
				fmt.Fprintf(&table, " %5.3f/%5.3f/%5.3f %5.3f/%5.3f/%5.3f", worst[0], worst[1], worst[2], mean[0], mean[1], mean[2])
			}
			for _, way := range ways {
				preds := make([]rules.Attribution, len(cases))
				for i, c := range cases {
					preds[i] = wayAnswer(c, way.agent(c))
				}
				row(way.name, preds)
			}
			row("top agent unless chosen margin", margin)
			row("agent model fitted held out", modelled)
		}
	}
	t.Log(table.String())
}
