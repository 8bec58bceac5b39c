// Package fitcmd implements `offattr fit`: learn how the rules combine from
// labelled runs, and say how well that holds on runs the fit did not see.
package fitcmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/eval"
	"github.com/offattr/offattr/fit"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
)

// FitOptions holds every input of one fit.
type FitOptions struct {
	IO     *cmdutil.IOStreams
	Load   cmdutil.LoadFlags
	Rules  cmdutil.RuleFlags
	Paths  []string
	Output string
	// CV is the number of folds of the cross-validation ("loo": one run
	// out at a time).
	CV string
	// Repeats is how many fold assignments k-fold CV averages over.
	Repeats int
	Prior   string
	Lambda  float64
	// Model, when set (--model), is asked about every labelled run, and
	// how much its signals count is fitted too (model.go).
	Model cmdutil.ModelFlags
}

// NewCmdFit returns the fit command.
func NewCmdFit(io *cmdutil.IOStreams, runF func(*FitOptions) error) *cobra.Command {
	opts := &FitOptions{IO: io, Load: cmdutil.LoadFlags{In: io.In}}
	cmd := &cobra.Command{
		Use:   "fit PATH...",
		Short: "Learn how the rules combine from labelled runs",
		Long: `Learn the weights that combine the rules' findings from labelled runs in any
input format (directories as eval reads them: each subdirectory, or each
path, is a corpus), and print how they do next to the weights in use: fitted
in-sample, cross-validated (k-fold, or one run out at a time), and, with
several corpora, fitted on all but one corpus and scored on the one left out.
The last two are the figures to trust.

Telemetry files are labelled as for eval: offattr.mistake=true on the span of
the decisive fault, or --labels.

The weights are a conditional logit over each run's steps (the rules'
findings plus framework-neutral facts about each step) and another over its
agents; the critical share and the triage bands are chosen on out-of-fold
predictions, so confidence is calibrated. By default the fit is pulled
toward the weights in use (--prior current), so a few dozen runs of your own
system adapt them; --prior evidence fits from scratch, from a prior in which
every rule's findings count a little and nothing else counts (the embedded
weights are fitted so); --prior zero, from all weights at zero.

With --model, the model is then asked about every labelled run (as analyze
asks it, on the fitted rules' answer), and a second, small conditional logit
learns how much its signals count beside the rules: the readers' suspects,
each analyst's vote and criteria, and their agreement. Its weights go in the
file's "model" section, which names the model; analyze, eval and screen use
them with --weights and that model, and warn with another. Its figures are
printed beside the rules' own, with what the model alone would answer.`,
		Example: `  offattr fit ../shared/whowhen/dev ../shared/tau-retail --prior evidence -o weights.json
  offattr fit my-runs/ -o mine.json && offattr eval more-runs/ --weights mine.json
  offattr fit my-runs/ --cv loo
  offattr fit my-runs/ --cv 5 --repeats 10
  offattr fit my-runs/ --model qwen3:32b -o mine.json && offattr analyze run.json --model qwen3:32b --weights mine.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = args
			if runF != nil {
				return runF(opts)
			}
			return fitRun(cmd.Context(), opts)
		},
	}
	opts.Load.Register(cmd.Flags())
	opts.Rules.Register(cmd.Flags())
	f := cmd.Flags()
	f.StringVarP(&opts.Output, "output", "o", "", "write the fitted weights to this file")
	f.StringVar(&opts.CV, "cv", "10", `cross-validation folds, or "loo" for one run out at a time`)
	f.IntVar(&opts.Repeats, "repeats", 5, "average k-fold figures over this many ways of dealing the runs into folds")
	f.StringVar(&opts.Prior, "prior", "current", `pull the weights toward "current" (the embedded or --weights ones), "evidence" (each rule's findings count a little, nothing else does) or "zero"`)
	f.Float64Var(&opts.Lambda, "lambda", fit.DefaultLambda, "strength of that pull (L2)")
	opts.Load.RegisterLabels(cmd.Flags())
	opts.Model.Register(cmd.Flags())
	return cmd
}

func fitRun(ctx context.Context, opts *FitOptions) error {
	folds := 0
	if opts.CV != "loo" {
		k, err := strconv.Atoi(opts.CV)
		if err != nil || k < 2 {
			return fmt.Errorf(`--cv %q: give a number of folds ≥ 2, or "loo"`, opts.CV)
		}
		folds = k
	}
	if opts.Repeats < 1 {
		return fmt.Errorf("--repeats %d: must be at least 1", opts.Repeats)
	}
	if folds == 0 {
		opts.Repeats = 1 // one run out at a time has one assignment
	}
	if opts.Lambda <= 0 {
		return fmt.Errorf("--lambda %v: must be positive", opts.Lambda)
	}
	current, err := opts.Rules.Combiner()
	if err != nil {
		return err
	}
	fo := fit.Options{Analyzers: current.Analyzers, Lambda: opts.Lambda}
	switch opts.Prior {
	case "current":
		fo.Prior = current.Weights
	case "evidence":
		fo.Prior = fit.EvidencePrior(current.Analyzers)
	case "zero":
	default:
		return fmt.Errorf(`--prior %q: want "current", "evidence" or "zero"`, opts.Prior)
	}
	loadOpts, err := opts.Load.Options()
	if err != nil {
		return err
	}
	// A missing model or server is told before the rules are fitted.
	judge, err := opts.Model.Judge(ctx, opts.IO)
	if err != nil {
		return err
	}
	subsets, err := eval.Discover(opts.Paths)
	if err != nil {
		return err
	}
	start := time.Now()
	exs, err := fit.Load(ctx, subsets, loadOpts, current.Analyzers, opts.IO.ErrOut)
	if err != nil {
		return err
	}
	if len(exs) < 2 {
		return fmt.Errorf("fit: %d labelled runs under %s; need at least 2", len(exs), strings.Join(opts.Paths, ", "))
	}
	w, err := fit.Fit(ctx, exs, fo)
	if err != nil {
		return err
	}
	cols := []column{{"in use", exs, predictAll(current.Weights, exs, current.Analyzers)}, {"fitted, in-sample", exs, predictAll(w, exs, current.Analyzers)}}
	cvName := opts.CV + "-fold CV"
	switch {
	case folds == 0:
		cvName = "leave-one-run-out"
	case opts.Repeats > 1:
		cvName = fmt.Sprintf("%s (mean of %d)", cvName, opts.Repeats)
	}
	// Repeats pool their predictions: pooled accuracy is the mean over
	// the assignments, each having every run once.
	blindExs := fit.Blinds(exs)
	cv, blindCV := column{name: cvName}, column{name: cvName}
	for a := range opts.Repeats {
		preds, blind, err := fit.CrossValidate(ctx, exs, fit.KFoldsAssigned(exs, folds, a), fo)
		if err != nil {
			return err
		}
		cv.exs, cv.preds = append(cv.exs, exs...), append(cv.preds, preds...)
		blindCV.exs, blindCV.preds = append(blindCV.exs, blindExs...), append(blindCV.preds, blind...)
	}
	cols = append(cols, cv)
	blindCols := []column{{"in use", blindExs, predictAll(current.Weights, blindExs, current.Analyzers)}, {"fitted, in-sample", blindExs, predictAll(w, blindExs, current.Analyzers)}, blindCV}
	corpora := fit.FoldsByCorpus(exs)
	if len(corpora) > 1 {
		loco, locoBlind, err := fit.CrossValidate(ctx, exs, corpora, fo)
		if err != nil {
			return err
		}
		cols = append(cols, column{"leave-one-corpus-out", exs, loco})
		blindCols = append(blindCols, column{"leave-one-corpus-out", blindExs, locoBlind})
	}
	elapsed := time.Since(start)
	fmt.Fprintf(opts.IO.Out, "fitted on %d labelled runs in %.1f s (L2 %.2g toward %s weights)\n\n", len(exs), elapsed.Seconds(), opts.Lambda, opts.Prior)
	if err := writeTable(opts.IO.Out, cols); err != nil {
		return err
	}
	writeLeaks(opts.IO.Out, exs, current.Weights, opts.Prior)
	if len(blindExs) > 0 {
		fmt.Fprintf(opts.IO.Out, "\nthe same runs read without their ground truth, as a run with no known answer is (%d of %d have one to leave out):\n", len(blindExs), len(exs))
		if err := writeTable(opts.IO.Out, blindCols); err != nil {
			return err
		}
	}
	_, overall := fit.Score(cv.exs, cv.preds)
	if err := writeBands(opts.IO.Out, "", cvName, w.Triage, overall, opts.Repeats); err != nil {
		return err
	}
	if b := w.TriageWithoutGroundTruth; b != nil { // set when some run had a ground truth to leave out
		_, blindOverall := fit.Score(blindCV.exs, blindCV.preds)
		if err := writeBands(opts.IO.Out, " without ground truth", cvName, *b, blindOverall, opts.Repeats); err != nil {
			return err
		}
	}
	w.About = about(opts, exs, overall, cvName)
	if judge != nil {
		mw, err := fitModel(ctx, opts, judge, exs, w, current.Analyzers, folds)
		if err != nil {
			return err
		}
		w.Model = mw
	}
	if opts.Output == "" {
		fmt.Fprintln(opts.IO.ErrOut, "(no -o: the weights were not written)")
		return nil
	}
	data, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(opts.Output, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("fit: write %s: %w", opts.Output, run.PathCause(err))
	}
	fmt.Fprintf(opts.IO.ErrOut, "wrote %s\n", opts.Output)
	return nil
}

// column is one way of predicting the runs: exs[i] predicted as preds[i]
// (a run appears once per repeat).
type column struct {
	name  string
	exs   []fit.Example
	preds []rules.Attribution
}

func predictAll(w *rules.Weights, exs []fit.Example, as []*rules.Analyzer) []rules.Attribution {
	out := make([]rules.Attribution, len(exs))
	for i, ex := range exs {
		out[i] = fit.Predict(w, ex, as)
	}
	return out
}

func writeTable(out io.Writer, cols []column) error {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "corpus\tcases\t"
	for _, c := range cols {
		head += c.name + ": agent\tstep\tr@5\t"
	}
	fmt.Fprintln(tw, head)
	scores := make([][]eval.Score, len(cols))
	for k, c := range cols {
		subs, all := fit.Score(c.exs, c.preds)
		scores[k] = append(subs, all)
	}
	for row := range scores[0] {
		s0 := scores[0][row]
		line := fmt.Sprintf("%s\t%d\t", s0.Name, s0.Cases)
		for k := range cols {
			s := scores[k][row]
			line += fmt.Sprintf("%.3f\t%.3f\t%.3f\t", s.AgentAccuracy, s.StepAccuracy, s.RecallAt["5"])
		}
		fmt.Fprintln(tw, line)
	}
	return tw.Flush()
}

// writeLeaks says which figures the weights in use have seen the answers
// to: those they were fitted on, and, under --prior current, the
// cross-validated ones, whose every fold is pulled toward weights fitted
// on its held-out runs.
func writeLeaks(out io.Writer, exs []fit.Example, inUse *rules.Weights, prior string) {
	seen := 0
	for _, ex := range exs {
		if inUse.InSample(ex.Fingerprint) {
			seen++
		}
	}
	if seen == 0 {
		return
	}
	fmt.Fprintf(out, "\nthe weights in use were fitted on %d of these %d runs: their figures are in-sample", seen, len(exs))
	if prior == "current" {
		fmt.Fprint(out, ", and so are the cross-validated ones, pulled toward them (--prior current); --prior evidence measures without them")
	}
	fmt.Fprintln(out)
}

// writeBands prints the bands' accuracy; cases are per assignment (a
// band's count, pooled over repeats, divided by them).
func writeBands(out io.Writer, which, cvName string, b rules.Bands, overall eval.Score, repeats int) error {
	fmt.Fprintf(out, "\ntriage bands%s (clear ≥ %.3f, escalate < %.3f), %s:\n", which, b.Clear, b.Escalate, cvName)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "band\tcases\tstep acc\tagent acc\t")
	for _, band := range []string{"clear", "review", "escalate"} {
		s := overall.Triage[band]
		fmt.Fprintf(tw, "%s\t%.4g\t%.3f\t%.3f\t\n", band, float64(s.Cases)/float64(repeats), s.StepAccuracy, s.AgentAccuracy)
	}
	return tw.Flush()
}

func about(opts *FitOptions, exs []fit.Example, cv eval.Score, cvName string) string {
	count := map[string]int{}
	var order []string
	for _, ex := range exs {
		if count[ex.Corpus] == 0 {
			order = append(order, ex.Corpus)
		}
		count[ex.Corpus]++
	}
	parts := make([]string, len(order))
	for i, c := range order {
		parts[i] = fmt.Sprintf("%s %d", c, count[c])
	}
	return fmt.Sprintf("offattr fit on %d runs (%s), L2 %.2g toward %s weights; %s overall: agent %.3f, step %.3f, recall@5 %.3f",
		len(exs), strings.Join(parts, ", "), opts.Lambda, opts.Prior, cvName, cv.AgentAccuracy, cv.StepAccuracy, cv.RecallAt["5"])
}
