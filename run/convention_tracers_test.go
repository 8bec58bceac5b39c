package run_test

import (
	"testing"

	"github.com/offattr/offattr/run"
)

// TestTracerFiles reads the records LLM tracing tools' own SDKs send:
// LangSmith's runs, Opik's spans.
func TestTracerFiles(t *testing.T) {
	checkRealFiles(t, []realFile{
		{
			// LangSmith's JavaScript SDK: traceable functions as the
			// agents (chain runs named for them) and tools, the OpenAI
			// client wrapped (llm runs holding its requests and chat
			// completions). A function's result is {"outputs": …}. The
			// AI SDK's trip again, in a loop written by hand.
			file: "langsmith-traceable-js.jsonl", format: run.FormatLangSmith, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps: []realStep{
				{"user", run.KindUser, "What should I pack for Oslo tomorrow?"},
				{"planner", run.KindToolCall, `research({"question":"Weather in Oslo tomorrow?"})`},
				{"researcher", run.KindToolCall, `get_weather({"city":"Olso"})`},
				{"researcher", run.KindToolResult, "Error: unknown city: Olso"},
				{"researcher", run.KindToolCall, `get_weather({"city":"Oslo"})`},
				{"researcher", run.KindToolResult, `"tempC":7`},
				{"researcher", run.KindMessage, "Oslo tomorrow: 7 degrees Fahrenheit and rain."},
				{"planner", run.KindMessage, "Pack for a freezing day in Oslo: 7 °F and rain."},
			},
		},
		{
			// Opik's JavaScript SDK: track() around each agent (a general
			// span) and tool, opik-openai's trackOpenAI nesting each model
			// call (typed general too) in its agent's span. Arguments are
			// {"arguments": […]}, results {"result": …}, the error
			// error_info.
			file: "opik-track-js.json", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps: []realStep{
				{"user", run.KindUser, "What should I pack for Oslo tomorrow?"},
				{"planner", run.KindToolCall, `research({"question":"Weather in Oslo tomorrow?"})`},
				{"researcher", run.KindToolCall, `get_weather({"city":"Olso"})`},
				{"researcher", run.KindToolResult, "Error: unknown city: Olso"},
				{"researcher", run.KindToolCall, `get_weather({"city":"Oslo"})`},
				{"researcher", run.KindToolResult, `"tempC":7`},
				{"researcher", run.KindMessage, "Oslo tomorrow: 7 degrees Fahrenheit and rain."},
				{"planner", run.KindMessage, "Pack for a freezing day in Oslo: 7 °F and rain."},
			},
		},
	})
}
