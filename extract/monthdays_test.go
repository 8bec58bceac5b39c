package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestMonthDays: the days of a month a text names without a year, in
// either order and with an ordinal, as a customer writes them to a
// support assistant; a date with its year (a claim of its own), a time
// of day, a modal "may" before a figure of another kind and a month
// alone are none.
func TestMonthDays(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"I need to move it from May 13 to May 14, same route.", []string{"05-13", "05-14"}},
		{"Book me on Sept. 3rd, or the 4th of September.", []string{"09-03", "09-04"}},
		{"Arriving 21 December in the evening", []string{"12-21"}},
		{"The flight on May 14, 2024 left late.", nil},
		{"It was on 14 May 2024.", nil},
		{"The Pine cabin from December 28 to January 3, 2027, please.", nil},
		{"From 20 November – 10 February 2025.", nil},
		{"I need to move it from May 13 to May 14 and back.", []string{"05-13", "05-14"}},
		{"Results may 2.5 times exceed", nil},
		{"See you in March.", nil},
		{"Jan 32 is no day.", nil},
		{"La réunion est le 13 mars, puis le 1er juin.", []string{"03-13", "06-01"}},
		{"Reserva para el 13 de junio, por favor.", []string{"06-13"}},
		{"Termin am 13. Juni oder am 2. März.", []string{"06-13", "03-02"}},
		{"Le 13 mars 2026 à Lyon.", nil},
		{"Add 2 mayo packets and 3 mars bars to the order.", nil},
		{"NASA has landed 5 Mars rovers.", nil},
	} {
		t.Run(tc.text, func(t *testing.T) {
			assert.Equal(t, tc.want, monthDays(newText(tc.text)))
		})
	}
}

// TestHolidays: a holiday whose date is fixed, named with its year, is
// that date, and named without one is its month and day; a holiday whose
// date a country's calendar sets is neither.
func TestHolidays(t *testing.T) {
	for _, tt := range []struct {
		text  string
		dates []string
		days  []string
	}{
		{"Move our stay to Christmas Day 2027, please.", []string{"2027-12-25"}, nil},
		{"A table for two on New Year's Eve, and one on New Year’s Day 2027.", []string{"2027-01-01"}, []string{"12-31"}},
		{"Can it arrive before Halloween? Or Christmas Eve at the latest.", nil, []string{"10-31", "12-24"}},
		{"Book it for Thanksgiving or Easter Sunday 2027.", nil, nil},
		{"We need a room for a Christmas party of forty.", nil, nil},
		{"It's for our Christmas dinner; Christmas shopping is done.", nil, nil},
		{"Can it arrive by Christmas and not later?", nil, []string{"12-25"}},
		{"Can it arrive by Christmas?", nil, []string{"12-25"}},
		{"It is for Christmas 2026.", []string{"2026-12-25"}, nil},
	} {
		var dates []string
		for _, c := range claimsOf(newText(tt.text), nil, true) {
			if c.Kind == ClaimDate {
				dates = append(dates, c.Norm)
			}
		}
		assert.Equal(t, tt.dates, dates, tt.text)
		assert.Equal(t, tt.days, monthDays(newText(tt.text)), tt.text)
	}
}
