package extract

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// bound is a bound the task puts on a quantity: "at least 20 GB", "no
// more than 3 stops", "under 2 kg", "under $40", "at most 3". It is the
// one reading of the task's bounds; each use takes the ones it needs (a
// listed pick's those in a unit, the price cap money's, a requirement
// any).
type bound struct {
	written string  // phrase, figure and unit, in lower case, a space apart
	at      span    // the phrase and the figure (with a currency's sign) in the task
	whole   span    // at, and the unit or the currency's word after it
	n       float64 // the figure
	figure  string  // the figure as written, without its thousands' commas
	unit    string  // the word after the figure, in lower case ("" if none)
	money   bool    // the figure is money: a currency's sign before it, or its word after
	least   bool    // a least value (at least, over), not a most
	strict  bool    // the figure itself is out (under, over, more than)
	past    bool    // its sentence tells of the past
	budget  bool    // the bound is a budget the task gives in money (budgetBounds)
}

// boundWord is a phrase that bounds the figure after it.
type boundWord struct {
	words         string
	least, strict bool
}

// boundWords are the words before a figure by which a task bounds it,
// each with whether it bounds from below and whether the figure itself
// is out.
var boundWords = []boundWord{
	{"at least", true, false},
	{"no less than", true, false},
	{"no fewer than", true, false},
	{"not less than", true, false},
	{"a minimum of", true, false},
	{"minimum of", true, false},
	{"more than", true, true},
	{"over", true, true},
	{"above", true, true},
	{"beyond", true, true},
	{"exceeding", true, true},
	{"at most", false, false},
	{"no more than", false, false},
	{"not more than", false, false},
	{"a maximum of", false, false},
	{"maximum of", false, false},
	{"up to", false, false},
	{"budget of", false, false},
	{"under", false, true},
	{"less than", false, true},
	{"fewer than", false, true},
	{"lower than", false, true},
	{"cheaper than", false, true},
	{"below", false, true},
}

// boundRe is a bound's phrase, a figure (after a currency's sign, if
// any) and the word after it. Where one phrase ends another ("no more
// than", "more than"), the match at the earlier word takes the words,
// so the bound is read once.
var boundRe = pattern(goWords(boundPhrases())+`\s{1,3}(?:(?<cur>[$€£])\s{0,2})?(?<n>\d{1,9}(?:,\d{3}){0,3}(?:\.\d{1,9})?)(?![\d.,]?\d)(?:\s{0,2}(?<unit>\p{L}{1,20})(?![\p{L}\d]))?`, ci)

// boundPhrases is boundWords as an alternation, a longer phrase before
// one it ends with.
func boundPhrases() string {
	var ws []string
	for _, b := range boundWords {
		ws = append(ws, b.words)
	}
	slices.SortStableFunc(ws, func(a, b string) int { return len(b) - len(a) })
	return strings.Join(ws, "|")
}

// moneyWords are units of money a figure is written in.
var moneyWords = toSet("dollars dollar usd eur euros euro pounds pound gbp chf bucks")

// pastWords are words by which a sentence tells of the past.
var pastWords = toSet("been was were had ago did")

// taskBounds returns the bounds the task puts on figures, in the order
// written. A sentence that tells of the past ("I've been with you for
// over 5 years") marks its bounds past.
func taskBounds(task string) []bound {
	t := newText(task)
	ms := t.all(boundRe, 0)
	budgets := budgetBounds(task)
	if len(ms) == 0 && len(budgets) == 0 {
		return nil
	}
	past := pastSpans(task)
	var out []bound
	for _, m := range ms {
		ng, cg := m.Groups[boundRe.GroupIndex("n")], m.Groups[boundRe.GroupIndex("cur")]
		figAt := ng.Start
		if cg.OK {
			figAt = cg.Start
		}
		phrase := strings.Join(strings.Fields(strings.ToLower(task[m.Whole().Start:figAt])), " ")
		k := slices.IndexFunc(boundWords, func(b boundWord) bool { return b.words == phrase })
		fig := t.named(m, "n")
		n, err := strconv.ParseFloat(strings.ReplaceAll(fig, ",", ""), 64)
		if k < 0 || err != nil || phrase == "up to" && totalBefore(task[:m.Whole().Start]) {
			continue
		}
		b := bound{n: n, figure: strings.ReplaceAll(fig, ",", ""), least: boundWords[k].least, strict: boundWords[k].strict}
		b.at = span{Start: m.Whole().Start, End: ng.End, OK: true}
		b.whole = b.at
		cur := t.named(m, "cur")
		unit := strings.ToLower(t.named(m, "unit"))
		b.money = cur != "" || moneyWords[unit]
		written := []string{phrase, cur + fig}
		if unit != "" && (cur == "" || moneyWords[unit]) {
			b.unit = unit
			b.whole = m.Whole()
			written = append(written, unit)
		}
		b.written = strings.Join(written, " ")
		b.budget = phrase == "budget of" && b.money
		b.past = slices.ContainsFunc(past, func(s span) bool { return s.Start <= b.at.Start && b.at.Start < s.End })
		out = append(out, b)
	}
	for _, b := range budgets {
		if !slices.ContainsFunc(out, func(o bound) bool { return o.at.End == b.at.End }) {
			b.past = slices.ContainsFunc(past, func(s span) bool { return s.Start <= b.at.Start && b.at.Start < s.End })
			out = append(out, b)
		}
	}
	slices.SortStableFunc(out, func(a, b bound) int { return a.at.Start - b.at.Start })
	return out
}

// budgetBounds are the budgets a task gives in money, each a bound at
// most: the amount right after the word "budget" ("the budget is
// $1,400", "is set at") or right before it ("a $1,400 budget"), the
// bound's span running from the one to the other.
func budgetBounds(task string) []bound {
	lower := []byte(task) // ASCII's lower case keeps every byte's offset
	for i, c := range lower {
		if 'A' <= c && c <= 'Z' {
			lower[i] = c + 'a' - 'A'
		}
	}
	t := string(lower)
	var out []bound
	for k := range occurrences(t, "budget") {
		if choiceByte(t, k-1) {
			continue
		}
		after := k + len("budget")
		var a amount
		var at span
		if ams := amounts(task[after:min(len(task), after+24)]); len(ams) > 0 {
			a = ams[0]
			at = span{Start: k, End: after + a.end, OK: true}
		} else if from := max(0, k-16); len(amounts(task[from:k])) > 0 {
			ams := amounts(task[from:k])
			a = ams[len(ams)-1]
			at = span{Start: from + a.start, End: after, OK: true}
		} else {
			continue
		}
		fig := strings.TrimLeft(a.written, "$€£")
		out = append(out, bound{written: strings.Join(strings.Fields(strings.ToLower(task[at.Start:at.End])), " "), at: at, whole: at,
			n: a.value, figure: strings.ReplaceAll(fig, ",", ""), money: true, budget: true})
		break
	}
	return out
}

// totalBefore reports whether text ends in a word that makes a total
// of what comes next: "add up to 12" says what a sum comes to, no bound.
func totalBefore(text string) bool {
	f := strings.Fields(strings.ToLower(text))
	return len(f) > 0 && totalWords[strings.Trim(f[len(f)-1], ",;:")]
}

// totalWords are the words before "up to" that make it a total's.
var totalWords = toSet("add adds added adding sum sums summed summing")

// pastSpans returns where in text its sentences that tell of the past
// are.
func pastSpans(text string) []span {
	var out []span
	at := 0
	for _, s := range sentencesOf(text) {
		k := strings.Index(text[at:], s)
		if k < 0 {
			continue
		}
		sp := span{Start: at + k, End: at + k + len(s), OK: true}
		at = sp.End
		if slices.ContainsFunc(measureWords(s), func(w string) bool { return pastWords[w] }) {
			out = append(out, sp)
		}
	}
	return out
}

// measureWords splits a text, in lower case, into words and figures,
// a figure written against its unit ("20gb") parted from it.
func measureWords(text string) []string {
	var out []string
	for w := range strings.FieldsFuncSeq(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.'
	}) {
		w = strings.Trim(w, ".")
		k := strings.IndexFunc(w, unicode.IsLetter)
		if k > 0 && unicode.IsDigit(rune(w[0])) {
			out = append(out, w[:k], w[k:])
			continue
		}
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// fieldMeasure reads a row's field as a figure in a unit: the figure the
// field starts with and the word after it ("15 GB"), or a bare figure
// under a header whose last word names the unit ("data_gb", "Data
// (GB)").
func fieldMeasure(field, header string) (string, float64, bool) {
	w := measureWords(field)
	if len(w) == 0 {
		return "", 0, false
	}
	n, err := strconv.ParseFloat(w[0], 64)
	if err != nil {
		return "", 0, false
	}
	if len(w) == 2 && !strings.ContainsFunc(w[1], unicode.IsDigit) {
		return w[1], n, true
	}
	if h := plainWords(header); len(w) == 1 && len(h) > 0 {
		return h[len(h)-1], n, true
	}
	return "", 0, false
}

// text is the bound as the task writes it: its phrase and figure, and
// the currency's word after a figure of money ("under 120 EUR").
func (b bound) text(task string) string {
	if b.money {
		return task[b.whole.Start:b.whole.End]
	}
	return task[b.at.Start:b.at.End]
}

// unitBounds are the task's bounds a listed row's figure can break: on
// a figure in a unit other than money (a price cap's, priceCap), in a
// sentence that does not tell of the past.
func unitBounds(task string) []bound {
	var out []bound
	for _, b := range taskBounds(task) {
		if b.unit != "" && !b.money && !b.past {
			out = append(out, b)
		}
	}
	return out
}

// outOfBound returns the pick's breach when the row gives a figure in
// the unit of a bound of the task's that is out of that bound; nil
// otherwise.
func outOfBound(row listedRow, bounds []bound) *ListedPick {
	for _, b := range bounds {
		v, ok := row.measures[b.unit]
		if !ok {
			continue
		}
		if out := b.least && (v < b.n || b.strict && v == b.n) || !b.least && (v > b.n || b.strict && v == b.n); out {
			return &ListedPick{Forbids: strconv.FormatFloat(v, 'f', -1, 64) + " " + b.unit, Asked: b.written}
		}
	}
	return nil
}
