package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestPlanReplacesWhatWasFound: a new plan that writes a name of its own
// (Vienna) where a search had found another (Salzburg), which its agent
// had handed on, and under which the work looks the new name up, is
// where the answer went wrong. A new plan that keeps the name found, or
// only adds a new source to look in, replaces nothing. Shape:
// Magentic-One, an orchestrator's plans and instructions, a web agent's
// own page results, no ground truth.
func TestPlanReplacesWhatWasFound(t *testing.T) {
	q := "What is the driving distance in kilometres between the birthplaces of Wolfgang Amadeus Mozart and Ludwig van Beethoven?"
	for _, tt := range []struct {
		name, facts, route string
		want               []int
	}{
		{"a birthplace other than the one found", "Mozart was born in Vienna, Austria. Beethoven was born in Bonn.", "Vienna", []int{6}},
		{"the birthplace found kept", "Mozart was born in Salzburg. Beethoven was born in Bonn.", "Salzburg", nil},
	} {
		in := prepare(t, q, "",
			msg{agent: "human", content: q, kind: run.KindUser},
			msg{agent: "Orchestrator", content: "Please confirm the birthplaces of Mozart and Beethoven.", kind: run.KindInstruction, target: "WebSurfer"},
			msg{agent: "WebSurfer", content: "I typed 'Mozart Beethoven birthplace'.\n\nMozart was born in 1756 at Getreidegasse 9 in Salzburg. Beethoven was born in Bonn in 1770.", kind: run.KindToolResult},
			msg{agent: "Orchestrator", content: "Please open Google Maps and get the driving directions from Salzburg to Bonn.", kind: run.KindInstruction, target: "WebSurfer"},
			msg{agent: "WebSurfer", content: "I typed 'https://www.google.com/maps/dir/Bonn'. Before you continue to Google: Accept all.", kind: run.KindToolResult},
			msg{agent: "Orchestrator", content: "Stalled.... Replanning...", kind: run.KindThought},
			msg{agent: "Orchestrator", content: "New plan:\n\n1. GIVEN OR VERIFIED FACTS\n- " + tt.facts + "\n\nHere is the plan to follow as best as possible:\n- WebSurfer opens ViaMichelin and gets the driving distance from " + tt.route + " to Bonn.", kind: run.KindThought},
			msg{agent: "Orchestrator", content: "Please open ViaMichelin and get the driving distance from " + tt.route + " to Bonn.", kind: run.KindInstruction, target: "WebSurfer"},
			msg{agent: "WebSurfer", content: "I typed 'ViaMichelin " + tt.route + " Bonn route'.\n\nViaMichelin: " + tt.route + " - Bonn, 922 km, 9 h 20 min.", kind: run.KindToolResult},
			msg{agent: "Orchestrator", content: "FINAL ANSWER: 922"},
		)
		assert.Equal(t, tt.want, stepsFor(DataFlowOrigin.Run(in), "where step"), tt.name)
	}
}
