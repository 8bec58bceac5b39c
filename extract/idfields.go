package extract

import (
	"encoding/json"
	"slices"
	"strings"
)

// Field is an id a tool's output prints, with the name of the field that
// holds it ("line_id", "item_ids").
type Field struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// IsID reports whether a value is an id a system gave a record: five or
// more digits, a code (isCode), a prefix of lower-case letters, an
// underscore and four or more digits, as payment and event APIs write
// their objects' ids ("ch_7790", "evt_88213"), or a service's designator
// (designator), or capital letters and digits (lettered), those after a
// "#" as an order's number is written ("#W2378156"), or a booking's
// six-character code (bookingCode).
func IsID(v string) bool {
	return len(v) >= 5 && isDigits(v) || isCode(v) || prefixedID(v) || designator(v) || lettered(v) || strings.HasPrefix(v, "#") && lettered(v[1:]) || bookingCode(v)
}

// bookingCode reports whether v is six capital letters and digits, two
// or more of each, as a reservation system names a booking ("HKEG34",
// "NO6JO3"): a code made to be read out, not a word or a number. Letters
// before a year ("FY2024") are a period.
func bookingCode(v string) bool {
	if len(v) != 6 {
		return false
	}
	letters, digits := 0, 0
	for i := range len(v) {
		switch c := v[i]; {
		case c >= 'A' && c <= 'Z':
			letters++
		case c >= '0' && c <= '9':
			digits++
		default:
			return false
		}
	}
	year := v[2:]
	return letters >= 2 && digits >= 2 && !(isDigits(year) && (strings.HasPrefix(year, "19") || strings.HasPrefix(year, "20")))
}

// lettered reports whether v is one to four capital letters and digits,
// joined by a hyphen ("FR-1", "QA-12") or, three digits or more, by
// nothing ("HAT170", "B204"), as a listing names its records: a carrier's
// flights, a requirement's number, a room. Fewer digits joined are as
// often a model's or a format's name ("MP3", "A4"), and a year joined to
// letters, with a digit before it or none, a period ("FY2024", "Q42025").
func lettered(v string) bool {
	k := 0
	for k < len(v) && v[k] >= 'A' && v[k] <= 'Z' {
		k++
	}
	if k == 0 || k > 4 {
		return false
	}
	tail, hyphen := strings.CutPrefix(v[k:], "-")
	if !isDigits(tail) || len(tail) > 8 {
		return false
	}
	if hyphen {
		return true
	}
	year := tail[max(0, len(tail)-4):]
	return len(tail) >= 3 && !(len(tail) <= 5 && len(year) == 4 && (strings.HasPrefix(year, "19") || strings.HasPrefix(year, "20")))
}

// designator reports whether v is a carrier's two-character code (two
// capital letters, or a capital and a digit), a space and one to four
// digits, or the code and three or four digits joined ("LH1792"), as
// airlines, rail and ferry lines name a service ("LH 1792", "U2 8841"):
// one record among the others a timetable lists. Four digits
// of a year's shape after the code are a period ("Q4 2025", "FY 2024").
func designator(v string) bool {
	head, tail, ok := strings.Cut(v, " ")
	if !ok && len(v) >= 5 {
		// Written joined ("LH1792"), with three digits or four: a
		// shorter number after two characters is as often a model's name.
		head, tail, ok = v[:2], v[2:], true
	}
	if !ok || len(head) != 2 || len(tail) == 0 || len(tail) > 4 || !isDigits(tail) {
		return false
	}
	if head[0] < 'A' || head[0] > 'Z' || !(head[1] >= 'A' && head[1] <= 'Z' || head[1] >= '0' && head[1] <= '9') {
		return false
	}
	return len(tail) < 4 || !strings.HasPrefix(tail, "19") && !strings.HasPrefix(tail, "20")
}

// prefixedID reports whether v is one to four lower-case letters, an
// underscore and four or more digits.
func prefixedID(v string) bool {
	head, tail, ok := strings.Cut(v, "_")
	return ok && head != "" && len(head) <= 4 && strings.Trim(head, "abcdefghijklmnopqrstuvwxyz") == "" && len(tail) >= 4 && isDigits(tail)
}

// maxIDFields caps the ids kept for one tool result; maxIDScan bounds the
// output read for them.
const (
	maxIDFields = 200
	maxIDScan   = 256 << 10
)

// idFields returns the ids a tool's JSON output prints as field values,
// each with its field's name, a list's in its order and an object's by
// key: the records a listing offers, each kind of id under its own
// field. v is the output as toolJSON decodes it.
func idFields(v any) []Field {
	var out []Field
	add := func(k string, x any) {
		var s string
		switch x := x.(type) {
		case string:
			s = strings.TrimSpace(x)
		case json.Number:
			s = x.String()
		}
		if len(out) < maxIDFields && IsID(s) && !slices.Contains(out, Field{k, s}) {
			out = append(out, Field{k, s})
		}
	}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				switch e := x[k].(type) {
				case []any:
					for _, y := range e {
						add(k, y)
					}
				default:
					add(k, e)
				}
				walk(x[k])
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// toolJSON decodes a tool's JSON output, numbers kept as written, from
// its first bracket on: output that opens with a short label before it
// ("get_order_details -> {...}") is read too. Output that is no JSON, or
// longer than maxIDScan, is not. whole tells whether the JSON ends the
// output, where a bracket may only open a page's text that goes on ("[](
// https://...)", a link without words).
func toolJSON(content string) (v any, whole, ok bool) {
	at := strings.IndexAny(content[:headEnd(content, 128)], "{[")
	if at < 0 || len(content) > maxIDScan {
		return nil, false, false
	}
	dec := json.NewDecoder(strings.NewReader(content[at:]))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return nil, false, false
	}
	return v, strings.TrimSpace(content[at+int(dec.InputOffset()):]) == "", true
}

// IDSpellings are the ways, in lower case, a person or a tool writes an
// id of a few letters and then digits ("UA2275", "#W2041"): with the
// letters and digits joined by nothing, a space or a hyphen ("UA 2275",
// "W-2041"), and with and without a leading "#". Every spelling keeps
// the letters and digits as they are, so that two ids that differ in
// either ("UA2275", "UA2257") share none. An id of another shape is its
// own only spelling.
func IDSpellings(id string) []string {
	v := strings.ToLower(strings.TrimSpace(id))
	bare := strings.TrimPrefix(v, "#")
	k := 0
	for k < len(bare) && bare[k] >= 'a' && bare[k] <= 'z' {
		k++
	}
	head, tail := bare[:k], bare[k:]
	if len(tail) > 0 && (tail[0] == ' ' || tail[0] == '-') {
		tail = tail[1:]
	}
	if k == 0 || k > 4 || len(tail) < 3 || !isDigits(tail) {
		return []string{v}
	}
	var out []string
	for _, sep := range []string{"", " ", "-"} {
		out = append(out, head+sep+tail, "#"+head+sep+tail)
	}
	return out
}
