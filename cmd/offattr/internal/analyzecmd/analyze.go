// Package analyzecmd implements `offattr analyze`: one run, one attribution.
package analyzecmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/redact"
	"github.com/offattr/offattr/rules"
)

// AnalyzeOptions holds every input and dependency of one analyze.
type AnalyzeOptions struct {
	IO       *cmdutil.IOStreams
	Load     cmdutil.LoadFlags
	Model    cmdutil.ModelFlags
	Rules    cmdutil.RuleFlags
	Analyzer cmdutil.AnalyzerFunc
	Path     string
	JSON     bool
	// Redact masks the run before analysis, so the rationale and evidence
	// quotes printed are masked too.
	Redact cmdutil.RedactFlags
	// Alternatives is how many runner-up candidates the text output lists.
	Alternatives int
}

// NewCmdAnalyze returns the analyze command; runF replaces the run function
// in tests that check flag parsing alone.
func NewCmdAnalyze(io *cmdutil.IOStreams, runF func(*AnalyzeOptions) error) *cobra.Command {
	opts := &AnalyzeOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "analyze FILE",
		Short: "Attribute one failed run to an agent and a step",
		Example: `  offattr analyze run.json
  offattr analyze run.json --json --no-ground-truth
  offattr analyze run.json --model qwen3:8b`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			if opts.Analyzer == nil {
				opts.Analyzer = func(p *redact.Patterns) (engine.Analyzer, error) {
					return cmdutil.NewAnalyzer(cmd.Context(), opts.IO, &opts.Rules, &opts.Model, p, nil)
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return analyzeRun(cmd.Context(), opts)
		},
	}
	opts.Load.Register(cmd.Flags())
	opts.Model.Register(cmd.Flags())
	opts.Rules.Register(cmd.Flags())
	opts.Redact.Register(cmd.Flags())
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the attribution as JSON")
	cmd.Flags().IntVar(&opts.Alternatives, "alternatives", 4, "how many alternative candidates to list")
	return cmd
}

func analyzeRun(ctx context.Context, opts *AnalyzeOptions) error {
	_, analyze, err := cmdutil.Prepare(opts.Load, opts.Redact, opts.Analyzer)
	if err != nil {
		return err
	}
	r, err := opts.Load.Load(opts.Path)
	if err != nil {
		return err
	}
	res, err := analyze(ctx, r)
	a := res.Attribution
	if err != nil && a.Mode == "" {
		return fmt.Errorf("analyze %s: %w", opts.Path, err)
	}
	// A cancelled model stage still leaves the rules' answer: print it, then
	// report the cancellation.
	a.File = opts.Path
	if werr := write(opts, a); werr != nil {
		return werr
	}
	if err != nil {
		return fmt.Errorf("analyze %s: %w", opts.Path, err)
	}
	return nil
}

func write(opts *AnalyzeOptions, a rules.Attribution) error {
	if opts.JSON {
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(a)
	}
	return WriteText(opts.IO.Out, a, opts.Alternatives)
}

// WriteText prints an attribution for a person to read.
func WriteText(w io.Writer, a rules.Attribution, alternatives int) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", a.File)
	fmt.Fprintf(&b, "  agent       %s\n", a.Agent)
	fmt.Fprintf(&b, "  step        %d\n", a.Step)
	fmt.Fprintf(&b, "  confidence  %.2f (%s)\n", a.Confidence, a.Mode)
	if a.Triage != "" {
		fmt.Fprintf(&b, "  triage      %s (%s)\n", a.Triage, a.TriageReason)
	}
	fmt.Fprintf(&b, "\n%s\n", a.Rationale)
	if len(a.Evidence) > 0 {
		b.WriteString("\nEvidence:\n")
		for _, e := range a.Evidence {
			fmt.Fprintf(&b, "  [%s] step %d: %q\n", e.Rule, e.Step, e.Quote)
		}
	}
	var alts []rules.Candidate
	for _, c := range a.Candidates {
		// Steps no rule spoke about are in the list only to be ranked.
		if c.Step != a.Step && len(c.Rules) > 0 && len(alts) < alternatives {
			alts = append(alts, c)
		}
	}
	if len(alts) > 0 {
		b.WriteString("\nAlternatives:\n")
		for _, c := range alts {
			fmt.Fprintf(&b, "  step %-4d %-24s score %.2f  %s\n", c.Step, c.Agent, c.Score, strings.Join(c.Rules, ", "))
		}
	}
	if m := a.Model; m != nil {
		fmt.Fprintf(&b, "\nModel strategy: %s (asked for %s); it could name %d of the steps, its finalists were %s\n",
			m.Strategy, m.Requested, len(m.CandidatesSeen), strings.Trim(fmt.Sprint(m.Finalists), "[]"))
	}
	if a.Usage.LLMCalls > 0 {
		fmt.Fprintf(&b, "\nModel usage: %d calls, %d prompt tokens, %d completion tokens\n",
			a.Usage.LLMCalls, a.Usage.PromptTokens, a.Usage.CompletionTokens)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
