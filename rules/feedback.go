package rules

import (
	"fmt"
	"slices"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/run"
)

// feedback reads what later steps say about earlier ones: a progress ledger
// reporting no progress or a loop, and not the request satisfied,
// implicates the executor step it judges,
// and a reviewer saying a result is wrong implicates the latest step of
// another agent before it.
func feedback(in *Input) []Finding {
	var out []Finding
	for i := range in.Features.Steps {
		f := &in.Features.Steps[i]
		// A ledger that declares the request satisfied accepts where the
		// team stands, stalled or not: it judges no step to have failed,
		// and if it gave up, the decision is its own (premature_satisfaction).
		if l := f.Ledger; l != nil && !l.RequestSatisfied.Answer && (!l.ProgressBeingMade.Answer || l.InLoop.Answer) {
			if j := judgedStep(in, i); j >= 0 {
				reason := l.ProgressBeingMade.Reason
				if l.InLoop.Answer {
					reason = l.InLoop.Reason
				}
				out = append(out, Finding{Step: j, Strength: 0.5, Quote: Quote(reason, 0, 0), QuoteStep: quotedFrom(i),
					Reason: fmt.Sprintf("the progress ledger at step %d judges it made no progress", i)})
			}
			continue
		}
		if !isAgentDecision(in, i) {
			continue
		}
		c := f.Critique
		if c == nil {
			continue
		}
		j := criticised(in, i)
		if j, k := ignoredCritique(in, i); k >= 0 && (j < 0 || !rejectsTruth(in, i, j)) {
			// The criticised agent could have mended its result; it
			// answered the critique with the same result, and that
			// answer is where the run went on wrong.
			out = append(out, Finding{Step: k, Strength: 0.5, Quote: quoteAt(in, i, c.Offset, c.Len), QuoteStep: quotedFrom(i),
				Reason: fmt.Sprintf("step %d (%s) says the result of step %d is wrong, and it gives that result again", i, in.Run.Steps[i].Agent, j)})
			continue
		}
		switch {
		case j < 0:
		case rejectsTruth(in, i, j):
			// The result it calls wrong states the correct answer, and
			// the critique puts another forward: the critique is what
			// is wrong.
			out = append(out, Finding{Step: i, Strength: 0.4, Quote: quoteAt(in, i, c.Offset, c.Len),
				Reason: fmt.Sprintf("it says the result of step %d (%s), which states the correct answer, is wrong", j, in.Run.Steps[j].Agent)})
		default:
			out = append(out, Finding{Step: j, Strength: 0.4, Quote: quoteAt(in, i, c.Offset, c.Len), QuoteStep: quotedFrom(i),
				Reason: fmt.Sprintf("step %d (%s) says its result is wrong", i, in.Run.Steps[i].Agent)})
		}
	}
	return out
}

// Feedback is the feedback analyzer.
var Feedback = &Analyzer{Name: "feedback", Run: feedback, Requires: []Fact{FactVerdicts, FactKinds, FactCritiques, FactToolCalls},
	Doc: "a step that a later verdict judges as making no progress or looping, or that a later step calls wrong"}

// criticised is the step whose result the critique at step i calls
// wrong: the latest earlier step of another agent that is a decision and
// no ledger; -1 when there is none.
func criticised(in *Input, i int) int {
	for j := i - 1; j >= 0; j-- {
		if in.Run.Steps[j].Agent != in.Run.Steps[i].Agent && isAgentDecision(in, j) && !in.Features.Steps[j].Has(extract.KindLedger) {
			return j
		}
	}
	return -1
}

// ignoredCritique finds, for the critique at step i, the answer that
// ignores it: the next step of the agent whose result the critique is
// about that gives that result again, its code the same program (only
// its comments reworded) or keeping a number the critique sets aside,
// or a figure of it the task does not state and the critique does not
// repeat. It returns the step criticised and the
// ignoring step, or -1, -1. The result is the latest code written
// before the critique (a reviewer may share its writer's name, as an
// engineer reviews its own files), else the step criticised names.
func ignoredCritique(in *Input, i int) (int, int) {
	if j := latestCode(in, i); j >= 0 {
		if k := nextOwnCode(in, i, in.Run.Steps[j].Agent); k >= 0 && (extract.SameCode(in.Features.Steps[j].Code, in.Features.Steps[k].Code) || keepsRejected(in, j, i, k)) {
			return j, k
		}
		return -1, -1
	}
	j := criticised(in, i)
	if j < 0 {
		return -1, -1
	}
	for k := i + 1; k < len(in.Run.Steps); k++ {
		if in.Run.Steps[k].Agent != in.Run.Steps[j].Agent || !isAgentDecision(in, k) {
			continue
		}
		if restatesOwnFigure(in, j, i, k) {
			return j, k
		}
		return -1, -1
	}
	return -1, -1
}

// latestCode is the latest step before i that writes code as an agent's
// decision (not a tool call), or -1.
func latestCode(in *Input, i int) int {
	for j := i - 1; j >= 0; j-- {
		if len(in.Features.Steps[j].Code) > 0 && in.Run.Steps[j].Kind != run.KindToolCall && isAgentDecision(in, j) && !in.Features.Steps[j].Has(extract.KindToolResult) {
			return j
		}
	}
	return -1
}

// nextOwnCode is the first step after i of the given agent that writes
// code, or -1 when another of its decisions comes first.
func nextOwnCode(in *Input, i int, agent string) int {
	for k := i + 1; k < len(in.Run.Steps); k++ {
		if in.Run.Steps[k].Agent != agent || !isAgentDecision(in, k) {
			continue
		}
		if len(in.Features.Steps[k].Code) > 0 && in.Run.Steps[k].Kind != run.KindToolCall {
			return k
		}
		return -1
	}
	return -1
}

// keepsRejected reports whether step k states again a number of step j
// that the critique at step i sets aside for another ("0.10, not 0.01"):
// a rewrite that took other points of the critique but kept the value it
// called wrong.
func keepsRejected(in *Input, j, i, k int) bool {
	for _, r := range in.Features.Steps[i].Rejected {
		states := func(a extract.Claim) bool { return statesClaim(a, r) }
		if slices.ContainsFunc(in.Features.Steps[j].Claims, states) && slices.ContainsFunc(in.Features.Steps[k].Claims, states) {
			return true
		}
	}
	return false
}

// restatesOwnFigure reports whether step k states again a number step j
// stated that the task does not state and the critique at step i does
// not state: the figure the critique called wrong, kept.
func restatesOwnFigure(in *Input, j, i, k int) bool {
	for _, c := range in.Features.Steps[j].Claims {
		if c.Kind != extract.ClaimNumber || taskNumber(in, c.Norm) {
			continue
		}
		if slices.ContainsFunc(in.Features.Steps[i].Claims, func(a extract.Claim) bool { return statesClaim(a, c.Norm) }) {
			continue
		}
		if slices.ContainsFunc(in.Features.Steps[k].Claims, func(a extract.Claim) bool { return statesClaim(a, c.Norm) }) {
			return true
		}
	}
	return false
}

// rejectsTruth reports whether the critique at step i, of step j's
// result, rejects the correct answer: with a ground truth the final
// answer misses, j states the correct value and i puts forward another
// value the final answer states (a fact-checker's "correction" of a
// right answer by another passage's figure).
func rejectsTruth(in *Input, i, j int) bool {
	if in.Run.GroundTruth == "" || answerMatches(in) {
		return false
	}
	want := in.groundTruth().want
	return want.reads(in, j) && offersOther(in, i, want)
}

// rejectsTruthAt reports whether step i is a critique that rejects the
// correct answer (rejectsTruth) of the result it calls wrong.
func rejectsTruthAt(in *Input, i int) bool {
	if in.Features.Steps[i].Critique == nil || !isAgentDecision(in, i) {
		return false
	}
	j := criticised(in, i)
	return j >= 0 && rejectsTruth(in, i, j)
}

// offersOther reports whether step i states a value the final answer
// states that is not the correct one (want): the value a critique puts
// in the place of the one it rejects.
func offersOther(in *Input, i int, want value) bool {
	fa := in.Features.FinalAnswer
	if fa == nil {
		return false
	}
	for _, c := range in.Features.Steps[i].Claims {
		if slices.ContainsFunc(fa.Claims, func(a extract.Claim) bool { return statesClaim(a, c.Norm) }) && !want.statedBy("", []extract.Claim{c}) {
			return true
		}
	}
	return false
}

// judgedStep is the executor step a ledger at step l evaluates: the latest
// earlier step that is neither the planner's own nor a tool's output.
func judgedStep(in *Input, l int) int {
	for j := l - 1; j >= 0; j-- {
		if in.Graph.IsPlannerStep(j) {
			continue
		}
		if isAgentDecision(in, j) {
			return j
		}
		if in.Features.Steps[j].Has(extract.KindToolResult) {
			return callerOf(in, j)
		}
		return -1
	}
	return -1
}

// prematureSatisfaction blames the decision to stop: a progress ledger that
// declares the request satisfied in a run that failed (with the ground
// truth: whose answer is wrong) accepted evidence it should not have, and
// the step whose result it accepted shares the blame.
func prematureSatisfaction(in *Input) []Finding {
	if gt := in.Run.GroundTruth; gt != "" && answerMatches(in) {
		return nil
	}
	if i := gaveUp(in); i >= 0 {
		// The same ledger judges the team stalled (no progress, or in a
		// loop), or says what was asked is not stated or not found: it
		// accepted no result but gave up and answered anyway, and the
		// decision to stop is its alone.
		l := in.Features.Steps[i].Ledger
		reason := "it declares the request satisfied while judging that the team made no progress, and the run ended with a wrong answer"
		if l.ProgressBeingMade.Answer && !l.InLoop.Answer {
			reason = "it declares the request satisfied while saying what was asked was not found, and the run ended with a wrong answer"
		}
		return []Finding{{Step: i, Strength: 1, Quote: Quote(l.RequestSatisfied.Reason, 0, 0), Reason: reason}}
	}
	for i := range in.Features.Steps {
		l := in.Features.Steps[i].Ledger
		if l == nil || !l.RequestSatisfied.Answer {
			continue
		}
		out := []Finding{{Step: i, Strength: 0.6, Quote: Quote(l.RequestSatisfied.Reason, 0, 0),
			Reason: "it declares the request satisfied, but the run ended with a wrong answer"}}
		if j := judgedStep(in, i); j >= 0 {
			if k := handedFigures(in, j); k >= 0 {
				// The result carried the answer's figures the instruction
				// it answers handed it: the share is the instruction's.
				out = append(out, Finding{Step: k, Strength: 0.3, Quote: quoteAt(in, k, 0, 0),
					Reason: fmt.Sprintf("the ledger at step %d accepted the result of step %d as the answer, whose figures this instruction handed it", i, j)})
				return out
			}
			out = append(out, Finding{Step: j, Strength: 0.3, Quote: quoteAt(in, j, 0, 0),
				Reason: fmt.Sprintf("the ledger at step %d accepted its result as the answer", i)})
		}
		return out
	}
	return nil
}

// gaveUp is the step of the ledger that ended a failed run accepting no
// result: the first to declare the request satisfied, when it judges in
// the same breath that no progress is made or the team is in a loop, or
// says what was asked was not found; -1 when there is none.
func gaveUp(in *Input) int {
	if gt := in.Run.GroundTruth; gt != "" && answerMatches(in) {
		return -1
	}
	for i := range in.Features.Steps {
		l := in.Features.Steps[i].Ledger
		if l == nil || !l.RequestSatisfied.Answer {
			continue
		}
		if !l.ProgressBeingMade.Answer || l.InLoop.Answer || l.Unfound {
			return i
		}
		return -1
	}
	return -1
}

// PrematureSatisfaction is the premature_satisfaction analyzer.
var PrematureSatisfaction = &Analyzer{Name: "premature_satisfaction", Run: prematureSatisfaction, Requires: []Fact{FactVerdicts, FactFinalAnswer, FactGroundTruth, FactKinds, FactToolCalls},
	Doc: "a verdict declaring a failed run's request satisfied, and the result it accepted"}

// unverifiedApproval blames a step that declares a result verified or
// correct without checking it: no call of its own and no tool output since
// the result it approves was stated. In a failed run such an approval let
// the wrong result through.
func unverifiedApproval(in *Input) []Finding {
	if gt := in.Run.GroundTruth; gt != "" && answerMatches(in) {
		return nil
	}
	var out []Finding
	lastEvidence := -1
	// In a team that runs nothing (no call, no code, no tool's output),
	// working the figures out again is the only check an approval can
	// make.
	talkOnly := true
	for i := range in.Features.Steps {
		f := &in.Features.Steps[i]
		talkOnly = talkOnly && !f.Has(extract.KindToolResult) && !f.IssuesCall() && len(f.Code) == 0
	}
	for i := range in.Features.Steps {
		f := &in.Features.Steps[i]
		if f.Has(extract.KindToolResult) || f.IssuesCall() {
			lastEvidence = i
			continue
		}
		if !isAgentDecision(in, i) || f.Ledger != nil {
			continue
		}
		sig, ok := signalOf(f.Successes, "confirmed")
		if !ok || !f.Has(extract.KindVerification) {
			continue
		}
		if lastEvidence >= 0 && i-lastEvidence <= 1 {
			continue // it approves a result it has just seen checked
		}
		if talkOnly && len(f.Computes) > 0 && !f.Miscomputes {
			continue // it worked the figures out again itself, and its arithmetic holds
		}
		out = append(out, Finding{Step: i, Strength: 0.5, Quote: quoteAt(in, i, sig.Offset, len(sig.Quote)),
			Reason: "it approves a result without checking it: no call of its own and no fresh tool output"})
		break
	}
	return out
}

// UnverifiedApproval is the unverified_approval analyzer.
var UnverifiedApproval = &Analyzer{Name: "unverified_approval", Run: unverifiedApproval, Requires: []Fact{FactKinds, FactSignals, FactClaims, FactToolCalls, FactFinalAnswer, FactGroundTruth},
	Doc: "a verification that approves a result with no call of its own and no fresh tool output"}

// handedFigures returns the instruction step j answers when every figure
// of j that the final answer states, but the task does not, is one that
// instruction states too (j carried the figures it was handed) or one
// j's own arithmetic, right, works out, and j carries at least one; -1
// otherwise.
func handedFigures(in *Input, j int) int {
	fa := in.Features.FinalAnswer
	ks := in.Graph.Predecessors(j, graph.Instructs)
	if fa == nil || len(ks) == 0 {
		return -1
	}
	k := ks[len(ks)-1]
	f := &in.Features.Steps[j]
	carried := false
	for _, c := range f.Claims {
		if c.Kind != extract.ClaimNumber || taskNumber(in, c.Norm) || !slices.ContainsFunc(fa.Claims, func(a extract.Claim) bool { return statesClaim(a, c.Norm) }) {
			continue
		}
		if v, _ := c.Value(); !f.Miscomputes && slices.Contains(f.Computes, v) {
			continue // worked out right from what it was given
		}
		if !slices.ContainsFunc(in.Features.Steps[k].Claims, func(a extract.Claim) bool { return statesClaim(a, c.Norm) }) {
			return -1
		}
		carried = true
	}
	if !carried {
		return -1
	}
	return k
}
