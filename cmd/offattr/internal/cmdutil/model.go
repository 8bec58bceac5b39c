package cmdutil

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/spf13/pflag"

	"github.com/offattr/offattr/cmd/offattr/internal/pipeline"
	"github.com/offattr/offattr/localllm"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
)

// ModelFlags are the flags that turn the local model on (--model, ...).
type ModelFlags struct {
	localllm.Options
}

// Register adds the flags to fs.
func (m *ModelFlags) Register(fs *pflag.FlagSet) {
	m.AddFlags(fs)
	if f := fs.Lookup("ollama-host"); f != nil {
		f.Usage += "; several, comma-separated, share the runs round-robin"
	}
}

// Hosts splits --ollama-host into its servers; one empty host (the
// environment's default) when none is given.
func (m *ModelFlags) Hosts() []string {
	var hosts []string
	for _, h := range strings.Split(m.Host, ",") {
		if h = strings.TrimSpace(h); h != "" {
			hosts = append(hosts, h)
		}
	}
	if len(hosts) == 0 {
		return []string{""}
	}
	return hosts
}

// Analyzer builds the pipeline: rules alone without --model; with it, the
// server and the model are checked first, and a missing model or an
// unreachable server is the one-line error the user sees. With several
// hosts every one is checked, and each run goes to the next host in turn.
func (m *ModelFlags) Analyzer(ctx context.Context, io *IOStreams, load LoadFlags) (pipeline.Analyzer, error) {
	if !m.Enabled() {
		return pipeline.New(pipeline.Options{}), nil
	}
	hosts := m.Hosts()
	analyzers := make([]pipeline.Analyzer, len(hosts))
	for i, h := range hosts {
		opts := m.Options
		opts.Host = h
		opts.Warn = io.ErrOut
		// Runs loaded with --no-ground-truth carry no answer; the flag is
		// passed on so the model's prompts say the same.
		opts.WithGroundTruth = !load.NoGroundTruth
		j, err := localllm.New(ctx, opts)
		if err != nil {
			if len(hosts) > 1 {
				return nil, fmt.Errorf("ollama host %s: %w", h, err)
			}
			return nil, err
		}
		analyzers[i] = pipeline.New(pipeline.Options{Judge: j})
	}
	if len(analyzers) == 1 {
		return analyzers[0], nil
	}
	return roundRobin(analyzers), nil
}

// roundRobin hands each run to the next analyzer in turn. A run's calls all
// go to one server, so its response cache entries stay together.
func roundRobin(as []pipeline.Analyzer) pipeline.Analyzer {
	var next atomic.Uint64
	return func(ctx context.Context, r *run.Run) (rules.Attribution, error) {
		i := (next.Add(1) - 1) % uint64(len(as))
		return as[i](ctx, r)
	}
}
