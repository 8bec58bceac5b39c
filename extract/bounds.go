package extract

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// bound is a bound the task puts on a quantity in a unit: "at least 20
// GB", "no more than 3 stops", "under 2 kg".
type bound struct {
	written string  // as the task writes it, in lower case
	n       float64 // the figure
	unit    string  // the unit's word, in lower case
	least   bool    // a least value (at least, over), not a most
	strict  bool    // the figure itself is out (under, over, more than)
}

// boundWords are the words before a figure by which a task bounds it,
// each with whether it bounds from below and whether the figure itself
// is out.
var boundWords = []struct {
	words         []string
	least, strict bool
}{
	{[]string{"at", "least"}, true, false},
	{[]string{"no", "less", "than"}, true, false},
	{[]string{"no", "fewer", "than"}, true, false},
	{[]string{"not", "less", "than"}, true, false},
	{[]string{"a", "minimum", "of"}, true, false},
	{[]string{"minimum", "of"}, true, false},
	{[]string{"more", "than"}, true, true},
	{[]string{"over"}, true, true},
	{[]string{"at", "most"}, false, false},
	{[]string{"no", "more", "than"}, false, false},
	{[]string{"not", "more", "than"}, false, false},
	{[]string{"a", "maximum", "of"}, false, false},
	{[]string{"maximum", "of"}, false, false},
	{[]string{"up", "to"}, false, false},
	{[]string{"under"}, false, true},
	{[]string{"less", "than"}, false, true},
	{[]string{"fewer", "than"}, false, true},
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

// taskBounds returns the bounds the task puts on figures in a unit:
// a bound's words, a figure, and a word of letters after it. A bound on
// money ("under $40") is the price cap's, read apart (priceCap). A
// sentence that tells of the past ("I've been with you for over 5
// years") bounds nothing to come.
func taskBounds(task string) []bound {
	var out []bound
	for _, sentence := range sentencesOf(task) {
		if words := measureWords(sentence); !slices.ContainsFunc(words, func(w string) bool { return pastWords[w] }) {
			out = append(out, sentenceBounds(words)...)
		}
	}
	return out
}

// pastWords are words by which a sentence tells of the past.
var pastWords = toSet("been was were had ago did")

// sentenceBounds returns the bounds of one sentence's words.
func sentenceBounds(words []string) []bound {
	var out []bound
	for k := range words {
		for _, b := range boundWords {
			end := k + len(b.words)
			if end+1 >= len(words) || !slices.Equal(words[k:end], b.words) {
				continue
			}
			n, err := strconv.ParseFloat(words[end], 64)
			unit := words[end+1]
			if err != nil || !strings.ContainsFunc(unit, unicode.IsLetter) || strings.ContainsFunc(unit, unicode.IsDigit) || moneyWords[unit] {
				continue
			}
			if k > 0 && (b.words[0] == "more" || b.words[0] == "less" || b.words[0] == "fewer") && (words[k-1] == "no" || words[k-1] == "not") {
				continue // "no more than", read by its own words
			}
			out = append(out, bound{written: strings.Join(words[k:end+2], " "), n: n, unit: unit, least: b.least, strict: b.strict})
			break
		}
	}
	return out
}

// moneyWords are units of money a figure is written in: a bound on them
// is a price cap's.
var moneyWords = map[string]bool{"dollars": true, "dollar": true, "usd": true, "eur": true, "euros": true, "euro": true, "pounds": true, "gbp": true, "bucks": true}

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
