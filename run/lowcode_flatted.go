package run

import (
	"encoding/json"
	"strconv"
	"strings"
)

// n8n's own REST API (/rest/executions/{id}) and its database's
// execution_data table keep an execution's data as text in the flatted
// form: a JSON array whose first entry is the value, each string or
// object or array within an entry written as the index of the entry that
// holds it, as a string ("3"), and each entry that is a string that
// string itself.

// maxFlattedDepth bounds how deep a flatted value's references nest, as
// encoding/json bounds a JSON value's nesting.
const maxFlattedDepth = 10000

// n8nFlatted is x with its execution's data read from flatted text: x
// itself when its data is an object already; the execution under x's
// data when x is the REST API's answer ({"data": {"id", "data": TEXT}});
// nil when x holds no flatted data whose resultData is an object.
func n8nFlatted(x map[string]any) map[string]any {
	text, ok := x["data"].(string)
	if !ok {
		if inner := objField(x, "data"); inner != nil {
			if _, ok := inner["data"].(string); ok {
				return n8nFlatted(inner)
			}
		}
		return nil
	}
	v, ok := unflatten(text)
	data, _ := v.(map[string]any)
	if !ok || objField(data, "resultData") == nil {
		return nil
	}
	out := make(map[string]any, len(x))
	for k, e := range x {
		out[k] = e
	}
	out["data"] = data
	return out
}

// unflatten reads text as flatted; ok is false when it is not: no JSON
// array, a reference to no entry, references nested past
// maxFlattedDepth, or more values than text has bytes (entries that
// refer to each other over and over). A reference back to an entry that
// holds it is read as null.
func unflatten(text string) (v any, ok bool) {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, "[") {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var entries []any
	if dec.Decode(&entries) != nil || len(entries) == 0 {
		return nil, false
	}
	u := &unflattener{entries: entries, onPath: map[int]bool{}, budget: len(text)}
	v = u.entry(0, 0)
	if u.failed {
		return nil, false
	}
	return v, true
}

type unflattener struct {
	entries []any
	onPath  map[int]bool
	budget  int // values left to make
	failed  bool
}

// entry is the value entry i holds, its references read.
func (u *unflattener) entry(i, depth int) any {
	if u.failed {
		return nil
	}
	if i < 0 || i >= len(u.entries) || depth > maxFlattedDepth {
		u.failed = true
		return nil
	}
	if u.onPath[i] {
		return nil
	}
	u.onPath[i] = true
	defer delete(u.onPath, i)
	switch e := u.entries[i].(type) {
	case map[string]any:
		out := make(map[string]any, len(e))
		for k, x := range e {
			out[k] = u.value(x, depth)
		}
		return out
	case []any:
		out := make([]any, len(e))
		for j, x := range e {
			out[j] = u.value(x, depth)
		}
		return out
	default:
		return e
	}
}

// value is a slot of an entry: a string is a reference, any other value
// is itself.
func (u *unflattener) value(x any, depth int) any {
	if u.budget--; u.budget < 0 {
		u.failed = true
		return nil
	}
	ref, ok := x.(string)
	if !ok {
		return x
	}
	i, err := strconv.Atoi(ref)
	if err != nil {
		u.failed = true
		return nil
	}
	return u.entry(i, depth+1)
}
