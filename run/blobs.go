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
// (the URL's head with it), or else a run of at least minBlob base64
// characters holding upper- and lower-case letters and digits.
func withoutBlobs(s string) string {
	if len(s) < minBlob {
		return s
	}
	var b strings.Builder
	done := 0 // s[done:i] is text not yet written to b
	for i := 0; i < len(s); {
		if !isBase64(s[i]) {
			i++
			continue
		}
		j := i
		var upper, lower, digit bool
		for j < len(s) && isBase64(s[j]) {
			c := s[j]
			upper = upper || c >= 'A' && c <= 'Z'
			lower = lower || c >= 'a' && c <= 'z'
			digit = digit || c >= '0' && c <= '9'
			j++
		}
		for j < len(s) && s[j] == '=' {
			j++
		}
		if j-i < minBlob || !upper || !lower || !digit {
			i = j
			continue
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

// isBase64 reports whether c is a character of base64's alphabet, the
// padding aside.
func isBase64(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/'
}
