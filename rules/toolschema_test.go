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
