package cmdutil

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type listItem struct {
	Name  string   `json:"name"`
	Items []string `json:"items"`
	Inner *listDoc `json:"inner,omitempty"`
}

type listDoc struct {
	Note  string     `json:"note"`
	Other []listItem `json:"other"`
	Items []listItem `json:"items"`
	After int        `json:"after"`
}

// TestWriteJSONListAsWhole checks that writing a list item by item gives
// the bytes of encoding the whole value at once, indented and as a line,
// with a decoy of the list's key before it: in a string, and nested.
func TestWriteJSONListAsWhole(t *testing.T) {
	decoy := &listDoc{Note: `"items": []`, Items: []listItem{}}
	many := make([]listItem, 2*listChunk+5) // chunks, and a part of one
	for i := range many {
		many[i] = listItem{Name: strconv.Itoa(i), Items: []string{"\u2066" + strconv.Itoa(i)}}
	}
	tests := []struct {
		name  string
		items []listItem
	}{
		{"empty", []listItem{}},
		{"one", []listItem{{Name: "a", Items: []string{}}}},
		{"several", []listItem{
			{Name: "<b> & \u202e", Items: []string{"x", "y"}},
			{Name: "\"items\":[]\n", Inner: decoy},
			{Name: "\u0085\x7f", Items: nil},
		}},
		{"chunks", many},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := listDoc{Note: `items: [] "items":[]`, Other: []listItem{{Name: "o", Inner: decoy}}, Items: tt.items, After: 7}
			empty := doc
			empty.Items = []listItem{}
			for _, line := range []bool{false, true} {
				var whole, listed bytes.Buffer
				if line {
					require.NoError(t, WriteJSONLine(&whole, doc))
				} else {
					require.NoError(t, WriteJSON(&whole, doc))
				}
				require.NoError(t, WriteJSONList(&listed, empty, "items", doc.Items, line))
				assert.Equal(t, whole.String(), listed.String(), "line %v", line)
			}
		})
	}
}

func TestWriteJSONListWithoutTheList(t *testing.T) {
	var b bytes.Buffer
	err := WriteJSONList(&b, listDoc{}, "items", []listItem{{Name: "a"}}, false)
	require.ErrorContains(t, err, `no empty "items"`)
	assert.Zero(t, b.Len(), "nothing is written")
}
