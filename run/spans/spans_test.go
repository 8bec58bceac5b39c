package spans

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// specs holds the unchanged example files of the specifications.
var specs = filepath.Join("..", "..", "..", "shared", "telemetry-specs")

func specFile(t *testing.T, rel ...string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(append([]string{specs}, rel...)...))
	if err != nil {
		t.Skipf("the telemetry specs are not beside the repository: %v", err)
	}
	return data
}

func otlpSpan(traceID, spanID, parent string) string {
	return `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"` + traceID + `","spanId":"` + spanID + `","parentSpanId":"` + parent + `","name":"s"}]}]}]}`
}

func TestOTLPIDs(t *testing.T) {
	tests := []struct {
		name           string
		trace, span    string
		parent         string
		wantTrace      string
		wantSpan       string
		wantParent     string
		err            string
		errLine, errCo int
	}{
		{name: "lower-case hex", trace: "5b8efff798038103d269b633813fc60c", span: "eee19b7ec3c1b174", parent: "eee19b7ec3c1b173",
			wantTrace: "5b8efff798038103d269b633813fc60c", wantSpan: "eee19b7ec3c1b174", wantParent: "eee19b7ec3c1b173"},
		{name: "upper-case hex", trace: "5B8EFFF798038103D269B633813FC60C", span: "EEE19B7EC3C1B174", parent: "EEE19B7EC3C1B173",
			wantTrace: "5b8efff798038103d269b633813fc60c", wantSpan: "eee19b7ec3c1b174", wantParent: "eee19b7ec3c1b173"},
		{name: "no parent", trace: "5b8efff798038103d269b633813fc60c", span: "eee19b7ec3c1b174",
			wantTrace: "5b8efff798038103d269b633813fc60c", wantSpan: "eee19b7ec3c1b174"},
		{name: "base64, as Tempo's older API wrote", trace: "W47/95gDgQPSabYzgT/GDA==", span: "7uGbfsPBsXQ=",
			wantTrace: "5b8efff798038103d269b633813fc60c", wantSpan: "eee19b7ec3c1b174"},
		{name: "not hex", trace: "5b8efff798038103d269b633813fc60z", span: "eee19b7ec3c1b174",
			err: `invalid traceId at line 1, column 55: "5b8efff798038103d269b633813fc60z" is not an id of 16 bytes in hex (32 hex digits)`},
		{name: "too short", trace: "5b8efff798038103d269b633813fc60c", span: "eee19b7ec3c1b1",
			err: `invalid spanId at line 1, column 99: "eee19b7ec3c1b1" is not an id of 8 bytes`},
		{name: "bad parent", trace: "5b8efff798038103d269b633813fc60c", span: "eee19b7ec3c1b174", parent: "parent",
			err: `invalid parentSpanId at line 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ss, err := Decode(context.Background(), []byte(otlpSpan(tt.trace, tt.span, tt.parent)), OTLP)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			require.Len(t, ss, 1)
			assert.Equal(t, tt.wantTrace, ss[0].TraceID)
			assert.Equal(t, tt.wantSpan, ss[0].SpanID)
			assert.Equal(t, tt.wantParent, ss[0].ParentID)
		})
	}
}

// TestRewriteKeepsOffsets pins what makes protojson's positions the
// user's: the id rewrite changes no byte offset outside the ids.
func TestRewriteKeepsOffsets(t *testing.T) {
	data := []byte(otlpSpan("5B8EFFF798038103D269B633813FC60C", "EEE19B7EC3C1B174", ""))
	rec := append([]byte(nil), data...)
	require.NoError(t, hexToBase64(data, rec, 0))
	assert.Len(t, rec, len(data))
	at := strings.Index(string(data), `"traceId"`)
	assert.Equal(t, `"traceId":"W47/95gDgQPSabYzgT/GDA=="        ,"spanId":"7uGbfsPBsXQ="    ,`, string(rec[at:at+73]))
}

func TestMarshalOTLPRoundTrip(t *testing.T) {
	data := specFile(t, "otlp", "examples", "trace.json")
	ss, err := Decode(context.Background(), data, OTLP)
	require.NoError(t, err)
	td := &tracepb.TracesData{ResourceSpans: []*tracepb.ResourceSpans{{ScopeSpans: []*tracepb.ScopeSpans{{Spans: []*tracepb.Span{{
		TraceId: []byte{0x5b, 0x8e, 0xff, 0xf7, 0x98, 0x03, 0x81, 0x03, 0xd2, 0x69, 0xb6, 0x33, 0x81, 0x3f, 0xc6, 0x0c},
		SpanId:  []byte{0xee, 0xe1, 0x9b, 0x7e, 0xc3, 0xc1, 0xb1, 0x74},
		Name:    "I'm a server span",
		Kind:    tracepb.Span_SPAN_KIND_SERVER,
	}}}}}}}
	out, err := MarshalOTLP(td)
	require.NoError(t, err)
	assert.Contains(t, string(out), `"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174"`)
	assert.Contains(t, string(out), `"kind":2`, "enums as numbers, as the specification writes them")
	back, err := Decode(context.Background(), out, OTLP)
	require.NoError(t, err)
	require.Len(t, back, 1)
	assert.Equal(t, ss[0].TraceID, back[0].TraceID)
	assert.Equal(t, ss[0].SpanID, back[0].SpanID)
	assert.Equal(t, "server", back[0].Kind)
}

// TestSpecExamples reads the example files the specifications ship.
func TestSpecExamples(t *testing.T) {
	t.Run("otlp", func(t *testing.T) {
		data := specFile(t, "otlp", "examples", "trace.json")
		ss := decodeDetected(t, data, OTLP)
		require.Len(t, ss, 1)
		s := ss[0]
		assert.Equal(t, "5b8efff798038103d269b633813fc60c", s.TraceID)
		assert.Equal(t, "eee19b7ec3c1b173", s.ParentID)
		assert.Equal(t, "server", s.Kind)
		assert.Equal(t, int64(1544712660000000000), s.Start)
		assert.Equal(t, int64(1544712661000000000), s.End)
		assert.Equal(t, "some value", s.Attrs.Str("my.span.attr"))
		assert.Equal(t, "my.service", s.Resource.Str("service.name"))
		assert.Equal(t, 3, s.Line, "the line of the span's resource record")
	})
	t.Run("jaeger api v3", func(t *testing.T) {
		// Jaeger's API v3 streams TracesData as {"result": …}, a line each.
		line := `{"result":` + strings.Join(strings.Fields(string(specFile(t, "otlp", "examples", "trace.json"))), " ") + "}\n"
		data := []byte(line + line)
		ss := decodeDetected(t, data, OTLP)
		require.Len(t, ss, 2)
		assert.Equal(t, "some value", ss[1].Attrs.Str("my.span.attr"))
	})
	t.Run("tempo", func(t *testing.T) {
		data := specFile(t, "tempo", "pkg", "tempopb", "trace.json")
		ss := decodeDetected(t, data, Tempo)
		require.Len(t, ss, 1)
		assert.Equal(t, "I'm a server span", ss[0].Name)
	})
	t.Run("jaeger ui", func(t *testing.T) {
		data := specFile(t, "jaeger", "internal", "uimodel", "converter", "v1", "json", "fixtures", "ui_01.json")
		ss := decodeDetected(t, data, Jaeger)
		require.Len(t, ss, 5, "the file lists span 2 twice; run keeps the first")
		s := ss[1]
		assert.Equal(t, StatusError, s.Status.Code, "error=true")
		assert.Equal(t, int64(23456), mustGet(t, s.Attrs, "peer.ipv4").Int)
		assert.Equal(t, int64(9223372036854775222), mustGet(t, s.Attrs, "javascript_limit").Int)
		assert.Equal(t, "\x00\x0009", mustGet(t, s.Attrs, "blob").Str)
		assert.Equal(t, 72.5, mustGet(t, s.Attrs, "temperature").Float)
		assert.Equal(t, "service-x", s.Resource.Str("service.name"))
		assert.Equal(t, "0000000000000002", ss[3].ParentID, "the first CHILD_OF in the same trace")
		assert.Equal(t, "some-event", ss[0].Events[0].Name)
		assert.Equal(t, int64(1485467191639875000), ss[0].Start)
		assert.Equal(t, int64(1485467191639880000), ss[0].End)
	})
	t.Run("jaeger api", func(t *testing.T) {
		data := specFile(t, "jaeger", "cmd", "jaeger", "internal", "extension", "jaegerquery", "internal", "fixture", "otlp2jaeger-out.json")
		ss := decodeDetected(t, data, Jaeger)
		require.Len(t, ss, 2)
		assert.Equal(t, "server", ss[0].Kind)
		assert.Equal(t, "telemetrygen", ss[0].Resource.Str("service.name"))
	})
}

// TestOTLPLogs: log records in OTLP/JSON, beside the spans or alone, are
// events of the span they name; a span the file does not hold is made of
// its records; a record that names no span is left out.
func TestOTLPLogs(t *testing.T) {
	const trace, chat, other = "5b8efff798038103d269b633813fc60c", "eee19b7ec3c1b173", "d75597dee50b0cac"
	spansLine := `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"` + trace + `","spanId":"` + chat + `","name":"chat m",` +
		`"startTimeUnixNano":"100","endTimeUnixNano":"200","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}}]}]}]}]}`
	logsLine := `{"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"svc"}}]},"scopeLogs":[{"logRecords":[` +
		`{"timeUnixNano":"110","eventName":"gen_ai.user.message","traceId":"` + trace + `","spanId":"` + chat + `",` +
		`"attributes":[{"key":"gen_ai.system","value":{"stringValue":"openai"}}],"body":{"kvlistValue":{"values":[{"key":"content","value":{"stringValue":"Hi?"}}]}}},` +
		`{"timeUnixNano":"300","observedTimeUnixNano":"301","traceId":"` + trace + `","spanId":"` + other + `",` +
		`"attributes":[{"key":"event.name","value":{"stringValue":"gen_ai.client.inference.operation.details"}},{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}}],"body":{"stringValue":"x"}},` +
		`{"timeUnixNano":"400","eventName":"gen_ai.choice","body":{"kvlistValue":{"values":[]}}}` +
		`]}]}]}`
	data := []byte(spansLine + "\n" + logsLine + "\n")
	ss := decodeDetected(t, data, OTLP)
	require.Len(t, ss, 2, "the span, and one made of the records of a span the file does not hold")

	require.Len(t, ss[0].Events, 1)
	e := ss[0].Events[0]
	assert.Equal(t, "gen_ai.user.message", e.Name)
	assert.Equal(t, int64(110), e.Time)
	assert.Equal(t, "openai", e.Attrs.Str("gen_ai.system"), "the record's attributes")
	assert.Equal(t, "Hi?", e.Attrs.Str("content"), "then its body's entries")
	assert.Equal(t, int64(100), ss[0].Start, "a span of the file keeps its own times")

	made := ss[1]
	assert.Equal(t, trace, made.TraceID)
	assert.Equal(t, other, made.SpanID)
	assert.Equal(t, "gen_ai.client.inference.operation.details", made.Name, "named by the event.name attribute")
	assert.Equal(t, "chat", made.Attrs.Str("gen_ai.operation.name"), "with its records' attributes")
	_, hasBody := made.Attrs.Get("body")
	assert.False(t, hasBody, "but not their bodies")
	assert.Equal(t, "x", made.Events[0].Attrs.Str("body"), "a body that is not a map is the event's body")
	assert.Equal(t, "svc", made.Resource.Str("service.name"))
	assert.Equal(t, int64(300), made.Start)
}

func mustGet(t *testing.T, as Attrs, key string) Value {
	t.Helper()
	v, ok := as.Get(key)
	require.True(t, ok, key)
	return v
}

func TestDetect(t *testing.T) {
	tests := []struct {
		data string
		want Format
	}{
		{`{"resourceSpans":[]}`, OTLP},
		{`{"resourceLogs":[]}`, OTLP},
		{"{\"resourceSpans\":[]}\n{\"resourceSpans\":[]}\n", OTLP},
		{`{"batches":[]}`, Tempo},
		{`{"trace":{"resourceSpans":[]}}`, Tempo},
		{`{"result":{"resourceSpans":[]}}`, OTLP},
		{`{"data":[{"traceID":"1","spans":[],"processes":{}}]}`, Jaeger},
		{`{"traceID":"1","spans":[],"processes":{}}`, Jaeger},
		{`[{"traceID":"1","spans":[],"processes":{}}]`, Jaeger},
		{`{"id":"t","name":"x","observations":[]}`, Langfuse},
		{`{"data":[{"id":"t","observations":[]}],"meta":{}}`, Langfuse},
		{`{"data":[{"id":"o","traceId":"t","type":"SPAN","startTime":"2026-01-01T00:00:00Z"}]}`, Langfuse},
		{`{"name":"llm","context":{"trace_id":"t","span_id":"s"},"attributes":{}}`, OpenInference},
		{`[{"name":"llm","context.span_id":"s","context.trace_id":"t"}]`, OpenInference},
		{`{"spans":[{"name":"llm","context":{"trace_id":"t","span_id":"s"}}]}`, OpenInference},
		{"{\n\t\"Name\": \"chat\",\n\t\"SpanContext\": {\"TraceID\": \"t\", \"SpanID\": \"s\"}\n}\n", OpenInference},
		{`[{"id":"r","name":"LangGraph","run_type":"chain","inputs":{}}]`, LangSmith},
		{`{"id":"r","run_type":"chain","child_runs":[]}`, LangSmith},
		{`{"runs":[{"id":"r","run_type":"llm"}]}`, LangSmith},
		{"{\"id\":\"r\",\"run_type\":\"llm\"}\n{\"id\":\"s\",\"run_type\":\"tool\"}\n", LangSmith},
		{`{"id":"c","trace_id":"t","op_name":"weave:///e/p/op/x:d","inputs":{}}`, OpenInference},
		{`{"page":1,"size":1,"total":1,"content":[{"id":"s","trace_id":"t","name":"llm","type":"llm"}]}`, OpenInference},
		{`{"page":1,"content":[{"role":"user","content":"hi"}]}`, ""},
		{`{"events":[{"event_id":"e","session_id":"s","parent_id":null,"event_type":"model","event_name":"openai.chat"}],"totalEvents":1}`, OpenInference},
		{`{"question":"q","history":[]}`, ""},
		{`{"messages":[]}`, ""},
		{`[{"role":"user","content":"hi"}]`, ""},
		{`not json`, ""},
		{``, ""},
	}
	for _, tt := range tests {
		t.Run(tt.data, func(t *testing.T) {
			assert.Equal(t, tt.want, Detect([]byte(tt.data)))
		})
	}
}

// TestBadFiles: a broken file is an error naming where, never a panic.
func TestBadFiles(t *testing.T) {
	good := otlpSpan("5b8efff798038103d269b633813fc60c", "eee19b7ec3c1b174", "")
	tests := []struct {
		name   string
		format Format
		data   string
		want   string
	}{
		{"truncated OTLP", OTLP, good[:80], "invalid JSON at line 1, column 81: unexpected end of file (is the file truncated?)"},
		{"truncated line", OTLP, good + "\n" + good[:60], "line 2"},
		{"mixed lines", OTLP, good + "\n" + `{"role":"user","content":"hi"}`, `line 2, column 1: a JSON object without "resourceSpans" or "resourceLogs" (OTLP) or "batches" (Tempo): is the file mixed?`},
		{"not an object", OTLP, good + "\n[1]", "line 2, column 1: not a JSON object"},
		{"wrong type", OTLP, `{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":7}]}]}]}`, "invalid OTLP/JSON at line 1, column 52: invalid value for string field name: 7"},
		{"wrong type on line 3", OTLP, good + "\n\n" + `{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":7}]}]}]}`, "invalid OTLP/JSON at line 3, column 52: invalid value for string field name: 7"},
		{"missing ids", OTLP, `{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"x"}]}]}]}`, `span "x" in the record at line 1: want a trace id of 16 bytes and a span id of 8, have 0 and 0`},
		{"jaeger span without id", Jaeger, `{"data":[{"traceID":"1","spans":[{"operationName":"x"}]}]}`, `span "x" at line 1 has no traceID or spanID`},
		{"jaeger bad time", Jaeger, `{"data":[{"traceID":"1","spans":[{"traceID":"1","spanID":"2","startTime":"soon"}]}]}`, "at line 1, column 34"},
		{"flat without ids", OpenInference, `{"name":"x","attributes":{}}`, `span "x" at line 1 has no trace id or span id (looked for context.trace_id and context.span_id, trace_id and span_id, traceId and spanId; its keys: "attributes", "name")`},
		{"flat bad time", OpenInference, `{"name":"x","context":{"trace_id":"t","span_id":"s"},"start_time":"yesterday"}`, `start time "yesterday" is not a time`},
		{"flat broken", OpenInference, "{\"name\":\"x\"}\n{\"name\":", "line 2"},
		{"langfuse without id", Langfuse, `{"observations":[],"name":"t"}`, "line 1: a Langfuse trace with no id"},
		{"a stray comma between records", Langfuse, `{"id":"t","observations":[]},` + "\n" + `{"id":"u","observations":[]}`, "line 1, column 30: invalid character ','"},
		{"a stray bracket after a span", OpenInference, `{"name":"x","context":{"trace_id":"t","span_id":"s"}}]`, "line 1, column 55: invalid character ']'"},
		{"langfuse bad observation", Langfuse, `{"id":"t","observations":[3]}`, "an observation is not a JSON object"},
		{"langsmith run without id", LangSmith, `[{"name":"x","run_type":"chain"}]`, `run "x" at line 1 has no id or trace_id`},
		{"langsmith bad child", LangSmith, `{"id":"r","run_type":"chain","child_runs":[7]}`, `line 1: run "r": a child run is not a JSON object`},
		{"langsmith bad time", LangSmith, `{"id":"r","name":"x","run_type":"chain","start_time":"soon"}`, `run "x" at line 1: start_time "soon" is not a time`},
		{"langsmith not an object", LangSmith, `[3]`, "a LangSmith run is a JSON object"},
		{"deep", OTLP, strings.Repeat("[", 5000), "invalid JSON at line 1, column 1001: nested more than 1000 deep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(context.Background(), []byte(tt.data), tt.format)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.NotContains(t, err.Error(), "\n")
		})
	}
}

func TestFlatSpanShapes(t *testing.T) {
	tests := []struct {
		name string
		data string
	}{
		{"nested attributes", `{"name":"llm","context":{"trace_id":"T","span_id":"S"},"parent_id":"P","span_kind":"LLM","start_time":"2023-09-07T12:54:47.293922-06:00","end_time":1694112889322066000,"status_code":"ERROR","status_message":"boom","attributes":{"llm":{"model_name":"gpt-4"},"input":{"value":"hi"}},"events":[{"name":"exception","timestamp":"2023-09-07T18:54:48Z","attributes":{"exception.type":"ValueError"}}]}`},
		{"dataframe columns", `{"name":"llm","context.trace_id":"T","context.span_id":"S","parent_id":"P","span_kind":"LLM","start_time":1694112887293,"end_time":"1694112889322066000","status_code":"STATUS_CODE_ERROR","status_message":"boom","attributes.llm.model_name":"gpt-4","attributes.input.value":"hi","events":[{"name":"exception","timestamp":1694112888000000,"attributes":{"exception.type":"ValueError"}}]}`},
		{"zipkin, otel status", `[{"traceId":"T","id":"S","parentId":"P","name":"llm","kind":"CLIENT","timestamp":1694112887293000,"duration":2029066,"localEndpoint":{"serviceName":"svc"},"tags":{"openinference.span.kind":"LLM","llm.model_name":"gpt-4","input.value":"hi","otel.status_code":"ERROR","otel.status_description":"boom"},"annotations":[{"timestamp":1694112888000000,"value":"{\"exception\": {\"exception.type\": \"ValueError\"}}"}]}]`},
		{"zipkin, error tag", `[{"traceId":"T","id":"S","parentId":"P","name":"llm","timestamp":1694112887293000,"duration":2029066,"localEndpoint":{"serviceName":"svc"},"tags":{"openinference.span.kind":"LLM","llm.model_name":"gpt-4","input.value":"hi","error":"boom"},"annotations":[{"timestamp":1694112888000000,"value":"exception: {\"exception.type\":\"ValueError\"}"}]}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.data)
			ss := decodeDetected(t, data, OpenInference)
			require.Len(t, ss, 1)
			s := ss[0]
			assert.Equal(t, "T", s.TraceID)
			assert.Equal(t, "S", s.SpanID)
			assert.Equal(t, "P", s.ParentID)
			assert.Equal(t, "gpt-4", s.Attrs.Str("llm.model_name"))
			assert.Equal(t, "hi", s.Attrs.Str("input.value"))
			assert.Equal(t, "LLM", s.Attrs.Str("openinference.span.kind"), "Phoenix's span_kind is the OpenInference kind")
			assert.Equal(t, Status{Code: StatusError, Message: "boom"}, s.Status)
			assert.Equal(t, int64(1694112889322066000), s.End)
			assert.InDelta(t, 1694112887293000000, s.Start, 1e6)
			require.Len(t, s.Events, 1)
			assert.Equal(t, "exception", s.Events[0].Name)
			assert.Equal(t, "ValueError", s.Events[0].Attrs.Str("exception.type"))
			assert.Equal(t, int64(1694112888000000000), s.Events[0].Time)
			if strings.HasPrefix(tt.name, "zipkin") {
				assert.Equal(t, "svc", s.Resource.Str("service.name"), "Zipkin's local endpoint names the service")
			}
		})
	}
}

// TestGoSpanStub reads what OpenTelemetry Go's stdouttrace exporter (as of
// go.opentelemetry.io/otel/exporters/stdout/stdouttrace v1.47.0) writes:
// each span as the SDK's SpanStub in Go's field names, indented with
// WithPrettyPrint or one a line without it; a root span's parent all
// zeros, attributes as {"Key", "Value": {"Type", "Value"}}, the kind a
// number, the status {"Code": "Error", "Description"}.
func TestGoSpanStub(t *testing.T) {
	const (
		root = `{"Name":"planner","SpanContext":{"TraceID":"fa4ec43d8b068c187fd06897fc469e9c","SpanID":"ae79b6f9f5eae1bc","TraceFlags":"01","TraceState":"","Remote":false},` +
			`"Parent":{"TraceID":"00000000000000000000000000000000","SpanID":"0000000000000000","TraceFlags":"00","TraceState":"","Remote":false},"SpanKind":1,` +
			`"StartTime":"2026-11-27T14:50:00.120000000Z","EndTime":"2026-11-27T14:50:00.129109469Z","Attributes":[{"Key":"gen_ai.agent.name","Value":{"Type":"STRING","Value":"planner"}}],` +
			`"Events":null,"Links":null,"Status":{"Code":"Unset","Description":""},"DroppedAttributes":0,"DroppedEvents":0,"DroppedLinks":0,"ChildSpanCount":1,` +
			`"Resource":[{"Key":"service.name","Value":{"Type":"STRING","Value":"hotel-planner"}}],"InstrumentationScope":{"Name":"app","Version":"","SchemaURL":"","Attributes":null}}`
		tool = `{"Name":"execute_tool getRate","SpanContext":{"TraceID":"fa4ec43d8b068c187fd06897fc469e9c","SpanID":"5607aa1f12030146"},` +
			`"Parent":{"TraceID":"fa4ec43d8b068c187fd06897fc469e9c","SpanID":"ae79b6f9f5eae1bc"},"SpanKind":3,` +
			`"StartTime":"2026-11-27T14:50:00.125Z","EndTime":"2026-11-27T14:50:00.126Z","Attributes":[{"Key":"gen_ai.tool.name","Value":{"Type":"STRING","Value":"getRate"}},` +
			`{"Key":"attempt","Value":{"Type":"INT64","Value":2}},{"Key":"cities","Value":{"Type":"STRINGSLICE","Value":["Bergne","Bergen"]}}],` +
			`"Events":[{"Name":"exception","Attributes":[{"Key":"exception.type","Value":{"Type":"STRING","Value":"*errors.errorString"}},` +
			`{"Key":"exception.message","Value":{"Type":"STRING","Value":"unknown city: Bergne"}}],"DroppedAttributeCount":0,"Time":"2026-11-27T14:50:00.1255Z"}],` +
			`"Status":{"Code":"Error","Description":"unknown city: Bergne"},"Resource":[{"Key":"service.name","Value":{"Type":"STRING","Value":"hotel-planner"}}]}`
	)
	indent := func(s string) string {
		var b bytes.Buffer
		require.NoError(t, json.Indent(&b, []byte(s), "", "\t"))
		return b.String()
	}
	tests := []struct{ name, data string }{
		{"pretty", indent(root) + "\n" + indent(tool) + "\n"},
		{"one a line", root + "\n" + tool + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ss := decodeDetected(t, []byte(tt.data), OpenInference)
			require.Len(t, ss, 2)
			r, c := ss[0], ss[1]
			assert.Equal(t, "planner", r.Name)
			assert.Equal(t, "fa4ec43d8b068c187fd06897fc469e9c", r.TraceID)
			assert.Equal(t, "ae79b6f9f5eae1bc", r.SpanID)
			assert.Equal(t, "", r.ParentID, "a parent of zeros is none")
			assert.Equal(t, "internal", r.Kind)
			assert.Equal(t, "planner", r.Attrs.Str("gen_ai.agent.name"))
			assert.Equal(t, "hotel-planner", r.Resource.Str("service.name"))
			assert.Equal(t, Status{}, r.Status)
			assert.Equal(t, int64(9109469), r.End-r.Start)
			assert.Equal(t, "ae79b6f9f5eae1bc", c.ParentID)
			assert.Equal(t, "client", c.Kind)
			assert.Equal(t, "getRate", c.Attrs.Str("gen_ai.tool.name"))
			attempt, _ := c.Attrs.Get("attempt")
			assert.Equal(t, "2", attempt.Text())
			cities, _ := c.Attrs.Get("cities")
			assert.Equal(t, `["Bergne","Bergen"]`, cities.Text())
			assert.Equal(t, Status{Code: StatusError, Message: "unknown city: Bergne"}, c.Status)
			require.Len(t, c.Events, 1)
			assert.Equal(t, "exception", c.Events[0].Name)
			assert.Equal(t, "unknown city: Bergne", c.Events[0].Attrs.Str("exception.message"))
			assert.NotZero(t, c.Events[0].Time)
		})
	}
}

// TestOpenAIAgentsExport: the OpenAI Agents SDK's export, one record a
// line or as its exporter posts it, is a flat span list: the trace's own
// record is passed over, span_data becomes attributes, a span named only
// by its type takes that name, and the error object is the status.
func TestOpenAIAgentsExport(t *testing.T) {
	const (
		trace = `{"object":"trace","id":"trace_1","workflow_name":"Agent workflow","group_id":null,"metadata":{}}`
		agent = `{"object":"trace.span","id":"span_a","trace_id":"trace_1","parent_id":null,"started_at":"2026-11-27T10:06:45.134Z","ended_at":"2026-11-27T10:06:45.436Z","span_data":{"type":"agent","name":"Billing agent","tools":["convert"]},"error":null}`
		tool  = `{"object":"trace.span","id":"span_f","trace_id":"trace_1","parent_id":"span_a","started_at":"2026-11-27T10:06:45.2Z","ended_at":"2026-11-27T10:06:45.3Z","span_data":{"type":"function","name":"convert","input":"{\"amount\":120}","output":"An error occurred while running the tool."},"error":{"message":"Error running tool (non-fatal)","data":{"tool_name":"convert","error":"rate service unavailable"}}}`
		hand  = `{"object":"trace.span","id":"span_h","trace_id":"trace_1","parent_id":"span_a","started_at":"2026-11-27T10:06:45.4Z","ended_at":"2026-11-27T10:06:45.4Z","span_data":{"type":"handoff","from_agent":"Billing agent","to_agent":"FX expert"},"error":null}`
	)
	tests := []struct{ name, data string }{
		{"one a line", trace + "\n" + agent + "\n" + tool + "\n" + hand + "\n"},
		{"as posted", `{"data":[` + trace + "," + agent + "," + tool + "," + hand + `]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ss := decodeDetected(t, []byte(tt.data), OpenInference)
			require.Len(t, ss, 3)
			a, f, h := ss[0], ss[1], ss[2]
			assert.Equal(t, "Billing agent", a.Name)
			assert.Equal(t, "", a.ParentID)
			assert.Equal(t, "agent", a.Attrs.Str("span_data.type"))
			assert.Equal(t, Status{}, a.Status, "a null error is none")
			assert.Equal(t, int64(302000000), a.End-a.Start)
			assert.Equal(t, "trace_1", f.TraceID)
			assert.Equal(t, "span_a", f.ParentID)
			assert.Equal(t, `{"amount":120}`, f.Attrs.Str("span_data.input"))
			assert.Equal(t, Status{Code: StatusError, Message: "Error running tool (non-fatal): rate service unavailable"}, f.Status)
			assert.Equal(t, "handoff", h.Name, "a span the data does not name is named by its type")
			assert.Equal(t, "FX expert", h.Attrs.Str("span_data.to_agent"))
		})
	}
}

func TestLangfuseObservations(t *testing.T) {
	data := []byte(`{"id":"t1","timestamp":"2026-03-02T09:00:00Z","name":"trip","input":{"question":"q?"},"observations":[
{"id":"o1","traceId":"t1","type":"GENERATION","name":"chat","startTime":"2026-03-02T09:00:01Z","endTime":"2026-03-02T09:00:02.5Z","input":[{"role":"user","content":"q?"}],"output":"a","level":"ERROR","statusMessage":"rate limited","parentObservationId":null,"model":"gpt-4o","metadata":{"attributes":{"gen_ai.agent.name":"Planner"},"tags":["x"]}}]}`)
	ss := decodeDetected(t, data, Langfuse)
	require.Len(t, ss, 2)
	root, o := ss[0], ss[1]
	assert.Equal(t, "TRACE", root.Attrs.Str("langfuse.observation.type"))
	assert.Equal(t, `{"question":"q?"}`, root.Attrs.Str("langfuse.trace.input"))
	assert.Equal(t, "t1", o.ParentID, "a top-level observation hangs under its trace")
	assert.Equal(t, "GENERATION", o.Attrs.Str("langfuse.observation.type"))
	assert.Equal(t, "gpt-4o", o.Attrs.Str("langfuse.observation.model.name"))
	assert.Equal(t, "Planner", o.Attrs.Str("gen_ai.agent.name"), "attributes ingested over OTLP are restored")
	assert.Equal(t, `["x"]`, o.Attrs.Str("langfuse.observation.metadata.tags"))
	assert.Equal(t, Status{Code: StatusError, Message: "rate limited"}, o.Status)
	assert.Equal(t, int64(1500000000), o.End-o.Start)
}

// fuzzSeeds adds every telemetry example and a few broken ones.
func fuzzSeeds(f *testing.F, files ...string) {
	for _, name := range files {
		if data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "telemetry", name)); err == nil {
			f.Add(data)
			f.Add(data[:len(data)/2])
		}
	}
}

// fuzzDecode checks that a decoder never panics and that what it returns
// is whole: every span has its ids.
func fuzzDecode(f *testing.F, format Format) {
	f.Fuzz(func(t *testing.T, data []byte) {
		ss, err := Decode(context.Background(), data, format)
		if err != nil {
			assert.NotContains(t, err.Error(), "\n")
			return
		}
		for _, s := range ss {
			assert.NotEmpty(t, s.TraceID)
			assert.NotEmpty(t, s.SpanID)
		}
		_ = Detect(data)
	})
}

func FuzzOTLP(f *testing.F) {
	fuzzSeeds(f, "otel-sdk.jsonl", "tempo.json", "ai-sdk.json", "../traces/ai-sdk-agents.jsonl", "../traces/langgraph-js-openinference.jsonl", "../traces/mastra-otel.jsonl", "../traces/ai-sdk-openinference.jsonl", "../traces/langfuse-sdk-otel.jsonl", "../traces/langgraph-js-supervisor.jsonl", "../traces/genkit-flows.jsonl", "../traces/adk-js-transfer.jsonl", "../traces/strands-js-agents.jsonl", "../traces/voltagent-subagents.jsonl", "../traces/langchain-js-agents.jsonl", "../traces/agent365-js.jsonl")
	f.Add([]byte(looseRequest))
	f.Add([]byte(bareEnumSpan(`"Client"`, `"error"`)))
	_, msgs := tripProto(f)
	f.Add(msgs[0])
	f.Add(binary.BigEndian.AppendUint32(nil, uint32(len(msgs[1]))))
	f.Add([]byte(otlpSpan("5B8EFFF798038103D269B633813FC60C", "EEE19B7EC3C1B174", "")))
	f.Add([]byte(`{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"eventName":"e","traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","body":{"kvlistValue":{"values":[]}}}]}]}]}`))
	fuzzDecode(f, OTLP)
}

func FuzzJaeger(f *testing.F) {
	fuzzSeeds(f, "jaeger.json")
	fuzzDecode(f, Jaeger)
}

func FuzzOpenInference(f *testing.F) {
	fuzzSeeds(f, "phoenix.jsonl", "mlflow.json")
	fuzzSeeds(f, "../traces/adot-claude.json", "../traces/otel-python-console.txt", "../traces/openai-agents-js.jsonl", "../traces/openai-agents-js-aisdk.jsonl", "../traces/openai-go-stdouttrace.json", "../traces/genkit-js-telemetry-server.json", "../traces/mastra-storage-trace.json")
	f.Add([]byte(`{"trace_id":"t","spans":[{"span_id":"a","span_name":"x","timestamp":"2025-03-19T16:32:08Z","duration":"PT1M2.5S",` +
		`"span_attributes":{"k":"v"},"child_spans":[{"span_id":"b","timestamp":"2025-03-19T16:32:09Z","duration":"PT1S","events":[{"Name":"exception","Attributes":{"a":1}}]}]}]}`))
	f.Add([]byte(`[{"traceId":"t","id":"a","name":"x","startTime":[1,2],"duration":[0,5],"attributes":"{'a': True, 'b': None}"}]`))
	f.Add([]byte(`{"total":2,"page":0,"limit":50,"data":[{"id":"r2","type":"tool","name":"lookup","createdAt":"2026-11-27T09:15:01.900Z","endedAt":"2026-11-27T09:15:06.100Z","input":{"id":7},"output":null,"status":"error","error":{"message":"upstream timed out","stack":"Traceback"},"parentRunId":"r1","traceId":"t1"},` +
		`{"id":"r1","type":"agent","name":"helper","createdAt":"2026-11-27T09:15:00.000Z","endedAt":"2026-11-27T09:15:08.200Z","input":"hi","output":"done","status":"success","error":null,"parentRunId":"r2","traceId":"t1"}]}`))
	fuzzDecode(f, OpenInference)
}

func FuzzLangSmith(f *testing.F) {
	fuzzSeeds(f, "langsmith.json")
	f.Add([]byte(`{"runs":[{"id":"r","run_type":"chain","extra":{"metadata":{"a":{"b":1}}},"child_runs":[{"id":"c","run_type":"tool","error":"E\nTraceback (most recent call last):\nE: x"}]}]}`))
	fuzzDecode(f, LangSmith)
}
func FuzzLangfuse(f *testing.F) {
	fuzzSeeds(f, "langfuse.json")
	f.Add([]byte(`{"trace":{"id":"t","name":"n","input":"\"{\\\"a\\\": 1}\""},"observations":[{"id":"o","traceId":"t","type":"SPAN","statusMessage":"None","metadata":"{\"attributes\": {\"k\": 1}}"}]}`))
	fuzzDecode(f, Langfuse)
}

// TestLangSmithRuns: LangSmith's runs, listed with their parents or nested
// in their child runs, become spans with LangSmith's names; the value a
// run wraps as {"output": …} is the value, and an error's traceback ends
// in the exception line that is the status message.
func TestLangSmithRuns(t *testing.T) {
	const tool = `"name":"get_forecast","run_type":"tool","start_time":"2026-03-02T09:00:01.5","end_time":"2026-03-02T09:00:02",` +
		`"inputs":{"input":"{'city': 'Olso'}"},"outputs":null,"status":"error",` +
		`"error":"CityNotFoundError('no forecast')\n\nTraceback (most recent call last):\n  File \"w.py\", line 3\nCityNotFoundError: no forecast",` +
		`"extra":{"metadata":{"langgraph_node":"Researcher","offattr.mistake":true}}`
	tests := []struct{ name, data string }{
		{"listed", `[{"id":"r","trace_id":"r","name":"LangGraph","run_type":"chain","start_time":"2026-03-02T09:00:00","end_time":"2026-03-02T09:00:03","inputs":{"messages":[]},"outputs":{"output":"done"}},` +
			`{"id":"t","trace_id":"r","parent_run_id":"r",` + tool + `}]`},
		{"nested", `{"runs":[{"id":"r","name":"LangGraph","run_type":"chain","start_time":"2026-03-02T09:00:00","end_time":"2026-03-02T09:00:03","inputs":{"messages":[]},"outputs":{"output":"done"},` +
			`"child_runs":[{"id":"t",` + tool + `}]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.data)
			ss := decodeDetected(t, data, LangSmith)
			require.Len(t, ss, 2)
			root, run := ss[0], ss[1]
			assert.Equal(t, Span{TraceID: "r", SpanID: "r", Name: "LangGraph", Start: 1772442000000000000, End: 1772442003000000000, Line: root.Line,
				Attrs: Attrs{{Key: "langsmith.inputs", Value: FromAny(map[string]any{"messages": []any{}})}, {Key: "langsmith.outputs", Value: String("done")}, {Key: "langsmith.run_type", Value: String("chain")}}}, root)
			assert.Equal(t, "r", run.TraceID)
			assert.Equal(t, "r", run.ParentID)
			assert.Equal(t, Status{Code: StatusError, Message: "CityNotFoundError: no forecast"}, run.Status)
			assert.Equal(t, "{'city': 'Olso'}", run.Attrs.Str("langsmith.inputs"))
			assert.Equal(t, "Researcher", run.Attrs.Str("langsmith.metadata.langgraph_node"))
			_, hasOutputs := run.Attrs.Get("langsmith.outputs")
			assert.False(t, hasOutputs, "no outputs: no attribute")
		})
	}
}

// TestLangSmithJSRun: a run as LangSmith's JavaScript SDK sends it: a
// function's result wrapped as {"outputs": …}, the end a number of
// milliseconds.
func TestLangSmithJSRun(t *testing.T) {
	data := []byte(`{"id":"r","trace_id":"r","name":"planner","run_type":"chain","start_time":"2026-03-02T09:00:00.000001Z","end_time":1772442003000,` +
		`"inputs":{"input":"Go."},"outputs":{"outputs":"done"}}` + "\n")
	ss := decodeDetected(t, data, LangSmith)
	require.Len(t, ss, 1)
	assert.Equal(t, "Go.", ss[0].Attrs.Str("langsmith.inputs"))
	assert.Equal(t, "done", ss[0].Attrs.Str("langsmith.outputs"))
	assert.Equal(t, int64(1772442000000001000), ss[0].Start)
	assert.Equal(t, int64(1772442003000000000), ss[0].End)
}

func TestLangSmithError(t *testing.T) {
	tests := []struct{ name, error, want string }{
		{"repr only", "ValueError('bad city')", "ValueError('bad city')"},
		{"repr, then traceback", "ValueError('bad city')\n\nTraceback (most recent call last):\n  File \"w.py\", line 3, in f\n    raise ValueError(\"bad city\")\nValueError: bad city\n", "ValueError: bad city"},
		{"a message of two lines", "E('a\\nb')\n\nTraceback (most recent call last):\n  File \"w.py\", line 3, in f\nE: a\nb", "E: a\nb"},
		{"chained", "Traceback (most recent call last):\n  File \"a.py\", line 1\nKeyError: 'x'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File \"b.py\", line 2\nRuntimeError: lookup failed", "RuntimeError: lookup failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, langSmithError(tt.error))
		})
	}
}

// decodeDetected checks that data is detected as format f, and decodes it.
func decodeDetected(t *testing.T, data []byte, f Format) []Span {
	t.Helper()
	require.Equal(t, f, Detect(data))
	ss, err := Decode(context.Background(), data, f)
	require.NoError(t, err)
	return ss
}

// TestWeaveCalls: Weave's call rows name a call by its display name, else
// by the op its op_name refers to; its one argument is kept as arg0, its
// exception is its error, and the op is kept as op_name.
func TestWeaveCalls(t *testing.T) {
	rows := `{"id":"c1","trace_id":"t","op_name":"weave:///trips/trip-planner/op/get_weather:P82Xj5Sx","started_at":"2026-11-27T14:57:00.769Z","inputs":{"arg0":{"city":"Olso"}},"output":null,"exception":"unknown city: Olso"}
{"id":"c2","trace_id":"t","parent_id":"c1","op_name":"weave:///trips/trip-planner/op/openai.chat.completions.create:Ab3","display_name":"chat","inputs":{"arg0":"a","arg1":"b"}}
{"id":"c3","trace_id":"t","op_name":"plain_op","inputs":{"question":"q"}}`
	ss, err := Decode(context.Background(), []byte(rows), OpenInference)
	require.NoError(t, err)
	require.Len(t, ss, 3)
	assert.Equal(t, "get_weather", ss[0].Name)
	assert.JSONEq(t, `{"city":"Olso"}`, ss[0].Attrs.Str("inputs"))
	assert.Equal(t, "weave:///trips/trip-planner/op/get_weather:P82Xj5Sx", ss[0].Attrs.Str("op_name"))
	assert.Equal(t, Status{Code: StatusError, Message: "unknown city: Olso"}, ss[0].Status)
	assert.Equal(t, "chat", ss[1].Name, "a display name names the call")
	assert.JSONEq(t, `{"arg0":"a","arg1":"b"}`, ss[1].Attrs.Str("inputs"), "two arguments stay as they are")
	assert.Equal(t, "plain_op", ss[2].Name)
}

// TestWeaveMethodSelf: a Weave method's call records the object it ran
// on as its first input, a ref: it is no input of the call.
func TestWeaveMethodSelf(t *testing.T) {
	rows := `{"id":"c1","trace_id":"t","op_name":"weave:///acme/desk/op/TriageAgent.run:Hc3","inputs":{"self":"weave:///acme/desk/object/TriageAgent:v2","message":"Refund order 5531"}}
{"id":"c2","trace_id":"t","op_name":"weave:///acme/desk/op/route:Ab3","inputs":{"self":"a plain text","message":"m"}}`
	ss, err := Decode(context.Background(), []byte(rows), OpenInference)
	require.NoError(t, err)
	require.Len(t, ss, 2)
	assert.JSONEq(t, `{"message":"Refund order 5531"}`, ss[0].Attrs.Str("inputs"))
	assert.JSONEq(t, `{"self":"a plain text","message":"m"}`, ss[1].Attrs.Str("inputs"), "an argument named self that is no ref stays")
}

// TestFlatNumericKind: a kind written as an enum's number, whose meaning
// is the writer's (Zipkin's proto3 JSON, as Jaeger's collector tests send
// it; OpenTelemetry JS's SpanKind in its span dumps), is no span kind
// read here and, above all, no OpenInference kind.
func TestFlatNumericKind(t *testing.T) {
	tests := []struct{ name, data string }{
		{"zipkin proto3", `{"spans":[{"trace_id":"QoVouqoJRn5CjmiKqglGfw==","id":"AAAAAAAAAAI=","parent_id":"AAAAAAAAAAE=","name":"foo","kind":1,"timestamp":1,"duration":10,"tags":{"foo":"bar"}}]}`},
		{"opentelemetry js", `[{"traceId":"aa77a2097d59e99504a25fa7cf54f56d","spanId":"4accd10229acf158","name":"get_weather","kind":0,"attributes":{}}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ss, err := Decode(context.Background(), []byte(tt.data), OpenInference)
			require.NoError(t, err)
			require.Len(t, ss, 1)
			assert.Empty(t, ss[0].Kind)
			_, ok := ss[0].Attrs.Get("openinference.span.kind")
			assert.False(t, ok, "a number is no OpenInference kind")
		})
	}
}

// TestJSONTextKeepsCharacters: a list or map value written back out
// keeps <, > and & as the trace has them.
func TestJSONTextKeepsCharacters(t *testing.T) {
	assert.Equal(t, `["a < b","R&D"]`, JSONText([]any{"a < b", "R&D"}))
	assert.Equal(t, `{"q":"x > 1"}`, JSONText(map[string]any{"q": "x > 1"}))
	assert.Equal(t, "", JSONText(func() {}))
}

// TestLunaryAPIRuns reads Lunary's runs as its REST API lists them
// ({"data": [run…]}, newest first): a run names its parent by
// parentRunId and begins at createdAt; a run whose status is "error"
// carries its message in its error object ({"message", "stack"}).
func TestLunaryAPIRuns(t *testing.T) {
	data := `{"total":2,"page":0,"limit":50,"data":[
{"id":"r2","type":"tool","name":"lookup","createdAt":"2026-11-27T09:15:01.900Z","endedAt":"2026-11-27T09:15:06.100Z","input":{"id":7},"output":null,"status":"error","error":{"message":"upstream timed out","stack":"Traceback …"},"parentRunId":"r1","traceId":"t1"},
{"id":"r1","type":"agent","name":"helper","createdAt":"2026-11-27T09:15:00.000Z","endedAt":"2026-11-27T09:15:08.200Z","input":"hi","output":"done","status":"success","error":null,"parentRunId":null,"traceId":"t1"}]}`
	ss := decodeDetected(t, []byte(data), OpenInference)
	require.Len(t, ss, 2)
	tool, agent := ss[0], ss[1]
	assert.Equal(t, "r1", tool.ParentID)
	assert.Empty(t, agent.ParentID)
	assert.Equal(t, int64(1795770901900000000), tool.Start)
	assert.Equal(t, int64(1795770900000000000), agent.Start)
	assert.Equal(t, Status{Code: StatusError, Message: "upstream timed out"}, tool.Status)
	assert.Equal(t, StatusUnset, agent.Status.Code, "a status of success is no OpenTelemetry status")
}
