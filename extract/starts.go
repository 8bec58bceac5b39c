package extract

import (
	"fmt"
	"math/bits"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"

	"github.com/dlclark/regexp2"

	matching "github.com/offattr/offattr/internal/match"
)

// Where a pattern's matches can begin, read from the pattern itself.
//
// regexp2 tries a pattern at every position of a text, a third of a
// microsecond each even where nothing matches, while its matches begin at
// a few words, or at a line start a few words before them: places plain Go
// finds in one pass. startersOf reads them from the expression as
// regexp/syntax parses it (look-arounds dropped: a condition less only
// widens what matches), so a pattern is written once; tryAt tries it only
// there. The walk may find too many places, never too few:
// TestStartsAreComplete and FuzzStarts hold it to regexp2's own scan.

// plan is how a pattern is searched.
type plan struct {
	opts     regexp2.RegexOptions
	starters []starter
	anchored *regexp2.Regexp // \G(?:pattern); nil: scan the text
}

var plans = map[*regexp2.Regexp]*plan{} // the plan of every pattern

func planFor(expr string, opts regexp2.RegexOptions) *plan {
	ss, ok := startersOf(expr, opts)
	if !ok {
		return &plan{opts: opts}
	}
	for i, s := range ss {
		ss[i].id = lexicon.starters
		lexicon.starters++
		// A literal after \b, or a lead without word characters, stands at a word start.
		word := s.word || s.lead != nil && !slices.ContainsFunc([]byte(asciiWord), func(b byte) bool { return s.lead[b] })
		for _, l := range s.lits {
			if word && wordByte(l[0]) {
				lexicon.words.add(l, ss[i].id)
			} else {
				lexicon.others.add(l, ss[i].id)
			}
		}
	}
	anchored := regexp2.MustCompile(`\G(?:`+expr+`)`, opts)
	return &plan{opts: opts, starters: ss, anchored: anchored}
}

// A starter is one way a match can begin: at one of lits (after \b when
// word), or, with a lead, at a line start (or the "\n" before it, when
// newline; the text start counts as one) from which bytes of the lead
// reach one of lits (or anything, when lits is nil). Literals are in lower
// case; id numbers the starter.
type starter struct {
	lead    *lead
	newline bool
	lits    []string
	word    bool
	id      int
}

// A lead is the bytes that may come before a line start's literal, as the
// lower-case text shows them; all bytes beyond ASCII or none.
type lead [256]bool

// add puts the runes of a class (lo-hi pairs) in l. Go's \s, \w and \d
// are ASCII where regexp2's are Unicode, so a class with a space, a letter
// or a digit takes in every space and every rune beyond ASCII.
func (l *lead) add(ranges []rune) {
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := ranges[i]; r <= min(ranges[i+1], 127); r++ {
			l[unicode.ToLower(r)] = true
			l[' '] = l[' '] || unicode.IsSpace(r)
			l[128] = l[128] || unicode.IsSpace(r) || asciiAlnum(byte(r))
		}
		l[128] = l[128] || ranges[i+1] > 127
	}
	for b := range l {
		l[b] = l[b] || b > 128 && l[128] || b < 128 && l[' '] && unicode.IsSpace(rune(b))
	}
}

// startersOf returns the ways a match of expr can begin; ok is false when
// a match can begin anywhere: the pattern is then scanned.
func startersOf(expr string, opts regexp2.RegexOptions) (ss []starter, ok bool) {
	re, err := matching.Syntax(expr, opts, false)
	if err != nil {
		panic(fmt.Sprintf("extract: %q: %v", expr, err))
	}
	var w walker
	w.walk([]*syntax.Regexp{re}, starter{})
	return w.out, !w.any && w.paths <= maxPaths
}

const maxPaths = 4096 // a pattern with more branches is scanned

type walker struct {
	out   []starter
	paths int // walked to their end
	any   bool
}

// walk reads the sequence ns from where s stands: every branch of an
// alternation and of an optional part is walked on its own. A nil in ns
// ends the literals there, and so does a literal eight bytes long: rare
// enough in a text.
func (w *walker) walk(ns []*syntax.Regexp, s starter) {
	if len(ns) == 0 || ns[0] == nil || w.paths > maxPaths || slices.ContainsFunc(s.lits, func(l string) bool { return len(l) >= 8 }) {
		w.add(s)
		return
	}
	n, rest := ns[0], ns[1:]
	fresh := s.lead == nil && s.lits == nil
	if s.lead != nil && s.lits == nil && toLead(s.lead, n) {
		w.walk(rest, s)
		return
	}
	switch n.Op {
	case syntax.OpWordBoundary:
		s.word = s.word || fresh
		w.walk(rest, s)
	case syntax.OpBeginLine, syntax.OpBeginText:
		if fresh && !s.word {
			s.lead = &lead{}
		}
		w.walk(rest, s)
	case syntax.OpCapture, syntax.OpConcat:
		w.walk(append(slices.Clip(n.Sub), rest...), s)
	case syntax.OpAlternate:
		for _, alt := range n.Sub {
			w.walk(append([]*syntax.Regexp{alt}, rest...), s)
		}
	case syntax.OpQuest, syntax.OpStar, syntax.OpPlus, syntax.OpRepeat:
		if maybeEmpty(n) {
			w.walk(rest, s)
		}
		after := []*syntax.Regexp{nil} // after one repetition, more may follow
		if n.Op == syntax.OpQuest {
			after = rest
		}
		w.walk(append([]*syntax.Regexp{n.Sub[0]}, after...), s)
	default:
		lits := classLiterals(n)
		if fresh && !s.word && n.Op == syntax.OpLiteral && n.Rune[0] == '\n' {
			s.lead, s.newline, lits = &lead{}, true, []string{lits[0][1:]}
		}
		switch {
		case lits == nil:
			w.add(s)
			return
		case lits[0] != "": // not a "\n" alone
			s.lits = cross(s.lits, lits)
		}
		w.walk(rest, s)
	}
}

func maybeEmpty(n *syntax.Regexp) bool {
	return n.Op == syntax.OpQuest || n.Op == syntax.OpStar || n.Op == syntax.OpRepeat && n.Min == 0
}

// toLead adds n to the lead of a line start, when n reads runes of one
// class only and need not be read as literals: it may be empty, or reads
// runes the lead already holds, or too many runes to be literals. The
// lead may then pass over more than n can: more places, none fewer.
func toLead(l *lead, n *syntax.Regexp) bool {
	must := !maybeEmpty(n)
	if n.Op == syntax.OpQuest || n.Op == syntax.OpStar || n.Op == syntax.OpPlus || n.Op == syntax.OpRepeat {
		n = n.Sub[0]
	}
	ranges := n.Rune
	switch {
	case n.Op == syntax.OpLiteral && len(n.Rune) == 1:
		ranges = []rune{n.Rune[0], n.Rune[0]}
	case n.Op == syntax.OpAnyChar || n.Op == syntax.OpAnyCharNotNL:
		ranges = []rune{0, unicode.MaxRune}
	case n.Op != syntax.OpCharClass:
		return false
	}
	if lits := classLiterals(n); must && slices.ContainsFunc(lits, func(s string) bool { return !l[s[0]] }) {
		return false
	}
	l.add(ranges)
	return true
}

// add records s, or joins it to a starter that begins alike: one search
// serves both.
func (w *walker) add(s starter) {
	if w.paths++; s.lead == nil && s.lits == nil {
		w.any = true
		return
	}
	for i, o := range w.out {
		if (o.lead == nil) == (s.lead == nil) && o.newline == s.newline && o.word == s.word && (o.lits == nil) == (s.lits == nil) {
			for b := 0; s.lead != nil && b < len(s.lead); b++ {
				o.lead[b] = o.lead[b] || s.lead[b]
			}
			w.out[i].lits = append(o.lits, s.lits...)
			slices.Sort(w.out[i].lits)
			w.out[i].lits = slices.Compact(w.out[i].lits)
			return
		}
	}
	if s.lead != nil {
		l := *s.lead // the branches of the walk share the lead they began with
		s.lead = &l
	}
	w.out = append(w.out, s)
}

// classLiterals returns, in lower case, a literal, or the runes of a
// small class. A class with a space may be Go's \s, which regexp2 reads
// as more runes: it is not read as literals.
func classLiterals(n *syntax.Regexp) []string {
	if n.Op == syntax.OpLiteral {
		return []string{strings.ToLower(string(n.Rune))}
	}
	var out []string
	for i := 0; n.Op == syntax.OpCharClass && i+1 < len(n.Rune); i += 2 {
		for r := n.Rune[i]; r <= n.Rune[i+1]; r++ {
			if out = append(out, string(unicode.ToLower(r))); len(out) > 8 || unicode.IsSpace(r) {
				return nil
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// cross returns every a followed by every b; as nil reads as "".
func cross(as, bs []string) []string {
	if as == nil {
		as = []string{""}
	}
	var out []string
	for _, a := range as {
		for _, b := range bs {
			out = append(out, a+b)
		}
	}
	return out
}

// lexicon holds every starter's literals, those that stand only at a
// word start and the others, by their first two bytes, so that one pass
// over a text finds where all of them stand.
var lexicon struct {
	starters      int
	words, others literals
}

type literals struct {
	index   [1 << 16]uint16 // first two bytes → bucket; bucket 0 is empty
	buckets [][]literal
}

// begins reports whether a literal of l begins with the two bytes of pair:
// most bytes of a text begin none, and are passed by on this one look.
func (l *literals) begins(pair uint16) bool { return l.index[pair] != 0 }

// literal is a literal of a starter, with its first eight bytes (those
// past its end masked out) to tell the literals of a bucket apart.
type literal struct {
	head, mask uint64
	lit        string
	starter    int
}

func (l *literals) add(lit string, starter int) {
	for b := range 256 { // a one-byte literal stands before any byte
		if key := uint16(lit[0])<<8 | uint16(b); len(lit) == 1 || byte(b) == lit[1] {
			if l.buckets == nil {
				l.buckets = [][]literal{nil}
			}
			if l.index[key] == 0 {
				l.index[key] = uint16(len(l.buckets))
				l.buckets = append(l.buckets, nil)
			}
			mask := ^uint64(0) << (64 - 8*min(8, len(lit)))
			l.buckets[l.index[key]] = append(l.buckets[l.index[key]], literal{head8(lit), mask, lit, starter})
		}
	}
}

// head8 packs the first eight bytes of s, zeros past its end.
func head8(s string) (h uint64) {
	for i := range min(8, len(s)) {
		h |= uint64(s[i]) << (56 - 8*i)
	}
	return h
}

// hits returns, by starter, the byte offsets where its literals stand in
// the lower-case text, found once for all starters.
func (t *text) hits() [][]int {
	if t.lits != nil {
		return t.lits
	}
	t.lits = t.literalHits()
	lower := t.lower
	for i := range len(lower) {
		pair := uint16(lower[i]) << 8
		if i+1 < len(lower) {
			pair |= uint16(lower[i+1])
		}
		others := lexicon.others.begins(pair)
		words := (i == 0 || !wordByte(lower[i-1])) && lexicon.words.begins(pair)
		if !others && !words {
			continue
		}
		head := head8At(lower, i)
		if others {
			t.record(i, head, &lexicon.others)
		}
		if words {
			t.record(i, head, &lexicon.words)
		}
	}
	return t.lits
}

// head8At is head8(s[i:]), in one load where eight bytes remain.
func head8At(s string, i int) uint64 {
	if i+8 <= len(s) {
		return bits.ReverseBytes64(load8(s, i))
	}
	return head8(s[i:])
}

// record records the literals of l at byte i, where the text holds head.
func (t *text) record(i int, head uint64, l *literals) {
	bucket := l.buckets[l.index[head>>48]]
	for k := range bucket { // by index: a literal is compared where it is, not copied
		if lit := &bucket[k]; head&lit.mask == lit.head && (len(lit.lit) <= 8 || strings.HasPrefix(t.lower[i:], lit.lit)) {
			t.lits[lit.starter] = append(t.lits[lit.starter], i) // in order; twice where two literals stand
		}
	}
}

// wordByte reports an ASCII word character: where one stands before a
// literal, \b cannot.
func wordByte(b byte) bool { return asciiAlnum(b) || b == '_' }

// candidates returns, in order, the rune positions where a match of one
// of ss can begin; ok is false when they cannot be told (the lower case
// changes byte lengths, or ss came after the text was read): scan.
func (t *text) candidates(ss []starter) (at []int, ok bool) {
	lower, aligned := t.lowered()
	if !aligned || len(ss) > 0 && ss[len(ss)-1].id >= len(t.hits()) {
		return nil, false
	}
	for _, s := range ss {
		if s.lead == nil {
			at = append(at, t.lits[s.id]...)
		} else if s.lits == nil || len(t.lits[s.id]) > 0 {
			at = t.lineStarts(at, lower, s)
		}
	}
	slices.Sort(at)
	at = slices.Compact(at)
	runeIndices(at, t.off)
	return at, true
}

// lineStarts appends the byte offsets where s lets a match begin: the
// line starts (or the "\n" before them) from which bytes of the lead reach
// one of s's literals. A run of the lead that crosses lines is read once
// for all the lines it crosses.
func (t *text) lineStarts(at []int, lower string, s starter) []int {
	hits := t.lits[s.id]
	runEnd, lastHit := -1, -1 // of the run read last: where it ends, its last literal
	for i, more := 0, true; more; {
		if i > runEnd {
			for runEnd = i; runEnd < len(lower) && s.lead[lower[runEnd]]; runEnd++ {
			}
			k, found := slices.BinarySearch(hits, runEnd)
			if lastHit = runEnd; s.lits != nil && !found {
				lastHit = -1
				if k > 0 {
					lastHit = hits[k-1]
				}
			}
		}
		if lastHit >= i && s.newline && i > 0 {
			at = append(at, i-1)
		} else if lastHit >= i && !s.newline {
			at = append(at, i)
		}
		n := strings.IndexByte(lower[i:], '\n')
		i, more = i+n+1, n >= 0
	}
	return at
}

// tryAt runs the anchored pattern at each candidate in turn, skipping
// those inside the previous match, as regexp2's own scan would.
func (t *text) tryAt(anchored *regexp2.Regexp, cands []int, limit int) []match {
	var out []match
	next := 0
	for _, c := range cands {
		if c < next {
			continue
		}
		rm, err := anchored.FindRunesMatchStartingAt(t.runes, c)
		if err != nil {
			break
		}
		if rm == nil {
			continue
		}
		out = append(out, t.convert(rm))
		if len(out) == limit {
			break
		}
		next = max(rm.Index+rm.Length, c+1)
	}
	return out
}
