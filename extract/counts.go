package extract

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
)

// Count is a number a step states of a thing, with the word it counts:
// "two bags in total" and "2 checked bags" count bags (Noun "bags",
// Value 2).
type Count struct {
	Noun  string `json:"noun"`
	Value int    `json:"value"`
}

// maxCounts caps the counts kept for one step, and the counts a call's
// arguments give.
const maxCounts = 50

// counts returns the counts a text states: a whole number under a
// hundred, in digits or in words, and each of the one or two words that
// follow it in the same clause ("2 checked bags": checked, bags), lower
// case. A number that is part of an amount, a figure with decimals or a
// percentage, a time, a date or an id ("$50", "2.5", "10:30", "W123",
// "#4") counts nothing.
func counts(text string) []Count {
	lower := strings.ToLower(text)
	toks := tokens(lower)
	var out []Count
	for k, t := range toks {
		n, ok := countOf(lower, t)
		if !ok {
			continue
		}
		from := t.end
		for _, next := range toks[k+1 : min(len(toks), k+3)] {
			if !letters(next.s) || strings.TrimSpace(lower[from:next.start]) != "" || len(out) == maxCounts {
				break
			}
			out = append(out, Count{Noun: next.s, Value: n})
			from = next.end
		}
	}
	return out
}

// countOf returns the whole number under a hundred a token writes: its
// digits standing alone (nothing but space or an opening bracket joined
// to them), or a number's word.
func countOf(text string, t token) (int, bool) {
	if letters(t.s) {
		v, ok := numberWords[t.s]
		return int(v), ok && v < 100
	}
	if len(t.s) > 2 || !allDigits(t.s) {
		return 0, false
	}
	before, after := byte(' '), byte(' ')
	if t.start > 0 {
		before = text[t.start-1]
	}
	if t.end < len(text) {
		after = text[t.end]
	}
	if !strings.ContainsRune(" \t\n(", rune(before)) || !strings.ContainsRune(" \t\n),;", rune(after)) {
		return 0, false
	}
	v, err := strconv.Atoi(t.s)
	return v, err == nil
}

// letters reports whether s is a word of letters alone.
func letters(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return s != ""
}

// argCounts returns the whole numbers under a hundred a call's JSON
// arguments give, each with its key ("total_baggages": 4), in the order
// of the keys at each level: the counts a call is given.
func argCounts(args string) []Field {
	var v any
	if !strings.Contains(args, ":") || json.Unmarshal([]byte(args), &v) != nil {
		return nil
	}
	var out []Field
	for key, leaf := range jsonLeaves(v) {
		if x, ok := leaf.(float64); ok && key != "" && x == float64(int(x)) && x >= 0 && x < 100 && len(out) < maxCounts {
			out = append(out, Field{Key: key, Value: strconv.Itoa(int(x))})
		}
	}
	return out
}

// ArgNumbers returns the numbers a call's JSON arguments give as numbers
// (not quoted: an id written as a string is none, nor is one written as
// a number under a key that names an id, idKey), each with its key, in
// the order of the keys at each level: the figures a call is given.
func (c Call) ArgNumbers() []Field {
	var v any
	if !strings.Contains(c.Args, ":") || json.Unmarshal([]byte(onScreenOnly(c.Args)), &v) != nil {
		return nil
	}
	var out []Field
	for key, leaf := range jsonLeaves(v) {
		if x, ok := leaf.(float64); ok && !idKey(key) && len(out) < maxCounts {
			out = append(out, Field{Key: key, Value: strconv.FormatFloat(x, 'f', -1, 64)})
		}
	}
	return out
}

// idKey reports whether a JSON key names an id ("id", "order_id",
// "hotelId", "room_ID"): its value names a record, whether written as a
// string or as a number, and is no figure.
func idKey(k string) bool {
	return strings.EqualFold(k, "id") || strings.HasSuffix(strings.ToLower(k), "_id") || len(k) > 2 && strings.HasSuffix(k, "Id") || len(k) > 2 && strings.HasSuffix(k, "ID")
}
