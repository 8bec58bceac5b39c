package contextcmd

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/extract"
)

func runContext(t *testing.T, args ...string) (string, error) {
	t.Helper()
	out, _, err := cmdutil.Execute(func(io *cmdutil.IOStreams) *cobra.Command { return NewCmdContext(io, nil) }, args...)
	return out, err
}

func testRun(name string) string {
	return filepath.Join("..", "..", "..", "..", "testdata", "runs", name)
}

func TestContextText(t *testing.T) {
	out, err := runContext(t, testRun("magentic.json"), "--step", "4", "--budget", "300")
	require.NoError(t, err)
	assert.LessOrEqual(t, extract.EstimateTokens(out), 300)
	assert.Contains(t, out, "Context of step 4")
	assert.Contains(t, out, "| step 4 |")
	assert.Contains(t, out, "| TARGET]")
}

func TestContextJSON(t *testing.T) {
	out, err := runContext(t, testRun("autogen.json"), "--step", "1", "--json")
	require.NoError(t, err)
	var got struct {
		Target  int `json:"target"`
		Tokens  int `json:"tokens"`
		Entries []struct {
			Index  int    `json:"index"`
			Agent  string `json:"agent"`
			Level  int    `json:"level"`
			Detail string `json:"detail"`
		} `json:"entries"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, 1, got.Target)
	assert.Positive(t, got.Tokens)
	require.Greater(t, len(got.Entries), 1)
	assert.Equal(t, 1, got.Entries[1].Level)
	assert.Equal(t, "full", got.Entries[1].Detail)
}

func TestContextErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"step out of range", []string{testRun("autogen.json"), "--step", "999"}, "past the run's last step"},
		{"budget too small", []string{testRun("magentic.json"), "--step", "1", "--budget", "5"}, "budget too small"},
		{"negative budget", []string{testRun("magentic.json"), "--step", "1", "--budget", "-1"}, "--budget"},
		{"missing step", []string{testRun("magentic.json")}, "step"},
		{"bad file", []string{filepath.Join("..", "..", "..", "..", "testdata", "bad", "invalid.json"), "--step", "0"}, "invalid.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := runContext(t, tt.args...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Empty(t, out)
		})
	}
}

func TestContextFlags(t *testing.T) {
	var got *ContextOptions
	cmd := NewCmdContext(&cmdutil.IOStreams{}, func(o *ContextOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"run.json", "--step", "7", "--budget", "2000", "--json"})
	require.NoError(t, cmd.Execute())
	assert.Equal(t, &ContextOptions{IO: got.IO, Load: got.Load, Path: "run.json", Step: 7, Budget: 2000, JSON: true}, got)
}
