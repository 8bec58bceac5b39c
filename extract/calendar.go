package extract

import (
	"strconv"
	"strings"
	"time"
)

// Facts of the calendar a text states, which the calendar itself settles:
// whether a year is a leap year ("2023 is a leap year"), how many days a
// month has ("February 2024 has 28 days", "April has 31 days") and the
// weekday of a date ("April 16, 2025 falls on a Thursday", "Friday,
// April 17, 2025").
const (
	weekdayWords = `monday|tuesday|wednesday|thursday|friday|saturday|sunday`
	dayOrdinal   = `(?P<d>\d{1,2})(?:st|nd|rd|th)?`
)

var (
	leapYearRe  = goPattern(`(?i)\b(?P<y>\d{4})\s+(?:is|was|will be)\s+(?P<not>not\s+)?a\s+leap\s+year\b`)
	monthDaysRe = goPattern(`(?i)\b(?P<mon>` + monthWords + `)\.?(?:\s+(?:of\s+)?(?P<y>\d{4}))?\s+(?:has|had|will have|contains)\s+(?P<n>2[89]|3[01])\s+days\b`)
	// A date and the weekday it is said to fall on, in either order.
	weekdayAfterRe  = goPattern(`(?i)\b(?:(?P<mon>` + monthWords + `)\.?\s+` + dayOrdinal + `|(?P<d2>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon2>` + monthWords + `))\.?,?\s+(?P<y>\d{4}),?\s+(?:which\s+)?(?:is|was|will be|falls on|fell on|lands on|is on|was on)\s+(?:a\s+)?(?P<wd>` + weekdayWords + `)\b`)
	weekdayBeforeRe = goPattern(`(?i)\b(?P<wd>` + weekdayWords + `),?\s+(?:(?P<mon>` + monthWords + `)\.?\s+` + dayOrdinal + `|(?P<d2>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon2>` + monthWords + `))\.?,?\s+(?P<y>\d{4})\b`)
)

// calendarSlip reports whether text states a fact of the calendar that
// the calendar contradicts: a slip as sure as arithmetic that does not
// come to what it writes.
func calendarSlip(text string) bool {
	if !strings.Contains(text, "day") && !strings.Contains(text, "DAY") && !strings.Contains(text, "leap") {
		return false
	}
	for _, m := range leapYearRe.allNamed(text) {
		y, _ := strconv.Atoi(m["y"])
		if isLeap(y) == (m["not"] != "") {
			return true
		}
	}
	for _, m := range monthDaysRe.allNamed(text) {
		mon := monthNumber[strings.ToLower(m["mon"][:3])]
		n, _ := strconv.Atoi(m["n"])
		if mon == 0 {
			continue
		}
		if y, err := strconv.Atoi(m["y"]); err == nil {
			if n != daysIn(y, mon) {
				return true
			}
		} else if mon == 2 && n != 28 && n != 29 || mon != 2 && n != daysIn(2001, mon) {
			return true
		}
	}
	for _, re := range []*goRe{weekdayAfterRe, weekdayBeforeRe} {
		for _, m := range re.allNamed(text) {
			mon, day := m["mon"], m["d"]
			if mon == "" {
				mon, day = m["mon2"], m["d2"]
			}
			mn := monthNumber[strings.ToLower(mon[:min(3, len(mon))])]
			d, _ := strconv.Atoi(day)
			y, _ := strconv.Atoi(m["y"])
			if mn == 0 || d < 1 || d > daysIn(y, mn) || y < 1 {
				continue
			}
			if got := time.Date(y, time.Month(mn), d, 12, 0, 0, 0, time.UTC).Weekday(); !strings.EqualFold(got.String(), m["wd"]) {
				return true
			}
		}
	}
	return false
}

// isLeap reports whether year y of the Gregorian calendar is a leap year.
func isLeap(y int) bool { return daysIn(y, 2) == 29 }

// daysIn is the number of days of month m of year y.
func daysIn(y, m int) int {
	return time.Date(y, time.Month(m)+1, 0, 12, 0, 0, 0, time.UTC).Day()
}
