package extract

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What a text computes once, on first use, for the starts of all patterns
// (anchor.go): its lower case, where its words and lines begin, and the
// class of each rune.

// lowered returns the text in lower case and whether its byte offsets are
// the text's (FoldCase), made once.
func (t *text) lowered() (string, bool) {
	if !t.lowerDone {
		t.lowerDone = true
		t.lower, t.aligned = FoldCase(t.s)
	}
	return t.lower, t.aligned
}

// FoldCase returns s in lower case, rune by rune as regexp2's IgnoreCase
// folds it (unicode.ToLower), and whether every rune kept its byte length,
// so that byte offsets in the lower case are offsets in s. A literal found
// in the lower case then tells where a case-insensitive pattern can match.
func FoldCase(s string) (lower string, aligned bool) {
	aligned = true
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		l := unicode.ToLower(r)
		// An invalid byte reads as U+FFFD, three bytes for one.
		if utf8.RuneLen(l) != w {
			aligned = false
		}
		b = utf8.AppendRune(b, l)
		i += w
	}
	return string(b), aligned
}

// appendWords appends the byte offsets where the lower-case literal w
// (two bytes or more, an ASCII letter or digit first) begins a word: an
// ASCII letter or digit that no ASCII word character precedes. A byte of a
// multi-byte rune before it does not rule a word start out, so these are
// every place where \b can stand before w.
func (t *text) appendWords(out []int, w string) []int {
	if t.words == nil {
		t.words = wordIndex(t.lower)
	}
	key := uint64(w[0])<<8 | uint64(w[1])
	ws := t.words
	for k := sort.Search(len(ws), func(k int) bool { return ws[k]>>32 >= key }); k < len(ws) && ws[k]>>32 == key; k++ {
		if p := int(uint32(ws[k])); strings.HasPrefix(t.lower[p:], w) {
			out = append(out, p)
		}
	}
	return out
}

// wordIndex lists the word starts of the lower-case text, each as its first
// two bytes above its byte offset, sorted: the starts of one two-byte key
// are a run found by binary search, in text order.
func wordIndex(lower string) []uint64 {
	var ws []uint64
	for i := 0; i+1 < len(lower); i++ {
		if asciiAlnum(lower[i]) && (i == 0 || !asciiWord(lower[i-1])) {
			ws = append(ws, (uint64(lower[i])<<8|uint64(lower[i+1]))<<32|uint64(i))
		}
	}
	slices.Sort(ws)
	return ws
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
