package run_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/offattr/offattr/run"
)

// benchElasticTraces is how many traces the Elastic file holds: about
// 8 kB each, some 32 MB.
const benchElasticTraces = 4000

// benchElasticFile writes (once, into the temporary directory) Elastic
// APM's documents one a line, as a search's export writes them: each
// trace an agent's transaction, a failed tool span with an error document,
// and a model call's span, the attributes kept as labels with the dots
// made underscores.
func benchElasticFile(b *testing.B) string {
	b.Helper()
	return benchFileOnce(b, fmt.Sprintf("offattr-bench-elastic-%d.jsonl", benchElasticTraces), writeElasticBench)
}

// writeElasticBench writes benchElasticFile's documents to w.
func writeElasticBench(w *bufio.Writer) {
	text := strings.Repeat("Find a hotel in Porto for three nights from the 4th. ", 30)
	for i := range benchElasticTraces {
		trace := fmt.Sprintf("%032x", i+1)
		fmt.Fprintf(w, `{"@timestamp":"2026-11-19T10:00:00.000Z","processor":{"event":"transaction"},"trace":{"id":%q},"timestamp":{"us":1795600000000000},"transaction":{"id":"a3f1c2d4e5b60718","name":"Agent workflow","duration":{"us":5000000}},"event":{"outcome":"success"},"service":{"name":"travel-desk"},"labels":{"openinference_span_kind":"AGENT","agent_name":"Hotel Agent","input_value":%q}}`+"\n", trace, text)
		fmt.Fprintf(w, `{"@timestamp":"2026-11-19T10:00:01.000Z","processor.event":"span","trace.id":%q,"parent.id":"a3f1c2d4e5b60718","transaction.id":"a3f1c2d4e5b60718","timestamp.us":1795600001000000,"span":{"id":"b1c2d3e4f5061728","name":"search_hotels","duration.us":1500},"event.outcome":"failure","service.name":"travel-desk","labels":{"openinference_span_kind":"TOOL","tool_name":"search_hotels","input_value":%q}}`+"\n", trace, text)
		fmt.Fprintf(w, `{"@timestamp":"2026-11-19T10:00:01.002Z","processor":{"event":"error"},"trace":{"id":%q},"parent":{"id":"b1c2d3e4f5061728"},"transaction":{"id":"a3f1c2d4e5b60718","name":"Agent workflow","sampled":true},"timestamp":{"us":1795600001002000},"error":{"id":"e1","exception":[{"message":"rate limited","type":"RateLimitError"}]},"service":{"name":"travel-desk"}}`+"\n", trace)
		fmt.Fprintf(w, `{"@timestamp":"2026-11-19T10:00:02.000Z","processor":{"event":"span"},"trace":{"id":%q},"parent":{"id":"a3f1c2d4e5b60718"},"timestamp":{"us":1795600002000000},"span":{"id":"c1c2d3e4f5061728","name":"chat","duration":{"us":900}},"service":{"name":"travel-desk"},"labels":{"openinference_span_kind":"LLM","llm_input_messages_0_message_role":"user","llm_input_messages_0_message_content":%q,"llm_output_messages_0_message_role":"assistant","llm_output_messages_0_message_content":%q}}`+"\n", trace, text, text)
	}
}

// BenchmarkLoadElastic reads Elastic APM's documents, one a line, into
// runs, and reports the heap in use at its peak beside the file's size:
// the file is read whole once, and what is decoded from it must not hold
// several more copies of it.
func BenchmarkLoadElastic(b *testing.B) {
	path := benchElasticFile(b)
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	peak := peakHeap()
	b.ReportAllocs()
	b.SetBytes(info.Size())
	b.ResetTimer()
	for range b.N {
		cases, err := run.LoadAll(context.Background(), path, run.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(cases) != benchElasticTraces {
			b.Fatalf("%d runs, want %d", len(cases), benchElasticTraces)
		}
	}
	b.StopTimer()
	most := peak()
	b.ReportMetric(float64(info.Size())/1e6, "file-MB")
	b.ReportMetric(float64(most)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(most)/float64(info.Size()), "peak-heap/file")
}
