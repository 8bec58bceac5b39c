package run

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
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
