package spans

import (
	"bytes"
	"encoding/json"
	"iter"
	"slices"
)

// Data frames written as JSON. Phoenix's get_spans_dataframe, MLflow's
// search_traces and most notebooks hand their user a pandas DataFrame, and
// DataFrame.to_json writes it in one of several orients:
//
//	columns (the default)  {"col": {"row": cell, …}, …}
//	index                  {"row": {"col": cell, …}, …}
//	split                  {"columns": [col…], "index": [row…], "data": [[cell…]…]}
//	table                  {"schema": {"fields": …}, "data": [{"col": cell, …}…]}
//	records                [{"col": cell, …}…]  (read as it is: a list of records)
//
// and query results keep tables so too: {"columns": [column…], "rows":
// [{"col": cell, …}…]}, or by columns, {"columns": [{"name": col,
// "values": [cell…]}…]} (Logfire's query API, Arrow's JSON), or as
// Azure's Log Analytics and Data Explorer answer a query, {"tables":
// [{"name", "columns": [{"name", "type"}…], "rows": [[cell…]…]}]} (the
// first table's rows).
//
// A frame's rows are what the file holds (spans, messages); the orient
// is only how they were laid out.

// Frame is one way of reading a file as a data frame's rows.
type Frame struct {
	// Orient is the layout it was read in: "columns", "index", "split",
	// "table", "rows", "tables" or "columnar".
	Orient string
	// Rows is the frame's rows as a JSON array of objects, in the frame's
	// order.
	Rows []byte
}

// Frames yields the readings of data (one JSON object) as a data frame
// written in an orient other than records: none when it is not laid out
// as one, or is not valid JSON. An object of objects that all have the
// same keys in the same order reads two ways, by columns and then by
// index; which one holds rows of a format offattr knows is for the caller
// to try, and a reading is built only when the caller asks for it: one
// that stops at the first builds no other.
func Frames(data []byte) iter.Seq[Frame] {
	return func(yield func(Frame) bool) {
		data := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
		i := skipSpace(data, 0)
		if i >= len(data) || data[i] != '{' || !json.Valid(data) {
			return
		}
		if rows, ok := splitRows(data, i); ok {
			yield(Frame{Orient: "split", Rows: rows})
			return
		}
		if rows, ok := tableRows(data, i, "schema", "data"); ok {
			yield(Frame{Orient: "table", Rows: rows})
			return
		}
		if rows, ok := tableRows(data, i, "columns", "rows"); ok {
			yield(Frame{Orient: "rows", Rows: rows})
			return
		}
		if rows, ok := kustoRows(data, i); ok {
			yield(Frame{Orient: "tables", Rows: rows})
			return
		}
		if rows, ok := columnarRows(data, i); ok {
			yield(Frame{Orient: "columnar", Rows: rows})
			return
		}
		nestedRows(data, i, yield)
	}
}

// splitRows reads the split orient: every member is "columns", "index",
// "data" or "name"; the columns are strings and every row of data is a
// list with one cell for each.
func splitRows(data []byte, i int) ([]byte, bool) {
	var cols, rows [2]int
	var haveCols, haveRows, other bool
	_ = eachMember(data, i, func(key []byte, s, e int) bool {
		switch string(key) {
		case "columns":
			cols, haveCols = [2]int{s, e}, true
		case "data":
			rows, haveRows = [2]int{s, e}, true
		case "index", "name":
		default:
			other = true
		}
		return !other
	})
	if other || !haveCols || !haveRows || data[cols[0]] != '[' || data[rows[0]] != '[' {
		return nil, false
	}
	var names [][]byte
	ok := true
	_ = eachElement(data, cols[0], func(s, e int) error {
		if data[s] != '"' {
			ok = false
			return errStop
		}
		names = append(names, data[s:e])
		return nil
	})
	if !ok || len(names) == 0 {
		return nil, false
	}
	return listRows(data, rows[0], names)
}

// listRows writes the rows of the array at i, each a list with one cell
// for each of names, as rowsOf does; ok is false when a row is no such
// list.
func listRows(data []byte, i int, names [][]byte) ([]byte, bool) {
	ok := true
	var cells [][][]byte // by row, then column
	_ = eachElement(data, i, func(s, _ int) error {
		var row [][]byte
		err := eachElement(data, s, func(cs, ce int) error {
			row = append(row, data[cs:ce])
			return nil
		})
		if data[s] != '[' || err != nil || len(row) != len(names) {
			ok = false
			return errStop
		}
		cells = append(cells, row)
		return nil
	})
	if !ok {
		return nil, false
	}
	return rowsOf(names, len(cells), func(r, k int) []byte { return cells[r][k] }), true
}

// rowsOf writes n rows as a JSON array of objects: row r's members are
// names[k] (each a quoted JSON string), in order, with the values
// value(r, k).
func rowsOf(names [][]byte, n int, value func(r, k int) []byte) []byte {
	var out bytes.Buffer
	out.WriteByte('[')
	for r := range n {
		if r > 0 {
			out.WriteByte(',')
		}
		out.WriteByte('{')
		for k, name := range names {
			if k > 0 {
				out.WriteByte(',')
			}
			out.Write(name)
			out.WriteByte(':')
			out.Write(value(r, k))
		}
		out.WriteByte('}')
	}
	out.WriteByte(']')
	return out.Bytes()
}

// tableRows reads a list of row objects under a header: the table
// orient, {"schema": {"fields": …}, "data": [row…]}, or a query's result,
// {"columns": [column…], "rows": [row…]} (Logfire's query_json_rows).
func tableRows(data []byte, i int, header, body string) ([]byte, bool) {
	h, _, ok := member(data, i, header)
	if !ok || (data[h] != '{' && data[h] != '[') {
		return nil, false
	}
	if data[h] == '{' {
		if _, _, ok := member(data, h, "fields"); !ok {
			return nil, false
		}
	}
	ds, de, ok := member(data, i, body)
	if !ok || data[ds] != '[' {
		return nil, false
	}
	return data[ds:de], allObjects(data, ds)
}

// allObjects reports whether every element of the array at i is an
// object.
func allObjects(data []byte, i int) bool {
	objects := true
	_ = eachElement(data, i, func(s, _ int) error {
		if data[s] != '{' {
			objects = false
			return errStop
		}
		return nil
	})
	return objects
}

// columnarRows reads a table by columns with their values listed,
// {"columns": [{"name": col, "values": [cell…]}…]} (Logfire's query_json
// and Arrow's JSON): every column a name and a list of the same length.
func columnarRows(data []byte, i int) ([]byte, bool) {
	cs, _, ok := member(data, i, "columns")
	if !ok || data[cs] != '[' {
		return nil, false
	}
	var names [][]byte
	var cells [][][2]int
	ok = true
	_ = eachElement(data, cs, func(s, _ int) error {
		ns, ne, named := member(data, s, "name")
		vs, _, valued := member(data, s, "values")
		if data[s] != '{' || !named || data[ns] != '"' || !valued || data[vs] != '[' {
			ok = false
			return errStop
		}
		var column [][2]int
		_ = eachElement(data, vs, func(s, e int) error {
			column = append(column, [2]int{s, e})
			return nil
		})
		if len(cells) > 0 && len(column) != len(cells[0]) {
			ok = false
			return errStop
		}
		names, cells = append(names, data[ns:ne]), append(cells, column)
		return nil
	})
	if !ok || len(names) == 0 {
		return nil, false
	}
	return rowsOf(names, len(cells[0]), func(r, k int) []byte { return data[cells[k][r][0]:cells[k][r][1]] }), true
}

// cell is a member of an object: its key, quoted as in the file, and
// where its value is.
type cell struct {
	key        []byte
	start, end int
}

// membersOf lists the members of the object at i.
func membersOf(data []byte, i int) []cell {
	var out []cell
	_ = eachMember(data, i, func(key []byte, s, e int) bool {
		// The key is as the file escapes it: quoted again, it is the
		// same JSON string.
		quoted := make([]byte, 0, len(key)+2)
		quoted = append(append(append(quoted, '"'), key...), '"')
		out = append(out, cell{key: quoted, start: s, end: e})
		return true
	})
	return out
}

// nestedRows reads an object whose members are all objects with the same
// keys in the same order by columns (each member a column, its keys the
// rows), and then, if yield asks for more, by index (each member a row).
func nestedRows(data []byte, i int, yield func(Frame) bool) {
	outer := membersOf(data, i)
	if len(outer) == 0 {
		return
	}
	inner := make([][]cell, len(outer))
	var labels [][]byte
	for k, m := range outer {
		if data[m.start] != '{' {
			return
		}
		inner[k] = membersOf(data, m.start)
		if len(inner[k]) == 0 {
			return
		}
		keys := make([][]byte, len(inner[k]))
		for j, c := range inner[k] {
			keys[j] = c.key
		}
		if k == 0 {
			labels = keys
		} else if !slices.EqualFunc(labels, keys, bytes.Equal) {
			return
		}
	}
	names := make([][]byte, len(outer))
	for k, m := range outer {
		names[k] = m.key
	}
	byColumns := rowsOf(names, len(labels), func(r, k int) []byte { return data[inner[k][r].start:inner[k][r].end] })
	if !yield(Frame{Orient: "columns", Rows: byColumns}) {
		return
	}
	var byIndex bytes.Buffer
	byIndex.WriteByte('[')
	for k, m := range outer {
		if k > 0 {
			byIndex.WriteByte(',')
		}
		byIndex.Write(data[m.start:m.end])
	}
	byIndex.WriteByte(']')
	yield(Frame{Orient: "index", Rows: byIndex.Bytes()})
}

// kustoRows reads a query's answer as Log Analytics and Azure Data
// Explorer return it: the rows of its first table, each a list with one
// cell for each of its columns, named by their "name".
func kustoRows(data []byte, i int) ([]byte, bool) {
	ts, _, ok := member(data, i, "tables")
	if !ok || data[ts] != '[' {
		return nil, false
	}
	table := -1
	_ = eachElement(data, ts, func(s, _ int) error {
		table = s
		return errStop
	})
	if table < 0 || data[table] != '{' {
		return nil, false
	}
	cs, _, ok1 := member(data, table, "columns")
	rs, _, ok2 := member(data, table, "rows")
	if !ok1 || !ok2 || data[cs] != '[' || data[rs] != '[' {
		return nil, false
	}
	var names [][]byte
	ok = true
	_ = eachElement(data, cs, func(s, _ int) error {
		if data[s] != '{' {
			ok = false
			return errStop
		}
		ns, ne, found := member(data, s, "name")
		if !found || data[ns] != '"' {
			ok = false
			return errStop
		}
		names = append(names, data[ns:ne])
		return nil
	})
	if !ok || len(names) == 0 {
		return nil, false
	}
	return listRows(data, rs, names)
}
