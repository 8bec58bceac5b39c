package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
