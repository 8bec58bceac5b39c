package extract

import (
	"slices"
	"strings"

	"github.com/offattr/offattr/run"
)

// Sources of a FinalAnswer.
const (
	SourceFinalAnswer = "final_answer"
	SourceLedger      = "ledger"
	SourceLastAnswer  = "last_answer"
)

// finalAnswer finds the run's answer: the last explicit final answer; else
// the last ledger that declares the request satisfied and states an answer;
// else the last answer put forward up to the first termination; else the
// last line with a claim in the last step before termination that is not a
// tool's output; else, in a run that stops without terminating, its last
// step's answer when that is an agent's reply (see below).
func finalAnswer(rf *RunFeatures, agents *agentSet) *FinalAnswer {
	steps := rf.Steps
	for i := len(steps) - 1; i >= 0; i-- {
		if steps[i].Has(KindFinalAnswer) && steps[i].Answer != "" {
			return newFinal(int(steps[i].Index), steps[i].Answer, SourceFinalAnswer, agents, false)
		}
	}
	for i := len(steps) - 1; i >= 0; i-- {
		if l := steps[i].Ledger; l != nil && l.RequestSatisfied.Answer && steps[i].Answer != "" {
			return newFinal(int(steps[i].Index), steps[i].Answer, SourceLedger, agents, false)
		}
	}
	end := len(steps) - 1
	for i, s := range steps {
		if s.Has(KindTermination) {
			end = i
			break
		}
	}
	for i := end; i >= 0; i-- {
		if steps[i].Answer != "" {
			return newFinal(int(steps[i].Index), steps[i].Answer, SourceLastAnswer, agents, false)
		}
	}
	if end < len(steps)-1 || steps[end].Has(KindTermination) {
		return lastClaimLine(rf, end, agents)
	}
	// A run that stops without a word of being done answers with its last
	// step only when that is an agent's reply; a conversation with a user
	// then ends with its answer.
	if end < 0 || end >= len(rf.steps) || rf.steps[end].Kind != run.KindMessage || steps[end].Kinds.Any(unfinishedKinds) {
		return nil
	}
	if hasUser(rf.steps[:end]) {
		if line := claimLine(rf, end, agents, false); line != "" {
			return newFinal(int(steps[end].Index), line, SourceLastAnswer, agents, true)
		}
		return nil
	}
	// Agents talking among themselves may have run out of turns mid-work:
	// their last step answers only when it ends on a value, not on an order,
	// a promise of more work or a report that it could not be done.
	if steps[end].FailureWords != nil || len(steps[end].Errors) > 0 {
		return nil
	}
	if line := claimLine(rf, end, agents, true); line != "" {
		return newFinal(int(steps[end].Index), line, SourceLastAnswer, agents, true)
	}
	return nil
}

// hasUser reports whether a user speaks in steps.
func hasUser(steps []run.Step) bool {
	return slices.ContainsFunc(steps, func(s run.Step) bool { return s.Kind == run.KindUser })
}

// unfinishedKinds are the kinds of a last step that leaves the work unfinished:
// code to run, a call, a plan or an order.
var unfinishedKinds = KindsOf(KindToolCall, KindPlan, KindReplan, KindInstruction, KindLedger, KindThought)

// lastClaimLine is the answer of a run that terminated without naming one:
// the last line that states a value, in the last step up to the termination
// that is neither a tool's output nor a ledger.
func lastClaimLine(rf *RunFeatures, end int, agents *agentSet) *FinalAnswer {
	for i := end; i >= 0; i-- {
		if line := claimLine(rf, i, agents, false); line != "" {
			return newFinal(int(rf.Steps[i].Index), line, SourceLastAnswer, agents, false)
		}
	}
	return nil
}

// claimLine is the last line of step i's prose that states a value, when
// the step is neither a tool's output nor a ledger; with closing, only its
// last line, which must then state one. An order or a shout is not the
// answer, whoever wrote it; agent names are not values: "@Reviewer, please
// finalize" states nothing, and a run must read the same whatever its
// agents are called.
func claimLine(rf *RunFeatures, i int, agents *agentSet, closing bool) string {
	f := rf.Steps[i]
	if f.Has(KindToolResult) || f.Ledger != nil || len(f.Claims) == 0 || i >= len(rf.steps) {
		return ""
	}
	lines := strings.Split(withoutCode(newText(rf.steps[i].Content)), "\n")
	for j := len(lines) - 1; j >= 0; j-- {
		line := strings.TrimSpace(lines[j])
		if line == "" || !hasLetters(line) {
			continue
		}
		if len(ordersOrShouts(line)) == 0 && len(claimsOf(newText(line), agents, true)) > 0 {
			return clip(line, 300)
		}
		if closing {
			return ""
		}
	}
	return ""
}

// newFinal is the answer text at step, read leniently ("Yamasaki,
// Sugiyura" is two names), or, for a sentence, as any step is: the
// capitalised word opening a closing reply ("Shipping a 10 kg parcel costs
// $25.00.") is no value of the answer.
func newFinal(step int, text, source string, agents *agentSet, sentence bool) *FinalAnswer {
	text = strings.TrimSpace(text)
	return &FinalAnswer{Step: step, Text: text, Claims: claimsOf(newText(text), agents, sentence), Source: source}
}
