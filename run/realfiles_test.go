package run_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestRealFiles reads the cuts of real trace files in testdata/traces
// (their README says where each comes from): every trace is a run, with the
// agents, steps and task the spans give.
func TestRealFiles(t *testing.T) {
	tests := []struct {
		file     string
		format   run.Format
		runs     int
		agents   []string // of the first run, the task giver left out
		question string
		contains []string // texts some step of the first run holds
	}{
		{
			file: "trail-smolagents.json", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"CodeAgent", "ToolCallingAgent", "gaia-annotation-samples/app:GAIA-Samples"},
			question: "(the GAIA question, withheld: GAIA asks that its questions not be reposted)",
			contains: []string{
				"TypeError: PageDownTool.forward() got an unexpected keyword argument ''",
				"Execution logs:", // the manager's code ran with no tool span: its iteration's output
				"FINAL ANSWER: Louvrier",
			},
		},
		{
			file: "langfuse-langgraph.trace.json", format: run.FormatLangfuse, runs: 1,
			contains: []string{`The search for "example" primarily leads`},
		},
		{
			file: "adot-openinference.json", format: run.FormatOpenInference, runs: 2,
			contains: []string{"The weather in Alaska is -5C and snowy."},
		},
		{
			file: "openai-agents-genai.json", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"coordinator", "research_specialist", "math_specialist"},
			question: "Look up the stock price for AMZN, then calculate what 1000 shares would be worth by multiplying the price by 1000.",
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
			file: "any-agent-openai.json", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"any_agent"},
			contains: []string{`"timezone": "America/New_York"`},
		},
		{
			file: "adot-claude.json", format: run.FormatOpenInference, runs: 1,
			question: "What is 42 * 7, and how many miles is that in kilometers?",
			contains: []string{`echo $((42 * 7))`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join("..", "testdata", "traces", tt.file)
			cases, err := run.LoadAll(context.Background(), path, run.Options{})
			require.NoError(t, err)
			require.Len(t, cases, tt.runs)
			r := cases[0].Run
			assert.Equal(t, tt.format, r.Format)
			if tt.agents != nil {
				var agents []string
				for _, a := range r.Agents() {
					if a != "user" {
						agents = append(agents, a)
					}
				}
				assert.Equal(t, tt.agents, agents)
			}
			if tt.question != "" {
				assert.Equal(t, tt.question, r.Question)
			}
			var all strings.Builder
			for _, s := range r.Steps {
				all.WriteString(s.Content + "\n")
				assert.NotEmpty(t, s.From, "step %d says where its text was read", s.Index)
			}
			for _, c := range tt.contains {
				assert.Contains(t, all.String(), c)
			}
		})
	}
}
