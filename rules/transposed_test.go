package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/run"
)

// chainStep is a step of a run built by hand, with what it calls or
// answers.
func chainStep(i int, agent string, kind run.Kind, content string, e *run.Extra) run.Step {
	return run.Step{Index: i, Agent: agent, Kind: kind, Content: content, Extra: e}
}

// chainCall is what a step that calls one tool holds.
func chainCall(id, name, args string) *run.Extra {
	return &run.Extra{ToolCalls: []run.ToolCall{{ID: id, Name: name, Arguments: args}}}
}

// chainInput is the Input of a run built by hand, its features and
// graph made.
func chainInput(t *testing.T, r *run.Run) *Input {
	t.Helper()
	f := extract.Run(r)
	g, err := graph.Build(r, f)
	require.NoError(t, err)
	return &Input{Run: r, Features: f, Graph: g}
}

// A chain of calls whose first call took a figure a researcher found with
// two digits swapped (7.5 for 5.7 °C) went wrong at that call, not at the
// last call of the chain, which only carried its result on: so for a
// figure written with a point, however few its digits, and for one of
// three digits or more. A whole number of two digits is left alone (12
// and 21 are alike by chance too often), as is a figure no swap of the
// found one makes. Shape: LangGraph's supervisor with a research and a
// math expert, the math expert converting the figure found to Fahrenheit.
func TestDataFlowThroughACallThatSwappedDigits(t *testing.T) {
	const q = "What was the mean temperature in the city in January? Give it in Fahrenheit."
	tests := []struct {
		name, found, operand, product, sum string
		want                               int
	}{
		{"a figure with a point, its two digits swapped", "5.7 °C", "7.5", "13.5", "45.5", 5},
		{"a figure of three digits, two swapped", "15.4 °C", "14.5", "26.1", "58.1", 5},
		{"a figure of four digits, two swapped", "1,450 °C", "1540", "2772", "2804", 5},
		{"a figure another than any swap of the found one", "5.7 °C", "6.2", "11.16", "43.16", 7},
		{"a whole number of two digits swapped", "41 °C", "14", "25.2", "57.2", 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			step, callOf := chainStep, chainCall
			search := `{"query":"mean temperature January"}`
			multiply := `{"a":` + tt.operand + `,"b":1.8}`
			add := `{"a":` + tt.product + `,"b":32}`
			r := &run.Run{Source: "test.json", Question: q, Steps: []run.Step{
				step(0, "user", run.KindUser, q, nil),
				step(1, "research_expert", run.KindToolCall, "web_search("+search+")", callOf("c1", "web_search", search)),
				step(2, "research_expert", run.KindToolResult, "Monthly values for January: mean temperature "+tt.found+".", &run.Extra{ToolCallID: "c1"}),
				step(3, "research_expert", run.KindMessage, "The mean temperature in January was "+tt.found+".", nil),
				step(4, "supervisor", run.KindMessage, "math_expert: convert the mean temperature to Fahrenheit.", nil),
				step(5, "math_expert", run.KindToolCall, "multiply("+multiply+")", callOf("c2", "multiply", multiply)),
				step(6, "math_expert", run.KindToolResult, tt.product, &run.Extra{ToolCallID: "c2"}),
				step(7, "math_expert", run.KindToolCall, "add("+add+")", callOf("c3", "add", add)),
				step(8, "math_expert", run.KindToolResult, tt.sum, &run.Extra{ToolCallID: "c3"}),
				step(9, "supervisor", run.KindMessage, "The mean temperature in January was "+tt.found+", which is "+tt.sum+" °F.", nil),
			}}
			got := DataFlowOrigin.Run(chainInput(t, r))
			var calls []int // the chain's calls the rule names: the first, or the last
			for _, fd := range got {
				if fd.Step == 5 || fd.Step == 7 {
					calls = append(calls, fd.Step)
				}
			}
			assert.Equal(t, []int{tt.want}, calls, "%+v", got)
		})
	}
}

func TestTransposedDigits(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"5.7", "7.5", true},
		{"1.0834", "1.0843", true},
		{"1450", "1540", true},
		{"154", "145", true},
		{"57", "75", false},      // a whole number of two digits
		{"1234", "4231", false},  // the digits swapped are not side by side
		{"12.5", "1.25", false},  // the point moved
		{"1450", "1460", false},  // one digit other
		{"1450", "1450", false},  // the same figure
		{"-5.7", "-7.5", false},  // a sign is no digit
		{"14500", "1540", false}, // another length
	} {
		assert.Equal(t, tt.want, transposedDigits(tt.a, tt.b), "%s %s", tt.a, tt.b)
	}
}
