package match

import (
	"encoding/binary"
	"math/bits"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// Where a pattern's matches can begin, read from the pattern itself.
//
// regexp2 tries a pattern at every position of a text, at a cost even
// where nothing matches, while its matches begin at
// a few words, or at a line start a few words before them: places plain Go
// finds in one pass. startersOf reads them from the expression as
// regexp/syntax parses it (look-arounds dropped: a condition less only
// widens what matches), so a pattern is written once; tryAt tries it only
// there. The walk may find too many places, never too few: extract's
// TestStartsAreComplete and FuzzStarts, and redact's fuzz targets, hold
// Find to regexp2's own scan (Scan) for every pattern they compile.

// plan is how a pattern is searched.
type plan struct {
	starters []starter
	anchored *regexp2.Regexp // \G(?:pattern); nil: scan the text
	// notAfter holds the ASCII runes a match never begins just after,
	// read from a look-behind that every match begins with.
	notAfter *[utf8.RuneSelf]bool
	needs    []need // what every match holds near its start
}

// planFor reads p's plan from its expression, and adds its literals to
// the set's.
func (set *Set) planFor(p *Pattern) error {
	expr, opts := p.expr, p.opts
	ss, ok, err := startersOf(expr, opts)
	if err != nil {
		return err
	}
	needs, err := needsOf(expr, opts)
	if err != nil {
		return err
	}
	notAfter := notAfterOf(expr, opts)
	p.plan = plan{needs: needs}
	if !ok || slices.ContainsFunc(ss, func(s starter) bool { return everyWord(s.first, notAfter) }) {
		return nil
	}
	for i, s := range ss {
		ss[i].id = set.lexicon.starters
		set.lexicon.starters++
		if s.first != nil {
			id, ok := set.firstSets[*s.first]
			if !ok {
				id = len(set.firstSets)
				set.firstSets[*s.first] = id
				set.firstShared = append(set.firstShared, false)
			} else {
				set.firstShared[id] = true
			}
			ss[i].firstID = id
		}
		// A literal after \b, or a lead without word characters, stands at a word start.
		word := s.word || s.lead != nil && !slices.ContainsFunc([]byte(asciiWord), func(b byte) bool { return s.lead[b] })
		// So, where it is tried, does one that begins a match where a
		// look-behind rules out every word character before it.
		word = word || s.lead == nil && notAfter != nil && !slices.ContainsFunc([]byte(asciiWord), func(b byte) bool { return !notAfter[b] })
		if s.textStart {
			continue // read at the text's start alone (atTextStart), not looked for all through it
		}
		for _, l := range s.lits {
			if word && wordByte(l[0]) {
				set.lexicon.words.add(l, ss[i].id)
			} else {
				set.lexicon.others.add(l, ss[i].id)
			}
		}
	}
	anchored, err := regexp2.Compile(`\G(?:`+expr+`)`, opts.regexp2())
	if err != nil {
		return err
	}
	p.plan = plan{starters: ss, anchored: anchored, notAfter: notAfter, needs: needs}
	return nil
}

const asciiWord = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"

// A starter is one way a match can begin: at one of lits (after \b when
// word), or, with a lead, at a line start (or the "\n" before it, when
// newline; the text start counts as one) from which bytes of the lead
// reach one of lits (or anything, when lits is nil). With textStart the
// lead begins at the text's start alone (\A, or ^ outside multiline
// mode). Literals are in lower case; id numbers the starter.
type starter struct {
	lead      *lead
	newline   bool
	textStart bool
	lits      []string
	first     *lead // without lead or lits: the bytes a match begins with
	firstID   int   // numbers first in its set
	word      bool
	id        int
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
func startersOf(expr string, opts Options) (ss []starter, ok bool, err error) {
	re, err := Syntax(expr, opts, false)
	if err != nil {
		return nil, false, err
	}
	var w walker
	w.walk([]*syntax.Regexp{re}, starter{})
	return w.out, !w.any && w.paths <= maxPaths, nil
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
			s.lead, s.textStart = &lead{}, n.Op == syntax.OpBeginText
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
		case lits == nil && fresh && isClass(n):
			s.first = &lead{}
			s.first.add(classRanges(n))
			w.add(s)
			return
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
	if w.paths++; s.lead == nil && s.lits == nil && s.first == nil {
		w.any = true
		return
	}
	for i, o := range w.out {
		if (o.lead == nil) == (s.lead == nil) && (o.first == nil) == (s.first == nil) && o.newline == s.newline && o.textStart == s.textStart && o.word == s.word && (o.lits == nil) == (s.lits == nil) {
			for b := 0; s.lead != nil && b < len(s.lead); b++ {
				o.lead[b] = o.lead[b] || s.lead[b]
			}
			for b := 0; s.first != nil && b < len(s.first); b++ {
				o.first[b] = o.first[b] || s.first[b]
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
	if s.first != nil {
		f := *s.first
		s.first = &f
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
type lexicon struct {
	starters      int
	words, others literals
	// bytes holds, for each byte, its byteKind bits: the one look the
	// scan of a text (hits) takes at most of its bytes.
	bytes [256]uint8
}

// The bits of lexicon.bytes.
const (
	isWordByte   = 1 << iota // an ASCII word character
	beginsWord               // the first byte of a literal of words
	beginsOthers             // the first byte of a literal of others
)

// index sets bytes from the literals: after each pattern is added.
func (lx *lexicon) index() {
	for b := range lx.bytes {
		var k uint8
		if wordBytes[b] {
			k |= isWordByte
		}
		if lx.words.firsts[b] {
			k |= beginsWord
		}
		if lx.others.firsts[b] {
			k |= beginsOthers
		}
		lx.bytes[b] = k
	}
}

type literals struct {
	index   [1 << 16]uint16 // first two bytes → bucket; bucket 0 is empty
	buckets []bucket
	// a bit for each pair of first two bytes with a bucket: the index in
	// eight kilobytes, which stay in the nearest cache as a text is read
	pairs [1 << 16 / 64]uint64
	// firsts holds the first byte of each literal: most bytes of a text
	// begin none, and are passed by on a look at this alone.
	firsts [256]bool
}

// begins reports whether a literal of l begins with the two bytes of pair:
// most bytes of a text begin none, and are passed by on this one look.
func (l *literals) begins(pair uint16) bool { return l.pairs[pair/64]&(1<<(pair%64)) != 0 }

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
				l.buckets = []bucket{{}}
			}
			if l.index[key] == 0 {
				l.index[key] = uint16(len(l.buckets))
				l.buckets = append(l.buckets, bucket{})
				l.pairs[key/64] |= 1 << (key % 64)
				l.firsts[lit[0]] = true
			}
			mask := ^uint64(0) << (64 - 8*min(8, len(lit)))
			l.buckets[l.index[key]].add(literal{head8(lit), mask, lit, starter})
		}
	}
}

// A bucket holds the literals that begin with one pair of bytes. Many
// words begin alike ("th", "re"): a bucket of more than splitAt literals
// keeps those of three bytes or more by their third byte, so that a
// text's bytes are compared with the few literals that may stand there.
type bucket struct {
	lits  []literal       // all of them, or those shorter than three bytes once split
	third *[256][]literal // by their third byte, once split
}

const splitAt = 8

func (b *bucket) add(lit literal) {
	if b.third == nil && len(b.lits) < splitAt {
		b.lits = append(b.lits, lit)
		return
	}
	if b.third == nil {
		old := b.lits
		b.lits, b.third = nil, new([256][]literal)
		for _, o := range old {
			b.put(o)
		}
	}
	b.put(lit)
}

func (b *bucket) put(lit literal) {
	if len(lit.lit) < 3 {
		b.lits = append(b.lits, lit)
		return
	}
	b.third[lit.lit[2]] = append(b.third[lit.lit[2]], lit)
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
func (t *Text) hits() [][]int {
	if t.lits != nil {
		return t.lits
	}
	lower := t.lower
	lx := &t.set.lexicon
	prevWord := false // the byte before is a word byte: no word begins here
	for i := range len(lower) {
		c := lower[i]
		k := lx.bytes[c]
		atWord := !prevWord
		prevWord = k&isWordByte != 0
		if k&beginsOthers == 0 && (!atWord || k&beginsWord == 0) {
			continue
		}
		pair := uint16(c) << 8
		if i+1 < len(lower) {
			pair |= uint16(lower[i+1])
		}
		others := lx.others.begins(pair)
		words := atWord && lx.words.begins(pair)
		if !others && !words {
			continue
		}
		head := head8At(lower, i)
		if others {
			t.record(i, head, &t.set.lexicon.others)
		}
		if words {
			t.record(i, head, &t.set.lexicon.words)
		}
	}
	if t.lits == nil {
		t.lits = t.set.noHits() // no literal stands in t: no slices to make
	}
	return t.lits
}

// head8At is head8(s[i:]), in one load where eight bytes remain.
func head8At(s string, i int) uint64 {
	if i+8 <= len(s) {
		return bits.ReverseBytes64(Load8(s, i))
	}
	return head8(s[i:])
}

// record records the literals of l at byte i, where the text holds head.
func (t *Text) record(i int, head uint64, l *literals) {
	b := &l.buckets[l.index[head>>48]]
	t.recordIn(i, head, b.lits)
	if b.third != nil {
		t.recordIn(i, head, b.third[byte(head>>40)])
	}
}

// recordIn records those of lits that stand at byte i, where the text
// holds head.
func (t *Text) recordIn(i int, head uint64, lits []literal) {
	for k := range lits { // by index: a literal is compared where it is, not copied
		if lit := &lits[k]; head&lit.mask == lit.head && (len(lit.lit) <= 8 || strings.HasPrefix(t.lower[i:], lit.lit)) {
			if t.lits == nil {
				t.lits = t.literalHits()
			}
			t.lits[lit.starter] = append(t.lits[lit.starter], i) // in order; twice where two literals stand
		}
	}
}

// wordByte reports an ASCII word character: where one stands before a
// literal, \b cannot.
func wordByte(b byte) bool { return asciiAlnum(b) || b == '_' }

// candidates appends to at, in order, the rune positions where a match
// of p can begin; ok is false when they cannot be told (the lower case
// changes byte lengths, or p came after the text was read): scan.
func (t *Text) candidates(p *plan, at []int) (_ []int, ok bool) {
	lower, aligned := t.lowered()
	ss := p.starters
	if !aligned || len(ss) > 0 && ss[len(ss)-1].id >= len(t.hits()) {
		return nil, false
	}
	for k := range ss {
		s := &ss[k]
		from := len(at)
		switch {
		case s.first != nil && t.set.firstShared[s.firstID]:
			for _, i := range t.firstBytes(s) {
				// Not after a rune of the look-behind.
				if i == 0 || t.mayFollow(p, s, i) {
					at = append(at, i)
				}
			}
		case s.first != nil:
			at = t.firstIn(at, p, s)
		case s.lead == nil:
			at = append(at, t.lits[s.id]...)
		case s.textStart:
			if s.atTextStart(lower) {
				at = append(at, 0)
			}
		case s.lits == nil || len(t.lits[s.id]) > 0:
			at = t.lineStarts(at, lower, *s)
		}
		// Each starter's candidates come in order, and near keeps or
		// drops each by where it stands alone: a starter that may begin
		// at any word lists most of a text, and is thinned before it is
		// sorted with the others. A short list is left to the near below.
		if len(ss) > 1 && len(at)-from > thinFrom {
			at = at[:from+len(t.near(p, at[from:]))]
		}
	}
	if len(ss) > 1 {
		slices.Sort(at)
		at = slices.Compact(at)
	}
	at = t.near(p, at) // thins the short lists, and keeps every candidate thinned above
	runeIndices(at, t.off)
	return at, true
}

// firstIn appends the byte offsets where a match of p may begin by s's
// first bytes: at a rune's first byte of them, not after a rune of the
// look-behind. With a need of few bytes it reads only the places near
// keeps by that need: up to each of its bytes, within its reach and,
// with a via, along the run of via bytes that leads to it. Where the
// need's bytes are rare, that is a small part of the text.
func (t *Text) firstIn(at []int, p *plan, s *starter) []int {
	lower := t.lower
	nd := p.fewNeed()
	if nd == nil {
		return t.firstBetween(at, p, s, 0, len(lower))
	}
	reachBytes := 1 // as near reads a need's reach
	if len(t.runes) != len(t.s) {
		reachBytes = utf8.UTFMax
	}
	var room [maxFew]int
	nextAt := room[:len(nd.few)]
	for k := range nextAt {
		nextAt[k] = -1
	}
	for from := 0; from < len(lower); {
		q := nextOfFew(lower, from, nd.few, nextAt)
		if q >= len(lower) {
			break
		}
		// From from to q, q is the need's next byte: near keeps i when q
		// is within reach of it and, with a via, the bytes from i to q
		// are all of the via.
		lo := from
		if nd.reach >= 0 {
			lo = max(lo, q-nd.reach*reachBytes)
		}
		if nd.via != nil {
			j := q
			for j > lo && nd.via[lower[j-1]] {
				j--
			}
			lo = j
		}
		at = t.firstBetween(at, p, s, lo, q+1)
		from = q + 1
	}
	return at
}

// firstBetween appends the places from byte i to j where a match of p
// may begin by s's first bytes.
func (t *Text) firstBetween(at []int, p *plan, s *starter, i, j int) []int {
	lower, first := t.lower, s.first
	for ; i < j; i++ {
		// At a rune's first byte, and not after a rune of the look-behind.
		if c := lower[i]; first[c] && (c < utf8.RuneSelf || c >= 0xC0) && (i == 0 || t.mayFollow(p, s, i)) {
			at = append(at, i)
		}
	}
	return at
}

// fewNeed returns a need of p with few bytes, or nil.
func (p *plan) fewNeed() *need {
	for k := range p.needs {
		if p.needs[k].few != nil {
			return &p.needs[k]
		}
	}
	return nil
}

// thinFrom is how many candidates a starter lists before near thins
// them on their own (candidates), rather than once all are sorted: each
// pass of near reads the text on from its first candidate.
const thinFrom = 64

// firstBytes returns the byte offsets of the runes of the lower-case text
// that begin with a byte of s.first: found once for all the starters of
// the set that begin with the same bytes.
func (t *Text) firstBytes(s *starter) []int {
	if len(t.firsts) < len(t.set.firstSets) {
		t.firsts = append(t.firsts, make([][]int, len(t.set.firstSets)-len(t.firsts))...)
	}
	if at := t.firsts[s.firstID]; at != nil {
		return at
	}
	at := []int{}
	lower, first := t.lower, s.first // held apart from t, which append may change as far as the compiler knows
	for i := range len(lower) {
		if c := lower[i]; first[c] && (c < utf8.RuneSelf || c >= 0xC0) { // at a rune's first byte
			at = append(at, i)
		}
	}
	t.firsts[s.firstID] = at
	return at
}

// mayFollow reports whether a match of s may begin at byte i by the
// rune before it: not one of its look-behind, nor, after \b, a word
// rune before a word rune.
func (t *Text) mayFollow(p *plan, s *starter, i int) bool {
	prev := t.s[i-1]
	return prev >= utf8.RuneSelf || (p.notAfter == nil || !p.notAfter[prev]) && !(s.word && wordBytes[prev] && wordBytes[t.s[i]])
}

// wordBytes holds wordByte of each byte, for the loops that read every
// byte of a text.
var wordBytes = func() (out [256]bool) {
	for b := range out {
		out[b] = wordByte(byte(b))
	}
	return out
}()

// near keeps, of the byte offsets at (ascending), those where a match of
// p can begin by what stands around them: not just after a rune of its
// look-behind, and each of its needs within reach. Whether one is kept
// does not depend on the others; it filters at in place.
// Where each need's next rune stands, and where a run of its via bytes
// ends, are read forward from candidate to candidate: each byte once.
func (t *Text) near(p *plan, at []int) []int {
	reachBytes := 1 // bytes a rune takes at most
	if len(t.runes) != len(t.s) {
		reachBytes = utf8.UTFMax
	}
	lower := t.lower
	kept := at[:0]
	n := len(p.needs)
	var room [32]int // most patterns have a few needs: no allocation
	all := room[:0]
	if (2+maxFew)*n > len(room) {
		all = make([]int, 0, (2+maxFew)*n)
	}
	all = all[:(2+maxFew)*n]
	next := all[:n]         // where each need's next rune stands
	runEnds := all[n : 2*n] // where the last run of each need's via ended
	nextFew := all[2*n:]    // where each of a need's few bytes next stands
	for x := range next {
		next[x] = -1
	}
	for x := range nextFew {
		nextFew[x] = -1
	}
next:
	for _, i := range at {
		if p.notAfter != nil && i > 0 && t.s[i-1] < utf8.RuneSelf && p.notAfter[t.s[i-1]] {
			continue
		}
		for x, nd := range p.needs {
			if next[x] < i && nd.few != nil {
				next[x] = nextOfFew(lower, i, nd.few, nextFew[maxFew*x:maxFew*(x+1)])
			} else if next[x] < i {
				j := i
				for j < len(lower) && !(nd.set[lower[j]] && (lower[j] < utf8.RuneSelf || lower[j] >= 0xC0)) {
					j++
				}
				next[x] = j
			}
			end := len(lower) - 1
			if nd.reach >= 0 {
				end = i + nd.reach*reachBytes
			}
			if nd.via != nil && next[x] <= end {
				// The needed rune comes where the bytes of via end, or
				// before: they are read up to it, not on to their end. A
				// later candidate before it reads the same rune next.
				if runEnds[x] <= i {
					j := i
					for j < next[x] && nd.via[lower[j]] {
						j++
					}
					runEnds[x] = j
				}
				end = min(end, runEnds[x])
			}
			if next[x] >= len(lower) || next[x] > end {
				continue next
			}
		}
		kept = append(kept, i)
	}
	return kept
}

// nextOfFew returns where the first of few stands in lower from i on, or
// len(lower): at returns where each stood when last looked for (-1 when
// never), and is updated, so that a byte that is rare or absent is not
// looked for again from each candidate.
func nextOfFew(lower string, i int, few []byte, at []int) int {
	first := len(lower)
	for k, b := range few {
		if at[k] < i {
			if j := strings.IndexByte(lower[i:], b); j >= 0 {
				at[k] = i + j
			} else {
				at[k] = len(lower)
			}
		}
		first = min(first, at[k])
	}
	return first
}

// mayMatch reports whether p's needs stand anywhere in t: where one does
// not, p has no match.
func (t *Text) mayMatch(p *plan) bool {
	if _, aligned := t.lowered(); !aligned {
		return true
	}
	present := t.bytesPresent()
	for _, nd := range p.needs {
		if nd.bits[0]&present[0]|nd.bits[1]&present[1]|nd.bits[2]&present[2]|nd.bits[3]&present[3] == 0 {
			return false
		}
	}
	return true
}

// byteBits is a set of bytes, bit b%64 of word b/64 for byte b.
type byteBits [4]uint64

// byteSeen is a set of bytes, 1 for each byte in it and 0 for the others.
type byteSeen [256]byte

func bitsOf(l *lead) (out byteBits) {
	for b, in := range l {
		if in {
			out[b/64] |= 1 << (b % 64)
		}
	}
	return out
}

// bytesPresent returns the bytes the lower-case text holds, read once for
// every pattern's needs.
func (t *Text) bytesPresent() *byteBits {
	if t.presentDone {
		return &t.present
	}
	t.presentDone = true
	lower := t.lower
	if len(lower) < len(byteSeen{}) {
		for i := range len(lower) {
			c := lower[i]
			t.present[c/64] |= 1 << (c % 64)
		}
		return &t.present
	}
	// A long text marks each byte it holds in a table, a store with no
	// load before it, and the table is read into bits once.
	var seen byteSeen
	for i := range len(lower) {
		seen[lower[i]] = 1
	}
	t.present = seen.bits()
	return &t.present
}

// bits returns the set as bits, eight bytes of the table at a time: the
// product gathers the low bit of each of a word's bytes, the only one set,
// into its top byte, the first byte's as its lowest bit. No two of the
// product's terms share a bit, so none carries into another.
func (s *byteSeen) bits() (out byteBits) {
	for k := 0; k < len(s); k += 8 {
		w := binary.LittleEndian.Uint64(s[k:])
		out[k/64] |= (w * 0x0102040810204080 >> 56) << (k % 64)
	}
	return out
}

// lineStarts appends the byte offsets where s lets a match begin: the
// line starts (or the "\n" before them) from which bytes of the lead reach
// one of s's literals. A run of the lead that crosses lines is read once
// for all the lines it crosses.
func (t *Text) lineStarts(at []int, lower string, s starter) []int {
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

// atTextStart reports whether s, a starter at the text's start, lets a
// match begin there: whether the bytes of its lead from the start reach
// one of its literals, as lineStarts reads a line start. A literal the
// lexicon would hold at word starts alone needs no look at the byte
// before it: that is the text's start or a byte of the lead, and a lead
// that holds a word byte puts every literal among the others.
func (s *starter) atTextStart(lower string) bool {
	end := 0
	for end < len(lower) && s.lead[lower[end]] {
		end++
	}
	if s.lits == nil {
		return true
	}
	for j := range min(end+1, len(lower)) {
		for _, l := range s.lits {
			if strings.HasPrefix(lower[j:], l) {
				return true
			}
		}
	}
	return false
}

// tryAt runs the anchored pattern at each candidate in turn, skipping
// those inside the previous match, as regexp2's own scan would.
func (t *Text) tryAt(anchored *regexp2.Regexp, cands []int, limit int) []Match {
	var out []Match
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

// backtrackAt is tryAt with p's backtracker.
func (t *Text) backtrackAt(p *Pattern, cands []int, limit int) []Match {
	var out []Match
	var spans []Span // the matches' groups, allocated together
	m := p.bt.machine(t.runes)
	defer p.bt.release(m)
	next := 0
	for k, c := range cands {
		if c < next {
			continue
		}
		if !m.matchAt(p.bt, c) {
			if m.tooDeep {
				return t.tryAt(p.plan.anchored, cands, limit)
			}
			continue
		}
		n := len(m.caps)
		if len(spans)+n > cap(spans) {
			// Room for as many more matches as may come, up to 16.
			more := min(16, len(cands)-k)
			if limit > 0 {
				more = min(more, limit-len(out))
			}
			spans = make([]Span, 0, more*n)
		}
		gs := spans[len(spans) : len(spans)+n : len(spans)+n]
		spans = spans[:len(spans)+n]
		for i, g := range m.caps {
			if g.OK {
				gs[i] = Span{Start: t.off[g.Start], End: t.off[g.End], OK: true}
			}
		}
		out = append(out, Match{Groups: gs, Names: p.names})
		if len(out) == limit {
			break
		}
		next = max(m.caps[0].End, c+1)
	}
	return out
}

// everyWord reports whether a match can begin at a letter inside a word
// by first and notAfter: then regexp2's own scan, which passes over the
// places it cannot begin faster than it is tried at each, is used.
func everyWord(first *lead, notAfter *[utf8.RuneSelf]bool) bool {
	if first == nil {
		return false
	}
	for b := byte('a'); b <= 'z'; b++ {
		if first[b] && (notAfter == nil || !notAfter[b]) {
			return true
		}
	}
	return false
}

func isClass(n *syntax.Regexp) bool {
	return n.Op == syntax.OpCharClass || n.Op == syntax.OpAnyChar || n.Op == syntax.OpAnyCharNotNL
}

// classRanges is the runes of a class as lo-hi pairs.
func classRanges(n *syntax.Regexp) []rune {
	if n.Op == syntax.OpCharClass {
		return n.Rune
	}
	return []rune{0, unicode.MaxRune}
}

// A need is a set of bytes, as the lower-case text shows them (a class
// with a byte beyond ASCII holds every such byte), one of which every
// match of a pattern holds at most reach runes after its start, where
// a rune of the set begins, after bytes of via only.
type need struct {
	set   *lead
	reach int
	via   *lead    // when not nil, every byte before the rune is one of these
	bits  byteBits // set, as bits
	// few holds the bytes of set when they are at most maxFew bytes of
	// ASCII: a search for the next of them then goes by
	// strings.IndexByte, which reads many bytes at a time.
	few []byte
}

const maxFew = 3

// fewBytes returns the bytes of l when they are at most maxFew, all
// ASCII; nil otherwise.
func fewBytes(l *lead) []byte {
	var out []byte
	for b, in := range l {
		if in && (b >= utf8.RuneSelf || len(out) == maxFew) {
			return nil
		}
		if in {
			out = append(out, byte(b))
		}
	}
	return out
}

// needsOf reads what every match of expr holds near its start, from the
// expression as regexp/syntax parses it with its counts (look-arounds
// dropped: they hold nothing a match consumes). A back-reference's
// length is unknown, so an expression with one needs nothing.
func needsOf(expr string, opts Options) ([]need, error) {
	if backrefs.MatchString(expr) {
		return nil, nil
	}
	re, err := Syntax(expr, opts, true)
	if err != nil {
		return nil, err
	}
	ns := slices.DeleteFunc(needed(re), func(nd need) bool { return nd.reach == 0 && nd.via != nil && nd.via.width() == 0 })
	for i := range ns {
		ns[i].bits = bitsOf(ns[i].set)
		ns[i].few = fewBytes(ns[i].set)
	}
	return ns, nil
}

var backrefs = regexp.MustCompile(`\\(?:k<|k'|[1-9])`)

// needed returns the needs of n: of each part a match of it must read, in
// turn, how far from its start the part can begin (reach, -1 unbounded)
// and what it can read before (via). A set is kept only when it is
// narrow, without letters or blanks: such bytes are rare enough in a text
// to tell where a match cannot be.
func needed(n *syntax.Regexp) []need {
	switch n.Op {
	case syntax.OpLiteral:
		for i, r := range n.Rune {
			if set, ok := narrow([]rune{r, r}); ok {
				before := *n
				before.Rune = n.Rune[:i]
				return []need{{set: set, reach: i, via: consumedSet(&before)}}
			}
		}
	case syntax.OpCharClass:
		if set, ok := narrow(n.Rune); ok {
			return []need{{set: set, via: &lead{}}}
		}
	case syntax.OpCapture, syntax.OpPlus:
		return needed(n.Sub[0])
	case syntax.OpRepeat:
		if n.Min >= 1 {
			return needed(n.Sub[0])
		}
	case syntax.OpConcat:
		var out []need
		width, via := 0, &lead{}
		for _, sub := range n.Sub {
			for _, nd := range needed(sub) {
				nd.via = joinVia(via, nd.via)
				if width < 0 || nd.reach < 0 {
					nd.reach = -1
				} else {
					nd.reach += width
				}
				if nd.reach >= 0 || nd.via != nil {
					out = append(out, nd)
				}
			}
			if w := maxWidth(sub); w < 0 || width < 0 {
				width = -1
			} else {
				width += w
			}
			via = joinVia(via, consumedSet(sub))
		}
		return out
	case syntax.OpAlternate:
		u := need{set: &lead{}, via: &lead{}}
		for _, alt := range n.Sub {
			ns := needed(alt)
			if len(ns) == 0 {
				return nil
			}
			// Of each branch, its narrowest need, the first of equals.
			best := ns[0]
			for _, nd := range ns[1:] {
				if nd.set.width() < best.set.width() {
					best = nd
				}
			}
			for b, in := range best.set {
				u.set[b] = u.set[b] || in
			}
			if u.reach < 0 || best.reach < 0 {
				u.reach = -1
			} else {
				u.reach = max(u.reach, best.reach)
			}
			u.via = joinVia(u.via, best.via)
		}
		if u.reach < 0 && u.via == nil {
			return nil
		}
		return []need{u}
	}
	return nil
}

// joinVia returns the bytes of a and b; nil, any byte, when either is nil.
func joinVia(a, b *lead) *lead {
	if a == nil || b == nil {
		return nil
	}
	out := *a
	for i, in := range b {
		out[i] = out[i] || in
	}
	return &out
}

// consumedSet is the bytes, as the lower-case text shows them, of every
// rune a match of n can read.
func consumedSet(n *syntax.Regexp) *lead {
	var set lead
	var walk func(n *syntax.Regexp)
	walk = func(n *syntax.Regexp) {
		switch n.Op {
		case syntax.OpLiteral:
			for _, r := range n.Rune {
				set.add([]rune{r, r})
				if n.Flags&syntax.FoldCase != 0 {
					set.add([]rune{unicode.ToUpper(r), unicode.ToUpper(r)})
				}
			}
		case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			set.add(classRanges(n))
		}
		for _, sub := range n.Sub {
			walk(sub)
		}
	}
	walk(n)
	return &set
}

// narrow returns the set of the runes of ranges, and whether it is
// narrow: no blank, and at most three letters, none with a rune beyond
// ASCII. Go's \d, \s and \w are ASCII where regexp2's are Unicode: a
// class with every digit may be \d and takes in every byte beyond ASCII;
// one with a blank or more letters may be \s or \w, and is not narrow.
func narrow(ranges []rune) (*lead, bool) {
	var set lead
	high := false
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := ranges[i]; r <= min(ranges[i+1], utf8.RuneSelf-1); r++ {
			if unicode.IsSpace(r) {
				return nil, false
			}
			set[unicode.ToLower(r)] = true
		}
		high = high || ranges[i+1] >= utf8.RuneSelf
	}
	letters, digits := 0, 0
	for b := range utf8.RuneSelf {
		if set[b] && unicode.IsLetter(rune(b)) {
			letters++
		}
		if set[b] && unicode.IsDigit(rune(b)) {
			digits++
		}
	}
	high = high || digits == 10
	if letters > 3 || high && letters > 0 {
		return nil, false
	}
	for b := utf8.RuneSelf; high && b < len(set); b++ {
		set[b] = true
	}
	return &set, true
}

// width is how many bytes of a set stand for, to choose the narrowest.
func (l *lead) width() int {
	n := 0
	for b, in := range l {
		if in {
			n++
		}
		if in && b >= utf8.RuneSelf {
			n += 4 // a byte beyond ASCII stands for every rune beyond it
		}
	}
	return n
}

// maxWidth is the most runes a match of n reads; -1 when unbounded.
func maxWidth(n *syntax.Regexp) int {
	switch n.Op {
	case syntax.OpLiteral:
		return len(n.Rune)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpStar, syntax.OpPlus:
		return -1
	case syntax.OpCapture, syntax.OpQuest:
		return maxWidth(n.Sub[0])
	case syntax.OpRepeat:
		w := maxWidth(n.Sub[0])
		if n.Max < 0 || w < 0 {
			return -1
		}
		return n.Max * w
	case syntax.OpConcat, syntax.OpAlternate:
		total := 0
		for _, sub := range n.Sub {
			w := maxWidth(sub)
			if w < 0 {
				return -1
			}
			if n.Op == syntax.OpConcat {
				total += w
			} else {
				total = max(total, w)
			}
		}
		return total
	}
	return 0 // empty matches, anchors, word boundaries
}

// notAfterOf reads the ASCII runes a match of expr cannot begin just
// after: each of its branches begins with a negative look-behind, one of
// whose alternatives is one class, (?<!X) or (?<!X|...). Within ASCII, Go reads every class as regexp2 does but
// for \s, which lacks the vertical tab: a class read by Go then holds only
// runes that regexp2's holds, unless it is \S or a negated class with \s
// in it, which are not read.
func notAfterOf(expr string, opts Options) *[utf8.RuneSelf]bool {
	var out *[utf8.RuneSelf]bool
	for _, branch := range topBranches(expr) {
		x, ok := strings.CutPrefix(branch, "(?<!")
		end := groupEnd(x)
		if !ok || end < 0 {
			return nil
		}
		// (?<!X|Y) fails after a rune of X as after one of Y: each
		// alternative of one class rules its runes out.
		var set [utf8.RuneSelf]bool
		for _, alt := range topBranches(x[:end]) {
			if strings.Contains(alt, `\S`) || strings.Contains(alt, "[^") && strings.Contains(alt, `\s`) {
				continue
			}
			class, err := Syntax(alt, opts, true)
			if err != nil || class.Op != syntax.OpCharClass && (class.Op != syntax.OpLiteral || len(class.Rune) != 1) {
				continue
			}
			for b := range utf8.RuneSelf {
				set[b] = set[b] || runeIn(class, rune(b))
			}
		}
		for b := range utf8.RuneSelf {
			set[b] = set[b] && (out == nil || out[b])
		}
		out = &set
	}
	if out != nil && *out == ([utf8.RuneSelf]bool{}) {
		return nil
	}
	return out
}

func runeIn(n *syntax.Regexp, r rune) bool {
	if n.Op == syntax.OpLiteral {
		return r == n.Rune[0] || n.Flags&syntax.FoldCase != 0 && unicode.ToLower(r) == unicode.ToLower(n.Rune[0])
	}
	for i := 0; i+1 < len(n.Rune); i += 2 {
		if n.Rune[i] <= r && r <= n.Rune[i+1] {
			return true
		}
	}
	return false
}

// topBranches splits expr at its top-level bars.
func topBranches(expr string) []string {
	var out []string
	from := 0
	eachOutside(expr, func(i, depth int) bool {
		if expr[i] == '|' && depth == 0 {
			out = append(out, expr[from:i])
			from = i + 1
		}
		return true
	})
	return append(out, expr[from:])
}

// groupEnd returns the index in s of the ")" that closes a group opened
// just before s, or -1.
func groupEnd(s string) int {
	end := -1
	eachOutside(s, func(i, depth int) bool {
		if s[i] == ')' && depth < 0 {
			end = i
			return false
		}
		return true
	})
	return end
}

// eachOutside calls yield with the index of each byte of expr outside
// escapes and classes, and the depth of groups there (after a ")"), until
// yield returns false.
func eachOutside(expr string, yield func(i, depth int) bool) {
	depth, inClass := 0, false
	for i := 0; i < len(expr); i++ {
		switch c := expr[i]; {
		case c == '\\':
			i++
			continue
		case inClass:
			inClass = c != ']'
			continue
		case c == '[':
			inClass = true
			if strings.HasPrefix(expr[i+1:], "]") || strings.HasPrefix(expr[i+1:], "^]") {
				i += strings.Index(expr[i:], "]") // a ] first in a class is one of its runes
			}
			continue
		case c == '(':
			depth++
		case c == ')':
			depth--
		}
		if !yield(i, depth) {
			return
		}
	}
}

func asciiAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}
