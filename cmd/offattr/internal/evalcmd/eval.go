// Package evalcmd implements `offattr eval`: attribute every labelled case
// under the given paths and report accuracy per subset.
package evalcmd

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/eval"
	"github.com/offattr/offattr/internal/escape"
	"github.com/offattr/offattr/redact"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/triage"
)

// EvalOptions holds every input and dependency of one eval.
type EvalOptions struct {
	IO *cmdutil.IOStreams
	// Analysis loads and analyses the cases; its redaction masks each
	// case, run and label, before it is analysed, so the --cases lines and
	// the warnings are masked too.
	cmdutil.Analysis
	Mode        string
	Paths       []string
	JSON        bool
	CasesPath   string
	Baseline    string
	Calibration bool
}

// NewCmdEval returns the eval command.
func NewCmdEval(io *cmdutil.IOStreams, runF func(*EvalOptions) error) *cobra.Command {
	opts := &EvalOptions{IO: io, Mode: rules.ModeRules, Analysis: cmdutil.NewAnalysis(io)}
	cmd := &cobra.Command{
		Use:   "eval PATH...",
		Short: "Measure attribution accuracy on labelled cases",
		Long: `Attribute every labelled case under PATH and report, per subset and overall,
agent accuracy, step accuracy, step accuracy within ±k steps and recall@k,
beside what each label-free guess (first-step, last-step, busiest-first,
random) scores on the same cases: the rules are worth running on a system
only above the best of them.
PATH is a directory of case files, or a directory whose subdirectories are
(each subdirectory is a subset, named by its base name), a case file, or -
for one case on standard input. A case that cannot be read or analysed is
reported, counted as wrong, and makes eval exit 1 after the report.

Telemetry files (OTLP/JSON, Tempo, Jaeger, Phoenix, Langfuse) are cases too,
one per labelled trace: the span of the decisive fault carries
offattr.mistake=true (and offattr.mistake_reason), or --labels names it.`,
		Example: `  offattr eval ../shared/whowhen/dev
  offattr eval ../shared/whowhen/dev --no-ground-truth --json --cases cases.jsonl
  offattr eval ../shared/whowhen/dev --model qwen3:8b --parallel 2
  offattr eval traces/ --labels labels.jsonl`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = args
			if opts.Analyzer == nil && opts.Baseline != "" {
				opts.Analyzer = func(p *redact.Patterns) (engine.AnalyzeFunc, error) {
					if opts.Model.Enabled() {
						return nil, cmdutil.Usagef("--baseline measures a rules floor; it cannot be combined with --model")
					}
					return engine.New(engine.Options{Baseline: opts.Baseline, Redact: p})
				}
			}
			opts.SetDefaultAnalyzer(cmd.Context(), opts.IO, triage.Override{})
			if runF != nil {
				return runF(opts)
			}
			return opts.Redact.Error(evalRun(cmd.Context(), opts))
		},
	}
	opts.Analysis.Register(cmd.Flags())
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the report as JSON")
	cmd.Flags().StringVar(&opts.CasesPath, "cases", "", "write one JSON line per case to this file")
	cmd.Flags().BoolVar(&opts.Calibration, "calibration", false, "also print accuracy per confidence band")
	opts.Load.RegisterLabels(cmd.Flags())
	cmdutil.ChoiceVar(cmd.Flags(), &opts.Baseline, "baseline", "", rules.BaselineNames(), "measure a trivial baseline instead of the rules: "+strings.Join(rules.BaselineNames(), ", "))
	return cmd
}

func evalRun(ctx context.Context, opts *EvalOptions) error {
	loadOpts, err := opts.Load.Options()
	if err != nil {
		return err
	}
	patterns, err := opts.Redact.Compile()
	if err != nil {
		return err
	}
	subsets, err := eval.Discover(opts.Paths)
	if err != nil {
		return err
	}
	// eval redacts each case itself, label included; the engine must not
	// redact the run a second time.
	analyze, err := opts.Analyzer(nil)
	if err != nil {
		return err
	}
	// The cases file is written whole or not at all: eval has no --resume
	// to continue half of one.
	var cases io.Writer
	var casesFile *cmdutil.AtomicFile
	if opts.CasesPath != "" {
		if err := opts.IO.CheckOutput(opts.CasesPath); err != nil {
			return err
		}
		if err := cmdutil.CheckNotInput(opts.CasesPath, opts.Inputs(opts.Paths)); err != nil {
			return err
		}
		f, err := cmdutil.CreateAtomic(opts.CasesPath)
		if err != nil {
			return fmt.Errorf("eval: %w", run.PathCause(err))
		}
		defer f.Abort() // once committed, there is nothing left to remove
		cases, casesFile = f, f
	}
	eo := eval.Options{Load: loadOpts, Redact: patterns, Cases: cases, Warn: opts.IO.ErrOut, Floors: opts.Baseline == ""}
	if opts.Baseline == "" {
		c, err := opts.Rules.Combiner()
		if err != nil {
			return err
		}
		eo.InSample = c.Weights.InSample
	}
	rep, err := eval.Evaluate(ctx, subsets, analyze, eo)
	if err != nil {
		return err
	}
	if casesFile != nil {
		if err := casesFile.Commit(); err != nil {
			return fmt.Errorf("eval: %w", err)
		}
	}
	rep.Mode = opts.Mode
	// With --model the mode is rules+llm even when every answer came from
	// the cache (a re-run makes no call).
	if rep.Overall.Usage.LLMCalls > 0 || opts.Model.Enabled() {
		rep.Mode = rules.ModeRulesLLM
	}
	if opts.Baseline != "" {
		rep.Mode = "baseline " + opts.Baseline
	}
	if err := writeReport(opts, rep); err != nil {
		return err
	}
	if n := rep.Overall.Failed; n > 0 {
		return cmdutil.InputsFailed("%d of %d cases could not be evaluated (see above; they count as wrong)", n, rep.Overall.Cases)
	}
	if rep.Overall.Cases == 0 {
		return cmdutil.InputsFailed("no labelled case under %s (%d files hold no label)", strings.Join(opts.Paths, ", "), rep.Overall.Unlabelled)
	}
	return nil
}

func writeReport(opts *EvalOptions, rep eval.Report) error {
	if opts.JSON {
		return cmdutil.WriteJSON(opts.IO.Out, rep)
	}
	if err := WriteTable(opts.IO.Out, rep); err != nil {
		return err
	}
	if err := WriteFloors(opts.IO.Out, rep); err != nil {
		return err
	}
	if err := WriteTriage(opts.IO.Out, rep); err != nil {
		return err
	}
	if opts.Calibration {
		return WriteCalibration(opts.IO.Out, rep.Calibration)
	}
	return nil
}

// WriteFloors prints, per subset and overall, the answers' agent and step
// accuracy beside each label-free guess's and the best of them: on a
// user's own system, the rules are worth running only above that floor.
func WriteFloors(w io.Writer, rep eval.Report) error {
	if len(rep.Overall.Floors) == 0 {
		return nil // a baseline is measured alone
	}
	guesses := rules.LabelFreeBaselines()
	fmt.Fprintln(w, "\nbeside the label-free floors (agent / step):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "subset\t%s\t%s\tbest floor\t\n", rep.Mode, strings.Join(guesses, "\t"))
	for _, s := range append(rep.Subsets, rep.Overall) {
		pair := func(a eval.Accuracy) string {
			return cmdutil.Accuracy(a.AgentAccuracy, s.Cases) + " / " + cmdutil.Accuracy(a.StepAccuracy, s.Cases)
		}
		row := escape.Line(s.Name) + "\t" + pair(eval.Accuracy{AgentAccuracy: s.AgentAccuracy, StepAccuracy: s.StepAccuracy}) + "\t"
		for _, g := range guesses {
			row += pair(s.Floors[g]) + "\t"
		}
		best, _ := s.BestFloor()
		fmt.Fprintln(tw, row+pair(best)+"\t")
	}
	return tw.Flush()
}

// WriteTriage prints accuracy per triage band, per subset and overall:
// clear should be right without a second look, escalate the least
// accurate.
func WriteTriage(w io.Writer, rep eval.Report) error {
	triaged := 0
	for _, b := range rep.Overall.Triage {
		triaged += b.Cases
	}
	if triaged == 0 {
		return nil // baselines are not triaged, nor a case that failed
	}
	fmt.Fprintln(w, "\ntriage bands (cases, step accuracy, agent accuracy):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "subset\tclear\t\t\treview\t\t\tescalate\t\t\t")
	for _, s := range append(rep.Subsets, rep.Overall) {
		row := escape.Line(s.Name) + "\t"
		for _, band := range []string{"clear", "review", "escalate"} {
			b := s.Triage[band]
			row += fmt.Sprintf("%d\t%5s\t%5s\t", b.Cases, cmdutil.Accuracy(b.StepAccuracy, b.Cases), cmdutil.Accuracy(b.AgentAccuracy, b.Cases))
		}
		fmt.Fprintln(tw, row)
	}
	return tw.Flush()
}

// WriteCalibration prints accuracy per confidence band.
func WriteCalibration(w io.Writer, bins []eval.Bin) error {
	fmt.Fprintln(w, "\ncalibration (all cases):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "confidence\tcases\tstep acc\tagent acc\t")
	for _, b := range bins {
		fmt.Fprintf(tw, "%.1f–%.1f\t%d\t%s\t%s\t\n", b.Low, b.High, b.Cases, cmdutil.Accuracy(b.StepAccuracy(), b.Cases), cmdutil.Accuracy(b.AgentAccuracy(), b.Cases))
	}
	return tw.Flush()
}

// WriteTable prints the report as an aligned table.
func WriteTable(w io.Writer, rep eval.Report) error {
	fmt.Fprintf(w, "setting: %s   mode: %s\n\n", strings.ReplaceAll(rep.Setting, "_", " "), rep.Mode)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{"subset", "cases", "failed", "agent", "step"}
	for _, k := range eval.WithinK {
		head = append(head, "±"+strconv.Itoa(k))
	}
	for _, k := range eval.RecallK {
		head = append(head, "r@"+strconv.Itoa(k))
	}
	exposure := rep.Overall.ModelExposure != nil
	if exposure {
		head = append(head, "exposure")
	}
	head = append(head, "llm calls", "prompt tok", "seconds")
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, s := range append(rep.Subsets, rep.Overall) {
		// Subset names are directory names: escaped, and tab-free for the
		// table's columns.
		// A subset of no case (a folder of unlabelled files) has no
		// figures: a dash, not a zero.
		acc := func(f float64) string { return cmdutil.Accuracy(f, s.Cases) }
		row := []string{escape.Line(s.Name), strconv.Itoa(s.Cases), strconv.Itoa(s.Failed), acc(s.AgentAccuracy), acc(s.StepAccuracy)}
		for _, k := range eval.WithinK {
			row = append(row, acc(s.StepWithin[strconv.Itoa(k)]))
		}
		for _, k := range eval.RecallK {
			row = append(row, acc(s.RecallAt[strconv.Itoa(k)]))
		}
		if exposure {
			e := 0.0
			if s.ModelExposure != nil {
				e = *s.ModelExposure
			}
			row = append(row, acc(e))
		}
		row = append(row, strconv.Itoa(s.Usage.LLMCalls), strconv.Itoa(s.Usage.PromptTokens), fmt.Sprintf("%.3f", s.Seconds))
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if n := rep.Overall.Unlabelled; n > 0 {
		fmt.Fprintf(w, "\nunlabelled: %d files hold no label; they are left out of every figure\n", n)
	}
	if err := writeModelOnly(w, rep); err != nil {
		return err
	}
	if n := rep.Overall.InSample; n > 0 {
		_, err := fmt.Fprintf(w, "\nin-sample: the weights were fitted on %d of these %d cases, so their figures overstate accuracy on new runs; offattr fit PATH... cross-validates\n", n, rep.Overall.Cases)
		return err
	}
	return nil
}

func pct(f float64) string { return fmt.Sprintf("%.3f", f) }

// writeModelOnly says, with a model, what it alone would have answered
// (its analysts' pick) beside the combined answer, per subset.
func writeModelOnly(w io.Writer, rep eval.Report) error {
	if rep.Overall.ModelOnly == nil {
		return nil
	}
	var parts []string
	for _, s := range append(rep.Subsets, rep.Overall) {
		if m := s.ModelOnly; m != nil {
			parts = append(parts, fmt.Sprintf("%s agent %s step %s (combined %s / %s)", escape.Line(s.Name), pct(m.AgentAccuracy), pct(m.StepAccuracy), pct(s.AgentAccuracy), pct(s.StepAccuracy)))
		}
	}
	_, err := fmt.Fprintf(w, "\nmodel alone (its analysts' pick, without the rules): %s\n", strings.Join(parts, "; "))
	return err
}
