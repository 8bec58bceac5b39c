package extract

import (
	"strconv"
	"strings"
)

// holidayRe finds a holiday whose date is fixed the world over, by name,
// with its year after it or none ("Christmas Day 2027", "New Year's Eve",
// "on Halloween"). A holiday whose date a country's calendar sets
// (Thanksgiving, Easter, a national day) is not read: its date depends
// on what the run does not say.
var holidayRe = pattern(`\b(?<name>christmas\s{1,3}eve|christmas(?:\s{1,3}day)?|new\s{1,3}year(?:'|’)?s\s{1,3}(?:eve|day)|hallowe(?:'|’)?en|valentine(?:'|’)?s\s{1,3}day|st\.?\s{1,3}patrick(?:'|’)?s\s{1,3}day)(?:,?\s{1,3}(?<y>\d{4})(?!\d))?\b`, ci)

// holidayDates are the month and day of each holiday holidayRe reads, by
// the first letters of its name in lower case, its spaces and
// apostrophes taken out.
var holidayDates = []struct{ prefix, md string }{
	{"christmaseve", "12-24"},
	{"christmas", "12-25"},
	{"newyearseve", "12-31"},
	{"newyearsday", "01-01"},
	{"halloween", "10-31"},
	{"valentinesday", "02-14"},
	{"stpatricksday", "03-17"},
}

// holidayMonthDay is the month and day ("12-25") of a holiday's name as
// holidayRe reads it, "" for none.
func holidayMonthDay(name string) string {
	key := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' {
			return r
		}
		return -1
	}, strings.ToLower(name))
	for _, h := range holidayDates {
		if strings.HasPrefix(key, h.prefix) {
			return h.md
		}
	}
	return ""
}

// holidays returns the holidays a text names: with a year, as the dates
// they are ("2027-12-25"), and without one as months and days ("12-25")
// that a call writes in full, as monthDays reads "December 25".
func holidays(t *text) (dates []dateSpan, days []string) {
	for _, m := range t.all(holidayRe, maxMatches) {
		name := t.named(m, "name")
		md := holidayMonthDay(name)
		if md == "" || strings.EqualFold(name, "christmas") && t.named(m, "y") == "" && qualifies(t.s, m.Whole()) {
			continue
		}
		y := t.named(m, "y")
		if y == "" {
			days = appendNew(days, md)
			continue
		}
		if n, err := strconv.Atoi(y); err == nil && n >= 1000 {
			dates = append(dates, dateSpan{all: m.Whole(), norm: y + "-" + md})
		}
	}
	return dates, days
}

// dateSpan is a date a text names and where.
type dateSpan struct {
	all  span
	norm string
}

// qualifies reports whether the word at sp in s stands before a noun it
// qualifies rather than for a day: a determiner before it ("a Christmas
// party", "our Christmas dinner"), or a word in lower case after it that
// is none of the words that go on after a day ("Christmas shopping", but
// "by Christmas and", "Christmas this year").
func qualifies(s string, sp span) bool {
	before := strings.Fields(strings.ToLower(s[max(0, sp.Start-8):sp.Start]))
	if len(before) > 0 && sp.Start > 0 && s[sp.Start-1] == ' ' && determiners[before[len(before)-1]] {
		return true
	}
	after := strings.TrimLeft(s[sp.End:], " ")
	if len(after) == len(s[sp.End:]) {
		return false // a comma, a stop or the end: the day
	}
	w := after[:len(after)-len(strings.TrimLeft(after, "abcdefghijklmnopqrstuvwxyz"))]
	return w != "" && !afterDay[w]
}

// determiners are the words before a noun's qualifier.
var determiners = map[string]bool{"a": true, "an": true, "the": true, "our": true, "my": true, "your": true, "his": true, "her": true, "their": true, "its": true, "this": true, "that": true}

// afterDay are the words in lower case that go on after a day's name.
var afterDay = map[string]bool{"and": true, "or": true, "to": true, "at": true, "in": true, "on": true, "this": true, "next": true, "last": true, "is": true, "was": true, "falls": true, "we": true, "i": true, "so": true, "then": true, "but": true, "with": true, "please": true, "if": true, "when": true, "morning": true, "evening": true, "night": true, "week": true}
