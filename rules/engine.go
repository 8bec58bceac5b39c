package rules

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/run"
)

// Input is everything the rules read about one run. Run.Label is never set
// here: callers strip it.
type Input struct {
	Run      *run.Run
	Features *extract.RunFeatures
	Graph    *graph.Graph
}

// Finding is one rule's observation about one step: positive scores
// implicate the step as the decisive fault, negative ones exonerate it.
type Finding struct {
	Rule   string
	Step   int
	Score  float64 // in [-1, 1]
	Quote  string
	Reason string
}

// Rule is a named deterministic check. Weight scales its findings in the
// combiner; the weights are part of the rule set, documented in the README.
type Rule struct {
	Name   string
	Weight float64
	Apply  func(in *Input) []Finding
}

// Default is the rule set behind analyze, eval and screen, in the order the
// rationale lists them.
var Default = []Rule{
	{"local_fault", 1.0, LocalFault},
	{"data_flow_origin", 1.0, DataFlowOrigin},
	{"ground_truth_contradiction", 1.0, GroundTruthContradiction},
	{"planning_control", 0.3, PlanningControl},
	{"feedback", 0.6, Feedback},
	{"premature_satisfaction", 1.0, PrematureSatisfaction},
	{"unverified_approval", 1.0, UnverifiedApproval},
	{"unsupported_claim", 0.7, UnsupportedClaim},
	{"reversibility", 0.8, Reversibility},
	{"trial_first_fault", 0.5, TrialFirstFault},
}

// Attribute runs the default rules and combines their findings.
func Attribute(in *Input) Attribution {
	a, _ := Combine(in, Default)
	return a
}

// scored is a step's combined evidence.
type scored struct {
	step     int
	score    float64
	findings []Finding
}

// Combine applies rules and ranks steps by the weighted sum of their
// findings; ties go to the earlier step, because the decisive fault is the
// first critical one (RAFFLES Def. 3.5). It returns every finding too, in
// step order, for a reader who wants to see what each rule said where.
func Combine(in *Input, rs []Rule) (Attribution, []Finding) {
	n := len(in.Run.Steps)
	byStep := make([]scored, n)
	for i := range byStep {
		byStep[i].step = i
	}
	for _, r := range rs {
		for _, f := range r.Apply(in) {
			if f.Step < 0 || f.Step >= n || f.Score == 0 {
				continue
			}
			f.Rule = r.Name
			byStep[f.Step].score += r.Weight * f.Score
			byStep[f.Step].findings = append(byStep[f.Step].findings, f)
		}
	}
	for i := range byStep {
		if byStep[i].score > 0 && in.Features.Steps[i].Has(extract.KindTask) {
			// A brief that restates the task carries the task's own values
			// and wording: what looks new in it is mostly the user's request
			// rephrased, so its evidence counts half.
			byStep[i].score *= 0.5
		}
		byStep[i].score += eligibility(in, i)
	}
	ranked := rank(byStep)

	a := Attribution{File: in.Run.Source, Mode: ModeRules, Evidence: []Evidence{}, Candidates: []Candidate{}}
	for _, s := range ranked {
		if s.score <= 0 && len(a.Candidates) > 0 {
			break
		}
		a.Candidates = append(a.Candidates, Candidate{Step: s.step, Agent: responsible(in, s.step), Score: round(s.score), Rules: ruleNames(s.findings)})
	}
	top := ranked[0]
	a.Step, a.Agent = top.step, responsible(in, top.step)
	a.Confidence = confidence(ranked)
	for _, f := range top.findings {
		if f.Score > 0 {
			a.Evidence = append(a.Evidence, Evidence{Rule: f.Rule, Step: f.Step, Quote: f.Quote})
		}
	}
	a.Rationale = explain(in, ranked)
	var all []Finding
	for _, s := range byStep {
		all = append(all, s.findings...)
	}
	return a, all
}

// criticalShare is how close to the best score a step must come to count
// as a critical fault; among critical faults the earliest is decisive
// (RAFFLES Def. 3.5), so they are ranked by position before the rest.
var criticalShare = 0.5

// rank orders steps: the critical ones (within criticalShare of the best
// score) first, earliest first, then the rest by score.
func rank(byStep []scored) []scored {
	best := 0.0
	for _, s := range byStep {
		best = math.Max(best, s.score)
	}
	critical := func(s scored) bool { return best > 0 && s.score >= criticalShare*best }
	ranked := append([]scored(nil), byStep...)
	sort.SliceStable(ranked, func(a, b int) bool {
		ca, cb := critical(ranked[a]), critical(ranked[b])
		if ca != cb {
			return ca
		}
		if ca || ranked[a].score == ranked[b].score {
			return ranked[a].step < ranked[b].step
		}
		return ranked[a].score > ranked[b].score
	})
	return ranked
}

// eligibility is the small standing every step has before any rule fires:
// an agent's own message can be a fault; the task, system prompts and
// tool output are not decisions.
func eligibility(in *Input, i int) float64 {
	s := in.Run.Steps[i]
	switch s.Kind {
	case run.KindUser, run.KindSystem:
		return -1
	}
	f := &in.Features.Steps[i]
	switch {
	case f.Has(extract.KindTask):
		return -0.05
	case f.Has(extract.KindToolResult) && !ownsResult(in, i):
		return -0.2
	case f.Has(extract.KindTermination):
		return -0.3
	}
	return 0.01
}

// responsible names the agent to blame for step i: the speaker, except that
// a tool's output is blamed on the agent that called the tool.
func responsible(in *Input, i int) string {
	if c := callerOf(in, i); c >= 0 {
		return in.Run.Steps[c].Agent
	}
	return in.Run.Steps[i].Agent
}

// confidence maps the winner's strength (its score) and its margin over the
// strongest other step to [0.05, 0.95]. The margin can be negative: an
// earlier critical fault wins over a stronger later one, with less
// confidence. The README states accuracy per confidence bin.
func confidence(ranked []scored) float64 {
	top := ranked[0].score
	if top <= 0 {
		return 0.05
	}
	other := 0.0
	for _, s := range ranked[1:] {
		other = math.Max(other, s.score)
	}
	margin := (top - other) / math.Max(top, other) // in [-1, 1]
	strength := 1 - math.Exp(-top)
	return round(0.05 + 0.9*strength*(0.5+0.5*margin))
}

func ruleNames(fs []Finding) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, f := range fs {
		if f.Score > 0 && !seen[f.Rule] {
			seen[f.Rule] = true
			out = append(out, f.Rule)
		}
	}
	return out
}

func round(x float64) float64 { return math.Round(x*1000) / 1000 }

// explain writes the rationale: which rules fired on the chosen step and
// what the runners-up had.
func explain(in *Input, ranked []scored) string {
	top := ranked[0]
	var b strings.Builder
	fmt.Fprintf(&b, "Step %d (%s) is the most likely decisive fault", top.step, responsible(in, top.step))
	var pos []Finding
	for _, f := range top.findings {
		if f.Score > 0 {
			pos = append(pos, f)
		}
	}
	if len(pos) == 0 {
		b.WriteString(", though no rule found direct evidence against any step; it is the earliest eligible step.")
		return b.String()
	}
	b.WriteString(":")
	for _, f := range pos {
		fmt.Fprintf(&b, " %s — %s.", f.Rule, f.Reason)
	}
	for _, f := range top.findings {
		if f.Score < 0 {
			fmt.Fprintf(&b, " Against it, %s: %s.", f.Rule, f.Reason)
		}
	}
	if len(ranked) > 1 && len(ruleNames(ranked[1].findings)) > 0 {
		r := ranked[1]
		fmt.Fprintf(&b, " Runner-up: step %d (%s, %s).", r.step, responsible(in, r.step), strings.Join(ruleNames(r.findings), ", "))
	}
	return b.String()
}
