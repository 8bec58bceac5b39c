// Package pipeline runs one run through offattr's stages, from the loaded run
// to the attribution. Commands call it; it decides the order of the stages
// and nothing else.
package pipeline

import (
	"context"

	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
)

// Analyzer attributes one run. Commands take it as a dependency so tests can
// substitute a spy.
type Analyzer func(ctx context.Context, r *run.Run) (rules.Attribution, error)

// Options choose the stages.
type Options struct{}

// New returns the analyzer for opts.
func New(opts Options) Analyzer {
	return func(ctx context.Context, r *run.Run) (rules.Attribution, error) {
		if err := ctx.Err(); err != nil {
			return rules.Attribution{}, err
		}
		return rules.Baseline(r.WithoutLabel()), nil
	}
}
