// Package engine runs one run through offattr's stages, from the loaded run
// to the attribution: redact, extract, graph, rules, and the local model
// when one is given. Every command, eval, fit and the tests call it; it
// decides the order of the stages and nothing else.
package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/redact"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/triage"
)

// Judge reviews the rules' answer with a model: localllm.Judge, or a test's
// stand-in. It returns a usable attribution even when the model fails; the
// error is non-nil only when ctx ended.
type Judge interface {
	Review(ctx context.Context, in *rules.Input, a rules.Attribution) (rules.Attribution, error)
}

// Options choose the stages of one analysis.
type Options struct {
	// Redact, when set, masks secrets and personal data in the run before
	// any stage reads it, so nothing later (quotes, rationale, prompts) can
	// hold them.
	Redact *redact.Patterns
	// Rules are the analyzers and the weights that combine them; the zero
	// value means every registered analyzer and the embedded weights.
	Rules rules.Combiner
	// Judge, when set, has a local model review the rules' answer.
	Judge Judge
	// Baseline, when set, names one of rules.Baselines to use instead of
	// the rules: the floors every rule is measured against.
	Baseline string
	// Triage holds the triage thresholds a user set, over the bands the
	// weights carry for each run.
	Triage triage.Override
	// AnswerOnly says the caller reads only Result.Attribution (and the
	// Redactor): Input and Findings are left nil, and without a Judge the
	// rules answer through rules.Combiner.Answer, which lets the graph go
	// once the rules have read it and the findings' words once the
	// answer's own are chosen, so that a long run's stages are not all
	// held at once.
	AnswerOnly bool
}

// Result is what the engine found in one run.
type Result struct {
	Attribution rules.Attribution
	// Input is the run as the stages read it (redacted when asked), with
	// its features and dependency graph, for commands that show more than
	// the answer. It is nil for a baseline, which reads no graph.
	Input *rules.Input
	// Findings is every rule's every finding, in step order: what each
	// rule said where, for a reader who checks the answer.
	Findings []rules.Finding
	// Redactor masked the run (nil without redaction, and then it passes
	// text through): whatever a command prints beyond the attribution
	// (names, error messages, labels) goes through it, so the same secret
	// gets the same placeholder everywhere.
	Redactor *redact.Redactor
}

// AnalyzeFunc attributes one run. Commands take it as a dependency so that
// tests can substitute a spy. It receives a *run.Run, which cannot carry
// the benchmark label (see run.Case).
type AnalyzeFunc func(ctx context.Context, r *run.Run) (Result, error)

// New returns the analyzer for opts, or an error naming what is wrong with
// them.
func New(opts Options) (AnalyzeFunc, error) {
	if opts.Baseline != "" {
		b, ok := rules.Baselines[opts.Baseline]
		if !ok {
			return nil, fmt.Errorf("unknown baseline %q (want one of %s)", opts.Baseline, strings.Join(rules.BaselineNames(), ", "))
		}
		if opts.Judge != nil {
			return nil, fmt.Errorf("a baseline is a rules floor; it cannot be combined with a model")
		}
		return func(ctx context.Context, r *run.Run) (Result, error) {
			red := opts.Redact.NewRedactor()
			r, err := RedactContext(ctx, red, r)
			if err != nil {
				return Result{Redactor: red}, err
			}
			// The first-error baseline reads the steps' failure words.
			f, err := extract.RunContext(ctx, r)
			if err != nil {
				return Result{Redactor: red}, err
			}
			return Result{Attribution: withSpans(r, b(&rules.Input{Run: r, Features: f})), Redactor: red}, nil
		}, nil
	}
	comb := opts.Rules
	if comb.Weights == nil {
		comb.Weights = rules.DefaultWeights()
	}
	if comb.Analyzers == nil {
		comb.Analyzers = rules.Registry
	}
	return func(ctx context.Context, r *run.Run) (Result, error) {
		red := opts.Redact.NewRedactor()
		r, err := RedactContext(ctx, red, r)
		if err != nil {
			return Result{Redactor: red}, err
		}
		in, err := PrepareContext(ctx, r)
		if err != nil {
			return Result{Redactor: red}, err
		}
		type combined struct {
			a        rules.Attribution
			findings []rules.Finding
		}
		// The rules take no context and a second or more on a run of many
		// thousand steps.
		c, err := await(ctx, func() combined {
			if opts.AnswerOnly && opts.Judge == nil {
				// What the answer no longer needs goes as the rules
				// weigh it (the graph, the other findings' words): a
				// long run's stages are not all held at once.
				return combined{a: comb.Answer(in)}
			}
			a, findings := comb.Attribute(in)
			return combined{a, findings}
		})
		if err != nil {
			return Result{Redactor: red}, err
		}
		a, findings := c.a, c.findings
		if opts.Judge != nil {
			a, err = opts.Judge.Review(ctx, in, a)
		}
		d := triage.Decide(a, opts.Triage.For(comb.Weights.BandsFor(r)))
		a.Triage, a.TriageReason = string(d.Class), d.Reason
		if opts.AnswerOnly {
			return Result{Attribution: withSpans(r, a), Redactor: red}, err
		}
		return Result{Attribution: withSpans(r, a), Input: in, Findings: findings, Redactor: red}, err
	}, nil
}

// Prepare runs the structural stages (extract, graph) that the rules and
// every later stage read.
func Prepare(r *run.Run) (*rules.Input, error) {
	return PrepareContext(context.Background(), r)
}

// PrepareContext is Prepare that returns ctx's error as soon as ctx is
// done: a run of many thousand steps takes seconds. The stages read ctx
// too and stop at their next check, but a stage between checks (building
// one of the graph's edge kinds, say) is not waited for.
func PrepareContext(ctx context.Context, r *run.Run) (*rules.Input, error) {
	type prepared struct {
		in  *rules.Input
		err error
	}
	p, err := await(ctx, func() prepared {
		growStack(0)
		in, err := prepare(ctx, r)
		return prepared{in, err}
	})
	if err != nil {
		return nil, err
	}
	return p.in, p.err
}

func prepare(ctx context.Context, r *run.Run) (*rules.Input, error) {
	f, err := extract.RunContext(ctx, r)
	if err != nil {
		return nil, err
	}
	g, err := graph.BuildContext(ctx, r, f)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("build graph: %w", err)
	}
	return &rules.Input{Run: r, Features: f, Graph: g}, nil
}

// withSpans sets the trace and span ids of the blamed step and of every
// candidate from the run's steps: the one place an answer is tied to the
// telemetry it came from, whichever stage chose the step.
func withSpans(r *run.Run, a rules.Attribution) rules.Attribution {
	ids := func(step int) (string, string) {
		if step < 0 || step >= len(r.Steps) {
			return "", ""
		}
		return r.Steps[step].TraceID(), r.Steps[step].SpanID()
	}
	a.TraceID, a.SpanID = ids(a.Step)
	// The candidates are copied, not set in place, as the caller may hold
	// them; but a run read from a file that is not telemetry has no ids
	// to set, and a long run's candidates are many.
	changes := func(c rules.Candidate) bool {
		trace, span := ids(c.Step)
		return c.TraceID() != trace || c.SpanID() != span
	}
	if slices.ContainsFunc(a.Candidates, changes) {
		cands := make([]rules.Candidate, len(a.Candidates))
		spans := make([]rules.Span, len(a.Candidates)) // one array for every candidate's ids
		for i, c := range a.Candidates {
			c.Span = nil
			if trace, span := ids(c.Step); trace != "" || span != "" {
				spans[i] = rules.Span{TraceID: trace, SpanID: span}
				c.Span = &spans[i]
			}
			cands[i] = c
		}
		a.Candidates = cands
	}
	return a
}

// RedactContext returns r masked by red, or r itself when red is nil (no
// redaction): the one way every command redacts a run. A redactor cannot be stopped midway and
// takes seconds on a run of many thousand steps, so it runs on its own
// goroutine and the caller stops waiting once ctx is done.
func RedactContext(ctx context.Context, red *redact.Redactor, r *run.Run) (*run.Run, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if red == nil {
		return r, nil
	}
	return await(ctx, func() *run.Run {
		growStack(0)
		return red.Run(r)
	})
}

// await returns what f returns, or ctx's error as soon as ctx is done, for
// work that takes no context. Abandoned, f finishes on its own and its
// result is dropped; a command exits meanwhile, and a screen starts no
// more work once interrupted.
func await[T any](ctx context.Context, f func() T) (T, error) {
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v, nil
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// stackAhead is the stack that reading a run's text grows to: matching
// recurses, and a goroutine made for the work would otherwise grow its
// stack a step at a time, copying all of it at each step.
const stackAhead = 128 << 10

// growStack takes stackAhead of stack at once, at the start of a
// goroutine's work, while there is little on it to copy. The frame is
// read so that the compiler keeps it.
//
//go:noinline
func growStack(i int) byte {
	var pad [stackAhead]byte
	pad[i%stackAhead] = 1
	return pad[(i+1)%stackAhead]
}
