package redact

import "strings"

// Hand-written hints for the patterns whose anchors are common characters
// (':', '=', '@'): a loop over those characters is far cheaper than any
// regular expression over the whole text.

// assignedKey is a hint: some ':' or '=' follows one of the key words
// (lower-case), allowing a closing quote and spaces between.
func assignedKey(words ...string) func(string) bool {
	return func(text string) bool {
		for i := 0; i < len(text); i++ {
			if text[i] != ':' && text[i] != '=' {
				continue
			}
			j := i
			for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
				j--
			}
			if j > 0 && (text[j-1] == '"' || text[j-1] == '\'') {
				j--
			}
			for _, w := range words {
				if j >= len(w) && strings.EqualFold(text[j-len(w):j], w) {
					return true
				}
			}
		}
		return false
	}
}

// emailLike is a hint: an '@' between an address character and a domain
// with a dot.
func emailLike(text string) bool {
	for i := strings.IndexByte(text, '@'); i >= 0; {
		if i > 0 && isLocalChar(text[i-1]) {
			rest := text[i+1:]
			end := 0
			for end < len(rest) && (isAlnum(rest[end]) || rest[end] == '-' || rest[end] == '.') {
				end++
			}
			if d := strings.IndexByte(rest[:end], '.'); d > 0 && d < end-1 {
				return true
			}
		}
		next := strings.IndexByte(text[i+1:], '@')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

// ipv6Like is a hint: a hex digit before "::" or two colons a group apart.
func ipv6Like(text string) bool {
	for i := strings.IndexByte(text, ':'); i >= 0; {
		rest := text[i+1:]
		j := 0
		for j < len(rest) && j < 4 && isHex(rest[j]) {
			j++
		}
		if j < len(rest) && rest[j] == ':' && (j > 0 || (i > 0 && isHex(text[i-1])) || (j+1 < len(rest) && isHex(rest[j+1]))) {
			return true
		}
		next := strings.IndexByte(rest, ':')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isLocalChar(c byte) bool {
	return isAlnum(c) || c == '_' || c == '%' || c == '+' || c == '-'
}
