package rules

import (
	"fmt"
	"slices"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/run"
)

// planningControl reads CHIEF's loop groups (repeated plan–execute cycles).
// The planner is responsible when it repeats near-identical instructions
// although the execution in between signalled failure; the executor is
// responsible when the planner changed strategy and execution still failed.
func planningControl(in *Input) []Finding {
	var out []Finding
	if f, ok := loopAtLimit(in); ok {
		out = append(out, f)
	}
	for _, lg := range in.Graph.LoopGroups() {
		failedExec := -1
		for _, e := range lg.Executor {
			if executionFailed(in, e) {
				failedExec = e
				break
			}
		}
		if failedExec < 0 {
			continue
		}
		if p, prev := repeatedAfter(in, lg.Planner, failedExec); p >= 0 {
			out = append(out, Finding{Step: p, Strength: 0.8, Quote: quoteAt(in, p, 0, 0),
				Reason: fmt.Sprintf("it repeats the instruction of step %d although step %d had failed", prev, failedExec)})
			continue
		}
		out = append(out, Finding{Step: failedExec, Strength: 0.6, Quote: quoteAt(in, failedExec, 0, 0),
			Reason: "the executor keeps failing at the same action while the planner's instructions change"})
	}
	return out
}

// PlanningControl is the planning_control analyzer.
var PlanningControl = &Analyzer{Name: "planning_control", Run: planningControl, Requires: []Fact{FactTrials, FactInstructs, FactSignals, FactVerdicts, FactKinds, FactToolCalls},
	Doc: "in a loop group: a planner repeating an instruction after a failure, or an executor failing a changed strategy (CHIEF planning control); in a run stopped at its turn limit, the action that first brought back a result already seen, in the loop still going when it stopped"}

// loopAtLimit reads a run that was stopped at its turn limit while it
// looped: the loop group still going when the limit came (the one holding
// the last step before it other than bookkeeping), and in it the first
// result that repeats an earlier result of the group unchanged where the
// step answerable for it (the call whose output it is, or the instruction
// it carries out) redoes the action that gave the earlier one. That step
// (or the ledger that decided the instruction) repeated an action whose
// result had already been seen and had not failed: from there on the run
// only went round until its turns ran out. A loop after a failed result is the failure's
// (the loop groups' reading below), not the repeat's.
func loopAtLimit(in *Input) (Finding, bool) {
	steps := in.Features.Steps
	limit := slices.IndexFunc(steps, func(f extract.Features) bool { return f.TurnLimit })
	if limit < 0 {
		return Finding{}, false
	}
	last := -1
	for i := limit - 1; i >= 0; i-- {
		if !steps[i].Kinds.Any(extract.KindsOf(extract.KindLedger, extract.KindThought, extract.KindTermination)) {
			last = i
			break
		}
	}
	if last < 0 {
		return Finding{}, false
	}
	lg, ok := in.Graph.LoopGroupOf(last)
	if !ok {
		return Finding{}, false
	}
	for _, r := range lg.Steps {
		p := answerableFor(in, r)
		if p < 0 {
			continue
		}
		for _, q := range in.Graph.Predecessors(r, graph.Loop) {
			if q < p && slices.Contains(lg.Steps, q) && !executionFailed(in, q) && redoes(in, p, answerableFor(in, q)) {
				if l := in.Features.Steps[p].SendsLedger; l != nil && *l < p {
					// The instruction sends what its agent's ledger decided
					// to ask: the ledger made the decision.
					p = *l
				}
				return Finding{Step: p, Strength: 0.8, Quote: quoteAt(in, p, 0, 0),
					Reason: fmt.Sprintf("it repeats an action whose result (step %d) had already come back; its result, step %d, is the same, and the run went round so until it was stopped at its turn limit (step %d)", q, r, limit)}, true
			}
		}
	}
	return Finding{}, false
}

// redoes reports whether step p did again what step o did: the graph
// reads p as repeating o (a loop edge), or p makes only calls o made with
// the same arguments and runs only lines of code o ran.
func redoes(in *Input, p, o int) bool {
	if o < 0 || o >= p {
		return false
	}
	return slices.Contains(in.Graph.Predecessors(p, graph.Loop), o) || in.Features.Steps[p].Redoes(&in.Features.Steps[o])
}

// answerableFor is the step that answers for result r: the call whose
// output it is, the instruction it carries out, or in a chat the other
// agent's message it answers; -1 when r is no result.
// (loopAtLimit then names the ledger an instruction sends, if any.)
func answerableFor(in *Input, r int) int {
	if c := int(in.Features.Steps[r].Caller); c >= 0 && c != r {
		return c
	}
	if ps := in.Graph.Predecessors(r, graph.Instructs); len(ps) > 0 {
		return ps[len(ps)-1]
	}
	// In a chat whose turns the graph reads as no instruction, a message
	// answers the other agent's message right before it.
	if r > 0 && !in.Features.Steps[r].Has(extract.KindToolResult) && !run.SameAgent(in.Run.Steps[r].Agent, in.Run.Steps[r-1].Agent) && isAgentDecision(in, r-1) {
		return r - 1
	}
	return -1
}

// executionFailed reports whether executor step e failed: its own error
// signals, its tool call failing, or the next ledger saying no progress.
func executionFailed(in *Input, e int) bool {
	f := &in.Features.Steps[e]
	if _, failed := toolFailed(f); failed {
		return true
	}
	if sig, ok := stepError(in, e); ok && sig.Severity >= extract.SeverityMedium {
		return true
	}
	if l := nextLedger(in, e); l != nil {
		return !l.ProgressBeingMade.Answer || l.InLoop.Answer
	}
	return false
}

// nextLedger returns the first progress ledger after step e, if one comes
// before the next step of another executor.
func nextLedger(in *Input, e int) *extract.Ledger {
	for i := e + 1; i < len(in.Features.Steps) && i <= e+3; i++ {
		if l := in.Features.Steps[i].Ledger; l != nil {
			return l
		}
	}
	return nil
}

// repeatedAfter finds the first planner step after step e that repeats an
// earlier planner step of the group near-identically (as the graph reads
// a repeated instruction), and the step it repeats.
func repeatedAfter(in *Input, planner []int, e int) (int, int) {
	for k, p := range planner {
		if p <= e {
			continue
		}
		for _, q := range planner[:k] {
			if in.Graph.RepeatsInstruction(p, q) {
				return p, q
			}
		}
	}
	return -1, -1
}

// forcedAnswer is the step of the run's final answer when it was given
// only once the run had been stopped at its turn limit (at or after the
// step reporting the limit), or -1: an answer the harness asked for when
// the turns ran out, not one the run reached.
func forcedAnswer(in *Input) int {
	fa := in.Features.FinalAnswer
	if fa == nil {
		return -1
	}
	limit := slices.IndexFunc(in.Features.Steps, func(f extract.Features) bool { return f.TurnLimit })
	if limit < 0 || fa.Step < limit {
		return -1
	}
	return fa.Step
}

// unforced keeps an analyzer of the answer's values from blaming an answer
// forced by the turn limit for a value it first states: a guess made when
// the turns ran out tells where the run stopped, not where it went wrong
// (loopAtLimit reads that). A value the forced answer carries from an
// earlier step is still that step's.
func unforced(run func(*Input) []Finding) func(*Input) []Finding {
	return func(in *Input) []Finding {
		out := run(in)
		forced := forcedAnswer(in)
		if forced < 0 {
			return out
		}
		return slices.DeleteFunc(out, func(f Finding) bool { return f.Step == forced })
	}
}
