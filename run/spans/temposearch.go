package spans

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Grafana Tempo's search results (GET /api/search, a TraceQL query's
// answer): {"traces": [{"traceID", "rootServiceName", "rootTraceName",
// "startTimeUnixNano", "spanSets": [{"spans": [{"spanID", "name",
// "startTimeUnixNano", "durationNanos", "attributes": [{"key", "value":
// {"stringValue"}}]}], "matched"}], "spanSet"}]}. Each span a query
// matched is a span of its trace, with the attributes the query selected,
// its resource the trace's root service; a span found in two of a trace's
// span sets (spanSet repeats the first of spanSets) is read once. Tempo
// writes ids without their leading zeros: they are given back. A search
// names no span's parent.

// isTempoSearch reports whether the object at i is a search's answer: a
// list of traces whose first holds span sets.
func isTempoSearch(data []byte, i int) bool {
	s, _, ok := member(data, i, "traces")
	if !ok || data[s] != '[' {
		return false
	}
	found := false
	_ = eachElement(data, s, func(es, _ int) error {
		if data[es] == '{' {
			_, _, a := member(data, es, "spanSets")
			_, _, b := member(data, es, "spanSet")
			found = a || b
		}
		return errStop
	})
	return found
}

// decodeTempoSearch reads each trace of a search's answer from the
// object as decoded, numbers kept as written (a nanosecond time does not
// fit a float64), under the keys Tempo writes and no other spelling.
func decodeTempoSearch(ctx context.Context, data []byte) ([]Span, error) {
	lines := newLineCounter(data)
	var out []Span
	err := eachObject(ctx, data, "a Tempo search result", galileoTraces, func(m map[string]any, s int) error {
		line := lines.at(s)
		id, err := tempoText(m, "traceID")
		if err != nil {
			return fmt.Errorf("line %d: a Tempo search result's trace: %w", line, err)
		}
		trace := padHex(id, 32)
		if trace == "" {
			return fmt.Errorf("line %d: a Tempo search result's trace with no traceID", line)
		}
		root, err := tempoText(m, "rootServiceName")
		if err != nil {
			return fmt.Errorf("line %d: a Tempo search result's trace: %w", line, err)
		}
		var res Attrs
		if root != "" {
			res = Attrs{{Key: "service.name", Value: String(root)}}
		}
		sets, err := tempoSpanSets(m)
		if err != nil {
			return fmt.Errorf("line %d: a Tempo search result's trace: %w", line, err)
		}
		seen := map[string]bool{}
		for _, set := range sets {
			for _, sm := range set {
				sp, err := tempoSearchSpan(sm, trace, line)
				if err != nil {
					return err
				}
				if seen[sp.SpanID] {
					continue
				}
				seen[sp.SpanID] = true
				sp.Resource = res
				out = append(out, sp)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// tempoText reads the text at key, absent or null read as empty; any
// other value than text is an error naming the key.
func tempoText(m map[string]any, key string) (string, error) {
	switch v := m[key].(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	default:
		return "", fmt.Errorf("%s is not text", QuoteForError(key))
	}
}

// tempoSpanSets gives the spans of a trace's spanSet, then of each of its
// spanSets, each span an object.
func tempoSpanSets(m map[string]any) ([][]map[string]any, error) {
	var sets []any
	switch v := m["spanSet"].(type) {
	case nil:
	case map[string]any:
		sets = append(sets, v)
	default:
		return nil, fmt.Errorf(`"spanSet" is not an object`)
	}
	switch v := m["spanSets"].(type) {
	case nil:
	case []any:
		sets = append(sets, v...)
	default:
		return nil, fmt.Errorf(`"spanSets" is not a list`)
	}
	var out [][]map[string]any
	for _, x := range sets {
		if x == nil {
			continue
		}
		set, ok := x.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("a span set is not an object")
		}
		var spans []any
		switch v := set["spans"].(type) {
		case nil:
		case []any:
			spans = v
		default:
			return nil, fmt.Errorf(`a span set's "spans" is not a list`)
		}
		one := make([]map[string]any, 0, len(spans))
		for _, e := range spans {
			sm, ok := e.(map[string]any)
			if !ok && e != nil {
				return nil, fmt.Errorf("a span is not an object")
			}
			one = append(one, sm) // a null span has no spanID: an error below
		}
		out = append(out, one)
	}
	return out, nil
}

// tempoSearchSpan reads one span of a span set.
func tempoSearchSpan(m map[string]any, trace string, line int) (Span, error) {
	sp := Span{TraceID: trace, SpanID: padHex(firstText(m, []string{"spanID"}), 16), Name: firstText(m, []string{"name"}), Line: line}
	if sp.SpanID == "" {
		return Span{}, fmt.Errorf("line %d: a span of Tempo trace %s with no spanID", line, trace)
	}
	start, err := tempoNanos(m["startTimeUnixNano"])
	if err == nil {
		sp.Start = start
		if d, err := tempoNanos(m["durationNanos"]); err == nil && d >= 0 {
			sp.End = start + d
		}
	}
	as, _ := m["attributes"].([]any)
	for _, a := range as {
		am, _ := a.(map[string]any)
		k, _ := am["key"].(string)
		if k == "" {
			continue
		}
		vm, _ := am["value"].(map[string]any)
		sp.Attrs = append(sp.Attrs, Attr{Key: k, Value: otlpJSONValue(vm, 0)})
	}
	sortAttrs(sp.Attrs)
	switch strings.ToLower(sp.Attrs.Str("status")) {
	case "error":
		sp.Status.Code = StatusError
	case "ok":
		sp.Status.Code = StatusOK
	}
	return sp, nil
}

// tempoNanos reads a count of nanoseconds as written, quoted or not.
func tempoNanos(v any) (int64, error) {
	switch t := v.(type) {
	case string:
		return strconv.ParseInt(strings.TrimSpace(t), 10, 64)
	case json.Number:
		return strconv.ParseInt(string(t), 10, 64)
	}
	return 0, fmt.Errorf("not a count of nanoseconds")
}

// otlpJSONValue reads an AnyValue as protobuf's JSON mapping writes it.
func otlpJSONValue(vm map[string]any, depth int) Value {
	if depth > maxDepth {
		return Value{}
	}
	switch {
	case vm["stringValue"] != nil:
		s, _ := vm["stringValue"].(string)
		return String(s)
	case vm["boolValue"] != nil:
		b, _ := vm["boolValue"].(bool)
		return Value{Kind: KindBool, Bool: b}
	case vm["intValue"] != nil:
		i, err := strconv.ParseInt(FromAny(vm["intValue"]).Text(), 10, 64)
		if err != nil {
			return String(FromAny(vm["intValue"]).Text())
		}
		return Value{Kind: KindInt, Int: i}
	case vm["doubleValue"] != nil:
		f, err := strconv.ParseFloat(FromAny(vm["doubleValue"]).Text(), 64)
		if err != nil {
			return String(FromAny(vm["doubleValue"]).Text())
		}
		return Value{Kind: KindFloat, Float: f}
	case vm["arrayValue"] != nil:
		av, _ := vm["arrayValue"].(map[string]any)
		vs, _ := av["values"].([]any)
		l := Value{Kind: KindList}
		for _, e := range vs {
			em, _ := e.(map[string]any)
			l.List = append(l.List, otlpJSONValue(em, depth+1))
		}
		return l
	case vm["kvlistValue"] != nil:
		kv, _ := vm["kvlistValue"].(map[string]any)
		vs, _ := kv["values"].([]any)
		out := Value{Kind: KindMap}
		for _, e := range vs {
			em, _ := e.(map[string]any)
			k, _ := em["key"].(string)
			v, _ := em["value"].(map[string]any)
			out.Map = append(out.Map, Attr{Key: k, Value: otlpJSONValue(v, depth+1)})
		}
		return out
	}
	return Value{}
}

// padHex gives a hex id written without its leading zeros its width back;
// any other id is kept as written.
func padHex(id string, width int) string {
	id = strings.ToLower(strings.TrimSpace(id))
	if id == "" || len(id) >= width {
		return id
	}
	for _, c := range id {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return id
		}
	}
	return strings.Repeat("0", width-len(id)) + id
}
