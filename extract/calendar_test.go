package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestCalendarSlip: a leap year, a month's days or a date's weekday
// stated wrong is a slip; stated right, negated right, or without the
// year that settles it, none.
func TestCalendarSlip(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"2023 is a leap year, so February 2023 has 29 days.", true},
		{"2024 is a leap year, so February 2024 has 29 days.", false},
		{"1976 was not a leap year.", true},
		{"1900 was not a leap year, though it is divisible by 4.", false},
		{"February 2024 has 28 days, so day 30 is March 1.", true},
		{"April has 31 days.", true},
		{"March has 31 days and February has 29 days in a leap year.", false},
		{"April 16, 2025 falls on a Thursday.", true},
		{"April 16, 2025 falls on a Wednesday.", false},
		{"Day 45 is April 16, 2025, which falls on a Thursday.", true},
		{"The day after is Friday, April 17, 2025.", true},
		{"Monday, March 3, 2025 is day 1.", false},
		{"The meeting is on 4 July 2026, which is a Saturday.", false},
		{"4 July 2026 is a Sunday.", true},
		{"May 14 is a Tuesday.", false},
		{"Feb 30, 2024 was a Friday.", false},
		{"The trip in April is 10 days.", false},
		{"June has 15 days left.", false},
		{"April is 31 days long.", false},
	} {
		t.Run(tc.text, func(t *testing.T) {
			assert.Equal(t, tc.want, calendarSlip(tc.text))
			r := &run.Run{Question: "q", Steps: []run.Step{{Index: 0, Agent: "agent", Kind: run.KindMessage, Content: tc.text}}}
			assert.Equal(t, tc.want, Run(r).Steps[0].Miscomputes, "a calendar slip is the step's own slip")
		})
	}
}

// FuzzCalendarSlip: any text is read without a panic.
func FuzzCalendarSlip(f *testing.F) {
	for _, s := range []string{"0000 is a leap year", "Friday, Feb 29, 0", "Sept. 31st, 99999 is a Monday", "February 2024 has 99 days"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { calendarSlip(s) })
}
