package rulescmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/rules"
)

func TestRulesListsEveryRule(t *testing.T) {
	var out bytes.Buffer
	cmd := NewCmdRules(&cmdutil.IOStreams{Out: &out, ErrOut: &out}, nil)
	cmd.SetArgs([]string{"-v"})
	require.NoError(t, cmd.Execute())
	for _, a := range rules.Registry {
		assert.Contains(t, out.String(), a.Name)
		assert.Contains(t, out.String(), a.Doc)
	}
	assert.Contains(t, out.String(), "critical share")
	for _, n := range rules.CalibrationFeatureNames {
		assert.Contains(t, out.String(), n, "the confidence's calibration")
	}
	for _, n := range rules.StepFeatureNames(nil) {
		if !strings.HasPrefix(n, rules.ToolsPrefix) {
			assert.Contains(t, out.String(), n, "each step feature's weight")
		}
	}
	assert.Contains(t, out.String(), "the one who answers for the chosen step")
}

func TestRulesBadWeights(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"version": 2, "step": {"rule:nope": 1}, "critical_share": 1, "triage": {"clear": 1}}`), 0o644))
	var out bytes.Buffer
	cmd := NewCmdRules(&cmdutil.IOStreams{Out: &out, ErrOut: &out}, nil)
	cmd.SetArgs([]string{"--weights", path})
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "weights "+path+": "), err.Error())
	assert.Contains(t, err.Error(), `unknown rule "nope"`)
	var usage *cmdutil.UsageError
	assert.ErrorAs(t, err, &usage, "the flag names no weights, as for every command that takes it")
}

// A weights file is read from wherever the user got it: what it says of
// itself is shown on one line, its control characters escaped.
func TestRulesWeightsAboutStaysOnItsLine(t *testing.T) {
	w := rules.DefaultWeights()
	w.About = "fitted\x1b[31m\u202e\nweights: forged"
	data, err := json.Marshal(w)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "w.json")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	for _, args := range [][]string{{"--weights", path}, {"--weights", path, "-v"}} {
		var out bytes.Buffer
		cmd := NewCmdRules(&cmdutil.IOStreams{Out: &out, ErrOut: &out}, nil)
		cmd.SetArgs(args)
		require.NoError(t, cmd.Execute())
		assert.NotContains(t, out.String(), "\x1b")
		assert.NotContains(t, out.String(), "\u202e")
		assert.NotContains(t, out.String(), "\nweights: forged", "no forged line")
	}
}
