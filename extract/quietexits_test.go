package extract

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// A search that selected nothing or a comparison that found a difference
// exits 1 to answer: its exit is a "no_match", no failure. The program's
// own error message, another program last on the line, or a line whose
// last program is uncertain keeps the failure.
func TestQuietExits(t *testing.T) {
	tests := []struct {
		name, command, output string
		quiet                 bool
	}{
		{"grep -c found none", "grep -c '    def test_' tests/test_parser.py", "0\n[The command completed with exit code 1.]", true},
		{"grep in a pipeline", "cat app.log | grep -i timeout", "[The command completed with exit code 1.]", true},
		{"diff found a difference", "cd src && diff a.txt b.txt", "1c1\n< x\n---\n> y\n[The command completed with exit code 1.]", true},
		{"grep's own error", "grep -c x missing.txt", "grep: missing.txt: No such file or directory\n[The command completed with exit code 1.]", false},
		{"a test run", "python -m pytest -q", "1 failed, 3 passed\n[The command completed with exit code 1.]", false},
		{"an alternation", "grep -q x f || echo none", "none\n[The command completed with exit code 1.]", false},
		{"a quoted separator", "grep -E 'a|b' f", "[The command completed with exit code 1.]", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, _ := json.Marshal(map[string]string{"command": tt.command})
			r := &run.Run{Steps: []run.Step{
				{Index: 0, Agent: "user", Kind: run.KindUser, Content: "How many test methods are there?"},
				{Index: 1, Agent: "agent", Kind: run.KindToolCall, Content: "Let me count.", Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: "execute_bash", Arguments: string(args)}}}},
				{Index: 2, Agent: "agent", Kind: run.KindToolResult, Content: tt.output},
			}}
			f := Run(r).Steps[2]
			assert.Equal(t, tt.quiet, slices.Contains(signalKinds(f.Successes), "no_match"))
			assert.Equal(t, !tt.quiet, slices.Contains(signalKinds(f.Errors), "exit_code"))
			if tt.quiet {
				assert.Nil(t, f.FailureWords)
			}
		})
	}
}
