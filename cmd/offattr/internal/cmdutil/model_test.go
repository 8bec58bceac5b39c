package cmdutil

import (
	"context"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/localllm"
	"github.com/offattr/offattr/rules"
)

func TestHosts(t *testing.T) {
	tests := []struct {
		flag string
		want []string
	}{
		{"", []string{""}},
		{"box:11434", []string{"box:11434"}},
		{" a:1, http://b:2 ,,", []string{"a:1", "http://b:2"}},
	}
	for _, tt := range tests {
		m := ModelFlags{}
		fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
		m.Register(fs)
		require.NoError(t, fs.Parse([]string{"--ollama-host", tt.flag}))
		assert.Equal(t, tt.want, m.Hosts(), tt.flag)
	}
}

// judgeFunc is a Judge from a function.
type judgeFunc func(ctx context.Context, in *rules.Input, a rules.Attribution) (rules.Attribution, error)

func (f judgeFunc) Review(ctx context.Context, in *rules.Input, a rules.Attribution) (rules.Attribution, error) {
	return f(ctx, in, a)
}

func TestRoundRobin(t *testing.T) {
	var got []string
	mk := func(name string) engine.Judge {
		return judgeFunc(func(_ context.Context, _ *rules.Input, a rules.Attribution) (rules.Attribution, error) {
			got = append(got, name)
			return a, nil
		})
	}
	rr := &roundRobin{judges: []engine.Judge{mk("a"), mk("b"), mk("c")}}
	for range 5 {
		_, _ = rr.Review(context.Background(), &rules.Input{}, rules.Attribution{})
	}
	assert.Equal(t, []string{"a", "b", "c", "a", "b"}, got)
}

func TestModelFlags(t *testing.T) {
	var m ModelFlags
	fs := pflag.NewFlagSet("analyze", pflag.ContinueOnError)
	m.Register(fs)
	assert.False(t, m.Enabled(), "no model by default")
	assert.Equal(t, localllm.Options{Strategy: "auto", TopK: 4, Panel: 3, Parallel: 1, Timeout: 2 * time.Minute}, m.Options, "defaults")
	require.NoError(t, fs.Parse([]string{"--model", "qwen3:32b", "--ollama-host", "box:11434", "--think", "--top-k", "5",
		"--panel", "6", "--parallel", "2", "--timeout", "45s", "--no-cache", "--cache-dir", "/tmp/c", "--strategy", "sweep", "--rounds", "3"}))
	assert.Equal(t, localllm.Options{Model: "qwen3:32b", Host: "box:11434", Think: true, Strategy: "sweep", Rounds: 3, TopK: 5, Panel: 6, Parallel: 2,
		Timeout: 45 * time.Second, NoCache: true, CacheDir: "/tmp/c"}, m.Options)
	assert.True(t, m.Enabled())
}
