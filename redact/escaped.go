package redact

import (
	"unicode/utf8"

	"github.com/offattr/offattr/internal/match"
)

// A secret is sometimes written escaped: URL-encoded in a query or a
// redirect (password%3DHunter2, jane%40example.com), with JSON's \u
// escapes and escaped slashes (jane\u0040example.com, a Slack webhook's
// hooks.slack.com\/services\/…), or as HTML's numeric character
// references (jane&#64;example.com). The escapes are decoded, every other rule
// reads the decoded text, and each of their matches is masked where it
// stands in the escaped text, escapes and all, with the placeholder its
// decoded value gets anywhere else.

// escapedLike is the cheap test: the text holds an escape of an ASCII
// character, a percent escape, a \u00XX escape or an escaped slash. The
// characters every secret's shape and label is made of are ASCII; a text
// whose escapes are all of other scripts (a Python repr of Chinese text,
// \u7684…) is not decoded.
func escapedLike(text string) bool {
	for i := 0; i+2 < len(text); i++ {
		switch text[i] {
		case '%':
			if isHex(text[i+1]) && text[i+1] < '8' && isHex(text[i+2]) {
				return true
			}
		case '\\':
			if text[i+1] == '/' || text[i+1] == 'u' && i+5 < len(text) && text[i+2] == '0' && text[i+3] == '0' && isHexString(text[i+4:i+6]) && text[i+4] < '8' {
				return true
			}
		case '&':
			if text[i+1] == '#' {
				if _, n := charRef([]rune(text[i:min(i+maxCharRef, len(text))])); n > 0 {
					return true
				}
			}
		}
	}
	return false
}

// maxCharRef is the longest numeric character reference of an ASCII
// character: &#x00007F; and the like are not written.
const maxCharRef = 8

// charRef reads an HTML numeric character reference of an ASCII character
// at the start of runes (&#64; or &#x40;), returning it and its length; 0
// when there is none.
func charRef(runes []rune) (rune, int) {
	if len(runes) < 4 || runes[0] != '&' || runes[1] != '#' {
		return 0, 0
	}
	i, base := 2, rune(10)
	if runes[i] == 'x' || runes[i] == 'X' {
		i, base = 3, 16
	}
	var v rune
	start := i
	for ; i < len(runes) && i < maxCharRef && runes[i] != ';'; i++ {
		d, ok := hexValue(runes[i : i+1])
		if !ok || d >= base {
			return 0, 0
		}
		v = v*base + d
	}
	if i == start || i >= len(runes) || runes[i] != ';' || v >= utf8.RuneSelf {
		return 0, 0
	}
	return v, i + 1
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func isHexString(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

func hexValue(runes []rune) (rune, bool) {
	var v rune
	for _, c := range runes {
		if c >= utf8.RuneSelf || !isHex(byte(c)) {
			return 0, false
		}
		v <<= 4
		switch {
		case c <= '9':
			v |= c - '0'
		case c >= 'a':
			v |= c - 'a' + 10
		default:
			v |= c - 'A' + 10
		}
	}
	return v, true
}

// unescape decodes the escapes in runes: %XX of an ASCII character, \uXXXX
// of a character that is not a surrogate, \/ (each after any run of
// backslashes, as JSON escaped twice writes them), and &#NN; or &#xNN; of an
// ASCII character. It returns the decoded
// runes and, for each of them and one past the end, the index in runes
// where it starts; ok is false when there was nothing to decode.
func unescape(runes []rune) (out []rune, at []int, ok bool) {
	out = make([]rune, 0, len(runes))
	at = make([]int, 0, len(runes)+1)
	for i := 0; i < len(runes); {
		c, n := runes[i], 1
		switch {
		case c == '%' && i+2 < len(runes):
			if v, hex := hexValue(runes[i+1 : i+3]); hex && v < utf8.RuneSelf {
				c, n = v, 3
			}
		case c == '\\':
			// JSON escaped again (a JSON text in a JSON string) writes
			// \\u0040 and \\/: a run of backslashes escapes as one.
			j := i
			for j < len(runes) && runes[j] == '\\' {
				j++
			}
			switch {
			case j < len(runes) && runes[j] == '/':
				c, n = '/', j+1-i
			case j+4 < len(runes) && runes[j] == 'u':
				if v, hex := hexValue(runes[j+1 : j+5]); hex && utf8.ValidRune(v) {
					c, n = v, j+5-i
				}
			}
		case c == '&':
			if v, m := charRef(runes[i:min(i+maxCharRef+1, len(runes))]); m > 0 {
				c, n = v, m
			}
		}
		ok = ok || n > 1
		out = append(out, c)
		at = append(at, i)
		i += n
	}
	at = append(at, len(runes))
	return out, at, ok
}

// escapedFinder returns the find function of the escaped-secret rule: what
// inner masks in the decoded text, as spans of the escaped text, each with
// its kind and its decoded value. Inner rules are read in order, as a pass
// runs them, and a later rule's match that overlaps an earlier one's is
// left to it. Only a match the escapes changed is kept (an escape inside
// it or in the label just before it): what has none is the plain rules'.
func escapedFinder(set *match.Set, inner []*rule) func([]rune) []hit {
	return func(runes []rune) []hit {
		dec, at, ok := unescape(runes)
		if !ok {
			return nil
		}
		t := set.Text(string(dec))
		var out []hit
		for _, ru := range inner {
			if !ru.mayMatch(t) {
				continue
			}
			var found []hit
			for _, h := range ru.hits(t) {
				start, end := at[h.start], at[h.end]
				if !escapedNear(at, h.span) {
					continue
				}
				k := h.kind
				if k == "" {
					k = ru.kind
				}
				value := h.value
				if value == "" {
					value = string(dec[h.start:h.end])
				}
				found = append(found, hit{span: span{start, end}, learn: h.learn, kind: k, value: value})
			}
			out = addFree(out, found)
		}
		return out
	}
}

// labelReach is how far before a match an escape can have made it: the
// label and separator of an assigned value (password%3D…).
const labelReach = 32

// escapedNear reports whether a decoded span, or the labelReach runes
// before it, came from an escape.
func escapedNear(at []int, sp span) bool {
	from := max(sp.start-labelReach, 0)
	for i := from; i < sp.end; i++ {
		if at[i+1]-at[i] > 1 {
			return true
		}
	}
	return false
}

// addFree adds to held, in order and apart, the hits of found that overlap
// none of them: the earlier rule keeps what it found. Both are in order of
// their starts, so one sweep does.
func addFree(held, found []hit) []hit {
	out := make([]hit, 0, len(held)+len(found))
	i := 0
	for _, h := range found {
		for i < len(held) && held[i].start < h.start {
			out = append(out, held[i])
			i++
		}
		if len(out) > 0 && out[len(out)-1].end > h.start || i < len(held) && held[i].start < h.end {
			continue
		}
		out = append(out, h)
	}
	return append(out, held[i:]...)
}
