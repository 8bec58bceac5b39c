// Package screencmd implements `offattr screen`: attribute every run under
// the given paths in parallel, triage each, and write one record per input
// in input order, resumably and shardably.
package screencmd

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/cmd/offattr/internal/screenfile"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/triage"
)

// ScreenOptions holds every input and dependency of one screen.
type ScreenOptions struct {
	IO *cmdutil.IOStreams
	// Analysis loads and analyses the runs; its redaction masks secrets
	// before analysis.
	cmdutil.Analysis
	Paths []string
	// Output is the records file; empty for stdout (JSONL).
	Output  string
	Workers int
	Resume  bool
	Shard   string
	// Triage holds the thresholds set by --clear-above, --escalate-below
	// and --margin, over the triage bands fitted with the weights.
	Triage triage.Override
	// Candidates is how many ranked candidates each record keeps.
	Candidates int
}

// NewCmdScreen returns the screen command; runF replaces the run function
// in tests that check flag parsing alone.
func NewCmdScreen(io *cmdutil.IOStreams, runF func(*ScreenOptions) error) *cobra.Command {
	opts := &ScreenOptions{IO: io, Analysis: cmdutil.NewAnalysis(io)}
	var bands triage.Thresholds
	cmd := &cobra.Command{
		Use:   "screen PATH...",
		Short: "Attribute and triage many failed runs in parallel",
		Long: `Attribute every run under PATH (directories recursively, globs, or - for a
JSONL stream of runs on standard input, one run per line) and triage each as
clear, review or escalate. One record per input, in input order, failures
included as {"file","error"}; a summary goes to standard error. Each trace
of a telemetry file (OTLP/JSON, Tempo, Jaeger, Phoenix, Langfuse) is a
record of its own, its file named FILE#TRACEID, with the trace and span of
the step.

Directories are walked recursively, following symbolic links (each directory
once, so a link cycle ends). Records are JSONL, or CSV when -o ends in .csv
(cells a spreadsheet would read as formulas start with a quote). Ctrl-C stops
cleanly and the output holds every record finished in order so far; --resume
continues into the same file, skipping inputs already recorded. One screen at
a time writes a file: a second one stops, naming the first (OUTPUT.lock).
--shard i/n takes a stable 1/n of the inputs (by a hash of each input's
name), for batch schedulers. Exit status 1 when any input failed: its record
says why, and every other input is recorded.

Triage: escalate when there is no decisive candidate, the model's analysts
voted for another step, or confidence < --escalate-below; clear when
confidence ≥ --clear-above, or the rules' evidence points at few steps (the
record's spread at most the weights' clear spread, and the answer still the
rules' own), and the runner-up is more than --margin behind; review
otherwise. Every record says why. The bands default to those fitted with
the weights (calibrated under cross-validation: see docs/benchmarks.md),
which has a set for runs without a ground truth; the flags' defaults below
are those for runs with one. A flag given replaces its own threshold for
every run (--clear-above the clear by spread too); the others keep the
weights' bands.

Memory: a screen trades memory for speed, collecting garbage when the heap
has grown to five times what is live (GOGC=400) rather than twice; set GOGC
(GOGC=100 is Go's default) or GOMEMLIMIT to choose otherwise.`,
		Example: `  offattr screen runs/ -o screen.jsonl
  offattr screen 'logs/*/run-*.json' -o screen.csv --workers 8 --redact
  cat runs.jsonl | offattr screen - > screen.jsonl
  offattr screen corpus/ -o part-3.jsonl --shard 3/8 --resume
  offattr screen corpus/ -o screen.jsonl --model qwen3:8b --ollama-host gpu1:11434,gpu2:11434`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = args
			f := cmd.Flags()
			set := func(name string, v *float64) *float64 {
				if f.Changed(name) {
					return v
				}
				return nil
			}
			opts.Triage = triage.Override{Clear: set("clear-above", &bands.Clear), Escalate: set("escalate-below", &bands.Escalate), Margin: set("margin", &bands.Margin)}
			opts.SetDefaultAnalyzer(cmd.Context(), opts.IO, opts.Triage)
			if runF != nil {
				return runF(opts)
			}
			return opts.Redact.Error(screenRun(cmd.Context(), opts))
		},
	}
	f := cmd.Flags()
	opts.Analysis.Register(f)
	f.StringVarP(&opts.Output, "output", "o", "", "write records to this file (.jsonl or .csv) instead of standard output")
	cmdutil.IntVarP(f, &opts.Workers, "workers", "j", runtime.NumCPU(), 1, math.MaxInt, "runs analysed in parallel")
	f.BoolVar(&opts.Resume, "resume", false, "continue an interrupted screen: skip inputs already in the -o file and append")
	f.StringVar(&opts.Shard, "shard", "", "process only shard i of n (i/n, 0 ≤ i < n), chosen by a hash of each input's name")
	w := rules.DefaultWeights()
	cmdutil.FloatVar(f, &bands.Clear, "clear-above", w.Triage.Clear, 0, 1, false, "confidence at or above which a run may be clear (default: the weights' band)")
	cmdutil.FloatVar(f, &bands.Escalate, "escalate-below", w.Triage.Escalate, 0, 1, false, "confidence below which a run is escalated (default: the weights' band)")
	cmdutil.FloatVar(f, &bands.Margin, "margin", 0, 0, 1, false, "lead over the runner-up's score a clear run needs")
	cmdutil.IntVar(f, &opts.Candidates, "candidates", 3, 0, math.MaxInt, "ranked candidates kept in each JSONL record")
	return cmd
}

// ScreenGCPercent is the garbage collector's target while a screen runs,
// unless GOGC is set. A screen allocates fast over a small live heap (the
// runs its workers hold), and at Go's default of 100, which collects each
// time the heap has doubled, collecting takes about a sixth of its time.
// At 400 the heap grows to five times what is live between collections;
// peak memory rises by half to double (see docs/screening.md).
const ScreenGCPercent = 400

func screenRun(ctx context.Context, opts *ScreenOptions) error {
	shard, err := ParseShard(opts.Shard)
	if err != nil {
		return cmdutil.Usage(err)
	}
	comb, err := opts.Rules.Combiner()
	if err != nil {
		return err
	}
	for _, b := range []*rules.Bands{&comb.Weights.Triage, comb.Weights.TriageWithoutGroundTruth} {
		if b == nil {
			continue
		}
		if err := opts.Triage.For(*b).Validate(); err != nil {
			return cmdutil.Usage(fmt.Errorf("%w (the flags not given keep the weights' bands, clear-above %.3f and escalate-below %.3f)", err, b.Clear, b.Escalate))
		}
	}
	if opts.Workers < 1 {
		return cmdutil.Usagef("--workers %d: need at least 1", opts.Workers)
	}
	if opts.Output == "-" {
		opts.Output = "" // standard output, as for report -o and eval --cases
	}
	if opts.Resume && opts.Output == "" {
		return cmdutil.Usagef("--resume needs -o FILE: it continues that file")
	}
	patterns, analyze, err := opts.Prepare()
	if err != nil {
		return err
	}

	out, recorded, err := openOutput(opts, patterns != nil)
	if err != nil {
		return err
	}
	defer out.close()

	s := &screener{
		opts: opts, analyze: analyze, patterns: patterns, shard: shard,
		recorded: recorded, sum: newSummary(), out: out.w,
	}
	defer cmdutil.CollectAt(ScreenGCPercent)()
	start := time.Now()
	runErr := s.run(ctx)
	closeErr := out.close()
	s.sum.write(opts.IO.ErrOut, time.Since(start), opts.Workers)
	switch {
	case runErr != nil:
		return runErr
	case closeErr != nil:
		return closeErr
	case ctx.Err() != nil:
		if opts.Output != "" {
			return fmt.Errorf("interrupted: %s holds %d complete records; run the same command with --resume to finish: %w", opts.Output, len(recorded)+s.sum.recorded, ctx.Err())
		}
		return fmt.Errorf("interrupted: %w", ctx.Err())
	case s.sum.failed > 0:
		where := "recorded as errors on standard output"
		if opts.Output != "" {
			where = "recorded as errors in " + opts.Output
		}
		return cmdutil.InputsFailed("%d of %d inputs could not be analysed (%s)", s.sum.failed, s.sum.recorded, where)
	}
	return nil
}

// output is where records go, and how to close it.
type output struct {
	w      *screenfile.Writer
	file   *os.File
	lock   *outputLock
	closed bool
}

// close closes the records file, then lets its lock go.
func (o *output) close() error {
	if o.closed {
		return nil
	}
	o.closed = true
	var err error
	if o.file != nil {
		if cerr := o.file.Close(); cerr != nil {
			err = fmt.Errorf("close %s: %w", o.file.Name(), cerr)
		}
	}
	if lerr := o.lock.release(); lerr != nil && err == nil {
		err = lerr
	}
	return err
}

// openOutput opens the records destination, holding its lock first (see
// lock.go). With --resume it reads what the file already records, cuts
// off a partial last line (a killed run) and appends; without it, it
// refuses to overwrite records. keyed is set when names are masked
// (--redact): CSV records then carry their key.
func openOutput(opts *ScreenOptions, keyed bool) (_ *output, _ map[string]bool, err error) {
	if opts.Output == "" {
		w, err := screenfile.NewWriter(opts.IO.Out, screenfile.JSONL, false, keyed)
		return &output{w: w}, nil, err
	}
	if err := opts.IO.CheckOutput(opts.Output); err != nil {
		return nil, nil, err
	}
	if err := cmdutil.CheckNotInput(opts.Output, opts.Inputs(opts.Paths)); err != nil {
		return nil, nil, err
	}
	lock, err := lockOutput(opts.Output)
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		if err != nil {
			_ = lock.release() // the error being returned says more
		}
	}()
	have, err := screenfile.ReadOutput(opts.Output)
	if err != nil {
		return nil, nil, fmt.Errorf("%w (is -o the right file?)", err)
	}
	if have.Records > 0 && !opts.Resume {
		return nil, nil, cmdutil.Usagef("%s already holds %d records: add --resume to continue it, or remove it", opts.Output, have.Records)
	}
	flags := os.O_CREATE | os.O_WRONLY
	if opts.Resume {
		flags |= os.O_APPEND
	} else {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(opts.Output, flags, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("open %s: %w", opts.Output, run.PathCause(err))
	}
	if opts.Resume {
		if err := f.Truncate(have.Complete); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("cut the partial last record of %s: %w", opts.Output, err)
		}
	}
	format := screenfile.FormatFor(opts.Output)
	header := format == screenfile.CSV && (!opts.Resume || have.Complete == 0)
	w, err := screenfile.NewWriter(f, format, header, keyed)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("write %s: %w", opts.Output, err)
	}
	return &output{w: w, file: f, lock: lock}, have.Names, nil
}
