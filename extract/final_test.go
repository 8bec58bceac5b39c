package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// An answer that states a call's result reports the value the call gave:
// the call's arguments are no value of it, and the function is named.
func TestFinalAnswerOfACallsResult(t *testing.T) {
	tests := []struct {
		text, call string
		norms      []string
	}{
		{"signup.py is done and tested. can_register(18) returns False.", "can_register", nil},
		{"vat_amount(100) returns 16.0.", "vat_amount", []string{"16"}},
		{"shipping_cost(12.5) == 7.99", "shipping_cost", []string{"7.99"}},
		{"The limit is 120 requests per minute.", "", []string{"120"}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			fa := newFinal(3, tt.text, SourceLastAnswer, nil, true)
			assert.Equal(t, tt.call, fa.Call)
			var norms []string
			for _, c := range fa.Claims {
				if c.Kind == ClaimNumber {
					norms = append(norms, c.Norm)
				}
			}
			assert.Equal(t, tt.norms, norms)
		})
	}
}
