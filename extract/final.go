package extract

import "strings"

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
// tool's output.
func finalAnswer(rf *RunFeatures, contents []string) *FinalAnswer {
	steps := rf.Steps
	for i := len(steps) - 1; i >= 0; i-- {
		if steps[i].Has(KindFinalAnswer) && steps[i].Answer != "" {
			return newFinal(steps[i].Index, steps[i].Answer, SourceFinalAnswer)
		}
	}
	for i := len(steps) - 1; i >= 0; i-- {
		if l := steps[i].Ledger; l != nil && l.RequestSatisfied.Answer && steps[i].Answer != "" {
			return newFinal(steps[i].Index, steps[i].Answer, SourceLedger)
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
			return newFinal(steps[i].Index, steps[i].Answer, SourceLastAnswer)
		}
	}
	if end < len(steps)-1 || steps[end].Has(KindTermination) {
		return lastClaimLine(rf, end, contents)
	}
	return nil
}

// lastClaimLine is the answer of a run that terminated without naming one:
// the last line that states a value, in the last step up to the termination
// that is neither a tool's output nor a ledger.
func lastClaimLine(rf *RunFeatures, end int, contents []string) *FinalAnswer {
	for i := end; i >= 0; i-- {
		f := rf.Steps[i]
		if f.Has(KindToolResult) || f.Ledger != nil || len(f.Claims) == 0 || i >= len(contents) {
			continue
		}
		prose := withoutCode(newText(contents[i]))
		lines := strings.Split(prose, "\n")
		for j := len(lines) - 1; j >= 0; j-- {
			line := strings.TrimSpace(lines[j])
			if line == "" || !hasLetters(line) {
				continue
			}
			if cs := claimsOf(newText(line), nil, true); len(cs) > 0 {
				return newFinal(f.Index, clip(line, 300), SourceLastAnswer)
			}
		}
	}
	return nil
}

func newFinal(step int, text, source string) *FinalAnswer {
	text = strings.TrimSpace(text)
	return &FinalAnswer{Step: step, Text: text, Claims: Claims(text), Source: source}
}
