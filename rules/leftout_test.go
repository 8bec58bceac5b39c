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
			for i := range r.Steps {
				r.Steps[i].Index = i
			}
			f := extract.Run(r)
			g, err := graph.Build(r, f)
			require.NoError(t, err)
			got := DataFlowOrigin.Run(&Input{Run: r, Features: f, Graph: g})
			require.NotEmpty(t, got)
			assert.Equal(t, tc.want, got[0].Step, "%+v", got)
		})
	}
}
