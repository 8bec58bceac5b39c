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

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/cmd/offattr/internal/root"
	"github.com/offattr/offattr/internal/escape"
)

// Exit codes, as the README's table and docs/commands.md document them.
const (
	exitOK          = 0   // every input attributed, every output written
	exitFailed      = 1   // some input failed (the rest written), or an output could not be written
	exitUsage       = 2   // the command line cannot run as given
	exitInterrupted = 130 // SIGINT or SIGTERM: 128 + SIGINT, as shells report it
)

func main() {
	os.Exit(run())
}

// run is the one place that decides exit codes and prints errors.
func run() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		// After the first signal the commands wind down; a second one
		// kills at once, as it would without offattr's handler.
		<-ctx.Done()
		stop()
	}()
	io := cmdutil.System()
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
		return exitInterrupted
	}
	return exitFailed
}
