package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestWorkedFromAPageRead: a coder's code, or a rounding in prose, that
// reworks faithfully the figures a web agent read from a page, where the
// page itself shows the value worked out (less rounded), came from that
// page: the web agent's reading is blamed, not the step that computed. A
// value the page does not show (a formula of the coder's own) stays the
// computing step's. Shape: Magentic-One, an orchestrator instructing a
// web agent (its own page results) and a coding assistant, no ground
// truth.
func TestWorkedFromAPageRead(t *testing.T) {
	q := "What is the population density, in people per square mile, of Portland, Oregon, according to the 2020 census? Round to the nearest whole number."
	page := "I clicked 'QuickFacts: Portland city, Maine'.\n\nAutomatic OCR of the page screenshot has detected the following text:\n\nPopulation, Census, April 1, 2020  68,408\nLand area in square miles, 2020  21.31\nPopulation per square mile, 2020  3,210.1"
	for _, tt := range []struct {
		name, work, result, answer string
		want                       []int
	}{
		{"code that reworks the page", "```python\nprint(round(68408 / 21.31))\n```", "The script ran, then exited with Unix exit code: 0\nIts output was:\n3210", "FINAL ANSWER: 3210", []int{2}},
		{"a rounding in prose", "68,408 people over 21.31 square miles is 3,210.1, about 3,200 rounded to the nearest hundred.", "", "FINAL ANSWER: 3200", []int{2}},
		{"code with a formula of its own", "```python\nprint(round(68408 / 21.31 / 2))\n```", "The script ran, then exited with Unix exit code: 0\nIts output was:\n1605", "FINAL ANSWER: 1605", []int{4}},
	} {
		msgs := []msg{
			{agent: "human", content: q, kind: run.KindUser},
			{agent: "Orchestrator", content: "Please open the QuickFacts page and read the 2020 population and the land area.", kind: run.KindInstruction, target: "WebSurfer"},
			{agent: "WebSurfer", content: page},
			{agent: "Orchestrator", content: "Please compute the density from the population and the land area.", kind: run.KindInstruction, target: "Assistant"},
			{agent: "Assistant", content: tt.work},
		}
		if tt.result != "" {
			msgs = append(msgs, msg{agent: "ComputerTerminal", content: tt.result})
		}
		msgs = append(msgs, msg{agent: "Orchestrator", content: tt.answer})
		in := prepare(t, q, "", msgs...)
		assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true), tt.name)
	}
}

// TestWorkedFromAPairHanded: where the task gives no figure, a step that
// works the answer out of two figures one other agent stated, with
// arithmetic that holds, carried on the facts it was handed: the step
// that stated them is where the wrong answer began. A step that brings a
// figure of its own, or slips in its arithmetic, is where it began.
// Shape: a panel of experts that only talk.
func TestWorkedFromAPairHanded(t *testing.T) {
	for _, tt := range []struct {
		name, q, expert, math string
		want                  int
	}{
		{"both figures handed", "How many years passed between the Treaty of Westphalia and the Treaty of Utrecht?",
			"The Peace of Westphalia was signed in 1648. The Treaty of Utrecht was signed in 1715.", "Taking the dates given: 1715 - 1648 = 67 years.", 1},
		{"one figure its own", "How many years passed between the Treaty of Westphalia and the Treaty of Utrecht?",
			"The Peace of Westphalia was signed in 1648.", "Utrecht was signed in 1715, so 1715 - 1648 = 67 years.", 2},
		{"its arithmetic slips", "How many years passed between the Treaty of Westphalia and the Treaty of Utrecht?",
			"The Peace of Westphalia was signed in 1648. The Treaty of Utrecht was signed in 1713.", "Taking the dates given: 1713 - 1648 = 67 years.", 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, tt.q, "65",
				msg{agent: "Moderator", content: "Panel, please answer: " + tt.q, kind: run.KindUser},
				msg{agent: "History_Expert", content: tt.expert},
				msg{agent: "Math_Expert", content: tt.math},
				msg{agent: "Critic", content: "The subtraction is right. I agree."},
				msg{agent: "Moderator", content: "The panel's answer: 67 years."},
			)
			got := steps(DataFlowOrigin.Run(in), true)
			require.NotEmpty(t, got)
			assert.Equal(t, tt.want, got[0])
		})
	}
}
