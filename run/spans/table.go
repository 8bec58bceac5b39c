package spans

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// Tables: a data frame written as CSV (pandas' DataFrame.to_csv) or TSV,
// and a tool's table export, are the same rows a frame written as JSON
// holds, their cells text: a cell is read back as the value pandas wrote
// (an empty cell null, True and False booleans, a number a number, a list
// or a dict as Python writes it; text that is JSON stays text, as it was).

// TableRows reads data as a table of comma- or tab-separated values, its
// first record the column names, and returns its rows as a JSON array of
// objects; ok is false when data is not such a table (a header of one
// column, names no column has, records of other lengths). pandas' unnamed
// index column is left out, and of a name given twice (a frame's index
// written beside the same column) the first is kept.
func TableRows(data []byte) (rows []byte, ok bool) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	for _, sep := range []rune{',', '\t'} {
		if rows, ok := separatedRows(data, sep); ok {
			return rows, true
		}
	}
	return nil, false
}

// TableColumns reports whether data begins as a table of comma- or
// tab-separated values (a header of column names, TableHeader, and a next
// record of as many cells), with its column names and separator, whether
// or not its rows read as any run.
func TableColumns(data []byte) (names []string, sep rune, ok bool) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	for _, sep := range []rune{',', '\t'} {
		r := tableReader(data, sep)
		header, err := r.Read()
		if err != nil || !TableHeader(header) {
			continue
		}
		if row, err := r.Read(); err == nil && len(row) == len(header) {
			return header, sep, true
		}
	}
	return nil, 0, false
}

// tableReader reads data's records separated by sep, quoted as CSV quotes
// them, a stray quote taken as text.
func tableReader(data []byte, sep rune) *csv.Reader {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma, r.LazyQuotes = sep, true
	return r
}

func separatedRows(data []byte, sep rune) ([]byte, bool) {
	r := tableReader(data, sep)
	header, err := r.Read()
	if err != nil || !TableHeader(header) {
		return nil, false
	}
	keep := make([]bool, len(header))
	names := make([][]byte, len(header))
	seen := map[string]bool{}
	for k, h := range header {
		h = strings.TrimSpace(h)
		keep[k] = !(k == 0 && h == "") && !seen[h]
		seen[h] = true
		names[k], _ = json.Marshal(h)
	}
	var records [][]string
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil || len(rec) != len(header) {
			return nil, false
		}
		records = append(records, rec)
	}
	if len(records) == 0 {
		return nil, false
	}
	var kept [][]byte
	var cols []int
	for k := range header {
		if keep[k] {
			kept, cols = append(kept, names[k]), append(cols, k)
		}
	}
	return rowsOf(kept, len(records), func(row, k int) []byte { return cellJSON(records[row][cols[k]]) }), true
}

// TableHeader reports whether a table's first record reads as column
// names: two or more, none long; of exactly two, neither holds a space,
// as a line of prose with one comma would.
func TableHeader(header []string) bool {
	if len(header) < 2 {
		return false
	}
	for _, name := range header {
		name = strings.TrimSpace(name)
		if len(name) > 128 || len(header) == 2 && strings.ContainsRune(name, ' ') {
			return false
		}
	}
	return true
}

// cellJSON is a table cell as the JSON value it was written from.
func cellJSON(cell string) []byte {
	t := strings.TrimSpace(cell)
	switch t {
	case "":
		return []byte("null")
	case "True", "true":
		return []byte("true")
	case "False", "false":
		return []byte("false")
	}
	if json.Valid([]byte(t)) && (t[0] == '-' || t[0] >= '0' && t[0] <= '9') && len(t) <= 18 {
		return []byte(t)
	}
	// pandas writes a list or a dict as Python does ({'k': 'v'}); text
	// that is JSON already was a string in the frame (a call's arguments,
	// a tool's output), and stays one.
	if !json.Valid([]byte(t)) {
		if v := pythonDict(t); v != any(t) {
			if b, err := json.Marshal(v); err == nil {
				return b
			}
		}
	}
	b, _ := json.Marshal(cell)
	return b
}
