package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPrintedRecords reads the rows of a table a tool's output prints as
// text, as pandas prints a Series and a DataFrame: each row's label (the
// first text field where the index only numbers the rows) is its id, its
// other text fields its words, its figures its numbers. A header, a
// dtype line, prose, a markdown table, code, JSON or a single row is no
// listing.
func TestPrintedRecords(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       []Record
	}{
		{"a value_counts Series", "city\nManchester    412\nBirmingham    397\nName: count, dtype: int64",
			[]Record{{IDs: []string{"Manchester"}, Numbers: []string{"412"}}, {IDs: []string{"Birmingham"}, Numbers: []string{"397"}}}},
		{"a groupby with names of two words", "category\nOffice Supplies     36.75\nTechnology         412.90\nName: order_value, dtype: float64",
			[]Record{{IDs: []string{"Office Supplies"}, Numbers: []string{"36.75"}}, {IDs: []string{"Technology"}, Numbers: []string{"412.9"}}}},
		{"a DataFrame numbered by its index", "   product  month  units  revenue\n24   B-201  March    318   9222.0\n25   B-204  March    472  14160.0",
			[]Record{{IDs: []string{"B-201"}, Words: []string{"march"}, Numbers: []string{"318", "9222"}}, {IDs: []string{"B-204"}, Words: []string{"march"}, Numbers: []string{"472", "14160"}}}},
		{"a missing value is no word", "   name  age\n0  Ada   36.0\n1  Bo    NaN\n2  Cy    41.0",
			[]Record{{IDs: []string{"Ada"}, Numbers: []string{"36"}}, {IDs: []string{"Cy"}, Numbers: []string{"41"}}}},
		{"after a terminal's heading", "exitcode: 0 (execution succeeded)\nCode output: Leeds    288\nYork     140\n",
			[]Record{{IDs: []string{"Leeds"}, Numbers: []string{"288"}}, {IDs: []string{"York"}, Numbers: []string{"140"}}}},
		{"one row", "Manchester    412\nName: count, dtype: int64", nil},
		{"prose", "The total is 412 and the mean is 3.5.\nDone in 2 s.", nil},
		{"a markdown table", "| city | n |\n|---|---|\n| Leeds | 288 |\n| York | 140 |", nil},
		{"JSON", "[{\"city\": \"Leeds\",  \"n\": 288}, {\"city\": \"York\",  \"n\": 140}]", nil},
		{"a header alone", "   order_id  region\n", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, printedRecords(tt.text))
		})
	}
}

// FuzzPrintedRecords: any text reads as no listing or as two rows or more
// (at most maxRecords), each known by one label the text writes and
// giving at least one figure.
func FuzzPrintedRecords(f *testing.F) {
	for _, s := range []string{
		"city\nManchester    412\nBirmingham    397\nName: count, dtype: int64",
		"   product  month  units  revenue\n24   B-201  March    318   9222.0\n25   B-204  March    472  14160.0",
		"exitcode: 0 (execution succeeded)\nCode output: Leeds    288\nYork     140\n",
		"a\t1\nb\t2\r\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		recs := printedRecords(text)
		if recs == nil {
			return
		}
		assert.GreaterOrEqual(t, len(recs), 2)
		assert.LessOrEqual(t, len(recs), maxRecords)
		for _, r := range recs {
			if assert.Len(t, r.IDs, 1) {
				assert.Contains(t, text, r.IDs[0])
			}
			assert.NotEmpty(t, r.Numbers)
		}
	})
}
