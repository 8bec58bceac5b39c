package spans

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Jaeger's UI and query API JSON: {"data": [trace…]} as the API answers
// and the UI downloads, a bare trace {"traceID", "spans", "processes"},
// or an array of traces. Times are microseconds; the OpenTelemetry span
// kind and status travel as the tags span.kind, otel.status_code and
// otel.status_description, events as logs whose "event" field names them.

type jaegerSpan struct {
	TraceID       string `json:"traceID"`
	SpanID        string `json:"spanID"`
	ParentSpanID  string `json:"parentSpanID"`
	OperationName string `json:"operationName"`
	References    []struct {
		RefType string `json:"refType"`
		TraceID string `json:"traceID"`
		SpanID  string `json:"spanID"`
	} `json:"references"`
	StartTime json.Number `json:"startTime"`
	Duration  json.Number `json:"duration"`
	Tags      []jaegerKV  `json:"tags"`
	Logs      []struct {
		Timestamp json.Number `json:"timestamp"`
		Fields    []jaegerKV  `json:"fields"`
	} `json:"logs"`
	ProcessID string         `json:"processID"`
	Process   *jaegerProcess `json:"process"`
}

type jaegerProcess struct {
	ServiceName string     `json:"serviceName"`
	Tags        []jaegerKV `json:"tags"`
}

type jaegerKV struct {
	Key   string `json:"key"`
	Type  string `json:"type"`
	Value any    `json:"value"`
}

func decodeJaeger(ctx context.Context, data []byte) ([]Span, error) {
	lines := newLineCounter(data)
	return eachTraceSpans(ctx, data, func(s, e int) ([]Span, error) {
		return jaegerTrace(data, s, e, lines)
	})
}

// eachTraceSpans collects the spans read from every trace object of every
// record of data (see eachTrace).
func eachTraceSpans(ctx context.Context, data []byte, read func(s, e int) ([]Span, error)) ([]Span, error) {
	recs, err := records(data)
	if err != nil {
		return nil, err
	}
	var out []Span
	for _, r := range recs {
		err := eachTrace(data, r, func(s, e int) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			spans, err := read(s, e)
			out = append(out, spans...)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// eachTrace calls fn with every trace object of a record: the elements of
// "data" or of a top-level array, or the record itself.
func eachTrace(data []byte, r record, fn func(s, e int) error) error {
	if data[r.start] == '[' {
		return eachElement(data, r.start, fn)
	}
	if s, _, ok := member(data, r.start, "data"); ok && data[s] == '[' {
		return eachElement(data, s, fn)
	}
	return fn(r.start, r.end)
}

func jaegerTrace(data []byte, s, e int, lines *lineCounter) ([]Span, error) {
	if data[s] != '{' {
		line, col := Position(data, s)
		return nil, fmt.Errorf("line %d, column %d: a Jaeger trace is a JSON object", line, col)
	}
	processes := map[string]jaegerProcess{}
	if ps, pe, ok := member(data, s, "processes"); ok {
		if err := decodeJSON(data, ps, pe, &processes); err != nil {
			return nil, err
		}
	}
	ss, _, ok := member(data, s, "spans")
	if !ok {
		line, col := Position(data, s)
		return nil, fmt.Errorf(`line %d, column %d: a Jaeger trace without "spans"`, line, col)
	}
	var out []Span
	err := eachElement(data, ss, func(es, ee int) error {
		var js jaegerSpan
		if err := decodeJSON(data, es, ee, &js); err != nil {
			return err
		}
		line := lines.at(es)
		if js.TraceID == "" || js.SpanID == "" {
			return fmt.Errorf("span %s at line %d has no traceID or spanID", QuoteForError(js.OperationName), line)
		}
		sp := Span{
			TraceID: strings.ToLower(js.TraceID),
			SpanID:  strings.ToLower(js.SpanID),
			Name:    js.OperationName,
			Line:    line,
		}
		sp.ParentID = strings.ToLower(js.ParentSpanID)
		for _, ref := range js.References {
			if sp.ParentID == "" && strings.EqualFold(ref.TraceID, js.TraceID) && (ref.RefType == "CHILD_OF" || ref.RefType == "FOLLOWS_FROM") {
				sp.ParentID = strings.ToLower(ref.SpanID)
			}
		}
		start, err := micros(js.StartTime)
		if err != nil {
			return fmt.Errorf("span %s at line %d: startTime %w", QuoteForError(js.OperationName), line, err)
		}
		dur, err := micros(js.Duration)
		if err != nil {
			return fmt.Errorf("span %s at line %d: duration %w", QuoteForError(js.OperationName), line, err)
		}
		sp.Start, sp.End = start, start+dur
		for _, kv := range js.Tags {
			v := kv.value()
			switch kv.Key {
			case "span.kind":
				sp.Kind = strings.ToLower(v.Text())
				continue
			case "otel.status_code":
				switch strings.ToUpper(v.Text()) {
				case "ERROR":
					sp.Status.Code = StatusError
				case "OK":
					sp.Status.Code = StatusOK
				}
				continue
			case "otel.status_description":
				sp.Status.Message = v.Text()
				continue
			case "error":
				if v.Text() == "true" && sp.Status.Code == StatusUnset {
					sp.Status.Code = StatusError
				}
			}
			sp.Attrs = append(sp.Attrs, Attr{Key: kv.Key, Value: v})
		}
		for _, l := range js.Logs {
			t, _ := micros(l.Timestamp)
			ev := Event{Time: t}
			for _, kv := range l.Fields {
				if kv.Key == "event" && ev.Name == "" {
					ev.Name = kv.value().Text()
					continue
				}
				ev.Attrs = append(ev.Attrs, Attr{Key: kv.Key, Value: kv.value()})
			}
			sp.Events = append(sp.Events, ev)
		}
		p, ok := processes[js.ProcessID]
		if js.Process != nil {
			p, ok = *js.Process, true
		}
		if ok {
			sp.Resource = append(Attrs{{Key: "service.name", Value: String(p.ServiceName)}}, tagAttrs(p.Tags)...)
		}
		out = append(out, sp)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// micros reads a Jaeger time or duration in microseconds as nanoseconds.
func micros(n json.Number) (int64, error) {
	if n == "" {
		return 0, nil
	}
	v, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(string(n), 64)
		if ferr != nil {
			return 0, fmt.Errorf("%s is not a number of microseconds", QuoteForError(string(n)))
		}
		return int64(f * 1e3), nil
	}
	return v * 1e3, nil
}

func tagAttrs(kvs []jaegerKV) Attrs {
	out := make(Attrs, 0, len(kvs))
	for _, kv := range kvs {
		out = append(out, Attr{Key: kv.Key, Value: kv.value()})
	}
	return out
}

// value types a tag by its declared type, leniently: Jaeger writes int64
// values that do not fit a JSON number as strings.
func (kv jaegerKV) value() Value {
	v := FromAny(kv.Value)
	s, isString := kv.Value.(string)
	switch strings.ToLower(kv.Type) {
	case "bool":
		if isString {
			if b, err := strconv.ParseBool(s); err == nil {
				return Value{Kind: KindBool, Bool: b}
			}
		}
	case "int64":
		if isString {
			if i, err := strconv.ParseInt(s, 10, 64); err == nil {
				return Value{Kind: KindInt, Int: i}
			}
		}
	case "float64":
		if isString {
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				return Value{Kind: KindFloat, Float: f}
			}
		}
	case "binary":
		if isString {
			if b, err := base64.StdEncoding.DecodeString(s); err == nil {
				return Value{Kind: KindBytes, Str: string(b)}
			}
		}
	}
	return v
}
