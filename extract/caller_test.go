package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestExecutorRunsTheLatestCode: a code executor answers to the latest code
// written since it last spoke, past a planner's ledger and its instruction
// to run the code; a result after its own earlier turn, with no code
// between, is its own; and a result right after the call keeps that call.
func TestExecutorRunsTheLatestCode(t *testing.T) {
	r := steps(
		"user", "How many pitchers are there?",
		"Coder", "```python\nprint(len(pitchers))\n```",
		"Planner", "The code is written. Next, the terminal should run it.",
		"Planner -> Terminal", "Please run the script above.",
		"Terminal", "The script ran, then exited with Unix exit code: 0\nIts output was:\n12",
		"Planner -> Terminal", "Run it again.",
		"Terminal", "The script ran, then exited with Unix exit code: 0\nIts output was:\n12",
		"Coder", "```python\nprint(13)\n```",
		"Terminal", "exitcode: 0 (execution succeeded)\nCode output: 13",
	)
	rf := Run(r)
	for _, c := range []struct{ step, caller int }{{4, 1}, {6, 6}, {8, 7}} {
		assert.True(t, rf.Steps[c.step].Has(KindToolResult), "step %d is an executor's output", c.step)
		assert.Equal(t, c.caller, int(rf.Steps[c.step].Caller), "step %d", c.step)
	}
}
