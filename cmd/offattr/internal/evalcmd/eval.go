// Package evalcmd implements `offattr eval`: attribute every labelled case
// under the given paths and report accuracy per subset.
package evalcmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/cmd/offattr/internal/pipeline"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
)

// EvalOptions holds every input and dependency of one eval.
type EvalOptions struct {
	IO          *cmdutil.IOStreams
	Load        cmdutil.LoadFlags
	Model       cmdutil.ModelFlags
	Analyzer    func() (pipeline.Analyzer, error)
	Mode        string
	Paths       []string
	JSON        bool
	CasesPath   string
	Baseline    string
	Calibration bool
}

// Report is eval's JSON output; its shape is a contract with tooling.
type Report struct {
	Setting string  `json:"setting"`
	Mode    string  `json:"mode"`
	Subsets []Score `json:"subsets"`
	Overall Score   `json:"overall"`
	// Calibration is accuracy per confidence band over every case; it is
	// printed with --calibration and kept out of the JSON contract.
	Calibration []Bin `json:"-"`
}

// CaseResult is one line of --cases.
type CaseResult struct {
	File       string            `json:"file"`
	Subset     string            `json:"subset"`
	Label      *run.Label        `json:"label,omitempty"`
	Prediction *Prediction       `json:"prediction,omitempty"`
	Candidates []rules.Candidate `json:"candidates,omitempty"`
	Error      string            `json:"error,omitempty"`
}

// Prediction is the attribution's answer, with how it scored.
type Prediction struct {
	Agent        string  `json:"agent"`
	Step         int     `json:"step"`
	Confidence   float64 `json:"confidence"`
	AgentCorrect bool    `json:"agent_correct"`
	StepCorrect  bool    `json:"step_correct"`
}

// NewCmdEval returns the eval command.
func NewCmdEval(io *cmdutil.IOStreams, runF func(*EvalOptions) error) *cobra.Command {
	opts := &EvalOptions{IO: io, Mode: rules.ModeRules}
	cmd := &cobra.Command{
		Use:   "eval PATH...",
		Short: "Measure attribution accuracy on labelled cases",
		Long: `Attribute every labelled case under PATH and report, per subset and overall,
agent accuracy, step accuracy, step accuracy within ±k steps and recall@k.
PATH is a directory of case files, or a directory whose subdirectories are
(each subdirectory is a subset, named by its base name).`,
		Example: `  offattr eval ../shared/whowhen/dev
  offattr eval ../shared/whowhen/dev --no-ground-truth --json --cases cases.jsonl
  offattr eval ../shared/whowhen/dev --model qwen3:8b --parallel 2`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = args
			if opts.Analyzer == nil {
				opts.Analyzer = func() (pipeline.Analyzer, error) {
					if opts.Baseline == "" {
						return opts.Model.Analyzer(cmd.Context(), opts.IO, opts.Load)
					}
					if _, ok := rules.Baselines[opts.Baseline]; !ok {
						return nil, fmt.Errorf("unknown baseline %q (want one of %s)", opts.Baseline, strings.Join(rules.BaselineNames(), ", "))
					}
					if opts.Model.Enabled() {
						return nil, fmt.Errorf("--baseline measures a rules floor; it cannot be combined with --model")
					}
					return pipeline.New(pipeline.Options{Baseline: opts.Baseline}), nil
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return evalRun(cmd.Context(), opts)
		},
	}
	opts.Load.Register(cmd.Flags())
	opts.Model.Register(cmd.Flags())
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the report as JSON")
	cmd.Flags().StringVar(&opts.CasesPath, "cases", "", "write one JSON line per case to this file")
	cmd.Flags().BoolVar(&opts.Calibration, "calibration", false, "also print accuracy per confidence band")
	cmd.Flags().StringVar(&opts.Baseline, "baseline", "", "measure a trivial baseline instead of the rules: "+strings.Join(rules.BaselineNames(), ", "))
	return cmd
}

func evalRun(ctx context.Context, opts *EvalOptions) error {
	subsets, err := discover(opts.Paths)
	if err != nil {
		return err
	}
	analyze, err := opts.Analyzer()
	if err != nil {
		return err
	}
	var cases io.Writer = io.Discard
	if opts.CasesPath != "" {
		f, err := os.Create(opts.CasesPath)
		if err != nil {
			return fmt.Errorf("eval: create %s: %w", opts.CasesPath, run.PathCause(err))
		}
		defer f.Close()
		cases = f
	}
	rep, err := Evaluate(ctx, subsets, opts.Load, analyze, cases, opts.IO.ErrOut)
	if err != nil {
		return err
	}
	rep.Mode = opts.Mode
	// With --model the mode is rules+llm even when every answer came from
	// the cache (a re-run makes no call).
	if rep.Overall.Usage.LLMCalls > 0 || opts.Model.Enabled() {
		rep.Mode = rules.ModeRulesLLM
	}
	if opts.JSON {
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	if err := WriteTable(opts.IO.Out, rep); err != nil {
		return err
	}
	if opts.Calibration {
		return WriteCalibration(opts.IO.Out, rep.Calibration)
	}
	return nil
}

// WriteCalibration prints accuracy per confidence band.
func WriteCalibration(w io.Writer, bins []Bin) error {
	fmt.Fprintln(w, "\ncalibration (all cases):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "confidence\tcases\tstep acc\tagent acc\t")
	for _, b := range bins {
		fmt.Fprintf(tw, "%.1f–%.1f\t%d\t%s\t%s\t\n", b.Low, b.High, b.Cases, pct(frac(b.StepHits, b.Cases)), pct(frac(b.AgentHits, b.Cases)))
	}
	return tw.Flush()
}

// Evaluate attributes every case of every subset. A case that fails to load
// or to analyze is reported on warn, counted as failed and as wrong, and the
// rest go on.
func Evaluate(ctx context.Context, subsets []subset, load cmdutil.LoadFlags, analyze pipeline.Analyzer, cases, warn io.Writer) (Report, error) {
	rep := Report{Setting: "with_ground_truth"}
	if load.NoGroundTruth {
		rep.Setting = "without_ground_truth"
	}
	all := newTally("overall")
	enc := json.NewEncoder(cases)
	for _, sub := range subsets {
		t := newTally(sub.Name)
		for _, file := range sub.Files {
			if err := ctx.Err(); err != nil {
				return rep, err
			}
			res := CaseResult{File: file, Subset: sub.Name}
			start := time.Now()
			a, label, err := evalCase(ctx, file, load, analyze)
			t.seconds += time.Since(start).Seconds()
			res.Label = label
			if err != nil {
				if ctx.Err() != nil {
					return rep, ctx.Err()
				}
				fmt.Fprintf(warn, "offattr: %s\n", err)
				res.Error = err.Error()
				t.add(nil, nil)
			} else {
				o := t.add(label, &a)
				res.Prediction = &Prediction{Agent: a.Agent, Step: a.Step, Confidence: a.Confidence, AgentCorrect: o.AgentCorrect, StepCorrect: o.StepCorrect}
				res.Candidates = a.Candidates
			}
			if err := enc.Encode(res); err != nil {
				return rep, fmt.Errorf("eval: write cases: %w", err)
			}
		}
		all.merge(t)
		rep.Subsets = append(rep.Subsets, t.score())
	}
	rep.Overall = all.score()
	rep.Calibration = all.bins
	return rep, nil
}

var errNoLabel = errors.New("not a labelled case (no mistake_agent / mistake_step)")

func evalCase(ctx context.Context, file string, load cmdutil.LoadFlags, analyze pipeline.Analyzer) (rules.Attribution, *run.Label, error) {
	r, err := load.Load(file)
	if err != nil {
		return rules.Attribution{}, nil, err
	}
	label := r.Label
	if label == nil {
		return rules.Attribution{}, nil, fmt.Errorf("eval %s: %w", file, errNoLabel)
	}
	a, err := analyze(ctx, r.WithoutLabel())
	if err != nil {
		return rules.Attribution{}, label, fmt.Errorf("analyze %s: %w", file, err)
	}
	return a, label, nil
}

// WriteTable prints the report as an aligned table.
func WriteTable(w io.Writer, rep Report) error {
	fmt.Fprintf(w, "setting: %s   mode: %s\n\n", strings.ReplaceAll(rep.Setting, "_", " "), rep.Mode)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{"subset", "cases", "failed", "agent", "step"}
	for _, k := range withinK {
		head = append(head, "±"+strconv.Itoa(k))
	}
	for _, k := range recallK {
		head = append(head, "r@"+strconv.Itoa(k))
	}
	head = append(head, "llm calls", "prompt tok", "seconds")
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, s := range append(rep.Subsets, rep.Overall) {
		row := []string{s.Name, strconv.Itoa(s.Cases), strconv.Itoa(s.Failed), pct(s.AgentAccuracy), pct(s.StepAccuracy)}
		for _, k := range withinK {
			row = append(row, pct(s.StepWithin[strconv.Itoa(k)]))
		}
		for _, k := range recallK {
			row = append(row, pct(s.RecallAt[strconv.Itoa(k)]))
		}
		row = append(row, strconv.Itoa(s.Usage.LLMCalls), strconv.Itoa(s.Usage.PromptTokens), fmt.Sprintf("%.3f", s.Seconds))
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	return tw.Flush()
}

func pct(f float64) string { return fmt.Sprintf("%.3f", f) }
