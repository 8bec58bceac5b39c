// Package cmdutil holds what every offattr command shares: the IO streams,
// the flags that say how runs are read, and the error that sets an exit code.
package cmdutil

import (
	"io"
	"os"
)

// IOStreams are a command's standard streams. Data goes to Out; warnings,
// progress and summaries to ErrOut, so `offattr ... > out.jsonl` stays clean.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// ErrTTY is true when ErrOut is a terminal (progress bars only then).
	ErrTTY bool
}

// System returns the process's streams.
func System() *IOStreams {
	return &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr, ErrTTY: isTerminal(os.Stderr)}
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
