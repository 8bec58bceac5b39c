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
