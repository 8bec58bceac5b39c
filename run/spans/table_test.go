package spans

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTableRows: a table written as CSV or TSV (pandas' to_csv, a tool's
// table export) reads as the JSON rows its frame would: pandas' unnamed
// index column left out, an empty cell null, Python's True and False
// booleans, numbers numbers, a cell that holds a list or a dict as Python
// writes it that value, and text that is JSON the text it was.
func TestTableRows(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"pandas' CSV",
			",name,n,ok,tags,attrs\n0,a,1,True,\"['x', 'y']\",\"{\"\"k\"\": 2}\"\n1,\"b, c\",,False,[],\n",
			`[{"name":"a","n":1,"ok":true,"tags":["x","y"],"attrs":"{\"k\": 2}"},{"name":"b, c","n":null,"ok":false,"tags":"[]","attrs":null}]`},
		{"TSV, CRLF lines", "name\tspan_kind\r\nPlanner\tAGENT\r\n", `[{"name":"Planner","span_kind":"AGENT"}]`},
		{"a column named twice keeps its first", "context.span_id,name,context.span_id\na1,x,a1\n", `[{"context.span_id":"a1","name":"x"}]`},
		{"a number too long for a float stays text", "id,n\n1,12345678901234567890123\n", `[{"id":1,"n":"12345678901234567890123"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, ok := TableRows([]byte(tt.data))
			require.True(t, ok)
			assert.JSONEq(t, tt.want, string(rows))
		})
	}
	for name, data := range map[string]string{
		"prose":             "User: hi, is it raining?\nAssistant: yes, take an umbrella\n",
		"ragged rows":       "a,b,c\n1,2\n",
		"a header alone":    "a,b,c\n",
		"JSON":              `{"a": 1, "b": 2}`,
		"one column":        "name\nPlanner\n",
		"a quote left open": "a,b\n\"1,2\n",
		"a name of a line":  "This is a very long first line of a document that goes on and on and on, well past what any column is named, far past it,x\n1,2\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, ok := TableRows([]byte(data))
			assert.False(t, ok)
		})
	}
}
