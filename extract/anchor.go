package extract

import (
	"sort"
	"strings"
	"time"

	"github.com/dlclark/regexp2"
)

// Where a match can begin. regexp2 tries a pattern at every position of the
// text and pays at each for Unicode class lookups (\b and \w consult four
// category tables per character), which made extraction the bulk of
// offattr's time. Most patterns can begin only at a few places that plain
// Go finds far faster: at a keyword, at a line start, at a digit. A start
// lists those places; the pattern is compiled a second time behind \G, which
// pins it to the position it is tried at, and is tried only there, in order.
// The matches are those of a full scan as long as the places include every
// position where a match can begin (starts.go lists them):
// TestStartsAreComplete checks that against the full scan on the dev runs
// and on hand-made cases.
type start struct {
	// words are lower-case literals, each beginning with an ASCII letter or
	// digit, that a match can begin with where \b holds before them.
	words []string
	// lits are lower-case literals that a match can begin with anywhere.
	lits []string
	// lines: a match can begin at the text start or just after a "\n".
	lines bool
	// lineWords, when set, narrow lines to those that begin with one of
	// these lower-case literals once the runes for which lead is true (the
	// blanks and markdown marks the pattern allows first) are skipped.
	lead      func(r rune) bool
	lineWords []string
	// lineHas, when set, narrows lines to those that hold one of these
	// lower-case literals before their end.
	lineHas []string
	// at reports whether a match can begin at rune i; it is asked only
	// about runes of the classes in mask (about every rune if mask is 0).
	// It may read t.lower when lower is set (the text is then known to keep
	// its byte offsets in lower case).
	at    func(t *text, i int) bool
	mask  uint8
	lower bool
	// more returns further positions where a match can begin, in any order.
	more func(t *text) []int
	// quick, when set, tells the match at rune i without regexp2 where it
	// can: it returns the match and the rune index where it ends, -2 when
	// there is no match at i, or -1 to leave the position to regexp2.
	quick func(t *text, i int) (match, int)

	anchored *regexp2.Regexp // \G(?:pattern)
}

// starts holds the start of the patterns that have one; the others are
// scanned by regexp2 from the first position on.
var starts = map[*regexp2.Regexp]*start{}

// patternOpts remembers the options each pattern was compiled with, so that
// its anchored twin is compiled alike.
var patternOpts = map[*regexp2.Regexp]regexp2.RegexOptions{}

// startsAt records where re's matches can begin. Change it with the pattern.
func startsAt(re *regexp2.Regexp, s start) {
	for _, w := range s.words {
		if len(w) < 2 || !asciiAlnum(w[0]) || strings.ToLower(w) != w {
			panic("extract: start word " + w + " must be lower case, 2+ bytes, and begin with a letter or digit")
		}
	}
	for _, l := range s.lits {
		if l == "" || strings.ToLower(l) != l {
			panic("extract: start literal " + l + " must be lower case and not empty")
		}
	}
	s.anchored = pattern(`\G(?:`+re.String()+`)`, patternOpts[re])
	starts[re] = &s
}

// candidates returns, in order, the rune positions where a match of s can
// begin; ok is false when they cannot be told (a text whose lower case does
// not keep every rune's byte length) and the pattern must be scanned.
func (t *text) candidates(s *start) (c []int, ok bool) {
	var lower string
	if len(s.words)+len(s.lits)+len(s.lineWords)+len(s.lineHas) > 0 || s.lower {
		l, aligned := t.lowered()
		if !aligned {
			return nil, false
		}
		lower = l
	}
	var bytes []int
	for _, w := range s.words {
		bytes = t.appendWords(bytes, w)
	}
	for _, l := range s.lits {
		for from := 0; ; {
			i := strings.Index(lower[from:], l)
			if i < 0 {
				break
			}
			bytes = append(bytes, from+i)
			from += i + 1
		}
	}
	for _, b := range bytes {
		c = append(c, t.runeIndex(b))
	}
	if s.lines {
		for _, i := range t.lineStarts() {
			if (len(s.lineWords) == 0 || t.lineBegins(i, s.lead, s.lineWords)) && (len(s.lineHas) == 0 || t.lineHolds(i, s.lineHas)) {
				c = append(c, i)
			}
		}
	}
	if s.at != nil {
		for i, cl := range t.classes() {
			if (s.mask == 0 || cl&s.mask != 0) && s.at(t, i) {
				c = append(c, i)
			}
		}
	}
	if s.more != nil {
		c = append(c, s.more(t)...)
	}
	sort.Ints(c)
	out := c[:0]
	for i, p := range c {
		if i == 0 || p != c[i-1] {
			out = append(out, p)
		}
	}
	return out, true
}

// lineBegins reports whether, after the runes from i on for which lead is
// true, the lower-case text begins with one of words.
func (t *text) lineBegins(i int, lead func(rune) bool, words []string) bool {
	for lead != nil && i < len(t.runes) && lead(t.runes[i]) {
		i++
	}
	rest := t.lower[t.off[i]:]
	for _, w := range words {
		if strings.HasPrefix(rest, w) {
			return true
		}
	}
	return false
}

// tryAt runs s's anchored pattern at each candidate in turn, skipping
// those inside the previous match, as regexp2's own scan would; s.quick
// answers first where it can. A scan between two matches is bounded by
// MatchTimeout as a single regexp2 call is; running out of it, like a
// timed-out attempt, ends the scan with what was found.
func (t *text) tryAt(s *start, cands []int, limit int) []match {
	var out []match
	next := 0
	deadline := time.Now().Add(MatchTimeout)
	for n, c := range cands {
		if c < next {
			continue
		}
		if n%64 == 63 && time.Now().After(deadline) {
			break
		}
		var m match
		end := -1
		if s.quick != nil {
			m, end = s.quick(t, c)
		}
		if end == -2 {
			continue
		}
		if end < 0 {
			rm, err := s.anchored.FindRunesMatchStartingAt(t.runes, c)
			if err != nil {
				break
			}
			if rm == nil {
				continue
			}
			m, end = t.convert(rm), rm.Index+rm.Length
		}
		out = append(out, m)
		if len(out) >= limit {
			break
		}
		next = end
		if end == c {
			next++
		}
		deadline = time.Now().Add(MatchTimeout)
	}
	return out
}

// lineHolds reports whether the line that begins at rune i holds one of
// words in lower case.
func (t *text) lineHolds(i int, words []string) bool {
	from := t.off[i]
	line := t.lower[from:]
	if nl := strings.IndexByte(line, '\n'); nl >= 0 {
		line = line[:nl]
	}
	for _, w := range words {
		if strings.Contains(line, w) {
			return true
		}
	}
	return false
}
