//go:build unix

package evalcmd

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/eval/evaltest"
)

// TestEvalReportsPipesAndGoesOn: a named pipe among a corpus's case files
// is reported as a failed case, the rest evaluated, and the exit says so.
func TestEvalReportsPipesAndGoesOn(t *testing.T) {
	dir, pipe := evaltest.WriteCasesWithPipe(t)
	var out, errOut bytes.Buffer
	cmd := NewCmdEval(&cmdutil.IOStreams{Out: &out, ErrOut: &errOut}, nil)
	cmd.SetArgs([]string{dir, "--json"})
	err := cmd.Execute()
	require.ErrorIs(t, err, cmdutil.ErrInputsFailed)
	assert.EqualError(t, err, "2 of 6 cases could not be evaluated (see above; they count as wrong)")
	assert.Contains(t, errOut.String(), "offattr: eval "+pipe+": not a regular file")
}
