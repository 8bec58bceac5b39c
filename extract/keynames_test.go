package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNamesPriceAndMoney: a field's name names a price or an amount of
// money by its words, not by letters inside another word (welfare,
// costume), and a total of things counted (total_items, itemCount) is a
// count, not money.
func TestNamesPriceAndMoney(t *testing.T) {
	tests := []struct {
		key          string
		price, money bool
	}{
		{"price", true, true},
		{"list_price", true, true},
		{"maxPricePerNight", true, true},
		{"unitprice", true, true},
		{"totalCost", true, true},
		{"totalcost", true, true},
		{"fare", true, true},
		{"base_fare", true, true},
		{"airfare", true, true},
		{"welfare_score", false, false},
		{"warfare", false, false},
		{"costume", false, false},
		{"farewell_message", false, false},
		{"refund_amount", false, true},
		{"grandTotal", false, true},
		{"items_total", false, true},
		{"total_items", false, false},
		{"totalCount", false, false},
		{"feedback", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			assert.Equal(t, tt.price, namesPrice(tt.key), "namesPrice")
			assert.Equal(t, tt.money, namesMoney(tt.key), "namesMoney")
		})
	}
}
