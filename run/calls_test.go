package run

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPromptLayerRunResults: the results of PromptLayer's run(), each a
// prompt blueprint given back with its response among its messages and
// the provider's raw response, read as the calls they are: the task, the
// model's call and its result once each, the answer once, the system
// prompt as the instructions.
func TestPromptLayerRunResults(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "calls", "promptlayer_run_results.json"))
	require.NoError(t, err)
	c, got := parsedSteps(t, string(data))
	assert.Equal(t, []string{
		"user user: How much is 250 EUR in USD?",
		`assistant tool_call: get_rate({"base": "EUR", "quote": "USD"})`,
		`assistant tool_result: {"rate": 1.087}`,
		"assistant message: 250 EUR is 217.50 USD.",
	}, got)
	assert.Equal(t, "Convert currencies with get_rate.", c.Run.Instructions)
}

// TestUntimedCallsKeepTheirOrder: a log of model calls that records no
// times keeps its calls in the file's order: a user's turn new in a later
// call comes after the earlier calls' steps, not before every step as
// "just before" an unknown start would put it.
func TestUntimedCallsKeepTheirOrder(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		want       []string
	}{
		{
			name: "no times",
			data: `{"request": {"model": "m", "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "When did it launch?"}]}, "response": {"choices": [{"message": {"role": "assistant", "content": "In 2021."}}]}}
{"request": {"model": "m", "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "When did it launch?"}, {"role": "assistant", "content": "In 2021."}, {"role": "user", "content": "How far away is it?"}]}, "response": {"choices": [{"message": {"role": "assistant", "content": "1.5 million km."}}]}}`,
			want: []string{"user user: When did it launch?", "assistant message: In 2021.", "user user: How far away is it?", "assistant message: 1.5 million km."},
		},
		{
			name: "timed",
			data: `{"start_time": 100, "request": {"model": "m", "messages": [{"role": "user", "content": "When did it launch?"}]}, "response": {"choices": [{"message": {"role": "assistant", "content": "In 2021."}}]}}
{"start_time": 160, "request": {"model": "m", "messages": [{"role": "user", "content": "When did it launch?"}, {"role": "assistant", "content": "In 2021."}, {"role": "user", "content": "How far away is it?"}]}, "response": {"choices": [{"message": {"role": "assistant", "content": "1.5 million km."}}]}}`,
			want: []string{"user user: When did it launch?", "assistant message: In 2021.", "user user: How far away is it?", "assistant message: 1.5 million km."},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, got := parsedSteps(t, tc.data)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestSearchResultsBeforeTheAnswer: a search-grounded completion's
// "search_results" (Perplexity's) are what its search fetched for the
// answer: a tool result of the answer's speaker, before the answer, each
// page's snippet after its title and address.
func TestSearchResultsBeforeTheAnswer(t *testing.T) {
	data := `{"request": {"model": "sonar", "messages": [{"role": "user", "content": "How far is L2?"}]}, ` +
		`"response": {"id": "r1", "model": "sonar", "object": "chat.completion", "citations": ["https://example.org/l2"], ` +
		`"search_results": [{"title": "L2", "url": "https://example.org/l2", "snippet": "L2 is 1.5 million km from Earth."}, {"title": "No snippet", "url": "https://example.org/x"}], ` +
		`"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "About 15 million km[1]."}}]}}` + "\n"
	_, got := parsedSteps(t, data)
	assert.Equal(t, []string{
		"user user: How far is L2?",
		"assistant tool_result: L2 (https://example.org/l2): L2 is 1.5 million km from Earth.",
		"assistant message: About 15 million km[1].",
	}, got)
}
