package match

import (
	"slices"
	"strings"
	"sync"
	syncatomic "sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// A Text is a string prepared for a set's patterns. regexp2 works on
// runes: a text keeps the rune slice (converted once, not once per
// pattern) and the byte offset of every rune, so that matches are
// reported as byte offsets.
type Text struct {
	set   *Set
	s     string
	runes []rune
	off   []int // off[i] is the byte offset of runes[i]; off[len(runes)] == len(s)

	// Made on first use: s in lower case, whether its byte offsets are
	// those of s, where the starters' literals stand (starts.go), and
	// which bytes it holds.
	lower       string
	lowerDone   bool
	aligned     bool
	lits        [][]int
	firsts      [][]int  // by first set: where its bytes begin runes (firstBytes)
	present     byteBits // the bytes of lower (bytesPresent)
	presentDone bool
	spare       *Buffers // where the conversions were made, if reused (ReadText)
}

// String returns the text.
func (t *Text) String() string { return t.s }

// Runes returns the text's runes, to be read, not changed.
func (t *Text) Runes() []rune { return t.runes }

// Offsets returns the byte offset of each rune, and the text's length
// last, to be read, not changed.
func (t *Text) Offsets() []int { return t.off }

// Text prepares s for the patterns of set.
func (set *Set) Text(s string) *Text { return set.ReadText(s, nil) }

// Buffers hold a text's conversions for the next text to reuse. A text is
// the largest allocation a reader of many texts makes, and texts are
// often read one at a time, each dropped when read.
type Buffers struct {
	runes []rune
	off   []int
	lits  [][]int
}

// ReadText is Text, but made in b's buffers when b is not nil: the text
// is then valid only until b is used again.
func (set *Set) ReadText(s string, b *Buffers) *Text {
	t := &Text{set: set, s: s, spare: b}
	var runes []rune
	var off []int
	if b != nil {
		runes, off = b.runes, b.off
	}
	// Most texts are ASCII, or begin so: a byte is its rune, copied
	// without decoding it. A text has no more runes than bytes.
	n := asciiPrefix(s)
	rs := reuse(runes, len(s))[:len(s)]
	for i, c := range []byte(s[:n]) { // no copy: a range reads the string's bytes
		rs[i] = rune(c)
	}
	if n == len(s) {
		t.runes, t.off = rs, identity(len(s)+1) // ASCII: rune i is byte i
	} else {
		// The rest is read once for its runes and their offsets, a byte
		// of ASCII without decoding it.
		o := reuse(off, len(s)+1)[:len(s)+1]
		copy(o, identity(n))
		k := n
		for i := n; i < len(s); k++ {
			o[k] = i
			if c := s[i]; c < utf8.RuneSelf {
				rs[k] = rune(c)
				i++
			} else {
				r, w := utf8.DecodeRuneInString(s[i:])
				rs[k] = r
				i += w
			}
		}
		o[k] = len(s)
		t.runes, t.off = rs[:k], o[:k+1]
		if k == len(s) {
			t.off = identity(len(s) + 1) // each rune a byte, some of them no UTF-8
		}
	}
	if b != nil {
		b.runes = t.runes
		if len(t.runes) != len(s) {
			b.off = t.off // not the shared identity
		}
	}
	return t
}

// asciiPrefix returns how many bytes of s from its start are ASCII,
// looking at eight at a time.
func asciiPrefix(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if Load8(s, i)&HighBits != 0 {
			break
		}
	}
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	return i
}

// reuse returns buf emptied, or a new slice when it cannot hold n (or
// is nil: an empty text has runes, none).
func reuse[T any](buf []T, n int) []T {
	if buf == nil || cap(buf) < n {
		return make([]T, 0, n)
	}
	return buf[:0]
}

// literalHits returns a slice per starter, empty, for hits to fill: the
// spare buffers' when t has them.
func (t *Text) literalHits() [][]int {
	if t.spare == nil {
		return make([][]int, t.set.lexicon.starters)
	}
	b := t.spare
	if len(b.lits) != t.set.lexicon.starters {
		b.lits = make([][]int, t.set.lexicon.starters)
	}
	for i := range b.lits {
		b.lits[i] = b.lits[i][:0]
	}
	return b.lits
}

// noHits returns, for a text where no literal of s stands, its hits by
// starter: all empty, shared by every such text and never appended to.
func (s *Set) noHits() [][]int { return s.noLits }

// runeIndices turns byte offsets at rune starts, ascending, into rune
// indices in place, by off (a text's off). Where each rune is a byte they
// are the same.
func runeIndices(bs, off []int) {
	if n := len(off) - 1; off[n] == n {
		return
	}
	r := 0
	for k, b := range bs {
		// Gallop from the last rune found, then search between: a few
		// candidates in a long text are not each walked to rune by rune.
		step := 1
		for r+step < len(off) && off[r+step] < b {
			r += step
			step *= 2
		}
		hi := min(r+step, len(off)-1)
		for r < hi {
			if m := int(uint(r+hi) >> 1); off[m] < b {
				r = m + 1
			} else {
				hi = m
			}
		}
		bs[k] = r
	}
}

// Sub returns the text of t's bytes i to j, read on its own (as Text
// would read it), but sharing t's runes, and its lower case, when each
// rune of t is one byte: the head of a text and the words around a name
// are read apart from the text, and converting them again would cost more
// than reading them.
func (t *Text) Sub(i, j int) *Text {
	if i == 0 && j == len(t.s) {
		return t
	}
	if len(t.runes) != len(t.s) {
		return t.set.Text(t.s[i:j])
	}
	u := &Text{set: t.set, s: t.s[i:j], runes: t.runes[i:j:j], off: identity(j - i + 1)}
	if t.lowerDone && t.aligned { // ASCII, folded byte by byte; an invalid byte is not aligned
		u.lower, u.aligned, u.lowerDone = t.lower[i:j], true, true
	}
	if i == 0 && t.lits != nil {
		u.lits = headHits(t.lits, j)
	}
	return u
}

// headHits is where the literals of hits (a text's) stand in its first j
// bytes read alone, without reading them again: the head of a step is
// searched after the step, for patterns that only matter near its top.
// A literal that begins in the head and runs past its end is kept, one
// candidate too many where a match cannot begin; none is missing, since
// the head begins where the text does, and a word starts there in both.
func headHits(hits [][]int, j int) [][]int {
	out := make([][]int, len(hits))
	for k, at := range hits {
		n, _ := slices.BinarySearch(at, j)
		out[k] = at[:n:n]
	}
	return out
}

// identities holds 0, 1, 2...: the offsets of every ASCII text, shared.
var identities syncatomic.Pointer[[]int]

// identity returns the offsets 0 to n-1. The shared slice only grows, and
// a reader keeps the one it got, so texts made at once need no lock.
func identity(n int) []int {
	size := 1 << 16
	if p := identities.Load(); p != nil {
		if len(*p) >= n {
			return (*p)[:n:n]
		}
		size = 2 * len(*p)
	}
	ids := make([]int, max(n, size))
	for i := range ids {
		ids[i] = i
	}
	identities.Store(&ids)
	return ids[:n:n]
}

func (t *Text) convert(m *regexp2.Match) Match {
	gs := m.Groups()
	out := Match{Groups: make([]Span, len(gs)), Names: make([]string, len(gs))}
	for i, g := range gs {
		out.Names[i] = g.Name
		if len(g.Captures) == 0 && i > 0 {
			continue
		}
		out.Groups[i] = Span{Start: t.off[g.Index], End: t.off[g.Index+g.Length], OK: true}
	}
	return out
}

// Find returns up to limit matches of p in t, in order, as regexp2's scan
// of the whole text finds them: tried only where p's starters, its
// look-behind and its needs say a match can begin, when that is known.
func (t *Text) Find(p *Pattern, limit int) []Match {
	if p.set != t.set {
		return t.Scan(p, limit)
	}
	if !t.mayMatch(&p.plan) {
		return nil
	}
	if p.plan.anchored != nil {
		buf := candidateBufs.Get().(*[]int)
		defer candidateBufs.Put(buf)
		if cands, ok := t.candidates(&p.plan, (*buf)[:0]); ok {
			*buf = cands // its room, for the next search
			if p.bt != nil {
				return t.backtrackAt(p, cands, limit)
			}
			return t.tryAt(p.plan.anchored, cands, limit)
		}
	}
	return t.Scan(p, limit)
}

// candidateBufs hold the slices searches list their candidates in: a
// search reads its candidates and drops them, and every step is searched
// for dozens of patterns.
var candidateBufs = sync.Pool{New: func() any { return new([]int) }}

// FindByRegexp2 is Find with regexp2 run at the candidates where the
// backtracker would be: what tests hold the backtracker to.
func (t *Text) FindByRegexp2(p *Pattern, limit int) []Match {
	if p.set == t.set && p.plan.anchored != nil && t.mayMatch(&p.plan) {
		if cands, ok := t.candidates(&p.plan, nil); ok {
			return t.tryAt(p.plan.anchored, cands, limit)
		}
	}
	return t.Find(p, limit)
}

// Scan lets regexp2 find up to limit matches of p from the text's start
// on, everywhere: what Find is held to.
func (t *Text) Scan(p *Pattern, limit int) []Match {
	var out []Match
	m, err := p.re.FindRunesMatch(t.runes)
	for err == nil && m != nil {
		out = append(out, t.convert(m))
		if len(out) == limit {
			break // not one scan more than asked for
		}
		m, err = p.re.FindNextMatch(m)
	}
	return out
}

// Lower returns the text in lower case and whether its byte offsets are
// the text's (FoldCase), made once.
func (t *Text) Lower() (string, bool) { return t.lowered() }

func (t *Text) lowered() (string, bool) {
	if !t.lowerDone {
		t.lowerDone = true
		t.lower, t.aligned = FoldCase(t.s)
	}
	return t.lower, t.aligned
}

// AppendLower appends strings.ToLower(s) to b, without making a string
// when s is ASCII: a caller that lowers many texts into one buffer holds
// only the buffer.
func AppendLower(b []byte, s string) []byte {
	if asciiPrefix(s) < len(s) {
		return append(b, strings.ToLower(s)...)
	}
	for i := range len(s) {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}

// FoldCase returns s in lower case, rune by rune as regexp2's IgnoreCase
// folds it (unicode.ToLower), and whether every rune kept its byte length,
// so that byte offsets in the lower case are offsets in s. A literal found
// in the lower case then tells where a case-insensitive pattern can match.
func FoldCase(s string) (lower string, aligned bool) {
	i := keptRun(s, 0)
	if i == len(s) {
		return s, true // nothing to fold: no copy
	}
	// A builder hands over what it wrote without the copy string(b) makes.
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	aligned = true
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			b.WriteByte(c + 'a' - 'A') // keptRun stopped at a capital
			i++
		} else {
			r, w := utf8.DecodeRuneInString(s[i:])
			if !foldKeepsLength(r, w) {
				aligned = false
			}
			b.WriteRune(unicode.ToLower(r))
			i += w
		}
		j := keptRun(s, i)
		b.WriteString(s[i:j])
		i = j
	}
	return b.String(), aligned
}

// Eight bytes at a time: Ones holds 1 in each byte of a word, so c*Ones
// is byte c in every byte, and HighBits is the high bit of each byte.
const (
	Ones     = 0x0101010101010101
	HighBits = 0x80 * Ones
)

// Load8 reads s[i:i+8] as a word, s[i] its lowest byte.
func Load8(s string, i int) uint64 {
	s = s[i : i+8] // one bounds check for the eight bytes, which are then one load
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// CapitalBits sets, in a word of bytes below 0x80, the high bit of each
// byte from 'A' to 'Z': such a byte plus 0x80-'A' reaches 0x80 from 'A'
// on, and plus 0x80-'Z'-1 from past 'Z' on, carrying into no other byte.
// Only its high bits mean anything.
func CapitalBits(w uint64) uint64 { return (w + (0x80-'A')*Ones) &^ (w + (0x80-'Z'-1)*Ones) }

// foldKeepsLength reports whether the rune r, read from w bytes, folds to
// a rune of as many bytes. An invalid byte reads as U+FFFD, three bytes
// for one.
func foldKeepsLength(r rune, w int) bool { return utf8.RuneLen(unicode.ToLower(r)) == w }

// FoldsInPlace reports whether FoldCase(s) is aligned, without making the
// lower case: a reader that only needs the offsets to hold asks this.
func FoldsInPlace(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if !foldKeepsLength(r, w) {
			return false
		}
		i += w
	}
	return true
}

// keptRun returns where the ASCII bytes from i that lower case keeps as
// they are end: at a capital, a byte beyond ASCII, or the end of s. It
// passes over eight bytes at a time while none of them ends the run.
func keptRun(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if w := Load8(s, i); (w|CapitalBits(w))&HighBits != 0 {
			break
		}
	}
	for i < len(s) && s[i] < utf8.RuneSelf && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	return i
}
