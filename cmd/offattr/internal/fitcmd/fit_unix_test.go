//go:build unix

package fitcmd

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/eval/evaltest"
)

// TestFitReportsPipesAndGoesOn: a named pipe among a corpus's case files
// is reported and left out, the weights fitted on the rest, and the exit
// says something was left out.
func TestFitReportsPipesAndGoesOn(t *testing.T) {
	dir, pipe := evaltest.WriteCasesWithPipe(t)
	var stdout, stderr bytes.Buffer
	cmd := NewCmdFit(&cmdutil.IOStreams{Out: &stdout, ErrOut: &stderr}, nil)
	cmd.SetArgs([]string{dir, "--cv", "2", "--repeats", "1"})
	err := cmd.Execute()
	require.ErrorIs(t, err, cmdutil.ErrInputsFailed)
	assert.EqualError(t, err, "2 labelled files or cases could not be used (see above); the weights were fitted without them")
	assert.Contains(t, stderr.String(), "offattr: eval "+pipe+": not a regular file")
	assert.Contains(t, stdout.String(), "fitted on 4 labelled runs")
}
