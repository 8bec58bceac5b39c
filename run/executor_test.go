package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExecutorResult: an agent executor's result saved with its
// intermediate steps, plain or serialized, reads as its run: the input,
// each action as a call with its log as its text, each observation as
// that call's result, and the output as the last reply; a label beside
// them is the run's.
func TestExecutorResult(t *testing.T) {
	tests := []struct {
		name string
		data string
	}{
		{"plain", `{"input": "Winning time of the 2023 Stockholm Marathon?", "output": "2:14:37.",
			"intermediate_steps": [[{"tool": "search", "tool_input": {"query": "Stockholm Marathon 2023"}, "log": "Action: search\nAction Input: {\"query\": \"Stockholm Marathon 2023\"}", "type": "AgentAction"},
			"HTTPError('432 Client Error')"]], "mistake_agent": "assistant", "mistake_step": 3}`},
		{"serialized", `{"input": "Winning time of the 2023 Stockholm Marathon?", "output": "2:14:37.",
			"intermediate_steps": [[{"lc": 1, "type": "constructor", "id": ["langchain", "schema", "agent", "AgentAction"],
			"kwargs": {"tool": "search", "tool_input": "Stockholm Marathon 2023", "log": "Action: search\nAction Input: Stockholm Marathon 2023"}},
			"HTTPError('432 Client Error')"]], "mistake_agent": "assistant", "mistake_step": 3}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCase("result.json", []byte(tt.data), Options{})
			require.NoError(t, err)
			r := c.Run
			require.Len(t, r.Steps, 4)
			assert.Equal(t, []Kind{KindUser, KindToolCall, KindToolResult, KindMessage},
				[]Kind{r.Steps[0].Kind, r.Steps[1].Kind, r.Steps[2].Kind, r.Steps[3].Kind})
			assert.Equal(t, "Winning time of the 2023 Stockholm Marathon?", r.Question)
			require.Len(t, r.Steps[1].ToolCalls(), 1)
			assert.Equal(t, "search", r.Steps[1].ToolCalls()[0].Name)
			assert.Contains(t, r.Steps[1].ToolCalls()[0].Arguments, "Stockholm Marathon 2023")
			assert.Contains(t, r.Steps[2].Content, "432 Client Error")
			assert.Equal(t, "2:14:37.", r.Steps[3].Content)
			require.NotNil(t, c.Label)
			assert.Equal(t, 3, c.Label.Step)
		})
	}
	_, err := ParseCase("result.json", []byte(`{"input": "x", "intermediate_steps": [[{"log": "no tool"}, "y"]]}`), Options{})
	assert.Error(t, err, "steps of another shape are no executor's")
}
