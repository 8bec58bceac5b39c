package spans

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Sentry's envelopes, as its SDKs post them to a project's envelope
// endpoint (develop.sentry.dev, "Envelopes"): a header line, then items,
// each a header line ({"type", "length"?}) and its payload, the payload
// exactly length bytes when the header says so, else one line. Several
// envelopes may follow one another, as a relay or a capture writes them.
// Two items hold spans: a transaction event ({"type": "transaction",
// "contexts": {"trace"}, "spans": […]}: its root span is the trace
// context, named by "transaction"), and a span container ("span", version
// 2: {"version": 2, "items": [span…]}, attributes {"KEY": {"type",
// "value"}}), which SDKs that stream spans send, and others use for their
// AI spans. A transaction event alone (as Sentry's event JSON shows it)
// is read too. An error event's exception is an exception event of the
// span it was captured in. Other items (sessions, attachments) hold no
// span and are passed over. A span's op is kept as sentry.op, its status
// "ok" or the error it names.

// sentryStatuses are the names of Sentry's span statuses (its SDKs'
// SpanStatus, after gRPC's codes).
var sentryStatuses = map[string]bool{
	"ok": true, "error": true, "cancelled": true, "unknown": true, "unknown_error": true, "invalid_argument": true,
	"deadline_exceeded": true, "not_found": true, "already_exists": true, "permission_denied": true,
	"resource_exhausted": true, "failed_precondition": true, "aborted": true, "out_of_range": true,
	"unimplemented": true, "internal_error": true, "unavailable": true, "data_loss": true, "unauthenticated": true,
}

// sentrySpanItems are the item types that hold spans; an "event" item
// is an error, which names its span in its trace context.
var sentrySpanItems = map[string]bool{"transaction": true, "span": true, "event": true}

func decodeSentry(ctx context.Context, data []byte) ([]Span, error) {
	lines := newLineCounter(data)
	var out []Span
	var errs []sentryError
	for i := skipSpace(data, 0); i < len(data); i = skipSpace(data, i) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		end, err := skipValue(data, i)
		if err != nil {
			return nil, syntaxError(data, i, err)
		}
		var head struct {
			Type   string       `json:"type"`
			Length *json.Number `json:"length"`
			Spans  any          `json:"spans"`
			Items  any          `json:"items"`
		}
		if data[i] != '{' {
			line, col := Position(data, i)
			return nil, fmt.Errorf("line %d, column %d: a Sentry envelope's header is a JSON object", line, col)
		}
		if err := decodeJSON(data, i, end, &head); err != nil {
			return nil, err
		}
		switch {
		case head.Spans != nil || head.Items != nil:
			// A payload on its own: a transaction event, a span container.
			if err := sentryPayload(data, i, end, lines.at(i), &out); err != nil {
				return nil, err
			}
			i = end
			continue
		case head.Type == "":
			i = end // an envelope's header
			continue
		}
		// An item's header: its payload starts after the header's line.
		s := end
		if nl := bytes.IndexByte(data[end:], '\n'); nl >= 0 {
			s = end + nl + 1
		} else {
			s = len(data)
		}
		e := s
		if head.Length != nil {
			n, err := head.Length.Int64()
			if err != nil || n < 0 || n > int64(len(data)-s) {
				line, _ := Position(data, i)
				return nil, fmt.Errorf("line %d: a Sentry item's length %s runs past the end of the file", line, head.Length)
			}
			e = s + int(n)
		} else if nl := bytes.IndexByte(data[s:], '\n'); nl >= 0 {
			e = s + nl
		} else {
			e = len(data)
		}
		if sentrySpanItems[head.Type] && len(bytes.TrimSpace(data[s:e])) > 0 {
			ps := skipSpace(data, s)
			var err error
			if head.Type == "event" {
				err = sentryEvent(data, ps, e, &errs)
			} else {
				err = sentryPayload(data, ps, e, lines.at(ps), &out)
			}
			if err != nil {
				return nil, err
			}
		}
		i = e
	}
	for _, se := range errs {
		for k := range out {
			if out[k].SpanID == se.span && out[k].TraceID == se.trace {
				out[k].Events = append(out[k].Events, se.event)
				break
			}
		}
	}
	return out, nil
}

// sentryError is an error event's exception, as an exception event of the
// span it names.
type sentryError struct {
	trace, span string
	event       Event
}

// sentryEvent reads an error event at data[s:e]: its exception (the last
// of its values, the one raised; the first are its causes) becomes an
// exception event of the span its trace context names. An event that
// names no span, or has no exception, is passed over.
func sentryEvent(data []byte, s, e int, out *[]sentryError) error {
	var ev struct {
		Timestamp any `json:"timestamp"`
		Contexts  struct {
			Trace struct {
				TraceID string `json:"trace_id"`
				SpanID  string `json:"span_id"`
			} `json:"trace"`
		} `json:"contexts"`
		Exception struct {
			Values []struct {
				Type  string `json:"type"`
				Value string `json:"value"`
			} `json:"values"`
		} `json:"exception"`
	}
	if err := decodeJSON(data, s, e, &ev); err != nil {
		return err
	}
	vs := ev.Exception.Values
	if ev.Contexts.Trace.SpanID == "" || len(vs) == 0 {
		return nil
	}
	ex := vs[len(vs)-1]
	t, _ := flatTime(ev.Timestamp)
	*out = append(*out, sentryError{trace: ev.Contexts.Trace.TraceID, span: ev.Contexts.Trace.SpanID, event: Event{
		Name: "exception", Time: t,
		Attrs: Attrs{{Key: "exception.message", Value: String(ex.Value)}, {Key: "exception.type", Value: String(ex.Type)}},
	}})
	return nil
}

// sentryPayload reads the spans of a transaction event or a span container
// at data[s:e].
func sentryPayload(data []byte, s, e, line int, out *[]Span) error {
	var p struct {
		Type        string           `json:"type"`
		Transaction string           `json:"transaction"`
		Start       any              `json:"start_timestamp"`
		End         any              `json:"timestamp"`
		Contexts    map[string]any   `json:"contexts"`
		Spans       []map[string]any `json:"spans"`
		Items       []map[string]any `json:"items"`
	}
	if err := decodeJSON(data, s, e, &p); err != nil {
		return err
	}
	if tc, ok := p.Contexts["trace"].(map[string]any); ok && p.Spans != nil {
		root := map[string]any{"description": p.Transaction, "start_timestamp": p.Start, "timestamp": p.End}
		for k, v := range tc {
			root[k] = v
		}
		sp, err := sentrySpan(root, "", line)
		if err != nil {
			return err
		}
		*out = append(*out, sp)
	}
	for _, list := range [][]map[string]any{p.Spans, p.Items} {
		for _, m := range list {
			sp, err := sentrySpan(m, FromAny(p.Contexts["trace"]).Map.Str("trace_id"), line)
			if err != nil {
				return err
			}
			*out = append(*out, sp)
		}
	}
	return nil
}

// sentrySpan reads one span, of a transaction (its name the description,
// its end "timestamp", its attributes "data") or of a span container
// (name, end_timestamp, typed attributes); trace stands in for a span's
// missing trace id.
func sentrySpan(m map[string]any, trace string, line int) (Span, error) {
	if m == nil {
		return Span{}, fmt.Errorf("line %d: a Sentry span is a JSON object, not null", line)
	}
	sp := Span{
		TraceID:  firstText(m, []string{"trace_id"}),
		SpanID:   firstText(m, []string{"span_id"}),
		ParentID: firstText(m, []string{"parent_span_id"}),
		Name:     firstText(m, []string{"name", "description", "op"}),
		Line:     line,
	}
	if sp.TraceID == "" {
		sp.TraceID = trace
	}
	if sp.TraceID == "" || sp.SpanID == "" {
		return Span{}, fmt.Errorf("Sentry span %s at line %d has no trace_id or span_id", QuoteForError(sp.Name), line)
	}
	var err error
	if sp.Start, err = flatTime(m["start_timestamp"]); err != nil {
		return Span{}, fmt.Errorf("Sentry span %s at line %d: start_timestamp %w", QuoteForError(sp.Name), line, err)
	}
	if sp.End, err = flatTime(first(m, []string{"end_timestamp", "timestamp"})); err != nil {
		return Span{}, fmt.Errorf("Sentry span %s at line %d: end timestamp %w", QuoteForError(sp.Name), line, err)
	}
	if data, ok := m["data"].(map[string]any); ok {
		flatten("", data, &sp.Attrs)
	}
	if attrs, ok := m["attributes"].(map[string]any); ok {
		for k, v := range attrs {
			if tv, ok := v.(map[string]any); ok {
				if inner, ok := tv["value"]; ok {
					v = inner // {"type", "value"}
				}
			}
			if v != nil {
				sp.Attrs = append(sp.Attrs, Attr{Key: k, Value: FromAny(v)})
			}
		}
	}
	if op := firstText(m, []string{"op"}); op != "" {
		if _, ok := sp.Attrs.Get("sentry.op"); !ok {
			sp.Attrs = append(sp.Attrs, Attr{Key: "sentry.op", Value: String(op)})
		}
	}
	sortAttrs(sp.Attrs)
	switch status := strings.ToLower(firstText(m, []string{"status"})); status {
	case "":
	case "ok":
		sp.Status.Code = StatusOK
	default:
		// A span container says "error", with a message in an attribute;
		// a transaction's span names its status (internal_error…). A
		// status's name is no message.
		sp.Status = Status{Code: StatusError, Message: sp.Attrs.Str("sentry.status.message")}
		if sentryStatuses[sp.Status.Message] {
			sp.Status.Message = ""
		}
	}
	return sp, nil
}
