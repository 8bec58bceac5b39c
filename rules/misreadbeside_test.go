package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// A team whose data agent looked two figures up right, and whose analyst
// then wrote one of them with two digits the other way round (837,076 for
// 873076) and summed: the analyst misread the output, and the figure it
// carried right beside the misread one (522,250) is no fault of the data
// agent's call. So with the correct answer and without it. A figure the
// analyst writes that is no swap of a printed one (845,000) leaves the
// call a suspect, as before: the call may have brought a wrong value in.
// Shape: AutoGen AgentChat's round-robin team, its calls' results read
// into separate steps and a reviewer's final answer.
func TestDataFlowMisreadBesideCarriedFigures(t *testing.T) {
	const q = "Using the city database, what is the combined population of Lyon and Marseille? Give one number."
	tests := []struct {
		name, marseille, sum, truth string
		callNamed                   bool
	}{
		{"two digits swapped, with the correct answer", "837,076", "1,359,326", "1395326", false},
		{"two digits swapped, without it", "837,076", "1,359,326", "", false},
		{"a figure no swap makes, with the correct answer", "845,000", "1,367,250", "1395326", true},
		{"a figure no swap makes, without it", "845,000", "1,367,250", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lyon, marseille := `{"city": "Lyon"}`, `{"city": "Marseille"}`
			r := &run.Run{Source: "test.json", Question: q, GroundTruth: tt.truth, Steps: []run.Step{
				chainStep(0, "user", run.KindUser, q, nil),
				chainStep(1, "data_agent", run.KindToolCall, "lookup_population("+lyon+") lookup_population("+marseille+")",
					&run.Extra{ToolCalls: []run.ToolCall{{ID: "c1", Name: "lookup_population", Arguments: lyon}, {ID: "c2", Name: "lookup_population", Arguments: marseille}}}),
				chainStep(2, "data_agent", run.KindToolResult, `{"city": "Lyon", "population": 522250, "year": 2021}`, &run.Extra{ToolCallID: "c1"}),
				chainStep(3, "data_agent", run.KindToolResult, `{"city": "Marseille", "population": 873076, "year": 2021}`, &run.Extra{ToolCallID: "c2"}),
				chainStep(4, "analyst", run.KindMessage, "From the database: Lyon has 522,250 inhabitants and Marseille "+tt.marseille+" (2021). Combined population: 522,250 + "+tt.marseille+" = "+tt.sum+".", nil),
				chainStep(5, "reviewer", run.KindMessage, "The sum 522,250 + "+tt.marseille+" = "+tt.sum+" is arithmetically right. Final answer: "+tt.sum+". TERMINATE", nil),
			}}
			got := dataFlowOrigin(chainInput(t, r))
			named := false
			for _, fd := range got {
				named = named || fd.Step == 1
			}
			assert.Equal(t, tt.callNamed, named, "%+v", got)
		})
	}
}
