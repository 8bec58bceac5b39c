package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestCheckerRejectsTheCorrectAnswer: a retriever hands passages on, an
// answerer reads the right value from one, and a fact-checker "corrects"
// it by another passage's figure, which the run ends with. The checker
// dropped the correct value: feedback names it, not the answer it called
// wrong, and so do ground_truth_contradiction and data_flow_origin,
// though the checker's figure was first stated by the retriever's
// passage and the checker names the correct one too. A checker that
// rejects a wrong answer for another wrong one leaves each rule as it
// was: feedback names the answer it called wrong. The shape is a
// retriever, answerer and checker team, as Who&When's group chats write
// it.
func TestCheckerRejectsTheCorrectAnswer(t *testing.T) {
	const (
		leave = "According to the company handbook, how many days of paid parental leave do full-time employees get?"
		start = "On what date does the Meridian Library's summer reading program start this year, according to its announcements?"
	)
	say := func(agent, c string) msg { return msg{agent: agent, content: c} }
	leavePassages := say("Retriever", `Retrieved passages:
[1] "Full-time employees are entitled to 20 days of paid parental leave, to be taken within twelve months."
[2] "Part-time employees receive paid parental leave pro rata, with a minimum of 10 days."`)
	startPassages := say("Retriever", `Retrieved passages:
[1] announcements_2026.html: "The 2026 Summer Reading Program kicks off on Saturday, June 13, with a party on the library lawn."
[2] announcements_2025.html: "The 2025 Summer Reading Program starts on Monday, June 16."`)
	for _, tc := range []struct {
		name, task, gt       string
		passages             msg
		answer, check, final string
		feedback, gtc, flow  []int // the steps each rule names (data_flow_origin: first)
	}{
		{"the checker rejects the right answer", leave, "20 days", leavePassages, "Full-time employees get 20 days of paid parental leave.",
			"Passage [2] states a minimum of 10 days. The answer of 20 days is not supported; the correct figure is 10 days.",
			"Corrected answer: full-time employees get 10 days of paid parental leave.", []int{3}, []int{3}, []int{3}},
		{"the checker rejects the right date for the one a passage first gave", start, "June 13, 2026", startPassages,
			"The summer reading program starts on Saturday, June 13, 2026, according to passage [1].",
			"Passage [2] gives June 16 as the start of the Summer Reading Program. The answer should be June 16.",
			"Corrected: the summer reading program starts on June 16.", []int{3}, []int{3}, []int{3}},
		{"the checker rejects a wrong answer for another", leave, "20 days", leavePassages, "Full-time employees get 12 days of paid parental leave.",
			"Passage [2] states a minimum of 10 days. The answer of 12 days is not supported; the correct figure is 10 days.",
			"Corrected answer: full-time employees get 10 days of paid parental leave.", []int{2}, []int{3}, []int{3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := prepare(t, tc.task, tc.gt, msg{agent: "human", content: tc.task, kind: run.KindUser}, tc.passages,
				say("Answerer", tc.answer), say("FactChecker", tc.check), say("Answerer", tc.final))
			assert.Equal(t, tc.feedback, steps(Feedback.Run(in), true), "feedback")
			assert.Equal(t, tc.gtc, steps(GroundTruthContradiction.Run(in), true), "ground_truth_contradiction")
			assert.Equal(t, tc.flow, steps(DataFlowOrigin.Run(in), true)[:1], "data_flow_origin")
		})
	}
}
