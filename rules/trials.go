package rules

import (
	"fmt"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

// reversibility is CHIEF's deviation-aware rule: a failed call that is
// later corrected — a following call in the same trial runs cleanly before
// anything fails again — was a detour the run recovered from, not the
// decisive fault.
func reversibility(in *Input) []Finding {
	var out []Finding
	for j := range in.Features.Steps {
		if _, failed := toolFailed(&in.Features.Steps[j]); !failed {
			continue
		}
		c := callerOf(in, j)
		fixed := corrected(in, j)
		if c < 0 || fixed < 0 {
			continue
		}
		out = append(out, Finding{Step: c, Strength: -0.6, Quote: quoteAt(in, fixed, 0, 0), QuoteStep: quotedFrom(fixed),
			Reason: fmt.Sprintf("its failure at step %d was corrected at step %d", j, fixed)})
	}
	return out
}

// Reversibility is the reversibility analyzer.
var Reversibility = &Analyzer{Name: "reversibility", Run: reversibility, Requires: []Fact{FactToolCalls, FactSignals, FactTrials, FactKinds},
	Doc: "against a step: its failed call was corrected later in the same trial (CHIEF deviation-aware)"}

// trialFirstFault applies DoVer's trials: each plan or re-plan starts a
// trial, and the decisive fault is the earliest fault of a trial that never
// recovered. In a failed run every trial but a recovered one counts; the
// first fault of the earliest such trial gets the most weight.
func trialFirstFault(in *Input) []Finding {
	var out []Finding
	weight := 1.0
	for _, t := range in.Graph.Trials() {
		for _, i := range t.Steps() {
			if !isAgentDecision(in, i) && !in.Features.Steps[i].Has(extract.KindToolResult) || byUser(in, i) {
				continue // the task (an issue quoting the traceback it reports) is no fault of a trial
			}
			step, why := faultAt(in, i)
			if step < 0 {
				continue
			}
			out = append(out, Finding{Step: step, Strength: weight, Quote: quoteAt(in, step, 0, 0),
				Reason: fmt.Sprintf("it is the first fault (%s) of trial %d, which never recovered", why, t.Index)})
			weight *= 0.5
			break
		}
	}
	return out
}

// byUser reports whether step i is the user's or the system's own.
func byUser(in *Input, i int) bool {
	k := in.Run.Steps[i].Kind
	return k == run.KindUser || k == run.KindSystem
}

// TrialFirstFault is the trial_first_fault analyzer.
var TrialFirstFault = &Analyzer{Name: "trial_first_fault", Run: trialFirstFault, Requires: []Fact{FactTrials, FactSignals, FactToolCalls, FactVerdicts, FactKinds},
	Doc: "the first fault of each trial that never recovered, most for the earliest (DoVer trials)"}

// faultAt is the cheap fault test trials use: the step's own error, its
// call failing, or the next ledger finding no progress. It returns the step
// to blame (a tool result's caller) and why.
func faultAt(in *Input, i int) (int, string) {
	f := &in.Features.Steps[i]
	if _, failed := toolFailed(f); failed {
		if corrected(in, i) >= 0 || serviceFailed(in, i) {
			return -1, "" // recovered from, or the service's failure and not the call's
		}
		if o, n := omittedModule(in, i); o >= 0 && o < callerOf(in, i) {
			return o, fmt.Sprintf("it dropped %s, which the call's failure quotes as missing, from the files it handed on", n)
		}
		if d, why := toolDefiner(in, i, callerOf(in, i)); d >= 0 {
			if repairOf(in, d, i) >= 0 {
				return -1, "" // repaired where it arose, as local_fault reads it
			}
			return d, why
		}
		return callerOf(in, i), "its call failed"
	}
	if !isAgentDecision(in, i) || in.Graph.IsPlannerStep(i) {
		return -1, ""
	}
	if executionFailed(in, i) {
		if recoveredFrom(in, i) >= 0 || echoesRecovered(in, i) || retriesFailedCall(in, i) {
			return -1, "" // the agent's tries got past it, or it tells of the result it retries, as local_fault reads it
		}
		o, why := errorCause(in, i)
		if o < 0 {
			if d, k := rewrittenAfter(in, i); k >= 0 {
				if t, why := bentTo(in, d, k, i); t >= 0 {
					return t, why // the code bent to the failed test, as local_fault reads it
				}
			}
		}
		switch {
		case repairOf(in, o, i) >= 0:
			return -1, "" // repaired where it arose, as local_fault reads it
		case o >= 0:
			return o, why
		}
		return i, "it failed or made no progress"
	}
	return -1, ""
}
