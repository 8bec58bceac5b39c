package contextcmd

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

func TestContextRedacts(t *testing.T) {
	for _, args := range [][]string{{"--step", "2"}, {"--step", "2", "--json"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			plain, err := runContext(t, append([]string{leaky}, args...)...)
			require.NoError(t, err)
			require.Contains(t, plain, "Hunter22")
			out, err := runContext(t, append([]string{leaky, "--redact"}, args...)...)
			require.NoError(t, err)
			for _, s := range []string{"bob@example.com", "Hunter22", "10.2.3.4"} {
				assert.NotContains(t, out, s)
			}
			assert.Contains(t, out, "[EMAIL_1]")
		})
	}
}

func TestContextReadsStdinAndEscapes(t *testing.T) {
	data, err := os.ReadFile(testRun("magentic.json"))
	require.NoError(t, err)
	forged := strings.Replace(string(data), "I clicked on the travel blog.", `I clicked \u001b[2J\u001b[8m on the\u001b\u0007 travel blog.`, 1)
	out, _, err := cmdutil.ExecuteWithInput(func(io *cmdutil.IOStreams) *cobra.Command { return NewCmdContext(io, nil) },
		strings.NewReader(forged), "-", "--step", "7")
	require.NoError(t, err)
	assert.Contains(t, out, `I clicked  on the\x1b\a travel blog.`, "its escape sequences read away, what is left shown escaped")
	assert.NotContains(t, out, "\x1b")
}
