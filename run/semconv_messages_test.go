package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCallsAsText: a message whose whole content is a list of OpenAI tool
// calls is read as those calls; any other content stays text.
func TestCallsAsText(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		calls []ToolCall
	}{
		{"calls", `[{"function":{"name":"HelloTool","arguments":"{\"name\": \"Bob\"}"},"id":"call_1","type":"function"},{"function":{"name":"ByeTool","arguments":"{}"},"id":"call_2","type":"function"}]`,
			[]ToolCall{{ID: "call_1", Name: "HelloTool", Arguments: `{"name": "Bob"}`}, {ID: "call_2", Name: "ByeTool", Arguments: "{}"}}},
		{"arguments as an object", `[{"function":{"name":"search","arguments":{"q":"x"}}}]`, []ToolCall{{Name: "search", Arguments: `{"q":"x"}`}}},
		{"another type", `[{"function":{"name":"f","arguments":"{}"},"type":"custom"}]`, nil},
		{"a call without a name", `[{"function":{"arguments":"{}"},"type":"function"}]`, nil},
		{"a list of other objects", `[{"function":"sum","value":3}]`, nil},
		{"prose", `[note] the "function" is broken`, nil},
		{"empty list", `[]`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := chatMessage{Role: "assistant", Text: tt.text}
			callsAsText(&m)
			assert.Equal(t, tt.calls, m.Calls)
			if tt.calls == nil {
				assert.Equal(t, tt.text, m.Text)
			} else {
				assert.Empty(t, m.Text)
			}
		})
	}
}

// TestLeadingUserText: the task is the user messages that lead a model's
// input, up to the first message of another role.
func TestLeadingUserText(t *testing.T) {
	user := func(text string) chatMessage { return chatMessage{Role: "user", Text: text, From: "in"} }
	tests := []struct {
		name string
		msgs []chatMessage
		want string
	}{
		{"one", []chatMessage{{Role: "system", Text: "Be brief."}, user("What is 2+2?")}, "What is 2+2?"},
		{"two in a row", []chatMessage{user("Be helpful!"), {Role: "human", Text: "Search the web."}}, "Be helpful!\nSearch the web."},
		{"not past a reply", []chatMessage{user("Find it."), {Role: "assistant", Text: "Done."}, user("Now summarise.")}, "Find it."},
		{"empty ones skipped", []chatMessage{user(" "), user("Go.")}, "Go."},
		{"none", []chatMessage{{Role: "system", Text: "Be brief."}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, _ := leadingUserText(tt.msgs)
			assert.Equal(t, tt.want, text)
		})
	}
}

// TestAnthropicToolParts: Anthropic's tool_use parts are calls and its
// tool_result parts answer them, their content read as text.
func TestAnthropicToolParts(t *testing.T) {
	call, ok := messageOf(map[string]any{"role": "assistant", "content": []any{
		map[string]any{"type": "text", "text": "Checking."},
		map[string]any{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": map[string]any{"city": "Berlin"}},
	}})
	assert.True(t, ok)
	assert.Equal(t, "Checking.", call.Text)
	assert.Equal(t, []ToolCall{{ID: "toolu_1", Name: "get_weather", Arguments: `{"city":"Berlin"}`}}, call.Calls)

	result, ok := messageOf(map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "tool_result", "tool_use_id": "toolu_1", "content": []any{map[string]any{"type": "text", "text": "Cloudy, 59°F"}}},
	}})
	assert.True(t, ok)
	assert.Equal(t, "toolu_1", result.CallID)
	assert.Equal(t, "Cloudy, 59°F", result.Text)
}
