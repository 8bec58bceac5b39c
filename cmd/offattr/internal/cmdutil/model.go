package cmdutil

import (
	"context"

	"github.com/spf13/pflag"

	"github.com/offattr/offattr/cmd/offattr/internal/pipeline"
	"github.com/offattr/offattr/localllm"
)

// ModelFlags are the flags that turn the local model on (--model, ...).
type ModelFlags struct {
	localllm.Options
}

// Register adds the flags to fs.
func (m *ModelFlags) Register(fs *pflag.FlagSet) { m.AddFlags(fs) }

// Analyzer builds the pipeline: rules alone without --model; with it, the
// server and the model are checked first, and a missing model or an
// unreachable server is the one-line error the user sees.
func (m *ModelFlags) Analyzer(ctx context.Context, io *IOStreams, load LoadFlags) (pipeline.Analyzer, error) {
	if !m.Enabled() {
		return pipeline.New(pipeline.Options{}), nil
	}
	opts := m.Options
	opts.Warn = io.ErrOut
	// Runs loaded with --no-ground-truth carry no answer; the flag is
	// passed on so the model's prompts say the same.
	opts.WithGroundTruth = !load.NoGroundTruth
	j, err := localllm.New(ctx, opts)
	if err != nil {
		return nil, err
	}
	return pipeline.New(pipeline.Options{Judge: j}), nil
}
