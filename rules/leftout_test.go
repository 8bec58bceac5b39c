package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/run"
)

// TestDataFlowSearchLeavesOutTheYear: an assistant searches for the
// task's subject without the year the task asks about, the search brings
// back what other years' pages say, and the answer takes one of their
// figures: the search chose what the answer could say, not the answer
// that picked among the figures. A search that asks with the year (the
// result holding the year's figure beside another's) leaves the choice to
// the answer, as does one whose result writes the task's year though the
// query did not; and a task that names no year leaves the answer its
// choice. The shape is a retrieval assistant's chat, a multi-hop one whose
// first search finds the subject.
func TestDataFlowSearchLeavesOutTheYear(t *testing.T) {
	const (
		task   = "Which company acquired Brightline Robotics, and what was the acquirer's revenue in fiscal 2023?"
		noYear = "Which company acquired Brightline Robotics, and what is the acquirer's revenue?"
		found  = `[{"id": "press-halvorsen", "text": "Halvorsen Industries completed its acquisition of Brightline Robotics for $640 million."}]`
		others = `[{"id": "10k-fy2021", "text": "Revenue for fiscal 2021 was $4.1 billion."}, {"id": "10k-fy2020", "text": "Revenue for fiscal 2020 was $3.7 billion."}]`
		both   = `[{"id": "10k-fy2023", "text": "Revenue for fiscal 2023 was $4.8 billion, against $4.1 billion in fiscal 2022."}]`
	)
	for _, tc := range []struct {
		name, task, query, result string
		want                      int // the step data_flow_origin names first
	}{
		{"the second search leaves out the year", task, "Halvorsen Industries annual revenue", others, 4},
		{"the second search asks for the year", task, "Halvorsen Industries revenue fiscal 2023", both, 6},
		{"the result writes the year though the query does not", task, "Halvorsen Industries annual revenue", both, 6},
		{"the task names no year", noYear, "Halvorsen Industries annual revenue", others, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			step := func(agent string, kind run.Kind, content string, e *run.Extra) run.Step {
				return run.Step{Agent: agent, Kind: kind, Content: content, Extra: e}
			}
			callOf := func(id, query string) *run.Extra {
				return &run.Extra{ToolCalls: []run.ToolCall{{ID: id, Name: "retrieve", Arguments: `{"query": "` + query + `"}`}}}
			}
			r := &run.Run{Source: "test.json", Question: tc.task, Steps: []run.Step{
				step("system", run.KindSystem, "You answer from the filings index. Use the retrieve tool.", nil),
				step("user", run.KindUser, tc.task, nil),
				step("assistant", run.KindToolCall, `retrieve({"query": "Brightline Robotics acquired by"})`, callOf("c1", "Brightline Robotics acquired by")),
				step("tool", run.KindToolResult, found, &run.Extra{ToolCallID: "c1"}),
				step("assistant", run.KindToolCall, `retrieve({"query": "`+tc.query+`"})`, callOf("c2", tc.query)),
				step("tool", run.KindToolResult, tc.result, &run.Extra{ToolCallID: "c2"}),
				step("assistant", run.KindMessage, "Brightline Robotics was acquired by Halvorsen Industries, whose revenue was $4.1 billion.", nil),
			}}
			assert.Equal(t, tc.want, firstOrigin(t, r))
		})
	}
}

// TestDataFlowSearchLeavesOutTheName: an assistant searches without the
// name that sets the task's subject apart (a fare, "Economy Light"), and
// the search brings back what other fares of its kind allow ("Economy
// Classic", "Economy Flex"); the answer takes one of their figures: the
// search is where the run went wrong. A search that names the fare, a
// result that names it though the query did not, and a result that names
// no other fare of its kind leave the answer its choice.
func TestDataFlowSearchLeavesOutTheName(t *testing.T) {
	const (
		task     = "What is the checked baggage allowance for Economy Light fares on Skyra Air long-haul flights?"
		variants = "Long-haul Economy Classic and Economy Flex fares include one checked bag of up to 23 kg. Long-haul Business fares include two bags of up to 32 kg each."
		named    = "Long-haul Economy Light fares include no checked bag; Economy Classic fares include one bag of up to 23 kg and Business fares two bags of up to 32 kg."
		none     = "Checked bags of up to 23 kg are included on long-haul fares; Business passengers may check two bags of up to 32 kg."
	)
	for _, tc := range []struct {
		name, query, result string
		want                int // the step data_flow_origin names first
	}{
		{"the search leaves out the fare", "Skyra Air long-haul checked baggage allowance", variants, 2},
		{"the search names the fare", "Skyra Air Economy Light long-haul checked baggage", variants, 4},
		{"the result names the fare though the query does not", "Skyra Air long-haul checked baggage allowance", named, 4},
		{"the result names no other fare of its kind", "Skyra Air long-haul checked baggage allowance", none, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := `{"query": "` + tc.query + `"}`
			r := &run.Run{Source: "test.json", Question: task, Steps: []run.Step{
				{Agent: "system", Kind: run.KindSystem, Content: "Answer from the airline's documents. Use the search_docs tool."},
				{Agent: "user", Kind: run.KindUser, Content: task},
				{Agent: "assistant", Kind: run.KindToolCall, Content: "search_docs(" + args + ")", Extra: &run.Extra{ToolCalls: []run.ToolCall{{ID: "c1", Name: "search_docs", Arguments: args}}}},
				{Agent: "tool", Kind: run.KindToolResult, Content: tc.result, Extra: &run.Extra{ToolCallID: "c1"}},
				{Agent: "assistant", Kind: run.KindMessage, Content: "Economy fares on Skyra Air long-haul flights include one checked bag of up to 23 kg."},
			}}
			assert.Equal(t, tc.want, firstOrigin(t, r))
		})
	}
}

// firstOrigin numbers the run's steps and returns the step
// data_flow_origin names first.
func firstOrigin(t *testing.T, r *run.Run) int {
	t.Helper()
	for i := range r.Steps {
		r.Steps[i].Index = i
	}
	f := extract.Run(r)
	g, err := graph.Build(r, f)
	require.NoError(t, err)
	got := DataFlowOrigin.Run(&Input{Run: r, Features: f, Graph: g})
	require.NotEmpty(t, got)
	return got[0].Step
}
