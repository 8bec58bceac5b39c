package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestUnsupportedArgumentsOfferedBySchema: a call given a value the
// schema of the tool the model was offered lists (an enum's unit, a
// default) was given it, as by the task; a value no schema offers, nor any
// step, is still made up, and a schema's description is no value offered.
func TestUnsupportedArgumentsOfferedBySchema(t *testing.T) {
	task := "How warm is it right now in Lyon?"
	for _, tt := range []struct {
		name, unit string
		tools      []run.Tool
		want       []int
	}{
		{"offered", "celsius", []run.Tool{{Name: "get_weather", Offers: []string{"celsius", "fahrenheit"}}}, nil},
		{"offered in other case", "Celsius", []run.Tool{{Name: "get_weather", Offers: []string{"celsius", "fahrenheit"}}}, nil},
		{"no schema", "celsius", nil, []int{1}},
		{"not offered", "kelvin", []run.Tool{{Name: "get_weather", Offers: []string{"celsius", "fahrenheit"}}}, []int{1}},
		{"only a tool's name", "get_weather", []run.Tool{{Name: "get_weather"}}, []int{1}},
	} {
		in := prepare(t, task, "",
			msg{agent: "user", content: task, kind: run.KindUser},
			msg{agent: "assistant", content: `get_weather({"location": "Lyon, France", "unit": "` + tt.unit + `"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"location": "Lyon, France", "temperature": 19}`, kind: run.KindToolResult},
		)
		in.Run.Tools = tt.tools
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.name)
	}
}

// TestUnsupportedArgumentsOfTemplateExample: a value written only in the
// instructions of the template a question is wrapped in (a tool's
// documented example, "e.g. USD") is not given to a call as the task's
// values are; one the question writes is.
func TestUnsupportedArgumentsOfTemplateExample(t *testing.T) {
	template := `Given the following functions, please respond with a JSON for a function call.\n{\"name\": \"get_exchange_rate\", \"parameters\": {\"base\": {\"description\": \"Currency to convert from, e.g. EUR\"}, \"target\": {\"description\": \"Currency to convert to, e.g. USD\"}}}\n\nQuestion: `
	for _, tt := range []struct {
		question, target string
		want             []int
	}{
		{"How many Swiss francs is one EUR worth today?", "USD", []int{1}},
		{"How many USD is one EUR worth today?", "USD", nil},
	} {
		data := `{"messages": [{"role": "user", "content": "` + template + tt.question + `"},
			{"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_exchange_rate", "arguments": "{\"base\": \"EUR\", \"target\": \"` + tt.target + `\"}"}}]},
			{"role": "tool", "tool_call_id": "c1", "content": "{\"rate\": 1.0852}"}]}`
		r, err := run.Parse("t.json", []byte(data), run.Options{})
		require.NoError(t, err)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(inputOf(t, r)), true), tt.question)
	}
}

// TestUnsupportedArgumentsOfListedOptions: a router's call given a value
// its instructions list among the choices of its reply ("respond with the
// worker to act next, or FINISH"; "Select one of: [...]") was given it, as
// by a tool's schema; a value the instructions only show in an example of
// the reply's form, or none at all, is still no one's. Shape: a LangGraph
// supervisor's route calls in a trace that keeps the instructions apart.
func TestUnsupportedArgumentsOfListedOptions(t *testing.T) {
	task := "Which has the bigger battery, the Orion X5 Pro or the Vega 12 Plus?"
	for _, tt := range []struct {
		name, instructions string
		want               []int
	}{
		{"offered beside a description", "You are a supervisor managing these workers: researcher, writer. Given the conversation, respond with the worker to act next, or FINISH.", nil},
		{"listed", "You are a supervisor managing these workers: researcher, writer. Given the conversation above, who should act next? Or should we FINISH? Select one of: ['researcher', 'writer', 'FINISH']", nil},
		{"an example", `You are a supervisor managing these workers: researcher, writer. Reply in JSON, e.g. {"next": "FINISH"}.`, []int{5}},
		{"not written", "You are a supervisor managing these workers: researcher, writer.", []int{5}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, task, "",
				msg{agent: "user", content: task, kind: run.KindUser},
				msg{agent: "supervisor", content: `route({"next": "researcher"})`, kind: run.KindToolCall, target: "researcher"},
				msg{agent: "researcher", content: `search_specs({"query": "Orion X5 Pro battery; Vega 12 Plus battery"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: "Orion X5 Pro: 5,100 mAh. Vega 12 Plus: 4,900 mAh.", kind: run.KindToolResult},
				msg{agent: "researcher", content: "The Orion X5 Pro has the bigger battery: 5,100 mAh against 4,900 mAh.", target: "supervisor"},
				msg{agent: "supervisor", content: `route({"next": "FINISH"})`, kind: run.KindToolCall},
			)
			in.Run.Instructions = tt.instructions
			assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true))
		})
	}
}
