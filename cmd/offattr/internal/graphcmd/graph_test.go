package graphcmd

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
)

var magentic = filepath.Join("..", "..", "..", "..", "testdata", "runs", "magentic.json")

func runGraph(t *testing.T, args ...string) (string, error) {
	t.Helper()
	out, _, err := cmdutil.Execute(func(io *cmdutil.IOStreams) *cobra.Command { return NewCmdGraph(io, nil) }, args...)
	return out, err
}

func TestGraphFormats(t *testing.T) {
	tests := []struct {
		format string
		prefix string
	}{
		{"dot", "digraph run {\n"},
		{"mermaid", "flowchart TD\n"},
		{"json", "{\n"},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			out, err := runGraph(t, magentic, "--format", tt.format)
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(out, tt.prefix), out)
		})
	}
}

func TestGraphTypesFilter(t *testing.T) {
	out, err := runGraph(t, magentic, "--format", "json", "--types", "instructs,data")
	require.NoError(t, err)
	var doc struct {
		Edges []struct {
			From, To, Type, Evidence string
		} `json:"edges"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.NotEmpty(t, doc.Edges)
	seen := map[string]bool{}
	for _, e := range doc.Edges {
		seen[e.Type] = true
		assert.NotEmpty(t, e.Evidence)
	}
	assert.Equal(t, map[string]bool{"instructs": true, "data": true}, seen)
}

func TestGraphErrors(t *testing.T) {
	bad := filepath.Join("..", "..", "..", "..", "testdata", "bad", "invalid.json")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown format", []string{magentic, "--format", "svg"}, `unknown --format "svg"`},
		{"unknown edge type", []string{magentic, "--types", "data,flows"}, `unknown edge type "flows"`},
		{"bad input", []string{bad}, bad},
		{"missing file", []string{"nope.json"}, "nope.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := runGraph(t, tt.args...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Empty(t, out)
		})
	}
}

func TestGraphFlags(t *testing.T) {
	var got *GraphOptions
	cmd := NewCmdGraph(&cmdutil.IOStreams{}, func(o *GraphOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"run.json", "--format", "mermaid", "--types", "data", "--input-format", "transcript", "--question", "Q"})
	require.NoError(t, cmd.Execute())
	assert.Equal(t, "run.json", got.Path)
	assert.Equal(t, "mermaid", got.Format)
	assert.Equal(t, "data", got.Types)
	assert.Equal(t, "transcript", got.Load.Format)
	assert.Equal(t, "Q", got.Load.Question)
	assert.NotNil(t, got.Extract)
}
