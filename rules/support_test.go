package rules

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

// TestSupportIndexAgreesWithScan holds the token index that support
// consults past its first steps (firstHolding) to the step-by-step scan it
// stands for:
// for random runs, values and readers, the first step that holds a value
// and counts is the one the scan finds.
func TestSupportIndexAgreesWithScan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// The Kelvin sign and the dotted capital I lower to ASCII letters.
		text := rapid.StringMatching(`[aB1 .:_\-ki\x{212A}\x{0130}\x{00C9}]{0,12}`)
		n := rapid.IntRange(1, 12).Draw(t, "steps")
		r := &run.Run{Question: text.Draw(t, "question")}
		f := &extract.RunFeatures{}
		for j := range n {
			r.Steps = append(r.Steps, run.Step{Index: j, Agent: rapid.SampledFrom([]string{"a", "B", "c"}).Draw(t, "agent"), Content: text.Draw(t, "content")})
			var kinds []extract.StepKind
			if rapid.Bool().Draw(t, "result") {
				kinds = append(kinds, extract.KindToolResult)
			}
			f.Steps = append(f.Steps, extract.Features{Index: int32(j), Kinds: extract.KindsOf(kinds...), Details: &extract.Details{Rare: &extract.Rare{}}})
		}
		in := &Input{Run: r, Features: f}
		// A value is never empty: arguments and claims hold text.
		v := strings.ToLower(rapid.StringMatching(`[aB1 .:_\-ki]{1,6}`).Draw(t, "value"))
		reader := from{others: rapid.Bool().Draw(t, "others"), self: rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "self")}
		s := newSupport(in)
		for i := range n + 1 {
			want := s.text.Holds(-1, v)
			for j := range i {
				want = want || s.counts(j, reader) && s.text.Holds(j, v)
			}
			got := s.text.Holds(-1, v) || s.firstHolding(v, reader) < i
			assert.Equal(t, want, got, "%q before step %d", v, i)
		}
	})
}

// TestRateGivenAsPercentIsNoPlanValue: a task that gives a rate in percent
// gives the fraction a design writes for it; the value a reviewer later
// demands in its place is the one with no source.
func TestRateGivenAsPercentIsNoPlanValue(t *testing.T) {
	q := "Write vat_amount(net) for our invoices: VAT is 19 percent of the net amount. Report vat_amount(100)."
	in := prepare(t, q, "",
		msg{agent: "Human", content: q, kind: run.KindUser},
		msg{agent: "Architect", content: "## Implementation approach\ninvoice.py holds VAT_RATE = 0.19 and vat_amount(net) = round(net * VAT_RATE, 2)."},
		msg{agent: "Engineer", content: "## Code: invoice.py\n```python\nVAT_RATE = 0.19\n\n\ndef vat_amount(net):\n    return round(net * VAT_RATE, 2)\n```"},
		msg{agent: "Reviewer", content: "## Code Review: invoice.py\nThe rate is wrong. Use 0.16 not 0.19.\n\n## Actions\n1. Set VAT_RATE = 0.16."},
		msg{agent: "Engineer", content: "## Code: invoice.py\n```python\nVAT_RATE = 0.16\n\n\ndef vat_amount(net):\n    return round(net * VAT_RATE, 2)\n```"},
	)
	for _, a := range []*Analyzer{UnsupportedPlanValue, UnsupportedClaim} {
		assert.NotContains(t, steps(a.Run(in), true), 1, "%s: 0.19 is the task's 19 percent", a.Name)
	}
	assert.Contains(t, steps(UnsupportedClaim.Run(in), true), 3, "0.16 has no source")
}

func TestOnlyRecord(t *testing.T) {
	recs := []extract.Record{
		{IDs: []string{"acct_1"}, Numbers: []string{"120"}},
		{IDs: []string{"acct_2"}, Numbers: []string{"120", "75"}},
		{IDs: []string{"acct_3"}, Numbers: []string{"40"}},
	}
	for _, tt := range []struct {
		figure string
		want   int
	}{
		{"75", 1},
		{"40", 2},
		{"120", -1}, // two records give it: it tells none apart
		{"9", -1},
	} {
		got := onlyRecord(recs, func(r extract.Record) bool { return slices.Contains(r.Numbers, tt.figure) })
		assert.Equal(t, tt.want, got, tt.figure)
	}
}

// TestUnsupportedArgumentsOfUnitsInTheSingular: a call that writes a
// word the task writes in the other grammatical number ("2.8 cup" for
// its "cups", "1 mile" for "miles") takes that word from the task; a
// word the task does not hold in either number is still new.
func TestUnsupportedArgumentsOfUnitsInTheSingular(t *testing.T) {
	for _, tt := range []struct {
		task, expr, arg string
		want            []int
	}{
		{"A loaf needs 0.7 cups of flour. How many cups of flour for 4 loaves?", "0.7 * 4", "flour: 2.8 cup", nil},
		{"A loaf needs 0.7 cups of flour. How many cups of flour for 4 loaves?", "0.7 * 4", "flour: 2.8 cups", nil},
		{"A lap is 0.25 miles. How many miles is 4 laps?", "0.25 * 4", "4 laps: 1 mile", nil},
		{"A loaf needs 0.7 cups of flour. How many cups of flour for 4 loaves?", "0.7 * 4", "sugar: 2.8 spoon", []int{3}},
	} {
		in := prepare(t, tt.task, "",
			msg{agent: "user", content: tt.task, kind: run.KindUser},
			msg{agent: "assistant", content: `calculator({"expression": "` + tt.expr + `"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "2.8", kind: run.KindToolResult},
			msg{agent: "assistant", content: `add_note({"text": "` + tt.arg + `"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "saved", kind: run.KindToolResult},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.arg)
	}
}
