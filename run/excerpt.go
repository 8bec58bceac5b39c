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

// excerptStep bounds every text of a step.
func excerptStep(s *Step) {
	s.Content = Excerpt(s.Content)
	for i := range s.ToolCalls {
		s.ToolCalls[i].Arguments = Excerpt(s.ToolCalls[i].Arguments)
	}
}
