// Package graphcmd implements `offattr graph`: the typed dependency graph of
// one run, written as DOT, Mermaid or JSON for people and tools to inspect.
package graphcmd

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/run"
)

// Output formats.
const (
	FormatDOT     = "dot"
	FormatMermaid = "mermaid"
	FormatJSON    = "json"
)

// GraphOptions holds every input and dependency of one graph command.
type GraphOptions struct {
	IO *cmdutil.IOStreams
	// Extract reads a run's features; tests substitute their own.
	Extract func(*run.Run) *extract.RunFeatures
	// Load reads the run; only its input format and question are offered
	// as flags, since --format names the output here.
	Load   cmdutil.LoadFlags
	Path   string
	Format string
	Types  string
}

// NewCmdGraph returns the graph command; runF replaces the run function in
// tests that check flag parsing alone.
func NewCmdGraph(io *cmdutil.IOStreams, runF func(*GraphOptions) error) *cobra.Command {
	opts := &GraphOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "graph FILE",
		Short: "Write the typed dependency graph of a run as DOT, Mermaid or JSON",
		Long: `graph builds the dependency graph the rules walk: one node per step, agent
and trial, and typed edges with their evidence: next, instructs, observes,
data, loop, replans, feedback and member. --types keeps only some edge types
(every step stays; agents and trials only where a kept edge touches them).`,
		Example: `  offattr graph run.json | dot -Tsvg > run.svg
  offattr graph run.json --format mermaid --types data,instructs
  offattr graph run.json --format json --types loop,feedback`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			if opts.Extract == nil {
				opts.Extract = extract.Run
			}
			if runF != nil {
				return runF(opts)
			}
			return graphRun(opts)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.Format, "format", FormatDOT, "output format: dot, mermaid or json")
	fs.StringVar(&opts.Types, "types", "", "comma-separated edge types to keep (default all): next, instructs, observes, data, loop, replans, feedback, member")
	opts.Load.RegisterInput(fs, "input-format")
	return cmd
}

func graphRun(opts *GraphOptions) error {
	types, err := graph.ParseTypes(opts.Types)
	if err != nil {
		return fmt.Errorf("--types: %w", err)
	}
	write, ok := writers[opts.Format]
	if !ok {
		return fmt.Errorf("unknown --format %q (want dot, mermaid or json)", opts.Format)
	}
	r, err := opts.Load.Load(opts.Path)
	if err != nil {
		return err
	}
	g, err := graph.Build(r, opts.Extract(r))
	if err != nil {
		return err
	}
	return write(g, opts.IO.Out, types...)
}

// writers maps each --format to the graph's writer for it.
var writers = map[string]func(*graph.Graph, io.Writer, ...graph.EdgeType) error{
	FormatDOT:     (*graph.Graph).WriteDOT,
	FormatMermaid: (*graph.Graph).WriteMermaid,
	FormatJSON:    (*graph.Graph).WriteJSON,
}
