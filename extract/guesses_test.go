package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestGuessed: the numbers a plan writes only under its heading of
// educated guesses are its guesses; one it also states elsewhere, or one
// under another heading, is not.
func TestGuessed(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       []string
	}{
		{"a fact sheet's guess", "1. GIVEN OR VERIFIED FACTS\n- It was published in 1937.\n\n2. FACTS TO LOOK UP\n- The page count.\n\n4. EDUCATED GUESSES\n- The first edition had around 300 pages.\n\n\nHere is the plan to follow as best as possible:\n- WebSurfer searches for the count in 2 catalogues.", []string{"300"}},
		{"an updated sheet's heading", "3. FACTS TO DERIVE\n- None.\n\n4. EDUCATED GUESSES OR HUNCHES**\n    - The price might be around $445,000.\n    - Or 555,000.\n\nGiven the new direction, we search 3 sites.", []string{"445000", "555000"}},
		{"also stated as a fact", "1. GIVEN OR VERIFIED FACTS\n- The hall seats 1200.\n\n4. EDUCATED GUESSES\n- About 1200 people attended.\n", nil},
		{"no guesses", "1. GIVEN OR VERIFIED FACTS\n- The hall seats 1200.\n\nHere is the plan: check 1950.", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &run.Run{Source: "t.json", Question: "How many pages?", Steps: []run.Step{
				{Index: 0, Agent: "user", Kind: run.KindUser, Content: "How many pages?"},
				{Index: 1, Agent: "Orchestrator", Kind: run.KindThought, Content: "Initial plan:\n\n" + tt.text},
			}}
			assert.Equal(t, tt.want, Run(r).Steps[1].Guessed)
		})
	}
}
