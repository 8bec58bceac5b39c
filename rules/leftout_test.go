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

// TestDataFlowRerankingNarrowsOutTheName: a pipeline retrieves chunks
// for the rewritten question, a reranker keeps some of them, and the
// answer takes its value from what was kept. A reranker that keeps a
// namesake's chunk ("Mercury City Tower" in Moscow) and drops the one
// naming the task's subject ("Mercury Tower" in Malta) narrowed what the
// answer could say: it is named. One that keeps the subject's chunk
// leaves the choice to the answer, and so does one whose kept chunk
// names nothing of the subject's kind.
func TestDataFlowRerankingNarrowsOutTheName(t *testing.T) {
	const (
		task    = "In what year was construction of the Mercury Tower in Malta completed?"
		malta   = "Mercury Tower is a residential skyscraper in St. Julian's, Malta. Construction began in 2016 and was completed in 2021."
		moscow  = "Mercury City Tower is a skyscraper in the Moscow International Business Center. Construction was completed in 2013."
		portom  = "The Portomaso Business Tower in St. Julian's, Malta, completed in 2001, was the tallest building in Malta."
		harbour = "The harbour of St. Julian's, Malta, was rebuilt in 2013."
	)
	for _, tc := range []struct {
		name, kept, answer string
		want               int // the step data_flow_origin names first
	}{
		{"the reranker keeps the namesake's chunk", moscow + "\n\n" + portom, "Construction of the Mercury Tower was completed in 2013.", 3},
		{"the reranker keeps the subject's chunk", malta + "\n\n" + moscow, "Construction of the Mercury Tower was completed in 2013.", 5},
		{"the kept chunk names nothing of the subject's kind", harbour, "Construction of the Mercury Tower was completed in 2013.", 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const query = "Mercury Tower Malta construction completed year"
			retrieved := malta + "\n\n" + moscow + "\n\n" + portom + "\n\n" + harbour
			r := &run.Run{Source: "test.json", Question: task, Steps: []run.Step{
				{Agent: "user", Kind: run.KindUser, Content: task},
				{Agent: "assistant", Kind: run.KindToolCall, Content: query, Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: "VectorIndexRetriever.retrieve", Arguments: query}}}},
				{Agent: "assistant", Kind: run.KindToolResult, Content: retrieved},
				{Agent: "assistant", Kind: run.KindToolCall, Content: "CohereRerank.postprocess_nodes(" + query + ")", Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: "CohereRerank.postprocess_nodes", Arguments: query}}}},
				{Agent: "assistant", Kind: run.KindToolResult, Content: tc.kept},
				{Agent: "assistant", Kind: run.KindMessage, Content: tc.answer},
			}}
			assert.Equal(t, tc.want, firstOrigin(t, r))
		})
	}
}
