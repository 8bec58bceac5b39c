package cmdutil

import (
	"context"
	"testing"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/pipeline"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
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

func TestRoundRobin(t *testing.T) {
	var got []string
	mk := func(name string) pipeline.Analyzer {
		return func(context.Context, *run.Run) (rules.Attribution, error) {
			got = append(got, name)
			return rules.Attribution{}, nil
		}
	}
	a := roundRobin([]pipeline.Analyzer{mk("a"), mk("b"), mk("c")})
	for range 5 {
		_, _ = a(context.Background(), &run.Run{})
	}
	assert.Equal(t, []string{"a", "b", "c", "a", "b"}, got)
}
