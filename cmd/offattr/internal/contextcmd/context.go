// Package contextcmd implements `offattr context`: the hierarchical context
// of one step, as the local model would be shown it.
package contextcmd

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/spf13/cobra"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/hierarchy"
	"github.com/offattr/offattr/internal/escape"
)

// ContextOptions holds every input and dependency of one context command.
type ContextOptions struct {
	IO   *cmdutil.IOStreams
	Load cmdutil.LoadFlags
	// Redact masks the run before the context is built.
	Redact cmdutil.RedactFlags
	Path   string
	Step   int
	// Budget is the most tokens the context may take; 0 means no limit.
	Budget int
	JSON   bool
}

// NewCmdContext returns the context command; runF replaces the run function
// in tests that check flag parsing alone.
func NewCmdContext(io *cmdutil.IOStreams, runF func(*ContextOptions) error) *cobra.Command {
	opts := &ContextOptions{IO: io, Load: cmdutil.LoadFlags{In: io.In}}
	cmd := &cobra.Command{
		Use:   "context FILE --step N",
		Short: "Print the L1-L4 context of one step, fitted to a token budget",
		Long: `Print ECHO's hierarchical context of one step: its neighbours in full (L1),
key decisions of steps 2-3 away (L2), summaries 4-6 away (L3) and milestones
of the rest (L4). With --budget the farthest steps are reduced first until the
context fits; tokens are estimated as bytes/4, rounded up. FILE - reads
standard input.`,
		Example: `  offattr context run.json --step 12
  offattr context run.json --step 12 --budget 2000 --json --redact`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			// Checked here rather than with MarkFlagRequired, whose error
			// cobra returns before a usage error can be made of it.
			if !cmd.Flags().Changed("step") {
				return cmdutil.Usagef(`required flag "--step" not set`)
			}
			if opts.Budget < 0 {
				return cmdutil.Usagef("--budget must be 0 (no limit) or more, not %d", opts.Budget)
			}
			if runF != nil {
				return runF(opts)
			}
			return opts.Redact.Error(contextRun(cmd.Context(), opts))
		},
	}
	opts.Load.Register(cmd.Flags())
	opts.Redact.Register(cmd.Flags())
	cmdutil.IntVar(cmd.Flags(), &opts.Step, "step", 0, 0, math.MaxInt, "0-based index of the step to build the context of (required)")
	cmdutil.IntVar(cmd.Flags(), &opts.Budget, "budget", 0, 0, math.MaxInt, "most tokens the context may take (bytes/4); 0 for no limit")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the context as JSON")
	return cmd
}

func contextRun(ctx context.Context, opts *ContextOptions) error {
	if _, err := opts.Load.Options(); err != nil {
		return err
	}
	patterns, err := opts.Redact.Compile()
	if err != nil {
		return err
	}
	r, err := opts.Load.Load(ctx, opts.Path)
	if err != nil {
		return err
	}
	if r, err = engine.RedactContext(ctx, patterns.NewRedactor(), r); err != nil {
		return fmt.Errorf("%s: %w", opts.Path, err)
	}
	if opts.Step >= len(r.Steps) {
		// The command line asks for a step the run does not have.
		return cmdutil.Usagef("%s: --step %d is past the run's last step (it has steps 0 to %d)", opts.Path, opts.Step, len(r.Steps)-1)
	}
	c, err := hierarchy.BuildWithinContext(ctx, r, nil, opts.Step, opts.Budget)
	if err != nil {
		return fmt.Errorf("%s: %w", opts.Path, err)
	}
	if opts.JSON {
		return cmdutil.WriteJSON(opts.IO.Out, c)
	}
	// The steps' text is shown as written, line breaks included; what
	// could act on a terminal is escaped (names are, in the labels).
	_, err = io.WriteString(opts.IO.Out, escape.Text(c.Render()))
	return err
}
