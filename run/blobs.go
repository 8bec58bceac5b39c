package run

import "strings"

// minBlob is the shortest run of base64 characters read as a blob: longer
// than any word, id, hash or key a log writes (a SHA-256 in hex is 64),
// far shorter than any image.
const minBlob = 256

// blobText is what a blob is written as: the text says an encoded file
// was there, and holds no value of it.
const blobText = "[base64 data]"

// withoutBlobs returns s with the files it holds encoded in base64 (a
// screenshot a tool returns in a field, an image a message embeds as a
// data URL, "data:image/png;base64,iVBOR…") written as blobText: they
// are bytes of an image or a file, no words, values, ids or claims, and
// no stage reads, quotes or keeps them. A blob is a data URL's payload
// (the URL's head with it), or else a run of at least minBlob characters
// of one of base64's alphabets (the standard one, or the URL-safe one
// with '-' and '_') holding upper- and lower-case letters and digits.
func withoutBlobs(s string) string {
	if len(s) < minBlob {
		return s
	}
	var b strings.Builder
	done := 0 // s[done:i] is text not yet written to b
	// A run that is no blob has none inside it: past its start, each
	// alphabet is read again only where its last run ended.
	stdEnd, urlEnd := 0, 0
	for i := 0; i < len(s); {
		j, blob := 0, false
		if i >= stdEnd && base64Chars[s[i]] {
			if j, blob = blobRun(s, i, &base64Chars); !blob {
				stdEnd = j
			}
		}
		if !blob && i >= urlEnd && urlBase64Chars[s[i]] {
			if j, blob = blobRun(s, i, &urlBase64Chars); !blob {
				urlEnd = j
			}
		}
		if !blob {
			i++
			if i < stdEnd && i < urlEnd {
				i = min(stdEnd, urlEnd)
			}
			continue
		}
		for j < len(s) && s[j] == '=' {
			j++
		}
		start := i
		if k := strings.LastIndex(s[done:i], "data:"); k >= 0 && strings.HasSuffix(s[:i], ";base64,") && !strings.ContainsAny(s[done+k:i], " \t\n\"'") {
			start = done + k // the data URL's head: "data:image/png;base64,"
		}
		if b.Cap() == 0 {
			b.Grow(len(s) / 2)
		}
		b.WriteString(s[done:start])
		b.WriteString(blobText)
		done, i = j, j
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// blobRun returns the end of the run of characters of an alphabet (in)
// that begins at i, and whether it is a blob: at least minBlob of them,
// with upper- and lower-case letters and digits. In the URL-safe
// alphabet, whose '-' and '_' also join words ("parse_value-2"), a blob
// has no more of them than one in twelve: encoded bytes have one in
// thirty-two, words joined one in a handful.
func blobRun(s string, i int, in *[256]bool) (int, bool) {
	j := i
	var upper, lower, digit bool
	joins := 0
	for j < len(s) && in[s[j]] {
		c := s[j]
		upper = upper || c >= 'A' && c <= 'Z'
		lower = lower || c >= 'a' && c <= 'z'
		digit = digit || c >= '0' && c <= '9'
		if c == '-' || c == '_' {
			joins++
		}
		j++
	}
	return j, j-i >= minBlob && upper && lower && digit && joins*12 <= j-i
}

// base64Chars and urlBase64Chars are the characters of base64's standard
// and URL-safe alphabets, the padding aside.
var base64Chars, urlBase64Chars = alphabet("+/"), alphabet("-_")

// alphabet is the set of ASCII letters and digits and the bytes of more.
func alphabet(more string) [256]bool {
	var a [256]bool
	for c := range 256 {
		a[c] = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte(more, byte(c)) >= 0
	}
	return a
}
