package run

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTaskWeaverYAML: a TaskWeaver conversation kept as YAML reads as the
// same conversation in JSON does, with the label beside its rounds; in a
// directory of runs such a file is one, another YAML file is not.
func TestTaskWeaverYAML(t *testing.T) {
	data := `enabled: true
roles:
- Planner
- CodeInterpreter
rounds:
- id: round-1
  post_list:
  - attachment_list: []
    message: Sum the revenue in sales.csv.
    send_from: User
    send_to: Planner
  - attachment_list: []
    message: Please sum the revenue column of sales.csv.
    send_from: Planner
    send_to: CodeInterpreter
  - attachment_list:
    - content: python
      type: reply_type
    - content: df = pd.read_csv("sales.csv"); df["revenue"].sum()
      type: reply_content
    - content: "1284730.5"
      type: execution_result
    message: "1284730.5"
    send_from: CodeInterpreter
    send_to: Planner
  - attachment_list: []
    message: The total is 1,248,730.50.
    send_from: Planner
    send_to: User
  state: finished
  user_query: Sum the revenue in sales.csv.
mistake_agent: Planner
mistake_step: 4
`
	c, err := ParseCase("raw_exp_1.yaml", []byte(data), Options{})
	require.NoError(t, err)
	var got []string
	for _, s := range c.Run.Steps {
		got = append(got, s.Agent+" "+string(s.Kind))
	}
	assert.Equal(t, []string{"user user", "Planner message", "CodeInterpreter tool_call", "CodeInterpreter tool_result", "Planner message"}, got)
	require.NotNil(t, c.Label)
	assert.Equal(t, Label{Agent: "Planner", Step: 4}, *c.Label)

	dir := t.TempDir()
	conv := filepath.Join(dir, "raw_exp_1.yaml")
	other := filepath.Join(dir, "config.yaml")
	require.NoError(t, os.WriteFile(conv, []byte(data), 0o600))
	require.NoError(t, os.WriteFile(other, []byte("llm:\n  model: gpt-4o\nrounds: 3\n"), 0o600))
	assert.True(t, IsRunFileAt(conv))
	assert.False(t, IsRunFileAt(other), "a configuration's rounds: 3")
	_, ok := taskWeaverYAML([]byte("llm:\n  model: gpt-4o\nrounds: 3\n"))
	assert.False(t, ok, "rounds that are no conversation's")
	_, err = ParseCase("config.yaml", []byte("llm:\n  model: gpt-4o\n"), Options{})
	assert.ErrorIs(t, err, ErrUnknownFormat)
}
