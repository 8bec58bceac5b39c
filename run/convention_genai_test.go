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
		{
			// The Vercel AI SDK's spans (ai.*, with gen_ai.* beside them)
			// over OTLP/HTTP JSON: a planner asks a researcher, an agent
			// used as a tool, whose misspelt call fails and who reports
			// Celsius as Fahrenheit. Starts are whole milliseconds and
			// ends are not: the results come before the model calls given
			// them all the same.
			file: "ai-sdk-agents.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps: []realStep{
				{"user", run.KindUser, "What should I pack for Oslo tomorrow?"},
				{"planner", run.KindToolCall, `research({"question":"Weather in Oslo tomorrow?"})`},
				{"researcher", run.KindToolCall, `get_weather({"city":"Olso"})`},
				{"researcher", run.KindToolResult, "Error: unknown city: Olso"},
				{"researcher", run.KindToolCall, `get_weather({"city":"Oslo"})`},
				{"researcher", run.KindToolResult, `{"city":"Oslo","tempC":7,"sky":"rain"}`},
				{"researcher", run.KindMessage, "Oslo tomorrow: 7 degrees Fahrenheit and rain."},
				{"planner", run.KindToolResult, "Oslo tomorrow: 7 degrees Fahrenheit and rain."},
				{"planner", run.KindMessage, "Pack for a freezing day in Oslo: 7 °F and rain."},
			},
		},
	})
}
