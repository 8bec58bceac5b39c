package extract

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestIDFields reads the ids a tool's JSON output prints, each with its
// field's name, elements of a list of ids under the list's; not short
// numbers, prices or words, and nothing from output that is no JSON.
// Shapes: tau-bench's retail and airline tools' results, one written
// after the tool's name as Who&When-shaped logs keep them.
func TestIDFields(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       []Field
	}{
		{"a listing", `{"lines": [{"line_id": "L-90199", "number": "555-0199"}, {"line_id": "L-90177", "number": "555-0177"}]}`,
			[]Field{{"line_id", "L-90199"}, {"line_id", "L-90177"}}},
		{"a list of ids, numbers as JSON numbers", `get_order_details -> {"order_id": "#W5521873", "item_ids": ["7710234", 7710981], "price": 39.5, "zip": "19122"}`,
			[]Field{{"item_ids", "7710234"}, {"item_ids", "7710981"}, {"order_id", "#W5521873"}, {"zip", "19122"}}},
		{"no JSON", "Line L-90177 is active.", nil},
	} {
		assert.Equal(t, tt.want, idFields(decoded(tt.text)), tt.name)
	}
}

// decoded is a tool output's JSON as toolJSON reads it, nil when it reads
// none.
func decoded(text string) any {
	v, _, _ := toolJSON(text)
	return v
}

// TestIDSpellings: an id of letters then digits is written with a space,
// a hyphen or nothing between them and with or without "#"; ids that
// differ in a letter or a digit share no spelling.
func TestIDSpellings(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		same bool
	}{
		{"UA 2275", "UA2275", true},
		{"W-2041", "#W2041", true},
		{"#w2041", "W 2041", true},
		{"UA2275", "UA2257", false},
		{"LH1404", "LH1405", false},
		{"LH1404", "LX1404", false},
		{"credit_card_6617", "credit_card_6617", true},
		{"Q4 2025", "Q42025", false},
	} {
		shared := slices.ContainsFunc(IDSpellings(tt.a), func(s string) bool { return slices.Contains(IDSpellings(tt.b), s) })
		assert.Equal(t, tt.same, shared, tt.a+" "+tt.b)
	}
}
