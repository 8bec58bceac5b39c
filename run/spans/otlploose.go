package spans

// Loose OTLP/JSON: OTLP's structure (resourceSpans, scopeSpans, spans with
// traceId, spanId, parentSpanId, startTimeUnixNano…) written by a program's
// own exporter rather than by protobuf's JSON mapping. Its attributes are
// plain JSON objects ({"gen_ai.agent.name": "planner"}, not a list of
// {"key", "value": {"stringValue"}}), its kinds and status codes are bare
// names ("CLIENT", "ERROR") and its times numbers; null stands for none.
// Microsoft's Agent 365 observability SDK posts its spans so. protojson
// refuses such a record; it is read span by span as a flat span is
// (flatSpan), each with its resource's attributes.

// looseRecord reports whether the decoded ResourceSpans record m carries
// the mark of loose OTLP: an attributes member, of its resource, a span or
// an event, that is an object. (A kind or status code by bare name alone
// is no such mark: a record whose attributes are OTLP's lists is OTLP, and
// protojson says what is wrong with it.)
func looseRecord(m map[string]any) bool {
	if res, ok := m["resource"].(map[string]any); ok {
		if _, ok := res["attributes"].(map[string]any); ok {
			return true
		}
	}
	loose := false
	eachLooseSpan(m, func(s map[string]any) {
		if _, ok := s["attributes"].(map[string]any); ok {
			loose = true
		}
		evs, _ := s["events"].([]any)
		for _, e := range evs {
			if em, ok := e.(map[string]any); ok {
				if _, ok := em["attributes"].(map[string]any); ok {
					loose = true
				}
			}
		}
	})
	return loose
}

// eachLooseSpan calls fn with every span object of a ResourceSpans record,
// under scopeSpans or the pre-0.15 instrumentationLibrarySpans.
func eachLooseSpan(m map[string]any, fn func(map[string]any)) {
	for _, key := range []string{"scopeSpans", "scope_spans", "instrumentationLibrarySpans"} {
		scopes, _ := m[key].([]any)
		for _, sc := range scopes {
			scm, _ := sc.(map[string]any)
			list, _ := scm["spans"].([]any)
			for _, s := range list {
				if sm, ok := s.(map[string]any); ok {
					fn(sm)
				}
			}
		}
	}
}

// decodeLooseBatch reads the ResourceSpans record at b as loose OTLP. ok is
// false when the record bears no mark of it (the caller then reports
// protojson's error, which says what is wrong with it as OTLP).
func decodeLooseBatch(data []byte, b batch) (out []Span, ok bool, err error) {
	var m map[string]any
	if decodeJSON(data, b.start, b.end, &m) != nil || m == nil || !looseRecord(m) {
		return nil, false, nil
	}
	var res Attrs
	if r, isMap := m["resource"].(map[string]any); isMap {
		flatten("", pythonDict(r["attributes"]), &res)
		sortAttrs(res)
	}
	eachLooseSpan(m, func(s map[string]any) {
		if err != nil {
			return
		}
		var sp Span
		if sp, err = flatSpan(s, b.line); err != nil {
			return
		}
		sp.Resource = res
		out = append(out, sp)
	})
	if err != nil {
		return nil, true, err
	}
	return out, true, nil
}
