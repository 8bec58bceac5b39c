package extract

import (
	"regexp/syntax"
	"testing"
	"unicode"

	"github.com/dlclark/regexp2"
)

// nestedRepeats returns the parts of expr that make a failing match try
// exponentially many ways: a repetition inside another repetition, one of
// the two unbounded, where what follows the inner one can begin with a
// character the inner one consumes (how often the inner part repeats is
// then in doubt), and, inside an unbounded repetition, an alternation
// whose branches can begin alike. It reads expr as regexp/syntax parses
// it, which merges branches with a common prefix and single characters
// into classes: a net that catches the shapes above, not a proof about
// regexp2's own program, which the hostile-input tests run.
func nestedRepeats(t *testing.T, expr string, opts regexp2.RegexOptions) []string {
	t.Helper()
	flags := syntax.Perl
	if opts&regexp2.IgnoreCase != 0 {
		flags |= syntax.FoldCase
	}
	if opts&regexp2.Multiline != 0 {
		flags &^= syntax.OneLine
	}
	re, err := syntax.Parse(withoutLookarounds(expr), flags)
	if err != nil {
		// Go refuses counted repetitions past 1000 in all; read them as
		// unbounded, which only makes the check stricter.
		re, err = syntax.Parse(translate(expr), flags)
	}
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	var bad []string
	var walk func(n *syntax.Regexp)
	walk = func(n *syntax.Regexp) {
		if isRepeat(n) {
			body := n.Sub[0]
			visitInner(body, first(body), unbounded(n), &bad)
		}
		for _, s := range n.Sub {
			walk(s)
		}
	}
	walk(re)
	return bad
}

// withoutLookarounds drops look-arounds (a condition less only widens what
// matches) and keeps counted repetitions as they are.
func withoutLookarounds(expr string) string {
	out := []byte{}
	depth, drop, inClass := 0, 0, false
	for i := 0; i < len(expr); i++ {
		c, rest := expr[i], expr[i:]
		piece := rest[:1]
		switch {
		case c == '\\':
			piece = rest[:2]
			i++
		case inClass || c == '[':
			inClass = c != ']'
		case c == '(':
			depth++
			if drop == 0 && (hasPrefix(rest, "(?=") || hasPrefix(rest, "(?!") || hasPrefix(rest, "(?<=") || hasPrefix(rest, "(?<!")) {
				drop = depth
			}
		case c == ')':
			if depth--; depth < drop {
				drop, piece = 0, ""
			}
		}
		if drop == 0 {
			out = append(out, piece...)
		}
	}
	return string(out)
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// visitInner checks the repetitions inside an outer repetition's body,
// follow being what can come after n there.
func visitInner(n *syntax.Regexp, follow charSet, outerUnbounded bool, bad *[]string) {
	switch {
	case isRepeat(n):
		if (outerUnbounded || unbounded(n)) && consumed(n.Sub[0]).overlaps(follow) {
			*bad = append(*bad, n.String())
		}
		visitInner(n.Sub[0], first(n.Sub[0]).union(follow), outerUnbounded || unbounded(n), bad)
	case n.Op == syntax.OpAlternate && outerUnbounded:
		for i, a := range n.Sub {
			for _, b := range n.Sub[i+1:] {
				if first(a).overlaps(first(b)) {
					*bad = append(*bad, n.String())
				}
			}
			visitInner(a, follow, outerUnbounded, bad)
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
			visitInner(s, f, outerUnbounded, bad)
		}
	default:
		for _, s := range n.Sub {
			visitInner(s, follow, outerUnbounded, bad)
		}
	}
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
