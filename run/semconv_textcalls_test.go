package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTextAndCalls: a model call's result written as {"text", "toolCalls"}
// (the Vercel AI SDK's generate result, a Mastra step's output) is one
// assistant message; with a role, or calls that are no calls, it is none.
func TestTextAndCalls(t *testing.T) {
	tests := []struct {
		name string
		in   map[string]any
		want []chatMessage
	}{
		{"calls", map[string]any{"text": "", "toolCalls": []any{map[string]any{"toolCallId": "c1", "toolName": "get_weather", "args": map[string]any{"city": "Olso"}}}},
			[]chatMessage{{Role: "assistant", Calls: []ToolCall{{ID: "c1", Name: "get_weather", Arguments: `{"city":"Olso"}`}}}}},
		{"text", map[string]any{"text": " Oslo: 7 °F. ", "toolCalls": []any{}}, []chatMessage{{Role: "assistant", Text: "Oslo: 7 °F."}}},
		{"nothing said", map[string]any{"text": "", "toolCalls": []any{}}, nil},
		{"a message", map[string]any{"role": "user", "content": "hi", "toolCalls": []any{}}, []chatMessage{{Role: "user", Text: "hi"}}},
		{"no calls", map[string]any{"text": "x", "toolCalls": []any{"get_weather"}}, []chatMessage{{Role: "", Text: "x"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, messagesOf(tt.in, ""))
		})
	}
	_, ok := textAndCalls(map[string]any{"role": "assistant", "text": "hi", "toolCalls": []any{}})
	assert.False(t, ok, "a message with a role is read as a message")
}
