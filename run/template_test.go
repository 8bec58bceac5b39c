package run_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestTemplateQuestionIsTheTask: a transcript whose first user turn wraps
// its question in a template has the question for its task, and the
// template's instructions for its instructions; the turn is kept whole.
func TestTemplateQuestionIsTheTask(t *testing.T) {
	turn := "Answer the given question. For example, <answer> 1912 </answer>. Question: In what year was the lighthouse first lit?"
	r, err := run.Parse("t.json", []byte(`{"messages": [{"role": "user", "content": "`+turn+`"}, {"role": "assistant", "content": "<answer> 1849 </answer>"}]}`), run.Options{})
	if assert.NoError(t, err) {
		assert.Equal(t, "In what year was the lighthouse first lit?", r.Question)
		assert.Equal(t, "Answer the given question. For example, <answer> 1912 </answer>.", r.Instructions)
		assert.Equal(t, turn, r.Steps[0].Content)
	}
	r, err = run.Parse("t.json", []byte(`{"question": "`+turn+`", "messages": [{"role": "user", "content": "`+turn+`"}]}`), run.Options{})
	if assert.NoError(t, err) {
		assert.Equal(t, turn, r.Question, "a task the file names is its task")
	}
}

// TestRequestSystemIsTheInstructions: a model API's request body keeps
// its system prompt beside its messages (Anthropic's "system" as a text
// or as text blocks, Bedrock Converse's blocks, the Responses API's
// "instructions"): it is the run's instructions, and no step, as a label
// numbers the messages.
func TestRequestSystemIsTheInstructions(t *testing.T) {
	policy := "Today is 2026-03-02. Before any refund, get the customer's explicit yes."
	toolUse := `[{"type": "tool_use", "id": "tu_1", "name": "refund", "input": {"order_id": "A-1001"}}]`
	toolResult := `[{"type": "tool_result", "tool_use_id": "tu_1", "content": "refunded"}]`
	for _, tt := range []struct{ name, body string }{
		{"a text", `{"model": "claude-sonnet-4-5", "system": "` + policy + `", "messages": [{"role": "user", "content": "Refund order A-1001."}, {"role": "assistant", "content": "I'll refund it."}]}`},
		{"text blocks", `{"model": "claude-sonnet-4-5", "system": [{"type": "text", "text": "` + policy + `", "cache_control": {"type": "ephemeral"}}], "messages": [{"role": "user", "content": "Refund order A-1001."}, {"role": "assistant", "content": "I'll refund it."}]}`},
		{"beside tool blocks", `{"model": "claude-sonnet-4-5", "system": "` + policy + `", "messages": [{"role": "user", "content": "Refund order A-1001."}, {"role": "assistant", "content": ` + toolUse + `}, {"role": "user", "content": ` + toolResult + `}]}`},
		{"Bedrock's blocks", `{"modelId": "anthropic.claude-3-5-sonnet", "system": [{"text": "` + policy + `"}], "messages": [{"role": "user", "content": [{"text": "Refund order A-1001."}]}, {"role": "assistant", "content": [{"text": "I'll refund it."}]}]}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := run.Parse("t.json", []byte(tt.body), run.Options{})
			if assert.NoError(t, err) {
				assert.Equal(t, policy, r.Instructions)
				assert.Equal(t, "Refund order A-1001.", r.Steps[0].Content)
			}
		})
	}
}
