package redact

import "strings"

// span is a half-open range of rune indices.
type span struct{ start, end int }

// placeholderSpans finds the placeholders ([KIND_N]) in runes.
func placeholderSpans(runes []rune) []span {
	var out []span
	for i := 0; i < len(runes); i++ {
		if runes[i] != '[' {
			continue
		}
		if n := placeholderLen(runes[i:]); n > 0 {
			out = append(out, span{i, i + n})
			i += n - 1
		}
	}
	return out
}

// placeholderLen returns the length of the placeholder at the start of
// runes, or 0. The grammar is [A-Z]+(_[A-Z]+)*_[0-9]+ between brackets.
func placeholderLen(runes []rune) int {
	if len(runes) < 5 || runes[0] != '[' {
		return 0
	}
	i := 1
	for {
		start := i
		for i < len(runes) && runes[i] >= 'A' && runes[i] <= 'Z' {
			i++
		}
		if i == start || i >= len(runes) || runes[i] != '_' {
			return 0
		}
		i++
		if i < len(runes) && runes[i] >= '0' && runes[i] <= '9' {
			break
		}
	}
	for i < len(runes) && runes[i] >= '0' && runes[i] <= '9' {
		i++
	}
	if i < len(runes) && runes[i] == ']' {
		return i + 1
	}
	return 0
}

func isPlaceholder(s string) bool {
	r := []rune(s)
	return len(r) > 0 && placeholderLen(r) == len(r)
}

// outsidePlaceholders applies f to the text between placeholders.
func outsidePlaceholders(s string, f func(string) string) string {
	runes := []rune(s)
	spans := placeholderSpans(runes)
	if len(spans) == 0 {
		return f(s)
	}
	var b strings.Builder
	prev := 0
	for _, sp := range spans {
		b.WriteString(f(string(runes[prev:sp.start])))
		b.WriteString(string(runes[sp.start:sp.end]))
		prev = sp.end
	}
	b.WriteString(f(string(runes[prev:])))
	return b.String()
}
