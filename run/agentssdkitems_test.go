package run

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sdkItems is the Agents SDK's input list of a run (to_input_list()): the
// user's message, a function call, its output and the reply.
const sdkItems = `[
	{"type": "message", "role": "user", "content": "What is the weather in Paris tomorrow?"},
	{"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{\"city\": \"Paris\"}"},
	{"type": "function_call_output", "call_id": "call_1", "output": "Rain, 12 C"},
	{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Tomorrow Paris will be sunny."}]}]`

// TestAgentsSDKItemsUnderAnyKey: an object that keeps the Agents SDK's
// input list under a key of its own is read as the list, with no label
// beside it and whatever else the object holds; a list that is not
// unmistakably the SDK's, or two of them, are not read so.
func TestAgentsSDKItemsUnderAnyKey(t *testing.T) {
	kinds := []Kind{KindUser, KindToolCall, KindToolResult, KindMessage}
	tests := []struct {
		name  string
		data  string
		kinds []Kind // nil: the file is of no format known
		label *Label
	}{
		{name: "under a key of its own", data: `{"conversation": ` + sdkItems + `}`, kinds: kinds},
		{name: "beside the run's other members", data: `{"run_id": "r1", "created": 1732900000, "notes": ["a"], "items": ` + sdkItems + `}`, kinds: kinds},
		{name: "with a label beside it", data: `{"run_id": "r1", "items": ` + sdkItems + `, "mistake_agent": "assistant", "mistake_step": 3}`, kinds: kinds, label: &Label{Agent: "assistant", Step: 3}},
		{name: "untyped chat messages are no mark of the SDK's", data: `{"conversation": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}`},
		{name: "an item without a type is not the SDK's list", data: `{"conversation": [{"type": "message", "role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}`},
		{name: "reasoning alone marks no list", data: `{"conversation": [{"type": "reasoning", "summary": []}]}`},
		{name: "two such lists are no one run", data: `{"a": ` + sdkItems + `, "b": ` + sdkItems + `}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCase("run.json", []byte(tt.data), Options{})
			if tt.kinds == nil {
				require.Error(t, err)
				assert.True(t, errors.Is(err, ErrUnknownFormat), "%v", err)
				return
			}
			require.NoError(t, err)
			var got []Kind
			for _, s := range c.Run.Steps {
				got = append(got, s.Kind)
			}
			assert.Equal(t, tt.kinds, got)
			assert.Equal(t, "What is the weather in Paris tomorrow?", c.Run.Question)
			assert.Equal(t, "call_1", c.Run.Steps[2].ToolCallID())
			assert.Equal(t, "Tomorrow Paris will be sunny.", c.Run.Steps[3].Content)
			if tt.label != nil {
				require.NotNil(t, c.Label)
				assert.Equal(t, tt.label.Agent, c.Label.Agent)
				assert.Equal(t, tt.label.Step, c.Label.Step)
			}
		})
	}
}
