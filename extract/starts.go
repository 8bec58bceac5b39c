package extract

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"

	"github.com/dlclark/regexp2"
)

// Where a pattern's matches can begin, read from the pattern itself.
//
// regexp2 tries a pattern at every position of a text and pays at each for
// Unicode class lookups; most patterns can begin only at a few places that
// plain Go finds far faster: at a keyword, at a line start, at a digit.
// startersOf reads those places from the expression, so that a pattern is
// written once: the expression is put in Go's syntax (regexp2's classes
// spelled out, look-aheads dropped, look-behinds kept aside), parsed by
// regexp/syntax, and its tree walked for what a match begins with. The walk
// may find too many places, never too few: TestStartsAreComplete and
// FuzzStarts hold it to regexp2's own scan.

// A starter is one way a match can begin at rune p: at any rune, a line
// start, the text start, or a "\n" that the match takes in (begin); with
// no word character before p if notAfterWord (\b before a word character),
// nor a rune of notAfter (look-behinds); then, from p (past the "\n"), the
// runes of lead are skipped, the first of them in first when that is set;
// then the lower-case text goes on with one of lits, or a rune of class.
// With neither, anything may follow, and the text must hold one of need.
type starter struct {
	begin        beginKind
	notAfterWord bool
	notAfter     []*runeSet
	first        *runeSet
	lead         []*runeSet
	lits         []string
	class        *runeSet
	need         []string
}

type beginKind uint8

const (
	anywhere beginKind = iota
	lineStart
	textStart
	newline
)

// fresh: nothing is read yet, so \b and look-behinds concern the start.
func (s starter) fresh() bool { return s.begin == anywhere && s.lead == nil }

// sameStart: s and o begin alike up to what follows the lead (equal sets
// are one pointer).
func (s starter) sameStart(o starter) bool {
	return s.begin == o.begin && s.notAfterWord == o.notAfterWord && slices.Equal(s.notAfter, o.notAfter) &&
		s.first == o.first && slices.Equal(s.lead, o.lead)
}

// startersOf returns the ways a match of expr can begin; ok is false when
// it can begin anywhere with anything (it may be empty): the pattern is
// then scanned.
func startersOf(expr string, opts regexp2.RegexOptions) (ss []starter, ok bool) {
	goExpr, behinds := translate(expr)
	var w walker
	for _, b := range behinds {
		// Read case-sensitively: under IgnoreCase regexp2 rules out the
		// lower case of these runes too, so this rules out no more than it.
		class, _ := translate(b)
		w.behinds = append(w.behinds, classOf(mustParse(class, 0)))
	}
	re := mustParse(goExpr, opts)
	w.seq([]*syntax.Regexp{re}, starter{})
	return w.out, !w.any
}

// regexp2's class escapes as Go writes them: \w (also \b's word
// characters), \d, \s (unicode.IsSpace); upper case negates.
var classEscapes = map[byte]string{
	'w': `\p{L}\p{Mn}\p{Nd}\p{Pc}\x{200C}\x{200D}`,
	'd': `\p{Nd}`,
	's': `\t\n\v\f\r\x{85}\p{Z}`,
}

// markerBase is the first private-use rune that stands for a look-behind.
const markerBase = 0xF0000

// counted is a counted repetition: only whether it may be empty matters
// here, and Go refuses counts above 1000.
var counted = regexp.MustCompile(`^\{(\d+)(,\d*)?\}`)

// translate puts a regexp2 expression in Go's syntax. A look-ahead or a
// positive look-behind is dropped (a condition less only widens what
// matches); a negative look-behind becomes a marker rune and its class is
// returned.
func translate(expr string) (string, []string) {
	var b strings.Builder
	var behinds []string
	inClass := false
	for i := 0; i < len(expr); i++ {
		switch c, rest := expr[i], expr[i:]; {
		case c == '\\':
			i++
			e := expr[i]
			switch cls, ok := classEscapes[e|0x20]; {
			case ok && e >= 'a' && inClass:
				b.WriteString(cls)
			case ok && e >= 'a':
				b.WriteString("[" + cls + "]")
			case ok && !inClass:
				b.WriteString("[^" + cls + "]")
			case ok || e == 'G':
				panic(fmt.Sprintf("extract: %q: \\%c is not supported", expr, e))
			default:
				b.WriteString(rest[:2]) // \p{...} goes on as written
			}
		case inClass || c == '[':
			inClass = c != ']'
			b.WriteByte(c)
		case strings.HasPrefix(rest, "(?="), strings.HasPrefix(rest, "(?!"), strings.HasPrefix(rest, "(?<="):
			i = groupEnd(expr, i)
		case strings.HasPrefix(rest, "(?<!"):
			end := groupEnd(expr, i)
			fmt.Fprintf(&b, `\x{%X}`, markerBase+len(behinds))
			behinds = append(behinds, expr[i+4:end])
			i = end
		case strings.HasPrefix(rest, "(?<") && rest[3] != '=':
			b.WriteString("(") // a named group; names are not needed here
			i += strings.IndexByte(rest, '>')
		case counted.MatchString(rest):
			q := counted.FindStringSubmatch(rest)
			b.WriteString(map[bool]string{true: "*", false: "+"}[q[1] == "0"])
			i += len(q[0]) - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), behinds
}

// groupEnd returns the index of the ")" that closes the group opened at i.
func groupEnd(expr string, i int) int {
	depth, inClass := 0, false
	for ; ; i++ {
		switch c := expr[i]; {
		case c == '\\':
			i++
		case inClass || c == '[':
			inClass = c != ']'
		case c == '(':
			depth++
		case c == ')':
			if depth--; depth == 0 {
				return i
			}
		}
	}
}

func mustParse(expr string, opts regexp2.RegexOptions) *syntax.Regexp {
	flags := syntax.Perl
	if opts&regexp2.IgnoreCase != 0 {
		flags |= syntax.FoldCase
	}
	if opts&regexp2.Multiline != 0 {
		flags &^= syntax.OneLine
	}
	re, err := syntax.Parse(expr, flags)
	if err != nil {
		panic(fmt.Sprintf("extract: %q: %v", expr, err))
	}
	return re
}

// walker reads the starters of one expression.
type walker struct {
	behinds []*runeSet // by marker; nil where a look-behind is not one class
	out     []starter
	any     bool
}

// seq walks the sequence ns, which is to match from where s stands.
func (w *walker) seq(ns []*syntax.Regexp, s starter) {
	if len(ns) == 0 {
		w.add(s, nil)
		return
	}
	n, rest := ns[0], ns[1:]
	switch n.Op {
	case syntax.OpWordBoundary:
		s.notAfterWord = s.notAfterWord || s.fresh()
		w.seq(rest, s)
	case syntax.OpBeginLine, syntax.OpBeginText:
		if s.fresh() {
			s.begin = map[syntax.Op]beginKind{syntax.OpBeginLine: lineStart, syntax.OpBeginText: textStart}[n.Op]
		}
		w.seq(rest, s)
	case syntax.OpEmptyMatch, syntax.OpEndLine, syntax.OpEndText, syntax.OpNoWordBoundary:
		w.seq(rest, s)
	case syntax.OpCapture, syntax.OpConcat:
		w.seq(append(slices.Clip(n.Sub), rest...), s)
	case syntax.OpAlternate:
		for _, alt := range n.Sub {
			w.seq(append([]*syntax.Regexp{alt}, rest...), s)
		}
	case syntax.OpLiteral:
		w.literal(n, rest, s)
	case syntax.OpQuest, syntax.OpStar, syntax.OpPlus:
		w.repeat(n.Sub[0], n.Op == syntax.OpPlus, rest, s)
	default: // a class or a dot
		w.then(ns, s)
	}
}

// literal reads the look-behind markers and a "\n" that begin a literal,
// then the literal itself.
func (w *walker) literal(n *syntax.Regexp, rest []*syntax.Regexp, s starter) {
	runes := n.Rune
	for ; len(runes) > 0 && runes[0] >= markerBase; runes = runes[1:] {
		if set := w.behinds[runes[0]-markerBase]; s.fresh() && set != nil {
			s.notAfter = append(slices.Clip(s.notAfter), set)
		}
	}
	if len(runes) > 0 && runes[0] == '\n' && s.fresh() && !s.notAfterWord && s.notAfter == nil {
		s.begin, runes = newline, runes[1:]
	}
	if len(runes) == 0 {
		w.seq(rest, s)
		return
	}
	lit := *n
	lit.Rune = runes
	w.then(append([]*syntax.Regexp{&lit}, rest...), s)
}

// repeat reads a repetition of sub, at least one if once. Runs of one class
// make the lead, but at an anchorless start an optional run is read as
// either skipped or taken: a lead that may be empty anywhere would make
// every rune a start.
func (w *walker) repeat(sub *syntax.Regexp, once bool, rest []*syntax.Regexp, s starter) {
	if set := classOf(sub); set != nil && (s.lead != nil || s.begin != anywhere || once) {
		if s.lead == nil && once {
			s.first = set
		}
		s.lead = append(slices.Clip(s.lead), set)
		w.seq(rest, s)
		return
	}
	if !once {
		w.seq(rest, s)
	}
	w.seq(append([]*syntax.Regexp{sub}, rest...), s)
}

// then ends a starter at ns[0], the first thing read past the lead: a few
// literals (with the literals that follow them), or a class (narrowed,
// when nothing was read, by the literals after it). A literal or class
// that the lead could also take leaves the starter open.
func (w *walker) then(ns []*syntax.Regexp, s starter) {
	lits, ok := leadingLiterals(ns)
	set := classOf(ns[0])
	after, afterOK := leadingLiterals(ns[1:])
	switch {
	case ok && !startsIn(lits, s.lead):
		s.lits = lits
	case set == nil || overlaps(s.lead, set):
	case s.lead == nil && afterOK && !startsIn(after, []*runeSet{set}):
		s.first, s.lead, s.lits = set, []*runeSet{set}, after // one rune of the class
	default:
		s.class = set
	}
	w.add(s, ns)
}

// add records s, which is to go on with ns, or joins it to a starter that
// begins alike: one search serves both.
func (w *walker) add(s starter, ns []*syntax.Regexp) {
	if s.lits == nil && s.class == nil {
		if s.begin == anywhere && s.first == nil {
			w.any = true
			return
		}
		s.need = necessary(ns)
	}
	// \b before the match means no word character before it only when the
	// match begins with a word character.
	first := s.first
	if first == nil {
		first = s.class
	}
	s.notAfterWord = s.notAfterWord && s.begin == anywhere && (first != nil && first.within(wordChar) ||
		first == nil && !slices.ContainsFunc(s.lits, func(l string) bool { return !wordChar([]rune(l)[0]) }))
	for i, o := range w.out {
		if o.sameStart(s) && (o.lits == nil) == (s.lits == nil) && o.class == s.class && slices.Equal(o.need, s.need) {
			w.out[i].lits = append(o.lits, s.lits...)
			return
		}
	}
	w.out = append(w.out, s)
}

// leadingLiterals returns, in lower case, the few literals that a match
// of ns begins with, read on while what follows is literal too (optional
// parts included: "the (?:search )?results" begins with "the search
// results" or "the results").
func leadingLiterals(ns []*syntax.Regexp) ([]string, bool) {
	lits := []string{""}
	for i, n := range ns {
		more, ok := literals(n)
		if !ok || i == 0 && slices.Contains(more, "") || len(lits)*len(more) > 64 {
			return lits, i > 0
		}
		lits = cross(lits, more)
	}
	return lits, len(ns) > 0
}

// literals returns, in lower case, every string n can match when they are
// few: a literal, a small class, and groups, options and alternations of
// those.
func literals(n *syntax.Regexp) ([]string, bool) {
	out := []string{""}
	switch n.Op {
	case syntax.OpLiteral:
		return []string{strings.Map(func(r rune) rune {
			if r >= markerBase {
				return -1 // a look-behind reads nothing
			}
			return unicode.ToLower(r)
		}, string(n.Rune))}, true
	case syntax.OpCharClass:
		out = nil
		for i := 0; i < len(n.Rune) && len(out) <= 8; i += 2 {
			for r := n.Rune[i]; r <= n.Rune[i+1] && len(out) <= 8; r++ {
				out = append(out, string(unicode.ToLower(r)))
			}
		}
	case syntax.OpCapture:
		return literals(n.Sub[0])
	case syntax.OpQuest:
		l, ok := literals(n.Sub[0])
		return append(l, ""), ok
	case syntax.OpAlternate:
		out = nil
		fallthrough
	case syntax.OpConcat:
		for _, sub := range n.Sub {
			l, ok := literals(sub)
			if !ok || len(out)*len(l) > 64 {
				return nil, false
			}
			if n.Op == syntax.OpAlternate {
				out = append(out, l...)
			} else {
				out = cross(out, l)
			}
		}
	default:
		return nil, false
	}
	slices.Sort(out)
	out = slices.Compact(out)
	return out, len(out) <= 8 || n.Op != syntax.OpCharClass
}

// necessary returns literals, in lower case, one of which every match of
// the sequence ns holds: of the sets it finds, the one whose shortest
// literal is longest; nil if it finds none.
func necessary(ns []*syntax.Regexp) []string {
	shortest := func(l []string) int { return len(slices.MinFunc(l, func(a, b string) int { return len(a) - len(b) })) }
	var best []string
	for _, n := range ns {
		l, ok := literals(n)
		if !ok || slices.Contains(l, "") {
			switch l = nil; n.Op {
			case syntax.OpCapture, syntax.OpPlus, syntax.OpConcat:
				l = necessary(n.Sub)
			case syntax.OpAlternate:
				for _, sub := range n.Sub {
					more := necessary([]*syntax.Regexp{sub})
					if more == nil {
						l = nil
						break
					}
					l = append(l, more...)
				}
			}
		}
		if l != nil && (best == nil || shortest(l) > shortest(best)) {
			best = l
		}
	}
	return best
}

// classOf returns the runes one rune of n can be, nil when n is not a
// class, one literal rune or a dot.
func classOf(n *syntax.Regexp) *runeSet {
	switch {
	case n.Op == syntax.OpCharClass:
		return newRuneSet(n.Rune)
	case n.Op == syntax.OpLiteral && len(n.Rune) == 1 && n.Rune[0] < markerBase:
		folds := []rune{n.Rune[0]}
		for f := unicode.SimpleFold(folds[0]); n.Flags&syntax.FoldCase != 0 && f != folds[0]; f = unicode.SimpleFold(f) {
			folds = append(folds, f)
		}
		slices.Sort(folds)
		var ranges []rune
		for _, f := range folds {
			ranges = append(ranges, f, f)
		}
		return newRuneSet(ranges)
	case n.Op == syntax.OpAnyCharNotNL:
		return newRuneSet([]rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune})
	case n.Op == syntax.OpAnyChar:
		return newRuneSet([]rune{0, unicode.MaxRune})
	}
	return nil
}

// cross returns every a followed by every b.
func cross(as, bs []string) []string {
	var out []string
	for _, a := range as {
		for _, b := range bs {
			out = append(out, a+b)
		}
	}
	return out
}
