package graphcmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
)

var leaky = filepath.Join("..", "..", "..", "..", "testdata", "leaky", "mailer.json")

var secrets = []string{"bob@example.com", "Hunter22", "10.2.3.4"}

func TestGraphRedactsEveryFormat(t *testing.T) {
	// DOT and JSON carry the edges' evidence, quoted from the run; Mermaid
	// carries names only, and must not leak either.
	for _, format := range []string{"dot", "json", "mermaid"} {
		t.Run(format, func(t *testing.T) {
			plain, err := runGraph(t, leaky, "--format", format)
			require.NoError(t, err)
			out, err := runGraph(t, leaky, "--format", format, "--redact")
			require.NoError(t, err)
			for _, s := range secrets {
				assert.NotContains(t, out, s)
			}
			if format != "mermaid" {
				require.Contains(t, plain, "bob@example.com", "the evidence quotes the run")
				assert.Contains(t, out, "[EMAIL_1]")
			}
		})
	}
}

func TestGraphReadsStdin(t *testing.T) {
	data, err := os.ReadFile(magentic)
	require.NoError(t, err)
	fromFile, err := runGraph(t, magentic, "--format", "json")
	require.NoError(t, err)
	fromStdin, _, err := cmdutil.ExecuteWithInput(func(io *cmdutil.IOStreams) *cobra.Command { return NewCmdGraph(io, nil) },
		strings.NewReader(string(data)), "-", "--format", "json")
	require.NoError(t, err)
	assert.Equal(t, fromFile, fromStdin)
}
