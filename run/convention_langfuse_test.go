package run_test

import (
	"testing"

	"github.com/offattr/offattr/run"
)

// TestLangfuseFiles reads cuts of real files that follow Langfuse's observations, with each framework's own message shapes in their input and output.
func TestLangfuseFiles(t *testing.T) {
	checkRealFiles(t, []realFile{
		{
			file: "langfuse-langgraph.trace.json", format: run.FormatLangfuse, runs: 1,
			contains: []string{`The search for "example" primarily leads`},
		},
		{
			file: "langfuse-google-adk.trace.json", format: run.FormatLangfuse, runs: 1,
			agents:   []string{"hello_agent"}, // named by its span, agent_run [hello_agent]
			contains: []string{"Hello Langfuse"},
		},
		{
			file: "langfuse-pydantic-ai.trace.json", format: run.FormatLangfuse, runs: 1,
			agents:   []string{"joke_agent", "evaluator_agent"},
			contains: []string{"Why do programmers hate nature?"},
		},
	})
}
