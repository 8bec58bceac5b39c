package spans

import (
	"fmt"

	logspb "go.opentelemetry.io/proto/otlp/logs/v1"
)

// logRecord is one OTLP log record read as an event of the span it names.
type logRecord struct {
	traceID, spanID string
	event           Event
	own             int // how many of event.Attrs are the record's attributes; its body's follow
	resource        Attrs
	line            int
}

// decodeLogBatch decodes one ResourceLogs, as decodeBatch does a
// ResourceSpans.
func decodeLogBatch(data []byte, b batch) ([]logRecord, error) {
	rec := make([]byte, b.end-b.start)
	copy(rec, data[b.start:b.end])
	if err := hexToBase64(data, rec, b.start); err != nil {
		return nil, err
	}
	var rl logspb.ResourceLogs
	if err := unmarshal.Unmarshal(rec, &rl); err != nil {
		return nil, protoError(data, b.start, err)
	}
	return fromResourceLogs(&rl, b.line)
}

// fromResourceLogs reads the log records of a ResourceLogs as events: the
// record's event name (or its event.name attribute), its time (or the time
// it was observed), and its attributes followed by its body's (a map's
// entries, or anything else as "body"), which is where GenAI events as log
// records keep their messages.
func fromResourceLogs(rl *logspb.ResourceLogs, line int) ([]logRecord, error) {
	res := attrsOf(rl.GetResource().GetAttributes())
	var out []logRecord
	for _, sl := range rl.GetScopeLogs() {
		for _, r := range sl.GetLogRecords() {
			if t, sp := len(r.GetTraceId()), len(r.GetSpanId()); (t != 0 && t != 16) || (sp != 0 && sp != 8) {
				return nil, fmt.Errorf("log record in the record at line %d: want a trace id of 16 bytes and a span id of 8, have %d and %d", line, t, sp)
			}
			attrs := attrsOf(r.GetAttributes())
			own := len(attrs)
			name := r.GetEventName()
			if name == "" {
				name = attrs.Str("event.name")
			}
			switch body := valueOf(r.GetBody()); body.Kind {
			case KindMap:
				attrs = append(attrs, body.Map...)
			case KindString, KindList, KindInt, KindFloat, KindBool, KindBytes:
				attrs = append(attrs, Attr{Key: "body", Value: body})
			}
			t := r.GetTimeUnixNano()
			if t == 0 {
				t = r.GetObservedTimeUnixNano()
			}
			out = append(out, logRecord{
				traceID: hexID(r.GetTraceId()), spanID: hexID(r.GetSpanId()),
				event: Event{Name: name, Time: clampNanos(t), Attrs: attrs}, own: own,
				resource: res, line: line,
			})
		}
	}
	return out, nil
}

// attachLogs makes each log record that names a span an event of it. The
// records of a span the file does not hold make a span of their own: named
// by its first record's event, from the first record's time to the last,
// with their attributes (the first of each key), as the span would have
// carried them (not their bodies, which are the events'). A record that names no span is left out: nothing places it
// in a run.
func attachLogs(spans []Span, logs []logRecord) []Span {
	if len(logs) == 0 {
		return spans
	}
	type key struct{ trace, span string }
	at := make(map[key]int, len(spans))
	for i, s := range spans {
		at[key{s.TraceID, s.SpanID}] = i
	}
	made := len(spans) // spans from here on are made of log records
	for _, r := range logs {
		if r.traceID == "" || r.spanID == "" {
			continue
		}
		k := key{r.traceID, r.spanID}
		i, ok := at[k]
		if !ok {
			i = len(spans)
			at[k] = i
			spans = append(spans, Span{TraceID: r.traceID, SpanID: r.spanID, Name: r.event.Name,
				Start: r.event.Time, End: r.event.Time, Resource: r.resource, Line: r.line})
		}
		s := &spans[i]
		s.Events = append(s.Events, r.event)
		if i >= made {
			s.Start, s.End = min(s.Start, r.event.Time), max(s.End, r.event.Time)
			for _, a := range r.event.Attrs[:r.own] {
				if _, ok := s.Attrs.Get(a.Key); !ok {
					s.Attrs = append(s.Attrs, a)
				}
			}
		}
	}
	return spans
}
