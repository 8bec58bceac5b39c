// Package graphcmd implements `offattr graph`: the typed dependency graph of
// one run, written as DOT, Mermaid or JSON for people and tools to inspect.
package graphcmd

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/internal/escape"
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
	Extract func(context.Context, *run.Run) (*extract.RunFeatures, error)
	// Load reads the run; only its input format and question are offered
	// as flags, since --format names the output here.
	Load cmdutil.LoadFlags
	// Redact masks the run before the graph is drawn, so labels and edge
	// evidence are masked too.
	Redact cmdutil.RedactFlags
	Path   string
	Format string
	Types  string
}

// NewCmdGraph returns the graph command; runF replaces the run function in
// tests that check flag parsing alone.
func NewCmdGraph(io *cmdutil.IOStreams, runF func(*GraphOptions) error) *cobra.Command {
	opts := &GraphOptions{IO: io, Load: cmdutil.LoadFlags{In: io.In}}
	cmd := &cobra.Command{
		Use:   "graph FILE",
		Short: "Write the typed dependency graph of a run as DOT, Mermaid or JSON",
		Long: `graph builds the dependency graph the rules walk: one node per step, agent
and trial, and typed edges with their evidence: next, instructs, observes,
data, loop, replans, feedback and member. --types keeps only some edge types
(every step stays; agents and trials only where a kept edge touches them).
FILE - reads standard input; --format is what is written, --input-format
what is read.`,
		Example: `  offattr graph run.json | dot -Tsvg > run.svg
  offattr graph run.json --format mermaid --types data,instructs
  offattr graph run.json --format json --types loop,feedback --redact`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			if opts.Extract == nil {
				opts.Extract = extract.RunContext
			}
			if runF != nil {
				return runF(opts)
			}
			return opts.Redact.Error(graphRun(cmd.Context(), opts))
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.Format, "format", FormatDOT, "output format: dot, mermaid or json")
	fs.StringVar(&opts.Types, "types", "", "comma-separated edge types to keep (default all): next, instructs, observes, data, loop, replans, feedback, member")
	opts.Load.RegisterInput(fs)
	opts.Redact.Register(fs)
	return cmd
}

func graphRun(ctx context.Context, opts *GraphOptions) error {
	types, err := graph.ParseTypes(opts.Types)
	if err != nil {
		return cmdutil.Usagef("--types: %w", err)
	}
	write, ok := writers[opts.Format]
	if !ok {
		return cmdutil.Usagef("unknown --format %q (want dot, mermaid or json)", opts.Format)
	}
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
	f, err := opts.Extract(ctx, r)
	if err != nil {
		return fmt.Errorf("graph %s: %w", opts.Path, err)
	}
	g, err := graph.BuildContext(ctx, r, f)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("graph %s: %w", opts.Path, err)
		}
		return err // it names the file
	}
	// Rendered whole before anything is written: an interruption or an
	// error leaves no half graph behind.
	var buf bytes.Buffer
	if err := write(g, &buf, types...); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("graph %s: %w", opts.Path, err)
	}
	out := buf.Bytes()
	if opts.Format == FormatJSON {
		out = escape.JSON(out)
	}
	_, err = opts.IO.Out.Write(out)
	return err
}

// writers maps each --format to the graph's writer for it.
var writers = map[string]func(*graph.Graph, io.Writer, ...graph.EdgeType) error{
	FormatDOT:     (*graph.Graph).WriteDOT,
	FormatMermaid: (*graph.Graph).WriteMermaid,
	FormatJSON:    (*graph.Graph).WriteJSON,
}
