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
		{
			// Langfuse's JS SDK's own spans over OTLP (its observation
			// types in lower case, an error as the observation's level):
			// a coordinator asks an analyst, an agent called as a tool,
			// whose CRM query fails and who answers all the same.
			file: "langfuse-sdk-otel.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"coordinator", "analyst"},
			question: "Summarise Q3 revenue for the ACME account from the CRM.",
			steps: []realStep{
				{"user", run.KindUser, "Summarise Q3 revenue for the ACME account from the CRM."},
				{"coordinator", run.KindToolCall, `ask_analyst({"question":"ACME Q3 revenue"})`},
				{"analyst", run.KindToolCall, `crm_query({"account":"ACME","quarter":"2026-Q3"})`},
				{"analyst", run.KindToolResult, "Error: CRM session expired (401)"},
				{"analyst", run.KindMessage, "ACME Q3 revenue was 4.2M USD, up 12%."},
				{"coordinator", run.KindMessage, "ACME closed Q3 with 4.2M USD revenue (+12%)."},
			},
		},
	})
}
