// Command offattr finds which agent, at which step, caused a failed
// multi-agent LLM run, entirely offline.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/cmd/offattr/internal/root"
	"github.com/offattr/offattr/internal/escape"
	offrun "github.com/offattr/offattr/run"
)

// Exit codes, as the README's table and docs/commands.md document them.
const (
	exitOK          = 0   // every input attributed, every output written
	exitFailed      = 1   // some input failed (the rest written), or an output could not be written
	exitUsage       = 2   // the command line cannot run as given
	exitInterrupted = 130 // SIGINT: 128 + its number, as shells report it
	exitTerminated  = 143 // SIGTERM: 128 + its number
)

// stopGrace is how long a signalled command may wait on a write to a
// standard stream before the process exits without it.
const stopGrace = time.Second

func main() {
	os.Exit(run())
}

// run is the one place that decides exit codes and prints errors.
func run() int {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	io := cmdutil.System()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		// After the first signal the commands wind down; a second one
		// kills at once, as it would without offattr's handler.
		sig := <-sigs
		signal.Stop(sigs)
		cancel(signalled{sig})
		// A command stops at its next look at the context, but one
		// blocked writing to a pipe no one reads (a paused pager) never
		// gets there: once a write to standard output or error has
		// waited that long, exit all the same, removing the temporary
		// files of what was being written.
		for range time.Tick(stopGrace / 10) {
			if io.Stuck(stopGrace) {
				cmdutil.RemovePending()
				os.Exit(exitCodeOf(signalled{sig}))
			}
		}
	}()
	cmd := root.NewCmdRoot(io)
	c, err := cmd.ExecuteContextC(ctx)
	if err == nil {
		if werr := io.OutErr(); werr != nil {
			err = fmt.Errorf("write standard output: %w", werr)
		}
	}
	if err == nil {
		return exitOK
	}
	msg := err.Error()
	if ctx.Err() != nil && !strings.HasPrefix(msg, "interrupted") {
		msg = "interrupted: " + msg
	}
	// Error messages may quote a log: nothing in them may act on a terminal.
	fmt.Fprintf(io.ErrOut, "offattr: %s\n", escape.Line(msg))
	var usage *cmdutil.UsageError
	switch {
	case errors.As(err, &usage):
		path := c.CommandPath()
		if c.Name() == "help" { // help TOPIC: the topics are the main help's
			path = c.Root().CommandPath()
		}
		fmt.Fprintf(io.ErrOut, "Run '%s --help' for usage.\n", path)
		return exitUsage
	case ctx.Err() != nil:
		return exitCodeOf(context.Cause(ctx))
	case errors.Is(err, offrun.ErrUnknownFormat) && !errors.Is(err, offrun.ErrLabelsFile):
		fmt.Fprintln(io.ErrOut, "docs/formats.md lists the formats offattr reads; for a file of one of them that is not recognised, --input-format names its format.")
	}
	return exitFailed
}

// signalled is why the command's context ended: a signal.
type signalled struct{ sig os.Signal }

func (s signalled) Error() string { return s.sig.String() }

// exitCodeOf is the exit code of a command whose context ended for cause:
// 143 for SIGTERM, 130 for SIGINT (and anything else that cancels).
func exitCodeOf(cause error) int {
	var s signalled
	if errors.As(cause, &s) && s.sig == syscall.SIGTERM {
		return exitTerminated
	}
	return exitInterrupted
}
