// Package pipeline runs one run through offattr's stages, from the loaded run
// to the attribution. Commands call it; it decides the order of the stages
// and nothing else.
package pipeline

import (
	"context"

	"github.com/offattr/offattr/localllm"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
)

// Analyzer attributes one run. Commands take it as a dependency so tests can
// substitute a spy. When it fails after the rules have answered (the model
// stage was cancelled), it returns the rules' attribution with the error.
type Analyzer func(ctx context.Context, r *run.Run) (rules.Attribution, error)

// Options choose the stages.
type Options struct {
	// Judge, when set, has a local model judge the rules' top candidates.
	Judge *localllm.Judge
}

// New returns the analyzer for opts.
func New(opts Options) Analyzer {
	return func(ctx context.Context, r *run.Run) (rules.Attribution, error) {
		if err := ctx.Err(); err != nil {
			return rules.Attribution{}, err
		}
		r = r.WithoutLabel()
		a := rules.Baseline(r)
		if opts.Judge == nil {
			return a, nil
		}
		return opts.Judge.Attribute(ctx, r, a)
	}
}
