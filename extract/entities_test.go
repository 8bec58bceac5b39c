package extract

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// FuzzEntityGates holds the tests entities puts a name to, read without
// copies and once per line, to their plain definitions.
func FuzzEntityGates(f *testing.F) {
	for _, s := range scannerCases {
		f.Add(s)
	}
	for _, s := range []string{"# Heading Words\n  ## Two: Here\nGather Information: Now", "\t#x Y", "Total Cost for Daily Tickets: Z",
		"WebSurfer and Web_Surfer met ÜBER Agent", "FACTS TO LOOK UP and US Air Force", "web surfer", ":A", "#"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		agents := map[string]bool{}
		for i, w := range strings.Fields(s) {
			if i%2 == 0 {
				agents[agentKey(w)] = true
				agents[strings.ReplaceAll(entityNorm(w+" "+w), " ", "")] = true
			}
		}
		for _, w := range []string{strings.Repeat("A", 20), strings.Repeat("a", 9), strings.ToUpper(s)} {
			assert.Equal(t, commonWords[strings.ToLower(w)], common(w), "%q", w)
			assert.Equal(t, slices.Contains(connectors, strings.ToLower(w)), connector(w), "%q", w)
		}
		l := labels{s: s}
		for i := range s {
			start, end := lineBounds(s, i)
			line := strings.TrimLeft(s[start:end], " \t")
			m := markerAt(line)
			heading := strings.HasPrefix(strings.TrimLeft(s[start:i], " \t"), "#") ||
				!strings.HasPrefix(line, "#") && m >= 0 && end-len(line)+m < i
			colon := strings.IndexByte(s[start:end], ':')
			on := colon >= 0 && start+colon >= i && titleCase(s[start:start+colon])
			assert.Equal(t, heading, l.heading(i), "heading at %d of %q", i, s)
			assert.Equal(t, on, l.on(i), "label at %d of %q", i, s)
		}
		for _, w := range strings.Fields(s) {
			assert.Equal(t, agents[agentKey(w)], agentNamed(w, newAgentSet(agents)), "%q", w)
			assert.Equal(t, commonWords[strings.ToLower(w)], common(w), "%q", w)
			assert.Equal(t, slices.Contains(connectors, strings.ToLower(w)), connector(w), "%q", w)
			assert.Equal(t, strings.Trim(w, "*_#>-.()[]0123456789"), trimLabelWord(w), "%q", w)
		}
		for _, m := range names(newText(s)) {
			words := appendWords(nil, s, m.Start, m.End)
			norm := entityNorm(s[m.Start:m.End])
			assert.Equal(t, agents[norm] || agents[strings.ReplaceAll(norm, " ", "")], agents[norm] || agentSpaced(norm, newAgentSet(agents)), "%q", norm)
			assert.Equal(t, plainCapitalsHeading(s[m.Start:m.End]), capitalsHeading(s, words), "%q", s[m.Start:m.End])
		}
	})
}

// TestLongWords: common and connector rule out an ASCII word longer than
// their buffers, which must be longer than any word they hold.
func TestLongWords(t *testing.T) {
	for w := range commonWords {
		assert.LessOrEqual(t, len(w), 16, w)
	}
	for _, w := range connectors {
		assert.LessOrEqual(t, len(w), 8, w)
	}
}

// plainCapitalsHeading is capitalsHeading on a phrase split by
// strings.Fields.
func plainCapitalsHeading(phrase string) bool {
	long := false
	for _, w := range strings.Fields(phrase) {
		if !upper(w) {
			return false
		}
		long = long || utf8.RuneCountInString(strings.Trim(w, ".,;:!?'’&-")) >= 4
	}
	return long
}
