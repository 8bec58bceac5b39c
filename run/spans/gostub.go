package spans

import (
	"encoding/json"
	"strings"
)

// OpenTelemetry Go's stdouttrace exporter writes each span as the JSON of
// the SDK's span stub (tracetest.SpanStub), indented, one after another,
// with Go's field names: {"Name", "SpanContext": {"TraceID", "SpanID"},
// "Parent": {…}, "SpanKind" (a number), "StartTime", "EndTime",
// "Attributes": [{"Key", "Value": {"Type", "Value"}}], "Events": [{"Name",
// "Attributes", "Time"}], "Status": {"Code", "Description"}, "Resource":
// [attribute…]}. goSpanStub rewrites one as the flat span it is.

// isGoSpanStub reports whether a flat record is such a span stub.
func isGoSpanStub(m map[string]any) bool {
	_, ok := m["SpanContext"].(map[string]any)
	return ok
}

// goSpanKinds are OpenTelemetry Go's trace.SpanKind values.
var goSpanKinds = map[string]string{"1": "internal", "2": "server", "3": "client", "4": "producer", "5": "consumer"}

func goSpanStub(m map[string]any) map[string]any {
	sc, _ := m["SpanContext"].(map[string]any)
	parent, _ := m["Parent"].(map[string]any)
	status, _ := m["Status"].(map[string]any)
	out := map[string]any{
		"name":       m["Name"],
		"context":    map[string]any{"trace_id": sc["TraceID"], "span_id": sc["SpanID"]},
		"start_time": m["StartTime"],
		"end_time":   m["EndTime"],
		"attributes": goAttrs(m["Attributes"]),
		"resource":   map[string]any{"attributes": goAttrs(m["Resource"])},
	}
	if id, ok := parent["SpanID"].(string); ok && strings.Trim(id, "0") != "" {
		out["parent_id"] = id // a root span's parent is all zeros: no span
	}
	if k, ok := m["SpanKind"].(json.Number); ok {
		out["kind"] = goSpanKinds[k.String()]
	}
	if status != nil {
		out["status_code"] = status["Code"]
		out["status_message"] = status["Description"]
	}
	if evs, ok := m["Events"].([]any); ok {
		events := make([]any, 0, len(evs))
		for _, e := range evs {
			if em, ok := e.(map[string]any); ok {
				events = append(events, map[string]any{"name": em["Name"], "timestamp": em["Time"], "attributes": goAttrs(em["Attributes"])})
			}
		}
		out["events"] = events
	}
	return out
}

// goAttrs reads OpenTelemetry Go's attributes, [{"Key", "Value": {"Type",
// "Value"}}], as a map of their values; a list of any other shape is
// left out.
func goAttrs(v any) map[string]any {
	list, _ := v.([]any)
	out := make(map[string]any, len(list))
	for _, a := range list {
		am, ok := a.(map[string]any)
		if !ok {
			continue
		}
		key, _ := am["Key"].(string)
		val, _ := am["Value"].(map[string]any)
		if key == "" || val == nil {
			continue
		}
		out[key] = val["Value"]
	}
	return out
}
