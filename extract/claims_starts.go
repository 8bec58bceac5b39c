package extract

import (
	"strings"
	"unicode"
)

// Where the claim patterns (claims_patterns.go) can begin, and the quote
// read without regexp2: each at function reproduces its pattern's
// look-behind and first characters exactly (see starts.go).

// numberAt: numberRe's look-behind holds and a number can begin: a digit;
// a "-" that a digit or a currency follows; a currency symbol ("\\$" too)
// that a digit follows, maybe after one blank (codes such as "USD" are
// words of the start).
func numberAt(t *text, i int) bool {
	switch p := t.prev(i); {
	case wordChar(p), p == '.', p == ',', p == '/', p == '#', p == ':', p == '@':
		return false
	}
	r := t.runes
	at := func(k int) rune {
		if k < len(r) {
			return r[k]
		}
		return -1
	}
	// digitAfter: a digit at k, or a blank at k and a digit after it.
	digitAfter := func(k int) bool { return digit(at(k)) || unicode.IsSpace(at(k)) && digit(at(k+1)) }
	switch r[i] {
	case '-':
		return digit(at(i+1)) || strings.ContainsRune(`$\€£¥`, at(i+1))
	case '\\':
		return at(i+1) == '$' && digitAfter(i+2)
	case '$', '€', '£', '¥':
		return digitAfter(i + 1)
	}
	return digit(r[i])
}

// entityAt: an upper-case letter that entityRe's look-behind allows.
func entityAt(t *text, i int) bool {
	if !upperLetter(t.runes[i]) {
		return false
	}
	switch p := t.prev(i); {
	case p < 0:
		return true
	case letter(p), digit(p), p == '_', p == '\'', p == '’', p == '&', p == '.', p == '/', p == '-':
		return false
	}
	return true
}

// quotedAt: an opening quote that quotedRe's look-behinds allow.
func quotedAt(t *text, i int) bool {
	p := t.prev(i)
	switch t.runes[i] {
	case '"':
		return !wordChar(p) && p != '\\'
	case '“':
		return true
	case '\'':
		return !wordChar(p) && p != '\'' && p != '’'
	}
	return false
}

// quickQuoted matches quotedRe at an opening quote that quotedAt allows:
// the quote closes on the same line after 2 to 80 runes (none of them a
// backslash, for a straight double quote) and, for a single quote, no word
// goes on after it.
func quickQuoted(t *text, i int) (match, int) {
	var j int
	switch t.runes[i] {
	case '"':
		j = t.closedBy(i, '"', "\n\\")
	case '“':
		j = t.closedBy(i, '”', "\n")
	case '\'':
		j = t.closedBy(i, '\'', "\n")
		if j >= 0 && j+1 < len(t.runes) {
			if n := t.runes[j+1]; wordChar(n) || n == '\'' || n == '’' {
				j = -1
			}
		}
	}
	if j < 0 {
		return match{}, -2
	}
	return match{groups: []span{{t.off[i], t.off[j+1], true}, {t.off[i+1], t.off[j], true}}, names: quotedGroups}, j + 1
}

var quotedGroups = quotedRe.GetGroupNames()

// closedBy returns the index of the first closing rune after the opening
// one at i, if 2 to 80 runes none of which is in stop or the closing rune
// stand between them; -1 otherwise.
func (t *text) closedBy(i int, closing rune, stop string) int {
	for j := i + 1; j < len(t.runes) && j <= i+81; j++ {
		switch r := t.runes[j]; {
		case r == closing:
			if j-i-1 >= 2 {
				return j
			}
			return -1
		case strings.ContainsRune(stop, r):
			return -1
		}
	}
	return -1
}

// digitsThen reports whether rune i begins min to max digits (\d) that a
// rune satisfying then follows; the digits may also stop at fewer when the
// next is a digit too (a backtracking \d{min,max} tries every length).
func (t *text) digitsThen(i, min, max int, then func(rune) bool) bool {
	r := t.runes
	for n := 1; n <= max && i+n <= len(r); n++ {
		if !digit(r[i+n-1]) {
			return false
		}
		if n >= min && i+n < len(r) && then(r[i+n]) {
			return true
		}
	}
	return false
}

// pathAt: a "/", "~" or "." where pathRe's look-behind holds (Unix
// paths); relativePaths and drive letters are found by relativePaths.
func pathAt(t *text, i int) bool {
	r := t.runes[i]
	return (r == '/' || r == '~' || r == '.') && pathMayBegin(t, i)
}

// pathMayBegin: pathRe's look-behind holds before rune i.
func pathMayBegin(t *text, i int) bool {
	switch p := t.prev(i); {
	case wordChar(p), p == '/', p == '.', p == ':', p == '~', p == '@', p == '-':
		return false
	}
	return true
}

// relativePaths returns where pathRe's other two forms can begin: a drive
// letter before ":" (Windows), and the start of the run of [\w.-] runes,
// 100 at most, before each "/" (relative paths). The look-behind rules out a
// start inside such a run, so its start is the only candidate.
func relativePaths(t *text) []int {
	var out []int
	r := t.runes
	for j, c := range r {
		switch {
		case c == ':' && j > 0 && (r[j-1] >= 'A' && r[j-1] <= 'Z' || r[j-1] >= 'a' && r[j-1] <= 'z'):
			if pathMayBegin(t, j-1) {
				out = append(out, j-1)
			}
		case c == '/':
			k := j
			for k > 0 && j-k < 100 && (wordChar(r[k-1]) || r[k-1] == '.' || r[k-1] == '-') {
				k--
			}
			if k < j && pathMayBegin(t, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// timeAt: a digit that timeRe's look-behind allows, and after one or two
// digits a ":" or, past at most two spaces, an "a" or a "p".
func timeAt(t *text, i int) bool {
	r := t.runes
	switch p := t.prev(i); {
	case !digit(r[i]), digit(p), p == ':', p == '.', p == ',':
		return false
	}
	for j := i + 1; j <= i+2 && j <= len(r); j++ {
		k := j
		if k < len(r) && r[k] == ':' {
			return true
		}
		for n := 0; n < 2 && k < len(r) && unicode.IsSpace(r[k]); n++ {
			k++
		}
		if k < len(r) && (lowerRune(r[k]) == 'a' || lowerRune(r[k]) == 'p') {
			return true
		}
		if j == len(r) || !digit(r[j]) {
			break
		}
	}
	return false
}
