package spans

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
)

// batch is one ResourceSpans (or, logs set, ResourceLogs) object of a
// file, with its place.
type batch struct {
	start, end int
	line       int
	logs       bool
}

// decodeOTLP reads OTLP/JSON — one {"resourceSpans": …} object, or one a
// line as the Collector's file exporter appends them — and Tempo's
// downloads ({"batches": …}, or {"trace": {"resourceSpans": …}} from its
// v2 API), and Jaeger's API v3 ({"result": {"resourceSpans": …}}, a line
// per chunk of the stream); and OTLP's binary protobuf (DecodeOTLPProto). Each ResourceSpans is decoded by protojson into the OTLP
// protobuf types, the batches two or more at once. OTLP logs
// ({"resourceLogs": …}) in the same file, or alone, are read as events
// (attachLogs): GenAI instrumentations may log a model call's messages
// apart from its span.
func decodeOTLP(ctx context.Context, data []byte) ([]Span, error) {
	if Binary(data) {
		return DecodeOTLPProto(ctx, data)
	}
	recs, err := records(data)
	if err != nil {
		return nil, err
	}
	var batches []batch
	lines := newLineCounter(data)
	for _, r := range recs {
		found := false
		var inner error
		collectAs := func(s int, logs bool) {
			found = true
			inner = eachElement(data, s, func(es, ee int) error {
				batches = append(batches, batch{start: es, end: ee, line: lines.at(es), logs: logs})
				return nil
			})
		}
		collect := func(s int) { collectAs(s, false) }
		if data[r.start] != '{' {
			line, col := Position(data, r.start)
			return nil, fmt.Errorf("line %d, column %d: not a JSON object; OTLP/JSON holds {\"resourceSpans\": …} objects", line, col)
		}
		err := eachMember(data, r.start, func(key []byte, s, _ int) bool {
			switch string(key) {
			case "resourceSpans", "resource_spans", "batches":
				collect(s)
			case "resourceLogs", "resource_logs":
				collectAs(s, true)
			case "trace", "result":
				if data[s] == '{' {
					if ts, _, ok := member(data, s, "resourceSpans"); ok {
						collect(ts)
					} else if ts, _, ok := member(data, s, "batches"); ok {
						collect(ts)
					}
				}
			}
			return inner == nil
		})
		if err == nil {
			err = inner
		}
		if err != nil {
			return nil, syntaxError(data, r.start, err)
		}
		if !found {
			line, col := Position(data, r.start)
			return nil, fmt.Errorf(`line %d, column %d: a JSON object without "resourceSpans" or "resourceLogs" (OTLP) or "batches" (Tempo): is the file mixed?`, line, col)
		}
	}
	return decodeBatches(ctx, data, batches)
}

// decodeBatches decodes the batches on every core and returns their spans
// in file order, with the log records among them attached (attachLogs).
func decodeBatches(ctx context.Context, data []byte, batches []batch) ([]Span, error) {
	results := make([][]Span, len(batches))
	logs := make([][]logRecord, len(batches))
	errs := make([]error, len(batches))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(batches)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := int(next.Add(1) - 1); n < len(batches); n = int(next.Add(1) - 1) {
				if errs[n] = ctx.Err(); errs[n] != nil {
					return
				}
				if batches[n].logs {
					logs[n], errs[n] = decodeLogBatch(data, batches[n])
				} else {
					results[n], errs[n] = decodeBatch(data, batches[n])
				}
				if errs[n] != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	total := 0
	for n := range batches {
		if errs[n] != nil {
			return nil, errs[n]
		}
		total += len(results[n])
	}
	out := make([]Span, 0, total)
	for _, r := range results {
		out = append(out, r...)
	}
	return attachLogs(out, slices.Concat(logs...)), nil
}

var unmarshal = protojson.UnmarshalOptions{DiscardUnknown: true}

// decodeBatch decodes one ResourceSpans. It works on a copy, which
// hexToBase64 rewrites for protojson. A record protojson refuses that is
// loose OTLP (attributes as plain objects, kinds by bare name) is read as
// such (decodeLooseBatch).
func decodeBatch(data []byte, b batch) ([]Span, error) {
	rec := make([]byte, b.end-b.start)
	copy(rec, data[b.start:b.end])
	if err := hexToBase64(data, rec, b.start); err != nil {
		return nil, err
	}
	renameLegacy(rec)
	numberBareEnums(rec)
	var rs tracepb.ResourceSpans
	if err := unmarshal.Unmarshal(rec, &rs); err != nil {
		if out, ok, lerr := decodeLooseBatch(data, b); ok {
			return out, lerr
		}
		return nil, protoError(data, b.start, err)
	}
	return fromResourceSpans(&rs, b.line)
}

// legacyKeys are OTLP's names from before 0.15 (OpenTelemetry's older
// SDKs and collectors still write them) and what they became.
var legacyKeys = map[string]string{"instrumentationLibrarySpans": "scopeSpans", "instrumentationLibrary": "scope"}

// renameLegacy renames the legacy keys of a ResourceSpans record in place,
// padding with spaces before the colon so that no byte offset moves and
// protojson's positions stay the user's.
func renameLegacy(rec []byte) {
	rename := func(key []byte) {
		if to, ok := legacyKeys[string(key)]; ok {
			quoted := key[:len(key)+1] // the key and its closing quote
			n := copy(quoted, to+`"`)
			for i := n; i < len(quoted); i++ {
				quoted[i] = ' '
			}
		}
	}
	_ = eachMember(rec, 0, func(key []byte, s, _ int) bool {
		if string(key) == "instrumentationLibrarySpans" && rec[s] == '[' {
			_ = eachElement(rec, s, func(es, _ int) error {
				return eachMember(rec, es, func(k []byte, _, _ int) bool {
					rename(k)
					return true
				})
			})
		}
		rename(key)
		return true
	})
}

// bareKinds and bareCodes are the names without their prefix ("CLIENT",
// "ERROR"), in any case, that some exporters write for OTLP's span kinds
// and status codes, as the digits of their numbers. protojson knows only
// the prefixed names, and drops any other name silently (DiscardUnknown):
// a failed span would read as unset.
var (
	bareKinds = map[string]byte{"unspecified": '0', "internal": '1', "server": '2', "client": '3', "producer": '4', "consumer": '5'}
	bareCodes = map[string]byte{"unset": '0', "ok": '1', "error": '2'}
)

// numberBareEnums writes, in place, each span's kind and status code
// given by a bare name as its number, padded with spaces so that no byte
// offset moves.
func numberBareEnums(rec []byte) {
	number := func(s, e int, names map[string]byte) {
		if e-s < 3 || rec[s] != '"' {
			return
		}
		if d, ok := names[strings.ToLower(string(rec[s+1:e-1]))]; ok {
			rec[s] = d
			for i := s + 1; i < e; i++ {
				rec[i] = ' '
			}
		}
	}
	span := func(k []byte, s, e int) bool {
		switch string(k) {
		case "kind":
			number(s, e, bareKinds)
		case "status":
			_ = eachMember(rec, s, func(k []byte, s, e int) bool {
				if string(k) == "code" {
					number(s, e, bareCodes)
				}
				return true
			})
		}
		return true
	}
	_ = eachMember(rec, 0, func(key []byte, s, _ int) bool {
		if k := string(key); k != "scopeSpans" && k != "scope_spans" {
			return true
		}
		_ = eachElement(rec, s, func(ss, _ int) error {
			return eachMember(rec, ss, func(k []byte, s, _ int) bool {
				if string(k) == "spans" {
					_ = eachElement(rec, s, func(sp, _ int) error { return eachMember(rec, sp, span) })
				}
				return true
			})
		})
		return true
	})
}

// protoPosRe finds the position protojson puts in its errors; the prefix
// is "proto:" and a space that protojson randomly makes non-breaking.
var (
	protoPosRe    = regexp.MustCompile(`\s*\(line (\d+):(\d+)\)`)
	protoPrefixRe = regexp.MustCompile(`^proto:[\s\x{00a0}]+`)
)

// protoError rewrites a protojson error, whose positions count from the
// start of the record it was given, with the position in the file.
func protoError(data []byte, start int, err error) error {
	msg := protoPrefixRe.ReplaceAllString(err.Error(), "")
	m := protoPosRe.FindStringSubmatch(msg)
	if m == nil {
		line, col := Position(data, start)
		return fmt.Errorf("invalid OTLP/JSON in the record at line %d, column %d: %s", line, col, msg)
	}
	msg = strings.TrimLeft(protoPosRe.ReplaceAllString(msg, ""), " :")
	rl, _ := strconv.Atoi(m[1])
	rc, _ := strconv.Atoi(m[2])
	line, col := Position(data, start)
	if rl > 1 {
		line, col = line+rl-1, rc
	} else {
		col += rc - 1
	}
	if strings.Contains(msg, "unexpected EOF") || strings.Contains(msg, "unexpected end") {
		msg += " (is the file truncated?)"
	}
	return fmt.Errorf("invalid OTLP/JSON at line %d, column %d: %s", line, col, msg)
}

var kindNames = map[tracepb.Span_SpanKind]string{
	tracepb.Span_SPAN_KIND_INTERNAL: "internal",
	tracepb.Span_SPAN_KIND_SERVER:   "server",
	tracepb.Span_SPAN_KIND_CLIENT:   "client",
	tracepb.Span_SPAN_KIND_PRODUCER: "producer",
	tracepb.Span_SPAN_KIND_CONSUMER: "consumer",
}

func fromResourceSpans(rs *tracepb.ResourceSpans, line int) ([]Span, error) {
	res := attrsOf(rs.GetResource().GetAttributes())
	var out []Span
	for _, ss := range rs.GetScopeSpans() {
		for _, s := range ss.GetSpans() {
			if len(s.GetTraceId()) != 16 || len(s.GetSpanId()) != 8 {
				return nil, fmt.Errorf("span %s in the record at line %d: want a trace id of 16 bytes and a span id of 8, have %d and %d",
					QuoteForError(s.GetName()), line, len(s.GetTraceId()), len(s.GetSpanId()))
			}
			if p := s.GetParentSpanId(); len(p) != 0 && len(p) != 8 {
				return nil, fmt.Errorf("span %s in the record at line %d: parent span id of %d bytes, want 8", QuoteForError(s.GetName()), line, len(p))
			}
			sp := Span{
				TraceID:  hexID(s.GetTraceId()),
				SpanID:   hexID(s.GetSpanId()),
				ParentID: hexID(s.GetParentSpanId()),
				Name:     s.GetName(),
				Kind:     kindNames[s.GetKind()],
				Start:    clampNanos(s.GetStartTimeUnixNano()),
				End:      clampNanos(s.GetEndTimeUnixNano()),
				Attrs:    attrsOf(s.GetAttributes()),
				Resource: res,
				Line:     line,
			}
			switch s.GetStatus().GetCode() {
			case tracepb.Status_STATUS_CODE_OK:
				sp.Status.Code = StatusOK
			case tracepb.Status_STATUS_CODE_ERROR:
				sp.Status.Code = StatusError
			}
			sp.Status.Message = s.GetStatus().GetMessage()
			for _, e := range s.GetEvents() {
				sp.Events = append(sp.Events, Event{Name: e.GetName(), Time: clampNanos(e.GetTimeUnixNano()), Attrs: attrsOf(e.GetAttributes())})
			}
			out = append(out, sp)
		}
	}
	return out, nil
}

// clampNanos keeps a time that does not fit int64 (no real one) from
// turning negative.
func clampNanos(t uint64) int64 {
	if t > 1<<63-1 {
		return 1<<63 - 1
	}
	return int64(t)
}

func attrsOf(kvs []*commonpb.KeyValue) Attrs {
	if len(kvs) == 0 {
		return nil
	}
	out := make(Attrs, len(kvs))
	for i, kv := range kvs {
		out[i] = Attr{Key: kv.GetKey(), Value: valueOf(kv.GetValue())}
	}
	return out
}

func valueOf(v *commonpb.AnyValue) Value {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return String(x.StringValue)
	case *commonpb.AnyValue_BoolValue:
		return Value{Kind: KindBool, Bool: x.BoolValue}
	case *commonpb.AnyValue_IntValue:
		return Value{Kind: KindInt, Int: x.IntValue}
	case *commonpb.AnyValue_DoubleValue:
		return Value{Kind: KindFloat, Float: x.DoubleValue}
	case *commonpb.AnyValue_BytesValue:
		return Value{Kind: KindBytes, Str: string(x.BytesValue)}
	case *commonpb.AnyValue_ArrayValue:
		l := make([]Value, len(x.ArrayValue.GetValues()))
		for i, e := range x.ArrayValue.GetValues() {
			l[i] = valueOf(e)
		}
		return Value{Kind: KindList, List: l}
	case *commonpb.AnyValue_KvlistValue:
		return Value{Kind: KindMap, Map: attrsOf(x.KvlistValue.GetValues())}
	default:
		return Value{}
	}
}

// lineCounter answers "which line is offset on" for increasing offsets in
// time linear in the file, where Position would rescan from the start.
type lineCounter struct {
	data       []byte
	off, lines int
}

func newLineCounter(data []byte) *lineCounter { return &lineCounter{data: data, lines: 1} }

func (lc *lineCounter) at(offset int) int {
	if offset < lc.off {
		line, _ := Position(lc.data, offset)
		return line
	}
	lc.lines += bytes.Count(lc.data[lc.off:offset], []byte("\n"))
	lc.off = offset
	return lc.lines
}
