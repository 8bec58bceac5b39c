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
		// A correction alone, with no answer of another before it, is an
		// agent's own conclusion (TestCorrections reads it in a run).
		{critique, "Passage [2] gives June 16. The answer should be June 16.", ""},
		{critique, "Thus, the correct answer is 2.", ""},
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
		// A self-correction takes a figure back for another; a "wait"
		// that takes nothing back is none.
		{critique, "Wait, 3 × 25 is 75, not 85. So there are 75 pencils.", "Wait, 3 × 25 is 75, not 8"},
		{critique, "Actually, the rent comes to $1,200 a month, not $1,100.", "Actually, the rent comes to $1,200 a month, not $1"},
		{critique, "Wait, 12 × $0.45 is $5.40, not $5.60.", "Wait, 12 × $0.45 is $5.40, not $5"},
		{critique, "Oops, May 4, 2026 is a Monday, not a Sunday.", "Oops, May 4, 2026 is a Monday, not a Sunday"},
		{critique, "Wait for the page to load, then read 12 rows.", ""},
		{critique, "Actually, 12 is not 13 in any base we use here.", ""},
		{failure, "The page returned 404.", "404"},
		{failure, "You save $404 a month, or € 404 and 1,404 over 404.50.", ""},
		{failure, "Rule 404. Character Evidence; Room 404 is upstairs.", ""},
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

// TestCorrections reads a correction ("the correct answer is 2", "the
// answer should be June 16") as a critique only where it puts forward a
// value other than the one the latest answer of another agent states.
func TestCorrections(t *testing.T) {
	task := run.Step{Agent: "user", Kind: run.KindUser, Content: "How many slides mention crustaceans?"}
	msg := func(agent, content string) run.Step {
		return run.Step{Agent: agent, Kind: run.KindMessage, Content: content}
	}
	tests := []struct {
		name  string
		steps []run.Step
		want  string // the last step's critique
	}{
		{"a checker corrects another's date", []run.Step{task,
			msg("answerer", "The program starts on Saturday, June 13, 2026, according to passage [1]."),
			msg("checker", "Passage [2] gives June 16. The answer should be June 16.")}, "The answer should be "},
		{"a checker corrects another's figure", []run.Step{task,
			msg("answerer", "Full-time employees get 20 days of leave."),
			msg("checker", "Per passage [2], the correct figure is 10 days.")}, "the correct figure is "},
		{"one agent concludes, no answer before", []run.Step{task,
			msg("manager", "Slide 3 and slide 5 mention it. Thus, the correct answer is 2.")}, ""},
		{"one agent restates its own value", []run.Step{task,
			msg("solver", "Counting the slides, 2 of them mention crustaceans."),
			{Agent: "python", Kind: run.KindToolResult, Content: "2"},
			msg("solver", "So the answer should be 2.")}, ""},
		{"another agent's step states no value", []run.Step{task,
			msg("planner", "Please count the slides that mention crustaceans."),
			msg("solver", "Thus, the correct answer is 2.")}, ""},
		{"another agent stated the same value", []run.Step{task,
			msg("counter", "I count 2 slides."),
			msg("checker", "I agree: the correct answer is 2.")}, ""},
		{"another agent's figure is one the task states", []run.Step{{Agent: "user", Kind: run.KindUser, Content: "What is 7 plus 8?"},
			msg("planner", "Add 7 and 8."),
			msg("solver", "7 + 8 = 15, so the answer should be 15.")}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rf := Run(&run.Run{Question: tt.steps[0].Content, Steps: tt.steps})
			last := len(tt.steps) - 1
			assert.Equal(t, tt.want, spanText(tt.steps[last].Content, rf.Steps[last].Critique))
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
