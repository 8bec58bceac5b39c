// Package match is the one way offattr matches text with patterns. A Set
// compiles regexp2 patterns (the design's engine), refusing one whose
// backtracking is not bounded (Bounded), so that no match needs a time
// limit: a limit makes what is read depend on how busy the machine is.
// From each pattern, read as Go's regexp/syntax tree (Syntax), it works
// out where its matches can begin (starts.go); a Text prepares a string
// once for a set's patterns, and Find tries each pattern only there, on a
// backtracker compiled from the pattern that matches as regexp2 does
// (backtrack.go).
package match

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
)

// Syntax parses a regexp2 expression as regexp/syntax does, look-arounds
// dropped (a condition less only widens what matches). With keepCounts,
// counted repetitions stay as written; without, or where Go refuses them
// (above 1000 in all), each becomes * or +: only whether it may be empty
// is kept.
func Syntax(expr string, opts Options, keepCounts bool) (*syntax.Regexp, error) {
	flags := syntax.Perl
	if opts&IgnoreCase != 0 {
		flags |= syntax.FoldCase
	}
	if opts&Multiline != 0 {
		flags &^= syntax.OneLine
	}
	if opts&Singleline != 0 {
		flags |= syntax.DotNL
	}
	if keepCounts {
		if re, err := syntax.Parse(Translate(expr, true), flags); err == nil {
			return re, nil
		}
	}
	return syntax.Parse(Translate(expr, false), flags)
}

var (
	counted = regexp.MustCompile(`^\{(\d+)(,\d*)?\}`)
	backref = regexp.MustCompile(`^\\(?:k<\w+>|k'\w+'|[1-9][0-9]?)`)
)

// Translate puts a regexp2 expression in Go's syntax: look-arounds are
// dropped, atomic groups are groups named atomicN, back-references match
// nothing, and unless keepCounts, counted repetitions become * or +.
func Translate(expr string, keepCounts bool) string {
	var b strings.Builder
	depth, drop, inClass := 0, 0, false // drop: the depth of the look-around being dropped
	atomics := 0
	for i := 0; i < len(expr); i++ {
		rest := expr[i:]
		out := rest[:1]
		switch c := expr[i]; {
		case !inClass && backref.MatchString(rest):
			// A back-reference repeats what a group matched: read as
			// nothing, which only the shape check sees.
			q := backref.FindString(rest)
			out = "(?:)"
			i += len(q) - 1
		case c == '\\':
			out = rest[:min(2, len(rest))]
			i++
		case !inClass && strings.HasPrefix(rest, "(?>"):
			// An atomic group never gives back what it matched: a named
			// group that the shape check reads as one unit.
			depth++
			out = fmt.Sprintf("(?P<%s%d>", atomicPrefix, atomics)
			atomics++
			i += 2
		case inClass || c == '[':
			inClass = c != ']'
		case c == '(':
			if depth++; drop == 0 && (strings.HasPrefix(rest, "(?=") || strings.HasPrefix(rest, "(?!") || strings.HasPrefix(rest, "(?<=") || strings.HasPrefix(rest, "(?<!")) {
				drop = depth
			}
		case c == ')':
			if depth--; depth < drop {
				drop, out = 0, ""
			}
		case !keepCounts && counted.MatchString(rest):
			q := counted.FindStringSubmatch(rest)
			out = map[bool]string{true: "*", false: "+"}[q[1] == "0"]
			i += len(q[0]) - 1
		}
		if drop == 0 {
			b.WriteString(out)
		}
	}
	return b.String()
}

// Bounded reports, as an error naming the part, whether a failing match of
// expr could try exponentially many ways: a repetition inside another
// repetition, one of the two unbounded, where what follows the inner one
// can begin with a character the inner one consumes (how often the inner
// part repeats is then in doubt: "(a+)+"); or, inside an unbounded
// repetition, an alternation whose branches can begin alike ("(xa|x)+").
// "(?:\w+ ){0,5}" passes: a word ends at the space, and so does
// "(?:(?>\\+)x)*": an atomic group never gives back what it matched.
//
// It reads expr as regexp/syntax parses it, which merges branches with a
// common prefix and single characters into classes: a net for the shapes
// above, not a proof about regexp2's own program.
func Bounded(expr string, opts Options) error {
	re, err := Syntax(expr, opts, true)
	if err != nil {
		return err
	}
	var bad []string
	var walk func(n *syntax.Regexp)
	walk = func(n *syntax.Regexp) {
		if isRepeat(n) {
			inner(n.Sub[0], first(n.Sub[0]), unbounded(n), &bad)
		}
		for _, s := range n.Sub {
			walk(s)
		}
	}
	walk(re)
	if len(bad) > 0 {
		return fmt.Errorf("%s can backtrack without bound: what follows it may begin what it repeats", bad[0])
	}
	return nil
}

// inner checks the parts inside an outer repetition's body, follow being
// what can come after n there.
func inner(n *syntax.Regexp, follow charSet, outerUnbounded bool, bad *[]string) {
	switch {
	case atomic(n):
		// Walked on its own as an outer part; from outside, one unit.
	case isRepeat(n):
		if (outerUnbounded || unbounded(n)) && consumed(n.Sub[0]).overlaps(follow) {
			*bad = append(*bad, n.String())
		}
		inner(n.Sub[0], first(n.Sub[0]).union(follow), outerUnbounded || unbounded(n), bad)
	case n.Op == syntax.OpAlternate && outerUnbounded:
		for i, a := range n.Sub {
			for _, b := range n.Sub[i+1:] {
				if first(a).overlaps(first(b)) {
					*bad = append(*bad, n.String())
				}
			}
			inner(a, follow, outerUnbounded, bad)
		}
	case n.Op == syntax.OpConcat:
		for i, s := range n.Sub {
			f, tailNullable := charSet{}, true
			for _, after := range n.Sub[i+1:] {
				f = f.union(first(after))
				if !nullable(after) {
					tailNullable = false
					break
				}
			}
			if tailNullable {
				f = f.union(follow)
			}
			inner(s, f, outerUnbounded, bad)
		}
	default:
		for _, s := range n.Sub {
			inner(s, follow, outerUnbounded, bad)
		}
	}
}

// atomicPrefix names the groups Translate makes of atomic groups.
const atomicPrefix = "atomic"

// atomic reports whether n is an atomic group: once matched, a later part's
// failure never makes it match differently, so it repeats no doubt.
func atomic(n *syntax.Regexp) bool {
	return n.Op == syntax.OpCapture && strings.HasPrefix(n.Name, atomicPrefix)
}

func isRepeat(n *syntax.Regexp) bool {
	return n.Op == syntax.OpStar || n.Op == syntax.OpPlus || n.Op == syntax.OpRepeat && n.Max != 1
}

func unbounded(n *syntax.Regexp) bool {
	return n.Op == syntax.OpStar || n.Op == syntax.OpPlus || n.Op == syntax.OpRepeat && n.Max < 0
}

func nullable(n *syntax.Regexp) bool {
	switch n.Op {
	case syntax.OpLiteral:
		return len(n.Rune) == 0
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return false
	case syntax.OpStar, syntax.OpQuest:
		return true
	case syntax.OpRepeat:
		return n.Min == 0 || nullable(n.Sub[0])
	case syntax.OpPlus, syntax.OpCapture:
		return nullable(n.Sub[0])
	case syntax.OpConcat:
		for _, s := range n.Sub {
			if !nullable(s) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		for _, s := range n.Sub {
			if nullable(s) {
				return true
			}
		}
		return false
	}
	return true // empty matches, anchors, word boundaries
}

// first is the set of characters a match of n can begin with.
func first(n *syntax.Regexp) charSet {
	switch n.Op {
	case syntax.OpLiteral:
		if len(n.Rune) == 0 {
			return charSet{}
		}
		return literalSet(n.Rune[:1], n.Flags)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return consumed(n)
	case syntax.OpConcat:
		var out charSet
		for _, s := range n.Sub {
			out = out.union(first(s))
			if !nullable(s) {
				break
			}
		}
		return out
	case syntax.OpAlternate, syntax.OpCapture, syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		var out charSet
		for _, s := range n.Sub {
			out = out.union(first(s))
		}
		return out
	}
	return charSet{}
}

// consumed is the set of every character a match of n can consume.
func consumed(n *syntax.Regexp) charSet {
	switch n.Op {
	case syntax.OpLiteral:
		return literalSet(n.Rune, n.Flags)
	case syntax.OpCharClass:
		return charSet(append([]rune(nil), n.Rune...))
	case syntax.OpAnyChar:
		return charSet{0, unicode.MaxRune}
	case syntax.OpAnyCharNotNL:
		return charSet{0, '\n' - 1, '\n' + 1, unicode.MaxRune}
	}
	var out charSet
	for _, s := range n.Sub {
		out = out.union(consumed(s))
	}
	return out
}

// charSet is a list of lo-hi rune pairs, as syntax.Regexp keeps a class.
type charSet []rune

func literalSet(rs []rune, flags syntax.Flags) charSet {
	var out charSet
	for _, r := range rs {
		out = append(out, r, r)
		if flags&syntax.FoldCase != 0 {
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				out = append(out, f, f)
			}
		}
	}
	return out
}

func (a charSet) union(b charSet) charSet { return append(append(charSet(nil), a...), b...) }

func (a charSet) overlaps(b charSet) bool {
	for i := 0; i+1 < len(a); i += 2 {
		for j := 0; j+1 < len(b); j += 2 {
			if a[i] <= b[j+1] && b[j] <= a[i+1] {
				return true
			}
		}
	}
	return false
}
