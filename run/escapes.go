package run

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
)

// unicodeEscapes writes a text's \uXXXX escapes of printable non-ASCII
// characters as the characters: Python's json.dumps escapes every
// non-ASCII character by default, so a tool's result it wrote names
// "San Sebasti\u00e1n" where the same result in UTF-8 names "San
// Sebastián", and later stages read names and words by their letters.
// Escapes of ASCII characters stay (the text may be JSON, whose quotes
// and backslashes they stand for), as do escapes of control and format
// characters (logs are untrusted: none may become terminal control or a
// hidden reordering), lone surrogates, and a \u whose backslash is itself
// escaped.
func unicodeEscapes(s string) string {
	i := strings.Index(s, `\u`)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	done := 0
	for ; i >= 0; i = nextEscape(s, i) {
		if backslashesBefore(s, i)%2 == 1 {
			continue // "\\u": an escaped backslash, then a u
		}
		r, n := escapedRune(s[i:])
		if n == 0 {
			continue
		}
		b.WriteString(s[done:i])
		b.WriteRune(r)
		done = i + n
		i = done - 1 // nextEscape searches from i+1
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// nextEscape returns the index of the next \u after i, or -1.
func nextEscape(s string, i int) int {
	j := strings.Index(s[i+1:], `\u`)
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// backslashesBefore counts the backslashes that run up to s[i].
func backslashesBefore(s string, i int) int {
	n := 0
	for i > 0 && s[i-1] == '\\' {
		n++
		i--
	}
	return n
}

// escapedRune reads the \uXXXX escape (or a surrogate pair of two) that s
// begins with, and returns the character and the bytes it took; 0 bytes
// when it is no escape to write as its character.
func escapedRune(s string) (rune, int) {
	r, ok := hex4(s)
	if !ok {
		return 0, 0
	}
	n := 6
	if utf16.IsSurrogate(r) {
		lo, ok := hex4(s[6:])
		if !ok {
			return 0, 0
		}
		if r = utf16.DecodeRune(r, lo); r == unicode.ReplacementChar {
			return 0, 0
		}
		n = 12
	}
	if r < 0x80 || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || !unicode.IsPrint(r) && !unicode.IsSpace(r) {
		return 0, 0
	}
	return r, n
}

// hex4 reads the \uXXXX escape s begins with.
func hex4(s string) (rune, bool) {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return 0, false
	}
	v, err := strconv.ParseUint(s[2:6], 16, 16)
	if err != nil {
		return 0, false
	}
	return rune(v), true
}
