package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCritiqueWordsAreNecessary checks the prefilter against the pattern
// alone on every dev message and a few hand-made ones: a word list that
// missed an alternative would silently drop critiques.
func TestCritiqueWordsAreNecessary(t *testing.T) {
	for _, s := range withDevTexts(t, critiqueSeeds) {
		sameCritique(t, s)
	}
}

// withDevTexts returns seeds followed by the text of every dev message, for
// holding a prefilter to the pattern it spares.
func withDevTexts(t *testing.T, seeds []string) []string {
	texts := append([]string{}, seeds...)
	for _, r := range devRuns(t) {
		for _, s := range r.Steps {
			texts = append(texts, s.Content)
		}
	}
	return texts
}

// critiqueSeeds are messages with and without critiques, in ASCII, in
// other scripts before a critique, and with runes whose lower case is
// shorter (the Kelvin sign), where offsets in the lower case are not
// offsets in the message.
var critiqueSeeds = []string{"The total IS WRONG.", "There was a bug in it", "This doesn't match", "you made an error", "it seems flawed",
	"there is a result; there is no error. It is incorrect", "Ünïcödé first — then the result is incorrect: 2+2 is 5.",
	"\u212Aelvin: there is an issue in the plan", "thisis wrong, ıt was wrong", "made an", "SEEMS  wrong; seems wrong"}

// sameCritique checks findCritique against a scan of the whole message.
func sameCritique(t *testing.T, s string) {
	t.Helper()
	want, _ := critique.FindStringMatch(s)
	got := findCritique(s)
	if want == nil {
		assert.Nil(t, got, "%.80q", s)
		return
	}
	if assert.NotNil(t, got, "%.80q", s) {
		assert.Equal(t, want.Index, got.Index, "%.80q", s)
		assert.Equal(t, want.Length, got.Length, "%.80q", s)
	}
}

// FuzzFindCritique holds findCritique, which tries the pattern only near
// critique words, to the pattern's own scan.
func FuzzFindCritique(f *testing.F) {
	for _, s := range critiqueSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sameCritique(t, s)
	})
}
