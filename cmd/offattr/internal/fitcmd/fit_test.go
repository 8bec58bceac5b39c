package fitcmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/eval"
	"github.com/offattr/offattr/eval/evaltest"
	"github.com/offattr/offattr/fit"
	"github.com/offattr/offattr/rules"
)

func TestFitWritesWeightsThatLoad(t *testing.T) {
	dir := evaltest.WriteCases(t)
	out := filepath.Join(t.TempDir(), "w.json")
	var stdout, stderr bytes.Buffer
	cmd := NewCmdFit(&cmdutil.IOStreams{Out: &stdout, ErrOut: &stderr}, nil)
	cmd.SetArgs([]string{dir, "-o", out, "--cv", "2", "--repeats", "3"})
	err := cmd.Execute()
	require.ErrorIs(t, err, cmdutil.ErrInputsFailed, "the weights are written, and the exit says a case was left out")
	assert.Contains(t, stderr.String(), "9.json", "the unreadable case is reported and left out")
	for _, line := range strings.Split(stdout.String(), "\n") {
		assert.LessOrEqual(t, utf8.RuneCountInString(line), 100, "the table fits 100 columns: %q", line)
	}
	assert.Contains(t, stdout.String(), "fitted on 4 labelled runs")
	assert.Contains(t, stdout.String(), "leave-one-corpus-out", "two corpora: A and B")
	assert.Contains(t, stdout.String(), "2-fold CV (mean of 3)")
	assert.Contains(t, stdout.String(), "the same runs read without their ground truth (4 of 4 have one to leave out)")
	assert.Contains(t, stdout.String(), "triage bands without ground truth (clear ≥")
	w, err := rules.LoadWeights(out)
	require.NoError(t, err)
	assert.Contains(t, w.About, "offattr fit on 4 runs (A 3, B 1)")
	assert.Len(t, w.FittedOn, 1, "the corpus is one run labelled four ways: one fingerprint")
	assert.NotContains(t, stdout.String(), "the weights in use were fitted on", "the embedded weights were not fitted on these runs")

	// Fitting again from those weights: their figures are in-sample, and
	// so are cross-validated ones pulled toward them.
	for _, c := range []struct {
		prior string
		leak  bool
	}{{"current", true}, {"evidence", false}} {
		stdout.Reset()
		cmd = NewCmdFit(&cmdutil.IOStreams{Out: &stdout, ErrOut: &stderr}, nil)
		cmd.SetArgs([]string{dir, "--weights", out, "--prior", c.prior, "--cv", "2"})
		require.ErrorIs(t, cmd.Execute(), cmdutil.ErrInputsFailed)
		assert.Contains(t, stdout.String(), "the weights in use were fitted on 4 of these 4 runs: their figures are in-sample", c.prior)
		if c.leak {
			assert.Contains(t, stdout.String(), "and so are the cross-validated ones, pulled toward them (--prior current)")
		} else {
			assert.NotContains(t, stdout.String(), "cross-validated ones")
		}
	}
}

// TestFitBandsSayTheClearSpread: the bands' header names the spread that
// clears a run, so that runs cleared below the clear confidence are
// explained; bands that clear nothing by spread do not mention it.
func TestFitBandsSayTheClearSpread(t *testing.T) {
	overall := eval.Score{Triage: map[string]eval.BandScore{"clear": {Cases: 2, StepAccuracy: 1, AgentAccuracy: 1}}}
	var b bytes.Buffer
	require.NoError(t, writeBands(&b, "", "10-fold CV", rules.Bands{Clear: 1, Escalate: 0.4, ClearSpread: 1.15}, overall, 1))
	assert.Contains(t, b.String(), "clear ≥ 1.000, escalate < 0.400")
	assert.Contains(t, b.String(), "spread ≤ 1.150")
	b.Reset()
	require.NoError(t, writeBands(&b, "", "10-fold CV", rules.Bands{Clear: 0.8, Escalate: 0.4}, overall, 1))
	assert.NotContains(t, b.String(), "spread")
}

func TestFitRejectsBadFlags(t *testing.T) {
	dir := evaltest.WriteCases(t)
	for _, args := range [][]string{{"--cv", "1"}, {"--cv", "x"}, {"--prior", "mine"}, {"--lambda", "0"}, {"--repeats", "0"}, {"--rules", "nope"}} {
		var sink bytes.Buffer
		cmd := NewCmdFit(&cmdutil.IOStreams{Out: &sink, ErrOut: &sink}, nil)
		cmd.SetArgs(append([]string{dir}, args...))
		cmd.SilenceUsage, cmd.SilenceErrors = true, true
		assert.Error(t, cmd.Execute(), "%v", args)
	}
}

// TestFitJSON: --json gives every corpus and the pool each column's
// figures and the four label-free floors, the best of them beside.
func TestFitJSON(t *testing.T) {
	dir := evaltest.WriteCases(t)
	var stdout, stderr bytes.Buffer
	cmd := NewCmdFit(&cmdutil.IOStreams{Out: &stdout, ErrOut: &stderr}, nil)
	cmd.SetArgs([]string{dir, "--cv", "2", "--repeats", "1", "--json"})
	require.ErrorIs(t, cmd.Execute(), cmdutil.ErrInputsFailed, "the figures are printed, and the exit says a case was left out")
	var rep fit.Report
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &rep), stdout.String())
	assert.Equal(t, 4, rep.Runs)
	var names []string
	for _, c := range rep.Corpora {
		names = append(names, c.Name)
		for _, col := range []string{"in_use", "in_sample", "cross_validated", "leave_one_corpus_out"} {
			require.Contains(t, c.Figures, col, c.Name)
			assert.Contains(t, c.Figures[col].RecallAt, "3")
		}
		require.Len(t, c.Floors, len(rules.LabelFreeBaselines()), c.Name)
		for _, f := range c.Floors {
			assert.LessOrEqual(t, f.Step, c.BestFloor.Step)
			assert.LessOrEqual(t, f.Agent, c.BestFloor.Agent)
		}
	}
	assert.Equal(t, []string{"A", "B", "overall"}, names)
}

// TestFitJSONEscapesCorpusNames: a corpus is named for its directory;
// the JSON report writes a name's terminal controls and bidirectional
// overrides escaped, as every other JSON output does, and reads back the
// same.
func TestFitJSONEscapesCorpusNames(t *testing.T) {
	dir := evaltest.WriteCases(t)
	name := "A\u009b31m\u202e"
	require.NoError(t, os.Rename(filepath.Join(dir, "A"), filepath.Join(dir, name)))
	var stdout, stderr bytes.Buffer
	cmd := NewCmdFit(&cmdutil.IOStreams{Out: &stdout, ErrOut: &stderr}, nil)
	cmd.SetArgs([]string{dir, "--cv", "2", "--repeats", "1", "--json"})
	require.ErrorIs(t, cmd.Execute(), cmdutil.ErrInputsFailed)
	assert.NotContains(t, stdout.String(), "\u202e")
	assert.NotContains(t, stdout.String(), "\u009b")
	var rep fit.Report
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &rep))
	require.NotEmpty(t, rep.Corpora)
	assert.Equal(t, name, rep.Corpora[0].Name)
}
