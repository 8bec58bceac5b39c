package extract

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// markupTags are the spans of bare markup tags a text writes (<INFO>,
// </Comment>, <br/>): markers a framework's protocol puts around what
// an agent says, no value the agent states.
func markupTags(s string) []span {
	var out []span
	for i := 0; i < len(s) && len(out) < maxMatches; i++ {
		if s[i] != '<' {
			continue
		}
		j := i + 1
		if j < len(s) && s[j] == '/' {
			j++
		}
		start := j
		for j < len(s) && j-start <= 30 && (isASCIILetter(s[j]) || j > start && (s[j] >= '0' && s[j] <= '9' || s[j] == '_' || s[j] == '-')) {
			j++
		}
		if j < len(s) && s[j] == '/' {
			j++
		}
		if j > start && j < len(s) && s[j] == '>' && isASCIILetter(s[start]) {
			out = append(out, span{Start: i, End: j + 1, OK: true})
			i = j
		}
	}
	return out
}

func isASCIILetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// minOffered is the fewest names a list holds to be read as choices.
const minOffered = 4

// offeredChoices are the spans of lists of names a text offers to choose
// from and then asks which to take ("… in the following forms: Image,
// Document, Website, Application. Which do you think we should take?"):
// each a run of at least minOffered comma-separated names of one to three
// capitalised words, in a clause a question asking "which" follows. The
// names are the choices offered, no values the text states.
func offeredChoices(s string) []span {
	if !strings.Contains(s, "?") {
		return nil
	}
	var out []span
	for start := 0; start < len(s); {
		end := strings.IndexAny(s[start:], ".:;?!\n")
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		if from, to, ok := nameList(s, start, end); ok && asksWhich(s[to:]) {
			out = append(out, span{Start: from, End: to, OK: true})
		}
		start = end + 1
	}
	return out
}

// nameList finds, in the clause s[start:end], the comma-separated run of
// names (a lead-in before the first may be set aside) and returns its
// bounds when it holds at least minOffered names.
func nameList(s string, start, end int) (int, int, bool) {
	parts := strings.Split(s[start:end], ",")
	if len(parts) < minOffered {
		return 0, 0, false
	}
	off := start
	from, n := -1, 0
	for k, p := range parts {
		item := strings.TrimSpace(p)
		if k == len(parts)-1 {
			item = strings.TrimPrefix(strings.TrimPrefix(item, "and "), "or ")
		}
		if capitalisedName(item) {
			if from < 0 {
				from = off + strings.Index(p, strings.TrimSpace(p))
			}
			n++
		} else if k > 0 {
			return 0, 0, false
		}
		off += len(p) + 1
	}
	if n < minOffered {
		return 0, 0, false
	}
	return from, end, true
}

// capitalisedName reports whether item is one to three words, each
// beginning with a capital letter.
func capitalisedName(item string) bool {
	words := strings.Fields(item)
	if len(words) == 0 || len(words) > 3 {
		return false
	}
	for _, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) || len(w) > 24 {
			return false
		}
	}
	return true
}

// asksWhich reports whether the next sentence of rest asks a question
// with "which".
func asksWhich(rest string) bool {
	q := strings.IndexByte(rest, '?')
	if q < 0 {
		return false
	}
	s := strings.ToLower(rest[:q])
	if k := strings.LastIndexAny(s, ".!\n"); k >= 0 && k+1 < len(s) {
		s = s[k+1:]
	}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if w == "which" {
			return true
		}
	}
	return false
}

// offeredClaims are the norms of the claims, read from s, that stand in a list
// of choices s offers (offeredChoices).
func offeredClaims(s string, claims []Claim) []string {
	var out []string
	for _, sp := range offeredChoices(s) {
		for _, c := range claims {
			if int(c.Offset) >= sp.Start && int(c.Offset) < sp.End && !slices.Contains(out, c.Norm) {
				out = append(out, c.Norm)
			}
		}
	}
	return out
}

// flagTokens returns the spans of the flags a capture-the-flag task's
// outputs and answers hold (picoCTF{s4lt3d_435}, HTB{...}, flag{...}):
// a short prefix of letters and digits, then a brace and a body of no
// spaces with an underscore in it, closed. It is one value: its prefix is
// no name, nor are the figures in its body numbers. A brace after a
// backslash is markup (\text{a_b}), not a flag.
func flagTokens(s string) []span {
	var out []span
	for i := 0; i < len(s) && len(out) < maxMatches; i++ {
		if s[i] != '{' {
			continue
		}
		start := i
		for start > 0 && i-start < 16 && (isASCIILetter(s[start-1]) || isDigit(s[start-1])) {
			start--
		}
		if i-start < 2 || !isASCIILetter(s[start]) || start > 0 && (s[start-1] == '\\' || s[start-1] == '_' || s[start-1] == '$') {
			continue
		}
		j, underscore := i+1, false
		for j < len(s) && j-i <= 200 && flagByte(s[j]) {
			underscore = underscore || s[j] == '_'
			j++
		}
		if j < len(s) && s[j] == '}' && j-i > 4 && underscore {
			out = append(out, span{Start: start, End: j + 1, OK: true})
			i = j
		}
	}
	return out
}

// flagByte reports whether b may stand in a flag's body.
func flagByte(b byte) bool {
	return isASCIILetter(b) || isDigit(b) || strings.IndexByte("_-!@#$%^&*.?+=", b) >= 0
}
