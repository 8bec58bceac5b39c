package extract

import (
	"slices"
	"strings"
	"unicode"
)

// printedRecords returns the records of a table a tool's output prints as
// text, aligned in columns as pandas prints a DataFrame or a Series (and
// as a terminal prints a report): each row whose fields, parted by two
// spaces or more, are a label and at least one figure. A row's id is its
// label (its index, or its first text field when the index only numbers
// the rows), its words are its other text fields and its numbers its
// figures, as records reads a JSON listing's. Rows of two or more make a
// listing; a header, a dtype line or prose (one field) is no row.
func printedRecords(content string) []Record {
	var out []Record
	for line := range strings.Lines(content) {
		r, ok := printedRow(line)
		if !ok {
			continue
		}
		out = append(out, r)
		if len(out) == maxRecords {
			break
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// printedRow reads one line of a printed table (printedRecords).
func printedRow(line string) (Record, bool) {
	line = strings.TrimRight(line, " \t\r\n")
	if line == "" || line[0] == ' ' || line[0] == '\t' || strings.ContainsAny(line, "|{}[]()\"") {
		return Record{}, false // an indented header, a markdown table, code or JSON
	}
	fields := columns(line)
	if len(fields) < 2 {
		return Record{}, false
	}
	// A label glued to what the output wrote before the table ("Code
	// output: Manchester    412") is the words after its colon.
	if k := strings.LastIndex(fields[0], ": "); k >= 0 {
		fields[0] = strings.TrimSpace(fields[0][k+2:])
	}
	var r Record
	label := ""
	for k, f := range fields {
		if n := NormalizeClaim(ClaimNumber, f); n != "" && isNumber(f) && !strings.ContainsFunc(f, unicode.IsLetter) {
			if k > 0 && !slices.Contains(r.Numbers, n) {
				r.Numbers = append(r.Numbers, n)
			}
			continue
		}
		w := strings.ToLower(f)
		if !strings.ContainsFunc(w, unicode.IsLetter) || w == "nan" || w == "none" || w == "nat" || w == "<na>" {
			continue
		}
		if label == "" {
			label = f
			continue
		}
		if !slices.Contains(r.Words, w) {
			r.Words = append(r.Words, w)
		}
	}
	if label == "" || len(r.Numbers) == 0 {
		return Record{}, false
	}
	r.IDs = []string{label}
	return r, true
}

// columns splits a printed table's line into its fields: the runs of
// text that two spaces or more, or a tab, part. A field keeps its single
// spaces ("Office Supplies").
func columns(line string) []string {
	var out []string
	for i := 0; i < len(line); {
		j := i
		for j < len(line) && line[j] != '\t' && (line[j] != ' ' || j+1 < len(line) && line[j+1] != ' ' && line[j+1] != '\t') {
			j++
		}
		if f := strings.TrimRight(line[i:j], " "); f != "" {
			out = append(out, f)
		}
		for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
			j++
		}
		i = j
	}
	return out
}
