package cmdutil

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync/atomic"

	"github.com/spf13/pflag"

	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/localllm"
	"github.com/offattr/offattr/redact"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/triage"
)

// ModelFlags are the flags that turn the local model on (--model, ...).
type ModelFlags struct {
	localllm.Options
}

// Register adds the flags to fs, with localllm's defaults.
func (m *ModelFlags) Register(fs *pflag.FlagSet) {
	o := &m.Options
	fs.StringVar(&o.Model, "model", "", "ask this Ollama model to judge the top candidates (e.g. qwen3:8b); without it, rules alone")
	fs.Var(&hostList{p: &o.Host}, "ollama-host", "Ollama server, host:port or URL (default: $OLLAMA_HOST, else 127.0.0.1:11434); several, comma-separated, share the runs round-robin")
	fs.BoolVar(&o.Think, "think", false, "let thinking models think before answering (slower, more tokens)")
	ChoiceVar(fs, &o.Strategy, "strategy", localllm.StrategyAuto, localllm.Strategies, "how the model is asked: rank (it judges the rules' top candidates), sweep (it reads the whole run in windows first) or auto (chosen per run)")
	IntVar(fs, &o.Rounds, "rounds", 0, 0, math.MaxInt, fmt.Sprintf("at most this many sweep rounds (0: up to %d, within the run's token budget)", localllm.DefaultRounds))
	IntVar(fs, &o.TopK, "top-k", localllm.DefaultTopK, 1, math.MaxInt, "how many of the rules' top candidates the model judges")
	IntVar(fs, &o.Panel, "panel", localllm.DefaultPanel, 1, len(localllm.Roles), "how many analyst roles vote (1-6: conservative, liberal, detail-focused, pattern-focused, skeptical, general)")
	IntVar(fs, &o.Parallel, "parallel", localllm.DefaultParallel, 1, math.MaxInt, "at most this many model calls at once")
	DurationVar(fs, &o.Timeout, "timeout", localllm.DefaultTimeout, "give up on a model call after this long")
	fs.BoolVar(&o.NoCache, "no-cache", false, "neither read nor write the model response cache")
	fs.StringVar(&o.CacheDir, "cache-dir", "", "model response cache directory (default: $"+localllm.CacheDirEnv+", else the user cache dir)")
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

// hostList is --ollama-host: each of its comma-separated servers must read
// as one (localllm.ParseHost) when the command line is parsed, with or
// without --model.
type hostList struct{ p *string }

func (v *hostList) String() string { return *v.p }
func (v *hostList) Type() string   { return "string" }
func (v *hostList) Set(s string) error {
	for _, h := range strings.Split(s, ",") {
		if h = strings.TrimSpace(h); h == "" {
			continue
		}
		if _, err := localllm.ParseHost(h); err != nil {
			return fmt.Errorf("%s: %w", h, err)
		}
	}
	*v.p = s
	return nil
}

// Judge returns the model stage the flags ask for: nil without --model;
// with it, the server and the model are checked first, and a missing model
// or an unreachable server is the one-line error the user sees. With
// several hosts every one is checked, and each run goes to the next host
// in turn.
func (m *ModelFlags) Judge(ctx context.Context, io *IOStreams) (engine.Judge, error) {
	if !m.Enabled() {
		return nil, nil
	}
	hosts := m.Hosts()
	judges := make([]engine.Judge, len(hosts))
	for i, h := range hosts {
		opts := m.Options
		opts.Host = h
		opts.Warn = io.ErrOut
		j, err := localllm.New(ctx, opts)
		if err != nil {
			if len(hosts) > 1 {
				return nil, fmt.Errorf("ollama host %s: %w", h, err)
			}
			return nil, err
		}
		judges[i] = j
	}
	if len(judges) == 1 {
		return judges[0], nil
	}
	return &roundRobin{judges: judges}, nil
}

// roundRobin hands each run to the next judge in turn. A run's calls all
// go to one server, so its response cache entries stay together.
type roundRobin struct {
	judges []engine.Judge
	next   atomic.Uint64
}

func (rr *roundRobin) Review(ctx context.Context, in *rules.Input, a rules.Attribution) (rules.Attribution, error) {
	i := (rr.next.Add(1) - 1) % uint64(len(rr.judges))
	return rr.judges[i].Review(ctx, in, a)
}

// newAnalyzer builds the engine for a command from its rule and model flags
// and the redaction patterns (nil without --redact). bands holds the
// triage thresholds the user set, over the weights' bands.
func (a *Analysis) newAnalyzer(ctx context.Context, io *IOStreams, patterns *redact.Patterns, bands triage.Override) (engine.AnalyzeFunc, error) {
	r, m := &a.Rules, &a.Model
	comb, err := r.Combiner()
	if err != nil {
		return nil, err
	}
	// The weights' model section, when the file has one, weighs the model
	// (localllm warns and uses its defaults when fitted for another).
	m.ModelWeights = comb.Weights.Model
	j, err := m.Judge(ctx, io)
	if err != nil {
		return nil, err
	}
	return engine.New(engine.Options{Rules: comb, Judge: j, Redact: patterns, Triage: bands, AnswerOnly: a.AnswerOnly})
}
