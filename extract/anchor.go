package extract

import (
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

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
// position where a match can begin (starts.go lists them): TestStartsAreComplete checks that
// against the full scan on the dev runs and on hand-made cases.
type start struct {
	// words are lower-case literals, each beginning with an ASCII letter or
	// digit, that a match can begin with where \b holds before them.
	words []string
	// lits are lower-case literals that a match can begin with anywhere.
	lits []string
	// begin: a match can begin at the text start.
	begin bool
	// lines: a match can begin at the text start or just after a "\n".
	lines bool
	// lineWords, when set, narrow lines to those that begin with one of
	// these lower-case literals once the runes for which lead is true (the
	// blanks and markdown marks the pattern allows first) are skipped.
	lead      func(r rune) bool
	lineWords []string
	// at reports whether a match can begin at rune i. It may read t.lower
	// when lower is set (the text is then known to keep its byte offsets in
	// lower case).
	at    func(t *text, i int) bool
	lower bool

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
	if len(s.words)+len(s.lits)+len(s.lineWords) > 0 || s.lower {
		l, aligned := t.lowered()
		if !aligned {
			return nil, false
		}
		lower = l
	}
	var bytes []int
	for _, w := range s.words {
		for _, p := range t.wordStarts()[wordKey(w)] {
			if strings.HasPrefix(lower[p:], w) {
				bytes = append(bytes, int(p))
			}
		}
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
	if s.begin {
		c = append(c, 0)
	}
	if s.lines {
		for _, i := range t.lineStarts() {
			if len(s.lineWords) == 0 || t.lineBegins(i, s.lead, s.lineWords) {
				c = append(c, i)
			}
		}
	}
	if s.at != nil {
		for i := range t.runes {
			if s.at(t, i) {
				c = append(c, i)
			}
		}
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

// lineStarts are the rune positions of the text start and of every rune
// after a "\n".
func (t *text) lineStarts() []int {
	if t.lines == nil {
		t.lines = []int{0}
		for i, r := range t.runes {
			if r == '\n' {
				t.lines = append(t.lines, i+1)
			}
		}
	}
	return t.lines
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

// tryAt runs the anchored pattern at each candidate in turn, skipping those
// inside the previous match, as regexp2's own scan would. A scan between two
// matches is bounded by MatchTimeout as a single regexp2 call is; running
// out of it, like a timed-out attempt, ends the scan with what was found.
func (t *text) tryAt(re *regexp2.Regexp, cands []int, limit int) []match {
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
		rm, err := re.FindRunesMatchStartingAt(t.runes, c)
		if err != nil {
			break
		}
		if rm == nil {
			continue
		}
		out = append(out, t.convert(rm))
		if len(out) >= limit {
			break
		}
		next = rm.Index + rm.Length
		if rm.Length == 0 {
			next++
		}
		deadline = time.Now().Add(MatchTimeout)
	}
	return out
}

// lowered returns the text in lower case, rune by rune as regexp2's
// IgnoreCase folds it, and whether every rune kept its byte length (so that
// byte offsets in the lower case are offsets in the text).
func (t *text) lowered() (string, bool) {
	if !t.lowerDone {
		t.lowerDone = true
		t.aligned = true
		b := make([]byte, 0, len(t.s))
		for i, r := range t.runes {
			if r < utf8.RuneSelf {
				if 'A' <= r && r <= 'Z' {
					r += 'a' - 'A'
				}
				b = append(b, byte(r))
				continue
			}
			l := unicode.ToLower(r)
			// An invalid byte reads as U+FFFD, three bytes for one.
			if utf8.RuneLen(l) != t.off[i+1]-t.off[i] {
				t.aligned = false
			}
			b = utf8.AppendRune(b, l)
		}
		t.lower = string(b)
	}
	return t.lower, t.aligned
}

// wordStarts indexes the lower-case text by the first two bytes of each
// word: the byte offsets of every ASCII letter or digit that no ASCII word
// character precedes. A byte of a multi-byte rune before it does not rule a
// word start out, so the index holds every place where \b can stand before
// an ASCII letter or digit.
func (t *text) wordStarts() map[uint16][]int32 {
	if t.words == nil {
		lower, _ := t.lowered()
		t.words = map[uint16][]int32{}
		for i := 0; i+1 < len(lower); i++ {
			if asciiAlnum(lower[i]) && (i == 0 || !asciiWord(lower[i-1])) {
				k := wordKey(lower[i:])
				t.words[k] = append(t.words[k], int32(i))
			}
		}
	}
	return t.words
}

func wordKey(s string) uint16 { return uint16(s[0])<<8 | uint16(s[1]) }

func asciiAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func asciiWord(b byte) bool { return asciiAlnum(b) || b == '_' }

// runeIndex converts a byte offset at a rune start into the rune's index.
func (t *text) runeIndex(b int) int {
	return sort.SearchInts(t.off, b)
}

// prev is the rune before rune i, -1 at the text start.
func (t *text) prev(i int) rune {
	if i == 0 {
		return -1
	}
	return t.runes[i-1]
}

// wordChar is regexp2's \w (syntax.IsWordChar), with an ASCII fast path:
// regexp2's own looks up four category tables by name for every rune.
func wordChar(r rune) bool {
	switch {
	case r < 0:
		return false
	case r < utf8.RuneSelf:
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
	}
	return unicode.In(r, unicode.L, unicode.Mn, unicode.Nd, unicode.Pc) || r == '\u200D' || r == '\u200C'
}

// digit is regexp2's \d (Unicode decimal digits).
func digit(r rune) bool { return r >= 0 && unicode.IsDigit(r) }

// The classes of the look-behinds that at functions reproduce, as regexp2
// reads them.
func letter(r rune) bool      { return r >= 0 && unicode.Is(unicode.L, r) }
func upperLetter(r rune) bool { return r >= 0 && unicode.Is(unicode.Lu, r) }

// lowerRune folds r as regexp2's IgnoreCase does.
func lowerRune(r rune) rune { return unicode.ToLower(r) }
