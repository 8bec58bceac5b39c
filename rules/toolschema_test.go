package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"

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
