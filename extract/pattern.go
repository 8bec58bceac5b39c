package extract

import (
	"slices"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// maxMatches caps how many matches of one pattern are read in one step, so a
// pathological step (a page of OCR digits) cannot make extraction quadratic.
const maxMatches = 400

// pattern compiles a regexp2 expression once, at package initialisation,
// and plans how to search it (starts.go). This is the one place a pattern
// is written: where its matches can begin is read from the expression.
//
// No match has a time limit: a limit makes what is read depend on how
// busy the machine is. What bounds a match's cost is the pattern itself:
// repetitions are bounded, and a repetition inside another ends where
// the next part cannot begin, so a failed attempt backtracks a bounded
// number of ways (TestPatternsCannotBacktrackWithoutBound checks every
// pattern), over a text that run.Excerpt bounds.
func pattern(expr string, opts regexp2.RegexOptions) *regexp2.Regexp {
	re := regexp2.MustCompile(expr, opts)
	allPatterns = append(allPatterns, re)
	plans[re] = planFor(expr, opts)
	return re
}

// allPatterns lists every compiled pattern, for the tests that check them
// against hostile input.
var allPatterns []*regexp2.Regexp

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

	// Made on first use: s in lower case, whether its byte offsets are
	// those of s, where the starters' literals stand (starts.go), the
	// results of find, and more readings of the whole text.
	lower      string
	lowerDone  bool
	aligned    bool
	lits       [][]int
	found      map[*regexp2.Regexp]found // results of find
	proseText  *text                     // see prose
	blocks     []codeBlock               // see codeBlocks
	blocksDone bool
	needFound  []int8   // by need set: 1 found, -1 not, 0 not looked for (mayMatch)
	spare      *buffers // where the conversions were made, if reused (readText)
}

func newText(s string) *text { return readText(s, nil) }

// buffers hold a text's conversions for the next text to reuse. A step's
// text is the largest allocation extraction makes, and a run's steps are
// read one at a time, each text dropped when its step is read.
type buffers struct {
	runes []rune
	off   []int
	lits  [][]int
	// found is a text's cache of searches (text.found), emptied for the
	// next: a map made for every step and grown to the dozens of patterns
	// searched in it was about 6% of what a screen allocated.
	found map[*regexp2.Regexp]found
}

// readText is newText, but made in b's buffers when b is not nil: the
// text is then valid only until b is used again.
func readText(s string, b *buffers) *text {
	t := &text{s: s, spare: b}
	var runes []rune
	var off []int
	if b != nil {
		runes, off = b.runes, b.off
	}
	t.runes = reuse(runes, len(s))
	for _, r := range s {
		t.runes = append(t.runes, r)
	}
	if len(t.runes) == len(s) {
		t.off = identity(len(s) + 1) // ASCII: rune i is byte i
	} else {
		t.off = reuse(off, len(s)+1)
		for i := range s {
			t.off = append(t.off, i)
		}
		t.off = append(t.off, len(s))
	}
	if b != nil {
		b.runes = t.runes
		if len(t.runes) != len(s) {
			b.off = t.off // not the shared identity
		}
		if b.found == nil {
			b.found = map[*regexp2.Regexp]found{}
		}
		clear(b.found) // keeps its room
		t.found = b.found
	}
	return t
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
func (t *text) literalHits() [][]int {
	if t.spare == nil {
		return make([][]int, lexicon.starters)
	}
	b := t.spare
	if len(b.lits) != lexicon.starters {
		b.lits = make([][]int, lexicon.starters)
	}
	for i := range b.lits {
		b.lits[i] = b.lits[i][:0]
	}
	return b.lits
}

// runeIndices turns byte offsets at rune starts, ascending, into rune
// indices in place, by off (a text's off). Where each rune is a byte they
// are the same.
func runeIndices(bs, off []int) {
	if n := len(off) - 1; off[n] == n {
		return
	}
	r := 0
	for k, b := range bs {
		for off[r] < b {
			r++
		}
		bs[k] = r
	}
}

// sub returns the text of t.s[i:j], read on its own (as newText would
// read it), but sharing t's runes, and its lower case, when each rune of t
// is one byte: the head of a step and the words around a name are read
// apart from the step, and converting them again would cost more than
// reading them.
func (t *text) sub(i, j int) *text {
	if i == 0 && j == len(t.s) {
		return t
	}
	if len(t.runes) != len(t.s) {
		return newText(t.s[i:j])
	}
	u := &text{s: t.s[i:j], runes: t.runes[i:j:j], off: identity(j - i + 1)}
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
var identities atomic.Pointer[[]int]

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
	ms := t.search(re, limit)
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

// search tries re only where it can begin when that is known (starts.go),
// else lets regexp2 scan.
func (t *text) search(re *regexp2.Regexp, limit int) []match {
	p := plans[re]
	if !t.mayMatch(p) {
		return nil
	}
	if p.anchored != nil {
		if cands, ok := t.candidates(p); ok {
			return t.tryAt(p.anchored, cands, limit)
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

// Eight bytes at a time: ones holds 1 in each byte of a word, so c*ones
// is byte c in every byte, and highBits is the high bit of each byte.
const (
	ones     = 0x0101010101010101
	highBits = 0x80 * ones
)

// load8 reads s[i:i+8] as a word, s[i] its lowest byte.
func load8(s string, i int) uint64 {
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// capitalBits sets, in a word of bytes below 0x80, the high bit of each
// byte from 'A' to 'Z': such a byte plus 0x80-'A' reaches 0x80 from 'A'
// on, and plus 0x80-'Z'-1 from past 'Z' on, carrying into no other byte.
// Only its high bits mean anything.
func capitalBits(w uint64) uint64 { return (w + (0x80-'A')*ones) &^ (w + (0x80-'Z'-1)*ones) }

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
		if w := load8(s, i); (w|capitalBits(w))&highBits != 0 {
			break
		}
	}
	for i < len(s) && s[i] < utf8.RuneSelf && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	return i
}
