package extract

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	matching "github.com/offattr/offattr/internal/match"
)

// Names and quotations, like values (values.go), are read by plain Go
// rather than by patterns: they begin at every capital letter and
// quotation mark, and a regexp2 match at each of them was the largest
// cost of extraction. Code blocks are too (see codeBlocks). They read
// what the patterns they replace read.

// connectors are the small words that join the words of a name ("Bank of
// America"), in the order they are tried: "de" gives way to "del" only
// where no blank follows it.
var connectors = strings.Fields("of the de du del della la le von van der den da di y &")

// connectorFirsts holds the first byte of each connector.
var connectorFirsts = func() (t [utf8.RuneSelf]bool) {
	for _, c := range connectors {
		t[c[0]] = true
	}
	return t
}()

// names returns the spans of the capitalised names of t, in order, at most
// maxMatches: up to seven words, each a capital letter and up to forty
// letters, digits, apostrophes, ampersands or hyphens, joined by one or
// two blanks or by a connector between blanks, and no part of a longer
// word or path on either side. Where a name could end at several places
// (a word longer than 41 runes, an apostrophe before a digit), it is read
// as a backtracking pattern would read it: a longer word first, another
// word (joined by a connector first, two blanks before one) before ending.
func names(t *text) []span {
	var out []span
	s := nameSearch{r: t.runes}
	bytewise := len(t.runes) == len(t.s) // rune p is byte p: ASCII, or a byte that is no UTF-8
	for p := 0; p < len(s.r) && len(out) < maxMatches; p++ {
		if bytewise {
			// There the capitals are A to Z (a byte that is no UTF-8 reads
			// as U+FFFD): pass over the bytes before the next one.
			if p = nextCapital(t.s, p); p == len(s.r) {
				break
			}
		}
		if !unicode.IsUpper(s.r[p]) || p > 0 && (nameRune(s.r[p-1]) || strings.ContainsRune("_./", s.r[p-1])) {
			continue // a name begins with a capital (word checks it too), and not inside a word
		}
		s.memo = s.memo[:0]
		if end := s.word(p, 1); end >= 0 {
			out = append(out, span{Start: t.off[p], End: t.off[end], OK: true})
			p = end - 1
		}
	}
	return out
}

// nextCapital returns where the next byte from A to Z stands in s from i
// on, or len(s), passing over eight bytes at a time where none of them is
// one or beyond ASCII.
func nextCapital(s string, i int) int {
	for i < len(s) {
		if i+8 <= len(s) {
			if w := matching.Load8(s, i); (w|matching.CapitalBits(w))&matching.HighBits == 0 {
				i += 8
				continue
			}
		}
		if 'A' <= s[i] && s[i] <= 'Z' {
			return i
		}
		i++
	}
	return len(s)
}

// nameRune: a rune a word of a name goes on with.
func nameRune(r rune) bool {
	if r < utf8.RuneSelf {
		return nameASCII[r]
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '’'
}

// nameASCII holds nameRune of each ASCII rune: a letter, a digit, or one
// of '&-.
var nameASCII = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = asciiAlnum(byte(c)) || strings.IndexByte(`'&-`, byte(c)) >= 0
	}
	return t
}()

// nameSearch reads the names of a text. Where a word ends, and whether a
// name goes on from there, depends on nothing else, so each is worked out
// once (memo): a page of capitalised words costs what its length does.
// The memo holds what one name's search worked out: a search reads seven
// words at most, so it stays a few entries long, where a map made for
// each text cost more than the search.
type nameSearch struct {
	r    []rune
	memo []wordEnd
}

// wordEnd is what word returned for the words-th word of a name at p.
type wordEnd struct{ p, words, end int }

// word reads the words-th word of a name at p and what follows it; it
// returns where the name ends, or -1.
func (s *nameSearch) word(p, words int) int {
	if p >= len(s.r) || !unicode.IsUpper(s.r[p]) {
		return -1
	}
	for _, m := range s.memo {
		if m.p == p && m.words == words {
			return m.end
		}
	}
	n := 0
	for n < 40 && p+1+n < len(s.r) && nameRune(s.r[p+1+n]) {
		n++
	}
	end := -1
	for ; n >= 0 && end < 0; n-- {
		end = s.after(p+1+n, words)
	}
	if words > 1 { // names tries the first word of a name once at each place
		s.memo = append(s.memo, wordEnd{p, words, end})
	}
	return end
}

// after reads what follows the words-th word, which ends at q: another
// word, or the end of the name where no word goes on.
func (s *nameSearch) after(q, words int) int {
	if words < 7 {
		for b1 := s.blanks(q); b1 >= 1; b1-- {
			if q+b1 >= len(s.r) || s.r[q+b1] >= utf8.RuneSelf || !connectorFirsts[s.r[q+b1]] {
				continue // no connector begins there
			}
			for _, c := range connectors {
				if !s.at(q+b1, c) {
					continue
				}
				for b2 := s.blanks(q + b1 + len(c)); b2 >= 1; b2-- {
					if end := s.word(q+b1+len(c)+b2, words+1); end >= 0 {
						return end
					}
				}
			}
		}
		for b := s.blanks(q); b >= 1; b-- {
			if end := s.word(q+b, words+1); end >= 0 {
				return end
			}
		}
	}
	if q < len(s.r) && (unicode.IsLetter(s.r[q]) || unicode.IsDigit(s.r[q]) || s.r[q] == '_') {
		return -1
	}
	return q
}

// blanks returns how many blanks, at most two, stand at q: a name goes on
// after as many of them, or one fewer, tried most first.
func (s *nameSearch) blanks(q int) int {
	n := 0
	for n < 2 && q+n < len(s.r) && (s.r[q+n] == ' ' || s.r[q+n] == '\t') {
		n++
	}
	return n
}

// at reports whether the ASCII word w stands at q.
func (s *nameSearch) at(q int, w string) bool {
	if q+len(w) > len(s.r) {
		return false
	}
	for k := range len(w) {
		if s.r[q+k] != rune(w[k]) {
			return false
		}
	}
	return true
}

// quotation is a quoted text with its quotes, and what they enclose.
type quotation struct{ outer, inner span }

// quotations returns the quotations of t, in order, at most maxMatches:
// two to eighty runes on one line between straight double quotes (no
// backslash inside, nor a word character or backslash before), between
// curly double quotes, or between single quotes with no word character,
// apostrophe or ’ on either side.
func quotations(t *text) []quotation {
	var out []quotation
	r := t.runes
	bytewise := len(r) == len(t.s) // rune i is byte i, and no curly quote stands
	dq, sq := -1, -1               // there, where the next straight quotes stand from i on
	for i := 0; i < len(r) && len(out) < maxMatches; i++ {
		if bytewise {
			dq, sq = nextByte(t.s, i, '"', dq), nextByte(t.s, i, '\'', sq)
			if i = min(dq, sq); i == len(r) {
				break
			}
		}
		if c := r[i]; c != '"' && c != '“' && c != '\'' {
			continue // most runes open nothing
		}
		var prev rune = -1
		if i > 0 {
			prev = r[i-1]
		}
		j := -1
		switch {
		case r[i] == '"' && !wordChar(prev) && prev != '\\':
			j = closing(r, i, '"', true)
		case r[i] == '“':
			j = closing(r, i, '”', false)
		case r[i] == '\'' && !wordChar(prev) && prev != '\'' && prev != '’':
			j = closing(r, i, '\'', false)
			if j >= 0 && j+1 < len(r) && (wordChar(r[j+1]) || r[j+1] == '\'' || r[j+1] == '’') {
				j = -1
			}
		}
		if j >= 0 {
			out = append(out, quotation{span{Start: t.off[i], End: t.off[j+1], OK: true}, span{Start: t.off[i+1], End: t.off[j], OK: true}})
			i = j
		}
	}
	return out
}

// valueQuotations are the quotations whose text may be a value: those of
// quotations outside fenced blocks of source code, and inside them the
// code's string literals (codeLiterals). Quotes in code open after a
// prefix (r'…', f"…") and close short literals ('-'), so paired as prose
// pairs them they read the code between two literals as a quotation
// ("', value).strip(").
func valueQuotations(t *text) []quotation {
	sources, lits := codeLiterals(t)
	if len(sources) == 0 {
		return quotations(t)
	}
	out := slices.DeleteFunc(quotations(t), func(q quotation) bool {
		return slices.ContainsFunc(sources, func(b span) bool { return q.outer.Start < b.End && q.outer.End > b.Start })
	})
	out = append(out, lits...)
	slices.SortStableFunc(out, func(a, b quotation) int { return cmp.Compare(a.outer.Start, b.outer.Start) })
	return out[:min(len(out), maxMatches)]
}

// codeLiterals returns the code spans of t's fenced blocks of source code
// (inSource's), and the string literals written on one line in them with
// two to eighty runes inside, as quotations: a quote opens a literal
// wherever it stands (after a prefix, r'…', b"…") and the same quote,
// unescaped, closes it; a triple-quoted string, a line comment (# in
// Python and the shells, -- in SQL, // elsewhere) and a literal that runs
// to the line's end are passed over, so that no quote in them pairs with
// another. In a language whose single quote writes one character ('x',
// '\n') or a lifetime ('a, Rust's), the single quote opens no string.
func codeLiterals(t *text) (sources []span, out []quotation) {
	for _, b := range t.codeBlocks(0) {
		lang := strings.ToLower(t.str(b.lang))
		if lang == "" || lang == "console" || dataLangs[lang] {
			continue
		}
		sources = append(sources, b.code)
		hash := hashExts[lang] || hashFences[lang]
		dash, chars := dashFences[lang], charFences[lang]
		code := t.s[b.code.Start:b.code.End]
		for i := 0; i < len(code); i++ {
			c := code[i]
			switch {
			case c == '\'' && chars:
				if k := strings.IndexByte(code[i+1:min(i+12, len(code))], '\''); k >= 0 && (k == 1 || code[i+1] == '\\') {
					i += 1 + k // a character: its closing quote opens nothing
				}
			case c == '#' && hash, c == '-' && dash && strings.HasPrefix(code[i:], "--"), c == '/' && !hash && !dash && strings.HasPrefix(code[i:], "//"):
				if k := strings.IndexByte(code[i:], '\n'); k >= 0 {
					i += k
				} else {
					i = len(code)
				}
			case (c == '\'' || c == '"') && strings.HasPrefix(code[i:], strings.Repeat(string(c), 3)):
				end := strings.Index(code[i+3:], strings.Repeat(string(c), 3))
				if end < 0 {
					i = len(code)
				} else {
					i += 3 + end + 2
				}
			case c == '\'' || c == '"' || c == '`':
				j := i + 1
				for j < len(code) && code[j] != c && code[j] != '\n' {
					if code[j] == '\\' {
						j++
					}
					j++
				}
				if j >= len(code) || code[j] != c {
					i = j // the line ends the literal: nothing to pair with
					continue
				}
				if n := utf8.RuneCountInString(code[i+1 : j]); n >= 2 && n <= 80 {
					at := b.code.Start
					out = append(out, quotation{span{Start: at + i, End: at + j + 1, OK: true}, span{Start: at + i + 1, End: at + j, OK: true}})
				}
				i = j
			}
		}
	}
	return sources, out
}

// hashFences are the fence languages, beside the extensions of hashExts,
// whose line comments open with #.
var hashFences = toSet("python python3 ipython shell ruby perl")

// dashFences are the fence languages whose line comments open with --;
// charFences those whose single quote writes one character, not a
// string.
var (
	dashFences = toSet("sql mysql postgres postgresql psql pgsql plsql sqlite tsql lua haskell hs")
	charFences = toSet("rust rs c h cpp cc cxx hpp c++ java go golang kotlin kt scala cs csharp")
)

// nextByte returns where b next stands in s from i on, or len(s), given
// where it stood when last looked for (at, -1 when never): a byte that
// stands further on is not looked for again.
func nextByte(s string, i int, b byte, at int) int {
	if at >= i {
		return at
	}
	if k := strings.IndexByte(s[i:], b); k >= 0 {
		return i + k
	}
	return len(s)
}

// closing returns the index of the quote that closes the one at i: the
// first rune that is end, a line break or (with backslash) a backslash, if
// it is end and two to eighty runes stand between; -1 otherwise.
func closing(r []rune, i int, end rune, backslash bool) int {
	for j := i + 1; j < len(r) && j <= i+81; j++ {
		switch {
		case r[j] == end:
			if j-i-1 >= 2 {
				return j
			}
			return -1
		case r[j] == '\n' || backslash && r[j] == '\\':
			return -1
		}
	}
	return -1
}

// codeBlock is a fenced code block, or code in smolagents' <code> tags on
// lines of their own (whose closing tag the stop sequence that ends a
// model's output often cuts: the code then runs to the end of the text):
// the whole of it, the language named after its opening fence, and its
// code.
type codeBlock struct{ all, lang, code span }

// codeBlocks returns the fenced code blocks of t, in order, at most limit
// (maxMatches if limit <= 0), read once per text.
func (t *text) codeBlocks(limit int) []codeBlock {
	if limit <= 0 {
		limit = maxMatches
	}
	if !t.blocksDone {
		t.blocksDone = true
		t.blocks = each(t.all(codeBlockPattern, maxMatches), func(m match) codeBlock {
			return codeBlock{m.Whole(), m.Group("lang"), m.Group("code")}
		})
	}
	return t.blocks[:min(limit, len(t.blocks))]
}
