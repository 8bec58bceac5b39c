package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestInstructionOptions: the values instructions list as the choices a
// reply may take are read as such, however the list is written; a value
// shown as an example, words that describe rather than list, and a
// sentence that goes on past a list are not options.
func TestInstructionOptions(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       []string
	}{
		{"a request with a literal beside it", "You are a supervisor managing these workers: researcher, writer. Given the conversation, respond with the worker to act next, or FINISH.", []string{"finish"}},
		{"a bracketed list", "Given the conversation above, who should act next? Or should we FINISH? Select one of: ['researcher', 'writer', 'FINISH']", []string{"researcher", "writer", "finish"}},
		{"a list after a colon", "Respond with one of: PLAN, EXECUTE, DONE.", []string{"plan", "execute", "done"}},
		{"lower-case words after a colon", "The status must be one of: open, pending or closed.", []string{"open", "pending", "closed"}},
		{"quoted values with either", `Answer either "yes" or "no".`, []string{"yes", "no"}},
		{"an example", "Currency to convert to, e.g. USD. For example, <answer> 1912 </answer>.", nil},
		{"a description", "One of the steps may fail; you can either search or answer.", nil},
		{"words not set apart", "Pick one of the tools below and route the request to it.", nil},
		{"a lone literal after a list's word", "Respond with one of the workers.", nil},
		{"a shout", "RETURN ME THE CODE OR SPECIAL CODE. DO NOT RETURN ANYTHING ELSE.", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, InstructionOptions(tt.text))
		})
	}
}
