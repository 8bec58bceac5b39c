package run

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// taskWeaverYAML is a TaskWeaver conversation saved as YAML (the raw
// experience files it keeps, raw_exp_*.yaml: "rounds", each with its
// "post_list") as the same object in JSON, for the JSON readers; ok is
// false for text without such a rounds key (yamlRoundsHead). Text with
// one that does not parse as YAML, or whose rounds hold no posts, is an
// error of an unknown format that says so. A mapping's keys other than
// texts (an attachment's "1: …") are read as the texts they are written
// as, and a number JSON cannot hold (.nan, .inf) as its text, as JSON
// has neither.
func taskWeaverYAML(data []byte) ([]byte, bool, error) {
	if !yamlRoundsHead(data) {
		return nil, false, nil
	}
	var o map[string]any
	if err := yaml.Unmarshal(data, &o); err != nil {
		return nil, true, fmt.Errorf("%w: YAML with a rounds key that does not parse (%q)", ErrUnknownFormat, err.Error())
	}
	rounds, _ := o["rounds"].([]any)
	if !objectsAll(rounds, func(r map[string]any) bool { _, ok := r["post_list"].([]any); return ok }) {
		return nil, true, fmt.Errorf("%w: YAML whose rounds are no TaskWeaver conversation's (each a round with its post_list)", ErrUnknownFormat)
	}
	if nestedPast(o, maxJSONDepth) {
		// An alias nests a value where it is used: YAML that the
		// parser read nested no deeper than its bound can be, and its
		// JSON is no JSON a reader reads.
		return nil, true, fmt.Errorf("%w: YAML nested deeper than JSON reads (%d levels), through its aliases", ErrUnknownFormat, maxJSONDepth)
	}
	if yamlSizePast(o, DefaultMaxInput) {
		// An alias repeats its value's text wherever it is used: a
		// long text named a thousand times is a small file and a
		// JSON a thousand times its size.
		return nil, true, fmt.Errorf("%w: YAML whose aliases repeat its text past what an input may hold (%s)", ErrUnknownFormat, FormatSize(DefaultMaxInput))
	}
	out, err := json.Marshal(jsonable(o))
	if err != nil {
		return nil, true, fmt.Errorf("%w: YAML that has no JSON form (%q)", ErrUnknownFormat, err.Error())
	}
	return out, true, nil
}

// jsonable is a value decoded from YAML as JSON can hold it: a mapping
// with keys other than texts keyed by their texts, a float that is no
// number (NaN, ±Inf) its text. The rest is unchanged.
func jsonable(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = jsonable(e)
		}
		return v
	case map[any]any:
		// Keys whose texts are alike (1 and "1") keep the first by
		// kind, whatever order the map gives them in.
		keys := slices.SortedFunc(maps.Keys(v), func(a, b any) int {
			return cmp.Or(cmp.Compare(fmt.Sprint(a), fmt.Sprint(b)), cmp.Compare(fmt.Sprintf("%T", a), fmt.Sprintf("%T", b)))
		})
		out := make(map[string]any, len(v))
		for _, k := range keys {
			if _, dup := out[fmt.Sprint(k)]; !dup {
				out[fmt.Sprint(k)] = jsonable(v[k])
			}
		}
		return out
	case []any:
		for i, e := range v {
			v[i] = jsonable(e)
		}
		return v
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return strconv.FormatFloat(v, 'g', -1, 64)
		}
	}
	return v
}

// maxJSONDepth is how deep encoding/json reads a value's objects and
// lists nested.
const maxJSONDepth = 10000

// nestedPast reports whether v, decoded from YAML, nests its mappings and
// lists more than limit deep. It descends no deeper than limit.
func nestedPast(v any, limit int) bool {
	var items []any
	switch v := v.(type) {
	case map[string]any:
		items = slices.Collect(maps.Values(v))
	case map[any]any:
		items = slices.Collect(maps.Values(v))
	case []any:
		items = v
	default:
		return false
	}
	if limit == 0 {
		return true
	}
	return slices.ContainsFunc(items, func(e any) bool { return nestedPast(e, limit-1) })
}

// yamlSizePast reports whether v, decoded from YAML and nested no deeper
// than maxJSONDepth (nestedPast), is larger than limit bytes as JSON, its
// aliases written out where they are used: about, counting each text's
// bytes and a few for each value. It stops counting past limit.
func yamlSizePast(v any, limit int64) bool {
	var size int64
	var count func(v any)
	count = func(v any) {
		if size > limit {
			return
		}
		size += 4 // a value's brackets, quotes, separators, or a number
		switch v := v.(type) {
		case string:
			size += int64(len(v))
		case map[string]any:
			for k, e := range v {
				size += int64(len(k))
				count(e)
			}
		case map[any]any:
			for k, e := range v {
				size += int64(len(fmt.Sprint(k)))
				count(e)
			}
		case []any:
			for _, e := range v {
				count(e)
			}
		}
	}
	count(v)
	return size > limit
}

// yamlRoundsHead says whether text has a top-level "rounds:" key among
// its lines that holds a list, as a TaskWeaver conversation in YAML does
// (roundsListLine).
func yamlRoundsHead(text []byte) bool {
	for line := range bytes.Lines(text) {
		if roundsListLine(line) {
			return true
		}
	}
	return false
}

// roundsListLine says whether a line of YAML is a top-level "rounds:" key
// that holds a list: its items on the lines below, or a list in brackets.
// A key of that name that holds a scalar (a configuration's "rounds: 3")
// is none.
func roundsListLine(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, []byte("rounds:"))
	if !ok {
		return false
	}
	rest = bytes.TrimSpace(rest)
	return len(rest) == 0 || rest[0] == '#' || rest[0] == '['
}
