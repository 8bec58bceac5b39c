package extract

import (
	"math"
	"strconv"
	"strings"
)

// The months as dates write them, in full or cut short.
const monthWords = `january|jan|february|feb|march|mar|april|apr|may|june|jun|july|jul|august|aug|september|sept|sep|october|oct|november|nov|december|dec`

// A day of a month without its year: "May 14", "Sept. 3rd", "14 May",
// "the 3rd of June". One followed by a year is a whole date, a claim, and
// so is the first date of a span whose second date writes the year
// ("December 28 to January 3, 2027").
var (
	monthDayRe = pattern(goWords(monthWords)+`\.?\s{1,2}(?<d>\d{1,2})(?:st|nd|rd|th)?(?![\w:.]\d|\w)(?!,?\s{0,2}\d{4}(?!\d))(?!`+spanEndMonthFirst+`)`, ci)
	dayMonthRe = pattern(`(?<![\w.])(?<d>\d{1,2})(?:st|nd|rd|th)?\s{1,2}(?:of\s{1,2})?(?<mon>`+goWords(monthWords)+`)(?!,?\s{0,2}\d{4}(?!\d))(?!`+spanEndDayFirst+`)`, ci)
)

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
	_, named := holidays(t)
	for _, md := range named {
		out = appendNew(out, md)
	}
	return out
}
