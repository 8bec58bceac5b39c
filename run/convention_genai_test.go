package run_test

import (
	"testing"

	"github.com/offattr/offattr/run"
)

// TestGenAIFiles reads cuts of real files that follow OpenTelemetry's GenAI conventions.
func TestGenAIFiles(t *testing.T) {
	checkRealFiles(t, []realFile{
		{
			file: "openai-agents-genai.json", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"coordinator", "research_specialist", "math_specialist"},
			question: "Look up the stock price for AMZN, then calculate what 1000 shares would be worth by multiplying the price by 1000.",
		},
		{
			file: "any-agent-openai.json", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"any_agent"},
			contains: []string{`"timezone": "America/New_York"`},
		},
	})
}
