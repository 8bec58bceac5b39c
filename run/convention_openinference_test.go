package run_test

import (
	"testing"

	"github.com/offattr/offattr/run"
)

// TestOpenInferenceFiles reads cuts of real files that follow OpenInference's spans, and files no convention names whose messages are found by their shape.
func TestOpenInferenceFiles(t *testing.T) {
	checkRealFiles(t, []realFile{
		{
			file: "trail-smolagents.json", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"CodeAgent", "search_agent", "gaia-annotation-samples/app:GAIA-Samples"}, // the sub-agent by the name its manager declares
			question: "(the GAIA question, withheld: GAIA asks that its questions not be reposted)",
			contains: []string{
				"TypeError: PageDownTool.forward() got an unexpected keyword argument ''",
				"Execution logs:", // the manager's code ran with no tool span: its iteration's output
				"FINAL ANSWER: Louvrier",
			},
		},
		{
			file: "adot-claude.json", format: run.FormatOpenInference, runs: 1,
			question: "What is 42 * 7, and how many miles is that in kilometers?",
			contains: []string{`echo $((42 * 7))`},
		},
		{
			file: "adot-openinference.json", format: run.FormatOpenInference, runs: 2,
			contains: []string{"The weather in Alaska is -5C and snowy."},
		},
	})
}
