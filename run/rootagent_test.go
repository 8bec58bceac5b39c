package run_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestRootNamesTheAgent: a trace that names no agent, whose one root is
// a workflow the program names (OpenLLMetry's) enclosing its model calls,
// is the run of the agent that workflow names; a trace that names its
// agents, or has no such root, keeps the names it had: a chain at the
// root is named as often by its framework (LangGraph) as by the program.
func TestRootNamesTheAgent(t *testing.T) {
	llm := func(id, parent string, start float64, answer string) span {
		return span{id: id, parent: parent, name: "ChatCompletion", start: start, attrs: map[string]any{
			"openinference.span.kind":               "LLM",
			"llm.input_messages.0.message.role":     "user",
			"llm.input_messages.0.message.content":  "What is 12 x 3.75?",
			"llm.output_messages.0.message.role":    "assistant",
			"llm.output_messages.0.message.content": answer,
		}}
	}
	chain := func(id, parent, name string, start, end float64) span {
		return span{id: id, parent: parent, name: name, start: start, end: end, attrs: map[string]any{"openinference.span.kind": "CHAIN"}}
	}
	workflow := func(id, name string, start, end float64) span {
		return span{id: id, name: name + ".workflow", start: start, end: end, attrs: map[string]any{"traceloop.span.kind": "workflow", "traceloop.entity.name": name}}
	}
	tests := []struct {
		name  string
		spans []span
		want  []string
	}{
		{
			name:  "an OpenInference chain at the root names no agent",
			spans: []span{chain("r", "", "LangGraph", 1, 9), llm("m", "r", 2, "It is 45.")},
			want:  []string{"user user: What is 12 x 3.75?", "assistant message: It is 45."},
		},
		{
			name: "an OpenLLMetry workflow at the root, by the entity it names",
			spans: []span{
				workflow("r", "stock_assistant", 1, 9),
				chain("c", "r", "step", 2, 8),
				llm("m", "c", 3, "It is 45."),
			},
			want: []string{"user user: What is 12 x 3.75?", "stock_assistant message: It is 45."},
		},
		{
			name: "an agent span inside names the agent",
			spans: []span{
				workflow("r", "math_tutor", 1, 9),
				{id: "a", parent: "r", name: "tutor", start: 2, end: 8, attrs: map[string]any{"openinference.span.kind": "AGENT"}},
				llm("m", "a", 3, "It is 45."),
			},
			want: []string{"user user: What is 12 x 3.75?", "tutor message: It is 45."},
		},
		{
			name:  "two roots: no span encloses every call",
			spans: []span{workflow("r", "math_tutor", 1, 4), llm("m", "r", 2, "It is 45."), llm("n", "", 5, "Still 45.")},
			want:  []string{"user user: What is 12 x 3.75?", "assistant message: It is 45.", "assistant message: Still 45."},
		},
		{
			name:  "a root no convention calls a chain",
			spans: []span{{id: "r", name: "POST /ask", start: 1, end: 9}, llm("m", "r", 2, "It is 45.")},
			want:  []string{"user user: What is 12 x 3.75?", "assistant message: It is 45."},
		},
		{
			name: "a task at the root",
			spans: []span{
				{id: "r", name: "lookup.task", start: 1, end: 9, attrs: map[string]any{"traceloop.span.kind": "task", "traceloop.entity.name": "lookup"}},
				llm("m", "r", 2, "It is 45."),
			},
			want: []string{"user user: What is 12 x 3.75?", "assistant message: It is 45."},
		},
		{
			name:  "a model call at the root",
			spans: []span{llm("m", "", 2, "It is 45.")},
			want:  []string{"user user: What is 12 x 3.75?", "assistant message: It is 45."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := loadOne(t, writeSpans(t, tt.spans...), run.FormatOpenInference)
			assert.Equal(t, tt.want, steps(c.Run))
		})
	}
}
