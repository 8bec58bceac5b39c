package run_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestRootNamesTheAgent: a trace that names no agent, whose one root a
// convention calls a workflow or chain and encloses its model calls, is
// the run of the agent that root names; a trace that names its agents,
// or has no such root, keeps the names it had.
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
	tests := []struct {
		name  string
		spans []span
		want  []string
	}{
		{
			name:  "an OpenInference chain at the root",
			spans: []span{chain("r", "", "math_tutor", 1, 9), llm("m", "r", 2, "It is 45.")},
			want:  []string{"user user: What is 12 x 3.75?", "math_tutor message: It is 45."},
		},
		{
			name: "an OpenLLMetry workflow at the root, by the entity it names",
			spans: []span{
				{id: "r", name: "stock_assistant.workflow", start: 1, end: 9, attrs: map[string]any{"traceloop.span.kind": "workflow", "traceloop.entity.name": "stock_assistant"}},
				chain("c", "r", "step", 2, 8),
				llm("m", "c", 3, "It is 45."),
			},
			want: []string{"user user: What is 12 x 3.75?", "stock_assistant message: It is 45."},
		},
		{
			name: "an agent span inside names the agent",
			spans: []span{
				chain("r", "", "math_tutor", 1, 9),
				{id: "a", parent: "r", name: "tutor", start: 2, end: 8, attrs: map[string]any{"openinference.span.kind": "AGENT"}},
				llm("m", "a", 3, "It is 45."),
			},
			want: []string{"user user: What is 12 x 3.75?", "tutor message: It is 45."},
		},
		{
			name:  "two roots: no span encloses every call",
			spans: []span{chain("r", "", "math_tutor", 1, 4), llm("m", "r", 2, "It is 45."), llm("n", "", 5, "Still 45.")},
			want:  []string{"user user: What is 12 x 3.75?", "assistant message: It is 45.", "assistant message: Still 45."},
		},
		{
			name:  "a root no convention calls a chain",
			spans: []span{{id: "r", name: "POST /ask", start: 1, end: 9}, llm("m", "r", 2, "It is 45.")},
			want:  []string{"user user: What is 12 x 3.75?", "assistant message: It is 45."},
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
