package run_test

import (
	"context"
	"encoding/binary"
	"flag"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/run/spans"
)

var update = flag.Bool("update", false, "rewrite testdata/telemetry/otel-sdk.jsonl from the OpenTelemetry SDK")

// seqIDs hands out ids in sequence, so that the SDK's trace is the same on
// every run and can be a golden file.
type seqIDs struct {
	mu   sync.Mutex
	next uint64
}

func (g *seqIDs) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	var tid trace.TraceID
	binary.BigEndian.PutUint64(tid[8:], 0x5eed0000cafe0001)
	binary.BigEndian.PutUint64(tid[:8], 0x4bf92f3577b34da6)
	return tid, g.NewSpanID(ctx, tid)
}

func (g *seqIDs) NewSpanID(context.Context, trace.TraceID) trace.SpanID {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.next++
	var sid trace.SpanID
	binary.BigEndian.PutUint64(sid[:], 0x00f067aa0ba90000+g.next)
	return sid
}

// CityNotFoundError is the error the forecast tool fails with, recorded as
// an exception event the way the SDK records any Go error.
type CityNotFoundError struct{ City string }

func (e CityNotFoundError) Error() string { return "no forecast for city " + e.City }

// sdkTrace runs a two-agent trip through the OpenTelemetry SDK with the
// GenAI attributes a real instrumentation sets: an invoke_agent span per
// agent, chat spans with their input and output messages, execute_tool
// spans, a handoff from Planner to Researcher (a transfer tool whose span
// holds the Researcher's turn), a tool that fails with an ERROR status and
// an exception event, and the Researcher's wrong conversion marked as the
// decisive fault with offattr.mistake.
func sdkTrace(t testing.TB) []sdktrace.ReadOnlySpan {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec), sdktrace.WithIDGenerator(&seqIDs{}))
	tracer := tp.Tracer("github.com/offattr/offattr/agents", trace.WithInstrumentationVersion("0.1.0"))
	clock := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	tick := func() time.Time { clock = clock.Add(250 * time.Millisecond); return clock }

	start := func(ctx context.Context, name string, kind trace.SpanKind, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
		return tracer.Start(ctx, name, trace.WithSpanKind(kind), trace.WithTimestamp(tick()), trace.WithAttributes(attrs...))
	}
	end := func(s trace.Span) { s.End(trace.WithTimestamp(tick())) }
	chat := func(ctx context.Context, agent, input, output string, extra ...attribute.KeyValue) {
		attrs := append([]attribute.KeyValue{
			attribute.String("gen_ai.operation.name", "chat"),
			attribute.String("gen_ai.provider.name", "openai"),
			attribute.String("gen_ai.request.model", "gpt-4o"),
			attribute.String("gen_ai.agent.name", agent),
			attribute.String("gen_ai.input.messages", input),
			attribute.String("gen_ai.output.messages", output),
		}, extra...)
		_, s := start(ctx, "chat gpt-4o", trace.SpanKindClient, attrs...)
		end(s)
	}
	tool := func(ctx context.Context, name, id, args string) (context.Context, trace.Span) {
		return start(ctx, "execute_tool "+name, trace.SpanKindInternal,
			attribute.String("gen_ai.operation.name", "execute_tool"),
			attribute.String("gen_ai.tool.name", name),
			attribute.String("gen_ai.tool.call.id", id),
			attribute.String("gen_ai.tool.call.arguments", args))
	}
	const task = "What will the weather be in Oslo tomorrow, in Fahrenheit?"
	ctx := context.Background()
	ctx, planner := start(ctx, "invoke_agent Planner", trace.SpanKindInternal,
		attribute.String("gen_ai.operation.name", "invoke_agent"),
		attribute.String("gen_ai.agent.name", "Planner"),
		attribute.String("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"`+task+`"}]}]`))
	chat(ctx, "Planner",
		`[{"role":"system","parts":[{"type":"text","content":"You plan trips. Delegate weather questions."}]},{"role":"user","parts":[{"type":"text","content":"`+task+`"}]}]`,
		`[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"transfer_to_researcher","arguments":{"task":"Find tomorrow's forecast for Oslo and give it in Fahrenheit."}}],"finish_reason":"tool_calls"}]`)
	tctx, transfer := tool(ctx, "transfer_to_researcher", "call_1", `{"task":"Find tomorrow's forecast for Oslo and give it in Fahrenheit."}`)
	rctx, researcher := start(tctx, "invoke_agent Researcher", trace.SpanKindInternal,
		attribute.String("gen_ai.operation.name", "invoke_agent"),
		attribute.String("gen_ai.agent.name", "Researcher"))
	chat(rctx, "Researcher",
		`[{"role":"user","parts":[{"type":"text","content":"Find tomorrow's forecast for Oslo and give it in Fahrenheit."}]}]`,
		`[{"role":"assistant","parts":[{"type":"tool_call","id":"call_2","name":"get_forecast","arguments":{"city":"Olso"}}]}]`)
	_, failed := tool(rctx, "get_forecast", "call_2", `{"city":"Olso"}`)
	err := CityNotFoundError{City: "Olso"}
	failed.RecordError(err, trace.WithTimestamp(clock))
	failed.SetStatus(codes.Error, err.Error())
	failed.SetAttributes(attribute.String("error.type", "CityNotFoundError"))
	end(failed)
	chat(rctx, "Researcher",
		`[{"role":"user","parts":[{"type":"text","content":"Find tomorrow's forecast for Oslo and give it in Fahrenheit."}]},{"role":"assistant","parts":[{"type":"tool_call","id":"call_2","name":"get_forecast","arguments":{"city":"Olso"}}]},{"role":"tool","parts":[{"type":"tool_call_response","id":"call_2","response":"no forecast for city Olso"}]}]`,
		`[{"role":"assistant","parts":[{"type":"tool_call","id":"call_3","name":"get_forecast","arguments":{"city":"Oslo"}}]}]`)
	_, ok := tool(rctx, "get_forecast", "call_3", `{"city":"Oslo"}`)
	ok.SetAttributes(attribute.String("gen_ai.tool.call.result", `{"city":"Oslo","high_c":12,"low_c":4}`))
	end(ok)
	const answer = "Tomorrow in Oslo: a high of 12 °F and a low of 4 °F."
	chat(rctx, "Researcher",
		`[{"role":"user","parts":[{"type":"text","content":"Find tomorrow's forecast for Oslo and give it in Fahrenheit."}]},{"role":"tool","parts":[{"type":"tool_call_response","id":"call_3","response":{"city":"Oslo","high_c":12,"low_c":4}}]}]`,
		`[{"role":"assistant","parts":[{"type":"text","content":"`+answer+`"}],"finish_reason":"stop"}]`,
		attribute.Bool("offattr.mistake", true),
		attribute.String("offattr.mistake_reason", "Researcher copied the Celsius figures as Fahrenheit instead of converting them."))
	end(researcher)
	transfer.SetAttributes(attribute.String("gen_ai.tool.call.result", answer))
	end(transfer)
	chat(ctx, "Planner",
		`[{"role":"user","parts":[{"type":"text","content":"`+task+`"}]},{"role":"tool","parts":[{"type":"tool_call_response","id":"call_1","response":"`+answer+`"}]}]`,
		`[{"role":"assistant","parts":[{"type":"text","content":"Pack light: Oslo will be freezing tomorrow, 4 to 12 °F."}],"finish_reason":"stop"}]`)
	end(planner)
	require.NoError(t, tp.Shutdown(context.Background()))
	return rec.Ended()
}

// toOTLP converts SDK spans to OTLP, as the SDK's OTLP exporter does: one
// ResourceSpans per resource, one ScopeSpans per instrumentation scope.
// Each span goes into its own batch when split is set, as a collector that
// flushes often writes them, so that a trace's spans lie on many lines.
func toOTLP(ss []sdktrace.ReadOnlySpan, split bool) *tracepb.TracesData {
	td := &tracepb.TracesData{}
	var rs *tracepb.ResourceSpans
	for _, s := range ss {
		if rs == nil || split {
			rs = &tracepb.ResourceSpans{
				Resource:   &resourcepb.Resource{Attributes: kvs(resource(s))},
				ScopeSpans: []*tracepb.ScopeSpans{{Scope: &commonpb.InstrumentationScope{Name: s.InstrumentationScope().Name, Version: s.InstrumentationScope().Version}}},
			}
			td.ResourceSpans = append(td.ResourceSpans, rs)
		}
		sc, p := s.SpanContext(), s.Parent()
		tid, sid := sc.TraceID(), sc.SpanID()
		span := &tracepb.Span{
			TraceId:           tid[:],
			SpanId:            sid[:],
			Name:              s.Name(),
			Kind:              tracepb.Span_SpanKind(s.SpanKind()),
			StartTimeUnixNano: uint64(s.StartTime().UnixNano()),
			EndTimeUnixNano:   uint64(s.EndTime().UnixNano()),
			Attributes:        kvs(s.Attributes()),
		}
		if p.IsValid() {
			pid := p.SpanID()
			span.ParentSpanId = pid[:]
		}
		switch s.Status().Code {
		case codes.Error:
			span.Status = &tracepb.Status{Code: tracepb.Status_STATUS_CODE_ERROR, Message: s.Status().Description}
		case codes.Ok:
			span.Status = &tracepb.Status{Code: tracepb.Status_STATUS_CODE_OK}
		}
		for _, e := range s.Events() {
			span.Events = append(span.Events, &tracepb.Span_Event{Name: e.Name, TimeUnixNano: uint64(e.Time.UnixNano()), Attributes: kvs(e.Attributes)})
		}
		rs.ScopeSpans[0].Spans = append(rs.ScopeSpans[0].Spans, span)
	}
	return td
}

// resource is the SDK's resource named as a deployed service would be.
func resource(s sdktrace.ReadOnlySpan) []attribute.KeyValue {
	out := []attribute.KeyValue{attribute.String("service.name", "trip-planner")}
	for _, a := range s.Resource().Attributes() {
		if a.Key != "service.name" {
			out = append(out, a)
		}
	}
	return out
}

func kvs(attrs []attribute.KeyValue) []*commonpb.KeyValue {
	var out []*commonpb.KeyValue
	for _, a := range attrs {
		v := &commonpb.AnyValue{}
		switch a.Value.Type() {
		case attribute.BOOL:
			v.Value = &commonpb.AnyValue_BoolValue{BoolValue: a.Value.AsBool()}
		case attribute.INT64:
			v.Value = &commonpb.AnyValue_IntValue{IntValue: a.Value.AsInt64()}
		case attribute.FLOAT64:
			v.Value = &commonpb.AnyValue_DoubleValue{DoubleValue: a.Value.AsFloat64()}
		default:
			v.Value = &commonpb.AnyValue_StringValue{StringValue: a.Value.String()}
		}
		out = append(out, &commonpb.KeyValue{Key: string(a.Key), Value: v})
	}
	return out
}

// writeOTLP writes td as a collector's file exporter would: one
// ResourceSpans a line.
func writeOTLP(t testing.TB, path string, td *tracepb.TracesData) {
	var out []byte
	for _, rs := range td.ResourceSpans {
		line, err := spans.MarshalOTLP(&tracepb.TracesData{ResourceSpans: []*tracepb.ResourceSpans{rs}})
		require.NoError(t, err)
		out = append(append(out, line...), '\n')
	}
	require.NoError(t, os.WriteFile(path, out, 0o644))
}

func TestOpenTelemetrySDKTrace(t *testing.T) {
	ended := sdkTrace(t)
	golden := filepath.Join("..", "testdata", "telemetry", "otel-sdk.jsonl")
	if *update {
		writeOTLP(t, golden, toOTLP(ended, true))
	}
	for _, split := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "traces.jsonl")
		writeOTLP(t, path, toOTLP(ended, split))
		cases, err := run.LoadAll(context.Background(), path, run.Options{})
		require.NoError(t, err)
		require.Len(t, cases, 1, "one trace, one run (split=%v)", split)
		checkTrip(t, cases[0], path, run.FormatOTLP, "run_test.CityNotFoundError: no forecast for city Olso")

		want, err := os.ReadFile(golden)
		require.NoError(t, err)
		if split {
			got, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got), "the golden file is what the SDK writes today (go test ./run -run SDK -update)")
		}
	}
}

// trip is what every format's copy of the trip reads as.
var trip = []struct {
	agent  string
	kind   run.Kind
	target string
	text   string
}{
	{"user", run.KindUser, "Planner", "What will the weather be in Oslo tomorrow, in Fahrenheit?"},
	{"Planner", run.KindToolCall, "Researcher", `transfer_to_researcher({"task":"Find tomorrow's forecast for Oslo and give it in Fahrenheit."})`},
	{"Researcher", run.KindToolCall, "", `get_forecast({"city":"Olso"})`},
	{"Researcher", run.KindToolResult, "", "(the format's error line)"},
	{"Researcher", run.KindToolCall, "", `get_forecast({"city":"Oslo"})`},
	{"Researcher", run.KindToolResult, "", `{"city":"Oslo","high_c":12,"low_c":4}`},
	{"Researcher", run.KindMessage, "", "Tomorrow in Oslo: a high of 12 °F and a low of 4 °F."},
	{"Planner", run.KindMessage, "", "Pack light: Oslo will be freezing tomorrow, 4 to 12 °F."},
}

// checkTrip checks a copy of the trip; errLine is how its format records
// the failed tool call.
func checkTrip(t *testing.T, c *run.Case, path string, format run.Format, errLine string) {
	t.Helper()
	r := c.Run
	assert.Equal(t, format, r.Format)
	assert.Equal(t, "What will the weather be in Oslo tomorrow, in Fahrenheit?", r.Question)
	assert.Equal(t, path+"#"+r.TraceID, r.Source)
	var got []string
	for _, s := range r.Steps {
		got = append(got, s.Agent+" "+string(s.Kind)+" "+s.Target()+" | "+s.Content)
	}
	var want []string
	for i, s := range trip {
		if i == 3 {
			s.text = errLine
		}
		want = append(want, s.agent+" "+string(s.kind)+" "+s.target+" | "+s.text)
	}
	assert.Equal(t, want, got)
	seen := map[string]bool{}
	for i, s := range r.Steps {
		assert.Equal(t, i, s.Index)
		assert.Equal(t, r.TraceID, s.TraceID(), "step %d", i)
		assert.NotEmpty(t, s.SpanID(), "step %d", i)
		assert.False(t, seen[s.Agent+s.Content], "step %d appears twice", i)
		seen[s.Agent+s.Content] = true
	}
	if assert.NotNil(t, c.Label) {
		assert.Equal(t, run.Label{Agent: "Researcher", Step: 6, Reason: "Researcher copied the Celsius figures as Fahrenheit instead of converting them."}, *c.Label)
	}
}
