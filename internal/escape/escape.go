// Package escape makes text that came from a log safe to show: in a
// terminal, where control characters move the cursor, recolour or hide
// what follows, and newlines forge lines; and in a spreadsheet, where a
// cell that starts with "=" is a formula. It decides how such text is
// written; what is log text and where it goes is the caller's business.
package escape

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Line returns s fit for one line of text output: every control character
// (newlines and tabs included), every character that reorders or hides
// the text around it, and every invalid UTF-8 byte is written as a Go
// escape (\n, \x1b, \u202e, \xff). Everything else, other scripts and
// emoji included, is kept. Use it for agent names, file names, quotes and
// messages: anything printed inside a line offattr lays out.
func Line(s string) string { return escape(s, false) }

// Text is Line for text shown as a block of lines (a step's content): it
// keeps newlines and tabs, so the text reads as written, and escapes the
// rest as Line does, carriage returns included (a lone \r overwrites the
// line it ends).
func Text(s string) string { return escape(s, true) }

// Unsafe reports whether r may act on a terminal or on the reading order of
// the text around it: C0 and C1 control characters, DEL, the line and
// paragraph separators, and the Unicode bidirectional and invisible
// formatting controls used to make text read differently from what it is
// ("Trojan Source").
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, // Arabic letter mark, LRM, RLM
		r >= 0x202a && r <= 0x202e, // LRE, RLE, PDF, LRO, RLO
		r >= 0x2066 && r <= 0x2069, // LRI, RLI, FSI, PDI
		r == 0x2028, r == 0x2029,   // line and paragraph separators
		r == 0x200b, r == 0xfeff: // zero-width space, BOM: hide where text differs
		return true
	}
	return false
}

func escape(s string, keepLines bool) string {
	i := firstUnsafe(s, keepLines)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && w == 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])>>4, 16))
			b.WriteString(strconv.FormatUint(uint64(s[i])&0xf, 16))
		case keepLines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case Unsafe(r):
			// QuoteRune gives '\n', '\x1b', '\u202e': drop the quotes.
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+w])
		}
		i += w
	}
	return b.String()
}

// firstUnsafe is the byte offset of the first thing escape would change,
// or -1: most text needs no copy.
func firstUnsafe(s string, keepLines bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			return i
		}
		if Unsafe(r) && !(keepLines && (r == '\n' || r == '\t')) {
			return i
		}
		i += w
	}
	return -1
}

// Name returns a name (a file name, say) fit for one line, in a form that
// Unname reverses exactly: a name that needs no escaping (Line would leave
// it as it is) and does not start with a double quote is kept; any other
// is written as a Go quoted string, in which every control, bidirectional
// and invisible character and every invalid byte is a Go escape. Use it
// where a name must be read back, as --resume reads a screen's file column.
func Name(s string) string {
	if s == "" || (s[0] != '"' && firstUnsafe(s, false) < 0) {
		return s
	}
	return strconv.Quote(s)
}

// Unname undoes Name.
func Unname(s string) string {
	if len(s) >= 2 && s[0] == '"' {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}

// formulaStarts are the first characters that make a spreadsheet read a
// cell as a formula (OWASP, "CSV Injection"), and the quote that marks a
// neutralised cell, so that Uncell can tell one from a cell that began
// with a quote.
const formulaStarts = "=+-@\t\r'"

// Cell neutralises a CSV cell that a spreadsheet would take for a formula:
// one that starts with = + - @, a tab or a carriage return gets a leading
// single quote, which spreadsheets show as text and do not evaluate. A
// plain number ("-1", "+0.5") is left as it is, since it cannot run
// anything, and a cell that already starts with a quote gets a second one,
// so that Uncell gives back exactly what was written.
func Cell(s string) string {
	if s == "" || !strings.ContainsRune(formulaStarts, rune(s[0])) || isNumber(s) {
		return s
	}
	return "'" + s
}

// Uncell undoes Cell, for a program that reads back a CSV file it wrote.
func Uncell(s string) string {
	if len(s) >= 2 && s[0] == '\'' && strings.ContainsRune(formulaStarts, rune(s[1])) && !isNumber(s[1:]) {
		return s[1:]
	}
	return s
}

// isNumber reports whether s is a plain decimal number: an optional sign,
// digits, and an optional fraction.
func isNumber(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	digits, dot := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot && digits > 0:
			dot = true
		default:
			return false
		}
	}
	return digits > 0 && s[len(s)-1] != '.'
}

// JSON escapes, in encoded JSON, the characters encoding/json writes raw
// although they can act on a terminal or reorder text: C1 controls, DEL
// and the bidirectional and invisible controls Unsafe lists (encoding/json
// already escapes C0 controls and the line separators). They can only
// stand inside strings, where \uXXXX decodes to the same character, so
// the data read back is unchanged.
func JSON(data []byte) []byte {
	i := 0
	for i < len(data) && (data[i] < utf8.RuneSelf && data[i] != 0x7f) {
		i++
	}
	if i == len(data) {
		return data
	}
	out := make([]byte, 0, len(data)+16)
	out = append(out, data[:i]...)
	for i < len(data) {
		r, w := utf8.DecodeRune(data[i:])
		// Below DEL, Unsafe runes are C0 controls: encoding/json has
		// escaped those inside strings, and outside them they are the
		// indentation's newlines.
		if r >= 0x7f && r != utf8.RuneError && Unsafe(r) {
			out = append(out, `\u`...)
			const hex = "0123456789abcdef"
			out = append(out, hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
		} else {
			out = append(out, data[i:i+w]...)
		}
		i += w
	}
	return out
}
