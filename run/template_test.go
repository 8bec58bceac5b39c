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
