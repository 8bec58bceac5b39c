package extract

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What a text computes once, on first use, for the starts of all patterns
// (anchor.go): its lower case, where its words and lines begin, and the
// class of each rune.

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

// wordIndex holds the byte offsets in the lower-case text of every ASCII
// letter or digit that no ASCII word character precedes, grouped by their
// first two bytes. A byte of a multi-byte rune before it does not rule a
// word start out, so the index holds every place where \b can stand before
// an ASCII letter or digit.
type wordIndex struct {
	at    []int32 // offsets, bucket after bucket
	first []int32 // bucket b is at[first[b]:first[b+1]]
}

// Buckets: the first byte is one of 36 letters and digits; the second one
// of them, a space, or anything else.
const wordBuckets = 36 * 38

func bucketOf(a, b byte) int {
	return alnumIndex(a)*38 + secondIndex(b)
}

func alnumIndex(b byte) int {
	if b <= '9' {
		return int(b - '0')
	}
	return int(b-'a') + 10
}

func secondIndex(b byte) int {
	switch {
	case asciiAlnum(b) && (b < 'A' || b > 'Z'):
		return alnumIndex(b)
	case b == ' ':
		return 36
	}
	return 37
}

// smallText is the length below which words are looked up by searching
// the text rather than through an index: most texts a step makes (a ledger
// field, a window around a name) are short and read by few patterns.
const smallText = 2048

// appendWords appends the byte offsets where the lower-case literal w
// begins a word (see wordIndex).
func (t *text) appendWords(out []int, w string) []int {
	if len(t.lower) < smallText {
		for from := 0; ; {
			i := strings.Index(t.lower[from:], w)
			if i < 0 {
				return out
			}
			i += from
			if i == 0 || !asciiWord(t.lower[i-1]) {
				out = append(out, i)
			}
			from = i + 1
		}
	}
	if t.words == nil {
		t.words = buildWordIndex(t.lower)
	}
	b := bucketOf(w[0], w[1])
	for _, p := range t.words.at[t.words.first[b]:t.words.first[b+1]] {
		if strings.HasPrefix(t.lower[p:], w) {
			out = append(out, int(p))
		}
	}
	return out
}

func buildWordIndex(lower string) *wordIndex {
	isStart := func(i int) bool {
		return i+1 < len(lower) && asciiAlnum(lower[i]) && (i == 0 || !asciiWord(lower[i-1]))
	}
	var count [wordBuckets + 1]int32
	for i := 0; i < len(lower); i++ {
		if isStart(i) {
			count[bucketOf(lower[i], lower[i+1])+1]++
		}
	}
	for b := 1; b <= wordBuckets; b++ {
		count[b] += count[b-1]
	}
	idx := &wordIndex{at: make([]int32, count[wordBuckets]), first: append([]int32(nil), count[:]...)}
	next := count
	for i := 0; i < len(lower); i++ {
		if isStart(i) {
			b := bucketOf(lower[i], lower[i+1])
			idx.at[next[b]] = int32(i)
			next[b]++
		}
	}
	return idx
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

// Rune classes, for the at functions of starts: a start names the classes
// its matches can begin with and its at function is asked about those
// runes only.
const (
	cDigit uint8 = 1 << iota // \d
	cUpper                   // \p{Lu}
	cMark                    // punctuation that begins a claim (see marks)
)

// marks begin paths, numbers, phone numbers and quotes.
const marks = `/~.+(-\$€£¥"“'`

var asciiClass = func() (c [utf8.RuneSelf]uint8) {
	for r := range c {
		c[r] = runeClass(rune(r))
	}
	return c
}()

func runeClass(r rune) uint8 {
	var c uint8
	if digit(r) {
		c |= cDigit
	}
	if upperLetter(r) {
		c |= cUpper
	}
	if strings.ContainsRune(marks, r) {
		c |= cMark
	}
	return c
}

// classes returns the class of every rune.
func (t *text) classes() []uint8 {
	if t.class == nil {
		t.class = make([]uint8, len(t.runes))
		for i, r := range t.runes {
			if r >= 0 && r < utf8.RuneSelf {
				t.class[i] = asciiClass[r]
			} else {
				t.class[i] = runeClass(r)
			}
		}
	}
	return t.class
}

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

// The classes of the look-behinds that at functions reproduce, as regexp2
// reads them.
func digit(r rune) bool       { return r >= 0 && unicode.IsDigit(r) }
func letter(r rune) bool      { return r >= 0 && unicode.Is(unicode.L, r) }
func upperLetter(r rune) bool { return r >= 0 && unicode.Is(unicode.Lu, r) }

// lowerRune folds r as regexp2's IgnoreCase does.
func lowerRune(r rune) rune { return unicode.ToLower(r) }
