package spans

import (
	"encoding/json"
	"strings"
)

// Google Cloud Trace's spans (its v2 API's Span, as batchWrite is given
// them and as exporters to Cloud Trace dump them): {"name":
// "projects/PROJECT/traces/TRACE/spans/SPAN", "spanId", "parentSpanId",
// "displayName": {"value"}, "startTime", "endTime", "spanKind",
// "attributes": {"attributeMap": {KEY: {"stringValue": {"value"}} or
// {"intValue"} or {"boolValue"}}}, "timeEvents": {"timeEvent": [{"time",
// "annotation": {"description": {"value"}, "attributes"}}]}, "status":
// {"code", "message"}}. The trace is the one the span's name names, the
// span's name its display name; an annotation is an event; a status code
// other than 0 (google.rpc's OK) is an error.

// isCloudTraceSpan reports whether m is a span of Cloud Trace's v2 API:
// a resource name of a trace's span, or attributes in its attribute map.
func isCloudTraceSpan(m map[string]any) bool {
	if name, ok := m["name"].(string); ok && cloudTraceID(name) != "" {
		return true
	}
	attrs, _ := m["attributes"].(map[string]any)
	_, ok := attrs["attributeMap"].(map[string]any)
	return ok
}

// cloudTraceID returns the trace a span's resource name names
// ("projects/P/traces/TRACE/spans/SPAN"), or "".
func cloudTraceID(name string) string {
	rest, ok := strings.CutPrefix(name, "projects/")
	if !ok {
		return ""
	}
	_, rest, ok = strings.Cut(rest, "/traces/")
	if !ok {
		return ""
	}
	trace, _, ok := strings.Cut(rest, "/spans/")
	if !ok {
		return ""
	}
	return trace
}

// cloudTraceSpan rewrites a Cloud Trace span as the flat span it is.
func cloudTraceSpan(m map[string]any) map[string]any {
	rec := map[string]any{}
	for _, k := range []string{"spanId", "parentSpanId", "startTime", "endTime", "spanKind"} {
		if v, ok := m[k]; ok {
			rec[k] = v
		}
	}
	name, _ := m["name"].(string)
	if t := cloudTraceID(name); t != "" {
		rec["traceId"] = t
	}
	if t, ok := m["traceId"]; ok {
		rec["traceId"] = t
	}
	rec["name"] = truncatable(m["displayName"])
	if rec["name"] == "" {
		rec["name"] = name
	}
	attrs, _ := m["attributes"].(map[string]any)
	rec["attributes"] = attributeMap(attrs)
	te, _ := m["timeEvents"].(map[string]any)
	evs, _ := te["timeEvent"].([]any)
	var events []any
	for _, e := range evs {
		em, _ := e.(map[string]any)
		ann, ok := em["annotation"].(map[string]any)
		if !ok {
			continue // a message event: bytes sent or received
		}
		aa, _ := ann["attributes"].(map[string]any)
		events = append(events, map[string]any{"name": truncatable(ann["description"]), "time": em["time"], "attributes": attributeMap(aa)})
	}
	if events != nil {
		rec["events"] = events
	}
	if st, ok := m["status"].(map[string]any); ok {
		if c, ok := st["code"].(json.Number); ok && c.String() != "0" {
			rec["status_code"] = "ERROR"
			rec["status_message"] = st["message"]
		}
	}
	return rec
}

// truncatable reads a TruncatableString, {"value", "truncatedByteCount"}
// (or plain text), as its text.
func truncatable(v any) string {
	if m, ok := v.(map[string]any); ok {
		v = m["value"]
	}
	s, _ := v.(string)
	return s
}

// attributeMap reads Cloud Trace's attributes, {"attributeMap": {KEY:
// {"stringValue": {"value"}} or {"intValue": "12"} or {"boolValue":
// true}}}, as plain keys and values.
func attributeMap(attrs map[string]any) map[string]any {
	am, _ := attrs["attributeMap"].(map[string]any)
	out := make(map[string]any, len(am))
	for k, v := range am {
		vm, ok := v.(map[string]any)
		if !ok {
			continue
		}
		switch {
		case vm["stringValue"] != nil:
			out[k] = truncatable(vm["stringValue"])
		case vm["intValue"] != nil:
			switch n := vm["intValue"].(type) {
			case string:
				out[k] = json.Number(n)
			default:
				out[k] = n
			}
		case vm["boolValue"] != nil:
			out[k] = vm["boolValue"]
		}
	}
	return out
}
