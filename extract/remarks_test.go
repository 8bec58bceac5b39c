package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// spanText is the text a span marks in s, "" for none.
func spanText(s string, sp *Span) string {
	if sp == nil {
		return ""
	}
	return s[sp.Offset : sp.Offset+sp.Len]
}

// TestRemarks reads where a step first criticises an earlier result and
// where it first uses failure words.
func TestRemarks(t *testing.T) {
	critique := func(f Features) *Span { return f.Critique }
	failure := func(f Features) *Span { return f.FailureWords }
	tests := []struct {
		fact       func(Features) *Span
		text, want string
	}{
		{critique, "The total IS WRONG.", "IS WRONG"},
		{critique, "There was a bug in it", "There was a bug in"},
		{critique, "This doesn't match", "doesn't match"},
		{critique, "you made an error", "made an error"},
		{critique, "The answer of 20 days is not supported; the correct figure is 10 days.", "The answer of 20 days is not supported"},
		{critique, "Passage [2] gives June 16. The answer should be June 16.", "The answer should be "},
		{critique, "So the correct total is $48.", "the correct total is "},
		{critique, "The output should be sorted by date.", ""},
		{critique, "The answer should be a comma-separated list.", ""},
		{critique, "This operation is not supported by the API.", ""},
		{critique, "there is a result; there is no error. It is incorrect", "is incorrect"},
		// Offsets are bytes, after runes of several bytes and a rune whose
		// lower case is shorter (the Kelvin sign).
		{critique, "Ünïcödé first — then the result is incorrect: 2+2 is 5.", "is incorrect"},
		{critique, "\u212Aelvin: there is an issue in the plan", "there is an issue in"},
		{critique, "thisis wrong, ıt was wrong", "was wrong"},
		{critique, "there was an mistake inside", ""},
		{critique, "it is wrongé", ""},
		{critique, "made an", ""},
		{failure, "The page returned 404.", "404"},
		{failure, "You save $404 a month, or € 404 and 1,404 over 404.50.", ""},
		{failure, "exitcode: 1 (execution failed)", "exitcode: 1"},
		{failure, "exit code 0, then it failed", "failed"},
		{failure, "it raised an Exception here", "Exception"},
		{failure, "Résumé: the page was not found", "not found"},
		{failure, "all good", ""},
		// A contraction says the same with a typographic apostrophe.
		{failure, "I can't open it", "can't"},
		{failure, "I can’t open it", "can’t"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			f := Run(&run.Run{Steps: []run.Step{{Agent: "a", Kind: run.KindMessage, Content: tt.text}}}).Steps[0]
			assert.Equal(t, tt.want, spanText(tt.text, tt.fact(f)))
		})
	}
}

func TestStates(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{`{"order_id": "#W1", "status": "Pending", "items": [{"status": "delivered"}]}`, []string{"pending", "delivered"}},
		{`{"Status":"Cancelled"}`, []string{"cancelled"}},
		{`"ſtatuſ": "x"`, []string{"x"}}, // the long s folds to s
		{`{"state": "CA", "status": ""}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			r := &run.Run{Steps: []run.Step{
				{Agent: "user", Kind: run.KindUser, Content: "cancel my order"},
				{Agent: "tool", Kind: run.KindToolResult, Content: tt.text},
				{Agent: "agent", Kind: run.KindMessage, Content: tt.text},
			}}
			rf := Run(r)
			assert.Equal(t, tt.want, rf.Steps[1].States)
			assert.Nil(t, rf.Steps[2].States, "only a tool result reports states")
		})
	}
}

func TestExpectedCalls(t *testing.T) {
	r := &run.Run{
		GroundTruth: `cancel_pending_order({"order_id": "#W2", "reason": "no longer needed"}) then get_user()`,
		Steps:       []run.Step{{Agent: "user", Kind: run.KindUser, Content: "help"}},
	}
	calls := Run(r).ExpectedCalls
	if assert.Len(t, calls, 2) {
		assert.Equal(t, "cancel_pending_order", calls[0].Name)
		assert.ElementsMatch(t, []string{"#W2", "no longer needed"}, calls[0].Values)
		assert.Equal(t, "get_user", calls[1].Name)
	}
	r.GroundTruth = "42"
	assert.Empty(t, Run(r).ExpectedCalls)
}
