package redact

import (
	"iter"
	"strings"
)

// Hints are hand-written tests that a pattern may match at all. Most texts
// hold no secret, so this is where redaction spends its time: a loop over a
// few characters is far cheaper than any regular expression over the whole
// text, and a hint may say yes too often but never no wrongly.

// probe is the text the hints look at, with its lower-case form made once
// for all the case-insensitive hints rather than once per rule.
type probe struct {
	text  string
	lower string
	fold  bool // lower is set
}

func (p *probe) folded() string {
	if !p.fold {
		p.lower, p.fold = strings.ToLower(p.text), true
	}
	return p.lower
}

// contains is a hint: text holds one of subs.
func contains(subs ...string) func(*probe) bool {
	return func(p *probe) bool {
		for _, s := range subs {
			if strings.Contains(p.text, s) {
				return true
			}
		}
		return false
	}
}

// containsFold is contains ignoring ASCII case; subs are lower-case.
func containsFold(subs ...string) func(*probe) bool {
	return func(p *probe) bool {
		lower := p.folded()
		for _, s := range subs {
			if strings.Contains(lower, s) {
				return true
			}
		}
		return false
	}
}

// prefixIndex is a hint for many literal prefixes at once: one pass over
// the text looks each pair of bytes up, and only on a hit compares the
// prefixes that start with that pair. Sixty strings.Contains calls would
// cost sixty passes.
type prefixIndex struct {
	pair  [1 << 16]uint8 // 1 + index into lists, 0 for none
	lists [][]string
}

func newPrefixIndex(prefixes []string) *prefixIndex {
	x := &prefixIndex{}
	for _, p := range prefixes {
		k := uint16(p[0])<<8 | uint16(p[1])
		if x.pair[k] == 0 {
			x.lists = append(x.lists, nil)
			x.pair[k] = uint8(len(x.lists))
		}
		x.lists[x.pair[k]-1] = append(x.lists[x.pair[k]-1], p)
	}
	return x
}

func (x *prefixIndex) hint(p *probe) bool {
	t := p.text
	for i := 0; i+1 < len(t); i++ {
		n := x.pair[uint16(t[i])<<8|uint16(t[i+1])]
		if n == 0 {
			continue
		}
		for _, pre := range x.lists[n-1] {
			if strings.HasPrefix(t[i:], pre) {
				return true
			}
		}
	}
	return false
}

// labelled is a hint: one of the label words (lower-case) ends right
// before ':' or '=', allowing a closing quote, escaped or not, and spaces.
func labelled(words ...string) func(*probe) bool {
	return func(p *probe) bool {
		lower := p.folded()
		for i := 0; i < len(lower); i++ {
			if (lower[i] == ':' || lower[i] == '=') && labelBefore(lower, i, words) {
				return true
			}
		}
		return false
	}
}

// stated is a hint: one of the label words (lower-case) comes before the
// word "is" or "was".
func stated(words ...string) func(*probe) bool {
	return func(p *probe) bool {
		lower := p.folded()
		for _, verb := range []string{" is", " was"} {
			for i := range occurrences(lower, verb) {
				if labelBefore(lower, i, words) {
					return true
				}
			}
		}
		return false
	}
}

// labelBefore reports whether one of words ends before position i of
// lower, allowing spaces and a closing quote, escaped or not, between.
func labelBefore(lower string, i int, words []string) bool {
	j := i
	for j > 0 && (lower[j-1] == ' ' || lower[j-1] == '\t') {
		j--
	}
	if j > 0 && (lower[j-1] == '"' || lower[j-1] == '\'') {
		j--
		for j > 0 && lower[j-1] == '\\' {
			j--
		}
	}
	for _, w := range words {
		if strings.HasSuffix(lower[:j], w) {
			return true
		}
	}
	return false
}

// labelNearDigit is a hint: one of the words (lower-case) starts a word and
// a digit follows within a few characters, as in "tel: 555…" or "PIN 1234".
func labelNearDigit(words ...string) func(*probe) bool {
	return labelNearDigitWithin(24, words...)
}

// emailLike is a hint: an '@' between an address character and a domain
// with a dot.
func emailLike(p *probe) bool {
	text := p.text
	for i := range occurrences(text, "@") {
		if i == 0 || !isLocalChar(text[i-1]) {
			continue
		}
		rest := text[i+1:]
		end := 0
		for end < len(rest) && (isAlnum(rest[end]) || rest[end] == '-' || rest[end] == '.') {
			end++
		}
		if d := strings.IndexByte(rest[:end], '.'); d > 0 && d < end-1 {
			return true
		}
	}
	return false
}

// ipv6Like is a hint for what keepIPv6 accepts: "::" next to a hex digit,
// or six colons between hex groups (the full form, or one that ends in an
// IPv4 address). Clock times (12:30:45) are neither.
func ipv6Like(p *probe) bool {
	text := p.text
	colons, next := 0, -1 // colons in the current run of groups, and where it goes on
	for i := range occurrences(text, ":") {
		if i+1 < len(text) && text[i+1] == ':' &&
			(i > 0 && isHex(text[i-1]) || i+2 < len(text) && isHex(text[i+2])) {
			return true
		}
		if i != next {
			colons = 0
		}
		j := skip(text, i+1, 4, isHex)
		if j < len(text) && text[j] == ':' && j > i+1 {
			if colons++; colons >= 5 {
				return true
			}
			next = j
		}
	}
	return false
}

// ipv4Like is a hint: digit '.' 1–3 digits '.' 1–3 digits '.' digit.
func ipv4Like(p *probe) bool {
	text := p.text
	for i := range occurrences(text, ".") {
		if i == 0 || !isDigit(text[i-1]) {
			continue
		}
		j, parts := i, 0
		for parts < 3 && j < len(text) && text[j] == '.' {
			k := skip(text, j+1, 3, isDigit)
			if k == j+1 {
				break
			}
			parts++
			j = k
		}
		if parts == 3 {
			return true
		}
	}
	return false
}

// digitRunLike is a hint: at least n digits in a row, allowing single
// spaces or dashes between them ("4111 1111 1111 1111").
func digitRunLike(n int) func(*probe) bool {
	return func(p *probe) bool {
		text := p.text
		count := 0
		for i := 0; i < len(text); i++ {
			switch c := text[i]; {
			case isDigit(c):
				count++
				if count >= n {
					return true
				}
			case (c == ' ' || c == '-') && i > 0 && isDigit(text[i-1]) && i+1 < len(text) && isDigit(text[i+1]):
			default:
				count = 0
			}
		}
		return false
	}
}

// nanpLike is a hint for North American numbers: three digits, then either
// ')' and up to two separators ("(415)555-2671" is a number as written) or
// one or two separators, then three digits, a separator, four digits.
func nanpLike(p *probe) bool {
	t := p.text
	sep := func(c byte) bool { return c == '-' || c == '.' || c == ' ' }
	digits := func(i, n int) bool {
		if i+n > len(t) {
			return false
		}
		for k := i; k < i+n; k++ {
			if !isDigit(t[k]) {
				return false
			}
		}
		return true
	}
	for i := 0; i+12 <= len(t); i++ {
		if !digits(i, 3) {
			continue
		}
		j := i + 3
		closed := t[j] == ')'
		if closed {
			j++
		}
		if !closed && !sep(t[j]) {
			continue
		}
		for k := 0; k < 2 && j < len(t) && sep(t[j]); k++ {
			j++
		}
		if digits(j, 3) && j+3 < len(t) && sep(t[j+3]) && digits(j+4, 4) {
			return true
		}
	}
	return false
}

// trunkLike is a hint for national numbers: a '0', one to four digits, a
// space or dash, two digits.
func trunkLike(p *probe) bool {
	t := p.text
	for i := range occurrences(t, "0") {
		j := skip(t, i+1, 4, isDigit)
		if j > i+1 && j+2 < len(t) && (t[j] == ' ' || t[j] == '-') && isDigit(t[j+1]) && isDigit(t[j+2]) {
			return true
		}
	}
	return false
}

// intlPhoneLike is a hint: '+', a digit, and a run of digits and " .()-"
// holding at least minIntlDigits digits. The rule's match is such a run and
// its keep asks for that many digits, so the hint need not follow the
// pattern's grouping, where a country code may end in ')' ("+000)00000").
func intlPhoneLike(p *probe) bool {
	t := p.text
	for i := range occurrences(t, "+") {
		if i+1 >= len(t) || !isDigit(t[i+1]) {
			continue
		}
		digits := 0
		for j := i + 1; j < len(t) && (isDigit(t[j]) || strings.IndexByte(" .()-", t[j]) >= 0); j++ {
			if isDigit(t[j]) {
				digits++
			}
			if digits >= minIntlDigits {
				return true
			}
		}
	}
	return false
}

// urlPasswordLike is a hint: "://", then a user part, ':' and '@' before
// any space or '/'.
func urlPasswordLike(p *probe) bool {
	t := p.text
	for i := range occurrences(t, "://") {
		auth := t[i+3:]
		if end := strings.IndexAny(auth, " \t\r\n/?#"); end >= 0 {
			auth = auth[:end]
		}
		if c := strings.IndexByte(auth, ':'); c >= 0 && strings.IndexByte(auth[c:], '@') > 0 {
			return true
		}
	}
	return false
}

// ibanLike is a hint: two letters and two digits at the start of a word.
func ibanLike(p *probe) bool {
	t := p.text
	for i := 0; i+4 <= len(t); i++ {
		if isLetter(t[i]) && isLetter(t[i+1]) && isDigit(t[i+2]) && isDigit(t[i+3]) && (i == 0 || !isAlnum(t[i-1])) {
			return true
		}
	}
	return false
}

// occurrences yields the positions of sub in s, in order.
func occurrences(s, sub string) iter.Seq[int] {
	return func(yield func(int) bool) {
		for off := 0; ; {
			i := strings.Index(s[off:], sub)
			if i < 0 || !yield(off+i) {
				return
			}
			off += i + 1
		}
	}
}

// skip returns where at most n bytes from i that satisfy ok end.
func skip(s string, i, n int, ok func(byte) bool) int {
	j := i
	for j < len(s) && j-i < n && ok(s[j]) {
		j++
	}
	return j
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isDigitRune(r rune) bool { return r >= '0' && r <= '9' }

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isAlnum(c byte) bool { return isDigit(c) || isLetter(c) }

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isLocalChar(c byte) bool {
	return isAlnum(c) || c == '_' || c == '%' || c == '+' || c == '-'
}

// labelNearDigitWithin is labelNearDigit with a reach of its own, for
// labels whose pattern allows more between the label and its digits.
func labelNearDigitWithin(reach int, words ...string) func(*probe) bool {
	return func(p *probe) bool {
		lower := p.folded()
		for _, w := range words {
			for i := range occurrences(lower, w) {
				if i > 0 && isLetter(lower[i-1]) {
					continue
				}
				after := lower[i+len(w) : min(len(lower), i+len(w)+reach)]
				if strings.IndexFunc(after, isDigitRune) >= 0 {
					return true
				}
			}
		}
		return false
	}
}

// ssnLike is a hint: three digits, '-', two digits, '-', four digits.
func ssnLike(p *probe) bool {
	t := p.text
	for i := range occurrences(t, "-") {
		if i >= 3 && isDigit(t[i-1]) && isDigit(t[i-2]) && isDigit(t[i-3]) &&
			i+8 <= len(t) && isDigit(t[i+1]) && isDigit(t[i+2]) && t[i+3] == '-' &&
			isDigit(t[i+4]) && isDigit(t[i+5]) && isDigit(t[i+6]) && isDigit(t[i+7]) {
			return true
		}
	}
	return false
}

// areaCodeLike is a hint: '(', two to five digits, ')'.
func areaCodeLike(p *probe) bool {
	t := p.text
	for i := range occurrences(t, "(") {
		j := skip(t, i+1, 5, isDigit)
		if j-i-1 >= 2 && j < len(t) && t[j] == ')' {
			return true
		}
	}
	return false
}

// mysqlLike is a hint: a MySQL or MariaDB command and "-p".
func mysqlLike(p *probe) bool {
	return strings.Contains(p.text, "-p") && containsFold("mysql", "mariadb")(p)
}

// flagged is a hint: a '-' that starts a word, then letters, digits,
// '-', '_' and '.', ending in one of the words (lower-case) after '-', '_'
// or '.', then a blank, a quote or a backslash: --db-password "….
func flagged(words ...string) func(*probe) bool {
	return func(p *probe) bool {
		if !strings.Contains(p.text, "-") {
			return false
		}
		lower := p.folded()
		for i := range occurrences(lower, "-") {
			if i > 0 && (isAlnum(lower[i-1]) || lower[i-1] == '_' || lower[i-1] == '-') {
				continue
			}
			e := i
			for e < len(lower) && (isAlnum(lower[e]) || strings.IndexByte("-_.", lower[e]) >= 0) {
				e++
			}
			if e == len(lower) || strings.IndexByte(" \t\"'\\", lower[e]) < 0 {
				continue
			}
			for _, w := range words {
				if k := e - len(w); k > i && strings.HasSuffix(lower[:e], w) && strings.IndexByte("-_.", lower[k-1]) >= 0 {
					return true
				}
			}
		}
		return false
	}
}
