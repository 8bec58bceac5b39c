package run_test

import (
	"slices"
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
			steps:    aiSDKStepsSortedKeys,
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
			steps:    aiSDKStepsSortedKeys,
		},
	})
}

// aiSDKStepsSortedKeys are aiSDKSteps as SDKs that write a tool's result
// with its keys sorted give them.
var aiSDKStepsSortedKeys = func() []realStep {
	steps := slices.Clone(aiSDKSteps)
	steps[5].contains = `{"city":"Oslo","sky":"rain","tempC":7}`
	return steps
}()
