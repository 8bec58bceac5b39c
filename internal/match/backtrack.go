package match

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
	r2syntax "github.com/dlclark/regexp2/syntax"
)

// A backtracker runs a pattern at one position as regexp2 runs it there:
// the same order of choices (alternatives left to right, greedy and lazy
// repetitions, atomic groups, look-arounds), the same groups. It is
// compiled from the expression, not written for any one pattern: its own
// parser reads the structure (groups, alternatives, repetitions, anchors),
// and regexp2's parser reads every one-rune part (a literal, an escape, a
// class, the dot) with the options in force there, so that which runes a
// part matches, and how case is folded, is regexp2's own answer. It
// spares regexp2's setup and its program's interpretation at each
// candidate; it is used where it reads every part of a pattern, and a
// pattern with a part it does not read (a back-reference, a conditional,
// a group inside a look-around) is run by regexp2. TestBacktrackerAgrees,
// FuzzBacktracker and extract's corpus tests hold it to regexp2.

// errUnsupported marks a pattern the backtracker does not read.
var errUnsupported = errors.New("not read by the backtracker")

func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errUnsupported}, args...)...)
}

// runeSet is one rune as regexp2 compiles it: a rune, any rune but one,
// or a class, compared with the text's rune lower-cased when case is
// ignored. Runes below 128 are looked up in a table made from the same
// test.
type runeSet struct {
	ascii [utf8.RuneSelf]bool
	op    r2syntax.InstOp
	ch    rune
	class *r2syntax.CharSet
	fold  bool
}

func (s *runeSet) has(r rune) bool {
	if r < utf8.RuneSelf {
		return s.ascii[r]
	}
	return s.slowHas(r)
}

func (s *runeSet) slowHas(r rune) bool {
	if s.fold {
		r = unicode.ToLower(r)
	}
	switch s.op {
	case r2syntax.One:
		return r == s.ch
	case r2syntax.Notone:
		return r != s.ch
	}
	return s.class.CharIn(r)
}

// assertion is a test of where a match stands that reads no rune.
type assertion uint8

const (
	atLineStart    assertion = iota // ^ with Multiline
	atLineEnd                       // $ with Multiline
	atTextStart                     // ^, \A
	atTextEnd                       // \z
	atEndOrNewline                  // $, \Z: the end, or a newline that ends the text
	atBoundary                      // \b
	atNonBoundary                   // \B
)

func (a assertion) holds(in []rune, i int) bool {
	switch a {
	case atLineStart:
		return i == 0 || in[i-1] == '\n'
	case atLineEnd:
		return i == len(in) || in[i] == '\n'
	case atTextStart:
		return i == 0
	case atTextEnd:
		return i == len(in)
	case atEndOrNewline:
		return i == len(in) || i == len(in)-1 && in[i] == '\n'
	}
	b := (i > 0 && wordRune(in[i-1])) != (i < len(in) && wordRune(in[i]))
	return b == (a == atBoundary)
}

// wordRune is regexp2's word character for \b.
func wordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return wordByte(byte(r))
	}
	return r2syntax.IsWordChar(r)
}

// The parsed expression.

type astKind uint8

const (
	aEmpty astKind = iota
	aRune
	aConcat
	aAlt
	aCapture
	aRepeat
	aLook
	aAtomic
	aAssert
)

type ast struct {
	kind     astKind
	set      *runeSet
	subs     []*ast
	name     string // a capture's name; "" unnamed
	min, max int    // a repetition's counts, max < 0 unbounded
	lazy     bool
	neg      bool // a negative look-around
	behind   bool // a look-behind
	assert   assertion
}

type parser struct {
	expr     string
	pos      int
	opts     Options
	sets     map[string]*runeSet // by options and text
	unnamed  int
	captures []*ast
}

// parseExpr reads expr with opts into a tree of parts.
func parseExpr(expr string, opts Options) (*ast, *parser, error) {
	p := &parser{expr: expr, opts: opts, sets: map[string]*runeSet{}}
	a, err := p.alternation()
	if err != nil {
		return nil, nil, err
	}
	if p.pos < len(expr) {
		return nil, nil, unsupported("unbalanced ) at %d", p.pos)
	}
	return a, p, nil
}

func (p *parser) peek() byte {
	if p.pos < len(p.expr) {
		return p.expr[p.pos]
	}
	return 0
}

// alternation reads branches up to a ")" or the end; options set inline
// hold to the end of the group they are set in.
func (p *parser) alternation() (*ast, error) {
	saved := p.opts
	defer func() { p.opts = saved }()
	var branches []*ast
	for {
		c, err := p.concat()
		if err != nil {
			return nil, err
		}
		branches = append(branches, c)
		if p.peek() != '|' {
			break
		}
		p.pos++
	}
	if len(branches) == 1 {
		return branches[0], nil
	}
	return &ast{kind: aAlt, subs: branches}, nil
}

func (p *parser) concat() (*ast, error) {
	var parts []*ast
	for p.pos < len(p.expr) && p.peek() != '|' && p.peek() != ')' {
		a, err := p.atom()
		if err != nil {
			return nil, err
		}
		if a == nil { // an inline option
			continue
		}
		if a, err = p.quantified(a); err != nil {
			return nil, err
		}
		parts = append(parts, a)
	}
	switch len(parts) {
	case 0:
		return &ast{kind: aEmpty}, nil
	case 1:
		return parts[0], nil
	}
	return &ast{kind: aConcat, subs: parts}, nil
}

// quantified reads the repetition after a, if any.
func (p *parser) quantified(a *ast) (*ast, error) {
	lo, hi := 0, 0
	switch p.peek() {
	case '*':
		lo, hi = 0, -1
		p.pos++
	case '+':
		lo, hi = 1, -1
		p.pos++
	case '?':
		lo, hi = 0, 1
		p.pos++
	case '{':
		m := counted.FindStringSubmatch(p.expr[p.pos:])
		if m == nil {
			return nil, unsupported("a { that is not a count at %d", p.pos)
		}
		p.pos += len(m[0])
		var err error
		if lo, err = strconv.Atoi(m[1]); err != nil {
			return nil, unsupported("count %q", m[0])
		}
		switch {
		case m[2] == "":
			hi = lo
		case m[2] == ",":
			hi = -1
		default:
			if hi, err = strconv.Atoi(m[2][1:]); err != nil || hi < lo {
				return nil, unsupported("count %q", m[0])
			}
		}
	default:
		return a, nil
	}
	lazy := p.peek() == '?'
	if lazy {
		p.pos++
	}
	if c := p.peek(); c == '*' || c == '+' || c == '?' || c == '{' {
		return nil, unsupported("a repetition repeated at %d", p.pos)
	}
	if a.kind == aAssert || a.kind == aLook || a.kind == aEmpty {
		return nil, unsupported("a repeated assertion")
	}
	return &ast{kind: aRepeat, subs: []*ast{a}, min: lo, max: hi, lazy: lazy}, nil
}

// atom reads one part; nil for an inline option.
func (p *parser) atom() (*ast, error) {
	start := p.pos
	c := p.expr[p.pos]
	switch c {
	case '(':
		return p.group()
	case '[':
		end := classEnd(p.expr, p.pos)
		if end < 0 {
			return nil, unsupported("unclosed class")
		}
		p.pos = end + 1
		return p.runeAtom(p.expr[start:p.pos])
	case '.':
		p.pos++
		return p.runeAtom(".")
	case '^':
		p.pos++
		if p.opts&Multiline != 0 {
			return &ast{kind: aAssert, assert: atLineStart}, nil
		}
		return &ast{kind: aAssert, assert: atTextStart}, nil
	case '$':
		p.pos++
		if p.opts&Multiline != 0 {
			return &ast{kind: aAssert, assert: atLineEnd}, nil
		}
		return &ast{kind: aAssert, assert: atEndOrNewline}, nil
	case '*', '+', '?', '{':
		return nil, unsupported("a repetition of nothing at %d", p.pos)
	case '\\':
		return p.escape()
	}
	_, w := utf8.DecodeRuneInString(p.expr[p.pos:])
	p.pos += w
	return p.runeAtom(p.expr[start:p.pos])
}

func (p *parser) escape() (*ast, error) {
	if p.pos+1 >= len(p.expr) {
		return nil, unsupported("a trailing \\")
	}
	start := p.pos
	c := p.expr[p.pos+1]
	p.pos += 2
	switch c {
	case 'b':
		return &ast{kind: aAssert, assert: atBoundary}, nil
	case 'B':
		return &ast{kind: aAssert, assert: atNonBoundary}, nil
	case 'A':
		return &ast{kind: aAssert, assert: atTextStart}, nil
	case 'z':
		return &ast{kind: aAssert, assert: atTextEnd}, nil
	case 'Z':
		return &ast{kind: aAssert, assert: atEndOrNewline}, nil
	case 'p', 'P':
		end := strings.IndexByte(p.expr[p.pos:], '}')
		if p.peek() != '{' || end < 0 {
			return nil, unsupported("\\%c without {", c)
		}
		p.pos += end + 1
	case 'x':
		p.pos += 2
	case 'u':
		p.pos += 4
	case 'd', 'D', 'w', 'W', 's', 'S', 't', 'n', 'r', 'f', 'v', 'a', 'e':
	default:
		if c >= utf8.RuneSelf || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' {
			return nil, unsupported("escape \\%c", c) // back-references, \G, \k, \c, octal
		}
	}
	if p.pos > len(p.expr) {
		return nil, unsupported("a short escape")
	}
	return p.runeAtom(p.expr[start:p.pos])
}

// group reads a group from its "(".
func (p *parser) group() (*ast, error) {
	p.pos++
	rest := p.expr[p.pos:]
	var a *ast
	switch {
	case strings.HasPrefix(rest, "?:"):
		p.pos += 2
		a = &ast{kind: aConcat}
	case strings.HasPrefix(rest, "?="), strings.HasPrefix(rest, "?!"):
		a = &ast{kind: aLook, neg: rest[1] == '!'}
		p.pos += 2
	case strings.HasPrefix(rest, "?<="), strings.HasPrefix(rest, "?<!"):
		a = &ast{kind: aLook, neg: rest[2] == '!', behind: true}
		p.pos += 3
	case strings.HasPrefix(rest, "?>"):
		p.pos += 2
		a = &ast{kind: aAtomic}
	case strings.HasPrefix(rest, "?<"):
		end := strings.IndexByte(rest, '>')
		name := rest[2:max(end, 2)]
		if end < 0 || name == "" || strings.IndexFunc(name, func(r rune) bool { return !wordRune(r) }) >= 0 || name[0] >= '0' && name[0] <= '9' {
			return nil, unsupported("group name at %d", p.pos)
		}
		p.pos += end + 1
		a = &ast{kind: aCapture, name: name}
	case strings.HasPrefix(rest, "?"):
		return p.options()
	default:
		p.unnamed++
		a = &ast{kind: aCapture, name: strconv.Itoa(p.unnamed)}
	}
	if a.kind == aCapture {
		p.captures = append(p.captures, a)
	}
	sub, err := p.alternation()
	if err != nil {
		return nil, err
	}
	if p.peek() != ')' {
		return nil, unsupported("unclosed group")
	}
	p.pos++
	if a.kind == aConcat { // (?:...)
		return sub, nil
	}
	a.subs = []*ast{sub}
	return a, nil
}

// options reads (?ims-ims) and (?ims-ims:...), from the "?".
func (p *parser) options() (*ast, error) {
	on := true
	opts := p.opts
	for p.pos++; p.pos < len(p.expr); p.pos++ {
		var o Options
		switch p.expr[p.pos] {
		case 'i':
			o = IgnoreCase
		case 'm':
			o = Multiline
		case 's':
			o = Singleline
		case '-':
			on = false
			continue
		case ')':
			p.pos++
			p.opts = opts // to the end of the enclosing group
			return nil, nil
		case ':':
			p.pos++
			saved := p.opts
			p.opts = opts
			sub, err := p.alternation()
			p.opts = saved
			if err != nil {
				return nil, err
			}
			if p.peek() != ')' {
				return nil, unsupported("unclosed group")
			}
			p.pos++
			return sub, nil
		default:
			return nil, unsupported("group (?%c", p.expr[p.pos])
		}
		if on {
			opts |= o
		} else {
			opts &^= o
		}
	}
	return nil, unsupported("unclosed group")
}

// classEnd returns the index of the "]" closing the class that opens at
// i, or -1; a class within a class (.NET's subtraction) is not read.
func classEnd(expr string, i int) int {
	j := i + 1
	if j < len(expr) && expr[j] == '^' {
		j++
	}
	if j < len(expr) && expr[j] == ']' {
		j++ // a ] first in a class is one of its runes
	}
	for ; j < len(expr); j++ {
		switch expr[j] {
		case '\\':
			j++
		case '[':
			return -1
		case ']':
			return j
		}
	}
	return -1
}

// runeAtom reads one rune's part as regexp2 compiles it alone, with the
// options in force: the same runes, folded the same way.
func (p *parser) runeAtom(text string) (*ast, error) {
	o := p.opts & (IgnoreCase | Singleline)
	key := strconv.Itoa(int(o)) + text
	if s, ok := p.sets[key]; ok {
		return &ast{kind: aRune, set: s}, nil
	}
	tree, err := r2syntax.Parse(text, r2syntax.RegexOptions(o.regexp2()))
	if err != nil {
		return nil, unsupported("%q: %v", text, err)
	}
	code, err := r2syntax.Write(tree)
	if err != nil {
		return nil, unsupported("%q: %v", text, err)
	}
	// One rune compiles to: lazy branch, set mark, the rune's instruction,
	// capture mark, stop.
	cs := code.Codes
	if len(cs) != 9 || cs[0] != int(r2syntax.Lazybranch) || cs[2] != int(r2syntax.Setmark) || cs[5] != int(r2syntax.Capturemark) {
		return nil, unsupported("%q is not one rune", text)
	}
	s := &runeSet{op: r2syntax.InstOp(cs[3] & int(r2syntax.Mask)), fold: cs[3]&int(r2syntax.Ci) != 0}
	switch s.op {
	case r2syntax.One, r2syntax.Notone:
		s.ch = rune(cs[4])
	case r2syntax.Set:
		s.class = code.Sets[cs[4]]
	default:
		return nil, unsupported("%q is not one rune", text)
	}
	for r := range rune(utf8.RuneSelf) {
		s.ascii[r] = s.slowHas(r)
	}
	p.sets[key] = s
	return &ast{kind: aRune, set: s}, nil
}

// width returns the fewest and most runes a match of a reads; most is -1
// when unbounded.
func (a *ast) width() (least, most int) {
	switch a.kind {
	case aRune:
		return 1, 1
	case aConcat:
		for _, s := range a.subs {
			l, m := s.width()
			least += l
			if most >= 0 {
				most = m + most
				if m < 0 {
					most = -1
				}
			}
		}
		return least, most
	case aAlt:
		least = -1
		for _, s := range a.subs {
			l, m := s.width()
			if least < 0 || l < least {
				least = l
			}
			if most >= 0 && (m < 0 || m > most) {
				most = m
			}
		}
		return least, most
	case aCapture, aAtomic:
		return a.subs[0].width()
	case aRepeat:
		l, m := a.subs[0].width()
		if a.max < 0 || m < 0 {
			return l * a.min, -1
		}
		return l * a.min, m * a.max
	}
	return 0, 0
}

// holds reports whether a has a part of kind k.
func (a *ast) holds(k astKind) bool {
	if a.kind == k {
		return true
	}
	for _, s := range a.subs {
		if s.holds(k) {
			return true
		}
	}
	return false
}

// The compiled program: each part points to what follows it.

type nodeOp uint8

const (
	nRune      nodeOp = iota // one rune of set
	nRepeat                  // runes of set, min to max of them
	nAlt                     // each of alts in turn
	nOpen                    // a group begins
	nClose                   // a group ends
	nLoop                    // a repetition of body
	nLoopEnd                 // the end of loop's body
	nLook                    // a look-around of body
	nAtomic                  // body, matched once
	nAssert                  // assert holds
	nAccept                  // a look-ahead's body matched
	nAcceptAt                // a look-behind's body matched, if it ends where the look-behind stands
	nAcceptEnd               // an atomic group's body matched
	nMatch                   // the pattern matched
)

type node struct {
	op       nodeOp
	next     *node
	set      *runeSet
	min, max int
	lazy     bool
	alts     []*node
	group    int // regexp2's number of the group
	loop     int // a repetition's number
	body     *node
	loopNode *node
	neg      bool
	behind   bool
	minW     int
	maxW     int
	assert   assertion
	// What each of alts, a loop's body, and what follows a repetition
	// may read first (firstsOf).
	altFirsts []*firstRunes
	bodyFirst *firstRunes
	follow    *firstRunes
}

// backtracker is a pattern compiled for the backtracker.
type backtracker struct {
	start  *node
	groups int // regexp2's groups, the whole match included
	loops  int
	// machines holds machines of this backtracker between searches: a
	// text is searched for dozens of patterns, each search needing one.
	machines sync.Pool
}

// compileBacktracker compiles expr for the backtracker, numbering its
// groups as re (regexp2's compilation of expr) numbers them.
func compileBacktracker(expr string, opts Options, re *regexp2.Regexp) (*backtracker, error) {
	a, p, err := parseExpr(expr, opts)
	if err != nil {
		return nil, err
	}
	names := re.GetGroupNames()
	number := map[string]int{}
	for i, n := range names {
		number[n] = i
	}
	seen := map[string]bool{"0": true}
	for _, c := range p.captures {
		if _, ok := number[c.name]; !ok {
			return nil, unsupported("group %q is not regexp2's", c.name)
		}
		seen[c.name] = true
	}
	if len(seen) != len(names) {
		return nil, unsupported("groups %v are not regexp2's %v", seen, names)
	}
	c := &compiler{number: number}
	bt := &backtracker{groups: len(names)}
	if bt.start, err = c.compile(a, &node{op: nMatch}); err != nil {
		return nil, err
	}
	bt.loops = c.loops
	firstsOf(bt.start)
	return bt, nil
}

// firstRunes is what a part of a program may read first, read from the
// program: the ASCII runes it may begin with, or any rune (any) when it
// may match without reading one, or the walk cannot tell. A place where
// it cannot begin is passed over without running it; that changes no
// answer, as the part would fail there having set nothing.
type firstRunes struct {
	ascii [utf8.RuneSelf]bool
	any   bool
}

// rulesOut reports whether the part cannot match at i: it must read a
// rune first, and in[i] (ASCII) is none it may read, or the text ends.
// A rune beyond ASCII is not ruled out.
func (f *firstRunes) rulesOut(in []rune, i int) bool {
	if f.any {
		return false
	}
	return i >= len(in) || in[i] < utf8.RuneSelf && !f.ascii[in[i]]
}

// firstsOf sets, for every alternation reachable from start, what each
// alternative may read first, for every loop what its body may, and for
// every repetition what may follow it.
func firstsOf(start *node) {
	w := firstsWalk{memo: map[*node]*firstRunes{}, seen: map[*node]bool{}}
	w.visit(start)
}

type firstsWalk struct {
	memo map[*node]*firstRunes // nil while being read: a cycle reads as any
	seen map[*node]bool
}

// visit sets the alternations' and repetitions' first runes from n on.
func (w *firstsWalk) visit(n *node) {
	if n == nil || w.seen[n] {
		return
	}
	w.seen[n] = true
	switch n.op {
	case nAlt:
		n.altFirsts = make([]*firstRunes, len(n.alts))
		for k, alt := range n.alts {
			n.altFirsts[k] = w.first(alt)
		}
	case nRepeat:
		n.follow = w.first(n.next)
	case nLoop:
		n.bodyFirst, n.follow = w.first(n.body), w.first(n.next)
	}
	for _, alt := range n.alts {
		w.visit(alt)
	}
	w.visit(n.body)
	w.visit(n.next)
}

var anyRune = &firstRunes{any: true}

// first returns what a match from n may read first.
func (w *firstsWalk) first(n *node) *firstRunes {
	if f, ok := w.memo[n]; ok {
		if f == nil {
			return anyRune // a cycle: it could read anything
		}
		return f
	}
	w.memo[n] = nil
	f := w.read(n)
	w.memo[n] = f
	return f
}

func (w *firstsWalk) read(n *node) *firstRunes {
	union := func(fs ...*firstRunes) *firstRunes {
		out := &firstRunes{}
		for _, f := range fs {
			if f.any {
				return anyRune
			}
			for r, in := range f.ascii {
				out.ascii[r] = out.ascii[r] || in
			}
		}
		return out
	}
	switch n.op {
	case nRune:
		return &firstRunes{ascii: n.set.ascii}
	case nRepeat:
		if n.min > 0 {
			return &firstRunes{ascii: n.set.ascii}
		}
		return union(&firstRunes{ascii: n.set.ascii}, w.first(n.next))
	case nAlt:
		fs := make([]*firstRunes, len(n.alts))
		for k, alt := range n.alts {
			fs[k] = w.first(alt)
		}
		return union(fs...)
	case nOpen, nClose, nAssert, nLook:
		// Read nothing: an assertion or a look-around only rules places out.
		return w.first(n.next)
	case nLoop:
		if n.min > 0 {
			return w.first(n.body)
		}
		return union(w.first(n.body), w.first(n.next))
	case nAtomic:
		return w.first(n.body) // its end reads as any: what follows is not read
	}
	// The end of a loop's round, a look-around's, an atomic group's or the
	// match: it may match here with no rune.
	return anyRune
}

type compiler struct {
	number map[string]int
	loops  int
}

// compile returns the program of a followed by next.
func (c *compiler) compile(a *ast, next *node) (*node, error) {
	switch a.kind {
	case aEmpty:
		return next, nil
	case aRune:
		return &node{op: nRune, set: a.set, next: next}, nil
	case aAssert:
		return &node{op: nAssert, assert: a.assert, next: next}, nil
	case aConcat:
		var err error
		for i := len(a.subs) - 1; i >= 0 && err == nil; i-- {
			next, err = c.compile(a.subs[i], next)
		}
		return next, err
	case aAlt:
		n := &node{op: nAlt, next: next}
		for _, s := range a.subs {
			alt, err := c.compile(s, next)
			if err != nil {
				return nil, err
			}
			n.alts = append(n.alts, alt)
		}
		return n, nil
	case aCapture:
		g := c.number[a.name]
		body, err := c.compile(a.subs[0], &node{op: nClose, group: g, next: next})
		return &node{op: nOpen, group: g, next: body}, err
	case aLook:
		if a.subs[0].holds(aCapture) {
			return nil, unsupported("a group in a look-around")
		}
		n := &node{op: nLook, neg: a.neg, behind: a.behind, next: next}
		end := &node{op: nAccept}
		if a.behind {
			if a.subs[0].holds(aAtomic) {
				return nil, unsupported("an atomic group in a look-behind")
			}
			if n.minW, n.maxW = a.subs[0].width(); n.maxW < 0 {
				return nil, unsupported("a look-behind without a bound")
			}
			end.op = nAcceptAt
		}
		var err error
		n.body, err = c.compile(a.subs[0], end)
		return n, err
	case aAtomic:
		if a.subs[0].holds(aCapture) {
			return nil, unsupported("a group in an atomic group")
		}
		body, err := c.compile(a.subs[0], &node{op: nAcceptEnd})
		return &node{op: nAtomic, body: body, next: next}, err
	case aRepeat:
		sub := a.subs[0]
		switch {
		case a.max == 0:
			return next, nil
		case a.min == 1 && a.max == 1:
			return c.compile(sub, next)
		case sub.kind == aRune:
			return &node{op: nRepeat, set: sub.set, min: a.min, max: a.max, lazy: a.lazy, next: next}, nil
		}
		if least, _ := sub.width(); least == 0 {
			// regexp2 stops a loop whose round matched nothing by rules
			// of its own; such a loop is left to it.
			return nil, unsupported("a repetition of what may be empty")
		}
		loop := &node{op: nLoop, loop: c.loops, min: a.min, max: a.max, lazy: a.lazy, next: next}
		c.loops++
		var err error
		loop.body, err = c.compile(sub, &node{op: nLoopEnd, loopNode: loop})
		return loop, err
	}
	return nil, unsupported("part %d", a.kind)
}

// machine is the state of one run of a backtracker over a text's runes.
type machine struct {
	in      []rune
	caps    []Span // by group, in runes
	open    []Span // where each group's open round began
	rounds  []int  // by loop: rounds matched
	target  int    // where a look-behind's body must end
	atomEnd int    // where an atomic group's body ended
	end     int    // where the match ended
	depth   int    // calls of run nested
	tooDeep bool   // a call went past maxDepth: the search is regexp2's
}

func newMachine(bt *backtracker, in []rune) *machine {
	return &machine{in: in, caps: make([]Span, bt.groups), open: make([]Span, bt.groups), rounds: make([]int, bt.loops)}
}

// machine returns a machine of bt over in, made or kept from an earlier
// search; release gives it back.
func (bt *backtracker) machine(in []rune) *machine {
	m, _ := bt.machines.Get().(*machine)
	if m == nil {
		return newMachine(bt, in)
	}
	m.in = in
	return m
}

// release returns m to its backtracker, holding no text. Every group,
// loop and depth is as a finished search leaves it; tooDeep is reset.
func (bt *backtracker) release(m *machine) {
	m.in, m.tooDeep = nil, false
	bt.machines.Put(m)
}

// matchAt runs bt at i; the groups of a match are in m.caps.
func (m *machine) matchAt(bt *backtracker, i int) bool {
	clear(m.caps)
	if !m.run(bt.start, i) {
		return false
	}
	m.caps[0] = Span{Start: i, End: m.end, OK: true}
	return true
}

// maxDepth bounds how deep the backtracker's calls nest. A repetition
// of a part more than one rune long nests a call for each round, and a
// text may hold a long run of rounds; past the bound the search is left
// to regexp2, whose stacks are on the heap. The bound depends on the
// text alone, so the answer does not change.
const maxDepth = 20000

// run matches from n at i, trying each choice in regexp2's order. On
// failure, every group and loop is as it was. Past maxDepth it fails,
// and m.tooDeep says so.
func (m *machine) run(n *node, i int) bool {
	if m.tooDeep || m.depth >= maxDepth {
		m.tooDeep = true
		return false
	}
	m.depth++
	ok := m.step(n, i)
	m.depth--
	return ok
}

func (m *machine) step(n *node, i int) bool {
	in := m.in
	for {
		switch n.op {
		case nRune:
			if i >= len(in) || !n.set.has(in[i]) {
				return false
			}
			i++
			n = n.next
		case nRepeat:
			return m.repeat(n, i)
		case nAlt:
			last := len(n.alts) - 1
			for k, alt := range n.alts[:last] {
				if !n.altFirsts[k].rulesOut(in, i) && m.run(alt, i) {
					return true
				}
			}
			if n.altFirsts[last].rulesOut(in, i) {
				return false
			}
			n = n.alts[last]
		case nAssert:
			if !n.assert.holds(in, i) {
				return false
			}
			n = n.next
		case nOpen:
			return m.setThen(&m.open[n.group], Span{Start: i}, n.next, i)
		case nClose:
			return m.setThen(&m.caps[n.group], Span{Start: m.open[n.group].Start, End: i, OK: true}, n.next, i)
		case nLoop:
			old := m.rounds[n.loop]
			m.rounds[n.loop] = 0
			if m.round(n, i) {
				return true
			}
			m.rounds[n.loop] = old
			return false
		case nLoopEnd:
			return m.round(n.loopNode, i)
		case nLook:
			if m.look(n, i) == n.neg {
				return false
			}
			n = n.next
		case nAtomic:
			saved := m.atomEnd
			if !m.run(n.body, i) {
				return false
			}
			i, m.atomEnd = m.atomEnd, saved
			n = n.next
		case nAccept:
			return true
		case nAcceptAt:
			return i == m.target
		case nAcceptEnd:
			m.atomEnd = i
			return true
		case nMatch:
			m.end = i
			return true
		}
	}
}

// setThen sets *slot to v and runs from n at i; when that fails, *slot
// is set back.
func (m *machine) setThen(slot *Span, v Span, n *node, i int) bool {
	old := *slot
	*slot = v
	if m.run(n, i) {
		return true
	}
	*slot = old
	return false
}

// repeat matches runes of n's set, as many as it may first (fewest when
// lazy), then what follows.
func (m *machine) repeat(n *node, i int) bool {
	in, next := m.in, n.next
	limit := len(in)
	if n.max >= 0 && i+n.max < limit {
		limit = i + n.max
	}
	// A rune that must follow and does not stand there rules a place out
	// without a call.
	cannotFollow := func(j int) bool {
		return next.op == nRune && (j >= len(in) || !next.set.has(in[j])) || n.follow.rulesOut(in, j)
	}
	if n.lazy {
		j := i
		for ; j < i+n.min; j++ {
			if j >= len(in) || !n.set.has(in[j]) {
				return false
			}
		}
		for {
			if !cannotFollow(j) && m.run(next, j) {
				return true
			}
			if j >= limit || !n.set.has(in[j]) {
				return false
			}
			j++
		}
	}
	j := i
	for j < limit && n.set.has(in[j]) {
		j++
	}
	for ; j >= i+n.min; j-- {
		if !cannotFollow(j) && m.run(next, j) {
			return true
		}
	}
	return false
}

// round decides, after m.rounds[n.loop] rounds of loop n ending at i,
// whether to match another round or what follows, in regexp2's order.
func (m *machine) round(n *node, i int) bool {
	done := m.rounds[n.loop]
	more := n.max < 0 || done < n.max
	enough := done >= n.min
	more = more && !n.bodyFirst.rulesOut(m.in, i)
	if !n.lazy && more {
		m.rounds[n.loop] = done + 1
		if m.run(n.body, i) {
			return true
		}
		m.rounds[n.loop] = done
	}
	if enough && !n.follow.rulesOut(m.in, i) && m.run(n.next, i) {
		return true
	}
	if n.lazy && more {
		m.rounds[n.loop] = done + 1
		if m.run(n.body, i) {
			return true
		}
		m.rounds[n.loop] = done
	}
	return false
}

// look reports whether n's body matches at i: from i on for a
// look-ahead, ending at i for a look-behind.
func (m *machine) look(n *node, i int) bool {
	if !n.behind {
		return m.run(n.body, i)
	}
	saved := m.target
	defer func() { m.target = saved }()
	m.target = i
	for j := i - n.minW; j >= 0 && j >= i-n.maxW; j-- {
		if m.run(n.body, j) {
			return true
		}
	}
	return false
}
