package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// limitRun is an agent acting by code blocks that an environment runs: it
// lists the library, then re-runs the same listing to the end; limit adds
// the harness's notice that the run reached its turn limit, and failed
// has every listing fail.
func limitRun(t *testing.T, limit, failed bool) *Input {
	t.Helper()
	list := "```python\nitems = apis.library.show_items(access_token=token, page_index=0)\nprint(items)\n```"
	listed := "Output:\n```\n[\n {\n  \"item_id\": 41,\n  \"title\": \"Blue Notebook\",\n  \"copies\": 3\n },\n {\n  \"item_id\": 57,\n  \"title\": \"Red Atlas\",\n  \"copies\": 12\n }\n]\n```"
	if failed {
		listed = "Output:\n```\nExecution failed. Traceback:\n  File \"<python-input>\", line 1\nException: Response status code is 401:\n{\"message\":\"You are either not authorized to access this API or your access token is invalid.\"}\n```"
	}
	msgs := []msg{
		{agent: "supervisor", content: "Task: How many items in my library have more than 10 copies?", kind: run.KindUser},
		{agent: "Library_Agent", content: "Let me log in and list the items.\n```python\ntoken = apis.library.login(username='me@example.com', password='pw')['access_token']\nitems = apis.library.show_items(access_token=token, page_index=0)\nprint(items)\n```"},
		{agent: "environment", content: listed},
		{agent: "Library_Agent", content: "Now let me count the items with more than 10 copies.\n" + list},
		{agent: "environment", content: listed},
		{agent: "Library_Agent", content: "Let me look at the items again to count them.\n" + list},
		{agent: "environment", content: listed},
		{agent: "Library_Agent", content: "I will list the items once more.\n" + list},
		{agent: "environment", content: listed},
		{agent: "Library_Agent", content: list},
		{agent: "environment", content: listed},
	}
	if limit {
		msgs = append(msgs, msg{agent: "environment", content: "Maximum number of interactions (10) reached. The task was not completed."})
	}
	return prepare(t, "How many items in my library have more than 10 copies?", "1", msgs...)
}

// limitPlannerRun is an orchestrator that sends the same instruction again
// after its executor reported a page that did not change, until the
// harness stops the run at its round limit and asks for an answer; with
// ledgers, a progress ledger decides each instruction before it is sent.
func limitPlannerRun(t *testing.T, ledgers bool) *Input {
	t.Helper()
	click := "Click the 'Population in municipalities' link and read the figure for Tromsø."
	blocked := "I clicked 'Population in municipalities'. The page shows a dialog: 'We use cookies. Accept all cookies | Only necessary cookies'. The page did not change."
	ledger := "Updated Ledger:\n{\n  \"is_request_satisfied\": {\"reason\": \"The figure has not been read.\", \"answer\": false},\n  \"is_in_loop\": {\"reason\": \"Following the plan.\", \"answer\": false},\n  \"is_progress_being_made\": {\"reason\": \"The page is open.\", \"answer\": true},\n  \"next_speaker\": {\"reason\": \"Surfer can click.\", \"answer\": \"Surfer\"},\n  \"instruction_or_question\": {\"reason\": \"Surfer can click.\", \"answer\": \"" + click + "\"}\n}"
	msgs := []msg{
		{agent: "human", content: "What was the population of Tromsø on 1 January 2023?", kind: run.KindUser},
		{agent: "Orchestrator", content: "Initial plan:\n\nHere is the plan to follow as best as possible:\n- Surfer opens the statistics page and reads Tromsø's row.", kind: run.KindThought},
	}
	for range 3 {
		if ledgers {
			msgs = append(msgs, msg{agent: "Orchestrator", content: ledger, kind: run.KindThought})
		}
		msgs = append(msgs,
			msg{agent: "Orchestrator", content: click, kind: run.KindInstruction, target: "Surfer"},
			msg{agent: "Surfer", content: blocked})
	}
	msgs = append(msgs,
		msg{agent: "Orchestrator", content: "Max rounds (30) reached.", kind: run.KindTermination},
		msg{agent: "Orchestrator", content: "FINAL ANSWER: 77000", kind: run.KindTermination})
	return prepare(t, "What was the population of Tromsø on 1 January 2023?", "77544", msgs...)
}

// limitChatRun is a supervisor that routes the same request again after its
// researcher's unchanged reply, in a chat the graph reads no instruction
// in, until the harness stops it; first, when given, is a request of its
// own the loop's first reply answers.
func limitChatRun(t *testing.T, first string) *Input {
	t.Helper()
	route := "Routing to researcher: find the 2023 ranking of container lines by number of ships and report the leader."
	reply := "I searched for 'largest container shipping company 2023 fleet'. The results list two large carriers; none of the snippets gives the 2023 ranking itself."
	msgs := []msg{{agent: "user", content: "Which company operated the most container ships in 2023?", kind: run.KindUser}}
	if first != "" {
		msgs = append(msgs, msg{agent: "supervisor", content: first}, msg{agent: "researcher", content: reply})
	}
	for range 3 {
		msgs = append(msgs, msg{agent: "supervisor", content: route}, msg{agent: "researcher", content: reply})
	}
	msgs = append(msgs, msg{agent: "system", content: "GraphRecursionError: Recursion limit of 10 reached without hitting a stop condition."})
	return prepare(t, "Which company operated the most container ships in 2023?", "", msgs...)
}

func TestLoopAtTurnLimit(t *testing.T) {
	const why = "turn limit"
	for _, tc := range []struct {
		name string
		in   func(t *testing.T) *Input
		want []int
	}{
		{"an agent re-runs a call whose result came back, to the limit", func(t *testing.T) *Input { return limitRun(t, true, false) }, []int{3}},
		{"a loop that never reaches a limit is not read so", func(t *testing.T) *Input { return limitRun(t, false, false) }, nil},
		{"a loop re-running a failed call is the failure's", func(t *testing.T) *Input { return limitRun(t, true, true) }, nil},
		{"an orchestrator re-sends an instruction whose result came back, to the limit", func(t *testing.T) *Input { return limitPlannerRun(t, false) }, []int{4}},
		{"the ledger that decided the instruction answers for it", func(t *testing.T) *Input { return limitPlannerRun(t, true) }, []int{5}},
		{"a chat's agent repeats its request after the reply it answered", func(t *testing.T) *Input { return limitChatRun(t, "") }, []int{3}},
		{"an other request that got the same reply is no repeat", func(t *testing.T) *Input {
			return limitChatRun(t, "Routing to researcher: search the news for the largest container line of 2023.")
		}, []int{5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, stepsFor(PlanningControl.Run(tc.in(t)), why))
		})
	}
}

func TestForcedAnswerNotBlamed(t *testing.T) {
	in := limitPlannerRun(t, false)
	require.NotNil(t, in.Features.FinalAnswer)
	forced := in.Features.FinalAnswer.Step
	for _, a := range []*Analyzer{DataFlowOrigin, GroundTruthContradiction} {
		assert.NotContains(t, steps(a.Run(in), true), forced, a.Name)
	}
	// Without the limit the same answer is the run's own, and its value
	// first stated there is blamed on it.
	free := limitPlannerRun(t, false)
	free.Features.Steps[8].Rare.TurnLimit = false
	assert.Contains(t, steps(GroundTruthContradiction.Run(free), true), forced)
}

// The harness's notice that it stopped the run is no agent's step, and no
// candidate for the decisive fault.
func TestTurnLimitNoticeNotEligible(t *testing.T) {
	in := limitChatRun(t, "")
	last := len(in.Run.Steps) - 1
	require.True(t, in.Features.Steps[last].TurnLimit)
	assert.False(t, Eligible(in, last))
	assert.True(t, Eligible(in, last-1))
}
