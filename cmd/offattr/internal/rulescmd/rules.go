// Package rulescmd implements `offattr rules`: the registered rules, what
// each looks for, the facts it reads and the weight it has now.
package rulescmd

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/internal/escape"
	"github.com/offattr/offattr/rules"
)

// RulesOptions holds the inputs of one listing.
type RulesOptions struct {
	IO      *cmdutil.IOStreams
	Weights string
	Verbose bool
}

// NewCmdRules returns the rules command.
func NewCmdRules(io *cmdutil.IOStreams, runF func(*RulesOptions) error) *cobra.Command {
	opts := &RulesOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List the rules, what each looks for, and its current weight",
		Long: `List every registered rule: its name (for --rules and --disable), what it
looks for, and the weight its findings have in the weights in use (the
embedded ones, or --weights FILE). With -v, also the facts each rule reads,
the weights of the step features, and the confidence's calibration.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return rulesRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Weights, "weights", "", "show the weights in this file (written by offattr fit)")
	cmd.Flags().BoolVarP(&opts.Verbose, "verbose", "v", false, "also show the facts each rule reads and the other features' weights")
	return cmd
}

func rulesRun(opts *RulesOptions) error {
	w := rules.DefaultWeights()
	if opts.Weights != "" {
		var err error
		if w, err = rules.LoadWeights(opts.Weights); err != nil {
			return cmdutil.Usage(err) // the flag names no weights
		}
	}
	tw := tabwriter.NewWriter(opts.IO.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tWEIGHT\tWITH TOOL CALLS\tLOOKS FOR")
	for _, a := range rules.Registry {
		fmt.Fprintf(tw, "%s\t%+.2f\t%+.2f\t%s\n", a.Name, w.RuleWeight(a.Name), w.RuleWeight(a.Name)+w.Step[rules.ToolsPrefix+rules.RuleFeature(a.Name)], a.Doc)
		if opts.Verbose {
			facts := make([]string, len(a.Requires))
			for i, f := range a.Requires {
				facts[i] = string(f)
			}
			fmt.Fprintf(tw, "\t\treads: %s\n", strings.Join(facts, ", "))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if !opts.Verbose {
		_, err := fmt.Fprintf(opts.IO.Out, "\nWEIGHT is in runs where agents talk and run code; WITH TOOL CALLS, where they call tools by name.\nweights: %s\n", escape.Line(w.About))
		return err
	}
	fmt.Fprintln(opts.IO.Out, "\nstep features:")
	for _, n := range rules.StepFeatureNames(nil) {
		if !strings.HasPrefix(n, rules.ToolsPrefix) {
			fmt.Fprintf(opts.IO.Out, "  %-24s %+.2f  with tool calls %+.2f\n", n, w.Step[n], w.Step[n]+w.Step[rules.ToolsPrefix+n])
		}
	}
	fmt.Fprintln(opts.IO.Out, "(agent:* say where the step's agent stands in its run; fit learns them only from runs of one corpus, one system's own)")
	if w.Guess != "" {
		fmt.Fprintf(opts.IO.Out, "the answer: the %s guess, which was right more often than these weights' pick, by a sign test at 5%%, on the runs they were fitted on; the weights rank the alternatives\n", w.Guess)
	}
	fmt.Fprintln(opts.IO.Out, "the agent: the one who answers for the chosen step (its speaker, or the caller of a tool whose output it is)")
	fmt.Fprintln(opts.IO.Out, "confidence calibration (logistic):")
	for _, n := range rules.CalibrationFeatureNames {
		fmt.Fprintf(opts.IO.Out, "  %-24s %+.2f\n", n, w.Confidence[n])
	}
	_, err := fmt.Fprintf(opts.IO.Out, "critical share %.2f; triage: clear ≥ %.3f, escalate < %.3f\nweights: %s\n",
		w.Critical, w.Triage.Clear, w.Triage.Escalate, escape.Line(w.About))
	return err
}
