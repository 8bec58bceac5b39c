package spans

import (
	"context"
	"fmt"
	"strings"
)

// Datadog LLM Observability's span events, as its SDKs (dd-trace,
// ddtrace) post them to its intake, directly or through the Agent: a list
// of events {"event_type": "span", "spans": [span…]}, one such event, or
// the spans listed bare; one request a line. A span is {"trace_id",
// "span_id", "parent_id" ("undefined" for a root), "name", "tags":
// ["key:value"…], "start_ns", "duration" (nanoseconds), "status" ("ok" or
// "error"), "meta": {"span.kind", "input", "output", "error.message",
// "error.type"…}, "metrics", "session_id"}. Its meta and metrics become
// the attributes the SDKs give the span while it runs (_ml_obs.meta.*,
// _ml_obs.metrics.*, _ml_obs.session_id); its service tag is the span's
// service, and its error, "Type: message", its status.

// datadogRoot is the parent id of a root span.
const datadogRoot = "undefined"

func decodeDatadog(ctx context.Context, data []byte) ([]Span, error) {
	lines := newLineCounter(data)
	var out []Span
	err := eachObject(ctx, data, "a Datadog span event", noList, func(m map[string]any, s int) error {
		line := lines.at(s)
		list, ok := m["spans"].([]any)
		if !ok {
			sp, err := datadogSpan(m, line)
			if err != nil {
				return err
			}
			out = append(out, sp)
			return nil
		}
		for _, e := range list {
			if err := ctx.Err(); err != nil {
				return err
			}
			sm, ok := e.(map[string]any)
			if !ok {
				return fmt.Errorf("line %d: a Datadog span is a JSON object", line)
			}
			sp, err := datadogSpan(sm, line)
			if err != nil {
				return err
			}
			out = append(out, sp)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func datadogSpan(m map[string]any, line int) (Span, error) {
	sp := Span{
		TraceID:  firstText(m, []string{"trace_id"}),
		SpanID:   firstText(m, []string{"span_id"}),
		ParentID: firstText(m, []string{"parent_id"}),
		Name:     firstText(m, []string{"name"}),
		Line:     line,
	}
	if sp.ParentID == datadogRoot {
		sp.ParentID = ""
	}
	if sp.TraceID == "" || sp.SpanID == "" {
		return Span{}, fmt.Errorf("Datadog span %s at line %d has no trace_id or span_id", QuoteForError(sp.Name), line)
	}
	var err error
	if sp.Start, err = flatTime(m["start_ns"]); err != nil {
		return Span{}, fmt.Errorf("Datadog span %s at line %d: start_ns %w", QuoteForError(sp.Name), line, err)
	}
	if d, ok := m["duration"]; ok && d != nil && sp.Start != 0 {
		switch v := FromAny(d); v.Kind {
		case KindInt:
			sp.End = sp.Start + v.Int
		case KindFloat:
			sp.End = sp.Start + int64(v.Float)
		default:
			return Span{}, fmt.Errorf("Datadog span %s at line %d: duration %s is not a count of nanoseconds", QuoteForError(sp.Name), line, CutForError(v.Text()))
		}
	}
	meta, _ := m["meta"].(map[string]any)
	flatten("_ml_obs.meta", meta, &sp.Attrs)
	flatten("_ml_obs.metrics", m["metrics"], &sp.Attrs)
	if sid := firstText(m, []string{"session_id"}); sid != "" {
		sp.Attrs = append(sp.Attrs, Attr{Key: "_ml_obs.session_id", Value: String(sid)})
	}
	if tags, ok := m["tags"].([]any); ok {
		sp.Attrs = append(sp.Attrs, Attr{Key: "_ml_obs.tags", Value: FromAny(tags)})
		for _, t := range tags {
			if svc, ok := strings.CutPrefix(FromAny(t).Text(), "service:"); ok && svc != "" {
				sp.Resource = Attrs{{Key: "service.name", Value: String(svc)}}
			}
		}
	}
	sortAttrs(sp.Attrs)
	switch strings.ToLower(firstText(m, []string{"status"})) {
	case "ok":
		sp.Status.Code = StatusOK
	case "error":
		typ, msg := firstText(meta, []string{"error.type"}), firstText(meta, []string{"error.message"})
		sp.Status = Status{Code: StatusError, Message: strings.TrimPrefix(typ+": "+msg, ": ")}
		if msg == "" {
			sp.Status.Message = typ
		}
	}
	return sp, nil
}
