package run

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRerankerSpanIsAStep reads an OpenInference RERANKER span as a
// retrieval: the chunks it keeps (reranker.output_documents) are a step,
// so a reranker that keeps the wrong chunk can be named.
func TestRerankerSpanIsAStep(t *testing.T) {
	var l spanList
	l.add("s1", "", 0, map[string]any{"name": "query", "openinference.span.kind": "CHAIN", "input.value": "When was the Mercury Tower in Malta completed?"})
	l.add("s2", "s1", 10, map[string]any{"name": "VectorIndexRetriever.retrieve", "openinference.span.kind": "RETRIEVER", "input.value": "Mercury Tower Malta",
		"retrieval.documents.0.document.content": "Mercury Tower in Malta was completed in 2021.",
		"retrieval.documents.1.document.content": "Mercury City Tower in Moscow was completed in 2013."})
	l.add("s3", "s1", 20, map[string]any{"name": "CohereRerank.postprocess_nodes", "openinference.span.kind": "RERANKER", "reranker.query": "Mercury Tower Malta",
		"reranker.input_documents.0.document.content":  "Mercury Tower in Malta was completed in 2021.",
		"reranker.input_documents.1.document.content":  "Mercury City Tower in Moscow was completed in 2013.",
		"reranker.output_documents.0.document.content": "Mercury City Tower in Moscow was completed in 2013."})
	l.llm("s4", "s1", 30, "It was completed in 2013.")
	var reranked []string
	for _, s := range l.kindsAndTexts(t) {
		if strings.HasPrefix(s, "tool_result: ") && strings.HasSuffix(s, "Mercury City Tower in Moscow was completed in 2013.") && !strings.Contains(s, "2021") {
			reranked = append(reranked, s)
		}
	}
	assert.Len(t, reranked, 1, "%q", l.kindsAndTexts(t))
}

// TestRetrievalQueryWrittenByModel reads a retrieval that a pipeline runs
// on a model's rewrite of the question as that message's call, with the
// query as its argument, whatever the query's case or quotes and whether
// the retriever was given it as text or in a JSON object; a reranking
// after it is a call of its own. A retrieval given another query than the
// message (the question itself) stays that message's action, written
// into its result.
func TestRetrievalQueryWrittenByModel(t *testing.T) {
	for _, tc := range []struct {
		name, rewrite, input string
		want                 []string // the steps, "kind: text", past the task
	}{
		{"the query as text", "Northwind net interest margin", "Northwind net interest margin", []string{
			"tool_call: Northwind net interest margin",
			"tool_result: Net interest margin was 2.9% in 2022.",
			"tool_call: CohereRerank.postprocess_nodes(Northwind net interest margin)",
			"tool_result: Net interest margin was 2.9% in 2022.",
			"message: It was 2.9%."}},
		{"the query quoted, in a JSON object", `"Northwind Net Interest  Margin"`, `{"query": "northwind net interest margin", "top_k": 2}`, []string{
			`tool_call: "Northwind Net Interest  Margin"`,
			"tool_result: Net interest margin was 2.9% in 2022.",
			"tool_call: CohereRerank.postprocess_nodes(Northwind net interest margin)",
			"tool_result: Net interest margin was 2.9% in 2022.",
			"message: It was 2.9%."}},
		{"another query than the message", "Northwind net interest margin", "What was Northwind's net interest margin in 2024?", []string{
			"message: Northwind net interest margin",
			"tool_result: VectorIndexRetriever.retrieve(What was Northwind's net interest margin in 2024?) -> Net interest margin was 2.9% in 2022.",
			"tool_call: CohereRerank.postprocess_nodes(Northwind net interest margin)",
			"tool_result: Net interest margin was 2.9% in 2022.",
			"message: It was 2.9%."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l spanList
			l.add("s1", "", 0, map[string]any{"name": "query", "openinference.span.kind": "CHAIN", "input.value": "What was Northwind's net interest margin in 2024?"})
			l.llm("s2", "s1", 10, tc.rewrite)
			l.add("s3", "s1", 20, map[string]any{"name": "VectorIndexRetriever.retrieve", "openinference.span.kind": "RETRIEVER", "input.value": tc.input,
				"retrieval.documents.0.document.content": "Net interest margin was 2.9% in 2022."})
			l.add("s4", "s1", 30, map[string]any{"name": "CohereRerank.postprocess_nodes", "openinference.span.kind": "RERANKER", "reranker.query": "Northwind net interest margin",
				"reranker.input_documents.0.document.content":  "Net interest margin was 2.9% in 2022.",
				"reranker.output_documents.0.document.content": "Net interest margin was 2.9% in 2022."})
			l.llm("s5", "s1", 40, "It was 2.9%.")
			got := l.kindsAndTexts(t)
			require.NotEmpty(t, got)
			assert.Equal(t, tc.want, got[1:])
		})
	}
}

// TestGenAIRetrievalSpan reads a GenAI retrieval span (gen_ai.operation.name
// retrieval) as a retrieval: its query (gen_ai.retrieval.query.text) the
// call's argument, and the documents it retrieved
// (gen_ai.retrieval.documents) its result; a
// pipeline's model call that wrote the query made the call.
func TestGenAIRetrievalSpan(t *testing.T) {
	const docs = `[{"id": "fjord-2023#18", "score": 0.88, "content": "On-time departures reached 94.1% in 2023."}]`
	chat := func(in, out string) map[string]any {
		return map[string]any{"name": "chat gpt-4o", "gen_ai.operation.name": "chat",
			"gen_ai.input.messages":  `[{"role": "user", "parts": [{"type": "text", "content": "` + in + `"}]}]`,
			"gen_ai.output.messages": `[{"role": "assistant", "parts": [{"type": "text", "content": "` + out + `"}]}]`}
	}
	var l spanList
	l.add("s1", "", 0, map[string]any{"name": "rag_pipeline", "gen_ai.operation.name": "invoke_workflow"})
	l.add("s2", "s1", 10, chat("What was Fjordline's on-time rate in 2023?", "Fjordline on-time departure rate"))
	l.add("s3", "s1", 20, map[string]any{"name": "retrieval fjordline-docs", "gen_ai.operation.name": "retrieval", "gen_ai.data_source.id": "fjordline-docs",
		"gen_ai.retrieval.query.text": "Fjordline on-time departure rate", "gen_ai.retrieval.documents": docs})
	l.add("s4", "s1", 30, chat("Answer from the documents.", "It was 94.1%."))
	got := l.kindsAndTexts(t)
	assert.Contains(t, got, "tool_call: Fjordline on-time departure rate")
	assert.Contains(t, got, "tool_result: "+docs)
}
