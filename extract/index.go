package extract

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What a text computes once, on first use, for the starters of all
// patterns: where its words begin and where the runes of a class are.

// wordStarts appends the byte offsets where the lower-case literal w (an
// ASCII letter or digit first) begins a word: an ASCII letter or digit
// that no ASCII word character precedes. Every place where \b can stand
// before w is one. The text's word starts are listed once, each as its
// first four bytes above its offset, sorted: the words that begin with
// w's first four bytes (or all of w) are a run found by binary search.
func (t *text) wordStarts(out []int, w string) []int {
	if t.words == nil {
		t.words = []uint64{}
		for i := 0; i < len(t.lower); i++ {
			if asciiAlnum(t.lower[i]) && (i == 0 || !asciiAlnum(t.lower[i-1]) && t.lower[i-1] != '_') {
				t.words = append(t.words, uint64(prefixKey(t.lower[i:]))<<32|uint64(i))
			}
		}
		slices.Sort(t.words)
	}
	key := uint64(prefixKey(w))
	end := key + 1<<(8*(4-min(4, len(w)))) // past the keys that begin with w's bytes
	ws := t.words
	for k := sort.Search(len(ws), func(k int) bool { return ws[k]>>32 >= key }); k < len(ws) && ws[k]>>32 < end; k++ {
		if p := int(uint32(ws[k])); strings.HasPrefix(t.lower[p:], w) {
			out = append(out, p)
		}
	}
	return out
}

// prefixKey packs the first four bytes of s, zeros past its end.
func prefixKey(s string) uint32 {
	var k uint32
	for i := range 4 {
		k <<= 8
		if i < len(s) {
			k |= uint32(s[i])
		}
	}
	return k
}

// occurrences appends the byte offsets of lit in the lower-case text.
func (t *text) occurrences(out []int, lit string) []int {
	for from := 0; ; {
		i := strings.Index(t.lower[from:], lit)
		if i < 0 {
			return out
		}
		out = append(out, from+i)
		from += i + 1
	}
}

// positions returns the rune positions of the runes of set, found once for
// all the patterns that begin with set.
func (t *text) positions(set *runeSet) []int {
	ps, ok := t.at[set]
	if !ok {
		for p, r := range t.runes {
			if set.has(r) {
				ps = append(ps, p)
			}
		}
		if t.at == nil {
			t.at = map[*runeSet][]int{}
		}
		t.at[set] = ps
	}
	return ps
}

// runeIndex converts a byte offset at a rune start into the rune's index.
func (t *text) runeIndex(b int) int {
	if len(t.runes) == len(t.s) {
		return b // ASCII
	}
	i, _ := slices.BinarySearch(t.off, b)
	return i
}

func asciiAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// wordChar is regexp2's \w (syntax.IsWordChar), with an ASCII fast path:
// regexp2's own looks up four category tables by name for every rune.
func wordChar(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 0 && (asciiAlnum(byte(r)) || r == '_')
	}
	return unicode.In(r, unicode.L, unicode.Mn, unicode.Nd, unicode.Pc) || r == '\u200D' || r == '\u200C'
}

// runeSet is a class of a parsed pattern. Each is made once for all
// patterns, so that equal classes are one pointer and a text finds the
// runes of each once.
type runeSet struct {
	ascii  [utf8.RuneSelf]bool
	ranges []rune // first and last rune of each range, sorted, apart
}

var runeSets = map[string]*runeSet{}

func newRuneSet(ranges []rune) *runeSet {
	if s, ok := runeSets[string(ranges)]; ok {
		return s
	}
	s := &runeSet{ranges: ranges}
	for r := range s.ascii {
		s.ascii[r] = s.in(rune(r))
	}
	runeSets[string(ranges)] = s
	return s
}

// has reports whether r, or outside ASCII its lower case, is in s: under
// IgnoreCase regexp2 compares lower cases, and the classes the patterns
// use hold both cases of a letter.
func (s *runeSet) has(r rune) bool {
	if r >= 0 && r < utf8.RuneSelf {
		return s.ascii[r]
	}
	return s.in(r) || s.in(unicode.ToLower(r))
}

func (s *runeSet) in(r rune) bool {
	n := len(s.ranges) / 2
	i := sort.Search(n, func(i int) bool { return s.ranges[2*i+1] >= r })
	return i < n && s.ranges[2*i] <= r
}

// within reports whether every rune of s satisfies f.
func (s *runeSet) within(f func(rune) bool) bool {
	for i := 0; i < len(s.ranges); i += 2 {
		for r := s.ranges[i]; r <= s.ranges[i+1]; r++ {
			if !f(r) {
				return false
			}
		}
	}
	return true
}

// overlaps reports whether set shares a rune with one of sets.
func overlaps(sets []*runeSet, set *runeSet) bool {
	for _, s := range sets {
		for a, b := s.ranges, set.ranges; len(a) > 0 && len(b) > 0; {
			switch {
			case a[1] < b[0]:
				a = a[2:]
			case b[1] < a[0]:
				b = b[2:]
			default:
				return true
			}
		}
	}
	return false
}

// startsIn reports whether the first rune of one of lits, in any case, is
// in one of sets.
func startsIn(lits []string, sets []*runeSet) bool {
	for _, l := range lits {
		r, _ := utf8.DecodeRuneInString(l)
		for f := r; ; {
			if slices.ContainsFunc(sets, func(s *runeSet) bool { return s.in(f) }) {
				return true
			}
			if f = unicode.SimpleFold(f); f == r {
				break
			}
		}
	}
	return false
}
