package cmdutil

import (
	"bytes"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// Execute runs a command built by newCmd with args on in-memory streams and
// returns what it wrote to Out and to ErrOut (cobra's own usage and error
// lines included), for tests and for callers that embed a command.
// Standard input is empty.
func Execute(newCmd func(*IOStreams) *cobra.Command, args ...string) (stdout, stderr string, err error) {
	return ExecuteWithInput(newCmd, strings.NewReader(""), args...)
}

// ExecuteWithInput is Execute with stdin as standard input.
func ExecuteWithInput(newCmd func(*IOStreams) *cobra.Command, stdin io.Reader, args ...string) (stdout, stderr string, err error) {
	var out, errOut bytes.Buffer
	cmd := newCmd(&IOStreams{In: stdin, Out: &out, ErrOut: &errOut})
	cmd.SetArgs(args)
	cmd.SetOut(&errOut)
	cmd.SetErr(&errOut)
	err = cmd.Execute()
	return out.String(), errOut.String(), err
}
