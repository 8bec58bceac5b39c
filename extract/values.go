package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The values a step states (URLs, paths, dates, phone numbers, times of
// day, numbers) are read by scanners in plain Go, not by patterns: they
// begin at digits and at a few letters, which are everywhere, and a
// backtracking engine tried at each of them was the largest cost of
// extraction. Each scanner reads what one regexp2 pattern matched, the
// same matches with the same groups: it tries a place as the pattern
// would (look-behind first, then each choice in the engine's order:
// alternatives left to right, repetitions longest first, an optional part
// taken first) and goes on after each match as the engine's scan does.
// The patterns themselves are kept in values_test.go, where
// TestValuesAreThePatterns and FuzzValues hold every scanner to its
// pattern. \d, \s and \w are regexp2's (Unicode); a case-insensitive
// pattern compares the lower case of each rune, as regexp2 does.

// runeAt reads the runes of a text by index; past either end it reads -1.
type runeAt []rune

func (r runeAt) at(i int) rune {
	if i < 0 || i >= len(r) {
		return -1
	}
	return r[i]
}

// low is the rune at i in lower case. Lower case keeps every rune in or
// out of \d, \s and \w (TestLowerKeepsClasses), so only letters of a
// case-insensitive pattern need it.
func (r runeAt) low(i int) rune {
	c := r.at(i)
	if c < utf8.RuneSelf {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		return c
	}
	return unicode.ToLower(c)
}

// lit reports whether the lower-case ASCII word w stands at i, in any case.
func (r runeAt) lit(i int, w string) bool {
	for k := range len(w) {
		if r.low(i+k) != rune(w[k]) {
			return false
		}
	}
	return true
}

// count returns how many runes from i, at most max, are in class.
func (r runeAt) count(i, max int, class func(rune) bool) int {
	n := 0
	for n < max && class(r.at(i+n)) {
		n++
	}
	return n
}

// boundary is \b: a word character on one side of i and not the other.
func (r runeAt) boundary(i int) bool {
	return wordChar(r.at(i-1)) != wordChar(r.at(i))
}

// spaceRune is \s.
func spaceRune(c rune) bool {
	if c < utf8.RuneSelf {
		return c == ' ' || '\t' <= c && c <= '\r'
	}
	return unicode.IsSpace(c)
}

func isASCIILetter(c rune) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// asciiSet is a set of ASCII runes.
type asciiSet [utf8.RuneSelf]bool

func asciiOf(runes string) *asciiSet {
	var a asciiSet
	for i := range len(runes) {
		a[runes[i]] = true
	}
	return &a
}

func (a *asciiSet) has(c rune) bool { return 0 <= c && c < utf8.RuneSelf && a[c] }

// valueStarts is where a scanner's matches can begin: at an ASCII rune of
// first, or at any other rune when wide; never just after an ASCII rune
// of notAfter; and, when bounded, at most reach runes before one of
// places (rune indices, ascending). It only spares calls: the scanner
// checks its place itself.
type valueStarts struct {
	first, notAfter *asciiSet
	wide            bool
	bounded         bool
	places          []int
	reach           int
}

const (
	asciiWord   = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"
	asciiDigits = "0123456789"
)

// scanValues returns up to limit matches of at, tried where starts allows
// at each rune from the text's start and, after a match, from its end, as
// a regex engine's scan tries them. at returns the match at p and where it
// ends, or false.
func scanValues[M any](r runeAt, limit int, starts *valueStarts, at func(p int) (M, int, bool)) []M {
	var out []M
	eachValue(r, limit, starts, at, func(m M) { out = append(out, m) })
	return out
}

// eachValue calls yield with each match scanValues returns, in turn, for a
// caller that reads each match once and needs no slice of them.
func eachValue[M any](r runeAt, limit int, starts *valueStarts, at func(p int) (M, int, bool), yield func(M)) {
	k := 0 // the first of starts.places not before p
	for p, n := 0, 0; p < len(r) && n < limit; p++ {
		if starts.bounded {
			for k < len(starts.places) && starts.places[k] < p {
				k++
			}
			if k == len(starts.places) {
				break
			}
			p = max(p, starts.places[k]-starts.reach)
		}
		if c := r[p]; c < utf8.RuneSelf && !starts.first[c] || c >= utf8.RuneSelf && !starts.wide || p > 0 && starts.notAfter.has(r[p-1]) {
			continue
		}
		if m, end, ok := at(p); ok {
			yield(m)
			n++
			p = end - 1 // no match is empty
		}
	}
}

// valueScan reads one text's values; it works in rune indices and
// reports byte offsets.
type valueScan struct {
	runeAt
	s     string // the text
	off   []int
	lower string // the text in lower case
	runs  []int  // where a run of \d begins, ascending
	years []int  // where four \d stand in a row, ascending
}

func newValueScan(t *text) valueScan {
	s := textScan(t)
	if len(t.runes) == len(t.s) && !strings.ContainsAny(t.s, asciiDigits) {
		return s // no digit at all; outside ASCII, \d holds those of other scripts
	}
	run := 0 // digits in a row up to i
	digit := func(i int, is bool) {
		if !is {
			run = 0
			return
		}
		if run++; run == 1 {
			s.runs = append(s.runs, i)
		} else if run >= 4 {
			s.years = append(s.years, i-3)
		}
	}
	if len(t.runes) == len(t.s) { // ASCII: a byte is a rune, and read as one
		for i := range len(t.s) {
			digit(i, '0' <= t.s[i] && t.s[i] <= '9')
		}
		return s
	}
	for i, c := range s.runeAt {
		digit(i, unicode.IsDigit(c))
	}
	return s
}

// textScan is a valueScan of t that knows nothing of its digits, for the
// scanners that need not: reading where they stand costs a pass over t.
func textScan(t *text) valueScan {
	lower, _ := t.lowered()
	return valueScan{runeAt: t.runes, s: t.s, off: t.off, lower: lower}
}

// The most runes from the start of a date with a month's name to its
// year, by the patterns below: a month's longest form and its ".", a day
// of two digits, its ordinal and the blanks before it, "of" and its
// blanks, and ",?\s{1,3}" before the year.
const (
	monthRunes = len("september.")
	yearLead   = len(",") + 3
	myYear     = monthRunes + yearLead
	mdyYear    = monthRunes + 3 + 2 + len("th") + yearLead
	dmyYear    = 2 + len("th") + 3 + len("of") + 3 + monthRunes + yearLead
)

// yearDates scans for dates that end in a year at most reach runes after
// where they begin, at a word boundary: the frame the three date scanners
// share, so that a text without years costs them nothing. Month names
// begin at every word that starts with one of a dozen letters, and few
// texts hold years: near passes over the words far from one.
func (s valueScan) yearDates(limit int, starts *valueStarts, reach int, at func(p int) (dateMatch, int, bool)) []dateMatch {
	if len(s.years) == 0 {
		return nil
	}
	return scanValues(s.runeAt, limit, starts.near(s.years, reach), func(p int) (dateMatch, int, bool) {
		if !s.boundary(p) {
			return dateMatch{}, 0, false
		}
		return at(p)
	})
}

// near returns starts that go on only where one of places (rune indices,
// ascending) stands at most reach runes on, for a scanner whose every
// match holds one there: a text's years or slashes are few, and the places
// far from them are passed over without a look. It is a field read by
// scanValues rather than a function of p, which cost four allocations a
// scan.
func (starts *valueStarts) near(places []int, reach int) *valueStarts {
	near := *starts
	near.bounded, near.places, near.reach = true, places, reach
	return &near
}

// holds reports whether the lower-case text holds one of subs. A scanner
// whose every match holds one of them reads no further in a text that
// holds none, as most texts hold no URL, path or date.
func (s valueScan) holds(subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s.lower, sub) {
			return true
		}
	}
	return false
}

// span is runes [a, b) as a byte span.
func (s valueScan) span(a, b int) span { return span{s.off[a], s.off[b], true} }

// str returns the text of a span, "" when it did not take part.
func (t *text) str(sp span) string {
	if !sp.ok {
		return ""
	}
	return t.s[sp.start:sp.end]
}

// Where the scanners' matches can begin.
var (
	urlStarts       = &valueStarts{first: asciiOf("hHfFwW"), notAfter: asciiOf(asciiWord), wide: false}
	fileURLStarts   = &valueStarts{first: asciiOf("fF"), notAfter: asciiOf(asciiWord), wide: false}
	pathStarts      = &valueStarts{first: asciiOf(asciiWord + "~./-"), notAfter: asciiOf(asciiWord + "/.:~@-"), wide: true}
	isoDateStarts   = &valueStarts{first: asciiOf(asciiDigits), notAfter: asciiOf(asciiDigits + "-"), wide: true}
	slashDateStarts = &valueStarts{first: asciiOf(asciiDigits), notAfter: asciiOf(asciiDigits + "/.-"), wide: true}
	dmyDateStarts   = &valueStarts{first: asciiOf(asciiDigits), notAfter: asciiOf(asciiWord), wide: true}
	phoneStarts     = &valueStarts{first: asciiOf(asciiDigits + "+("), notAfter: asciiOf(asciiWord + "."), wide: true}
	timeStarts      = &valueStarts{first: asciiOf(asciiDigits), notAfter: asciiOf(asciiDigits + ":.,"), wide: true}
	numberStarts    = &valueStarts{first: asciiOf(asciiDigits + `-\$uUeEgG`), notAfter: asciiOf(asciiWord + ".,/#:@"), wide: true}
	monthStarts     = &valueStarts{first: asciiOf("jJfFmMaAsSoOnNdD"), notAfter: asciiOf(asciiWord), wide: true}
)

// urlMatch is a URL, or a file URL with its path.
type urlMatch struct{ all, path span }

// urls reads
//
//	(?i)\b(?:(?:https?|ftp)://|www\.)[^\s<>"'\x60{}|\\^]{3,2000}
func (s valueScan) urls(limit int) []urlMatch {
	if !s.holds("://", "www.") {
		return nil
	}
	return scanValues(s.runeAt, limit, urlStarts, func(p int) (urlMatch, int, bool) {
		if c := s.low(p); c != 'h' && c != 'f' && c != 'w' || !s.boundary(p) {
			return urlMatch{}, 0, false
		}
		q := p
		switch {
		case s.lit(p, "https://"):
			q += 8
		case s.lit(p, "http://"):
			q += 7
		case s.lit(p, "ftp://"):
			q += 6
		case s.lit(p, "www."):
			q += 4
		default:
			return urlMatch{}, 0, false
		}
		n := s.count(q, 2000, func(c rune) bool { return c >= 0 && !spaceRune(c) && !strings.ContainsRune("<>\"'`{}|\\^", c) })
		if n < 3 {
			return urlMatch{}, 0, false
		}
		return urlMatch{all: s.span(p, q+n)}, q + n, true
	})
}

// fileURLs reads
//
//	(?i)\bfile://(/[^\s<>"'\x60]{1,1000})
func (s valueScan) fileURLs(limit int) []urlMatch {
	if !s.holds("file:///") {
		return nil
	}
	return scanValues(s.runeAt, limit, fileURLStarts, func(p int) (urlMatch, int, bool) {
		if s.low(p) != 'f' || !s.boundary(p) || !s.lit(p, "file:///") {
			return urlMatch{}, 0, false
		}
		n := s.count(p+8, 1000, func(c rune) bool { return c >= 0 && !spaceRune(c) && !strings.ContainsRune("<>\"'`", c) })
		if n == 0 {
			return urlMatch{}, 0, false
		}
		return urlMatch{all: s.span(p, p+8+n), path: s.span(p+7, p+8+n)}, p + 8 + n, true
	})
}

// paths reads
//
//	(?<![\w/.:~@-])(?:
//	  (?:~|\.{1,2})?/[\w.@+-]{1,100}(?:/[\w.@+-]{1,100}){0,30}/?
//	| [A-Za-z]:\\[\w .@+-]{1,100}(?:\\[\w .@+-]{1,100}){0,30}
//	| [\w.-]{1,100}(?:/[\w.-]{1,100}){1,30}\.[A-Za-z][A-Za-z0-9]{0,7}
//	)(?![\w/])
//
// Each of its forms has a separator at most 100 runes from its start: the
// "/" of a relative path after its first segment, at most.
func (s valueScan) paths(limit int) []span {
	seps := s.separators()
	if len(seps) == 0 {
		return nil
	}
	return scanValues(s.runeAt, limit, pathStarts.near(seps, 100), func(p int) (span, int, bool) {
		if c := s.at(p - 1); wordChar(c) || strings.ContainsRune("/.:~@-", c) {
			return span{}, 0, false
		}
		end, ok := s.unixPath(p)
		if !ok {
			end, ok = s.windowsPath(p)
		}
		if !ok {
			end, ok = s.relativePath(p)
		}
		if !ok {
			return span{}, 0, false
		}
		return s.span(p, end), end, true
	})
}

// separators returns the rune indices of the text's "/" and "\\". They
// are found as bytes, "/" by IndexByte, which in UTF-8 stand for nothing
// else; a text not in ASCII has them turned to rune indices.
func (s valueScan) separators() []int {
	var seps []int
	if strings.IndexByte(s.s, '\\') >= 0 {
		for i := range len(s.s) {
			if c := s.s[i]; c == '/' || c == '\\' {
				seps = append(seps, i)
			}
		}
	} else {
		for i := 0; ; i++ {
			k := strings.IndexByte(s.s[i:], '/')
			if k < 0 {
				break
			}
			i += k
			seps = append(seps, i)
		}
	}
	runeIndices(seps, s.off)
	return seps
}

// pathEnds is (?![\w/]) at i.
func (s valueScan) pathEnds(i int) bool {
	c := s.at(i)
	return !wordChar(c) && c != '/'
}

func (s valueScan) unixPath(p int) (int, bool) {
	prefixes := []int{0} // lengths of (?:~|\.{1,2})?, in the order tried
	switch {
	case s.at(p) == '~':
		prefixes = []int{1, 0}
	case s.at(p) == '.' && s.at(p+1) == '.':
		prefixes = []int{2, 1, 0}
	case s.at(p) == '.':
		prefixes = []int{1, 0}
	}
	for _, k := range prefixes {
		if s.at(p+k) == '/' {
			if end, ok := s.segments(p+k+1, 0, unixSegment, '/', valueScan.unixEnd); ok {
				return end, true
			}
		}
	}
	return 0, false
}

func unixSegment(c rune) bool { return wordChar(c) || strings.ContainsRune(".@+-", c) }

// unixEnd reads /?(?![\w/]) at e.
func (s valueScan) unixEnd(e int) (int, bool) {
	if s.at(e) == '/' && s.pathEnds(e+1) {
		return e + 1, true
	}
	return e, s.pathEnds(e)
}

func (s valueScan) windowsPath(p int) (int, bool) {
	if !isASCIILetter(s.at(p)) || s.at(p+1) != ':' || s.at(p+2) != '\\' {
		return 0, false
	}
	return s.segments(p+3, 0, windowsSegment, '\\', func(s valueScan, e int) (int, bool) { return e, s.pathEnds(e) })
}

func windowsSegment(c rune) bool { return wordChar(c) || strings.ContainsRune(" .@+-", c) }

func (s valueScan) relativePath(p int) (int, bool) {
	for n := s.count(p, 100, relativeSegment); n >= 1; n-- {
		if s.at(p+n) == '/' {
			if end, ok := s.segments(p+n+1, 1, relativeSegment, '/', valueScan.extension); ok {
				return end, true
			}
		}
	}
	return 0, false
}

func relativeSegment(c rune) bool { return wordChar(c) || c == '.' || c == '-' }

// extension reads \.[A-Za-z][A-Za-z0-9]{0,7}(?![\w/]) at e: fewer than all
// the letters and digits would leave one next, a word character.
func (s valueScan) extension(e int) (int, bool) {
	if s.at(e) != '.' || !isASCIILetter(s.at(e+1)) {
		return 0, false
	}
	end := e + 2 + s.count(e+2, 7, func(c rune) bool { return isASCIILetter(c) || '0' <= c && c <= '9' })
	return end, s.pathEnds(end)
}

// segments reads the segments of a path from i: a run of 1 to 100 runes of
// class, then up to 30-reps more, each after a sep, and at the end of the
// last what end reads. It returns where the path ends.
func (s valueScan) segments(i, reps int, class func(rune) bool, sep rune, end func(valueScan, int) (int, bool)) (int, bool) {
	for n := s.count(i, 100, class); n >= 1; n-- {
		e := i + n
		if s.at(e) == sep && reps < 30 {
			if to, ok := s.segments(e+1, reps+1, class, sep, end); ok {
				return to, true
			}
		}
		if to, ok := end(s, e); ok {
			return to, true
		}
	}
	return 0, false
}

// dateMatch is a date; mon is the month's name when it is written out.
type dateMatch struct{ all, y, m, d, mon span }

// dateScanners read the date patterns in the order claims tries them.
var dateScanners = []func(valueScan, int) []dateMatch{valueScan.isoDates, valueScan.slashDates, valueScan.mdyDates, valueScan.dmyDates, valueScan.myDates}

// isoDates reads
//
//	(?<![\d-])(?<y>\d{4})-(?<m>\d{1,2})-(?<d>\d{1,2})(?![\d-])
func (s valueScan) isoDates(limit int) []dateMatch {
	if len(s.years) == 0 || !s.holds("-") {
		return nil
	}
	return scanValues(s.runeAt, limit, isoDateStarts.near(s.years, 0), func(p int) (dateMatch, int, bool) {
		if c := s.at(p - 1); unicode.IsDigit(c) || c == '-' || s.count(p, 4, unicode.IsDigit) < 4 || s.at(p+4) != '-' {
			return dateMatch{}, 0, false
		}
		for m := s.count(p+5, 2, unicode.IsDigit); m >= 1; m-- {
			q := p + 5 + m
			if s.at(q) != '-' {
				continue
			}
			for d := s.count(q+1, 2, unicode.IsDigit); d >= 1; d-- {
				e := q + 1 + d
				if c := s.at(e); !unicode.IsDigit(c) && c != '-' {
					return dateMatch{all: s.span(p, e), y: s.span(p, p+4), m: s.span(p+5, q), d: s.span(q+1, e)}, e, true
				}
			}
		}
		return dateMatch{}, 0, false
	})
}

// slashDates reads
//
//	(?<![\d/.-])(?<m>\d{1,2})/(?<d>\d{1,2})/(?<y>\d{4}|\d{2})(?![\d/])
//
// A match begins where a run of digits does.
func (s valueScan) slashDates(limit int) []dateMatch {
	if len(s.runs) == 0 || !s.holds("/") {
		return nil
	}
	return scanValues(s.runeAt, limit, slashDateStarts.near(s.runs, 0), func(p int) (dateMatch, int, bool) {
		if c := s.at(p - 1); unicode.IsDigit(c) || strings.ContainsRune("/.-", c) {
			return dateMatch{}, 0, false
		}
		for m := s.count(p, 2, unicode.IsDigit); m >= 1; m-- {
			if s.at(p+m) != '/' {
				continue
			}
			q := p + m + 1
			for d := s.count(q, 2, unicode.IsDigit); d >= 1; d-- {
				y := q + d + 1
				if s.at(q+d) != '/' {
					continue
				}
				for _, n := range []int{4, 2} {
					if c := s.at(y + n); s.count(y, n, unicode.IsDigit) == n && !unicode.IsDigit(c) && c != '/' {
						return dateMatch{all: s.span(p, y+n), m: s.span(p, p+m), d: s.span(q, q+d), y: s.span(y, y+n)}, y + n, true
					}
				}
			}
		}
		return dateMatch{}, 0, false
	})
}

// monthForms are the forms of (?<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|
// apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|
// nov(?:ember)?|dec(?:ember)?), longest first as the pattern tries them.
var monthForms = [][]string{
	{"january", "jan"}, {"february", "feb"}, {"march", "mar"}, {"april", "apr"}, {"may"},
	{"june", "jun"}, {"july", "jul"}, {"august", "aug"}, {"september", "sept", "sep"},
	{"october", "oct"}, {"november", "nov"}, {"december", "dec"},
}

// monthEnds are the ends a month group can take at one place: one month's
// forms at most, as no month's shortest form begins another's, each with
// "\.?" taken or not. They are kept in an array, since month is tried at
// every word that begins with one of a dozen letters.
type monthEnds struct {
	ends [6][2]int
	n    int
}

func (m *monthEnds) all() [][2]int { return m.ends[:m.n] }

func (m *monthEnds) add(name, end int) {
	m.ends[m.n] = [2]int{name, end}
	m.n++
}

// month returns the lengths the month group can take at i, in the order
// tried, each followed by "\.?" taken or not: the ends to go on from.
func (s valueScan) month(i int) (ends monthEnds) {
	c := s.low(i)
	for _, forms := range monthForms {
		if rune(forms[0][0]) != c || !s.lit(i, forms[len(forms)-1]) {
			continue // each month's shortest form begins all its others
		}
		for _, f := range forms {
			if s.lit(i, f) {
				e := i + len(f)
				if s.at(e) == '.' {
					ends.add(e, e+1)
				}
				ends.add(e, e)
			}
		}
	}
	return ends
}

// optional returns the ends of an optional part at i that ends at end when
// taken (ok): taken first.
func optional(i, end int, ok bool) []int {
	if ok {
		return []int{end, i}
	}
	return []int{i}
}

// year reads ,?\s{1,3}(?<y>\d{4})\b at i: how every date with a month's
// name ends.
func (s valueScan) year(i int) (y, e int, ok bool) {
	for _, c := range optional(i, i+1, s.at(i) == ',') {
		for n := s.count(c, 3, spaceRune); n >= 1; n-- {
			y = c + n
			if s.count(y, 4, unicode.IsDigit) == 4 && s.boundary(y+4) {
				return y, y + 4, true
			}
		}
	}
	return 0, 0, false
}

// ordinal reports whether (?:st|nd|rd|th) stands at i. Its callers range
// over optional(i, i+2, s.ordinal(i)) themselves, where the slice stays on
// the stack.
func (s valueScan) ordinal(i int) bool {
	return s.lit(i, "st") || s.lit(i, "nd") || s.lit(i, "rd") || s.lit(i, "th")
}

// mdyDates reads
//
//	(?i)\b<months>\.?\s{1,3}(?<d>\d{1,2})(?:st|nd|rd|th)?,?\s{1,3}(?<y>\d{4})\b
func (s valueScan) mdyDates(limit int) []dateMatch {
	return s.yearDates(limit, monthStarts, mdyYear, func(p int) (dateMatch, int, bool) {
		ends := s.month(p)
		for _, mon := range ends.all() {
			for sp := s.count(mon[1], 3, spaceRune); sp >= 1; sp-- {
				d := mon[1] + sp
				for dn := s.count(d, 2, unicode.IsDigit); dn >= 1; dn-- {
					for _, o := range optional(d+dn, d+dn+2, s.ordinal(d+dn)) {
						if y, e, ok := s.year(o); ok {
							return dateMatch{all: s.span(p, e), mon: s.span(p, mon[0]), d: s.span(d, d+dn), y: s.span(y, e)}, e, true
						}
					}
				}
			}
		}
		return dateMatch{}, 0, false
	})
}

// dmyDates reads
//
//	(?i)\b(?<d>\d{1,2})(?:st|nd|rd|th)?\s{1,3}(?:of\s{1,3})?<months>\.?,?\s{1,3}(?<y>\d{4})\b
func (s valueScan) dmyDates(limit int) []dateMatch {
	return s.yearDates(limit, dmyDateStarts, dmyYear, func(p int) (dateMatch, int, bool) {
		if !unicode.IsDigit(s.at(p)) {
			return dateMatch{}, 0, false
		}
		for dn := s.count(p, 2, unicode.IsDigit); dn >= 1; dn-- {
			for _, o := range optional(p+dn, p+dn+2, s.ordinal(p+dn)) {
				for sp := s.count(o, 3, spaceRune); sp >= 1; sp-- {
					m := o + sp
					var ofs []int // (?:of\s{1,3})?: its ends, then not taken
					if s.lit(m, "of") {
						for n := s.count(m+2, 3, spaceRune); n >= 1; n-- {
							ofs = append(ofs, m+2+n)
						}
					}
					for _, mm := range append(ofs, m) {
						ends := s.month(mm)
						for _, mon := range ends.all() {
							if y, e, ok := s.year(mon[1]); ok {
								return dateMatch{all: s.span(p, e), d: s.span(p, p+dn), mon: s.span(mm, mon[0]), y: s.span(y, e)}, e, true
							}
						}
					}
				}
			}
		}
		return dateMatch{}, 0, false
	})
}

// myDates reads
//
//	(?i)\b<months>\.?,?\s{1,3}(?<y>\d{4})\b
func (s valueScan) myDates(limit int) []dateMatch {
	return s.yearDates(limit, monthStarts, myYear, func(p int) (dateMatch, int, bool) {
		ends := s.month(p)
		for _, mon := range ends.all() {
			if y, e, ok := s.year(mon[1]); ok {
				return dateMatch{all: s.span(p, e), mon: s.span(p, mon[0]), y: s.span(y, e)}, e, true
			}
		}
		return dateMatch{}, 0, false
	})
}

func phoneSeparator(c rune) bool { return spaceRune(c) || c == '.' || c == '-' }

// phones reads
//
//	(?<![\w.])(?:\+\d{1,3}[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]\d{4}(?!\w)
//
// A match's digits begin a run of them, at its start or after a "+" or
// "(".
func (s valueScan) phones(limit int) []span {
	if len(s.runs) == 0 {
		return nil
	}
	return scanValues(s.runeAt, limit, phoneStarts.near(s.runs, 1), func(p int) (span, int, bool) {
		if c := s.at(p - 1); wordChar(c) || c == '.' {
			return span{}, 0, false
		}
		var starts []int // where the number proper begins: after a country code, in the order tried
		if s.at(p) == '+' {
			for n := s.count(p+1, 3, unicode.IsDigit); n >= 1; n-- {
				e := p + 1 + n
				starts = append(starts, optional(e, e+1, phoneSeparator(s.at(e)))...)
			}
		}
		for _, q := range append(starts, p) {
			for _, a := range optional(q, q+1, s.at(q) == '(') {
				if s.count(a, 3, unicode.IsDigit) < 3 {
					continue
				}
				for _, b := range optional(a+3, a+4, s.at(a+3) == ')') {
					for _, c := range optional(b, b+1, phoneSeparator(s.at(b))) {
						if s.count(c, 3, unicode.IsDigit) == 3 && phoneSeparator(s.at(c+3)) && s.count(c+4, 4, unicode.IsDigit) == 4 && !wordChar(s.at(c+8)) {
							return s.span(p, c+8), c + 8, true
						}
					}
				}
			}
		}
		return span{}, 0, false
	})
}

// timeMatch is a time of day; ap is its "am" or "pm".
type timeMatch struct{ all, h, min, ap span }

// times reads
//
//	(?i)(?<![\d:.,])(?<h>\d{1,2})(?::(?<min>\d{2}))?(?::\d{2})?\s{0,2}(?<ap>[ap]\.?\s?m)\b\.?
//	|   (?<![\d:.,])(?<h>\d{1,2}):(?<min>\d{2})(?::\d{2})?(?![\d:])
//
// A match begins where a run of digits does.
func (s valueScan) times(limit int) []timeMatch {
	if len(s.runs) == 0 {
		return nil
	}
	return scanValues(s.runeAt, limit, timeStarts.near(s.runs, 0), func(p int) (timeMatch, int, bool) {
		if c := s.at(p - 1); unicode.IsDigit(c) || strings.ContainsRune(":.,", c) || !unicode.IsDigit(s.at(p)) {
			return timeMatch{}, 0, false
		}
		if m, e, ok := s.timeWithMeridiem(p); ok {
			return m, e, true
		}
		for h := s.count(p, 2, unicode.IsDigit); h >= 1; h-- {
			q := p + h
			if s.at(q) != ':' || s.count(q+1, 2, unicode.IsDigit) < 2 {
				continue
			}
			for _, e := range optional(q+3, q+6, s.twoDigitsAfterColon(q+3)) {
				if c := s.at(e); !unicode.IsDigit(c) && c != ':' {
					return timeMatch{all: s.span(p, e), h: s.span(p, q), min: s.span(q+1, q+3)}, e, true
				}
			}
		}
		return timeMatch{}, 0, false
	})
}

// twoDigitsAfterColon is :\d{2} at i.
func (s valueScan) twoDigitsAfterColon(i int) bool {
	return s.at(i) == ':' && s.count(i+1, 2, unicode.IsDigit) == 2
}

// timeWithMeridiem is the first alternative of times: "7pm", "7:30 a.m.".
func (s valueScan) timeWithMeridiem(p int) (timeMatch, int, bool) {
	for h := s.count(p, 2, unicode.IsDigit); h >= 1; h-- {
		q := p + h
		type minute struct {
			end int
			min span
		}
		// (?::(?<min>\d{2}))? taken, then not; an array, as a slice built
		// here was an eighth of all the objects extraction allocates.
		var mins [2]minute
		n := 0
		if s.twoDigitsAfterColon(q) {
			mins[0], n = minute{q + 3, s.span(q+1, q+3)}, 1
		}
		mins[n] = minute{end: q}
		for _, mn := range mins[:n+1] {
			for _, sec := range optional(mn.end, mn.end+3, s.twoDigitsAfterColon(mn.end)) {
				for sp := s.count(sec, 2, spaceRune); sp >= 0; sp-- {
					a := sec + sp
					if c := s.low(a); c != 'a' && c != 'p' {
						continue
					}
					for _, dot := range optional(a+1, a+2, s.at(a+1) == '.') {
						for _, ws := range optional(dot, dot+1, spaceRune(s.at(dot))) {
							if s.low(ws) != 'm' || !s.boundary(ws+1) {
								continue
							}
							e := ws + 1
							if s.at(e) == '.' {
								e++
							}
							return timeMatch{all: s.span(p, e), h: s.span(p, q), min: mn.min, ap: s.span(a, ws+1)}, e, true
						}
					}
				}
			}
		}
	}
	return timeMatch{}, 0, false
}

// numberMatch is a number with its parts.
type numberMatch struct{ all, sign, cur, num, frac, mult, sp, unit span }

// multiplierWords and unitWords are the alternatives of a number's
// multiplier and unit in the order the pattern tries them, written out (a
// trailing "s?" as the form with the s, then the one without; "percent" is
// tried once, though both "percent\b" and "per ?cent\b" read it); each
// must end at a word boundary. "%" and "°\s?[CF]\b" are read by unit
// itself.
var (
	multiplierWords = []string{"thousand", "million", "billion", "trillion", "bn", "mn", "k", "m", "b"}
	unitWords       = []string{"percent", "per cent", "pct", "km", "kilometers", "kilometer", "kilometres", "kilometre",
		"miles", "mile", "mi", "meters", "meter", "metres", "metre", "m", "ft", "feet", "foot", "kg", "kilograms", "kilogram",
		"lbs", "lb", "degrees", "degree", "minutes", "minute", "mins", "min", "hours", "hour", "hrs", "hr", "h",
		"seconds", "second", "secs", "sec", "s", "days", "day", "weeks", "week", "months", "month", "years", "year",
		"yrs", "yr", "mph", "km/h", "kb", "mb", "gb", "tb", "usd", "eur", "dollars", "dollar", "euros", "euro"}
)

// numbers reads
//
//	(?i)(?<![\w.,/#:@])(?<sign>-(?=[\d$\\€£¥]))?(?<cur>(?:\\\$|US\$|[$€£¥]|USD|EUR|GBP)\s?)?
//	(?<num>\d{1,3}(?:,\d{3}){1,6}|\d{1,20})(?<frac>\.\d{1,12})?
//	(?:(?=\s{0,2}[tmbk])\s{0,2}(?<mult>thousand|million|billion|trillion|bn|mn|[kKMB])\b)?
//	(?:(?=\s{0,2}[%pkmfl°dhswygtue])(?<sp>\s{0,2})(?<unit>%|percent\b|per ?cent\b|...))?
//
// with the units of unitWords. All that follows the number is optional, so
// the first way to read the number is the match.
//
// The digits begin a run of them at most five runes from the start: after
// a sign, a currency of three runes and a blank.
func (s valueScan) numbers(limit int) []numberMatch {
	var out []numberMatch
	s.eachNumber(limit, func(m numberMatch) { out = append(out, m) })
	return out
}

// eachNumber calls yield with each match numbers returns, in turn. Steps
// hold numbers by the hundred, and a slice of them, at 192 bytes a match,
// was a fourteenth of the bytes extraction allocates.
func (s valueScan) eachNumber(limit int, yield func(numberMatch)) {
	if len(s.runs) == 0 {
		return
	}
	eachValue(s.runeAt, limit, numberStarts.near(s.runs, 5), func(p int) (numberMatch, int, bool) {
		c := s.at(p)
		if !unicode.IsDigit(c) && !strings.ContainsRune(`-\$€£¥`, c) && !strings.ContainsRune("ueg", s.low(p)) {
			return numberMatch{}, 0, false
		}
		if c := s.at(p - 1); wordChar(c) || strings.ContainsRune(".,/#:@", c) {
			return numberMatch{}, 0, false
		}
		signed := c == '-' && (unicode.IsDigit(s.at(p+1)) || strings.ContainsRune(`$\€£¥`, s.at(p+1)))
		for _, q := range optional(p, p+1, signed) {
			var starts []int // of the number proper: after a currency and its \s?, after one without, with none
			if n := s.currency(q); n > 0 {
				starts = optional(q+n, q+n+1, spaceRune(s.at(q+n)))
			}
			for _, num := range append(starts, q) {
				e, ok := s.number(num)
				if !ok {
					continue
				}
				m := numberMatch{num: s.span(num, e)}
				if q > p {
					m.sign = s.span(p, q)
				}
				if num > q {
					m.cur = s.span(q, num)
				}
				return s.numberTail(m, p, e)
			}
		}
		return numberMatch{}, 0, false
	}, yield)
}

// currency returns the length of (?:\\\$|US\$|[$€£¥]|USD|EUR|GBP) at i,
// 0 if there is none: its alternatives begin differently.
func (s valueScan) currency(i int) int {
	switch {
	case s.at(i) == '\\' && s.at(i+1) == '$':
		return 2
	case s.lit(i, "us") && s.at(i+2) == '$', s.lit(i, "usd"), s.lit(i, "eur"), s.lit(i, "gbp"):
		return 3
	case strings.ContainsRune("$€£¥", s.at(i)):
		return 1
	}
	return 0
}

// number reads \d{1,3}(?:,\d{3}){1,6}|\d{1,20} at i and returns its end.
func (s valueScan) number(i int) (int, bool) {
	for n := s.count(i, 3, unicode.IsDigit); n >= 1; n-- {
		e := i + n
		groups := 0
		for groups < 6 && s.at(e) == ',' && s.count(e+1, 3, unicode.IsDigit) == 3 {
			e += 4
			groups++
		}
		if groups > 0 {
			return e, true
		}
	}
	if n := s.count(i, 20, unicode.IsDigit); n > 0 {
		return i + n, true
	}
	return 0, false
}

// numberTail reads the fraction, multiplier and unit after the number that
// ends at e, each where it can be, and returns the whole match from p.
func (s valueScan) numberTail(m numberMatch, p, e int) (numberMatch, int, bool) {
	if s.at(e) == '.' && unicode.IsDigit(s.at(e+1)) {
		n := s.count(e+1, 12, unicode.IsDigit)
		m.frac = s.span(e, e+1+n)
		e += 1 + n
	}
	if s.ahead(e, "tmbk") {
		for sp := s.count(e, 2, spaceRune); sp >= 0; sp-- {
			if n := s.word(e+sp, multiplierWords); n > 0 {
				m.mult = s.span(e+sp, e+sp+n)
				e += sp + n
				break
			}
		}
	}
	if s.ahead(e, "%pkmfl°dhswygtue") {
		for sp := s.count(e, 2, spaceRune); sp >= 0; sp-- {
			if n := s.unit(e + sp); n > 0 {
				m.sp, m.unit = s.span(e, e+sp), s.span(e+sp, e+sp+n)
				e += sp + n
				break
			}
		}
	}
	m.all = s.span(p, e)
	return m, e, true
}

// ahead is (?=\s{0,2}[class]) at i, the class in lower case.
func (s valueScan) ahead(i int, class string) bool {
	for sp := s.count(i, 2, spaceRune); sp >= 0; sp-- {
		if strings.ContainsRune(class, s.low(i+sp)) {
			return true
		}
	}
	return false
}

// word returns the length of the first of words at i that ends at a word
// boundary, 0 if none does.
func (s valueScan) word(i int, words []string) int {
	for _, w := range words {
		if s.lit(i, w) && s.boundary(i+len(w)) {
			return len(w)
		}
	}
	return 0
}

// unit returns the length of the first unit at i, 0 if none.
func (s valueScan) unit(i int) int {
	// "%" and "°" begin no other unit: where they stand, the alternatives
	// before them in the pattern cannot match.
	switch s.at(i) {
	case '%':
		return 1
	case '°': // °\s?[CF]\b
		for _, c := range optional(i+1, i+2, spaceRune(s.at(i+1))) {
			if l := s.low(c); (l == 'c' || l == 'f') && s.boundary(c+1) {
				return c + 1 - i
			}
		}
		return 0
	}
	return s.word(i, unitWords)
}

// wordChar is regexp2's \w (syntax.IsWordChar), with an ASCII fast path:
// regexp2's own looks up four category tables by name for every rune.
func wordChar(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 0 && (asciiAlnum(byte(r)) || r == '_')
	}
	return unicode.In(r, unicode.L, unicode.Mn, unicode.Nd, unicode.Pc) || r == '\u200D' || r == '\u200C'
}

func asciiAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}
