package rules

import (
	"fmt"

	"github.com/offattr/offattr/extract"
)

// planningControl reads CHIEF's loop groups (repeated plan–execute cycles).
// The planner is responsible when it repeats near-identical instructions
// although the execution in between signalled failure; the executor is
// responsible when the planner changed strategy and execution still failed.
func planningControl(in *Input) []Finding {
	var out []Finding
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
var PlanningControl = &Analyzer{Name: "planning_control", Run: planningControl, Requires: []Fact{FactTrials, FactInstructs, FactSignals, FactVerdicts, FactKinds},
	Doc: "in a loop group: a planner repeating an instruction after a failure, or an executor failing a changed strategy (CHIEF planning control)"}

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
