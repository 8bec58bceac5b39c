package extract

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostile inputs: a quarter megabyte without a sentence end, runs of the
// characters the patterns repeat, and nested structures that make naive
// backtracking explode. Each must come back with features; how fast is a
// benchmark's business, but a generous deadline catches a hang, and at
// this size anything quadratic would hang.
func TestHostileInputReturns(t *testing.T) {
	const n = 1 << 18
	inputs := map[string]string{
		"no sentence end":       strings.Repeat("received the data from the agent and based on it we will continue ", n/66),
		"one letter":            strings.Repeat("a", n),
		"digits and commas":     strings.Repeat("1,", n/5),
		"capitalised words":     strings.Repeat("Alpha Beta of Gamma ", n/20),
		"unclosed quotes":       strings.Repeat(`"x `, n/10),
		"unclosed fence":        "```python\n" + strings.Repeat("x = 1\n", n/10),
		"braces":                strings.Repeat("{", n/5) + `"is_in_loop": true`,
		"path-like":             strings.Repeat("/a", n/3),
		"traceback frames":      "Traceback (most recent call last):\n" + strings.Repeat("  File \"x\", line 1\n", n/20),
		"blank lines":           strings.Repeat("\n  ", n/3) + "Traceback",
		"spaces before keyword": strings.Repeat(" ", n/2) + "TERMINATE",
	}
	for name, content := range inputs {
		t.Run(name, func(t *testing.T) {
			done := make(chan *RunFeatures, 1)
			go func() {
				rf := Run(steps("user", "Solve it.", "Agent", content))
				rf.Describe()
				done <- rf
			}()
			select {
			case rf := <-done:
				require.Len(t, rf.Steps, 2)
				f := rf.Steps[1]
				assert.NotEmpty(t, f.Kinds)
				assert.NotEmpty(t, f.Reductions.Milestone)
				assert.LessOrEqual(t, len(strings.Fields(f.Reductions.KeyDecision)), KeyDecisionWords)
				assert.LessOrEqual(t, len(f.Claims), maxClaims)
			case <-time.After(2 * time.Minute):
				t.Fatal("extraction did not return")
			}
		})
	}
}

// TestEveryPatternRunsWithoutALimit runs every compiled pattern over
// hostile strings: none carries a time limit (what is read must not
// depend on the machine's load), each comes back, and what the search at
// its candidates finds is what regexp2's scan of the whole text finds.
func TestEveryPatternRunsWithoutALimit(t *testing.T) {
	hostile := []string{
		strings.Repeat("a", 25000),
		strings.Repeat("I will ", 5000),
		strings.Repeat("1,", 12500),
		strings.Repeat("Ab ", 8000),
		strings.Repeat("\n  ", 8000),
	}
	require.NotEmpty(t, patterns.Patterns())
	for _, re := range patterns.Patterns() {
		for _, s := range hostile {
			tx := patterns.Text(s)
			assert.Equal(t, tx.Scan(re, maxMatches), tx.Find(re, maxMatches), "%.60q", re.String())
		}
	}
}
