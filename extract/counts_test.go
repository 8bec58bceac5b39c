package extract

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCounts reads the numbers a person states of a thing, in digits or
// words, with the words after them; not amounts, decimals, times, dates,
// percentages or ids. Shapes: tau-bench airline's baggage and passenger
// requests, a hotel booking's nights and guests.
func TestCounts(t *testing.T) {
	for _, tt := range []struct {
		text string
		want []Count
	}{
		{"I want to check one extra bag, so two bags in total.", []Count{{"extra", 1}, {"bag", 1}, {"bags", 2}, {"in", 2}}},
		{"Adding one makes 2 checked bags.", []Count{{"makes", 1}, {"checked", 2}, {"bags", 2}}},
		{"Book 3 nights (for 2 guests).", []Count{{"nights", 3}, {"guests", 2}}},
		{"It costs $50, or 2.5% at 10:30 on 2026-12-04 for order #W12 and A4 paper.", nil},
		{"Twenty-one, 150 bags.", nil},
	} {
		assert.Equal(t, tt.want, counts(tt.text), tt.text)
	}
}

// TestArgCounts reads the whole numbers under a hundred a call's JSON
// arguments give, each with its key, at any depth, keys in order; not amounts, ids or
// numbers written as strings. Shape: tau-bench airline's
// update_reservation_baggages.
func TestArgCounts(t *testing.T) {
	assert.Equal(t, []Field{{"nonfree_baggages", "3"}, {"nights", "2"}, {"total_baggages", "4"}},
		argCounts(`{"reservation_id": "7QK2LD", "total_baggages": 4, "nonfree_baggages": 3, "amount": 150, "price": 49.5, "stay": {"nights": 2, "room": "12"}}`))
	assert.Nil(t, argCounts(`not json: 4`))
}

func TestJSONLeaves(t *testing.T) {
	var v any
	require.NoError(t, json.Unmarshal([]byte(`{"b": [1, {"c": "x"}], "a": true, "d": null}`), &v))
	var keys []string
	var leaves []any
	for k, leaf := range jsonLeaves(v) {
		keys, leaves = append(keys, k), append(leaves, leaf)
	}
	assert.Equal(t, []string{"a", "b", "c", "d"}, keys, "keys sorted; an array's items under its key")
	assert.Equal(t, []any{true, 1.0, "x", nil}, leaves)
}

// TestArgNumbers reads the numbers a call's JSON arguments give, with
// their keys; not numbers written as strings, nor ids written as numbers
// under a key that names an id, in any of the ways keys are joined.
func TestArgNumbers(t *testing.T) {
	c := Call{Args: `{"hotel_id": 40417, "hotelId": 40417, "roomID": 12, "id": 7, "nights": 2, "total": 418.5, "code": "55120", "identity": 3}`}
	assert.Equal(t, []Field{{"identity", "3"}, {"nights", "2"}, {"total", "418.5"}}, c.ArgNumbers())
	assert.Nil(t, Call{Args: `not json: 4`}.ArgNumbers())
}
