package spans

import "strings"

// Genkit's trace data, as its runtimes (JavaScript and Go) send each trace
// to its telemetry server and as that server keeps it in a file a trace:
// {"traceId", "displayName", "startTime", "endTime", "spans": {"SPANID":
// span…}} (the TraceData and SpanData types of Genkit's tracing
// packages). A span is a flat span ({"spanId", "traceId", "parentSpanId",
// "displayName", "startTime", "endTime" in milliseconds, "attributes",
// "spanKind"}) but for two members: its events, {"timeEvents":
// {"timeEvent": [{"time", "annotation": {"description", "attributes"}}]}},
// and its status, {"code", "message"}, whose code is the runtime's own
// (JavaScript's SpanStatusCode, where 2 is an error, or Go's codes.Code,
// where 1 is): the span's genkit:state, "success" or "error", says which.

// isGenkitSpan reports whether the span m has the members only Genkit's
// span data holds.
func isGenkitSpan(m map[string]any) bool {
	_, events := m["timeEvents"]
	_, process := m["sameProcessAsParentSpan"]
	return events || process
}

// genkitSpan sets the events and the status of sp from Genkit's span data
// m.
func genkitSpan(m map[string]any, sp *Span) {
	te, _ := m["timeEvents"].(map[string]any)
	evs, _ := te["timeEvent"].([]any)
	for _, e := range evs {
		em, ok := e.(map[string]any)
		if !ok {
			continue
		}
		ann, _ := em["annotation"].(map[string]any)
		ev := Event{Name: firstText(ann, []string{"description"})}
		ev.Time, _ = flatTime(em["time"])
		flatten("", ann["attributes"], &ev.Attrs)
		sortAttrs(ev.Attrs)
		sp.Events = append(sp.Events, ev)
	}
	status, _ := m["status"].(map[string]any)
	msg := strings.TrimSpace(firstText(status, []string{"message"}))
	switch sp.Attrs.Str("genkit:state") {
	case "error":
		sp.Status = Status{Code: StatusError, Message: msg}
	case "success":
		sp.Status = Status{Code: StatusOK}
	default:
		// A span Genkit did not make: the code may mean either, and
		// only an error comes with a message.
		sp.Status = Status{}
		if msg != "" {
			sp.Status = Status{Code: StatusError, Message: msg}
		}
	}
}
