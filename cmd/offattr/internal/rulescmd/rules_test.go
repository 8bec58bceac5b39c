package rulescmd

import (
	"bytes"
	"fmt"
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
	assert.Contains(t, out.String(), rules.FeatAgentBlame, "the agent feature in use")
	counted := "an agent's blame counts every step"
	if n := rules.DefaultWeights().AgentSteps; n > 0 {
		counted = fmt.Sprintf("an agent's blame counts its %d most blamed steps", n)
	}
	assert.Contains(t, out.String(), counted)
	assert.NotContains(t, out.String(), rules.FeatAgentDirected, "agent features the model does not weigh")
}

func TestRulesBadWeights(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"version": 1, "step": {"rule:nope": 1}, "critical_share": 1, "triage": {"clear": 1}}`), 0o644))
	var out bytes.Buffer
	cmd := NewCmdRules(&cmdutil.IOStreams{Out: &out, ErrOut: &out}, nil)
	cmd.SetArgs([]string{"--weights", path})
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "weights "+path+": "), err.Error())
	assert.Contains(t, err.Error(), `unknown rule "nope"`)
}
