// Package shellword reads the words of a parsed shell command as they are
// written: the loaders' reading of an agent's editor commands and
// extract's reading of command lines take a word's text from here, so
// both read quoting and escapes alike.
package shellword

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Literal returns a word's value when it is written out whole (bare,
// single- or double-quoted, or escaped), the backslashes that quote a
// byte dropped as the shell drops them; false when part of it is
// expanded or substituted (or there is no word): the parse says what a
// word is and never works out what it would become.
func Literal(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(p.Value, ""))
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(unescape(l.Value, "$`\"\\\n"))
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// unescape drops the backslashes that quote the next byte: before any
// byte outside quotes (only "" is given), before those of only inside
// double quotes.
func unescape(s, only string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (only == "" || strings.IndexByte(only, s[i+1]) >= 0) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
