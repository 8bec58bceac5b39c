package cmdutil

import (
	"bytes"

	"github.com/spf13/cobra"
)

// Execute runs a command built by newCmd with args on in-memory streams and
// returns what it wrote to Out and to ErrOut (cobra's own usage and error
// lines included), for tests and for callers that embed a command.
func Execute(newCmd func(*IOStreams) *cobra.Command, args ...string) (stdout, stderr string, err error) {
	var out, errOut bytes.Buffer
	cmd := newCmd(&IOStreams{Out: &out, ErrOut: &errOut})
	cmd.SetArgs(args)
	cmd.SetOut(&errOut)
	cmd.SetErr(&errOut)
	err = cmd.Execute()
	return out.String(), errOut.String(), err
}
