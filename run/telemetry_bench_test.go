package run_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/run/spans"
)

// The scale the issue asks for: a collector's file of 50,000 spans, about
// 100 MB, read into runs.
const (
	benchTraces        = 500
	benchSpansPerTrace = 100 // 50,000 spans
	benchSpansPerLine  = 200 // a collector flushes a batch a line, traces interleaved
)

// benchFile writes (once, into the temporary directory, where later runs
// find it) an OTLP/JSON file as the Collector's file exporter writes it.
// Each trace is a Planner whose turns alternate a chat call (the recent
// history in, about 1.5 kB out) and a tool call (arguments in, about
// 0.5 kB out), with a Researcher sub-agent and a failing call.
func benchFile(b *testing.B) string {
	b.Helper()
	return benchFileOnce(b, fmt.Sprintf("offattr-bench-otlp-%d-%d.jsonl", benchTraces, benchSpansPerTrace), func(w *bufio.Writer) {
		writeOTLPBench(b, w)
	})
}

// writeOTLPBench writes benchFile's traces to w.
func writeOTLPBench(b *testing.B, w *bufio.Writer) {
	var line []*tracepb.Span
	flush := func() {
		td := &tracepb.TracesData{ResourceSpans: []*tracepb.ResourceSpans{{
			Resource:   &resourcepb.Resource{Attributes: []*commonpb.KeyValue{kv("service.name", "trip-planner")}},
			ScopeSpans: []*tracepb.ScopeSpans{{Scope: &commonpb.InstrumentationScope{Name: "bench"}, Spans: line}},
		}}}
		data, err := spans.MarshalOTLP(td)
		if err != nil {
			b.Fatal(err)
		}
		w.Write(data)
		w.WriteByte('\n')
		line = line[:0]
	}
	prose := strings.Repeat("The forecast for Oslo shows a high of 12 degrees and a low of 4 degrees with rain by evening. ", 12)
	result := strings.Repeat(`{"city":"Oslo","high_c":12,"low_c":4,"rain_mm":3.5},`, 10)
	// Two traces at a time, their spans interleaved on the lines.
	for t := 0; t < benchTraces; t += 2 {
		a, c := benchTrace(t, prose, result), benchTrace(t+1, prose, result)
		for i := range a {
			line = append(line, a[i], c[i])
			if len(line) >= benchSpansPerLine {
				flush()
			}
		}
	}
	if len(line) > 0 {
		flush()
	}
}

// benchFileOnce is the file name in the temporary directory, written by
// write the first time a benchmark asks for it (through a temporary name,
// so that an interrupted write is never taken for the file) and found
// there by later runs.
func benchFileOnce(b *testing.B, name string, write func(w *bufio.Writer)) string {
	b.Helper()
	path := filepath.Join(os.TempDir(), name)
	if _, err := os.Stat(path); err == nil {
		return path
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	write(w)
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	return path
}

func kv(k, v string) *commonpb.KeyValue {
	return &commonpb.KeyValue{Key: k, Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: v}}}
}

// benchTrace makes the spans of trace n, benchSpansPerTrace of them.
func benchTrace(n int, prose, result string) []*tracepb.Span {
	tid := make([]byte, 16)
	copy(tid, fmt.Sprintf("trace%011d", n))
	sid := func(i int) []byte { return []byte(fmt.Sprintf("%08d", i)) }
	t0 := uint64(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC).UnixNano()) + uint64(n)*1e9
	mk := func(i, parent int, name string, attrs ...*commonpb.KeyValue) *tracepb.Span {
		s := &tracepb.Span{TraceId: tid, SpanId: sid(i), Name: name, Kind: tracepb.Span_SPAN_KIND_INTERNAL,
			StartTimeUnixNano: t0 + uint64(i)*1e6, EndTimeUnixNano: t0 + uint64(i)*1e6 + 5e5, Attributes: attrs}
		if parent >= 0 {
			s.ParentSpanId = sid(parent)
		}
		return s
	}
	out := []*tracepb.Span{
		mk(0, -1, "invoke_agent Planner", kv("gen_ai.operation.name", "invoke_agent"), kv("gen_ai.agent.name", "Planner"),
			kv("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"What will the weather be in Oslo tomorrow?"}]}]`)),
		mk(1, 0, "invoke_agent Researcher", kv("gen_ai.operation.name", "invoke_agent"), kv("gen_ai.agent.name", "Researcher")),
	}
	last := `{"role":"user","parts":[{"type":"text","content":"What will the weather be in Oslo tomorrow?"}]}`
	for i := 2; len(out) < benchSpansPerTrace; i += 2 {
		agent := 0
		if i < benchSpansPerTrace/2 {
			agent = 1
		}
		id := fmt.Sprintf("call_%d", i)
		answer := fmt.Sprintf(`{"role":"assistant","parts":[{"type":"text","content":"Turn %d. %s"},{"type":"tool_call","id":"%s","name":"get_forecast","arguments":{"city":"Oslo","day":%d}}]}`, i, prose, id, i)
		out = append(out, mk(i, agent, "chat gpt-4o", kv("gen_ai.operation.name", "chat"), kv("gen_ai.request.model", "gpt-4o"),
			kv("gen_ai.input.messages", "["+last+"]"), kv("gen_ai.output.messages", "["+answer+"]")))
		tool := mk(i+1, agent, "execute_tool get_forecast", kv("gen_ai.operation.name", "execute_tool"), kv("gen_ai.tool.name", "get_forecast"),
			kv("gen_ai.tool.call.id", id), kv("gen_ai.tool.call.arguments", fmt.Sprintf(`{"city":"Oslo","day":%d}`, i)),
			kv("gen_ai.tool.call.result", "["+result+"null]"))
		if i%20 == 0 {
			tool.Status = &tracepb.Status{Code: tracepb.Status_STATUS_CODE_ERROR, Message: "upstream timed out"}
		}
		out = append(out, tool)
		last = answer
	}
	return out[:benchSpansPerTrace]
}

// BenchmarkLoadOTLP reads the 100 MB collector file into runs: the time a
// run takes, and the peak heap in use while it does.
func BenchmarkLoadOTLP(b *testing.B) {
	path := benchFile(b)
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	peak := peakHeap()
	b.SetBytes(info.Size())
	b.ResetTimer()
	var steps int
	for range b.N {
		cases, err := run.LoadAll(context.Background(), path, run.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(cases) != benchTraces {
			b.Fatalf("%d runs, want %d", len(cases), benchTraces)
		}
		steps = 0
		for _, c := range cases {
			steps += len(c.Run.Steps)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(info.Size())/1e6, "file-MB")
	b.ReportMetric(benchTraces*benchSpansPerTrace, "spans")
	b.ReportMetric(float64(steps), "steps")
	b.ReportMetric(float64(peak())/(1<<20), "peak-heap-MiB")
}

// peakHeap samples the heap in use until the function it returns is
// called, which returns the most it saw.
func peakHeap() func() uint64 {
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return func() uint64 {
		close(stop)
		<-done
		return peak.Load()
	}
}
