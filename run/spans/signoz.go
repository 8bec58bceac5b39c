package spans

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// SigNoz's trace view (GET /api/v1/traces/{traceId}, as its UI downloads
// it): a list of tables, each {"columns": [...], "events": [[...]...]},
// a row a span, its cells in the columns' order: "__time" (milliseconds),
// "SpanId", "TraceId", "ServiceName", "Name", "Kind", "DurationNano",
// "TagsKeys" and "TagsValues" (the attributes, as two lists of text),
// "References" (its parent, a JSON list of {"traceId", "spanId",
// "refType"}, or "{TraceId=…, SpanId=…, RefType=CHILD_OF}"), "Events",
// "HasError", "StatusMessage", "StatusCodeString", "SpanKind". Older
// releases write the columns in camel case ("spanID", "tagsKeys"): a
// column is known by its name without case or underscores.

// sigNozElement reports whether the object at i is one of SigNoz's
// tables of spans, by its columns.
func sigNozElement(data []byte, i int) bool {
	if i >= len(data) || data[i] != '{' {
		return false
	}
	s, e, ok := member(data, i, "columns")
	if !ok || data[s] != '[' {
		return false
	}
	var cols []any
	if decodeJSON(data, s, e, &cols) != nil {
		return false
	}
	return isSigNozTable(map[string]any{"columns": cols, "events": []any{}})
}

// isSigNozTable reports whether m is one of SigNoz's tables of spans.
func isSigNozTable(m map[string]any) bool {
	cols, ok := m["columns"].([]any)
	if !ok {
		return false
	}
	_, ok = m["events"].([]any)
	if !ok {
		return false
	}
	var span, trace bool
	for _, c := range cols {
		s, _ := c.(string)
		switch sigNozColumn(s) {
		case "spanid":
			span = true
		case "traceid":
			trace = true
		}
	}
	return span && trace
}

// sigNozColumn is a column's name as sigNozRow looks it up.
func sigNozColumn(name string) string {
	return strings.ToLower(strings.ReplaceAll(name, "_", ""))
}

// sigNozRows rewrites a SigNoz table's rows as the flat spans they are.
// A row that is no list, or shorter than the columns, keeps what it has.
func sigNozRows(m map[string]any) []map[string]any {
	cols, _ := m["columns"].([]any)
	rows, _ := m["events"].([]any)
	out := make([]map[string]any, 0, len(rows))
	for _, r := range rows {
		cells, ok := r.([]any)
		if !ok {
			continue
		}
		row := map[string]any{}
		for i, c := range cols {
			if s, ok := c.(string); ok && i < len(cells) {
				row[sigNozColumn(s)] = cells[i]
			}
		}
		out = append(out, sigNozRow(row))
	}
	return out
}

// sigNozRow is one row, its cells by column, as a flat span.
func sigNozRow(row map[string]any) map[string]any {
	attrs := map[string]any{}
	keys, _ := row["tagskeys"].([]any)
	vals, _ := row["tagsvalues"].([]any)
	for i, k := range keys {
		if s, ok := k.(string); ok && i < len(vals) {
			attrs[s] = vals[i]
		}
	}
	rec := map[string]any{
		"trace_id":       row["traceid"],
		"span_id":        row["spanid"],
		"parent_id":      sigNozParent(row["references"]),
		"name":           row["name"],
		"start_time":     row["time"],
		"status_message": row["statusmessage"],
		"attributes":     attrs,
	}
	// The service is the resource's, as every other reader has it: the
	// builder names an agent by the service that emitted its spans.
	if s, ok := row["servicename"].(string); ok && s != "" {
		rec["resource"] = map[string]any{"service.name": s}
	}
	if t, ok := row["time"]; !ok || t == nil {
		rec["start_time"] = row["timestamp"]
	}
	if row["haserror"] == true {
		rec["status_code"] = "ERROR"
	} else if s, ok := row["statuscodestring"].(string); ok {
		rec["status_code"] = s
	}
	endAfter(rec, row["durationnano"], 1)
	return rec
}

// sigNozParent reads the span a row's references name as its parent:
// the first reference of kind CHILD_OF, or of no kind, with a span id.
func sigNozParent(v any) string {
	s, _ := v.(string)
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	var refs []map[string]any
	if json.Unmarshal([]byte(s), &refs) == nil {
		for _, r := range refs {
			if kind := foldedString(r, "refType"); kind != "" && !strings.EqualFold(kind, "CHILD_OF") {
				continue
			}
			if id := foldedString(r, "spanId"); id != "" {
				return id
			}
		}
		return ""
	}
	// {TraceId=…, SpanId=…, RefType=CHILD_OF}, one or more
	for ref := range strings.SplitSeq(s, "}") {
		if _, kind, ok := strings.Cut(ref, "RefType="); ok && !strings.HasPrefix(strings.TrimSpace(kind), "CHILD_OF") {
			continue
		}
		if _, rest, ok := strings.Cut(ref, "SpanId="); ok {
			id, _, _ := strings.Cut(rest, ",")
			if id = strings.Trim(strings.TrimSpace(id), "}]"); id != "" {
				return id
			}
		}
	}
	return ""
}

// foldedString is the text m holds under key however its letters are
// cased; of several such keys, the first in sorted order, so that a
// record holding two spellings reads the same every time.
func foldedString(m map[string]any, key string) string {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if strings.EqualFold(k, key) {
			if v, ok := m[k].(string); ok {
				return v
			}
		}
	}
	return ""
}
