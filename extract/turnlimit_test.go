package extract

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// A harness's notice that a run reached its limit of turns, rounds, steps
// or interactions, as frameworks write it, is a turn limit; a prompt that
// tells of the limit, an agent that reaches another maximum, or an agent
// that says mid-sentence it reached the limit, is not.
func TestTurnLimit(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		kind       run.Kind
		want       bool
	}{
		{"AG2", ">>>>>>>> TERMINATING RUN (5f2c): Maximum turns (10) reached", run.KindMessage, true},
		{"Magentic-One", "Max rounds (30) reached.", run.KindTermination, true},
		{"OpenManus", "Terminated: Reached max steps (20)", run.KindMessage, true},
		{"smolagents", "Reached max steps.", run.KindMessage, true},
		{"OpenAI Agents SDK", "MaxTurnsExceeded: Max turns (10) exceeded", run.KindMessage, true},
		{"LangGraph", "GraphRecursionError: Recursion limit of 25 reached without hitting a stop condition.", run.KindMessage, true},
		{"LangChain", "Agent stopped due to iteration limit or time limit.", run.KindMessage, true},
		{"AppWorld-style", "Maximum number of interactions (12) reached. The task was not completed.", run.KindMessage, true},
		{"a system prompt", "You have at most 20 steps. When the maximum number of steps is reached, the run stops.", run.KindSystem, false},
		{"another maximum", "The order reached the maximum quantity of 10 per customer.", run.KindMessage, false},
		{"a plan", "We must finish before the step limit; the limit is 20 steps.", run.KindMessage, false},
		{"an agent's own reply", "I have reached the maximum number of steps, so my answer is 42.", run.KindMessage, false},
		{"a notice after output", "Output: 3 rows\n[harness] Max steps (20) reached", run.KindMessage, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &run.Run{Source: "t.json", Question: "Count the errors.", Steps: []run.Step{
				{Index: 0, Agent: "user", Kind: run.KindUser, Content: "Count the errors."},
				{Index: 1, Agent: "harness", Kind: tt.kind, Content: tt.text},
			}}
			assert.Equal(t, tt.want, Run(r).Steps[1].TurnLimit)
		})
	}
}

// A run stopped at its turn limit before any agent answered has no final
// answer in the notice: its figures are the limit's, not a value the run
// found. An answer the harness asks for after the notice is the run's.
func TestTurnLimitIsNoAnswer(t *testing.T) {
	steps := []run.Step{
		{Index: 0, Agent: "supervisor", Kind: run.KindUser, Content: "How many playlists have more than 20 songs?"},
		{Index: 1, Agent: "agent", Kind: run.KindMessage, Content: "```python\nprint(apis.spotify.show_playlist_library(access_token=token))\n```"},
		{Index: 2, Agent: "environment", Kind: run.KindMessage, Content: "Output:\n```\n[{\"playlist_id\": 311, \"songs\": 22}]\n```"},
		{Index: 3, Agent: "environment", Kind: run.KindMessage, Content: "Maximum number of interactions (12) reached. The task was not completed."},
	}
	rf := Run(&run.Run{Source: "t.json", Question: "How many playlists have more than 20 songs?", Steps: steps})
	assert.True(t, rf.Steps[3].TurnLimit)
	if fa := rf.FinalAnswer; fa != nil {
		assert.NotEqual(t, 3, fa.Step, fa.Text)
	}
	forced := append(slices.Clone(steps), run.Step{Index: 4, Agent: "agent", Kind: run.KindMessage, Content: "There are 7 playlists with more than 20 songs."})
	rf = Run(&run.Run{Source: "t.json", Question: "How many playlists have more than 20 songs?", Steps: forced})
	if assert.NotNil(t, rf.FinalAnswer) {
		assert.Equal(t, 4, rf.FinalAnswer.Step)
	}
}

// An instruction that sends word for word what its agent's last ledger
// named to ask the next speaker was decided at that ledger; one that says
// something else, or another agent's message, was not.
func TestSendsLedger(t *testing.T) {
	ledger := "Updated Ledger:\n{\n  \"is_request_satisfied\": {\"reason\": \"Not yet.\", \"answer\": false},\n  \"is_in_loop\": {\"reason\": \"No.\", \"answer\": false},\n  \"is_progress_being_made\": {\"reason\": \"Yes.\", \"answer\": true},\n  \"next_speaker\": {\"reason\": \"Surfer can browse.\", \"answer\": \"Surfer\"},\n  \"instruction_or_question\": {\"reason\": \"Surfer can browse.\", \"answer\": \"Open the statistics page.\"}\n}"
	for _, tt := range []struct {
		name, agent, text string
		kind              run.Kind
		want              *int
	}{
		{"the ledger's instruction", "Orchestrator", "Open the statistics page.", run.KindInstruction, ptr(1)},
		{"sent as a plain message", "Orchestrator", "Open the statistics page.", run.KindMessage, ptr(1)},
		{"another instruction", "Orchestrator", "Search for the census table.", run.KindInstruction, nil},
		{"another agent's words", "Surfer", "Open the statistics page.", run.KindMessage, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &run.Run{Source: "t.json", Question: "What was the population?", Steps: []run.Step{
				{Index: 0, Agent: "human", Kind: run.KindUser, Content: "What was the population?"},
				{Index: 1, Agent: "Orchestrator", Kind: run.KindThought, Content: ledger},
				{Index: 2, Agent: tt.agent, Kind: tt.kind, Content: tt.text, Extra: &run.Extra{Target: "Surfer"}},
			}}
			assert.Equal(t, tt.want, Run(r).Steps[2].SendsLedger)
		})
	}
}
