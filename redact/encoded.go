package redact

import (
	"encoding/base64"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/offattr/offattr/internal/match"
)

// A secret is sometimes written base64-encoded: an Authorization header's
// credentials, a config blob, a Kubernetes secret (cGFzc3dvcmQ9… is
// "password=…"). A run of base64 is decoded, and masked whole when the
// decoded text is readable and one of the other rules would mask
// something in it, or when it is a user and password (user:pass, as
// basic authentication writes them, with or without its header). Decoded text is not decoded again.

// minEncoded is the shortest run of base64 that is decoded: nine bytes,
// as in "pwd=x1234".
const minEncoded = 12

func isBase64Byte(c byte) bool {
	return isAlnum(c) || c == '+' || c == '/' || c == '-' || c == '_'
}

// base64Like is a hint: a run of minEncoded base64 characters.
func base64Like(text string) bool {
	n := 0
	for i := 0; i < len(text); i++ {
		if !isBase64Byte(text[i]) {
			n = 0
			continue
		}
		if n++; n >= minEncoded {
			return true
		}
	}
	return false
}

// encodedFinder returns the find function of the encoded-secret rule:
// the runs of base64 whose decoded text one of inner would mask.
func encodedFinder(set *match.Set, inner []*rule) func([]rune) []span {
	return func(runes []rune) []span {
		var out []span
		for i := 0; i < len(runes); {
			if runes[i] >= utf8.RuneSelf || !isBase64Byte(byte(runes[i])) {
				i++
				continue
			}
			j := i
			for j < len(runes) && runes[j] < utf8.RuneSelf && isBase64Byte(byte(runes[j])) {
				j++
			}
			end := j
			for k := 0; k < 2 && end < len(runes) && runes[end] == '='; k++ {
				end++
			}
			if j-i >= minEncoded && encodesSecret(set, string(runes[i:j]), inner) {
				out = append(out, span{i, end})
			}
			i = end
			if i == j {
				i++
			}
		}
		return out
	}
}

// encodesSecret reports whether run, base64 without its padding, decodes
// to readable text that one of inner would mask.
func encodesSecret(set *match.Set, run string, inner []*rule) bool {
	enc := base64.RawStdEncoding
	if strings.ContainsAny(run, "-_") {
		enc = base64.RawURLEncoding
	}
	if len(run)%4 == 1 {
		run = run[:len(run)-1]
	}
	raw, err := enc.DecodeString(run)
	if err != nil || !readable(raw) {
		return false
	}
	if credentials(string(raw)) {
		return true
	}
	t := set.Text(string(raw))
	for _, ru := range inner {
		if !ru.mayMatch(t) {
			continue
		}
		if hits := ru.hits(t); len(hits) > 0 {
			return true
		}
	}
	return false
}

// credentials reports decoded text that is a user and a password joined
// by a colon, as HTTP basic authentication encodes them: a user name of
// letters, digits and . _ @ + - with a letter among them, and a password
// of 3–128 characters without blanks that is not the rest of a URL.
func credentials(s string) bool {
	user, pass, ok := strings.Cut(s, ":")
	if !ok || user == "" || len(user) > 64 || len(pass) < 3 || len(pass) > 128 || strings.HasPrefix(pass, "//") {
		return false
	}
	letter := false
	for i := 0; i < len(user); i++ {
		c := user[i]
		switch {
		case isLetter(c):
			letter = true
		case isDigit(c) || strings.IndexByte("._@+-", c) >= 0:
		default:
			return false
		}
	}
	for _, r := range pass {
		if unicode.IsSpace(r) {
			return false
		}
	}
	return letter
}

// readable reports text of printable runes, tabs and line ends.
func readable(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for _, r := range string(b) {
		if !unicode.IsPrint(r) && r != '\n' && r != '\r' && r != '\t' {
			return false
		}
	}
	return true
}
