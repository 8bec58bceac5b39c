package extract

import (
	"strings"
	"time"

	"github.com/dlclark/regexp2"
)

// MatchTimeout bounds every single regex match. The patterns are written
// with bounded repetitions so that ordinary logs match in microseconds; the
// timeout is the backstop against a hostile input that still finds a slow
// path. A match that times out counts as no match.
const MatchTimeout = 250 * time.Millisecond

// maxMatches caps how many matches of one pattern are read in one step, so a
// pathological step (a page of OCR digits) cannot make extraction quadratic.
const maxMatches = 400

// pattern compiles a regexp2 expression once, at package initialisation,
// with the match timeout set. RE2-incompatible features (look-behind) are
// the reason for regexp2; the timeout is the price of its backtracking.
func pattern(expr string, opts regexp2.RegexOptions) *regexp2.Regexp {
	re := regexp2.MustCompile(expr, opts)
	re.MatchTimeout = MatchTimeout
	allPatterns = append(allPatterns, re)
	return re
}

// allPatterns lists every compiled pattern, for the tests that check them
// against hostile input.
var allPatterns []*regexp2.Regexp

const (
	ci = regexp2.IgnoreCase
	ml = regexp2.Multiline
)

// hints holds, for some patterns, literals of which at least one must occur
// (in lower case) for the pattern to match at all. A substring search is
// far cheaper than letting a backtracking engine try every position, and
// most steps contain none of a given pattern's keywords.
var hints = map[*regexp2.Regexp][]string{}

// hinted records the necessary literals of re. Every alternative of re must
// contain one of them; TestHintsAreNecessary checks this on the dev runs.
func hinted(re *regexp2.Regexp, literals ...string) *regexp2.Regexp {
	hints[re] = literals
	return re
}

// mayMatch is false when re cannot match t because none of its hints occurs.
func (t *text) mayMatch(re *regexp2.Regexp) bool {
	hs, ok := hints[re]
	if !ok {
		return true
	}
	if t.lower == "" {
		t.lower = strings.ToLower(t.s)
	}
	for _, h := range hs {
		if strings.Contains(t.lower, h) {
			return true
		}
	}
	return false
}

// text is a string prepared for regexp2, which works on runes: it keeps the
// rune slice (converted once, not once per pattern) and the byte offset of
// every rune so that matches can be reported as byte offsets.
type text struct {
	s     string
	runes []rune
	off   []int  // off[i] is the byte offset of runes[i]; off[len(runes)] == len(s)
	lower string // s in lower case, made on first use by mayMatch
}

func newText(s string) *text {
	t := &text{s: s, runes: make([]rune, 0, len(s)), off: make([]int, 0, len(s)+1)}
	for i, r := range s {
		t.runes = append(t.runes, r)
		t.off = append(t.off, i)
	}
	t.off = append(t.off, len(s))
	return t
}

// span is a match or a group in byte offsets; ok is false for a group that
// did not take part in the match.
type span struct {
	start, end int
	ok         bool
}

// match is one regex match: groups[0] is the whole match.
type match struct {
	groups []span
	names  []string // names[i] is the name of groups[i] ("1", "2"... when unnamed)
}

func (m match) start() int { return m.groups[0].start }
func (m match) end() int   { return m.groups[0].end }

// group returns the text of group i, "" if it did not take part.
func (t *text) group(m match, i int) string {
	if i >= len(m.groups) || !m.groups[i].ok {
		return ""
	}
	return t.s[m.groups[i].start:m.groups[i].end]
}

// named returns the text of the group called name, "" if it did not take part.
func (t *text) named(m match, name string) string {
	for i, n := range m.names {
		if n == name {
			return t.group(m, i)
		}
	}
	return ""
}

func (t *text) convert(rm *regexp2.Match) match {
	gs := rm.Groups()
	m := match{groups: make([]span, len(gs)), names: make([]string, len(gs))}
	for i, g := range gs {
		m.names[i] = g.Name
		if len(g.Captures) == 0 && i > 0 {
			continue
		}
		m.groups[i] = span{start: t.off[g.Index], end: t.off[g.Index+g.Length], ok: true}
	}
	return m
}

// first returns the first match of re, treating a timeout as no match.
func (t *text) first(re *regexp2.Regexp) (match, bool) {
	if !t.mayMatch(re) {
		return match{}, false
	}
	rm, err := re.FindRunesMatch(t.runes)
	if err != nil || rm == nil {
		return match{}, false
	}
	return t.convert(rm), true
}

// all returns up to limit matches of re (maxMatches if limit <= 0). A timeout
// ends the scan and keeps what was found before it.
func (t *text) all(re *regexp2.Regexp, limit int) []match {
	if limit <= 0 {
		limit = maxMatches
	}
	if !t.mayMatch(re) {
		return nil
	}
	var out []match
	rm, err := re.FindRunesMatch(t.runes)
	for err == nil && rm != nil && len(out) < limit {
		out = append(out, t.convert(rm))
		rm, err = re.FindNextMatch(rm)
	}
	return out
}

// has reports whether re matches anywhere.
func (t *text) has(re *regexp2.Regexp) bool {
	_, ok := t.first(re)
	return ok
}

// firstIn is first over a plain string, for short strings read once.
func firstIn(re *regexp2.Regexp, s string) (string, bool) {
	t := newText(s)
	m, ok := t.first(re)
	if !ok {
		return "", false
	}
	if len(m.groups) > 1 && m.groups[1].ok {
		return t.group(m, 1), true
	}
	return t.group(m, 0), true
}
