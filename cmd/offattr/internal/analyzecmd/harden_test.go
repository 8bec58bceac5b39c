package analyzecmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/rules"
)

func TestAnalyzeReadsStdin(t *testing.T) {
	path := filepath.Join("..", "..", "..", "..", "testdata", "runs", "magentic.json")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	out, _, err := cmdutil.ExecuteWithInput(func(io *cmdutil.IOStreams) *cobra.Command { return NewCmdAnalyze(io, nil) },
		strings.NewReader(string(data)), "-")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(out, "-\n  agent       WebSurfer\n  step        7\n"), out)
}

func TestAnalyzeInputFormatAndDeprecatedAlias(t *testing.T) {
	for _, flag := range []string{"--input-format", "--format"} {
		var got *AnalyzeOptions
		cmd := NewCmdAnalyze(&cmdutil.IOStreams{}, func(o *AnalyzeOptions) error { got = o; return nil })
		cmd.SetArgs([]string{"run.json", flag, "transcript"})
		require.NoError(t, cmd.Execute())
		assert.Equal(t, "transcript", got.Load.Format, flag)
	}
	assert.NotEmpty(t, NewCmdAnalyze(&cmdutil.IOStreams{}, nil).Flags().Lookup("format").Deprecated)
}

func TestWriteTextEscapesWhatCameFromTheLog(t *testing.T) {
	forged := "WebSurfer\n  step 0\n  confidence 0.99\x1b[8m"
	a := rules.Attribution{
		File: "run.json", Agent: forged, Step: 7, Confidence: 0.42, Mode: rules.ModeRules,
		Rationale:  "Step 7 (" + forged + ") is the most likely decisive fault.",
		Evidence:   []rules.Evidence{{Rule: "local_fault", Step: 7, Quote: "text\x1b]0;owned\a"}},
		Candidates: []rules.Candidate{{Step: 7, Agent: forged}, {Step: 3, Agent: "\u202eevil", Score: 1.5, Rules: []string{"feedback"}}},
	}
	var b strings.Builder
	require.NoError(t, WriteText(&b, a, 4))
	out := b.String()
	assert.NotContains(t, out, "\x1b")
	assert.NotContains(t, out, "\u202e")
	assert.NotContains(t, out, "\n  step 0\n", "the forged line stays on the agent's line")
	assert.NotContains(t, out, "\n  confidence 0.99", "the forged line stays on the agent's line")
	assert.Contains(t, out, `  agent       WebSurfer\n  step 0\n  confidence 0.99\x1b[8m`+"\n")
	assert.Contains(t, out, "  confidence  0.42 (rules alone)\n")
	assert.Contains(t, out, "Alternatives, those a rule implicates first (each step's probability of being the decisive fault):\n  step 3    \\u202eevil")
}

// TestWriteTextExplainsItself: a quote from another step says so, the
// confidence is said once, the alternatives' numbers are named, and every
// rule named has its doc under the answer. (An agent other than the step's
// speaker, the caller of a tool, is explained in the rationale.)
func TestWriteTextExplainsItself(t *testing.T) {
	thirteen := 13
	a := rules.Attribution{File: "run.json", Agent: "Orchestrator", Step: 12, Confidence: 0.437, Mode: rules.ModeRules,
		Triage: "review", TriageReason: "confidence 0.437 between 0.405 and 0.559",
		Evidence: []rules.Evidence{
			{Rule: "feedback", Step: 12, Quote: "no forward progress", QuoteStep: &thirteen},
			{Rule: "trial_first_fault", Step: 12, Quote: "I clicked"},
		},
		Candidates: []rules.Candidate{
			{Step: 12, Agent: "WebSurfer", Score: 0.34, Rules: []string{"feedback"}},
			{Step: 28, Agent: "WebSurfer", Score: 0.11, Rules: []string{"ground_truth_contradiction"}},
		}}
	var b strings.Builder
	require.NoError(t, WriteText(&b, a, 4))
	out := b.String()
	assert.Contains(t, out, `[feedback] step 12, as step 13 reports: "no forward progress"`)
	assert.Contains(t, out, `[trial_first_fault] step 12: "I clicked"`)
	assert.NotContains(t, out, "0.437", "the one number is the confidence above, to two places")
	assert.Contains(t, out, "  confidence  0.44, review (rules alone)\n")
	assert.Contains(t, out, "Alternatives, those a rule implicates first (each step's probability of being the decisive fault)")
	for _, name := range []string{"feedback", "trial_first_fault", "ground_truth_contradiction"} {
		r, ok := rules.Lookup(name)
		require.True(t, ok)
		assert.Contains(t, out, "  "+name+": "+r.Doc+"\n")
	}
	assert.NotContains(t, out, "local_fault", "only the rules the answer names")
	assert.NotContains(t, out, "\x1b", "plain text has no colour")
}
