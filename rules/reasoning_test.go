package rules

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// reasoner is one agent working a task out step by step, with no tools:
// the task is the user's turn, each later step the agent's.
func reasoner(task string, steps ...string) []msg {
	msgs := []msg{{agent: "user", content: task, kind: run.KindUser}}
	for _, s := range steps {
		msgs = append(msgs, msg{agent: "assistant", content: s})
	}
	return msgs
}

// TestOwnComputationOrigin: an agent that works the answer out in prose
// from figures it worked out at earlier steps began its wrong answer at
// the first step of that computation that shows a fault: a figure
// neither the task nor a computation gave (a quantity misread, a
// conversion done wrong in words), or arithmetic that does not come to
// what it writes; a date it counts on from a fact of the calendar it got
// wrong began there too. Figures derived from the task's (a percentage
// of one) and a unit's factor beside a unit show none.
func TestOwnComputationOrigin(t *testing.T) {
	desks := "A school has 15 classrooms with 28 desks each, and 6 of the classrooms get 4 extra desks each. How many desks are there?"
	change := "Maria buys 4 notebooks at $3.75 each and 3 pens at $1.20 each. She pays with a $50 bill. How much change does she get?"
	video := "A video is 2 hours and 45 minutes long. Maya watches it at 1.5× speed. How long does it take her, in minutes?"
	misread := []string{
		"There are 12 classrooms with 28 desks each, so 12 × 28 = 336 desks.",
		"The extra desks: 6 × 4 = 24 desks.",
		"Total = 336 + 24 = 360 desks.",
		"The answer is 360."}
	subscription := "A subscription starts on February 1, 2023 and lasts 60 days, counting February 1 as the first day. On what date is its last day?"
	jacket := "A jacket costs $80. It is discounted by 15%, and then a 10% sales tax is added. What is the final price?"
	tests := []struct {
		name, task, gt string
		steps          []string
		want           []int
	}{
		{"a quantity misread", desks, "", misread, []int{1}},
		{"a quantity misread, with the correct answer", desks, "444", misread, []int{1}},
		{"a slip in its arithmetic", change, "31.4", []string{
			"4 × $3.75 = $15.00.",
			"The pens cost 3 × $1.20 = $3.80.",
			"Total spent = $15.00 + $3.80 = $18.80.",
			"Change = $50 − $18.80 = $31.20.",
			"Maria gets $31.20 in change."}, []int{2}},
		{"a conversion done wrong in words", video, "", []string{
			"Convert the length to hours: 2 hours 45 minutes = 2.45 hours.",
			"At 1.5× speed: 2.45 / 1.5 ≈ 1.633 hours.",
			"In minutes: 1.633 × 60 ≈ 98 minutes.",
			"It takes her about 98 minutes."}, []int{1}},
		{"a slip in the answer's own arithmetic wins over a figure stated before", "Convert the Babylonian numeral 𒐕𒐋 𒐛 to a decimal number.", "", []string{
			"The numeral has two places; the left place counts sixties and the right place counts units.",
			"The left group is 11 and the right group is 7.",
			"So the value is 11 × 60 + 7 = 677.",
			"The answer is 677."}, []int{3}},
		{"a percentage of the task's figure is derived", jacket, "74.8", []string{
			"The discount is 15% of $80 = $12.",
			"The discounted price is $80 − $12 = $68.",
			"The tax is 10% of $80 = $8.",
			"Final price = $68 + $8 = $76.",
			"The jacket costs $76."}, []int{4}},
		{"a date counted on from a calendar slip", subscription, "", []string{
			"Counting February 1 as day 1, we need the date of day 60.",
			"2023 is a leap year, so February 2023 has 29 days.",
			"That leaves 60 - 29 = 31 days, which fall in March.",
			"So day 60 is March 31, 2023."}, []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, tt.task, tt.gt, reasoner(tt.task, tt.steps...)...)
			assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true))
			if fs := GroundTruthContradiction.Run(in); len(fs) > 0 {
				assert.Equal(t, tt.want, steps(fs, true), "where it puts its answer forward, ground_truth_contradiction agrees")
			}
		})
	}
}

// TestLeftTheCorrectValue: once a step reached the correct value, the
// fault is where the run left it: the answer that reports a figure of the
// work that led to it (a check that works that figure out again puts
// nothing forward), or the first step of the computation the wrong
// answer was worked out from after it (a critique that "corrects" a right
// figure, whether it states the new one or works it out).
func TestLeftTheCorrectValue(t *testing.T) {
	fuel := "A car uses 6.5 litres of fuel per 100 km. Fuel costs €1.80 per litre. What does the fuel for a 340 km trip cost, in euros?"
	rect := "A rectangle's length is 3 times its width, and its perimeter is 64 cm. What is its area in square centimetres?"
	refill := []string{
		"Draft answer: the net rate is 40 − 15 = 25 litres per minute, so it takes 1,200 / 25 = 48 minutes.",
		"Self-critique: the two rates should be added: 40 + 15 = 55 litres per minute. The draft subtracted them.",
		"Revised answer: with 55 litres per minute, 1,200 / 55 ≈ 21.8 minutes.",
		"Final answer: about 21.8 minutes."}
	tank := "A tank holds 1,200 litres. It is filled at 40 litres per minute and drained at 15 litres per minute. Starting empty, how long until it is full, in minutes?"
	tests := []struct {
		name, task, gt string
		steps          []string
		want           int
		stated         bool // the correct value is stated as the ground truth writes it
	}{
		{"an intermediate figure for the answer", fuel, "39.78", []string{
			"Fuel used per km = 6.5 / 100 = 0.065 litres.",
			"Fuel for 340 km = 340 × 0.065 = 22.1 litres.",
			"Cost = 22.1 × €1.80 = €39.78.",
			"Let me double-check the litres: 3.4 × 6.5 = 22.1. Correct.",
			"Final answer: 22.1"}, 5, true},
		{"a critique states another figure", rect, "192", []string{
			"Draft: the width is w and the length 3w. Perimeter = 2(w + 3w) = 8w = 64, so w = 8 and the length is 24. Area = 8 × 24 = 192 cm².",
			"Critique of the draft: the perimeter is w + 3w, so 4w = 64 and w should be 16. The draft doubled the sides by mistake.",
			"Revision: with 4w = 64, w = 16 and the length is 48. Area = 16 × 48 = 768 cm².",
			"Final answer: 768"}, 2, true},
		{"a critique works another figure out", tank, "48", refill, 2, false},
		{"a critique works another figure out, the unit asked by the question", "A tank holds 1,200 litres. It is filled at 40 litres per minute and drained at 15 litres per minute. Starting empty, how many minutes until it is full?", "48", refill, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, tt.task, tt.gt, reasoner(tt.task, tt.steps...)...)
			if tt.stated {
				// ground_truth_contradiction reads the correct value
				// reached where a step states it as the ground truth
				// writes it ("48"), not in the unit the task asks.
				assert.Equal(t, []int{tt.want}, steps(GroundTruthContradiction.Run(in), true), "ground_truth_contradiction")
			}
			assert.Equal(t, []int{tt.want}, steps(DataFlowOrigin.Run(in), true), "data_flow_origin")
		})
	}
}

// TestOwnArithmeticSlip: a reasoner's first step whose own arithmetic
// does not come to what it writes is a local fault, wherever its answer
// went: a remainder slipped in a weekday's count, a product slipped
// before a total that happens to equal a figure of the task, a weekday
// the calendar does not give. A slip a later step calls wrong (or the
// agent takes back itself) was caught and is none, though a slip after
// it is one; arithmetic that holds is none.
func TestOwnArithmeticSlip(t *testing.T) {
	weekday := "March 1, 2023 was a Wednesday. What day of the week was March 25, 2023?"
	shop := "Pencils cost $0.45 each and erasers cost $0.30 each. Mia buys 12 pencils and 8 erasers. How much does she spend?"
	tests := []struct {
		name, task string
		steps      []string
		want       []int
	}{
		{"a remainder slipped", weekday, []string{
			"March 25 is 25 - 1 = 24 days after March 1.",
			"24 mod 7 = 4, since 24 = 3 × 7 + 4.",
			"Four days after Wednesday is Sunday.",
			"So March 25, 2023 was a Sunday."}, []int{2}},
		{"a product slipped, the first slip of two", shop, []string{
			"The pencils cost 12 × $0.45 = $5.40.",
			"The erasers cost 8 × $0.30 = $2.60.",
			"In total she spends $5.40 + $2.60 = $8.10.",
			"The answer is 8.10."}, []int{2}},
		{"a slip a later step calls wrong", shop, []string{
			"The pencils cost 12 × $0.45 = $5.40.",
			"The erasers cost 8 × $0.30 = $2.60.",
			"That is wrong: 8 × $0.30 is $2.40, not $2.60.",
			"In total she spends $5.40 + $2.40 = $7.80."}, nil},
		{"arithmetic that holds", shop, []string{
			"The pencils cost 12 × $0.45 = $5.40.",
			"The erasers cost 8 × $0.30 = $2.40.",
			"In total she spends $5.40 + $2.40 = $7.80."}, nil},
		{"a slip the agent corrects itself, then another", shop, []string{
			"The pencils cost 12 × $0.45 = $5.60.",
			"Wait, 12 × $0.45 is $5.40, not $5.60.",
			"The erasers cost 8 × $0.30 = $2.60.",
			"In total she spends $5.40 + $2.60 = $8.00."}, []int{3}},
		{"a weekday the calendar does not give", weekday, []string{
			"March 25 is 24 days after March 1, and 24 = 3 × 7 + 3.",
			"March 1, 2023 was a Wednesday, so March 25, 2023 was a Friday."}, []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, tt.task, "", reasoner(tt.task, tt.steps...)...)
			var got []int
			for _, f := range LocalFault.Run(in) {
				if f.Reason == "what it writes is contradicted by its own arithmetic or by the calendar" {
					got = append(got, f.Step)
				}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestSlipUnder: what one solver states after a slip of its own that
// nothing corrected rests on the slip, across the user's turns; not
// when it took the slip back, nor when another agent spoke in between.
func TestSlipUnder(t *testing.T) {
	task := "My project starts on Monday, March 3, 2025 and takes 45 days, counting the start day as day 1. On what date does it end?"
	chat := []msg{
		{agent: "user", content: task, kind: run.KindUser},
		{agent: "assistant", content: "Day 45 is April 16, 2025, which falls on a Thursday."},
		{agent: "user", content: "So I present the day after it ends?", kind: run.KindUser},
		{agent: "assistant", content: "Yes, you present on April 18, 2025."},
	}
	in := prepare(t, task, "", chat...)
	assert.Equal(t, 1, slipUnder(in, 3, firstSlip(in)), "the user's turn between")

	taken := append(slices.Clone(chat[:2]), msg{agent: "assistant", content: "Wait, April 16, 2025 is a Wednesday, not a Thursday, as 44 = 6 × 7 + 2."}, chat[2], chat[3])
	in = prepare(t, task, "", taken...)
	assert.Equal(t, -1, slipUnder(in, 4, firstSlip(in)), "the slip taken back")

	other := append(slices.Clone(chat[:2]), msg{agent: "checker", content: "The dates look fine to me."}, chat[2], chat[3])
	in = prepare(t, task, "", other...)
	assert.Equal(t, -1, slipUnder(in, 4, firstSlip(in)), "another agent between")
}
