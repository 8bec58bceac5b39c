// Package spans decodes the trace files people hold — OTLP/JSON, Tempo and
// Jaeger downloads, flat span lists (Phoenix, OpenInference) and Langfuse
// exports — into one neutral span model. It knows file formats, not what
// the spans mean: reading the GenAI and OpenInference conventions, and
// turning spans into steps, is package run's job.
package spans

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Format names a trace file format.
type Format string

const (
	OTLP          Format = "otlp"          // OTLP/JSON: {"resourceSpans": …}, one object or one per line
	Tempo         Format = "tempo"         // Grafana Tempo's trace download: {"batches": …} or {"trace": {"resourceSpans": …}}
	Jaeger        Format = "jaeger"        // Jaeger UI/API JSON: {"data": [{"traceID", "spans", "processes"}]}
	OpenInference Format = "openinference" // flat span lists as Phoenix, Arize and OpenInference exporters dump them
	Langfuse      Format = "langfuse"      // Langfuse trace exports (a trace with its observations) and its SDKs' ingestion batches
	LangSmith     Format = "langsmith"     // LangSmith runs: {"id", "run_type", "inputs", "outputs", "child_runs"…}
	Calls         Format = "calls"         // logs of model calls: {"request", "response"} a line or listed (LLM gateways, AutoGen's runtime log)
	Sentry        Format = "sentry"        // Sentry's envelopes (transactions, span containers) and transaction events
	Datadog       Format = "datadog"       // Datadog LLM Observability's span events: {"event_type": "span", "spans": […]}
	Lunary        Format = "lunary"        // Lunary's run events: {"events": [{"event", "type", "runId"…}]}
	LiteralAI     Format = "literalai"     // Literal AI's steps: {"id", "parentId", "rootRunId", "type", "startTime"…}
	PostHog       Format = "posthog"       // PostHog's LLM analytics events: {"event": "$ai_span"…, "properties"}
	Maxim         Format = "maxim"         // Maxim's commit logs: ENTITY{id=…,action=…,data={…}} a line
	Galileo       Format = "galileo"       // Galileo's traces: {"log_stream_id", "traces": [{"type", "spans": […]…}]}
	XRay          Format = "xray"          // AWS X-Ray's segment documents: {"Traces": [{"Id", "Segments": [{"Id", "Document"}]}]}
)

// Formats lists every format Decode reads.
var Formats = []Format{OTLP, Tempo, Jaeger, OpenInference, Langfuse, LangSmith, Calls, Sentry, Datadog, Lunary, LiteralAI, PostHog, Maxim, Galileo, XRay}

// Span is one span, whatever file it came from. Ids are lower-case hex for
// the formats that define them as bytes (OTLP, Tempo, Jaeger) and as
// written for the others (Langfuse and Phoenix may use UUIDs).
type Span struct {
	TraceID  string
	SpanID   string
	ParentID string // empty for a root span
	Name     string
	// Kind is the OpenTelemetry span kind in lower case ("internal",
	// "server", "client", "producer", "consumer"), or empty.
	Kind string
	// Start and End are Unix nanoseconds; 0 when the file does not say.
	Start, End int64
	Status     Status
	Attrs      Attrs
	Events     []Event
	// Resource holds the attributes of the process that emitted the span
	// (service.name...).
	Resource Attrs
	// Line is the line of the file on which the span's record starts (for
	// OTLP, the record of its resource), so that messages can point at it.
	Line int
	// Undotted is set when the span's backend wrote each dot of its
	// attribute names as an underscore (Elastic APM's labels), for run to
	// read them back.
	Undotted bool
}

// StatusCode is a span's outcome as OpenTelemetry records it.
type StatusCode uint8

const (
	StatusUnset StatusCode = iota
	StatusOK
	StatusError
)

// Status is a span's outcome and the message that came with it.
type Status struct {
	Code    StatusCode
	Message string
}

// Event is a timestamped record inside a span: an exception, a message...
type Event struct {
	Name  string
	Time  int64
	Attrs Attrs
}

// Attr is one key and its typed value.
type Attr struct {
	Key   string
	Value Value
}

// Attrs are a span's attributes in file order. Spans carry a few dozen,
// so a slice searched in order costs less than a map per span.
type Attrs []Attr

// Get returns the value of key.
func (as Attrs) Get(key string) (Value, bool) {
	for _, a := range as {
		if a.Key == key {
			return a.Value, true
		}
	}
	return Value{}, false
}

// Str returns the value of key as text, or "" when it is absent.
func (as Attrs) Str(key string) string {
	v, _ := as.Get(key)
	return v.Text()
}

// Kind is the type of a Value.
type Kind uint8

const (
	KindEmpty Kind = iota
	KindString
	KindBool
	KindInt
	KindFloat
	KindBytes // Str holds the bytes
	KindList
	KindMap
)

// Value is an attribute value as OpenTelemetry types them: a scalar, a list
// of values, or a map of keys to values.
type Value struct {
	Kind  Kind
	Str   string
	Int   int64
	Float float64
	Bool  bool
	List  []Value
	Map   Attrs
}

// String makes a string value.
func String(s string) Value { return Value{Kind: KindString, Str: s} }

// Text renders a value as text: a string as it is, other scalars as JSON
// writes them, lists and maps as JSON.
func (v Value) Text() string {
	switch v.Kind {
	case KindString, KindBytes:
		return v.Str
	case KindBool:
		return strconv.FormatBool(v.Bool)
	case KindInt:
		return strconv.FormatInt(v.Int, 10)
	case KindFloat:
		return strconv.FormatFloat(v.Float, 'g', -1, 64)
	case KindList, KindMap:
		return JSONText(v.Any())
	default:
		return ""
	}
}

// Any converts a value into what encoding/json produces for the same
// JSON: string, bool, float64 (int64 for integers), []any, map[string]any.
func (v Value) Any() any {
	switch v.Kind {
	case KindString, KindBytes:
		return v.Str
	case KindBool:
		return v.Bool
	case KindInt:
		return v.Int
	case KindFloat:
		return v.Float
	case KindList:
		out := make([]any, len(v.List))
		for i, e := range v.List {
			out[i] = e.Any()
		}
		return out
	case KindMap:
		out := make(map[string]any, len(v.Map))
		for _, a := range v.Map {
			out[a.Key] = a.Value.Any()
		}
		return out
	default:
		return nil
	}
}

// FromAny converts a decoded JSON value (as encoding/json produces it,
// numbers as json.Number or float64) into a Value.
func FromAny(x any) Value {
	switch t := x.(type) {
	case string:
		return String(t)
	case bool:
		return Value{Kind: KindBool, Bool: t}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return Value{Kind: KindInt, Int: i}
		}
		f, _ := t.Float64()
		return Value{Kind: KindFloat, Float: f}
	case float64:
		if t == float64(int64(t)) && t < 1<<53 && t > -(1<<53) {
			return Value{Kind: KindInt, Int: int64(t)}
		}
		return Value{Kind: KindFloat, Float: t}
	case []any:
		l := make([]Value, len(t))
		for i, e := range t {
			l[i] = FromAny(e)
		}
		return Value{Kind: KindList, List: l}
	case map[string]any:
		return Value{Kind: KindMap, Map: mapAttrs(t)}
	default:
		return Value{}
	}
}

// mapAttrs converts a JSON object into attributes, keys sorted so that the
// result does not depend on map order.
func mapAttrs(m map[string]any) Attrs {
	keys := sortedKeys(m)
	out := make(Attrs, 0, len(keys))
	for _, k := range keys {
		out = append(out, Attr{Key: k, Value: FromAny(m[k])})
	}
	return out
}

// JSONText is x as compact JSON, "" if it has none. Not json.Marshal,
// which writes <, > and & as \u escapes for HTML: a trace's or a log's
// value written back out keeps the characters it has.
func JSONText(x any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(x) != nil {
		return ""
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}
