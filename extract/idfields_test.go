package extract

import (
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
			[]Field{{"item_ids", "7710234"}, {"item_ids", "7710981"}, {"zip", "19122"}}},
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
