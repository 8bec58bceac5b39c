package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestQueriedWords: a step of calls alone that only looks something up
// asks for the names its free-text query holds; it states none of them
// (Queried). Its figures are not among them, nor the names a call that
// acts is given, nor a name a lookup is given as what it looks up by.
func TestQueriedWords(t *testing.T) {
	tests := []struct {
		name, call, args string
		prose            string   // words the step writes before a call it makes in its text
		want             []string // the queried claims' norms
	}{
		{"a search's query", "web_search", `{"query": "British Museum visitors 2024 ALVA"}`, "", []string{"british museum", "alva"}},
		{"a list of queries", "search", `{"queries": ["Norway hydropower generation 2023 TWh"]}`, "", []string{"twh"}},
		{"a search engine's q", "google_search", `{"q": "Lhasa Gonggar Airport elevation"}`, "", []string{"lhasa gonggar airport"}},
		{"a call that acts", "send_message", `{"query": "Booked the Hotel Adlon for 2 nights"}`, "", nil},
		{"a lookup by a name", "find_user", `{"name": "Dana Whitfield"}`, "", nil},
		{"a call in the step's text", "web_search", `{"query": "Halvorsen Industries revenue fiscal 2023"}`, "Now the acquirer's revenue.\n", []string{"halvorsen industries"}},
		{"a name only its prose states", "web_search", `{"query": "Brightline Robotics acquirer revenue"}`, "Brightline went to Halvorsen Industries, per the Reuters note.\n", []string{"brightline robotics"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content := tt.call + "(" + tt.args + ")"
			step := run.Step{Index: 1, Agent: "assistant", Kind: run.KindToolCall, Content: content, Extra: &run.Extra{ToolCalls: []run.ToolCall{{ID: "c1", Name: tt.call, Arguments: tt.args}}}}
			if tt.prose != "" {
				step = run.Step{Index: 1, Agent: "assistant", Kind: run.KindToolCall, Content: tt.prose + content}
			}
			r := &run.Run{Question: "Help me.", Steps: []run.Step{{Index: 0, Agent: "user", Kind: run.KindUser, Content: "Help me."}, step}}
			f := Run(r).Steps[1]
			assert.ElementsMatch(t, tt.want, f.Queried, "claims %v", f.Claims)
			assert.NotEmpty(t, f.Claims, "the words stay claims")
		})
	}
}
