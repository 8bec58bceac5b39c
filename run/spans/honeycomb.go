package spans

import (
	"encoding/json"
	"strconv"
)

// Honeycomb's events, as its query results' raw data and its exports list
// them: one flat object a span, its attributes as top-level fields beside
// Honeycomb's own, "trace.trace_id", "trace.span_id", "trace.parent_id",
// "name", "span.kind", "duration_ms", "Timestamp" (or "timestamp"),
// "status_code", "status_message" and "error". A span event or a link is
// an event of its own whose "meta.annotation_type" says so
// ("span_event", "link") and whose trace.parent_id is its span: a span
// event is an event of that span, a link is passed over.

// isHoneycombEvent reports whether m is one of Honeycomb's trace events.
func isHoneycombEvent(m map[string]any) bool {
	_, t := m["trace.trace_id"]
	_, s := m["trace.span_id"]
	_, p := m["trace.parent_id"]
	return t && (s || p)
}

// honeycombFields are the fields of a Honeycomb event that say what the
// span is rather than what it did.
var honeycombFields = map[string]string{
	"trace.trace_id": "trace_id", "trace.span_id": "span_id", "trace.parent_id": "parent_id",
	"name": "name", "span.kind": "kind", "Timestamp": "start_time", "timestamp": "start_time",
	"status_code": "status_code", "status_message": "status_message",
}

// honeycombEvent rewrites a Honeycomb event as the flat span it is: its
// own fields under flatSpan's names, every other field an attribute.
func honeycombEvent(m map[string]any) map[string]any {
	rec := map[string]any{}
	attrs := map[string]any{}
	for k, v := range m {
		if f, ok := honeycombFields[k]; ok {
			rec[f] = v
			continue
		}
		attrs[k] = v
	}
	if m["error"] == true && rec["status_code"] == nil {
		rec["status_code"] = "ERROR"
	}
	endAfterMillis(rec, m["duration_ms"])
	rec["attributes"] = attrs
	return rec
}

// honeycombAnnotation is what a Honeycomb event that annotates a span
// is ("span_event", "link"), or "".
func honeycombAnnotation(m map[string]any) string {
	s, _ := m["meta.annotation_type"].(string)
	return s
}

// honeycombSpanEvent reads a Honeycomb event that annotates a span as the
// span's event, and returns the span it belongs to.
func honeycombSpanEvent(m map[string]any) (span string, ev Event) {
	rec := honeycombEvent(m)
	ev.Name = firstText(rec, []string{"name"})
	ev.Time, _ = flatTime(rec["start_time"])
	flatten("", rec["attributes"], &ev.Attrs)
	sortAttrs(ev.Attrs)
	return flatID(rec["parent_id"], 16), ev
}

// endAfterMillis gives rec, whose start_time is read, an end_time ms
// milliseconds later (Honeycomb's duration_ms, Application Insights'
// duration), its start time then in nanoseconds.
func endAfterMillis(rec map[string]any, ms any) { endAfter(rec, ms, 1e6) }

// endAfter gives rec, whose start_time is read, an end_time d units of
// unit nanoseconds later, its start time then in nanoseconds.
func endAfter(rec map[string]any, d any, unit float64) {
	start, err := flatTime(rec["start_time"])
	if err != nil || start == 0 {
		return
	}
	rec["start_time"] = json.Number(strconv.FormatInt(start, 10))
	if n, ok := d.(json.Number); ok {
		if f, err := n.Float64(); err == nil && f >= 0 {
			rec["end_time"] = json.Number(strconv.FormatInt(start+int64(f*unit), 10))
		}
	}
}
