package rulescmd

import (
	"bytes"
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
}
