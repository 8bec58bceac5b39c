package spans

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rows are a frame's rows as pandas' records orient writes them.
const rows = `[{"name":"a","n":1,"tags":["x"]},{"name":"b","n":null,"tags":[]}]`

// TestFrames: a frame in every orient pandas writes reads as the same
// rows; an object of objects with the same keys reads both ways; anything
// else is no frame.
func TestFrames(t *testing.T) {
	tests := []struct {
		name string
		data string
		want []Frame
	}{
		{"split", `{"columns":["name","n","tags"],"index":[0,1],"data":[["a",1,["x"]],["b",null,[]]]}`,
			[]Frame{{"split", []byte(rows)}}},
		{"split without index", `{"columns":["name","n","tags"],"data":[["a",1,["x"]],["b",null,[]]]}`,
			[]Frame{{"split", []byte(rows)}}},
		{"table", `{"schema":{"fields":[{"name":"name","type":"string"}],"pandas_version":"1.4.0"},"data":` + rows + `}`,
			[]Frame{{"table", []byte(rows)}}},
		{"columns", `{"name":{"0":"a","1":"b"},"n":{"0":1,"1":null},"tags":{"0":["x"],"1":[]}}`,
			[]Frame{
				{"columns", []byte(rows)},
				{"index", []byte(`[{"0":"a","1":"b"},{"0":1,"1":null},{"0":["x"],"1":[]}]`)},
			}},
		{"index", ` {"r1": {"name":"a","n":1,"tags":["x"]}, "r2": {"name":"b","n":null,"tags":[]}}`,
			[]Frame{
				{"columns", []byte(`[{"r1":"a","r2":"b"},{"r1":1,"r2":null},{"r1":["x"],"r2":[]}]`)},
				{"index", []byte(rows)},
			}},
		{"escaped keys stay escaped", `{"a\"b":{"0":1}}`,
			[]Frame{{"columns", []byte(`[{"a\"b":1}]`)}, {"index", []byte(`[{"0":1}]`)}}},
		{"query rows", `{"columns":[{"name":"name","datatype":"Utf8"}],"rows":` + rows + `}`,
			[]Frame{{"rows", []byte(rows)}}},
		{"query columns with their values", `{"columns":[{"name":"name","values":["a","b"]},{"name":"n","values":[1,null]},{"name":"tags","values":[["x"],[]]}]}`,
			[]Frame{{"columnar", []byte(rows)}}},
		{"columns of different lengths", `{"columns":[{"name":"a","values":[1,2]},{"name":"b","values":[1]}]}`, nil},
		{"a column without a name", `{"columns":[{"values":[1]}]}`, nil},
		{"query rows that are lists", `{"columns":["a"],"rows":[[1]]}`, nil},
		{"records are read as they are", rows, nil},
		{"rows with different keys", `{"r1":{"a":1},"r2":{"b":2}}`, nil},
		{"a member that is not an object", `{"r1":{"a":1},"n":2}`, nil},
		{"an empty member", `{"r1":{},"r2":{}}`, nil},
		{"empty object", `{}`, nil},
		{"split row too short", `{"columns":["a","b"],"data":[[1]]}`, nil},
		{"split row too long", `{"columns":["a"],"data":[[1,2]]}`, nil},
		{"split column not a string", `{"columns":[1],"data":[[1]]}`, nil},
		{"split with another member", `{"columns":["a"],"data":[[1]],"spans":[]}`, nil},
		{"table of lists", `{"schema":{"fields":[]},"data":[[1]]}`, nil},
		{"cut short", `{"name":{"0":"a","1":"b"},"n":{"0":1,"1"`, nil},
		{"not JSON", `{"name":{"0":"a"},}`, nil},
		{"byte order mark", "\xef\xbb\xbf" + `{"columns":["name","n","tags"],"data":[["a",1,["x"]],["b",null,[]]]}`,
			[]Frame{{"split", []byte(rows)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, slices.Collect(Frames([]byte(tt.data))))
		})
	}
}

// TestFrameNotOneSpan: a data frame by columns is not taken for a span
// for its column names ("name", "context.span_id"); its rows are spans.
func TestFrameNotOneSpan(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "telemetry", "phoenix-frame.json"))
	require.NoError(t, err)
	assert.Equal(t, Format(""), Detect(data))
	frames := slices.Collect(Frames(data))
	require.NotEmpty(t, frames)
	assert.Equal(t, "columns", frames[0].Orient)
	assert.Equal(t, OpenInference, Detect(frames[0].Rows))
}

// TestFramesBuiltWhenAsked: of a frame that reads two ways, the reading
// by index is built only when the caller asks for more than the first
// (the reading by columns, which holds the spans of a Phoenix frame).
func TestFramesBuiltWhenAsked(t *testing.T) {
	phoenix, err := os.ReadFile(filepath.Join("..", "..", "testdata", "telemetry", "phoenix-frame.json"))
	require.NoError(t, err)
	tests := []struct {
		name string
		data []byte
	}{
		{"Phoenix's spans by columns", phoenix},
		{"two columns, two rows", []byte(`{"name":{"0":"a","1":"b"},"n":{"0":1,"1":null}}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			all := slices.Collect(Frames(tt.data))
			require.Len(t, all, 2)
			var first []Frame
			for fr := range Frames(tt.data) {
				first = append(first, fr)
				break
			}
			assert.Equal(t, all[:1], first)
			firstOnly := testing.AllocsPerRun(10, func() {
				for range Frames(tt.data) {
					break
				}
			})
			both := testing.AllocsPerRun(10, func() {
				for range Frames(tt.data) {
				}
			})
			assert.Less(t, firstOnly, both)
		})
	}
}

// FuzzFrames: whatever Frames reads is a JSON array of objects.
func FuzzFrames(f *testing.F) {
	fuzzSeeds(f, "phoenix-frame.json")
	f.Add([]byte(`{"columns":["a","b"],"index":[0],"data":[[1,{"c":[2]}]]}`))
	f.Add([]byte(`{"schema":{"fields":[]},"data":[{"a":1}]}`))
	f.Add([]byte(`{"a":{"0":1,"1":"x"},"b\u00e9":{"0":null,"1":[1]}}`))
	f.Add([]byte(`{"columns":[{"name":"a","values":[1,{"b":[]}]},{"name":"c","values":["d",null]}]}`))
	f.Add([]byte(`{"columns":[{"name":"a"}],"rows":[{"a":1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for fr := range Frames(data) {
			var objs []map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(fr.Rows, &objs), "%s rows of %q: %s", fr.Orient, data, fr.Rows)
			assert.Contains(t, []string{"columns", "index", "split", "table", "rows", "columnar"}, fr.Orient)
		}
	})
}
