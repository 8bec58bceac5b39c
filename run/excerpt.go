package run

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxText is the longest text a run keeps whole: a step's content, a tool
// call's arguments, the question. A longer one (a 200 MB page dump in one
// message) keeps its head and its tail. Every stage reads a step many
// times over, in copies (lower case, per-rune indexes, regexp2's runes,
// redaction) that cost tens of bytes for each byte of text: bounding the
// text where it enters bounds all of them, and the start of a message
// (what it is, the command and its first output) and its end (the error,
// the result) are where the evidence is. No Who&When or tau-bench step
// comes near it (the longest is 88 KB).
const MaxText = 1 << 20

// excerptHead is how much of MaxText goes to the head; the tail has the rest.
const excerptHead = MaxText * 3 / 4

// Excerpt returns s whole when it is at most MaxText bytes; otherwise its
// first and last bytes (three quarters and a quarter of MaxText, cut at
// line breaks near the cut when there are any, else at rune boundaries),
// with a line between them that says how much was left out.
func Excerpt(s string) string {
	if len(s) <= MaxText {
		return s
	}
	head := s[:cutBefore(s, excerptHead)]
	tail := s[cutAfter(s, len(s)-(MaxText-excerptHead)):]
	var b strings.Builder
	b.Grow(len(head) + len(tail) + 96)
	b.WriteString(head)
	fmt.Fprintf(&b, "\n[… offattr left out %s of this %s text here …]\n", FormatSize(int64(len(s)-len(head)-len(tail))), FormatSize(int64(len(s))))
	b.WriteString(tail)
	return b.String()
}

// lineSlack is how far from a cut a line break is looked for.
const lineSlack = 4 << 10

// cutBefore is an end for s[:end] at or before i: just after a line break
// within lineSlack of i, else at a rune boundary.
func cutBefore(s string, i int) int {
	if j := strings.LastIndexByte(s[i-lineSlack:i], '\n'); j >= 0 {
		return i - lineSlack + j + 1
	}
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// cutAfter is a start for s[start:] at or after i: just after a line break
// within lineSlack of i, else at a rune boundary.
func cutAfter(s string, i int) int {
	if j := strings.IndexByte(s[i:i+lineSlack], '\n'); j >= 0 {
		return i + j + 1
	}
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return i
}

// excerptStep bounds every text of a step, its encoded files written as
// placeholders first (withoutBlobs): the bound is then spent on text.
func excerptStep(s *Step) {
	s.Content = Excerpt(withoutBlobs(s.Content))
	for i := range s.ToolCalls() {
		s.ToolCalls()[i].Arguments = Excerpt(withoutBlobs(s.ToolCalls()[i].Arguments))
	}
}

// excerptRaw is how long a raw string must be before it is cut raw:
// beyond MaxText with room, so that escapes (which shrink when decoded)
// never bring a cut text under MaxText.
const excerptRaw = 4 * MaxText

// excerptRawString returns a message's raw JSON value (its content, a
// call's arguments) as it is, except that a JSON string far over MaxText
// is cut to its head and tail before it is decoded: decoding it whole
// would copy it only for Excerpt to drop the middle. A 200 MB message
// then costs the file's bytes and little more.
func excerptRawString(data []byte) []byte {
	if len(data) > excerptRaw && data[0] == '"' {
		if cut, ok := excerptJSONString(data); ok {
			return cut
		}
	}
	return data
}

// excerptJSONString cuts the JSON string literal s (quotes included) to a
// literal of its head and tail with the left-out line between, as Excerpt
// does to decoded text. Cuts fall just after a plain ASCII byte that no
// escape sequence can contain (a space, a comma, most letters), so no
// escape or multi-byte rune is split; ok is false for a string with no
// such byte near a cut, which is then decoded whole.
func excerptJSONString(s []byte) (cut []byte, ok bool) {
	body := s[1 : len(s)-1]
	// A little short of Excerpt's sizes, so that the decoded cut, its note
	// included, is within MaxText and Excerpt leaves it as it is.
	head := safeCut(body, excerptHead-lineSlack, -1)
	tail := safeCut(body, len(body)-(MaxText-excerptHead-lineSlack), +1)
	if head < 0 || tail < 0 || tail <= head {
		return nil, false
	}
	note := fmt.Sprintf(`\n[… offattr left out about %s of this %s text here …]\n`,
		FormatSize(int64(tail-head)), FormatSize(int64(len(body))))
	cut = make([]byte, 0, head+len(note)+len(body)-tail+2)
	cut = append(cut, '"')
	cut = append(cut, body[:head]...)
	cut = append(cut, note...)
	cut = append(cut, body[tail:]...)
	return append(cut, '"'), true
}

// safeCut looks from i in direction dir (-1 back, +1 on), within
// lineSlack, for a byte after which a JSON string's body may be cut, and
// returns the offset just after it, or -1.
func safeCut(body []byte, i, dir int) int {
	for n := 0; n < lineSlack && i > 0 && i < len(body); n, i = n+1, i+dir {
		if c := body[i-1]; c < utf8.RuneSelf && !strings.ContainsRune(`\"/0123456789abcdefABCDEFnrtu`, rune(c)) {
			return i
		}
	}
	return -1
}
