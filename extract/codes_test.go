package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCodes reads the reference codes a text writes: capital letters, a
// hyphen and three or more digits, each once, and a payment or event
// API's ids (a short prefix, an underscore, four or more digits); not a
// word with a number (COVID-19, GPT-4), a date, letters in lower case
// before a hyphen, or a name with a number (credit_card_7720).
func TestCodes(t *testing.T) {
	for _, tt := range []struct {
		text string
		want []string
	}{
		{"I've opened ticket INC-48213 for laptop LT-5521.", []string{"INC-48213", "LT-5521"}},
		{"See PROJ-1207; PROJ-1207 again (and ABCDEFG-123).", []string{"PROJ-1207"}},
		{"COVID-19 and GPT-4 on 2024-05-15, inc-48213, A1-234, B-12", nil},
		{"line L-90177", []string{"L-90177"}},
		{"Refund ch_7782 (event evt_88213), not user_12 or credit_card_7720.", []string{"ch_7782", "evt_88213"}},
	} {
		assert.Equal(t, tt.want, codes(tt.text), "%q", tt.text)
	}
}

// TestIsIDDesignators: a carrier's designator and number names one
// service of a timetable, as an airline's or a rail line's listing
// prints it; a quarter or a fiscal year beside a year is a period, and a
// word before a number is no designator.
func TestIsIDDesignators(t *testing.T) {
	for _, tt := range []struct {
		v    string
		want bool
	}{
		{"LH 1792", true},
		{"TP 555", true},
		{"U2 8841", true},
		{"Q4 2025", false},
		{"FY 2024", false},
		{"Room 101", false},
		{"LH 17921", false},
		{"lh 1792", false},
		{"2U 555", false},
		{"LH1792", true},
		{"UA2275", true},
		{"FY2024", false},
		{"Q42025", false},
		{"MP3", false},
		{"lh1792", false},
	} {
		assert.Equal(t, tt.want, IsID(tt.v), tt.v)
	}
}

// TestIsIDLettered: capital letters and digits, joined by a hyphen or,
// three digits or more, by nothing, name a record; fewer digits joined,
// lower case, or more than four letters do not. After a "#" they name an
// order; six capitals and digits, two or more of each, name a booking.
func TestIsIDLettered(t *testing.T) {
	for _, tt := range []struct {
		v    string
		want bool
	}{
		{"HAT170", true},
		{"FR-1", true},
		{"QA-12", true},
		{"B204", true},
		{"MP3", false},
		{"A4", false},
		{"hat170", false},
		{"COVID-19", false},
		{"FR-", false},
		{"HAT", false},
		{"#W2378156", true},
		{"#W-2041", true},
		{"#12", false},
		{"HKEG34", true},
		{"NO6JO3", true},
		{"FY2024", false},
		{"ABCDEF", false},
		{"123456", true},
		{"HKEG3", false},
		{"hkeg34", false},
	} {
		assert.Equal(t, tt.want, IsID(tt.v), tt.v)
	}
}
