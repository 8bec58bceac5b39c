// Package pipeline runs one run through offattr's stages, from the loaded run
// to the attribution. Commands call it; it decides the order of the stages
// and nothing else.
package pipeline

import (
	"context"
	"fmt"
	"strings"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/localllm"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
)

// Analyzer attributes one run. Commands take it as a dependency so tests can
// substitute a spy.
type Analyzer func(ctx context.Context, r *run.Run) (rules.Attribution, error)

// Options choose the stages.
type Options struct {
	// Judge, when set, has a local model judge the rules' top candidates.
	Judge *localllm.Judge
	// Baseline, when set, names one of rules.Baselines to use instead of
	// the rules engine: the floors every rule is measured against.
	Baseline string
}

// New returns the analyzer for opts.
func New(opts Options) Analyzer {
	return func(ctx context.Context, r *run.Run) (rules.Attribution, error) {
		if err := ctx.Err(); err != nil {
			return rules.Attribution{}, err
		}
		r = r.WithoutLabel()
		a, f, err := attribute(r, opts.Baseline)
		if err != nil || opts.Judge == nil {
			return a, err
		}
		return opts.Judge.AttributeWith(ctx, r, f, a)
	}
}

// attribute runs the rules (or a baseline) and returns the features it
// extracted, nil for a baseline, for the model stage to reuse.
func attribute(r *run.Run, baseline string) (rules.Attribution, *extract.RunFeatures, error) {
	if baseline != "" {
		b, ok := rules.Baselines[baseline]
		if !ok {
			return rules.Attribution{}, nil, fmt.Errorf("unknown baseline %q (want one of %s)", baseline, strings.Join(rules.BaselineNames(), ", "))
		}
		return b(r), nil, nil
	}
	in, err := Prepare(r)
	if err != nil {
		return rules.Attribution{}, nil, err
	}
	return rules.Attribute(in), in.Features, nil
}

// Prepare runs the structural stages (extract, graph) that the rules and
// any later stage read.
func Prepare(r *run.Run) (*rules.Input, error) {
	f := extract.Run(r)
	g, err := graph.Build(r, f)
	if err != nil {
		return nil, fmt.Errorf("build graph: %w", err)
	}
	return &rules.Input{Run: r, Features: f, Graph: g}, nil
}
