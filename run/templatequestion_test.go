package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTemplateQuestion: a prompt template's question is the last line or
// sentence its label opens, after instructions; a format line that
// describes the question, a label in running text, a placeholder and a
// label with nothing before it are none.
func TestTemplateQuestion(t *testing.T) {
	for _, tt := range []struct {
		name, text, instructions, question string
	}{
		{"in a sentence after a tag", "Answer the given question. Search by <search> query </search> at most 4 times. For example, <answer> 1912 </answer>. Question: In what year was the lighthouse first lit?\n",
			"Answer the given question. Search by <search> query </search> at most 4 times. For example, <answer> 1912 </answer>.", "In what year was the lighthouse first lit?"},
		{"after a format line", "Use the following format:\n\nQuestion: the input question you must answer\nThought: think\n\nBegin!\n\nQuestion: What is 15% of 97,759?\nThought:",
			"Use the following format:\n\nQuestion: the input question you must answer\nThought: think\n\nBegin!", "What is 15% of 97,759?"},
		{"on a line of its own", "Given the following functions, respond with a JSON call.\n{\"name\": \"get_rate\"}\n\nQuestion: How many Swiss francs is a euro worth?",
			"Given the following functions, respond with a JSON call.\n{\"name\": \"get_rate\"}", "How many Swiss francs is a euro worth?"},
		{"no label", "How many Swiss francs is a euro worth?", "", ""},
		{"label with nothing before it", "Question: How many Swiss francs is a euro worth?", "", ""},
		{"label in running text", "Please answer the Question: how many francs?", "", ""},
		{"placeholder", "Answer the question below.\nQuestion: {question}", "", ""},
		{"nothing after it", "Answer the question below.\nQuestion:", "", ""},
	} {
		instructions, question, ok := templateQuestion(tt.text)
		assert.Equal(t, tt.question != "", ok, tt.name)
		assert.Equal(t, tt.instructions, instructions, tt.name)
		assert.Equal(t, tt.question, question, tt.name)
	}
}
