// Package fitcmd implements `offattr fit`: learn how the rules combine from
// labelled runs, and say how well that holds on runs the fit did not see.
package fitcmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/eval"
	"github.com/offattr/offattr/fit"
	"github.com/offattr/offattr/internal/escape"
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
	// JSON prints the figures, with each corpus's label-free floors, as
	// one JSON document instead of tables.
	JSON bool
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
findings plus framework-neutral facts about each step); the agent is the one
who answers for the chosen step. The critical share and the triage bands are chosen on out-of-fold
predictions, so confidence is calibrated. If, out of fold, one of the
label-free guesses (the first agent step, the last step, the busiest agent's
first step) was right more often than the rules by a sign test at 5% (of the
runs where they differ, five won and none lost is the least that passes),
and no worse on any corpus, the weights answer with that guess and rank the
alternatives by the rules. By default the fit is pulled
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
	cmdutil.IntVar(f, &opts.Repeats, "repeats", 5, 1, math.MaxInt, "average k-fold figures over this many ways of dealing the runs into folds")
	cmdutil.ChoiceVar(f, &opts.Prior, "prior", "current", []string{"current", "evidence", "zero"}, `pull the weights toward "current" (the embedded or --weights ones), "evidence" (each rule's findings count a little, nothing else does) or "zero"`)
	cmdutil.FloatVar(f, &opts.Lambda, "lambda", fit.DefaultLambda, 0, math.Inf(1), true, "strength of that pull (L2)")
	f.BoolVar(&opts.JSON, "json", false, "print the figures per corpus (in-sample, cross-validated, leave-one-corpus-out; agent, step, recall@1/3/5) with the label-free floors, as JSON")
	opts.Load.RegisterLabels(cmd.Flags())
	opts.Model.Register(cmd.Flags())
	return cmd
}

func fitRun(ctx context.Context, opts *FitOptions) error {
	if opts.Output == "-" {
		return cmdutil.Usagef("-o -: fit prints its report on standard output; name a file for the weights")
	}
	if opts.Output != "" {
		// Before the work, which takes a while, not after it.
		if err := opts.IO.CheckOutput(opts.Output); err != nil {
			return err
		}
		if err := cmdutil.CheckNotInput(opts.Output, cmdutil.Inputs(opts.Paths, opts.Load.Labels, opts.Rules.Weights)); err != nil {
			return err
		}
	}
	folds := 0
	if opts.CV != "loo" {
		k, err := strconv.Atoi(opts.CV)
		if err != nil || k < 2 {
			return cmdutil.Usagef(`invalid argument %q for "--cv" flag: give a number of folds ≥ 2, or "loo"`, opts.CV)
		}
		folds = k
	}
	if folds == 0 {
		opts.Repeats = 1 // one run out at a time has one assignment
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
	default: // the flag takes only the three
		return cmdutil.Usagef(`invalid argument %q for "--prior" flag: want one of current, evidence, zero`, opts.Prior)
	}
	loadOpts, err := opts.Load.Options()
	if err != nil {
		return err
	}
	if opts.JSON && opts.Model.Model != "" {
		return cmdutil.Usagef("--json prints the rules' figures; fit --model prints its own tables, so the two do not combine")
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
	stage := stager(opts.IO)
	defer stage("")
	stage("reading and analysing the labelled runs under %s", strings.Join(opts.Paths, ", "))
	exs, stats, err := fit.LoadCounted(ctx, subsets, loadOpts, current.Analyzers, opts.IO.ErrOut)
	if err != nil {
		return err
	}
	if stats.Unlabelled > 0 {
		fmt.Fprintf(opts.IO.ErrOut, "offattr: %d files hold no label and are left out\n", stats.Unlabelled)
	}
	if len(exs) < 2 {
		return fmt.Errorf("fit: %d labelled runs under %s; need at least 2", len(exs), strings.Join(opts.Paths, ", "))
	}
	stage("fitting the weights on %d runs", len(exs))
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
	var oof []rules.Attribution // the first assignment's, for the model
	for a := range opts.Repeats {
		stage("cross-validating: %s, round %d of %d", cvName, a+1, opts.Repeats)
		preds, blind, err := fit.CrossValidate(ctx, exs, fit.KFoldsAssigned(exs, folds, a), fo)
		if err != nil {
			return err
		}
		if a == 0 {
			oof = preds
		}
		cv.exs, cv.preds = append(cv.exs, exs...), append(cv.preds, preds...)
		blindCV.exs, blindCV.preds = append(blindCV.exs, blindExs...), append(blindCV.preds, blind...)
	}
	cols = append(cols, cv)
	blindCols := []column{{"in use", blindExs, predictAll(current.Weights, blindExs, current.Analyzers)}, {"fitted, in-sample", blindExs, predictAll(w, blindExs, current.Analyzers)}, blindCV}
	corpora := fit.FoldsByCorpus(exs)
	if len(corpora) > 1 {
		stage("cross-validating: leave-one-corpus-out, %d corpora", len(corpora))
		loco, locoBlind, err := fit.CrossValidate(ctx, exs, corpora, fo)
		if err != nil {
			return err
		}
		cols = append(cols, column{"leave-one-corpus-out", exs, loco})
		blindCols = append(blindCols, column{"leave-one-corpus-out", blindExs, locoBlind})
	}
	stage("")
	elapsed := time.Since(start)
	if opts.JSON {
		if err := writeJSON(opts.IO.Out, exs, cols, w); err != nil {
			return err
		}
		_, overall := fit.Score(cv.exs, cv.preds)
		w.About = about(opts, exs, overall, cvName)
		return writeWeights(opts, w, stats)
	}
	fmt.Fprintf(opts.IO.Out, "fitted on %d labelled runs in %.1f s (L2 %.2g toward %s weights)\n\n", len(exs), elapsed.Seconds(), opts.Lambda, opts.Prior)
	if err := writeTable(opts.IO.Out, cols); err != nil {
		return err
	}
	writeLeaks(opts.IO.Out, exs, current.Weights, opts.Prior)
	if len(blindExs) > 0 {
		fmt.Fprintf(opts.IO.Out, "\nthe same runs read without their ground truth (%d of %d have one to leave out):\n", len(blindExs), len(exs))
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
	if w.Guess != "" {
		fmt.Fprintf(opts.IO.Out, "\nthe weights answer with the %s guess: on these runs, out of fold, it was right\nmore often than the rules' pick by a sign test at 5%%, and no less often on any corpus\n", w.Guess)
	}
	w.About = about(opts, exs, overall, cvName)
	if judge != nil {
		mw, err := fitModel(ctx, opts, judge, exs, oof, folds)
		if err != nil {
			return err
		}
		w.Model = mw
	}
	return writeWeights(opts, w, stats)
}

// writeWeights writes w to --output, if given, and says whether some
// labelled input could not be used.
func writeWeights(opts *FitOptions, w *rules.Weights, stats fit.LoadStats) error {
	if opts.Output == "" {
		fmt.Fprintln(opts.IO.ErrOut, "(no -o: the weights were not written)")
		return failed(stats)
	}
	data, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		return err
	}
	if err := cmdutil.WriteFileAtomic(opts.Output, append(data, '\n')); err != nil {
		return fmt.Errorf("fit: %w", run.PathCause(err))
	}
	fmt.Fprintf(opts.IO.ErrOut, "wrote %s\n", escape.Line(opts.Output))
	return failed(stats)
}

// failed is the error of a fit that left out cases it could not read or
// whose label is outside the run: the weights are written, and the exit
// status says something was wrong.
func failed(stats fit.LoadStats) error {
	if stats.Failed > 0 {
		return cmdutil.InputsFailed("%d labelled files or cases could not be used (see above); the weights were fitted without them", stats.Failed)
	}
	return nil
}

// stager returns a function that shows what fit is doing on one line of
// a terminal, replaced by each call and cleared by an empty one; on
// anything else it writes nothing.
func stager(s *cmdutil.IOStreams) func(format string, args ...any) {
	shown := false
	return func(format string, args ...any) {
		if !s.ErrTTY || (format == "" && !shown) {
			return
		}
		msg := ""
		if format != "" {
			msg = "fit: " + fmt.Sprintf(format, args...) + "…"
		}
		shown = format != ""
		fmt.Fprint(s.ErrOut, "\r"+escape.Line(msg)+"\x1b[K")
	}
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

// writeTable prints each corpus's figures under every way of predicting
// it, one way a line, so that the table stays narrow (under 100 columns)
// however many ways there are.
func writeTable(out io.Writer, cols []column) error {
	scores := make([][]eval.Score, len(cols))
	for k, c := range cols {
		subs, all := fit.Score(c.exs, c.preds)
		scores[k] = append(subs, all)
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "\t%5s\t%5s\t%5s\n", "agent", "step", "r@5")
	for row := range scores[0] {
		s0 := scores[0][row]
		fmt.Fprintf(tw, "%s, %d cases\t\t\t\n", escape.Line(s0.Name), s0.Cases)
		for k, c := range cols {
			s := scores[k][row]
			fmt.Fprintf(tw, "  %s\t%5s\t%5s\t%5s\n", c.name, cmdutil.Accuracy(s.AgentAccuracy, s.Cases), cmdutil.Accuracy(s.StepAccuracy, s.Cases), cmdutil.Accuracy(s.RecallAt["5"], s.Cases))
		}
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
		fmt.Fprint(out, ",\nand so are the cross-validated ones, pulled toward them (--prior current);\n--prior evidence measures without them")
	}
	fmt.Fprintln(out)
}

// writeBands prints the bands' accuracy; cases are per assignment (a
// band's count, pooled over repeats, divided by them).
func writeBands(out io.Writer, which, cvName string, b rules.Bands, overall eval.Score, repeats int) error {
	fmt.Fprintf(out, "\ntriage bands%s (clear ≥ %.3f, escalate < %.3f), %s:\n", which, b.Clear, b.Escalate, cvName)
	if b.ClearSpread > 0 {
		// Without it, runs cleared below the clear confidence (all of
		// them, when it is 1) look like a mistake.
		fmt.Fprintf(out, "(clear too: the rules' own answer with a spread ≤ %.3f, the evidence on few steps)\n", b.ClearSpread)
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "band\tcases\tstep acc\tagent acc\t")
	for _, band := range []string{"clear", "review", "escalate"} {
		s := overall.Triage[band]
		fmt.Fprintf(tw, "%s\t%.4g\t%s\t%s\t\n", band, float64(s.Cases)/float64(repeats), cmdutil.Accuracy(s.StepAccuracy, s.Cases), cmdutil.Accuracy(s.AgentAccuracy, s.Cases))
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
