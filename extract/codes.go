package extract

import (
	"slices"
	"strings"
)

// codes returns the reference codes a text writes, in the order written,
// each once: capital letters, a hyphen and digits as one token
// ("INC-48213", "LT-5521", "L-90177"), the shape help desks, trackers
// and inventories give their tickets, issues and assets, and the ids
// payment and event APIs give their objects ("ch_7790", prefixedID). A code is
// printed by the system that made it; an agent that tells one that no
// tool printed has made it up.
func codes(s string) []string {
	var out []string
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	}) {
		if (isCode(tok) || prefixedID(tok)) && !slices.Contains(out, tok) {
			out = append(out, tok)
		}
	}
	return out
}

// isCode reports whether tok is one to six capital letters, a hyphen and
// three or more digits.
func isCode(tok string) bool {
	head, tail, ok := strings.Cut(tok, "-")
	if !ok || head == "" || len(head) > 6 || len(tail) < 3 || strings.Trim(head, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return false
	}
	return isDigits(tail)
}
