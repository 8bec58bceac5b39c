package rules

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/run"
)

// withCalls is prepare for steps given whole, structured calls and the
// results that answer them among them.
func withCalls(t *testing.T, question string, steps ...run.Step) *Input {
	t.Helper()
	r := &run.Run{Source: "test.json", Question: question}
	for i, s := range steps {
		s.Index = i
		r.Steps = append(r.Steps, s)
	}
	f := extract.Run(r)
	g, err := graph.Build(r, f)
	require.NoError(t, err)
	return &Input{Run: r, Features: f, Graph: g}
}

// TestIntroducedDayIsTheWritesValue: a day of a month a step states
// first (a memory it stores, with a reason beside the call), which a
// later step acts on, is the value it introduced; a day the user gave,
// or days a step lists, are not.
func TestIntroducedDayIsTheWritesValue(t *testing.T) {
	write := func(content string) run.Step {
		return run.Step{Agent: "assistant", Kind: run.KindToolCall, Content: "Saving that to core memory.",
			Extra: &run.Extra{ToolCalls: []run.ToolCall{{ID: "c1", Name: "core_memory_append", Arguments: `{"label": "human", "content": "` + content + `"}`}}}}
	}
	tests := []struct {
		name, user, stored, later string
		want                      bool
	}{
		{"a day other than the user's", "My daughter Maya turns 7 on March 14.", "Daughter Maya, turns 7 on March 4.", "Maya's birthday is March 4, so the Saturday after is March 8.", true},
		{"the user's day", "My daughter Maya turns 7 on March 14.", "Daughter Maya, turns 7 on March 14.", "Maya's birthday is March 14, so the Saturday after is March 15.", false},
		{"days listed", "Which days of the week after March 3 is the office open?", "Open March 4, March 5, March 6 and March 7.", "The office is open on March 4.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := withCalls(t, tt.user,
				run.Step{Agent: "user", Kind: run.KindUser, Content: tt.user},
				write(tt.stored),
				run.Step{Agent: "assistant", Kind: run.KindToolResult, Content: `{"status": "OK", "message": "None"}`, Extra: &run.Extra{ToolCallID: "c1"}},
				run.Step{Agent: "user", Kind: run.KindUser, Content: "Book the party room for the Saturday after her birthday."},
				run.Step{Agent: "assistant", Kind: run.KindMessage, Content: tt.later},
			)
			assert.Equal(t, tt.want, slices.Contains(steps(UnsupportedClaim.Run(in), true), 1))
		})
	}
}
