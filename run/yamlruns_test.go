package run

import (
	"math"
	"os"
	"path/filepath"
	"strings"
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
	_, ok, _ := taskWeaverYAML([]byte("llm:\n  model: gpt-4o\nrounds: 3\n"))
	assert.False(t, ok, "rounds that are no conversation's")
	_, err = ParseCase("config.yaml", []byte("llm:\n  model: gpt-4o\n"), Options{})
	assert.ErrorIs(t, err, ErrUnknownFormat)
}

// TestTaskWeaverYAMLFarDown: in a directory of runs, a TaskWeaver
// conversation whose rounds come after a long block (PyYAML sorts keys:
// "plugins" before "rounds") is one, read as UTF-16 too; YAML whose
// "rounds" holds a scalar, is no top-level key, or holds rounds without
// posts (a game's), is none, near the start or far down.
func TestTaskWeaverYAMLFarDown(t *testing.T) {
	plugins := "plugins:\n" + strings.Repeat("- name: sql_pull_data\n  description: Pull data from a SQL database with the query given.\n", 40)
	conv := "rounds:\n- post_list:\n  - message: Sum it.\n    send_from: User\n    send_to: Planner\n  - message: Done.\n    send_from: Planner\n    send_to: User\n"
	long := "note: " + strings.Repeat("x", 10000) + "\n"
	for _, tc := range []struct {
		name string
		data []byte
		want bool
	}{
		{"rounds after a long plugins block", []byte(plugins + conv), true},
		{"rounds after a line longer than a buffer", []byte(long + conv), true},
		{"as UTF-16", utf16Bytes(plugins+conv, false, true), true},
		{"a scalar far down", []byte(plugins + "rounds: 3\n"), false},
		{"a nested key far down", []byte(plugins + "game:\n  rounds:\n  - 1\n"), false},
		{"a long line that holds the key inside", []byte(long[:len(long)-1] + " rounds:\n"), false},
		{"a game's rounds first, with no posts", []byte("rounds:\n- winner: Ann\n  moves: 12\n- winner: Bo\n  moves: 9\n"), false},
		{"a game's rounds far down, with no posts", []byte(plugins + "rounds:\n- winner: Ann\n"), false},
		{"rounds in brackets, posts within", []byte(plugins + "rounds: [{post_list: [{message: Hi, send_from: User, send_to: Planner}]}]\n"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "raw_exp_1.yaml")
			require.NoError(t, os.WriteFile(path, tc.data, 0o600))
			assert.Equal(t, tc.want, IsRunFileAt(path))
		})
	}
}

// TestTaskWeaverYAMLAwkward: a TaskWeaver conversation whose YAML holds
// what JSON has no form for (a key that is a number, a float that is no
// number) is read all the same; YAML with rounds that does not parse, or
// whose rounds hold no posts, is an error of an unknown format that says
// it is YAML, not that it is "not JSON".
func TestTaskWeaverYAMLAwkward(t *testing.T) {
	const conv = "rounds:\n- post_list:\n  - message: Sum it.\n    send_from: User\n    send_to: Planner\n  - message: Done.\n    send_from: Planner\n    send_to: User\n"
	for _, tc := range []struct{ name, data string }{
		{"a number as a key", conv + "    attachment_list:\n    - 1: a\n      1.0: b\n"},
		{"a float that is no number", conv + "    score: .nan\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseCase("raw_exp_1.yaml", []byte(tc.data), Options{})
			require.NoError(t, err)
			assert.Len(t, c.Run.Steps, 2)
		})
	}
	for _, tc := range []struct{ name, data, says string }{
		{"does not parse", conv + "  - message: [unclosed\n", "YAML with a rounds key that does not parse"},
		{"no posts", "rounds:\n- id: round-1\n", "no TaskWeaver conversation's"},
		{"a long text repeated through its alias past an input's bound", "big: &big " + strings.Repeat("x", 1<<20) + "\n" + conv + "    attachment_list:\n" +
			strings.Repeat("    - *big\n", int(DefaultMaxInput>>20)+4), "YAML whose aliases repeat its text past what an input may hold (256 MiB)"},
		{"nested through an alias deeper than JSON is", "deep: &deep " + strings.Repeat("[", 6000) + "1" + strings.Repeat("]", 6000) + "\n" + conv +
			"    attachment_list: " + strings.Repeat("[", 6000) + "*deep" + strings.Repeat("]", 6000) + "\n", "YAML nested deeper than JSON reads"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseCase("raw_exp_1.yaml", []byte(tc.data), Options{})
			require.ErrorIs(t, err, ErrUnknownFormat)
			assert.Contains(t, err.Error(), tc.says)
			assert.Contains(t, err.Error(), "raw_exp_1.yaml")
		})
	}
}

// TestJSONable: keys that print alike (1 and 1.0) keep one value, the
// same whatever order the map gives them in.
func TestJSONable(t *testing.T) {
	for range 20 {
		assert.Equal(t, map[string]any{"1": "b", "x": []any{"NaN"}}, jsonable(map[any]any{1: "a", 1.0: "b", "x": []any{math.NaN()}}))
	}
}
