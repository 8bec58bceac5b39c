package spans

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Flat span lists, as Phoenix, Arize and the OpenInference exporters dump
// them: one span object a line, an array of them, or {"spans": […]}; and
// MLflow's traces, {"info": …, "data": {"spans": […]}}; and HoneyHive's
// events, as its export lists them ({"events": […]}): an event is a span,
// {"event_id", "session_id", "parent_id", "event_type", "event_name",
// "inputs", "outputs", "config", "start_time", "end_time"…}, its session
// the trace; and Lunary's runs as its REST API lists them ({"data":
// [run…]}: {"id", "traceId", "parentRunId", "type", "name", "createdAt",
// "endedAt", "input", "output", "status", "error": {"message",
// "stack"}}), their type the OpenInference kind. A
// span is {"name", "context": {"trace_id", "span_id"}, "parent_id",
// "span_kind", "start_time", "end_time", "status_code", "status_message",
// "attributes", "events"}; the shapes vary between tools (camelCase ids,
// dataframe columns such as "context.span_id" and "attributes.llm.…",
// nested or dotted attribute keys), so every spelling seen in the wild is
// read. Nested attribute objects become dotted keys; lists stay lists.
//
// The OpenAI Agents SDK's own export (what its tracing processors are
// given, in either language, and what its exporter posts as {"data": […]})
// is such a list too: a span is {"object": "trace.span", "id",
// "trace_id", "parent_id", "started_at", "ended_at", "span_data": {"type",
// …}, "error": {"message", "data"}}. Its span_data becomes span_data.*
// attributes, its error the span's status; the records of its traces
// themselves ({"object": "trace", "id", "workflow_name"}) hold no span and
// are passed over.

// Keys tried, in order, for each field of a flat span (after the object is
// flattened to dotted keys, outside "attributes" and "events").
var (
	flatTraceKeys  = []string{"context.trace_id", "context.traceId", "trace_id", "traceId", "traceID", "context.traceID", "root_span_id", "session_id"}
	flatSpanKeys   = []string{"context.span_id", "context.spanId", "span_id", "spanId", "spanID", "context.spanID", "id", "event_id"}
	flatParentKeys = []string{"parent_id", "parentId", "parent_span_id", "parentSpanId", "parentSpanID", "context.parent_id", "parent.span_id", "parent.spanId", "parentSpanContext.spanId", "span_parents", "parentRunId"}
	flatStartKeys  = []string{"start_time", "startTime", "start_time_unix_nano", "startTimeUnixNano", "start_timestamp", "metrics.start", "timestamp", "started_at", "startedAt", "createdAt", "timestamps.started_at"}
	flatEndKeys    = []string{"end_time", "endTime", "end_time_unix_nano", "endTimeUnixNano", "end_timestamp", "metrics.end", "ended_at", "endedAt", "timestamps.finished_at"}
	flatKindKeys   = []string{"span_kind", "spanKind", "kind", "type"}
	flatStatusKeys = []string{"status_code", "statusCode", "status.status_code", "status.code", "status", "otel_status_code"}
	flatStatusMsg  = []string{"status_message", "statusMessage", "status.message", "status.description", "otel_status_message"}
	flatNameKeys   = []string{"name", "span_name", "operationName", "event_name"}
	// Where a span's attributes, events, resource and children sit: the
	// OpenInference names, those of dumps that prefix them (TRAIL's
	// span_attributes, strands' span_events), Zipkin's (tags,
	// annotations) and Logfire's records (otel_events).
	flatAttrKeys     = []string{"attributes", "span_attributes", "tags"}
	flatEventKeys    = []string{"events", "span_events", "annotations", "otel_events"}
	flatResourceKeys = []string{"resource", "resource_attributes"}
	flatChildKeys    = []string{"child_spans", "children_logs", "children"}
	// A call's input and output as top-level members, and the metadata
	// a program logged beside them (Braintrust's); and what a Mastra span
	// record (as its storage keeps it and its API lists it) says it is,
	// its spanType, and the entity it ran, its entityType and entityName.
	flatValueKeys = []string{"input", "output", "inputs", "outputs", "op_name", "metadata", "spanType", "entityType", "entityName"}
)

// callValue returns what a call record's input or output wraps: Opik's
// JavaScript SDK records a tracked function's arguments as {"arguments":
// […]} and its return value as {"result": …}, Weave's its one argument as
// {"arg0": …}. One argument is that argument; any other value is kept as
// it is, but for the object a Weave method ran on.
func callValue(key string, v any) any {
	if tv, ok := typedValue(v); ok {
		return tv
	}
	m, ok := v.(map[string]any)
	if ref, isRef := m["self"].(string); ok && key == "inputs" && isRef && strings.HasPrefix(ref, "weave:///") {
		// Weave records a method's object as its first input, a ref to
		// the object (weave:///ENTITY/PROJECT/object/NAME:DIGEST): who
		// ran, not what it was given.
		args := make(map[string]any, len(m)-1)
		for k, a := range m {
			if k != "self" {
				args[k] = a
			}
		}
		m, v = args, args
	}
	if !ok || len(m) != 1 {
		return v
	}
	switch key {
	case "input":
		if args, ok := m["arguments"].([]any); ok && len(args) == 1 {
			return args[0]
		}
	case "inputs":
		// Weave's JavaScript SDK names a function's arguments by their
		// position: one is arg0.
		if arg, ok := m["arg0"]; ok {
			return arg
		}
	case "output":
		if r, ok := m["result"]; ok {
			return r
		}
	}
	return v
}

// typedValueTypes are the types of LangWatch's typed values, {"type",
// "value"}, as its SDKs write a span's input and output and its API
// returns them.
var typedValueTypes = map[string]bool{"text": true, "raw": true, "chat_messages": true, "json": true, "list": true, "guardrail_result": true, "evaluation_result": true}

// typedValue returns the value a typed value wraps (a list's, each of its
// elements unwrapped), and whether v is one.
func typedValue(v any) (any, bool) {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 2 {
		return nil, false
	}
	t, _ := m["type"].(string)
	inner, has := m["value"]
	if !has || !typedValueTypes[t] {
		return nil, false
	}
	if l, ok := inner.([]any); ok && t == "list" {
		out := make([]any, len(l))
		for i, e := range l {
			out[i] = e
			if u, ok := typedValue(e); ok {
				out[i] = u
			}
		}
		return out, true
	}
	return inner, true
}

// logfireRecordKinds are the kinds of Logfire's records (its records
// table's kind column, as its query API and its exports list them): a
// span, a log, or what it writes while a span is open.
var logfireRecordKinds = map[string]bool{"span": true, "log": true, "pending_span": true, "span_event": true}

// flatFields are the members flatSpan reads itself rather than as dotted
// top-level keys.
var flatFields = func() map[string]bool {
	m := map[string]bool{"duration": true, "timeEvents": true}
	for _, ks := range [][]string{flatAttrKeys, flatEventKeys, flatResourceKeys, flatChildKeys} {
		for _, k := range ks {
			m[k] = true
		}
	}
	return m
}()

func decodeFlat(ctx context.Context, data []byte) ([]Span, error) {
	lines := newLineCounter(data)
	var out []Span
	events := map[string][]Event{}
	var newRelic []newRelicRow
	err := eachObject(ctx, data, "a span", spanList, func(m map[string]any, s int) error {
		if rows := newRelicRows(m, lines.at(s)); len(rows) > 0 {
			newRelic = append(newRelic, rows...)
			return nil
		}
		if m["object"] == "trace" {
			return nil // the OpenAI Agents SDK's record of a trace, not a span
		}
		if rec, ok := elasticOTel(m); ok {
			if rec == nil {
				return nil
			}
			return flatTree(ctx, rec, "", lines.at(s), &out)
		}
		if doc, ok := elasticDoc(m); ok {
			if rec, ok := elasticSpan(doc); ok {
				n := len(out)
				err := flatTree(ctx, rec, "", lines.at(s), &out)
				for i := n; i < len(out); i++ {
					out[i].Undotted = true // its labels' names
				}
				return err
			}
			if span, ev, ok := elasticError(doc); ok {
				events[span] = append(events[span], ev)
			}
			return nil // a metric's document, or an error that names no span
		}
		if isSigNozTable(m) {
			for _, row := range sigNozRows(m) {
				if err := flatTree(ctx, row, "", lines.at(s), &out); err != nil {
					return err
				}
			}
			return nil
		}
		if isAgentaTree(m) {
			return agentaSpans(ctx, m, lines.at(s), &out)
		}
		if isHoneycombEvent(m) {
			switch honeycombAnnotation(m) {
			case "span_event":
				span, ev := honeycombSpanEvent(m)
				events[span] = append(events[span], ev)
				return nil
			case "link":
				return nil
			}
		}
		return flatTree(ctx, m, "", lines.at(s), &out)
	})
	if err != nil {
		return nil, err
	}
	for _, rec := range newRelicSpans(newRelic) {
		if err := flatTree(ctx, rec.m, "", rec.line, &out); err != nil {
			return nil, err
		}
	}
	for i := range out {
		if evs, ok := events[out[i].SpanID]; ok {
			out[i].Events = append(out[i].Events, evs...)
			delete(events, out[i].SpanID) // a span's events once, however often its id is written
		}
	}
	return out, nil
}

// eachObject calls one with every object of data's records, decoded, and
// where it starts: the elements of a top-level array or of the list that
// list finds in a record, else the record itself. what names an object
// in errors ("a span").
func eachObject(ctx context.Context, data []byte, what string, list func([]byte, int) (int, bool), one func(m map[string]any, start int) error) error {
	recs, err := records(data)
	if err != nil {
		return err
	}
	decode := func(s, e int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if data[s] != '{' {
			line, col := Position(data, s)
			return fmt.Errorf("line %d, column %d: %s is a JSON object", line, col, what)
		}
		var m map[string]any
		if err := decodeJSON(data, s, e, &m); err != nil {
			return err
		}
		return one(m, s)
	}
	for _, r := range recs {
		switch {
		case data[r.start] == '[':
			err = eachElement(data, r.start, decode)
		case data[r.start] == '{':
			if s, ok := list(data, r.start); ok && data[s] == '{' {
				err = eachValue(data, s, decode) // objects keyed by their ids
			} else if ok {
				err = eachElement(data, s, decode)
			} else {
				err = decode(r.start, r.end)
			}
		default:
			err = decode(r.start, r.end)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// spanList finds the list of spans in the object at i: {"spans": […]},
// {"data": […]}, or MLflow's trace, {"info": …, "data": {"spans": […]}};
// or the object that holds them by their ids, as Genkit's trace data
// does, {"traceId", "spans": {"SPANID": span…}}.
func spanList(data []byte, i int) (int, bool) {
	if s, _, ok := member(data, i, "spans"); ok && (data[s] == '[' || data[s] == '{') {
		return s, true
	}
	if s, ok := eventsOfSpans(data, i); ok {
		return s, true
	}
	if s, ok := pageOfSpans(data, i); ok {
		return s, true
	}
	if s, ok := listOfSpans(data, i, "results"); ok { // Keywords AI's logs, as its API lists them
		return s, true
	}
	if s, ok := listOfSpans(data, i, "trees"); ok { // Agenta's traces
		return s, true
	}
	if s, ok := newRelicResults(data, i); ok {
		return s, true
	}
	if s, ok := elasticHits(data, i); ok {
		return s, true
	}
	s, _, ok := member(data, i, "data")
	switch {
	case !ok:
		return 0, false
	case data[s] == '[':
		return s, true
	case data[s] == '{':
		if sp, _, ok := member(data, s, "spans"); ok && data[sp] == '[' {
			return sp, true
		}
	}
	return 0, false
}

// pageOfSpans returns where the list of a page's "content" starts when
// its elements are spans, as Opik's REST API pages them ({"page", "size",
// "total", "content": [span…]}).
func pageOfSpans(data []byte, i int) (int, bool) { return listOfSpans(data, i, "content") }

// eventsOfSpans returns where the list of a record's "events" starts
// when they are spans, as Braintrust's fetch API lists them ({"events":
// [span…]}): a span's own events have no span id.
func eventsOfSpans(data []byte, i int) (int, bool) { return listOfSpans(data, i, "events") }

// listOfSpans returns where the list under key starts in the object at
// i, and whether its first element is a span.
func listOfSpans(data []byte, i int, key string) (int, bool) {
	s, _, ok := member(data, i, key)
	if !ok || data[s] != '[' {
		return 0, false
	}
	spans := false
	_ = eachElement(data, s, func(es, _ int) error {
		spans = detectElement(data, es) == OpenInference
		return errStop
	})
	return s, spans
}

// flatID reads an id: as written when it is text, in hex of the given
// width when it is a number (OpenTelemetry's Python SDK keeps ids as
// integers, and some dumps write them so), as hex is how every other tool
// shows them.
func flatID(v any, digits int) string {
	n, ok := v.(json.Number)
	if !ok {
		if v == nil {
			return ""
		}
		id := strings.TrimSpace(FromAny(v).Text())
		if h, ok := strings.CutPrefix(id, "0x"); ok && len(h) == digits {
			return strings.ToLower(h) // OpenTelemetry Python's ConsoleSpanExporter
		}
		return id
	}
	i, ok := new(big.Int).SetString(n.String(), 10)
	if !ok || i.Sign() < 0 {
		return n.String()
	}
	return fmt.Sprintf("%0*x", digits, i)
}

// flatTree appends the span m and the spans nested in it (span trees
// such as TRAIL's, where each span holds its children in "child_spans"),
// a child's parent being its holder unless it names one. The walk keeps
// its own stack: a file may nest as deep as it likes.
func flatTree(ctx context.Context, m map[string]any, parent string, line int, out *[]Span) error {
	type item struct {
		m      map[string]any
		parent string
	}
	stack := []item{{m, parent}}
	for len(stack) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		sp, err := flatSpan(it.m, line)
		if err != nil {
			return err
		}
		if sp.ParentID == "" {
			sp.ParentID = it.parent
		}
		*out = append(*out, sp)
		kids, _ := first(it.m, flatChildKeys).([]any)
		for i := len(kids) - 1; i >= 0; i-- {
			if km, ok := kids[i].(map[string]any); ok {
				if firstText(km, flatTraceKeys) == "" {
					km["trace_id"] = sp.TraceID
				}
				stack = append(stack, item{km, sp.SpanID})
			}
		}
	}
	return nil
}

func flatSpan(m map[string]any, line int) (Span, error) {
	if m == nil {
		return Span{}, fmt.Errorf("line %d: a span is a JSON object, not null", line)
	}
	if isGoSpanStub(m) {
		m = goSpanStub(m)
	}
	if isCloudTraceSpan(m) {
		m = cloudTraceSpan(m)
	}
	if isHoneycombEvent(m) {
		m = honeycombEvent(m)
	}
	if isAppInsightsRow(m) {
		m = appInsightsRow(m)
	}
	if isKeywordsLog(m) {
		m = keywordsLog(m)
	}
	if isPareaLog(m) {
		m = pareaLog(m)
	}
	top := map[string]any{}
	var attrs Attrs
	for k, v := range m {
		switch {
		case k == "attributes" || k == "span_attributes":
			flatten("", pythonDict(v), &attrs)
		case k == "tags":
			// Zipkin's attributes; a list of tags (labels some tools keep)
			// stays with the span's other members.
			if t, ok := v.(map[string]any); ok {
				flatten("", t, &attrs)
			} else {
				flattenInto(k, v, top)
			}
		case strings.HasPrefix(k, "attributes."):
			flatten(strings.TrimPrefix(k, "attributes."), v, &attrs)
		case k == "span_data":
			flatten(k, v, &attrs)
		case flatFields[k]:
		default:
			flattenInto(k, pythonDict(v), top)
		}
	}
	// Tracing tools that record a call rather than a span (Opik, Weave)
	// keep what it was given and returned beside its ids, and Weave the
	// function it ran: they are its attributes, under their own names.
	for _, k := range flatValueKeys {
		if v, ok := m[k]; ok && v != nil {
			if _, set := attrs.Get(k); !set {
				attrs = append(attrs, Attr{Key: k, Value: FromAny(callValue(k, pythonDict(v)))})
			}
		}
	}
	sortAttrs(attrs)
	parent := first(top, flatParentKeys)
	if ps, ok := parent.([]any); ok { // Braintrust's span_parents
		parent = nil
		if len(ps) > 0 {
			parent = ps[0]
		}
	}
	sp := Span{
		TraceID:  flatID(first(top, flatTraceKeys), 32),
		SpanID:   flatID(first(top, flatSpanKeys), 16),
		ParentID: flatID(parent, 16),
		Name:     firstText(top, flatNameKeys),
		Attrs:    attrs,
		Line:     line,
	}
	if sp.Name == "" {
		// Weave names a call by its display name, else by its op, a ref
		// "weave:///ENTITY/PROJECT/op/NAME:DIGEST".
		sp.Name = firstText(top, []string{"display_name", "displayName"}) // Genkit's displayName
		if sp.Name == "" {
			sp.Name = opRefName(firstText(top, []string{"op_name"}))
		}
	}
	if sp.Name == "" {
		// The OpenAI Agents SDK names some spans (agents, tools) in their
		// data, and says what the others are.
		sp.Name = strings.TrimSpace(attrs.Str("span_data.name"))
		if sp.Name == "" {
			sp.Name = strings.TrimSpace(attrs.Str("span_data.type"))
		}
	}
	kind := firstText(top, flatKindKeys)
	if t, ok := m["event_type"].(string); ok && m["event_id"] != nil && m["session_id"] != nil {
		// A HoneyHive event's type is what its tracer writes as
		// honeyhive_event_type (model, tool, chain, session), no span kind.
		sp.Attrs = append(sp.Attrs, Attr{Key: "honeyhive_event_type", Value: String(t)})
		kind = ""
	}
	// Braintrust keeps a span's name and type in its span_attributes.
	if sa, ok := pythonDict(m["span_attributes"]).(map[string]any); ok {
		if sp.Name == "" {
			sp.Name = firstText(sa, []string{"name"})
		}
		if kind == "" {
			kind = firstText(sa, []string{"type"})
		}
	}
	if sp.TraceID == "" || sp.SpanID == "" {
		// Its keys say what it is when it is some other record, or a
		// span that keeps its ids in a way no exporter here writes
		// (Jaeger's Thrift halves, traceIdLow and traceIdHigh).
		// Quoted: a key is the file's text, and may hold anything.
		keys := sortedKeys(m)
		for i, k := range keys {
			keys[i] = QuoteForError(k)
		}
		if len(keys) > 12 {
			keys = append(keys[:12], "…")
		}
		return Span{}, fmt.Errorf("span %s at line %d has no trace id or span id (looked for context.trace_id and context.span_id, trace_id and span_id, traceId and spanId; its keys: %s)", QuoteForError(sp.Name), line, strings.Join(keys, ", "))
	}
	var err error
	if sp.Start, err = flatTime(first(top, flatStartKeys)); err != nil {
		return Span{}, fmt.Errorf("span %s at line %d: start time %w", QuoteForError(sp.Name), line, err)
	}
	if sp.End, err = flatTime(first(top, flatEndKeys)); err != nil {
		return Span{}, fmt.Errorf("span %s at line %d: end time %w", QuoteForError(sp.Name), line, err)
	}
	if d, ok := m["duration"]; ok && sp.End == 0 && sp.Start != 0 {
		if sp.End, err = flatDuration(d); err != nil {
			return Span{}, fmt.Errorf("span %s at line %d: duration %w", QuoteForError(sp.Name), line, err)
		}
		sp.End += sp.Start
	}
	if k, ok := top["kind"].(string); ok && k == kind && logfireRecordKinds[k] {
		kind = "" // what a Logfire record is, no span kind
	}
	kind = strings.TrimPrefix(kind, "SpanKind.") // Python's enum, as its console exporter writes it
	switch k := strings.ToLower(strings.TrimPrefix(strings.ToUpper(kind), "SPAN_KIND_")); k {
	case "internal", "server", "client", "producer", "consumer":
		sp.Kind = k
	case "", "unspecified":
	default:
		if _, err := strconv.Atoi(k); err == nil {
			// An enum's number (OpenTelemetry JS's SpanKind, Zipkin's
			// proto3 Kind), whose meaning is the writer's: no
			// OpenInference kind, which is a word.
			break
		}
		// Phoenix writes the OpenInference kind (LLM, TOOL…) here.
		if _, ok := sp.Attrs.Get("openinference.span.kind"); !ok {
			sp.Attrs = append(sp.Attrs, Attr{Key: "openinference.span.kind", Value: String(strings.ToUpper(kind))})
		}
	}
	switch code := strings.ToUpper(strings.TrimPrefix(strings.ToUpper(firstText(top, flatStatusKeys)), "STATUS_CODE_")); code {
	case "ERROR", "2":
		sp.Status.Code = StatusError
	case "OK", "1":
		sp.Status.Code = StatusOK
	}
	sp.Status.Message = firstText(top, flatStatusMsg)
	if sp.Status.Code == StatusError && sp.Status.Message == "" {
		// A status that only says error, its message in the error
		// object beside it (Lunary's runs: "status": "error", "error":
		// {"message", "stack"}).
		sp.Status.Message = errorStatus(m["error"]).Message
	}
	if sp.Status.Code == StatusUnset {
		sp.Status = tagStatus(sp.Attrs)
	}
	if sp.Status.Code == StatusUnset {
		sp.Status = errorStatus(m["error"])
	}
	if sp.Status.Code == StatusUnset {
		sp.Status = errorStatus(m["error_info"]) // Opik's {"message", "exception_type", "traceback"}
	}
	if sp.Status.Code == StatusUnset {
		sp.Status = errorStatus(m["exception"]) // Weave's
	}
	if evs, ok := pythonDict(first(m, flatEventKeys)).([]any); ok {
		for _, e := range evs {
			if em, ok := e.(map[string]any); ok {
				sp.Events = append(sp.Events, flatEvent(em))
			}
		}
	}
	if isGenkitSpan(m) {
		genkitSpan(m, &sp)
	}
	switch res := pythonDict(first(m, flatResourceKeys)).(type) {
	case map[string]any:
		if a, ok := res["attributes"]; ok {
			flatten("", a, &sp.Resource)
		} else {
			flatten("", res, &sp.Resource) // resource_attributes: the attributes themselves
		}
		sortAttrs(sp.Resource)
	default:
		// Zipkin names the service in the span's local endpoint.
		if name := firstText(top, []string{"localEndpoint.serviceName"}); name != "" {
			sp.Resource = Attrs{{Key: "service.name", Value: String(name)}}
		}
	}
	return sp, nil
}

// tagStatus reads a span's status from its attributes, as OpenTelemetry's
// Zipkin exporter writes it: otel.status_code and
// otel.status_description, or an error tag holding the error's message.
func tagStatus(as Attrs) Status {
	switch code, _ := as.Get("otel.status_code"); strings.ToUpper(code.Text()) {
	case "ERROR":
		desc, _ := as.Get("otel.status_description")
		return Status{Code: StatusError, Message: desc.Text()}
	case "OK":
		return Status{Code: StatusOK}
	}
	if e, ok := as.Get("error"); ok && e.Kind == KindString {
		if msg := strings.TrimSpace(e.Str); msg != "" && !strings.EqualFold(msg, "false") {
			if strings.EqualFold(msg, "true") {
				msg = ""
			}
			return Status{Code: StatusError, Message: msg}
		}
	}
	return Status{}
}

// errorStatus reads a span's error written beside it: as an object, as
// the OpenAI Agents SDK writes one, {"message", "data": {"error"}}, the
// message followed by what the data's error adds; or as its message
// (Braintrust). Anything else is no error.
func errorStatus(v any) Status {
	if msg, ok := v.(string); ok {
		if msg = strings.TrimSpace(msg); msg == "" || strings.EqualFold(msg, "false") || msg == "null" {
			return Status{}
		}
		return Status{Code: StatusError, Message: msg}
	}
	e, ok := v.(map[string]any)
	if !ok {
		return Status{}
	}
	msg := strings.TrimSpace(FromAny(e["message"]).Text())
	if data, ok := e["data"].(map[string]any); ok {
		if detail, ok := data["error"].(string); ok && strings.TrimSpace(detail) != "" && !strings.Contains(msg, strings.TrimSpace(detail)) {
			msg = strings.TrimPrefix(msg+": "+strings.TrimSpace(detail), ": ")
		}
	}
	if msg == "" {
		return Status{}
	}
	return Status{Code: StatusError, Message: msg}
}

// flatEvent reads an event, whatever the case of its keys ("Name",
// "Attributes" in some dumps). What an event carries beside its
// attributes (ADOT's "body", holding the input and output messages) is
// kept as attributes under its own key.
func flatEvent(em map[string]any) Event {
	lower := make(map[string]any, len(em))
	for k, v := range em {
		lower[strings.ToLower(k)] = v
	}
	ev := Event{Name: firstText(lower, []string{"name", "event_name"})}
	ev.Time, _ = flatTime(first(lower, []string{"timestamp", "time", "time_unix_nano", "timeunixnano"}))
	flatten("", pythonDict(lower["attributes"]), &ev.Attrs)
	if ev.Name == "" {
		var attrs any
		ev.Name, attrs = annotation(firstText(lower, []string{"value"}))
		flatten("", attrs, &ev.Attrs)
	}
	if b, ok := lower["body"]; ok {
		flatten("body", b, &ev.Attrs)
	}
	sortAttrs(ev.Attrs)
	return ev
}

// annotation reads a Zipkin annotation's value as an event's name and
// attributes, in the shapes OpenTelemetry's Zipkin exporters write: the
// name alone, {"NAME": {attributes}}, or "NAME: {attributes}".
func annotation(value string) (name string, attrs any) {
	t := strings.TrimSpace(value)
	if m, ok := pythonDict(t).(map[string]any); ok && len(m) == 1 {
		for k, v := range m {
			return k, v
		}
	}
	if n, rest, ok := strings.Cut(t, ": {"); ok {
		if m, ok := pythonDict("{" + rest).(map[string]any); ok {
			return n, m
		}
	}
	return value, nil
}

// pythonDict reads a value some dumps write as the text of a Python dict
// or list ("{'code': 'OK'}", str() of the object rather than JSON): JSON
// first, then with Python's quoting and literals translated. Any other
// value is returned as it is.
func pythonDict(v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	t := strings.TrimSpace(s)
	if len(t) < 2 || !(t[0] == '{' && t[len(t)-1] == '}' || t[0] == '[' && t[len(t)-1] == ']') {
		return v
	}
	if x, ok := decodeLoose(t); ok {
		return x
	}
	if x, ok := decodeLoose(pythonToJSON(t)); ok {
		return x
	}
	return v
}

// decodeLoose decodes t when it is one JSON value and nothing more.
func decodeLoose(t string) (any, bool) {
	x, more, err := decodeText(t)
	if err != nil || more {
		return nil, false
	}
	return x, true
}

// decodeText decodes the JSON value t begins with, its numbers kept as
// written (json.Number); more reports whether anything but space follows
// it.
func decodeText(t string) (x any, more bool, err error) {
	dec := json.NewDecoder(strings.NewReader(t))
	dec.UseNumber()
	if err := dec.Decode(&x); err != nil {
		return nil, false, err
	}
	return x, dec.More(), nil
}

// pythonToJSON rewrites a Python literal of dicts, lists, strings,
// numbers, True, False and None as JSON. Its result may still not be
// JSON (a tuple, an object's repr); the caller checks.
func pythonToJSON(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			quote := c
			b.WriteByte('"')
			for i++; i < len(s) && s[i] != quote; i++ {
				switch {
				case s[i] == '\\' && i+1 < len(s):
					if s[i+1] == '\'' {
						b.WriteByte('\'')
					} else {
						b.WriteByte('\\')
						b.WriteByte(s[i+1])
					}
					i++
				case s[i] == '"':
					b.WriteString(`\"`)
				case s[i] == '\n':
					b.WriteString(`\n`)
				default:
					b.WriteByte(s[i])
				}
			}
			b.WriteByte('"')
		case strings.HasPrefix(s[i:], "True"):
			b.WriteString("true")
			i += 3
		case strings.HasPrefix(s[i:], "False"):
			b.WriteString("false")
			i += 4
		case strings.HasPrefix(s[i:], "None"):
			b.WriteString("null")
			i += 3
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// flatDuration reads a span's duration: ISO 8601 ("PT1M48.75533S"), Go's
// ("1.5s"), [seconds, nanoseconds], or a number of microseconds.
func flatDuration(v any) (int64, error) {
	switch t := v.(type) {
	case json.Number:
		// A number is microseconds, as Zipkin, Jaeger and OpenTelemetry
		// JS's console exporter write it.
		f, err := t.Float64()
		if err != nil {
			return 0, fmt.Errorf("%s is not a duration", QuoteForError(t.String()))
		}
		return int64(f * 1e3), nil
	case []any:
		return flatTime(t) // [seconds, nanoseconds]
	case string:
		if d, err := time.ParseDuration(t); err == nil {
			return int64(d), nil
		}
		return isoDuration(t)
	}
	return 0, fmt.Errorf("%s is not a duration", CutForError(fmt.Sprint(v)))
}

// isoDuration reads the time part of an ISO 8601 duration, with days:
// P[nD]T[nH][nM][n.nS].
func isoDuration(s string) (int64, error) {
	bad := fmt.Errorf("%s is not a duration (want ISO 8601, e.g. PT1M2.5S)", QuoteForError(s))
	rest, ok := strings.CutPrefix(s, "P")
	if !ok {
		return 0, bad
	}
	var total float64
	inTime := false
	for rest != "" {
		if rest[0] == 'T' {
			inTime, rest = true, rest[1:]
			continue
		}
		j := 0
		for j < len(rest) && (rest[j] >= '0' && rest[j] <= '9' || rest[j] == '.') {
			j++
		}
		if j == 0 || j == len(rest) {
			return 0, bad
		}
		n, err := strconv.ParseFloat(rest[:j], 64)
		if err != nil {
			return 0, bad
		}
		unit := map[byte]float64{'D': 86400, 'H': 3600, 'M': 60, 'S': 1}[rest[j]]
		if unit == 0 || (rest[j] != 'D' && !inTime) {
			return 0, bad
		}
		total += n * unit
		rest = rest[j+1:]
	}
	return int64(total * 1e9), nil
}

// flatten appends v under key to out, nested objects as dotted keys.
func flatten(key string, v any, out *Attrs) {
	if m, ok := v.(map[string]any); ok {
		for k, e := range m {
			flatten(join(key, k), e, out)
		}
		return
	}
	if key != "" && v != nil {
		*out = append(*out, Attr{Key: key, Value: FromAny(v)})
	}
}

func flattenInto(key string, v any, out map[string]any) {
	if m, ok := v.(map[string]any); ok {
		for k, e := range m {
			flattenInto(join(key, k), e, out)
		}
		return
	}
	out[key] = v
}

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

func sortAttrs(as Attrs) {
	sort.SliceStable(as, func(i, j int) bool { return as[i].Key < as[j].Key })
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func first(m map[string]any, keys []string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil {
			return v
		}
	}
	return nil
}

func firstText(m map[string]any, keys []string) string {
	v := first(m, keys)
	if v == nil {
		return ""
	}
	return strings.TrimSpace(FromAny(v).Text())
}

// timeLayouts are the textual times exporters write: RFC 3339, and the
// space-separated form pandas and SQL dumps use.
var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999"}

// flatTime reads a time as text or as a number of seconds, milliseconds,
// microseconds or nanoseconds since 1970, told apart by magnitude (any
// time after 1973 in one unit is before 1970 or after 2200 in the next).
func flatTime(v any) (int64, error) {
	switch t := v.(type) {
	case nil:
		return 0, nil
	case string:
		if t == "" {
			return 0, nil
		}
		if i, err := strconv.ParseInt(t, 10, 64); err == nil {
			return epochInt(i), nil
		}
		if n, err := strconv.ParseFloat(t, 64); err == nil {
			return epoch(n), nil
		}
		for _, layout := range timeLayouts {
			if tm, err := time.Parse(layout, t); err == nil {
				return tm.UnixNano(), nil
			}
		}
		return 0, fmt.Errorf("%s is not a time (want RFC 3339)", QuoteForError(t))
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return epochInt(i), nil
		}
		f, err := t.Float64()
		if err != nil {
			return 0, fmt.Errorf("%s is not a time", QuoteForError(t.String()))
		}
		return epoch(f), nil
	case []any:
		// OpenTelemetry JS's HrTime: [seconds, nanoseconds].
		if len(t) == 2 {
			sec, ok1 := t[0].(json.Number)
			ns, ok2 := t[1].(json.Number)
			if ok1 && ok2 {
				si, err1 := sec.Int64()
				ni, err2 := ns.Int64()
				if err1 == nil && err2 == nil {
					return si*1e9 + ni, nil
				}
			}
		}
		return 0, fmt.Errorf("%s is not a time (a list is [seconds, nanoseconds])", CutForError(fmt.Sprint(v)))
	default:
		return 0, fmt.Errorf("%s is not a time", CutForError(fmt.Sprint(v)))
	}
}

// epochInt is epoch for integers, exact for nanoseconds, which a float64
// cannot hold.
func epochInt(i int64) int64 {
	switch a := max(i, -i); {
	case a >= 1e17:
		return i
	case a >= 1e14:
		return i * 1e3
	case a >= 1e11:
		return i * 1e6
	default:
		return i * 1e9
	}
}

func epoch(n float64) int64 {
	switch a := math.Abs(n); {
	case a >= 1e17:
		return int64(n)
	case a >= 1e14:
		return int64(n * 1e3)
	case a >= 1e11:
		return int64(n * 1e6)
	default:
		return int64(n * 1e9)
	}
}

// opRefName returns the name of the op a Weave ref names
// ("weave:///ENTITY/PROJECT/op/NAME:DIGEST"), or the text itself when it
// is no such ref (an op's plain name).
func opRefName(ref string) string {
	rest, ok := strings.CutPrefix(ref, "weave:///")
	if !ok {
		return ref
	}
	_, name, ok := strings.Cut(rest, "/op/")
	if !ok {
		return ref
	}
	if i := strings.LastIndexByte(name, ':'); i > 0 {
		name = name[:i]
	}
	return name
}
