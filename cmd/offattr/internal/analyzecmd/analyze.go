// Package analyzecmd implements `offattr analyze`: one run, one attribution.
package analyzecmd

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/internal/escape"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/triage"
)

// AnalyzeOptions holds every input and dependency of one analyze.
type AnalyzeOptions struct {
	IO *cmdutil.IOStreams
	// Analysis loads and analyses the run; its redaction masks the run
	// before analysis, so the rationale and evidence quotes printed are
	// masked too.
	cmdutil.Analysis
	Path string
	JSON bool
	// Alternatives is how many runner-up candidates the text output lists.
	Alternatives int
	// TraceURL links the blamed span to the user's trace viewer.
	TraceURL cmdutil.TraceURL
}

// NewCmdAnalyze returns the analyze command; runF replaces the run function
// in tests that check flag parsing alone.
func NewCmdAnalyze(io *cmdutil.IOStreams, runF func(*AnalyzeOptions) error) *cobra.Command {
	opts := &AnalyzeOptions{IO: io, Analysis: cmdutil.NewAnalysis(io)}
	opts.AnswerOnly = true // analyze prints the attribution alone
	cmd := &cobra.Command{
		Use:   "analyze FILE",
		Short: "Attribute one failed run to an agent and a step",
		Long: `Attribute one failed run (FILE, or - for standard input) to the agent and the
step of its decisive fault, with the rules' evidence and the runners-up.
A telemetry file (OTLP/JSON, Tempo, Jaeger, Phoenix, Langfuse) may hold
several traces: each is a run, answered in turn (JSON lines with --json);
FILE#TRACEID analyses one. For telemetry the answer names the trace and
span of the step, to open it in a trace viewer. Confidence and candidate
scores are the fitted model's probabilities, in [0, 1] (see "offattr help
glossary").`,
		Example: `  offattr analyze run.json
  offattr analyze traces.jsonl --json
  offattr analyze traces.jsonl#4bf92f3577b34da65eed0000cafe0001
  offattr analyze run.json --json --no-ground-truth
  cat run.json | offattr analyze -
  offattr analyze run.json --model qwen3:8b`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			if err := opts.TraceURL.Check(); err != nil {
				return err
			}
			opts.SetDefaultAnalyzer(cmd.Context(), opts.IO, triage.Override{})
			if runF != nil {
				return runF(opts)
			}
			return opts.Redact.Error(analyzeRun(cmd.Context(), opts))
		},
	}
	opts.Analysis.Register(cmd.Flags())
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the attribution as JSON")
	opts.TraceURL.Register(cmd.Flags())
	cmdutil.IntVar(cmd.Flags(), &opts.Alternatives, "alternatives", 4, 0, math.MaxInt, "how many alternative candidates to list")
	return cmd
}

// AnalyzeGCPercent is the garbage collector's target while analyze runs,
// unless GOGC is set. A run's stages are held together (its steps, their
// features, the graph, the rules' rows), and at Go's default of 100 the
// heap grows to twice what is live before it is collected: on a long run
// that doubling is most of the peak. At 50 it grows by half, for a few
// more collections (see docs/benchmarks.md, Memory).
const AnalyzeGCPercent = 50

func analyzeRun(ctx context.Context, opts *AnalyzeOptions) error {
	defer cmdutil.CollectAt(AnalyzeGCPercent)()
	defer cmdutil.LimitMemory(cmdutil.InputSize(opts.Path))()
	_, analyze, err := opts.Prepare()
	if err != nil {
		return err
	}
	runs, err := opts.Load.LoadAll(ctx, opts.Path)
	if err != nil {
		return err
	}
	// A file of many traces is answered trace by trace: JSON lines, or
	// text blocks one after another.
	for i, r := range runs {
		if i > 0 && !opts.JSON {
			fmt.Fprintln(opts.IO.Out)
		}
		// Each run is let go once answered: a long one's steps are much
		// of the memory, and its answer is printed without them.
		runs[i] = nil
		if err := analyzeOne(ctx, opts, analyze, r, len(runs) > 1); err != nil {
			return err
		}
	}
	return nil
}

func analyzeOne(ctx context.Context, opts *AnalyzeOptions, analyze engine.AnalyzeFunc, r *run.Run, lines bool) error {
	source := r.Source
	a, err := answer(ctx, analyze, r)
	if err != nil && a.Mode == "" {
		return fmt.Errorf("analyze %s: %w", source, err)
	}
	// A cancelled model stage still leaves the rules' answer: print it, then
	// report the cancellation.
	if werr := write(opts, a, lines); werr != nil {
		return werr
	}
	if err != nil {
		return fmt.Errorf("analyze %s: %w", source, err)
	}
	return nil
}

// answer is the attribution of r, named as r's name is masked. It keeps
// nothing else of the engine's result: the run as the stages read it, its
// features and graph are not held while the answer is printed.
func answer(ctx context.Context, analyze engine.AnalyzeFunc, r *run.Run) (rules.Attribution, error) {
	res, err := analyze(ctx, r)
	a := res.Attribution
	a.File = res.Redactor.String(r.Source) // masked as the run's own name was
	return a, err
}

// jsonAnswer is analyze's JSON: the attribution, and with --trace-url the
// link to its span.
type jsonAnswer struct {
	rules.Attribution
	SpanURL string `json:"span_url,omitempty"`
}

func write(opts *AnalyzeOptions, a rules.Attribution, lines bool) error {
	link := opts.TraceURL.Link(a.TraceID, a.SpanID)
	if opts.JSON {
		v := jsonAnswer{Attribution: a, SpanURL: link}
		if a.Candidates == nil {
			if lines {
				return cmdutil.WriteJSONLine(opts.IO.Out, v)
			}
			return cmdutil.WriteJSON(opts.IO.Out, v)
		}
		// A long run has a candidate for most steps: they are written
		// one at a time.
		v.Candidates = []rules.Candidate{}
		return cmdutil.WriteJSONList(opts.IO.Out, v, "candidates", a.Candidates, lines)
	}
	return writeText(opts.IO.Out, a, textOptions{alternatives: opts.Alternatives, theme: opts.IO.Theme(), spanURL: link})
}

// WriteText prints an attribution for a person to read. Everything that
// came from the log (names, rationale, quotes) is escaped, so that it
// cannot forge a line or reach the terminal as a control sequence.
func WriteText(w io.Writer, a rules.Attribution, alternatives int) error {
	return writeText(w, a, textOptions{alternatives: alternatives, theme: cmdutil.Plain})
}

// textOptions say how the text answer is laid out.
type textOptions struct {
	alternatives int
	theme        cmdutil.Theme // colour on a terminal
	spanURL      string        // the blamed span in the user's trace viewer
}

func writeText(w io.Writer, a rules.Attribution, o textOptions) error {
	t, alternatives := o.theme, o.alternatives
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", t.Bold(escape.Line(a.File)))
	fmt.Fprintf(&b, "  agent       %s\n", t.Bold(escape.Line(a.Agent)))
	fmt.Fprintf(&b, "  step        %s\n", t.Bold(strconv.Itoa(a.Step)))
	if a.SpanID != "" {
		fmt.Fprintf(&b, "  span        %s (trace %s)\n", escape.Line(a.SpanID), escape.Line(a.TraceID))
		if o.spanURL != "" {
			fmt.Fprintf(&b, "              %s\n", escape.Line(o.spanURL))
		}
	}
	conf := fmt.Sprintf("%.2f", a.Confidence)
	if a.Triage != "" {
		conf += ", " + t.Band(string(a.Triage))
	}
	fmt.Fprintf(&b, "  confidence  %s (%s)\n", conf, modeText(a.Mode))
	// The band's reason, unless it only compares the confidence above with
	// the band's thresholds: one number, said once.
	if a.Triage != "" && !strings.HasPrefix(a.TriageReason, "confidence ") {
		fmt.Fprintf(&b, "              %s\n", escape.Line(a.TriageReason))
	}
	fmt.Fprintf(&b, "\n%s\n", escape.Line(a.Rationale))
	named := map[string]bool{}
	if len(a.Evidence) > 0 {
		b.WriteString("\nEvidence:\n")
		for _, e := range a.Evidence {
			named[e.Rule] = true
			where := fmt.Sprintf("step %d", e.Step)
			if q := e.QuotedStep(); q != e.Step {
				where += fmt.Sprintf(", as step %d reports", q)
			}
			fmt.Fprintf(&b, "  [%s] %s: %q\n", t.Rule(escape.Line(e.Rule)), where, e.Quote)
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
		b.WriteString("\nAlternatives, those a rule implicates first (each step's probability of being the decisive fault):\n")
		for _, c := range alts {
			for _, r := range c.Rules {
				named[r] = true
			}
			fmt.Fprintf(&b, "  step %-4d %-24s %.2f  %s\n", c.Step, escape.Line(c.Agent), c.Score, escape.Line(strings.Join(c.Rules, ", ")))
		}
	}
	writeRuleDocs(&b, named, t)
	if m := a.Model; m != nil {
		fmt.Fprintf(&b, "\nModel strategy: %s (asked for %s); it could name %d of the steps, its finalists were %s\n",
			m.Strategy, m.Requested, len(m.CandidatesSeen), strings.Trim(fmt.Sprint(m.Finalists), "[]"))
		if v := verdict(a); v != "" {
			fmt.Fprintf(&b, "Model verdict: %s\n", v)
		}
	}
	if a.Usage.LLMCalls > 0 {
		fmt.Fprintf(&b, "\nModel usage: %d calls, %d prompt tokens, %d completion tokens\n",
			a.Usage.LLMCalls, a.Usage.PromptTokens, a.Usage.CompletionTokens)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// modeText says what produced the answer.
func modeText(mode string) string {
	switch mode {
	case rules.ModeRules:
		return "rules alone"
	case rules.ModeRulesLLM:
		return "rules and a local model"
	}
	return mode
}

// writeRuleDocs lists, under the answer, what each rule it names looks
// for, in the order offattr rules lists them.
func writeRuleDocs(b *strings.Builder, named map[string]bool, t cmdutil.Theme) {
	first := true
	for _, r := range rules.Registry {
		if !named[r.Name] {
			continue
		}
		if first {
			b.WriteString("\nRules named above (offattr rules lists them all):\n")
			first = false
		}
		fmt.Fprintf(b, "  %s: %s\n", t.Rule(r.Name), r.Doc)
	}
}
