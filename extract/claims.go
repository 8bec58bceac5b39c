package extract

import (
	"cmp"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxClaims caps the claims kept for one step; a page of search results
// would otherwise index thousands of values and drown the data edges.
const maxClaims = 200

// Key is the claim's identity for matching across steps: kind and
// normalised value.
func (c Claim) Key() string { return c.Kind.String() + ":" + c.Norm }

// SameKey reports whether c.Key() == o.Key() without building the keys (no
// kind holds the ":"): claims are compared in loops over every step.
func (c Claim) SameKey(o Claim) bool { return c.Kind == o.Kind && c.Norm == o.Norm }

// Matches reports whether two claims state the same value: the same key,
// or two numbers of equal value where one of them carries no unit ("$232.00"
// and "232", but not "25%" and "25 km").
func (c Claim) Matches(o Claim) bool {
	if c.Key() == o.Key() {
		return true
	}
	if c.Kind != ClaimNumber || o.Kind != ClaimNumber {
		return false
	}
	cv, cu := splitUnit(c.Norm)
	ov, ou := splitUnit(o.Norm)
	return cv == ov && (cu == "" || ou == "")
}

// InYear reports whether c is a date in the year a number claim's normal
// form writes ("1961-11-10" is in "1961"): a text that gives the year of a
// date it read states that date's year.
func (c Claim) InYear(year string) bool {
	return c.Kind == ClaimDate && len(year) == 4 && strings.HasPrefix(c.Norm, year) && len(c.Norm) > 4 && c.Norm[4] == '-'
}

// Number returns the numeric value of a number claim.
func (c Claim) Number() (float64, bool) {
	if c.Kind != ClaimNumber {
		return 0, false
	}
	v, _ := splitUnit(c.Norm)
	f, err := strconv.ParseFloat(v, 64)
	return f, err == nil
}

// Fraction is a percentage claim as the fraction it is ("19 percent" is
// 0.19), and whether the claim is one: code and designs write a rate as
// the factor they multiply by.
func (c Claim) Fraction() (Claim, bool) {
	value, unit := c.Value()
	if c.Kind != ClaimNumber || unit != "%" {
		return Claim{}, false
	}
	v, ok := new(big.Rat).SetString(value)
	if !ok {
		return Claim{}, false
	}
	return Claim{Kind: ClaimNumber, Text: c.Text, Norm: ratString(v.Quo(v, big.NewRat(100, 1))), Offset: c.Offset}, true
}

// Value returns a number claim's value and its unit ("" for none) as its
// normal form holds them: "12.3 eur" is "12.3" and "eur".
func (c Claim) Value() (value, unit string) { return splitUnit(c.Norm) }

// NumberValues are the values (Claim.Value) of the numbers a short text
// states, as Claims reads them: what a fact's value, a call's argument or
// a constant's right-hand side ("3.0", Decimal("50")), holds in figures.
func NumberValues(s string) []string {
	var out []string
	for _, c := range Claims(s) {
		if c.Kind == ClaimNumber {
			v, _ := c.Value()
			out = append(out, v)
		}
	}
	return out
}

func splitUnit(norm string) (value, unit string) {
	if i := strings.IndexByte(norm, ' '); i >= 0 {
		return norm[:i], norm[i+1:]
	}
	if strings.HasSuffix(norm, "%") {
		return strings.TrimSuffix(norm, "%"), "%"
	}
	return norm, ""
}

// Claims reads every claim in a short text such as an answer, a question or
// a ground truth. Unlike the per-step reading it keeps small integers ("2
// adults"), which in a long step are mostly list numbers and counts; a
// text that is a number in words and nothing else ("Six") is that number
// alone, as a final answer so written is read as that number (newFinal):
// a capital does not make it a name.
func Claims(s string) []Claim {
	if n, ok := wholeWordNumber(s); ok {
		return []Claim{n}
	}
	return claimsOf(newText(s), nil, false)
}

// NormalizeClaim returns the normalised form of a value of the given kind, as
// it would stand in Claim.Norm: "1,234" and "1234.0" give "1234", "$1,234.50"
// gives "1234.5", "25 percent" gives "25%", "March 5, 2020" gives
// "2020-03-05", "https://WWW.Example.com/a/." gives "example.com/a".
func NormalizeClaim(kind ClaimKind, s string) string {
	s = strings.TrimSpace(s)
	t := newText(s)
	switch kind {
	case ClaimNumber:
		for _, m := range t.numbers(1) {
			if d, ok := withScale(t, m); ok {
				m = d // "high 18F" gives "18 °F", as Claims reads it
			}
			if n, ok := numberNorm(t, m); ok {
				return n
			}
		}
	case ClaimDate:
		for _, m := range t.dates(1) {
			if n, ok := dateNorm(t, m); ok {
				return n
			}
		}
	case ClaimTime:
		for _, m := range t.times(1) {
			if n, ok := timeNorm(t, m); ok {
				return n
			}
		}
	case ClaimURL:
		return urlNorm(s)
	case ClaimPath:
		return PathNorm(strings.TrimRight(s, ".,;:!?)]}'\""))
	case ClaimQuoted:
		return textNorm(strings.Trim(s, `"'“”‘’`))
	case ClaimEntity:
		return entityNorm(s)
	}
	return textNorm(s)
}

// claimsOf reads the claims of one text. agents, when given, are names that
// must not become entity claims (an agent's name is who speaks, not what is
// said). strict drops small bare integers.
func claimsOf(t *text, agents *agentSet, strict bool) []Claim {
	return readClaims(t, agents, strict, false)
}

// readClaims is claimsOf that, with counts, also reads the numbers the
// text writes in words as it would keep them in digits (countWords).
func readClaims(t *text, agents *agentSet, strict, counts bool) []Claim {
	return dedupe(withoutRejected(t.s, allClaims(t, agents, strict, counts)))
}

// rejectedNumbers are the norms of the numbers a text sets aside for the
// one before them ("0.10, not 0.01": 0.01), which readClaims drops: the
// values a critique says are wrong.
func rejectedNumbers(t *text, agents *agentSet) []string {
	cs := allClaims(t, agents, true, false)
	var out []string
	for k, c := range sortedByOffset(cs) {
		if rejectedAt(t.s, cs, k) && !slices.Contains(out, c.Norm) {
			out = append(out, c.Norm)
		}
	}
	return out
}

// allClaims is readClaims before it drops rejected numbers and repeats.
func allClaims(t *text, agents *agentSet, strict, counts bool) []Claim {
	var out []Claim
	// Runtime noise and a diff's hunk headers, then url, path and date
	// spans: numbers inside them are not claims.
	taken := append(runtimeNoise(t.s), hunkHeaders(t.s)...)
	// Nor are a protocol's markup tags (<INFO>) names.
	taken = append(taken, markupTags(t.s)...)
	add := func(k ClaimKind, start, end int, norm string) {
		if norm == "" {
			return
		}
		out = append(out, Claim{Kind: k, Text: t.s[start:end], Norm: norm, Offset: int32(start)})
	}
	// A capture-the-flag flag is one value, whole.
	for _, f := range flagTokens(t.s) {
		taken = append(taken, f)
		add(ClaimQuoted, f.Start, f.End, textNorm(t.s[f.Start:f.End]))
	}
	inside := func(a, b int) bool {
		for _, s := range taken {
			if a < s.End && b > s.Start {
				return true
			}
		}
		return false
	}

	for _, m := range t.fileURLs(maxMatches) {
		taken = append(taken, m.all)
		p := strings.TrimRight(t.str(m.path), ".,;:!?)]}'\"")
		add(ClaimPath, m.all.Start, m.all.End, PathNorm(p))
	}
	for _, m := range t.urls(maxMatches) {
		if inside(m.all.Start, m.all.End) {
			continue
		}
		raw := trimURL(t.str(m.all))
		taken = append(taken, span{Start: m.all.Start, End: m.all.Start + len(raw), OK: true})
		add(ClaimURL, m.all.Start, m.all.Start+len(raw), urlNorm(raw))
	}
	for _, m := range t.paths(maxMatches) {
		if inside(m.Start, m.End) {
			continue
		}
		p := strings.TrimRight(t.str(m), ".,;:!?)]}'\"")
		if !pathLike(p) {
			continue
		}
		taken = append(taken, span{Start: m.Start, End: m.Start + len(p), OK: true})
		add(ClaimPath, m.Start, m.Start+len(p), PathNorm(p))
		if from, to, ok := lineAfterPath(t.s, m.Start+len(p)); ok {
			// "config/app.yaml:14:", as grep -n and compilers print a
			// place: the line is a value the output gives, which a
			// later step names ("on line 14").
			taken = append(taken, span{Start: from, End: to, OK: true})
			add(ClaimNumber, from, to, t.s[from:to])
		}
	}
	// claim adds a value outside what is taken, when it normalises.
	claim := func(k ClaimKind, all span, norm func() (string, bool)) {
		if inside(all.Start, all.End) {
			return
		}
		if n, ok := norm(); ok {
			taken = append(taken, all)
			add(k, all.Start, all.End, n)
		}
	}
	for _, m := range t.dates(maxMatches) {
		claim(ClaimDate, m.all, func() (string, bool) { return dateNorm(t, m) })
	}
	onHolidays, _ := holidays(t)
	for _, d := range onHolidays {
		claim(ClaimDate, d.all, func() (string, bool) { return d.norm, true })
	}
	for _, m := range t.phones(maxMatches) {
		if !inside(m.Start, m.End) {
			taken = append(taken, m)
		}
	}
	for _, m := range t.times(maxMatches) {
		claim(ClaimTime, m.all, func() (string, bool) { return timeNorm(t, m) })
	}
	for _, m := range t.all(bareHourPattern, maxMatches) {
		h := group(m, 1)
		claim(ClaimTime, h, func() (string, bool) { return bareHourNorm(t.str(h)) })
	}
	for _, m := range t.all(continentalPattern, maxMatches) {
		claim(ClaimNumber, m.Whole(), func() (string, bool) { return continentalNorm(t, m) })
	}
	for _, m := range t.numbers(maxMatches) {
		if inside(m.all.Start, m.all.End) {
			continue
		}
		if from, ok := agentNameEndingAt(t.s, m.all.Start, m.all.End, agents); ok {
			taken = append(taken, span{Start: from, End: m.all.End, OK: true}) // nor are its words a name
			continue
		}
		if !standaloneNumber(t, m, strict) {
			// "828 m", "12 s": a lone letter after the number may be a
			// unit or a word; the number is a value either way. "18F",
			// "-3C": a scale's capital against the digits is degrees.
			if d, ok := withScale(t, m); ok {
				m = d
			} else if cut, ok := withoutLetter(t, m); ok && standaloneNumber(t, cut, strict) {
				m = cut
			} else {
				continue
			}
		}
		if n, ok := numberNorm(t, m); ok {
			end := m.all.End
			if v, to, ok := withHundredths(t, m, n); ok {
				n, end = v, to
				taken = append(taken, span{Start: m.all.Start, End: to, OK: true})
			}
			add(ClaimNumber, m.all.Start, end, n)
		}
	}
	for _, q := range wordQuantities(t.s) {
		if !inside(q.start, q.end) {
			add(ClaimNumber, q.start, q.end, q.norm)
		}
	}
	if counts {
		for _, n := range countWords(t.s) {
			if !inside(n.start, n.end) {
				add(ClaimNumber, n.start, n.end, strconv.FormatFloat(n.value, 'f', -1, 64))
			}
		}
	}
	for _, m := range valueQuotations(t) {
		start, end := m.outer.Start, m.outer.End
		if inside(start, end) || jsonString(t.s, start, end) {
			continue
		}
		q := t.s[m.inner.Start:m.inner.End]
		if !hasLetters(q) || !quotedValue(q) {
			continue
		}
		add(ClaimQuoted, start, end, textNorm(q))
	}
	return append(out, entities(t, agents, inside, strict)...)
}

// withoutRejected drops the numbers a text names only to set them aside
// for the one before them: "2.25, not 2.5", "41 rather than 39", "$96
// instead of $100". The text states the first; the second is the value it
// says is wrong, which it neither gives nor uses.
func withoutRejected(s string, cs []Claim) []Claim {
	sortedByOffset(cs)
	drop := make([]bool, len(cs))
	for k := range cs {
		drop[k] = rejectedAt(s, cs, k)
	}
	k := 0
	return slices.DeleteFunc(cs, func(Claim) bool { k++; return drop[k-1] })
}

// sortedByOffset sorts claims in the order the text writes them, and
// returns them.
func sortedByOffset(cs []Claim) []Claim {
	slices.SortStableFunc(cs, func(a, b Claim) int { return cmp.Compare(a.Offset, b.Offset) })
	return cs
}

// rejectedAt reports whether cs[k], of claims in text order, is a number
// the text sets aside for the number before it.
func rejectedAt(s string, cs []Claim, k int) bool {
	if cs[k].Kind != ClaimNumber {
		return false
	}
	for p := k - 1; p >= 0; p-- {
		if cs[p].Kind != ClaimNumber {
			continue
		}
		prevEnd, start := int(cs[p].Offset)+len(cs[p].Text), int(cs[k].Offset)
		return prevEnd <= start && setsAside(s[prevEnd:start])
	}
	return false
}

// setsAside reports whether between, the text between two numbers, sets
// the second aside for the first: ", not ", " rather than ", ", and not ".
func setsAside(between string) bool {
	w := strings.Fields(strings.ToLower(strings.TrimLeft(between, " \t,;")))
	if len(w) > 0 && (w[0] == "and" || w[0] == "but") {
		w = w[1:]
	}
	switch strings.Join(w, " ") {
	case "not", "rather than", "instead of":
		return !strings.ContainsAny(between, ".!?\n") // within one sentence
	}
	return false
}

func dedupe(cs []Claim) []Claim {
	slices.SortStableFunc(cs, func(a, b Claim) int { return cmp.Compare(a.Offset, b.Offset) })
	// Kind and norm are the claim's Key, as SameKey compares them.
	type key struct {
		kind ClaimKind
		norm string
	}
	// A short list, as most steps give, is told apart by a scan of the
	// claims kept; a long one by a map.
	var seen map[key]bool
	if len(cs) > dedupeScan {
		seen = make(map[key]bool, len(cs))
	}
	out := cs[:0]
	for _, c := range cs {
		if seen != nil {
			if seen[key{c.Kind, c.Norm}] {
				continue
			}
			seen[key{c.Kind, c.Norm}] = true
		} else if slices.ContainsFunc(out, c.SameKey) {
			continue
		}
		out = append(out, c)
		if len(out) == maxClaims {
			break
		}
	}
	return out
}

// dedupeScan is the longest list of claims dedupe reads without a map.
const dedupeScan = 16

// trimURL drops what prose puts after a URL: closing punctuation and an
// unbalanced closing bracket (a markdown link's ")").
func trimURL(u string) string {
	for {
		n := len(u)
		u = strings.TrimRight(u, ".,;:!?'\"*")
		if strings.HasSuffix(u, ")") && strings.Count(u, "(") < strings.Count(u, ")") {
			u = u[:len(u)-1]
		}
		if strings.HasSuffix(u, "]") && strings.Count(u, "[") < strings.Count(u, "]") {
			u = u[:len(u)-1]
		}
		if len(u) == n {
			return u
		}
	}
}

// urlNorm lowercases scheme and host, drops the scheme, "www.", the
// fragment and a trailing slash, so that the same page matches however it
// was written.
func urlNorm(u string) string {
	u = trimURL(strings.TrimSpace(u))
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u = u[:i]
	}
	host, rest := u, ""
	if i := strings.IndexAny(u, "/?"); i >= 0 {
		host, rest = u[:i], u[i:]
	}
	host = strings.TrimPrefix(strings.ToLower(host), "www.")
	rest = strings.TrimRight(rest, "/")
	return host + rest
}

func pathLike(p string) bool {
	if strings.Count(p, "/")+strings.Count(p, `\`) >= 2 {
		return true
	}
	base := p[strings.LastIndexAny(p, `/\`)+1:]
	return strings.Contains(base, ".") && hasLetters(base)
}

// jsonString reports a quoted string that is a JSON key or value: the
// ledger's and page metadata's field names are not claims.
func jsonString(s string, start, end int) bool {
	after := strings.TrimLeft(s[end:min(len(s), end+4)], " \t")
	if strings.HasPrefix(after, ":") {
		return true
	}
	before := strings.TrimRight(s[max(0, start-4):start], " \t")
	return strings.HasSuffix(before, ":") || strings.HasSuffix(before, "[") || strings.HasSuffix(before, "{")
}

// textNorm is the normal form of free text: lower case, single spaces, no
// surrounding punctuation.
func textNorm(s string) string {
	return strings.Trim(strings.ToLower(collapse(s)), " .,;:!?*_\"'“”‘’")
}

// entityNorm also drops possessives, so "Seattle Children's Museum" and
// "Seattle Children Museum" match.
func entityNorm(s string) string {
	n := textNorm(s)
	n = strings.TrimPrefix(n, "the ")
	n = strings.ReplaceAll(n, "'s", "")
	n = strings.ReplaceAll(n, "’s", "")
	return n
}

// agentNameEndingAt returns where the name of one of agents (agent keys,
// see run.AgentKey) begins when the number at s[start:end] ends it: "Agent
// 10", "research-agent-2". Wherever such a name is mentioned, its number
// says who, not what; read as a value, it would tie every mention of the
// agent into the run's data flow, and a run would read differently under
// another name.
func agentNameEndingAt(s string, start, end int, agents *agentSet) (int, bool) {
	key := agentKey(s[start:end])
	if !agents.endsAny(key) {
		return 0, false
	}
	for i, words := start, 0; words < 3; words++ {
		k, j := wordBefore(s, i)
		if k == j || j == i && words == 0 {
			return 0, false // no word before it, or none set apart
		}
		key = agentKey(s[k:j]) + key
		if agents.has(key) {
			return k, true
		}
		i = k
	}
	return 0, false
}

// inAgentName reports whether the words at s[start:end] are part of a
// mention of one of agents (agent keys), read with up to three words on
// either side: "Smith" in "Dr Smith 2", "ZqAB" in "ZqAB Y". A name read
// as a value would, like a number in one, tie the agent's mentions into
// the data flow under some names and not under others.
func inAgentName(s string, start, end int, agents *agentSet) bool {
	if !agents.containsKeyOf(s[start:end]) {
		return false
	}
	starts, ends := [4]int{start}, [4]int{end}
	nb, na := 1, 1
	for i := start; nb < len(starts); nb++ {
		k, j := wordBefore(s, i)
		if k == j {
			break
		}
		starts[nb], i = k, k
	}
	for i := end; na < len(ends); na++ {
		j, k := wordAfter(s, i)
		if j == k {
			break
		}
		ends[na], i = k, k
	}
	for _, b := range starts[:nb] {
		for _, e := range ends[:na] {
			if (b < start || e > end) && agents.hasKeyOf(s[b:e]) {
				return true
			}
		}
	}
	return false
}

// nameSeparators may stand between the words of an agent's name.
const nameSeparators = " -_"

// wordBefore returns the word of letters and digits that ends at i, or
// after it the separators before i: k == j when there is none.
func wordBefore(s string, i int) (k, j int) {
	j = i
	for j > 0 && strings.IndexByte(nameSeparators, s[j-1]) >= 0 {
		j--
	}
	k = j
	for k > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:k])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			break
		}
		k -= size
	}
	return k, j
}

// wordAfter is wordBefore read forward: the word that begins at i, or
// after the separators from i.
func wordAfter(s string, i int) (j, k int) {
	j = i
	for j < len(s) && strings.IndexByte(nameSeparators, s[j]) >= 0 {
		j++
	}
	k = j
	for k < len(s) {
		r, size := utf8.DecodeRuneInString(s[k:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			break
		}
		k += size
	}
	return j, k
}

// standaloneNumber decides whether a number match is a value the text
// states, rather than a list marker, part of a phone number, range, time,
// version or identifier.
func standaloneNumber(t *text, m numberMatch, strict bool) bool {
	s := t.s
	start, end := m.all.Start, m.all.End
	unit := t.str(m.unit)
	if unit != "" && len(unit) == 1 && unit != "%" && t.str(m.sp) != "" {
		// "5 s", "3 m": a lone letter after a space is a word, not a unit.
		return false
	}
	if end < len(s) {
		r, _ := utf8.DecodeRuneInString(s[end:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
			return false
		}
		// 555-1234, 7-9, 11:30, 3.11.2, 1/2
		if end+1 < len(s) && strings.ContainsRune("-–:/.", r) && isDigit(s[end+1]) {
			return false
		}
	}
	if start > 0 && t.str(m.sign) == "" {
		r, w := utf8.DecodeLastRuneInString(s[:start])
		if (r == '-' || r == '–') && start-w > 0 {
			prev, _ := utf8.DecodeLastRuneInString(s[:start-w])
			if unicode.IsLetter(prev) || unicode.IsDigit(prev) {
				return false
			}
		}
	}
	mult := t.str(m.mult)
	if len(mult) == 1 && t.str(m.cur) == "" && !attachedMultiplier(m, mult) {
		return false // "5 M", "5m": a multiplier letter needs a currency
	}
	if listMarker(s, start, end) {
		return false
	}
	if num := t.str(m.num); len(num) > 12 && !strings.Contains(num, ",") {
		return false // an identifier (an app id, a timestamp), not a quantity
	}
	if strict && unit == "" && mult == "" && t.str(m.cur) == "" && t.str(m.frac) == "" {
		if n, err := strconv.Atoi(t.str(m.num)); err == nil && n < 10 {
			return false
		}
	}
	return true
}

// attachedMultiplier reports whether the multiplier letter mult of m is
// written against its digits as a magnitude is ("17k", "2.5M"): a k of
// either case, or a capital M. A lower-case m is a unit's (metres,
// minutes) as often, a B a model's size in parameters ("a 3B model") as
// often as a figure, and a letter after a space a word.
func attachedMultiplier(m numberMatch, mult string) bool {
	end := m.num.End
	if m.frac.OK {
		end = m.frac.End
	}
	return m.mult.Start == end && (mult == "k" || mult == "K" || mult == "M")
}

// withoutLetter is a number match that ends in a lone lower-case letter
// after a space, a unit's symbol ("828 m", "12 s") that standaloneNumber
// does not take as one, cut back to its digits, and whether it was one. A
// capital is left out: "18.30 M" is a multiple, "1100 S 2nd Street" an
// address.
func withoutLetter(t *text, m numberMatch) (numberMatch, bool) {
	letter := m.unit
	if !letter.OK || letter.End-letter.Start != 1 {
		letter = m.mult
	}
	if !letter.OK || letter.End-letter.Start != 1 || letter.End != m.all.End || !m.num.OK || m.cur.OK && t.str(m.cur) != "" {
		return m, false
	}
	if c := t.s[letter.Start]; c < 'a' || c > 'z' {
		return m, false
	}
	end := m.num.End
	if m.frac.OK {
		end = m.frac.End
	}
	if end == letter.Start { // "3B": attached, no space between
		return m, false
	}
	m.all.End = end
	m.mult, m.sp, m.unit = span{}, span{}, span{}
	return m, true
}

// withScale is a number match written with a temperature scale's capital
// against its last digit and nothing of a word after it ("high 18F",
// "-3C"), as forecasts shorten "18 °F", taken with that capital as its
// unit, and whether it was one (not a URL's escaped byte, "%2F"). Read bare, the figure would match any
// reading of the same digits in the other scale; read not at all, an
// answer's "64F" would be no value.
func withScale(t *text, m numberMatch) (numberMatch, bool) {
	end := m.num.End
	if m.frac.OK {
		end = m.frac.End
	}
	if !m.num.OK || m.all.End != end || t.str(m.cur) != "" || end >= len(t.s) || t.s[end] != 'C' && t.s[end] != 'F' {
		return m, false
	}
	if m.all.Start > 0 && t.s[m.all.Start-1] == '%' {
		return m, false // a URL's escaped byte ("%2F"), no reading
	}
	if !scaleReading(t.s, m.all.Start, end) {
		return m, false
	}
	if end+1 < len(t.s) {
		r, _ := utf8.DecodeRuneInString(t.s[end+1:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' {
			return m, false
		}
	}
	d := m
	d.unit = span{Start: end, End: end + 1, OK: true}
	d.all.End = end + 1
	if !standaloneNumber(t, d, false) {
		return m, false
	}
	return d, true
}

// scaleReading reports whether the figure at s[start:end], with a scale's
// capital after it, reads as a temperature: no code point ("U+003C"), no
// figure padded with zeros ("003C"), no float literal given to code
// ("x = 0.5F", "f(0.5F)"), and a word of temperature or weather in its
// sentence ("high 18F", "a low of -3C overnight"). A seat, a gate or an
// apartment ("seat 18F", "apartment 4C") is written the same way.
func scaleReading(s string, start, end int) bool {
	digits := strings.TrimLeft(s[start:end], "+-−")
	if len(digits) > 1 && digits[0] == '0' && isDigit(digits[1]) {
		return false
	}
	before := strings.TrimRight(s[:start], " \t")
	if strings.HasSuffix(strings.ToUpper(before), "U+") {
		return false
	}
	if strings.Contains(s[start:end], ".") && (strings.HasSuffix(before, "=") || strings.HasSuffix(before, "(") || strings.HasSuffix(before, ",") && strings.Contains(before[strings.LastIndexByte(before, '\n')+1:], "(")) {
		return false
	}
	from := max(strings.LastIndex(s[:start], ". "), strings.LastIndexAny(s[:start], "!?\n")) + 1
	to := len(s)
	if k := strings.IndexAny(s[end:], "!?\n"); k >= 0 {
		to = end + k
	}
	if k := strings.Index(s[end:to], ". "); k >= 0 {
		to = end + k
	}
	sentence := strings.ToLower(s[from:to])
	if strings.Contains(sentence, "°") {
		return true
	}
	for w := range strings.FieldsFuncSeq(sentence, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if temperatureWords[w] {
			return true
		}
	}
	return false
}

// temperatureWords are the words of a sentence that tells a temperature.
var temperatureWords = toSet("temperature temperatures temp temps weather forecast forecasts high highs low lows degree degrees warm warmer cold colder hot hotter cool cooler freezing chilly mild heat frost overnight celsius fahrenheit thermostat oven feels sunny cloudy rain snow")

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// listMarker: the number is the first thing on its line and is followed by
// "." or ")" and a space, as in "1. Gather information". What follows is
// looked at first: most numbers are not followed so, and finding where
// the line begins reads back over it.
func listMarker(s string, start, end int) bool {
	if !(end+1 < len(s) && (s[end] == '.' || s[end] == ')') && (s[end+1] == ' ' || s[end+1] == '\t')) {
		return false
	}
	lineStart := strings.LastIndexByte(s[:start], '\n') + 1
	return strings.TrimLeft(s[lineStart:start], " \t*#>-") == ""
}

var multipliers = map[string]int64{"thousand": 1e3, "k": 1e3, "million": 1e6, "mn": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9, "trillion": 1e12}

// units maps the ways a unit is written to one name; currencies map to "" so
// that "$232.00" and "232" match.
var units = map[string]string{
	"%": "%", "percent": "%", "per cent": "%", "percent ": "%", "pct": "%",
	"km": "km", "kilometer": "km", "kilometers": "km", "kilometre": "km", "kilometres": "km",
	"mi": "mi", "mile": "mi", "miles": "mi",
	"m": "m", "meter": "m", "meters": "m", "metre": "m", "metres": "m",
	"ft": "ft", "feet": "ft", "foot": "ft",
	"kg": "kg", "kilogram": "kg", "kilograms": "kg", "lb": "lb", "lbs": "lb",
	"degree": "deg", "degrees": "deg",
	"minute": "min", "minutes": "min", "min": "min", "mins": "min",
	"hour": "h", "hours": "h", "hr": "h", "hrs": "h", "h": "h",
	"second": "s", "seconds": "s", "sec": "s", "secs": "s", "s": "s",
	"day": "day", "days": "day", "week": "week", "weeks": "week", "month": "month", "months": "month",
	"year": "year", "years": "year", "yr": "year", "yrs": "year",
	"mph": "mph", "km/h": "km/h",
	"kb": "kb", "mb": "mb", "gb": "gb", "tb": "tb",
	"usd": "", "eur": "", "dollar": "", "dollars": "", "euro": "", "euros": "", "pound": "", "pounds": "",
}

// numberNorm writes the value in a canonical decimal form ("1234.5"),
// multiplied out ("1.08 billion" = "1080000000"), with its unit after a
// space ("5 km") or "%" attached.
// withHundredths reads a whole amount of money in digits and a currency's
// name followed by its hundredths ("5 pounds 50p", "12 dollars and 5
// cents") as the one amount it is, norm with the hundredths added, and
// where it ends.
func withHundredths(t *text, m numberMatch, norm string) (string, int, bool) {
	unit := strings.ToLower(strings.TrimSpace(t.str(m.unit)))
	if u, known := units[unit]; unit == "" || !known || u != "" || t.str(m.frac) != "" || t.str(m.mult) != "" {
		return "", 0, false
	}
	cents, to, ok := hundredths(t.s, m.all.End)
	if !ok || !isDigits(strings.TrimPrefix(norm, "-")) {
		return "", 0, false
	}
	return strings.TrimRight(norm+"."+pad2(int(cents)), "0"), to, true
}

// digitGroups drops the marks that group a number's thousands: commas in
// prose and underscores in code's literals (19_640_000 in Python, Go,
// Rust, Java, C#, JS). Built once: a run holds a great many numbers.
var digitGroups = strings.NewReplacer(",", "", "_", "")

func numberNorm(t *text, m numberMatch) (string, bool) {
	digits := digitGroups.Replace(t.str(m.num)) + t.str(m.frac)
	if len(digits) > 1 && digits[0] == '0' && t.str(m.frac) == "" && t.str(m.unit) == "" {
		return digits, true // a code with leading zeros ("06385"): keep it whole
	}
	n, ok := "", false
	if t.str(m.mult) == "" { // most numbers in a log: written from their digits
		n, ok = decimalNorm(digits, t.str(m.sign) != "")
	}
	if !ok {
		v, ok := new(big.Rat).SetString(digits)
		if !ok {
			return "", false
		}
		if mult := strings.ToLower(t.str(m.mult)); mult != "" {
			v.Mul(v, new(big.Rat).SetInt64(multipliers[mult]))
		}
		if t.str(m.sign) != "" {
			v.Neg(v)
		}
		n = ratString(v)
	}
	if u := t.str(m.unit); u == "C" || u == "F" { // withScale's
		return n + " °" + u, true
	}
	raw := strings.ToLower(t.str(m.unit))
	if strings.HasPrefix(raw, "°") {
		return n + " °" + strings.ToUpper(strings.TrimSpace(raw[len("°"):])), true
	}
	unit, known := units[raw]
	if !known {
		unit = units[strings.TrimSpace(raw)]
	}
	switch unit {
	case "":
		return n, true
	case "%":
		return n + "%", true
	}
	return n + " " + unit, true
}

// decimalNorm returns ratString of the value of digits, negated when neg,
// for ASCII digits with at most one "." and at most twelve digits after
// it; ok is false for others. That form is the digits less the leading
// zeros of the whole part and the trailing zeros of the fraction, which
// FloatString(12) gives exactly: reading them through big.Rat was most of
// what numberNorm cost.
func decimalNorm(digits string, neg bool) (n string, ok bool) {
	whole, frac, _ := strings.Cut(digits, ".")
	if whole == "" || len(frac) > 12 || !allDigits(whole) || !allDigits(frac) {
		return "", false
	}
	whole, frac = strings.TrimLeft(whole, "0"), strings.TrimRight(frac, "0")
	if whole == "" && frac == "" {
		return "0", true // and never "-0"
	}
	if whole == "" {
		whole = "0"
	}
	sign, point := "", ""
	if neg {
		sign = "-"
	}
	if frac != "" {
		point = "."
	}
	return sign + whole + point + frac, true
}

// allDigits reports whether s is ASCII digits, or empty.
func allDigits(s string) bool {
	for i := range len(s) {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func ratString(v *big.Rat) string {
	if v.IsInt() {
		return v.Num().String()
	}
	s := strings.TrimRight(v.FloatString(12), "0")
	return strings.TrimSuffix(s, ".")
}

var monthNumber = map[string]int{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}

// dateNorm writes a date as ISO "2006-01-02", or "2006-01" when the text
// gives no day. Numeric dates are read month first unless the first number
// cannot be a month; two-digit years are 20xx below 50, else 19xx.
func dateNorm(t *text, m dateMatch) (string, bool) {
	y, err := strconv.Atoi(t.str(m.y))
	if err != nil {
		return "", false
	}
	if len(t.str(m.y)) == 2 {
		if y < 50 {
			y += 2000
		} else {
			y += 1900
		}
	}
	month := 0
	if mon := strings.ToLower(t.str(m.mon)); mon != "" {
		month = monthNumber[mon[:3]]
	} else if month, err = strconv.Atoi(t.str(m.m)); err != nil {
		return "", false
	}
	dayText := t.str(m.d)
	if dayText == "" {
		if month < 1 || month > 12 {
			return "", false
		}
		return strconv.Itoa(y) + "-" + pad2(month), true
	}
	day, err := strconv.Atoi(dayText)
	if err != nil {
		return "", false
	}
	if month > 12 && day <= 12 && t.str(m.mon) == "" {
		month, day = day, month
	}
	if then := strings.ToLower(t.str(m.then)); then != "" && monthNumber[then[:3]] < month {
		y-- // a span runs forward: its first date is in the year before its second's
	}
	if month < 1 || month > 12 || day < 1 || day > 31 {
		return "", false
	}
	return strconv.Itoa(y) + "-" + pad2(month) + "-" + pad2(day), true
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// quotedValue keeps quoted text that names something: several words, or one
// word with a capital or a digit that is not a common word. A quoted
// "search" or "TERMINATE" is a UI label or a protocol word.
func quotedValue(q string) bool {
	f := strings.Fields(q)
	if len(f) >= 2 {
		return true
	}
	w := strings.Trim(q, ".,;:!? ")
	if common(w) {
		return false
	}
	return strings.IndexFunc(w, func(r rune) bool { return unicode.IsUpper(r) || unicode.IsDigit(r) }) >= 0
}

// timeNorm writes a time of day as 24-hour "HH:MM".
func timeNorm(t *text, m timeMatch) (string, bool) {
	if m.hw.OK {
		return clockWordsNorm(t, m)
	}
	h, err := strconv.Atoi(t.str(m.h))
	if err != nil {
		return "", false
	}
	minute := 0
	if mt := t.str(m.min); mt != "" {
		if minute, err = strconv.Atoi(mt); err != nil {
			return "", false
		}
	}
	return clockNorm(h, minute, meridiem(t, m))
}

// meridiem is 'a' or 'p' for a time written before or after noon by am
// or pm, 'a' or 'P' by a part of the day ("in the morning", "in the
// evening", "at night"), 0 when it does not say.
func meridiem(t *text, m timeMatch) byte {
	if ap := strings.ToLower(t.str(m.ap)); ap != "" {
		return ap[0]
	}
	if part := strings.ToLower(t.str(m.part)); part != "" {
		if strings.HasSuffix(part, "morning") {
			return 'a'
		}
		return 'P'
	}
	return 0
}

// clockWordsNorm is the time of a half or a quarter past or to an hour:
// "half past seven" is 07:30, "a quarter to eight in the evening" 19:45.
func clockWordsNorm(t *text, m timeMatch) (string, bool) {
	w := strings.ToLower(t.str(m.hw))
	h, err := strconv.Atoi(w)
	if err != nil {
		h = int(numberWords[w])
	}
	if h < 1 || h > 12 {
		return "", false
	}
	minute := 30
	if strings.HasSuffix(strings.ToLower(t.str(m.frac)), "quarter") {
		minute = 15
	}
	if strings.EqualFold(t.str(m.rel), "to") {
		if minute == 30 {
			return "", false // "half to" is no English clock time
		}
		minute = 45
		if h--; h == 0 {
			h = 12
		}
	}
	return clockNorm(h, minute, meridiem(t, m))
}

// clockNorm writes an hour and a minute on a 24-hour clock as "HH:MM";
// ap is meridiem's (0: the hour is as written). An hour past noon with
// a part of the day after it ("19:30 in the evening") is as written.
func clockNorm(h, minute int, ap byte) (string, bool) {
	switch {
	case ap == 0:
	case ap == 'P' && h > 12 && h < 24:
	case h < 1 || h > 12:
		return "", false
	case (ap == 'p' || ap == 'P') && h != 12:
		h += 12
	case ap == 'a' && h == 12:
		h = 0
	}
	if !dayClock(h, minute) {
		return "", false
	}
	return pad2(h) + ":" + pad2(minute), true
}

// dayClock reports whether an hour and minutes are a time of a day's
// 24-hour clock, its end ("24:00") too: minutes and seconds ("45:30") or
// an hour past the day's ("24:30") are not.
func dayClock(h, minute int) bool {
	return h >= 0 && minute >= 0 && minute <= 59 && (h <= 23 || h == 24 && minute == 0)
}

// lineAfterPath returns where the line number of a place written as
// "PATH:LINE:" (or "PATH:LINE:COLUMN:") stands in s, the path ending at
// at; ok is false when no such number follows it.
func lineAfterPath(s string, at int) (from, to int, ok bool) {
	if at >= len(s) || s[at] != ':' {
		return 0, 0, false
	}
	from = at + 1
	to = from
	for to < len(s) && to-from < 7 && isDigit(s[to]) {
		to++
	}
	if to == from || to >= len(s) || s[to] != ':' || s[from] == '0' {
		return 0, 0, false
	}
	return from, to, true
}

// PathNorm is a path's normal form: its file name and the directory that
// holds it. One file is written from different directories (an agent
// given "/repo/src/app.py" lists it as "./src/app.py", a tool prints it
// as "src/app.py"), and the two names nearest the file are what they
// share.
func PathNorm(p string) string {
	var parts []string
	for part := range strings.SplitSeq(p, "/") {
		if part != "" && part != "." {
			parts = append(parts, part)
		}
	}
	if len(parts) < 2 {
		return p
	}
	return parts[len(parts)-2] + "/" + parts[len(parts)-1]
}

// continentalPattern is an amount of money written as much of Europe
// writes it, a dot grouping its thousands and a comma before its cents
// ("1.200 €", "€ 3.450,00", "12,50 €", "EUR 2.500,-"), with the euro's or
// the franc's sign or code before or after it (continentalNorm).
var continentalPattern = pattern(`(?<![\w.,])(?:(?<cur>€|EUR|CHF)\s?)?(?<int>\d{1,3}(?:\.\d{3}){1,6}|\d{1,7})(?:,(?<dec>\d{2})|,-{1,2})?(?:\s?(?<after>€|EUR\b|CHF\b|Euro\b))?(?![\w.,]?\d)`, 0)

// bareHourPattern finds an hour written alone after a word that sets a
// time ("some time after 2", "until 5, please"), with nothing after it
// but the sentence's end or a word that is no unit or thing counted: "after
// 2 days" and "around 3 people" are counts.
var bareHourPattern = pattern(`\b(?:after|before|until|till|around)\s{1,3}(\d{1,2})(?=\s{0,2}(?:[.,;!?)\n]|$)|\s{1,3}(?:on|or|and|if|then|please|today|tomorrow|tonight|works?|is|would|should)\b)`, ci)

// bareHourNorm is the time of day an hour named alone stands for, read in
// the hours people book in: one to seven is in the afternoon, eight to
// twelve before noon or at it. "after 2" asks for 14:00 on.
func bareHourNorm(h string) (string, bool) {
	n, err := strconv.Atoi(h)
	if err != nil || n < 1 || n > 12 {
		return "", false
	}
	ap := byte('a')
	if n <= 7 || n == 12 {
		ap = 'p'
	}
	return clockNorm(n, 0, ap)
}

// afternoonHours reads the times of day a conversation with a person
// writes as an hour of one to seven and its minutes, with no am or pm and
// no leading zero ("2:30", "6:45"), in the afternoon, as bareHourNorm
// reads an hour alone: people book and meet at 2:30 in the afternoon,
// and a clock's 02:30 is written with its zero.
func afternoonHours(cs []Claim) []Claim {
	for k, c := range cs {
		if c.Kind != ClaimTime || len(c.Text) != len("2:30") || c.Text[0] < '1' || c.Text[0] > '7' || c.Text[1] != ':' {
			continue
		}
		if n, ok := clockNorm(int(c.Text[0]-'0'), 0, 'p'); ok {
			cs[k].Norm = n[:3] + c.Norm[3:]
		}
	}
	return cs
}

// continentalNorm is the value of a continentalPattern match, when it
// must be one: thousands grouped by dots with cents after a comma or a
// currency beside them, or cents after a comma with a currency beside
// them. "1.200" alone is as often one point two, and "12,50" a list.
//
// Without a currency, figures inside brackets ("[48.137,11]", compact
// JSON's pair of coordinates) are a list of two numbers.
func continentalNorm(t *text, m match) (string, bool) {
	whole, dec := t.named(m, "int"), t.named(m, "dec")
	money := t.named(m, "cur") != "" || t.named(m, "after") != ""
	grouped := strings.Contains(whole, ".")
	if !(grouped && (dec != "" || money) || !grouped && dec != "" && money) {
		return "", false
	}
	if all := m.Whole(); !money && (all.Start > 0 && t.s[all.Start-1] == '[' || all.End < len(t.s) && t.s[all.End] == ']') {
		return "", false
	}
	digits := strings.ReplaceAll(whole, ".", "")
	if dec != "" {
		digits += "." + dec
	}
	return decimalNorm(digits, false)
}

// Rounding reports, for a number written with a magnitude's letter
// against its digits ("11k", "2.5M", "$40k": attachedMultiplier), its
// value and the place of its last written digit (1000 for "11k", 100000
// for "2.5M"): such a figure is a rounding to that place, and any figure
// within half of it of the value ("11,013" for "11k") is the one it
// rounds. The letter is the one right after the last digit, whatever
// currency the claim's text holds before or after it ("40k USD"). ok is
// false for any other claim, a figure written in full among them.
func (c Claim) Rounding() (value, place float64, ok bool) {
	if c.Kind != ClaimNumber {
		return 0, 0, false
	}
	last := strings.LastIndexFunc(c.Text, func(r rune) bool { return '0' <= r && r <= '9' })
	if last < 0 || last+1 >= len(c.Text) {
		return 0, 0, false
	}
	var mult float64
	switch c.Text[last+1] {
	case 'k', 'K':
		mult = 1e3
	case 'M':
		mult = 1e6
	default:
		return 0, 0, false
	}
	if after, _ := utf8.DecodeRuneInString(c.Text[last+2:]); unicode.IsLetter(after) {
		return 0, 0, false // a unit's first letter ("40km")
	}
	digits := strings.TrimLeftFunc(c.Text[:last+1], func(r rune) bool { return r < '0' || r > '9' })
	place = mult
	if dot := strings.LastIndexByte(digits, '.'); dot >= 0 {
		place = mult / math.Pow(10, float64(len(digits)-dot-1))
	}
	value, err := strconv.ParseFloat(c.Norm, 64) // a unit in it: the letter was no magnitude
	if err != nil {
		return 0, 0, false
	}
	return value, place, true
}
