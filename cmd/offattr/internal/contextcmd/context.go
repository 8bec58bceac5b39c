// Package contextcmd implements `offattr context`: the hierarchical context
// of one step, as the local model would be shown it.
package contextcmd

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/hierarchy"
)

// ContextOptions holds every input and dependency of one context command.
type ContextOptions struct {
	IO   *cmdutil.IOStreams
	Load cmdutil.LoadFlags
	Path string
	Step int
	// Budget is the most tokens the context may take; 0 means no limit.
	Budget int
	JSON   bool
}

// NewCmdContext returns the context command; runF replaces the run function
// in tests that check flag parsing alone.
func NewCmdContext(io *cmdutil.IOStreams, runF func(*ContextOptions) error) *cobra.Command {
	opts := &ContextOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "context FILE --step N",
		Short: "Print the L1-L4 context of one step, fitted to a token budget",
		Long: `Print ECHO's hierarchical context of one step: its neighbours in full (L1),
key decisions of steps 2-3 away (L2), summaries 4-6 away (L3) and milestones
of the rest (L4). With --budget the farthest steps are reduced first until the
context fits; tokens are estimated as bytes/4, rounded up.`,
		Example: `  offattr context run.json --step 12
  offattr context run.json --step 12 --budget 2000 --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			if opts.Budget < 0 {
				return fmt.Errorf("--budget must be 0 (no limit) or more, not %d", opts.Budget)
			}
			if runF != nil {
				return runF(opts)
			}
			return contextRun(opts)
		},
	}
	opts.Load.Register(cmd.Flags())
	cmd.Flags().IntVar(&opts.Step, "step", 0, "0-based index of the step to build the context of (required)")
	cmd.Flags().IntVar(&opts.Budget, "budget", 0, "most tokens the context may take (bytes/4); 0 for no limit")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the context as JSON")
	_ = cmd.MarkFlagRequired("step")
	return cmd
}

func contextRun(opts *ContextOptions) error {
	r, err := opts.Load.Load(opts.Path)
	if err != nil {
		return err
	}
	c, err := hierarchy.BuildWithin(r, nil, opts.Step, opts.Budget)
	if err != nil {
		return fmt.Errorf("%s: %w", opts.Path, err)
	}
	if opts.JSON {
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(c)
	}
	_, err = io.WriteString(opts.IO.Out, c.Render())
	return err
}
