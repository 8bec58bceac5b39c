package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quick matches for the two patterns that match most often. numberRe's
// plain cases (digits, a fraction, no unit) are told in Go with the groups
// regexp2 would report, the rest left to regexp2; entityRe is matched in Go
// by a backtracking search that tries the same paths in the same order as
// regexp2. TestStartsAreComplete checks both against regexp2's scan.

var (
	numberGroups = numberRe.GetGroupNames()
	numberNum    = groupIndex(numberGroups, "num")
	numberFrac   = groupIndex(numberGroups, "frac")
	entityGroups = entityRe.GetGroupNames()
)

func groupIndex(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	panic("extract: no group " + name)
}

func asciiDigit(r rune) bool { return r >= '0' && r <= '9' }

// quickNumber reads at rune i (a digit) at most 20 ASCII digits and an
// optional fraction of at most 12, when no thousands group, Unicode digit,
// "%" or word that a multiplier or unit begins with (past at most two
// blanks) follows; that is numberRe's whole match, with no sign, currency,
// multiplier or unit. Otherwise it returns -1.
func quickNumber(t *text, i int) (match, int) {
	r := t.runes
	j := i
	for j < len(r) && asciiDigit(r[j]) {
		j++
	}
	if j == i || j-i > 20 {
		return match{}, -1
	}
	end := j
	if j < len(r) {
		switch c := r[j]; {
		case c >= utf8.RuneSelf:
			return match{}, -1 // a Unicode digit would continue the number
		case c == ',' && j-i <= 3 && j+1 < len(r) && digit(r[j+1]):
			return match{}, -1 // thousands groups
		case c == '.' && j+1 < len(r) && digit(r[j+1]):
			end = j + 1
			for end < len(r) && end-j <= 12 && asciiDigit(r[end]) {
				end++
			}
			if end-j == 1 || end < len(r) && r[end] >= utf8.RuneSelf {
				return match{}, -1
			}
		}
	}
	k := end
	for n := 0; n < 2 && k < len(r) && unicode.IsSpace(r[k]); n++ {
		k++
	}
	if k < len(r) && (r[k] >= utf8.RuneSelf || r[k] == '%' || unitWords[asciiWordAt(r, k)]) {
		return match{}, -1 // a multiplier or a unit may follow
	}
	groups := make([]span, len(numberGroups))
	groups[0] = span{t.off[i], t.off[end], true}
	groups[numberNum] = span{t.off[i], t.off[j], true}
	if end > j {
		groups[numberFrac] = span{t.off[j], t.off[end], true}
	}
	return match{groups: groups, names: numberGroups}, end
}

// unitWords are the words, in lower case, with which numberRe's multiplier
// and unit alternatives begin ("per" for "per cent"); a number followed by
// one of them is left to regexp2.
var unitWords = toSet(`thousand million billion trillion bn mn k m b percent per pct km kilometer kilometers
kilometre kilometres mile miles mi meter meters metre metres ft feet foot kg kilogram kilograms lb lbs degree
degrees minute minutes min mins hour hours hr hrs h second seconds sec secs s day days week weeks month months
year years yr yrs mph kb mb gb tb usd eur dollar dollars euro euros`)

// asciiWordAt returns the run of ASCII letters at rune k, in lower case.
func asciiWordAt(r []rune, k int) string {
	var b strings.Builder
	for ; k < len(r) && (r[k] >= 'a' && r[k] <= 'z' || r[k] >= 'A' && r[k] <= 'Z'); k++ {
		b.WriteRune(unicode.ToLower(r[k]))
	}
	return b.String()
}

// quickEntity matches entityRe at rune i, whose look-behind entityAt has
// checked:
//
//	T (?: (?:B conn B | B) T ){0,6} (?![\p{L}\p{Nd}_])
//	T = \p{Lu}[\p{L}\p{Nd}'’&-]{0,40}   B = [ \t]{1,2}
//
// trying, as regexp2 does, the longest token first, another word before
// stopping, the connector form before the plain blank, two blanks before
// one, and the connectors in the pattern's order. A search that runs long
// is left to regexp2.
func quickEntity(t *text, i int) (match, int) {
	e := entitySearch{r: t.runes, budget: 10000}
	end := e.token(i, 0)
	if e.budget < 0 {
		return match{}, -1
	}
	if end < 0 {
		return match{}, -2 // no match here: the caller goes on
	}
	return match{groups: []span{{t.off[i], t.off[end], true}}, names: entityGroups}, end
}

type entitySearch struct {
	r      []rune
	budget int // paths left to try
}

// entityConnectors are entityRe's connecting words, in its order.
var entityConnectors = strings.Fields("of the de du del della la le von van der den da di y &")

func entityTokenRune(c rune) bool {
	return letter(c) || digit(c) || c == '\'' || c == '’' || c == '&' || c == '-'
}

// token matches T at p and what follows; it returns the match end or -1.
func (e *entitySearch) token(p, words int) int {
	if p >= len(e.r) || !upperLetter(e.r[p]) {
		return -1
	}
	n := 0
	for n < 40 && p+1+n < len(e.r) && entityTokenRune(e.r[p+1+n]) {
		n++
	}
	for ; n >= 0; n-- {
		if e.budget--; e.budget < 0 {
			return -1
		}
		if end := e.more(p+1+n, words+1); end >= 0 {
			return end
		}
	}
	return -1
}

// more matches, after a token that ends at q and is the words-th, another
// word (at most six after the first) or the end.
func (e *entitySearch) more(q, words int) int {
	if words <= 6 {
		for _, b1 := range e.blanks(q) {
			for _, c := range entityConnectors {
				if !e.has(q+b1, c) {
					continue
				}
				for _, b2 := range e.blanks(q + b1 + len(c)) {
					if end := e.token(q+b1+len(c)+b2, words); end >= 0 {
						return end
					}
				}
			}
		}
		for _, b := range e.blanks(q) {
			if end := e.token(q+b, words); end >= 0 {
				return end
			}
		}
	}
	if q < len(e.r) && (letter(e.r[q]) || digit(e.r[q]) || e.r[q] == '_') {
		return -1
	}
	return q
}

// blanks returns how many blanks [ \t]{1,2} can take at q, most first.
func (e *entitySearch) blanks(q int) []int {
	blank := func(k int) bool { return k < len(e.r) && (e.r[k] == ' ' || e.r[k] == '\t') }
	switch {
	case blank(q) && blank(q+1):
		return []int{2, 1}
	case blank(q):
		return []int{1}
	}
	return nil
}

// has reports whether the ASCII word w stands at q.
func (e *entitySearch) has(q int, w string) bool {
	if q+len(w) > len(e.r) {
		return false
	}
	for k := 0; k < len(w); k++ {
		if e.r[q+k] != rune(w[k]) {
			return false
		}
	}
	return true
}
