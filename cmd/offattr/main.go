// Command offattr finds which agent, at which step, caused a failed
// multi-agent LLM run, entirely offline.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/cmd/offattr/internal/root"
)

func main() {
	os.Exit(run())
}

// run is the one place that decides exit codes and prints errors.
func run() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	io := cmdutil.System()
	cmd := root.NewCmdRoot(io)
	if err := cmd.ExecuteContext(ctx); err != nil {
		fmt.Fprintf(io.ErrOut, "offattr: %s\n", err)
		if ctx.Err() != nil {
			return 130
		}
		return 1
	}
	return 0
}
