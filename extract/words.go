package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// collapse joins the fields of s with single spaces.
func collapse(s string) string {
	if collapsed(s) {
		return s // most names and quotes: no copy
	}
	return strings.Join(strings.Fields(s), " ")
}

// collapsed reports an ASCII s that collapse leaves as it is: no blank at
// either end, and none between words but a single space. A text that is
// not ASCII may hold other spaces; it is not looked at.
func collapsed(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := range len(s) {
		switch c := s[i]; {
		case c >= utf8.RuneSelf, c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return false
		case c == ' ' && s[i+1] == ' ': // not the last byte, which is no space
			return false
		}
	}
	return true
}

// capWords keeps at most n words of s, marking a cut with "...".
func capWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) <= n {
		return strings.Join(f, " ")
	}
	return strings.Join(f[:n], " ") + "..."
}

// clip shortens s to at most n bytes on a rune boundary, marking a cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// lineBounds returns the start and end of the line of s that holds byte i.
func lineBounds(s string, i int) (start, end int) {
	start = strings.LastIndexByte(s[:i], '\n') + 1
	end = strings.IndexByte(s[i:], '\n')
	if end < 0 {
		return start, len(s)
	}
	return start, end + i
}

// lineAround returns the trimmed line of s that holds byte offset i, clipped
// to max bytes around i so that a long line still quotes what matched.
func lineAround(s string, i, limit int) string {
	start, end := lineBounds(s, i)
	line := s[start:end]
	if len(strings.TrimSpace(line)) <= limit {
		return strings.TrimSpace(line)
	}
	from := max(i-start-limit/3, 0)
	for from > 0 && !utf8.RuneStart(line[from]) {
		from--
	}
	return clip(strings.TrimSpace(line[from:]), limit)
}

// firstSentence is ECHO's fallback: the first sentence with some content,
// skipping code fences, markdown rules and lines made only of punctuation.
// A sentence ends at ". ", "!", "?" or a line end; decimals do not end it.
func firstSentence(s string) string {
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		line = strings.TrimLeft(line, "#>*-+ \t")
		if !hasLetters(line) || strings.HasPrefix(line, "```") {
			continue
		}
		return sentenceHead(line)
	}
	return ""
}

func sentenceHead(line string) string {
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '!', '?':
			return line[:i+1]
		case '.':
			if i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t' {
				return line[:i+1]
			}
		}
	}
	return line
}

func hasLetters(s string) bool {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
			if n >= 2 {
				return true
			}
		}
	}
	return false
}
