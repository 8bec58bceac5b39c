package rules

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/extract"
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
	"\u212Aelvin: there is an issue in the plan", "thisis wrong, ıt was wrong", "made an", "SEEMS  wrong; seems wrong",
	// Around the window a try reads: the rune before it, the longest
	// match, and the rune after that its closing \b reads.
	"there was an mistake inside", "so there was an mistake in", "éthere is an error in it", "— there is an error in it",
	"it is wrongé", "it does not matchɐ", "\xe2\x82there is a bug in", "there was an ɐmistake in"}

// sameCritique checks findCritique against a scan of the whole message,
// and the critique words it finds against a search for each word in the
// lower case.
func sameCritique(t *testing.T, s string) {
	t.Helper()
	lower, aligned := extract.FoldCase(s)
	var words []int
	for _, w := range critiqueWords {
		for from := 0; ; {
			k := strings.Index(lower[from:], w)
			if k < 0 {
				break
			}
			words = append(words, from+k)
			from += k + 1
		}
	}
	gotWords, gotAligned := critiqueWordsIn(s)
	slices.Sort(words)
	slices.Sort(gotWords)
	assert.Equal(t, words, gotWords, "%.80q", s)
	assert.Equal(t, aligned, gotAligned, "%.80q", s)

	want, _ := critique.FindStringMatch(s)
	start, n, ok := findCritique(s)
	if want == nil {
		assert.False(t, ok, "%.80q", s)
		return
	}
	if assert.True(t, ok, "%.80q", s) {
		wantStart, wantN := byteSpan(s, want)
		assert.Equal(t, wantStart, start, "%.80q", s)
		assert.Equal(t, wantN, n, "%.80q", s)
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
