package spans

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// elasticDocs are Elastic APM's documents of one trace: a transaction,
// a span under it that failed, written with dotted fields, an error that
// names that span, and a metric's document.
var elasticDocs = []string{
	`{"@timestamp":"2026-11-19T10:00:00.000Z","processor":{"event":"transaction"},"trace":{"id":"4bf92f3577b34da6a3ce929d0e0e4736"},"timestamp":{"us":1795600000000000},"transaction":{"id":"a3f1c2d4e5b60718","name":"Agent workflow","duration":{"us":5000000}},"event":{"outcome":"success"},"service":{"name":"travel-desk"},"labels":{"openinference_span_kind":"CHAIN"}}`,
	`{"@timestamp":"2026-11-19T10:00:01.000Z","processor.event":"span","trace.id":"4bf92f3577b34da6a3ce929d0e0e4736","parent.id":"a3f1c2d4e5b60718","transaction.id":"a3f1c2d4e5b60718","timestamp.us":1795600001000000,"span":{"id":"b1c2d3e4f5061728","name":"search_hotels","duration.us":1500},"event.outcome":"failure","service.name":"travel-desk","labels":{"tool_name":"search_hotels"},"numeric_labels":{"llm_token_count_prompt":96}}`,
	`{"@timestamp":"2026-11-19T10:00:01.002Z","processor":{"event":"error"},"trace":{"id":"4bf92f3577b34da6a3ce929d0e0e4736"},"parent":{"id":"b1c2d3e4f5061728"},"transaction":{"id":"a3f1c2d4e5b60718","name":"Agent workflow","sampled":true},"timestamp":{"us":1795600001002000},"error":{"id":"e1","exception":[{"message":"rate limited","type":"RateLimitError"}]},"service":{"name":"travel-desk"}}`,
	`{"@timestamp":"2026-11-19T10:00:02.000Z","processor":{"event":"metric"},"trace":{"id":"4bf92f3577b34da6a3ce929d0e0e4736"},"timestamp":{"us":1795600002000000},"transaction":{"name":"Agent workflow","duration.summary":{"sum.us":5000000}},"service":{"name":"travel-desk"}}`,
}

// elasticHit wraps a document as a search hit.
func elasticHit(doc string) string {
	return `{"_index":".ds-traces-apm-default-2026.11.19-000001","_id":"x","_score":null,"_source":` + doc + `}`
}

// TestElastic: Elastic APM's documents, as a search answers them, as its
// hits one a line and as the documents one a line, are spans: the ECS
// fields nested or dotted, the labels their attributes as written, the
// outcome their status, an error an exception event of the span it
// names; a metric's document is none.
func TestElastic(t *testing.T) {
	hits := make([]string, len(elasticDocs))
	for i, d := range elasticDocs {
		hits[i] = elasticHit(d)
	}
	inputs := map[string]string{
		"search answer":  `{"took":3,"timed_out":false,"hits":{"total":{"value":4,"relation":"eq"},"max_score":null,"hits":[` + strings.Join(hits, ",") + `]}}`,
		"hits as lines":  strings.Join(hits, "\n"),
		"documents":      strings.Join(elasticDocs, "\n"),
		"document array": "[" + strings.Join(elasticDocs, ",") + "]",
		"an error's fields dotted": strings.Join([]string{elasticDocs[0], elasticDocs[1],
			`{"@timestamp":"2026-11-19T10:00:01.002Z","processor.event":"error","trace.id":"4bf92f3577b34da6a3ce929d0e0e4736","parent.id":"b1c2d3e4f5061728","transaction.id":"a3f1c2d4e5b60718","timestamp.us":1795600001002000,"error.id":"e1","error.exception":[{"message":"rate limited","type":"RateLimitError"}],"service.name":"travel-desk"}`,
			elasticDocs[3]}, "\n"),
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			require.Equal(t, OpenInference, Detect([]byte(in)))
			ss, err := Decode(context.Background(), []byte(in), OpenInference)
			require.NoError(t, err)
			require.Len(t, ss, 2)
			root, tool := ss[0], ss[1]
			assert.Equal(t, "4bf92f3577b34da6a3ce929d0e0e4736", root.TraceID)
			assert.Equal(t, "a3f1c2d4e5b60718", root.SpanID)
			assert.Empty(t, root.ParentID)
			assert.Equal(t, "Agent workflow", root.Name)
			assert.Equal(t, int64(1795600000000000000), root.Start)
			assert.Equal(t, int64(5000000000), root.End-root.Start)
			assert.Equal(t, "CHAIN", root.Attrs.Str("openinference_span_kind"))
			assert.Equal(t, "travel-desk", root.Resource.Str("service.name"))
			assert.True(t, root.Undotted, "its labels' names")
			assert.NotEqual(t, StatusError, root.Status.Code)

			assert.Equal(t, "b1c2d3e4f5061728", tool.SpanID)
			assert.Equal(t, root.SpanID, tool.ParentID)
			assert.Equal(t, "search_hotels", tool.Name)
			assert.Equal(t, int64(1500000), tool.End-tool.Start)
			assert.Equal(t, StatusError, tool.Status.Code)
			assert.Equal(t, "search_hotels", tool.Attrs.Str("tool_name"))
			assert.Equal(t, "96", tool.Attrs.Str("llm_token_count_prompt"))
			require.Len(t, tool.Events, 1)
			assert.Equal(t, "exception", tool.Events[0].Name)
			assert.Equal(t, "rate limited", tool.Events[0].Attrs.Str("exception.message"))
			assert.Equal(t, "RateLimitError", tool.Events[0].Attrs.Str("exception.type"))
		})
	}
}

// elasticOTelAnswer is a search answer of Elastic's OpenTelemetry-native
// documents: the attributes kept dotted, the duration in nanoseconds.
const elasticOTelAnswer = `{"took":2,"hits":{"hits":[` +
	`{"_index":".ds-traces-generic.otel-default-2026.11.19-000001","_id":"a","_source":{"@timestamp":"2026-11-19T10:00:00.000000000Z","data_stream":{"type":"traces","dataset":"generic.otel","namespace":"default"},"trace_id":"4bf92f3577b34da6a3ce929d0e0e4736","span_id":"a3f1c2d4e5b60718","name":"invoke_agent Supervisor","kind":"Internal","duration":5000000000,"attributes":{"gen_ai.operation.name":"invoke_agent","gen_ai.agent.name":"Supervisor"},"resource":{"attributes":{"service.name":"desk"}},"status":{"code":"Unset"}}},` +
	`{"_index":".ds-traces-generic.otel-default-2026.11.19-000001","_id":"b","_source":{"@timestamp":"2026-11-19T10:00:01.000000000Z","trace_id":"4bf92f3577b34da6a3ce929d0e0e4736","span_id":"b1c2d3e4f5061728","parent_span_id":"a3f1c2d4e5b60718","name":"execute_tool search","kind":"Internal","duration":1500000,"attributes":{"gen_ai.operation.name":"execute_tool","gen_ai.tool.name":"search"},"resource":{"attributes":{"service.name":"desk"}},"status":{"code":"Error"}}}` +
	`]}}`

// TestElasticOTelLog: a log's document among the spans' names its span
// and is none.
func TestElasticOTelLog(t *testing.T) {
	log := `{"_index":".ds-logs-generic.otel-default-2026.11.19-000001","_id":"c","_source":{"@timestamp":"2026-11-19T10:00:01.100000000Z","data_stream":{"type":"logs"},"trace_id":"4bf92f3577b34da6a3ce929d0e0e4736","span_id":"b1c2d3e4f5061728","severity_text":"ERROR","body":{"text":"search failed"}}}`
	in := strings.Replace(elasticOTelAnswer, `]}}`, `,`+log+`]}}`, 1)
	ss, err := Decode(context.Background(), []byte(in), OpenInference)
	require.NoError(t, err)
	assert.Len(t, ss, 2)
}

// TestElasticOTel: Elastic's OpenTelemetry-native documents are spans as
// written, their start the document's time, their end its duration
// later, their resource's attributes the resource.
func TestElasticOTel(t *testing.T) {
	require.Equal(t, OpenInference, Detect([]byte(elasticOTelAnswer)))
	ss, err := Decode(context.Background(), []byte(elasticOTelAnswer), OpenInference)
	require.NoError(t, err)
	require.Len(t, ss, 2)
	root, tool := ss[0], ss[1]
	assert.Equal(t, "a3f1c2d4e5b60718", root.SpanID)
	assert.Equal(t, "invoke_agent", root.Attrs.Str("gen_ai.operation.name"))
	assert.Equal(t, "desk", root.Resource.Str("service.name"))
	assert.False(t, root.Undotted, "its attributes' names as written")
	assert.Equal(t, int64(1795082400000000000), root.Start)
	assert.Equal(t, int64(5000000000), root.End-root.Start)
	assert.Equal(t, root.SpanID, tool.ParentID)
	assert.Equal(t, int64(1500000), tool.End-tool.Start)
	assert.Equal(t, StatusError, tool.Status.Code)
}

func FuzzElastic(f *testing.F) {
	f.Add([]byte(`{"hits":{"hits":[` + elasticHit(elasticDocs[0]) + `,` + elasticHit(elasticDocs[1]) + `]}}`))
	f.Add([]byte(strings.Join(elasticDocs, "\n")))
	f.Add([]byte(elasticOTelAnswer))
	fuzzDecode(f, OpenInference)
}

// TestElasticOTelDocuments: Elastic's OpenTelemetry-native documents one
// a line, outside a search answer (as an export of the index writes
// them), are read as their hits are: the start the document's time, the
// end its duration later, the resource its attributes.
func TestElasticOTelDocuments(t *testing.T) {
	var answer struct {
		Hits struct {
			Hits []struct {
				Source json.RawMessage `json:"_source"`
			} `json:"hits"`
		} `json:"hits"`
	}
	require.NoError(t, json.Unmarshal([]byte(elasticOTelAnswer), &answer))
	var docs []string
	for _, h := range answer.Hits.Hits {
		docs = append(docs, string(h.Source))
	}
	in := strings.Join(docs, "\n")
	require.Equal(t, OpenInference, Detect([]byte(in)))
	ss, err := Decode(context.Background(), []byte(in), OpenInference)
	require.NoError(t, err)
	require.Len(t, ss, 2)
	root, tool := ss[0], ss[1]
	assert.Equal(t, "a3f1c2d4e5b60718", root.SpanID)
	assert.Equal(t, int64(1795082400000000000), root.Start)
	assert.Equal(t, int64(5000000000), root.End-root.Start)
	assert.Equal(t, "desk", root.Resource.Str("service.name"))
	assert.Equal(t, root.SpanID, tool.ParentID)
	assert.Equal(t, int64(1500000), tool.End-tool.Start)
}
