package extract

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostile inputs: a megabyte without a sentence end, runs of the characters
// the patterns repeat, and nested structures that make naive backtracking
// explode. Each must come back with features; how fast is a benchmark's
// business, but a generous deadline catches a hang.
func TestHostileInputReturns(t *testing.T) {
	inputs := map[string]string{
		"1 MB without a sentence end": strings.Repeat("received the data from the agent and based on it we will continue ", 1<<20/66),
		"1 MB of one letter":          strings.Repeat("a", 1<<20),
		"digits and commas":           strings.Repeat("1,", 200000),
		"capitalised words":           strings.Repeat("Alpha Beta of Gamma ", 50000),
		"unclosed quotes":             strings.Repeat(`"x `, 100000),
		"unclosed fence":              "```python\n" + strings.Repeat("x = 1\n", 100000),
		"braces":                      strings.Repeat("{", 200000) + `"is_in_loop": true`,
		"path-like":                   strings.Repeat("/a", 300000),
		"traceback frames":            "Traceback (most recent call last):\n" + strings.Repeat("  File \"x\", line 1\n", 50000),
		"spaces before keyword":       strings.Repeat(" ", 500000) + "TERMINATE",
	}
	for name, content := range inputs {
		t.Run(name, func(t *testing.T) {
			done := make(chan *RunFeatures, 1)
			go func() { done <- Run(steps("user", "Solve it.", "Agent", content)) }()
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

// TestTimeoutIsNoMatch feeds a pattern built to backtrack exponentially:
// the timeout must end it and read as "no match".
func TestTimeoutIsNoMatch(t *testing.T) {
	evil := pattern(`^(a+)+$`, 0)
	tx := newText(strings.Repeat("a", 40) + "!")
	_, ok := tx.first(evil)
	assert.False(t, ok)
	assert.Empty(t, tx.all(evil, 0))
}

// TestEveryPatternHasTheTimeout runs every compiled pattern over hostile
// strings; each must carry the match timeout and come back.
func TestEveryPatternHasTheTimeout(t *testing.T) {
	hostile := []string{
		strings.Repeat("a", 100000),
		strings.Repeat("I will ", 20000),
		strings.Repeat("1,", 50000),
		strings.Repeat("Ab ", 30000),
		strings.Repeat("\n  ", 30000),
	}
	require.NotEmpty(t, allPatterns)
	for _, re := range allPatterns {
		if re.String() == `^(a+)+$` {
			continue // TestTimeoutIsNoMatch's own pattern
		}
		assert.Equal(t, MatchTimeout, re.MatchTimeout, re.String())
		for _, s := range hostile {
			tx := newText(s)
			assert.LessOrEqual(t, len(tx.all(re, 0)), maxMatches)
		}
	}
}
