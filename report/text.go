package report

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/offattr/offattr/internal/escape"
)

// clean makes log text fit to show: invalid UTF-8 becomes U+FFFD, line
// endings become "\n", and every control character but tab and newline is
// shown as a visible mark instead of acting. A C0 control shows as its
// Unicode control picture (ESC as ␛), so a terminal colour code reads as
// "␛[31m"; the other characters escape.Unsafe names (C1 controls, those
// that override or isolate text direction, the invisible ones and the line
// separators) show as "[U+202E]", so a log cannot reorder or hide what the
// page shows (the "Trojan Source" trick). Escaping for HTML comes after,
// in the templates.
func clean(s string) string {
	if !needsCleaning(s) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n':
			b.WriteRune(r)
		case r < 0x20:
			b.WriteRune(0x2400 + r) // ␀…␟
		case r == 0x7f:
			b.WriteRune('\u2421') // ␡
		case r >= 0x80 && escape.Unsafe(r):
			fmt.Fprintf(&b, "[U+%04X]", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// needsCleaning is the fast path: most log text is plain.
func needsCleaning(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || escape.Unsafe(r) {
			return true
		}
		i += size
	}
	return false
}

// excerpt returns the first n runes of s (already cleaned), cut at the last
// space before the limit when there is one not too far back, with "…" when
// anything was cut.
func excerpt(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut := 0
	for i := range s {
		if n == 0 {
			cut = i
			break
		}
		n--
	}
	head := s[:cut]
	if sp := strings.LastIndexAny(head, " \n\t"); sp > len(head)*3/4 {
		head = head[:sp]
	}
	return strings.TrimRight(head, " \n\t") + "…"
}
