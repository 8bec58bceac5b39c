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
	patternOpts[re] = opts
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
// most steps contain none of a given pattern's keywords. Patterns with a
// start (anchor.go) skip their hints: their candidates are cheaper still.
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
	lower, _ := t.lowered()
	for _, h := range hs {
		if strings.Contains(lower, h) {
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
	off   []int // off[i] is the byte offset of runes[i]; off[len(runes)] == len(s)

	// Made on first use (index.go): s in lower case, whether its byte
	// offsets are those of s, where its words and lines begin, the class of
	// each rune, and the results of find.
	lower     string
	lowerDone bool
	aligned   bool
	words     []uint64 // see wordIndex
	lines     []int
	class     []uint8
	found     map[*regexp2.Regexp]found // results of find
	proseText *text                     // see prose
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
	ms := t.find(re, 1)
	if len(ms) == 0 {
		return match{}, false
	}
	return ms[0], true
}

// all returns up to limit matches of re (maxMatches if limit <= 0). A timeout
// ends the scan and keeps what was found before it.
func (t *text) all(re *regexp2.Regexp, limit int) []match {
	if limit <= 0 {
		limit = maxMatches
	}
	return t.find(re, limit)
}

// find returns up to limit matches of re (a timeout ends the search and
// keeps what was found before it).
// Results are kept per text: a step reads some patterns more than once
// (a plan is detected, then its lines are read; code blocks are listed, then
// cut out of the prose twice).
func (t *text) find(re *regexp2.Regexp, limit int) []match {
	if c, ok := t.found[re]; ok && (limit <= len(c.ms) || len(c.ms) < c.limit) {
		return c.ms[:min(limit, len(c.ms)):min(limit, len(c.ms))]
	}
	var ms []match
	// A pattern with a start does not need its hints: finding its few
	// candidates costs less than looking for every hint in a long text.
	if starts[re] != nil || t.mayMatch(re) {
		ms = t.search(re, limit)
	}
	if t.found == nil {
		t.found = map[*regexp2.Regexp]found{}
	}
	t.found[re] = found{ms: ms, limit: limit}
	return ms[:len(ms):len(ms)]
}

// found is a search's result: its matches and how many were asked for
// (fewer matches than that means there are no more).
type found struct {
	ms    []match
	limit int
}

// search tries re only where it can begin when that is known (start.go),
// else lets regexp2 scan.
func (t *text) search(re *regexp2.Regexp, limit int) []match {
	if s := starts[re]; s != nil {
		if cands, ok := t.candidates(s); ok {
			return t.tryAt(s, cands, limit)
		}
	}
	return t.scan(re, limit)
}

// scan lets regexp2 find the matches from the text start on.
func (t *text) scan(re *regexp2.Regexp, limit int) []match {
	var out []match
	rm, err := re.FindRunesMatch(t.runes)
	for err == nil && rm != nil {
		out = append(out, t.convert(rm))
		if len(out) == limit {
			break // not one scan more than asked for
		}
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
