package extract

import (
	"math"
	"strconv"
	"strings"
)

// The months as dates write them, in full or cut short.
const monthWords = `january|jan|february|feb|march|mar|april|apr|may|june|jun|july|jul|august|aug|september|sept|sep|october|oct|november|nov|december|dec`

// The months written in French, Spanish and German, by their numbers.
var foreignMonths = map[string]int{
	"janvier": 1, "février": 2, "fevrier": 2, "mars": 3, "avril": 4, "mai": 5, "juin": 6, "juillet": 7, "août": 8, "aout": 8, "septembre": 9, "octobre": 10, "novembre": 11, "décembre": 12, "decembre": 12,
	"enero": 1, "febrero": 2, "marzo": 3, "abril": 4, "mayo": 5, "junio": 6, "julio": 7, "agosto": 8, "septiembre": 9, "setiembre": 9, "octubre": 10, "noviembre": 11, "diciembre": 12,
	"januar": 1, "jänner": 1, "februar": 2, "märz": 3, "maerz": 3, "juni": 6, "juli": 7, "oktober": 10, "dezember": 12,
}

// foreignMonthWords are foreignMonths' names as a pattern's alternatives;
// the German names English writes alike (April, November) are read as
// English ones.
const foreignMonthWords = `janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre|novembre|décembre|decembre|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|januar|jänner|februar|märz|maerz|juni|juli|oktober|dezember`

// A day of a month without its year: "May 14", "Sept. 3rd", "14 May",
// "the 3rd of June". One followed by a year is a whole date, a claim, and
// so is the first date of a span whose second date writes the year
// ("December 28 to January 3, 2027").
var (
	monthDayRe = pattern(goWords(monthWords)+`\.?\s{1,2}(?<d>\d{1,2})(?:st|nd|rd|th)?(?![\w:.]\d|\w)(?!,?\s{0,2}\d{4}(?!\d))(?!`+spanEndMonthFirst+`)`, ci)
	// A day of a month written in French, Spanish or German, day first:
	// "13 mars", "le 1er juin", "13 de junio", "13. Juni".
	foreignDayMonthRe = pattern(`(?<![\w.])(?<d>\d{1,2})(?:er|\.)?\s{1,2}(?:de\s{1,2})?(?<mon>`+goWords(foreignMonthWords)+`)(?!,?\s{0,2}(?:de\s{1,2})?\d{4}(?!\d))`, ci)
	dayMonthRe        = pattern(`(?<![\w.])(?<d>\d{1,2})(?:st|nd|rd|th)?\s{1,2}(?:of\s{1,2})?(?<mon>`+goWords(monthWords)+`)(?!,?\s{0,2}\d{4}(?!\d))(?!`+spanEndDayFirst+`)`, ci)
)

// foreignDate reports whether a day and a foreign month's name are
// written as a date of its language, not a count of things that share
// the name ("2 mayo packets", "3 Mars bars", "5 Mars rovers"): the day
// written with a stop (German's "13. Juni") or French's "1er", "de"
// before the month (Spanish's), or an article or a preposition before
// the day (le, du, au, el, del, al, am, vom, bis).
func foreignDate(s string, m match) bool {
	w := m.Whole()
	whole := strings.ToLower(s[w.Start:w.End])
	after := strings.TrimLeft(whole, "0123456789")
	if strings.HasPrefix(after, ".") || strings.HasPrefix(after, "er") || strings.Contains(after, " de ") {
		return true
	}
	before := strings.Fields(strings.ToLower(s[max(0, w.Start-16):w.Start]))
	return len(before) > 0 && foreignDatePrepositions[strings.Trim(before[len(before)-1], "(,")]
}

// foreignDatePrepositions are the words French, Spanish and German write
// before a day of a month.
var foreignDatePrepositions = toSet("le du au dès el del al am vom bis ab zum")

// monthDays returns the days of a month a text names without a year, as
// "MM-DD", in the order written: a date a person gives ("move it to May
// 14", "on New Year's Eve") that a call then writes in full (2024-05-14).
func monthDays(t *text) []string {
	var out []string
	add := func(mon string, day string) {
		d, err := strconv.Atoi(day)
		m := monthNumber[strings.ToLower(mon[:min(3, len(mon))])]
		if err != nil || m == 0 || d < 1 || d > 31 {
			return
		}
		md := pad2(m) + "-" + pad2(d)
		for _, x := range out {
			if x == md {
				return
			}
		}
		out = append(out, md)
	}
	for _, m := range t.all(monthDayRe, math.MaxInt) {
		w := t.str(m.Whole())
		add(w, t.named(m, "d"))
	}
	for _, m := range t.all(dayMonthRe, math.MaxInt) {
		add(t.named(m, "mon"), t.named(m, "d"))
	}
	for _, m := range t.all(foreignDayMonthRe, math.MaxInt) {
		d, err := strconv.Atoi(t.named(m, "d"))
		if mon := foreignMonths[strings.ToLower(t.named(m, "mon"))]; err == nil && mon > 0 && d >= 1 && d <= 31 && foreignDate(t.s, m) {
			out = appendNew(out, pad2(mon)+"-"+pad2(d))
		}
	}
	_, named := holidays(t)
	for _, md := range named {
		out = appendNew(out, md)
	}
	return out
}
