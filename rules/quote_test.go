package rules

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

// TestEveryQuoteNamesItsStep: every finding's quote is text of the step it
// names, its own unless QuoteStep says another, on every run of the
// corpora. A quote of the tool output that condemns the step calling it is
// the usual case of another step's text.
func TestEveryQuoteNamesItsStep(t *testing.T) {
	runs := devRuns(t)
	var checked, elsewhere int
	for _, r := range runs {
		in := inputOf(t, r)
		for _, fd := range Apply(in, Registry) {
			q := strings.Trim(fd.Quote, "…")
			if q == "" {
				continue
			}
			from := fd.Step
			if fd.QuoteStep != nil {
				from = *fd.QuoteStep
				elsewhere++
			}
			checked++
			if !quotes(r.Steps[from].Content, q) {
				// A ledger's reason is read from its JSON: compare it
				// with the step's text as it was decoded.
				assert.True(t, inLedger(in.Features, from, q), "%s: %s at step %d quotes %q, which is not step %d's text", r.Source, fd.Rule, fd.Step, fd.Quote, from)
			}
		}
	}
	t.Logf("%d quotes checked, %d of them from another step than the one they are about", checked, elsewhere)
	assert.Positive(t, elsewhere, "some findings quote another step (a tool's output, a reviewer)")
}

// quotes reports whether q, white space collapsed, is in text.
func quotes(text, q string) bool {
	return strings.Contains(strings.Join(strings.Fields(text), " "), q)
}

func inLedger(f *extract.RunFeatures, step int, q string) bool {
	l := f.Steps[step].Ledger
	if l == nil {
		return false
	}
	for _, reason := range []string{l.ProgressBeingMade.Reason, l.InLoop.Reason, l.RequestSatisfied.Reason} {
		if quotes(reason, q) {
			return true
		}
	}
	return false
}

// TestEvidenceSaysWhereAQuoteIsFrom: in the answer, evidence quoting
// another step carries it (quote_step in JSON); evidence quoting its own
// step leaves it out.
func TestEvidenceSaysWhereAQuoteIsFrom(t *testing.T) {
	r := &run.Run{Source: "t.json", Question: "What is 6 times 7?", Steps: []run.Step{
		{Index: 0, Agent: "human", Role: "human", Kind: run.KindUser, Content: "What is 6 times 7?"},
		{Index: 1, Agent: "Coder", Role: "Coder", Content: "```python\nprint(6 * '7')\n```"},
		{Index: 2, Agent: "Computer_terminal", Role: "Computer_terminal", Content: "exitcode: 1 (execution failed)\nCode output: Traceback (most recent call last):\nTypeError: can't multiply sequence by non-int of type 'str'"},
		{Index: 3, Agent: "Coder", Role: "Coder", Content: "The answer is 41. TERMINATE"},
	}}
	a := attribute(t, r)
	var found bool
	for _, e := range a.Evidence {
		if e.QuoteStep != nil {
			found = true
			assert.NotEqual(t, e.Step, *e.QuoteStep, "set only where it differs")
			assert.Equal(t, *e.QuoteStep, e.QuotedStep())
			assert.True(t, quotes(r.Steps[*e.QuoteStep].Content, strings.Trim(e.Quote, "…")), "%+v", e)
		} else {
			assert.Equal(t, e.Step, e.QuotedStep())
		}
	}
	t.Logf("%+v", a.Evidence)
	assert.True(t, found, "the failed run is quoted under the step that issued the code: %+v", a.Evidence)
}

// TestCollapseSpace: a quote's words are one space apart, whether or not
// they already were, as strings.Fields would have them.
func TestCollapseSpace(t *testing.T) {
	for _, s := range []string{
		"", " ", "a", "a b", " a", "a ", "a  b", "a\tb", "a\nb", "a\u00a0b", "a\u2003b", "a \u3000b",
		"\u00a0", "é è", "é  è", "\xff \xfe", "\xff  x", "Searching for 288 near Main St, found 92126.",
		"```python\nprint(523*13733)\n```",
	} {
		want := strings.Join(strings.Fields(s), " ")
		assert.Equal(t, want, collapseSpace(s), "%q", s)
		assert.Equal(t, want == s, singleSpaced(s), "%q", s)
	}
}

func FuzzCollapseSpace(f *testing.F) {
	f.Add("a  b")
	f.Add(" a\u00a0b ")
	f.Fuzz(func(t *testing.T, s string) {
		want := strings.Join(strings.Fields(s), " ")
		if got := collapseSpace(s); got != want {
			t.Fatalf("collapseSpace(%q) = %q, want %q", s, got, want)
		}
	})
}
