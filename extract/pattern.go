package extract

import (
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
	return re
}

const (
	ci = regexp2.IgnoreCase
	ml = regexp2.Multiline
)

// text is a string prepared for regexp2, which works on runes: it keeps the
// rune slice (converted once, not once per pattern) and the byte offset of
// every rune so that matches can be reported as byte offsets.
type text struct {
	s     string
	runes []rune
	off   []int // off[i] is the byte offset of runes[i]; off[len(runes)] == len(s)
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
