package match

import (
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// FromGo returns a regexp2 expression that matches what expr, in Go's
// regexp syntax, matches, and the options to compile it with: Go's \b,
// \w, \d and \s are ASCII where regexp2's are Unicode, Go's (?i) folds
// letters by their simple folding orbits where regexp2 compares lower
// cases, and Go's $ outside (?m) is the text's end where regexp2's may
// stand before a final newline. Both take the first alternative that
// matches and number groups the same when either every group is named or
// none is; a pattern that mixes them is refused, as regexp2 numbers its
// named groups after the others.
func FromGo(expr string) (string, Options, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return "", 0, err
	}
	g := goWriter{}
	g.groups(re)
	if g.named > 0 && g.unnamed > 0 {
		return "", 0, fmt.Errorf("%q mixes named and unnamed groups", expr)
	}
	if err := g.write(re); err != nil {
		return "", 0, fmt.Errorf("%q: %w", expr, err)
	}
	var opts Options
	if g.lines {
		opts = Multiline
	}
	return g.b.String(), opts, nil
}

type goWriter struct {
	b              strings.Builder
	named, unnamed int
	lines          bool // ^ or $ of a line: compiled Multiline
}

func (g *goWriter) groups(re *syntax.Regexp) {
	if re.Op == syntax.OpCapture {
		if re.Name != "" {
			g.named++
		} else {
			g.unnamed++
		}
	}
	for _, s := range re.Sub {
		g.groups(s)
	}
}

const (
	goWord     = `[0-9A-Za-z_]`
	goBoundary = `(?:(?<=` + goWord + `)(?!` + goWord + `)|(?<!` + goWord + `)(?=` + goWord + `))`
	goInside   = `(?:(?<=` + goWord + `)(?=` + goWord + `)|(?<!` + goWord + `)(?!` + goWord + `))`
)

func (g *goWriter) write(re *syntax.Regexp) error {
	b := &g.b
	switch re.Op {
	case syntax.OpNoMatch:
		b.WriteString(`[^\x00-\x7F\x80-` + string(unicode.MaxRune) + `]`)
	case syntax.OpEmptyMatch:
		b.WriteString(`(?:)`)
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && unicode.SimpleFold(r) != r {
				b.WriteByte('[')
				for f := r; ; {
					classRune(b, f)
					if f = unicode.SimpleFold(f); f == r {
						break
					}
				}
				b.WriteByte(']')
				continue
			}
			if err := literalRune(b, r); err != nil {
				return err
			}
		}
	case syntax.OpCharClass:
		return writeClass(b, re.Rune)
	case syntax.OpAnyCharNotNL:
		b.WriteString(`[^\n]`)
	case syntax.OpAnyChar:
		b.WriteString(`[\x00-` + string(unicode.MaxRune) + `]`)
	case syntax.OpBeginLine:
		g.lines = true
		b.WriteString(`^`)
	case syntax.OpEndLine:
		g.lines = true
		b.WriteString(`$`)
	case syntax.OpBeginText:
		b.WriteString(`\A`)
	case syntax.OpEndText:
		b.WriteString(`\z`)
	case syntax.OpWordBoundary:
		b.WriteString(goBoundary)
	case syntax.OpNoWordBoundary:
		b.WriteString(goInside)
	case syntax.OpCapture:
		if re.Name != "" {
			b.WriteString(`(?<` + re.Name + `>`)
		} else {
			b.WriteString(`(`)
		}
		if err := g.write(re.Sub[0]); err != nil {
			return err
		}
		b.WriteString(`)`)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		b.WriteString(`(?:`)
		if err := g.write(re.Sub[0]); err != nil {
			return err
		}
		b.WriteString(`)`)
		switch re.Op {
		case syntax.OpStar:
			b.WriteString(`*`)
		case syntax.OpPlus:
			b.WriteString(`+`)
		case syntax.OpQuest:
			b.WriteString(`?`)
		default:
			switch {
			case re.Max == re.Min:
				fmt.Fprintf(b, `{%d}`, re.Min)
			case re.Max < 0:
				fmt.Fprintf(b, `{%d,}`, re.Min)
			default:
				fmt.Fprintf(b, `{%d,%d}`, re.Min, re.Max)
			}
		}
		if re.Flags&syntax.NonGreedy != 0 {
			b.WriteString(`?`)
		}
	case syntax.OpConcat:
		b.WriteString(`(?:`)
		for _, s := range re.Sub {
			if err := g.write(s); err != nil {
				return err
			}
		}
		b.WriteString(`)`)
	case syntax.OpAlternate:
		b.WriteString(`(?:`)
		for i, s := range re.Sub {
			if i > 0 {
				b.WriteString(`|`)
			}
			if err := g.write(s); err != nil {
				return err
			}
		}
		b.WriteString(`)`)
	default:
		return fmt.Errorf("no regexp2 form for %v", re.Op)
	}
	return nil
}

// writeClass writes ranges (pairs, sorted, as regexp/syntax leaves them)
// as a class, negated when they reach the last rune from the first.
func writeClass(b *strings.Builder, ranges []rune) error {
	if len(ranges) == 0 {
		b.WriteString(`[^\x00-` + string(unicode.MaxRune) + `]`)
		return nil
	}
	b.WriteByte('[')
	if ranges[0] == 0 && ranges[len(ranges)-1] == unicode.MaxRune {
		ranges = complement(ranges)
		if len(ranges) == 0 {
			// every rune: "[^]" is no class in regexp2
			b.WriteString(`\x00-` + string(unicode.MaxRune) + `]`)
			return nil
		}
		b.WriteByte('^')
	}
	for i := 0; i < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		for _, r := range [2]rune{lo, hi} {
			if !utf8.ValidRune(r) {
				return fmt.Errorf("class bound %U has no UTF-8 form", r)
			}
		}
		classRune(b, lo)
		if hi != lo {
			b.WriteByte('-')
			classRune(b, hi)
		}
	}
	b.WriteByte(']')
	return nil
}

// complement returns the ranges of the runes no range of rs holds, rs
// sorted and apart.
func complement(rs []rune) []rune {
	var out []rune
	next := rune(0)
	for i := 0; i < len(rs); i += 2 {
		if rs[i] > next {
			out = append(out, next, rs[i]-1)
		}
		next = rs[i+1] + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, next, unicode.MaxRune)
	}
	return out
}

func classRune(b *strings.Builder, r rune) {
	switch {
	case r < 0x20 || r == 0x7F:
		fmt.Fprintf(b, `\x%02X`, r)
	case r < utf8.RuneSelf && strings.ContainsRune(`\]^-[`, r):
		b.WriteByte('\\')
		b.WriteRune(r)
	default:
		b.WriteRune(r)
	}
}

func literalRune(b *strings.Builder, r rune) error {
	switch {
	case !utf8.ValidRune(r):
		return fmt.Errorf("literal %U has no UTF-8 form", r)
	case r < 0x20 || r == 0x7F:
		fmt.Fprintf(b, `\x%02X`, r)
	case r < utf8.RuneSelf && strings.ContainsRune(`\.+*?()|[]{}^$`, r):
		b.WriteByte('\\')
		b.WriteRune(r)
	default:
		b.WriteRune(r)
	}
	return nil
}
