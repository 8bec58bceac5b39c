package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTaskBounds: the one reader of the bounds a task sets reads every
// phrase each use knows, with its figure, its unit or its money, whether
// it bounds from below and whether the figure itself is out. A phrase
// that ends another ("more than" in "no more than") is read once, as the
// longer one; a sentence that tells of the past marks its bounds past;
// "add up to 12" is a total, no bound.
func TestTaskBounds(t *testing.T) {
	type b struct {
		written       string
		text          string
		n             float64
		unit          string
		money         bool
		least, strict bool
		past          bool
	}
	for _, tt := range []struct {
		task string
		want []b
	}{
		{"a plan with at least 20 GB", []b{{"at least 20 gb", "at least 20", 20, "gb", false, true, false, false}}},
		{"no less than 3 rooms", []b{{"no less than 3 rooms", "no less than 3", 3, "rooms", false, true, false, false}}},
		{"no fewer than 4 seats", []b{{"no fewer than 4 seats", "no fewer than 4", 4, "seats", false, true, false, false}}},
		{"not less than 2 beds", []b{{"not less than 2 beds", "not less than 2", 2, "beds", false, true, false, false}}},
		{"a minimum of 5 stars", []b{{"a minimum of 5 stars", "a minimum of 5", 5, "stars", false, true, false, false}}},
		{"minimum of 5 stars", []b{{"minimum of 5 stars", "minimum of 5", 5, "stars", false, true, false, false}}},
		{"more than 8 GB", []b{{"more than 8 gb", "more than 8", 8, "gb", false, true, true, false}}},
		{"over 2 kg", []b{{"over 2 kg", "over 2", 2, "kg", false, true, true, false}}},
		{"above 30 mph", []b{{"above 30 mph", "above 30", 30, "mph", false, true, true, false}}},
		{"beyond 10 km", []b{{"beyond 10 km", "beyond 10", 10, "km", false, true, true, false}}},
		{"exceeding 500 words", []b{{"exceeding 500 words", "exceeding 500", 500, "words", false, true, true, false}}},
		{"at most 3 stops", []b{{"at most 3 stops", "at most 3", 3, "stops", false, false, false, false}}},
		{"no more than 12GB, please", []b{{"no more than 12 gb", "no more than 12", 12, "gb", false, false, false, false}}},
		{"Not more than 2 bags", []b{{"not more than 2 bags", "Not more than 2", 2, "bags", false, false, false, false}}},
		{"a maximum of 4 guests", []b{{"a maximum of 4 guests", "a maximum of 4", 4, "guests", false, false, false, false}}},
		{"maximum of 4 guests", []b{{"maximum of 4 guests", "maximum of 4", 4, "guests", false, false, false, false}}},
		{"up to 6 people", []b{{"up to 6 people", "up to 6", 6, "people", false, false, false, false}}},
		{"a budget of $1,400", []b{{"budget of $1,400", "budget of $1,400", 1400, "", true, false, false, false}}},
		// a budget, the amount after the word or before it
		{"the budget is $1,400 in total", []b{{"budget is $1,400", "budget is $1,400", 1400, "", true, false, false, false}}},
		{"a trip on a $2,000 budget", []b{{"$2,000 budget", "$2,000 budget", 2000, "", true, false, false, false}}},
		{"under 2 kg", []b{{"under 2 kg", "under 2", 2, "kg", false, false, true, false}}},
		{"less than 50", []b{{"less than 50", "less than 50", 50, "", false, false, true, false}}},
		{"fewer than 3 stops", []b{{"fewer than 3 stops", "fewer than 3", 3, "stops", false, false, true, false}}},
		{"price lower than 40.00 dollars", []b{{"lower than 40.00 dollars", "lower than 40.00 dollars", 40, "dollars", true, false, true, false}}},
		{"cheaper than €80", []b{{"cheaper than €80", "cheaper than €80", 80, "", true, false, true, false}}},
		{"below 0 celsius", []b{{"below 0 celsius", "below 0", 0, "celsius", false, false, true, false}}},
		// money by its sign before the figure or its word after it; a
		// word after a sign's figure is no unit
		{"under $150 a night", []b{{"under $150", "under $150", 150, "", true, false, true, false}}},
		{"under 120 EUR per night", []b{{"under 120 eur", "under 120 EUR", 120, "eur", true, false, true, false}}},
		// read once, as the longer phrase
		{"no more than 3 items, no less than 2 colours", []b{
			{"no more than 3 items", "no more than 3", 3, "items", false, false, false, false},
			{"no less than 2 colours", "no less than 2", 2, "colours", false, true, false, false}}},
		// past sentences
		{"I've been with you for over 5 years. Switch me to a plan with at least 20 GB.", []b{
			{"over 5 years", "over 5", 5, "years", false, true, true, true},
			{"at least 20 gb", "at least 20", 20, "gb", false, true, false, false}}},
		// no bound
		{"How many numbers have digits that add up to 12?", nil},
		{"Keep me up to date on the 3 orders.", nil},
		{"a suitcase of 5 kg", nil},
	} {
		var got []b
		for _, x := range taskBounds(tt.task) {
			got = append(got, b{x.written, x.text(tt.task), x.n, x.unit, x.money, x.least, x.strict, x.past})
		}
		assert.Equal(t, tt.want, got, tt.task)
	}
}
