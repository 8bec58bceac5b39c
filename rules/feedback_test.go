package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCritiqueWordsAreNecessary checks the prefilter against the pattern
// alone on every dev message and a few hand-made ones: a word list that
// missed an alternative would silently drop critiques.
func TestCritiqueWordsAreNecessary(t *testing.T) {
	texts := []string{"The total IS WRONG.", "There was a bug in it", "This doesn't match", "you made an error", "it seems flawed"}
	for _, r := range devRuns(t) {
		for _, s := range r.Steps {
			texts = append(texts, s.Content)
		}
	}
	for _, s := range texts {
		want, _ := critique.FindStringMatch(s)
		got := findCritique(s)
		if want == nil {
			assert.Nil(t, got, "%.80q", s)
			continue
		}
		if assert.NotNil(t, got, "%.80q", s) {
			assert.Equal(t, want.Index, got.Index)
		}
	}
}
