package extract

import (
	"math"
	"slices"
	"strings"
)

// Weekday is a day of the week a step names from today ("on Friday",
// "this Thursday", "next Tuesday", "last Monday"), the relativeDayRe
// forms that pin one date once today is known.
type Weekday struct {
	// Day is the day of the week, 0 for Sunday to 6 for Saturday, as
	// time.Weekday counts.
	Day int `json:"day"`
	// Shift is "next" for "next Tuesday", "last" for "last Friday", and
	// "" for the coming one ("on", "this", "coming", "to", "until").
	Shift string `json:"shift,omitempty"`
}

// weekdayNames are the days of the week in time.Weekday's order.
var weekdayNames = [...]string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// weekdays returns the days of the week a text names from today, and
// whether it also names a day from today some other way ("tomorrow", "in
// three days", "next week", "by Friday", "after Monday"): a day that does
// not pin one date. A day moved to a weekday ("move it from Monday to
// Thursday") is named by the weekday it is moved to.
func weekdays(t *text) (out []Weekday, other bool) {
	for _, m := range t.all(relativeDayRe, math.MaxInt) {
		w := strings.ToLower(strings.Join(strings.Fields(t.str(m.Whole())), " "))
		day := -1
		for d, name := range weekdayNames {
			if strings.HasSuffix(w, name) {
				day = d
			}
		}
		first, _, _ := strings.Cut(w, " ")
		shift := ""
		switch first {
		case "next", "last":
			shift = first
		case "on", "this", "coming", "to", "until", "for":
		default:
			if !strings.Contains(w, " from ") {
				day = -1
			}
		}
		if day < 0 {
			other = true
			continue
		}
		if wd := (Weekday{Day: day, Shift: shift}); !slices.Contains(out, wd) {
			out = append(out, wd)
		}
	}
	return out, other
}
