package extract

import (
	"testing"

	"github.com/dlclark/regexp2"
	"github.com/stretchr/testify/assert"
)

// TestHintsAreNecessary checks that no hinted pattern matches a dev step
// (or a hand-made case) in which none of its hints occurs: a hint that is
// not necessary would silently hide matches.
func TestHintsAreNecessary(t *testing.T) {
	texts := []string{
		"FINAL ANSWER: 42", "The Answer is 3.", "Therefore, the total is 5.", "TERMINATE", "Max rounds (30) reached.",
		"exitcode: 1 (execution failed)", "Exit Status: 2", "ValueError: bad", "Error: nope", "HTTP 404", "I'm sorry",
		"Let's assume 5", "Stalled.... Replanning...", "Code output: ", "I have verified it", "## Plan\n1. a", "Next speaker Coder",
		"```python\nx=1\n```", "Thought: hmm", "Action: search", "\\boxed{7}",
	}
	names, runs := devRuns(t)
	for _, n := range names {
		for _, s := range runs[n].Steps {
			texts = append(texts, s.Content)
		}
	}
	guarded := map[*regexp2.Regexp][]string{}
	for re, hs := range hints {
		guarded[re] = hs
	}
	t.Cleanup(func() {
		for re, hs := range guarded {
			hints[re] = hs
		}
	})
	for re, hs := range guarded {
		for _, s := range texts {
			tx := newText(s)
			if tx.mayMatch(re) {
				continue
			}
			delete(hints, re) // run the pattern unguarded
			_, ok := tx.first(re)
			hints[re] = hs
			assert.False(t, ok, "pattern %.60q matches %.80q without any of its hints", re.String(), s)
		}
	}
}
