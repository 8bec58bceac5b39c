package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestWeekdays: the days of the week a person names from today, with
// "next" or "last" where it shifts them, and whether a day from today
// is also named some other way, which pins no one date.
func TestWeekdays(t *testing.T) {
	for _, tt := range []struct {
		text  string
		want  []Weekday
		other bool
	}{
		{"Can I get a cut and blow-dry on Friday, some time after 2?", []Weekday{{Day: 5}}, false},
		{"I need a blood test next Tuesday, early morning.", []Weekday{{Day: 2, Shift: "next"}}, false},
		{"Is this Thursday free? If not, the slot of last Monday again.", []Weekday{{Day: 4}, {Day: 1, Shift: "last"}}, false},
		{"What did I pay last Friday?", []Weekday{{Day: 5, Shift: "last"}}, false},
		{"Please move it from Monday to Thursday.", []Weekday{{Day: 4}}, false},
		{"It has to arrive by Friday.", nil, true},
		{"Book it for tomorrow, or on Friday.", []Weekday{{Day: 5}}, true},
		{"Move it to Thursday 4 December.", nil, false},
		{"We are open Monday to Friday.", nil, false},
	} {
		got, other := weekdays(newText(tt.text))
		assert.Equal(t, tt.want, got, tt.text)
		assert.Equal(t, tt.other, other, tt.text)
	}
}
