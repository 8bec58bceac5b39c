package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

func TestWordNumbers(t *testing.T) {
	tests := []struct {
		text string
		want []float64
	}{
		{"what is the total cost of a dozen pens?", []float64{12}},
		{"two dozen eggs and twenty-four hours", []float64{24}},
		{"three hundred and five pages, then one thousand two hundred words", []float64{305, 1200}},
		{"Fifteen minutes after seven", []float64{7, 15}},
		{"a base fee of $5.00 plus $1.50 per kg", nil},
		{"someone, anyone, tone", nil},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			assert.Equal(t, tt.want, wordNumbers(tt.text))
		})
	}
}

// TestCountsToldToAUser: a reply the user reads next holds the counts it
// writes in words as values, as it would hold them in digits; agents
// writing to one another, a number word opening a name, a bare order of
// magnitude and a small count are not read so.
func TestCountsToldToAUser(t *testing.T) {
	tests := []struct {
		name string
		run  *run.Run
		step int
		want []string
	}{
		{"a count told to a user", chat("user", "How many shirts?", "assistant", "There are eleven available options in our store.", "user", "Thanks."), 1, []string{"11"}},
		{"in digits", chat("user", "How many shirts?", "assistant", "There are 11 available options in our store.", "user", "Thanks."), 1, []string{"11"}},
		{"compound", chat("user", "How many?", "assistant", "There are twenty-four shirts and three hundred and five hats.", "user", "Thanks."), 1, []string{"24", "305"}},
		{"agents among themselves", steps("A", "How many shirts?", "B", "There are eleven available options in our store.", "A", "Thanks."), 1, nil},
		{"a small count, a magnitude, a name", chat("user", "Any tips?", "assistant", "Watch Ocean's Eleven with three friends; a thousand fans did.", "user", "Thanks."), 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, c := range Run(tt.run).Steps[tt.step].Claims {
				if c.Kind == ClaimNumber {
					got = append(got, c.Norm)
				}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestClaimsOfANumberInWords: a short text such as a ground truth that
// is a number in words and nothing else is that number.
func TestClaimsOfANumberInWords(t *testing.T) {
	for text, want := range map[string][]string{"Six": {"6"}, "twenty-four.": {"24"}, "six albums": nil, "6": {"6"}} {
		var got []string
		for _, c := range Claims(text) {
			if c.Kind == ClaimNumber {
				got = append(got, c.Norm)
			}
		}
		assert.Equal(t, want, got, text)
	}
}

// TestAnswerInWords: an answer that is a number in words and nothing else
// is that number; a sentence's number words are not read so.
func TestAnswerInWords(t *testing.T) {
	tests := []struct {
		name string
		run  *run.Run
		want []string
	}{
		{"in digits", steps("A", "How many?", "B", "FINAL ANSWER: 6"), []string{"6"}},
		{"in words", steps("A", "How many?", "B", "FINAL ANSWER: six"), []string{"6"}},
		{"marked up", steps("A", "How many?", "B", "FINAL ANSWER: **twenty-four.**"), []string{"24"}},
		{"a sentence", steps("A", "How many?", "B", "FINAL ANSWER: one of the Moons"), []string{"moons"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, answerNorms(t, tt.run)) })
	}
}
