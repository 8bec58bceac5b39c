// Package exportcmd implements `offattr export`: for each run, an
// escalation bundle a stronger model can answer without offattr — a
// self-contained Markdown prompt and its JSON twin.
package exportcmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/cmd/offattr/internal/screenfile"
	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/internal/escape"
	"github.com/offattr/offattr/redact"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/triage"
)

// ExportOptions holds every input and dependency of one export.
type ExportOptions struct {
	IO *cmdutil.IOStreams
	cmdutil.Analysis
	// Context renders the budgeted view of a run around the best candidate.
	Context ContextFunc
	Files   []string
	// From is a screen records file; Escalate keeps only its escalated runs.
	From     string
	Escalate bool
	Dir      string
	Budget   int
}

// DefaultBudget fits a prompt comfortably in any hosted model's window
// while leaving the run's context most of it.
const DefaultBudget = 8000

// NewCmdExport returns the export command; runF replaces the run function
// in tests that check flag parsing alone.
func NewCmdExport(io *cmdutil.IOStreams, runF func(*ExportOptions) error) *cobra.Command {
	opts := &ExportOptions{IO: io, Analysis: cmdutil.NewAnalysis(io)}
	cmd := &cobra.Command{
		Use:   "export FILE... | --from screen.jsonl [--escalate]",
		Short: "Write escalation bundles (Markdown prompt + JSON) for a stronger model",
		Long: `For each run, write an escalation bundle into -o DIR: NAME.md, a self-contained
prompt (the task, the budgeted L1–L4 context around the candidate steps, the
rules' and the local model's candidates with their evidence, and the exact
question to answer), and NAME.json, the same as data. NAME is the run file's
base name and a short hash of its path. The paths of the Markdown files are
printed on standard output.

The runs are FILE... (every trace of a telemetry file, or FILE#TRACEID for
one; - for one run on standard input), or the inputs of a screen's records
(--from, - for records on standard input), only the
escalated ones with --escalate. Runs are analysed again (rules are
deterministic and model answers cached, so this repeats the screen's answer
with its evidence).

Bundles are made to leave the machine, so redaction is on by default here:
secrets and personal data are masked before the run is analysed, and nothing
unmasked reaches the bundle. --no-redact writes the text as it is.`,
		Example: `  offattr export run.json -o escalate/
  offattr screen corpus/ -o screen.jsonl && offattr export --from screen.jsonl --escalate -o escalate/
  offattr export run.json --no-redact -o local-only/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Files = args
			opts.SetDefaultAnalyzer(cmd.Context(), opts.IO, triage.Override{})
			if opts.Context == nil {
				opts.Context = ECHOContext
			}
			if runF != nil {
				return runF(opts)
			}
			return opts.Redact.Error(exportRun(cmd.Context(), opts))
		},
	}
	opts.RegisterRedactingByDefault(cmd.Flags())
	f := cmd.Flags()
	f.StringVar(&opts.From, "from", "", "export the runs recorded in this screen output (.jsonl or .csv)")
	f.BoolVar(&opts.Escalate, "escalate", false, "with --from, only the runs triaged escalate")
	f.StringVarP(&opts.Dir, "output", "o", "offattr-export", "directory to write the bundles into")
	cmdutil.IntVar(f, &opts.Budget, "budget", DefaultBudget, 1, math.MaxInt, "token budget of each prompt (estimated at four bytes a token)")
	return cmd
}

// item is one run to export, with the screen's verdict when it came from one.
type item struct {
	file   string
	triage *triage.Decision
}

func exportRun(ctx context.Context, opts *ExportOptions) error {
	if opts.Budget < minContextTokens*2 {
		return cmdutil.Usagef("--budget %d is too small: give at least %d tokens", opts.Budget, minContextTokens*2)
	}
	items, err := selectItems(opts)
	if err != nil {
		return err
	}
	patterns, analyze, err := opts.Prepare()
	if err != nil {
		return err
	}
	if opts.Dir == "-" {
		return cmdutil.Usagef("-o -: export writes a directory of bundles, not standard output; name a directory")
	}
	if err := cmdutil.CheckDir(opts.Dir); err != nil {
		return err
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", opts.Dir, err)
	}
	written, failed := 0, 0
	for _, it := range items {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("interrupted after %d bundles: %w", written, err)
		}
		runs, err := itemRuns(ctx, opts, it)
		if err != nil && ctx.Err() != nil {
			return fmt.Errorf("interrupted after %d bundles: %w", written, ctx.Err())
		}
		if err != nil {
			// The message may quote the run: masked as the run would be.
			fmt.Fprintf(opts.IO.ErrOut, "offattr: %s\n", escape.Line(opts.Redact.Error(err).Error()))
			failed++
			continue
		}
		for _, r := range runs {
			path, err := exportOne(ctx, opts, r, it.triage, analyze, patterns)
			if err != nil {
				if cerr := ctx.Err(); cerr != nil {
					return fmt.Errorf("interrupted after %d bundles: %w", written, cerr)
				}
				fmt.Fprintf(opts.IO.ErrOut, "offattr: %s\n", escape.Line(opts.Redact.Error(err).Error()))
				failed++
				continue
			}
			if _, err := fmt.Fprintln(opts.IO.Out, escape.Line(path)); err != nil {
				return fmt.Errorf("write standard output: %w", err)
			}
			written++
		}
	}
	fmt.Fprintf(opts.IO.ErrOut, "exported %d bundles to %s; %d failed\n", written, escape.Line(opts.Dir), failed)
	if failed > 0 {
		return cmdutil.InputsFailed("%d of %d runs could not be exported (see above)", failed, written+failed)
	}
	return nil
}

// itemRuns reads the runs of an item: every trace of a telemetry file, or
// the one run (a screen record names one trace as FILE#TRACEID).
func itemRuns(ctx context.Context, opts *ExportOptions, it item) ([]*run.Run, error) {
	if strings.HasPrefix(it.file, "-:") {
		return nil, fmt.Errorf("export %s: a run read from standard input cannot be read again; save the stream to files and screen those", it.file)
	}
	return opts.Load.LoadAll(ctx, it.file)
}

// selectItems lists the runs to export from the arguments or --from.
func selectItems(opts *ExportOptions) ([]item, error) {
	switch {
	case opts.From != "" && len(opts.Files) > 0:
		return nil, cmdutil.Usagef("give run files or --from, not both")
	case opts.From == "" && len(opts.Files) == 0:
		return nil, cmdutil.Usagef("nothing to export: give run files, or --from a screen output")
	case opts.Escalate && opts.From == "":
		return nil, cmdutil.Usagef("--escalate selects from a screen output: add --from FILE")
	}
	if opts.From == "" {
		items := make([]item, len(opts.Files))
		for i, f := range opts.Files {
			items[i] = item{file: f}
		}
		return items, nil
	}
	c, err := readRecords(opts)
	if err != nil {
		return nil, err
	}
	var items []item
	for _, r := range c.Records {
		if r.Failed() || (opts.Escalate && r.Triage != triage.Escalate) {
			continue
		}
		if r.Key != "" {
			return nil, fmt.Errorf("--from %s: the record of %s: %w", opts.From, r.File, screenfile.ErrMasked)
		}
		d := triage.Decision{Class: r.Triage, Reason: r.Reason}
		items = append(items, item{file: r.File, triage: &d})
	}
	return items, nil
}

// readRecords reads the screen records --from names; "-" reads them from
// standard input (JSONL).
func readRecords(opts *ExportOptions) (screenfile.Contents, error) {
	if opts.From == run.Stdin {
		data, err := io.ReadAll(opts.IO.In)
		if err != nil {
			return screenfile.Contents{}, fmt.Errorf("--from -: read standard input: %w", err)
		}
		c, err := screenfile.Parse(data, screenfile.JSONL)
		if err != nil {
			return screenfile.Contents{}, fmt.Errorf("--from -: %w", err)
		}
		return c, nil
	}
	if _, err := os.Stat(opts.From); err != nil {
		return screenfile.Contents{}, fmt.Errorf("--from %s: %w", opts.From, run.PathCause(err))
	}
	return screenfile.ReadFile(opts.From)
}

// exportOne analyses one run and writes its two files, returning the
// Markdown path; verdict is the screen's, when the run came from one.
func exportOne(ctx context.Context, opts *ExportOptions, r *run.Run, verdict *triage.Decision, analyze engine.AnalyzeFunc, patterns *redact.Patterns) (string, error) {
	res, err := analyze(ctx, r)
	if err != nil {
		return "", fmt.Errorf("analyze %s: %w", r.Source, err)
	}
	a := res.Attribution
	a.File = res.Redactor.String(r.Source) // masked as the run's own name was
	d := triage.Decision{Class: triage.Class(a.Triage), Reason: a.TriageReason}
	if verdict != nil {
		d = *verdict // the screen's verdict, with its thresholds
	}
	ctxf := func(in *rules.Input, target, budget int) (string, error) {
		return opts.Context(ctx, in, target, budget)
	}
	b, err := build(res.Input, a, d, opts.Budget, patterns != nil, ctxf)
	if err != nil {
		return "", fmt.Errorf("export %s: %w", r.Source, err)
	}
	base := filepath.Join(opts.Dir, cmdutil.RunName(r.Source, patterns))
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return "", fmt.Errorf("export %s: %w", r.Source, err)
	}
	if err := cmdutil.WriteOwnFile(base+".json", append(escape.JSON(data), '\n')); err != nil {
		return "", err
	}
	if err := cmdutil.WriteOwnFile(base+".md", []byte(b.Markdown())); err != nil {
		return "", err
	}
	return base + ".md", nil
}
