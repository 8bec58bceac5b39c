package extract

import (
	"testing"

	matching "github.com/offattr/offattr/internal/match"
	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestFirstForSkipsOnlyWhatSetOnceKeeps holds the searches otar skips to
// what setOnce does: a part that is not empty keeps its text whatever is
// offered, and an empty part is offered the first match.
func TestFirstForSkipsOnlyWhatSetOnceKeeps(t *testing.T) {
	tx := newText("I think we should check. I will now search the web. The output shows 3.")
	for _, re := range []*matching.Pattern{reasonedRe, intendedRe, observedRe} {
		want, wantOK := tx.first(re)
		got, ok := firstFor("", tx, re)
		assert.True(t, wantOK)
		assert.Equal(t, wantOK, ok)
		assert.Equal(t, want, got)
		_, ok = firstFor("read before", tx, re)
		assert.False(t, ok)
	}
	for _, offered := range []string{"", "  ", "new text", "\tnew\n"} {
		part := "read before"
		setOnce(&part, offered)
		assert.Equal(t, "read before", part, "%q", offered)
	}
}

// TestOTARMadeWhereRead holds OTAR to where it is read: a tool result's
// parts come with its features, since whether it answers for itself
// (its caller) hangs on its Action; every other step's are made by
// Describe, as they are for readers only, and are what they would have
// been had they been made with the step.
func TestOTARMadeWhereRead(t *testing.T) {
	r := &run.Run{Question: "What is 6 times 7?", Steps: []run.Step{
		{Index: 0, Agent: "user", Kind: run.KindUser, Content: "What is 6 times 7?"},
		{Index: 1, Agent: "assistant", Content: "Thought: I need to compute it.\nAction: calculator(6*7)"},
		{Index: 2, Agent: "calculator", Kind: run.KindToolResult, Content: "Action: multiply\nOutput: 42"},
	}}
	rf := Run(r)
	assert.Nil(t, rf.Steps[1].OTAR, "made before Describe")
	tool := rf.Steps[2].OTAR
	assert.Equal(t, "multiply", tool.Action)
	assert.Equal(t, 2, int(rf.Steps[2].Caller), "a result that names its action answers for itself")

	rf.Describe()
	assert.Equal(t, "I need to compute it.", rf.Steps[1].OTAR.Thought)
	assert.Equal(t, "calculator(6*7)", rf.Steps[1].OTAR.Action)
	assert.Equal(t, tool, rf.Steps[2].OTAR, "a tool result's parts are made once")
	for i, s := range r.Steps {
		f := rf.Steps[i]
		tx := newText(s.Content)
		assert.Equal(t, otar(&f, tx, tx.prose()), *f.OTAR, "step %d", i)
	}
}
