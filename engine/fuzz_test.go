package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/redact"
	"github.com/offattr/offattr/run"
)

// FuzzAnalyze runs every stage on whatever a fuzzed file reads as: a file
// the loaders accept must analyse without an error or a panic, blame a
// step of the run and name an agent (or, for a run of the task alone,
// none); the answer must be the same twice, with
// the graph let go early (AnswerOnly), and with the run redacted first.
func FuzzAnalyze(f *testing.F) {
	for _, dir := range []string{"runs", "telemetry", "traces", "calls"} {
		entries, _ := os.ReadDir(filepath.Join("..", "testdata", dir))
		for _, e := range entries {
			if data, err := os.ReadFile(filepath.Join("..", "testdata", dir, e.Name())); err == nil && len(data) < 1<<16 {
				f.Add(data)
			}
		}
	}
	whole, err := New(Options{})
	require.NoError(f, err)
	answer, err := New(Options{AnswerOnly: true})
	require.NoError(f, err)
	patterns, err := redact.Compile(redact.Options{})
	require.NoError(f, err)
	redacted, err := New(Options{Redact: patterns})
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, data []byte) {
		parse := func() *run.Run {
			c, err := run.ParseCase("fuzz.json", data, run.Options{})
			if err != nil {
				return nil
			}
			return c.Run
		}
		r := parse()
		if r == nil {
			return
		}
		ctx := context.Background()
		got, err := whole(ctx, r)
		require.NoError(t, err)
		a := got.Attribution
		if a.Step < 0 {
			// Nothing to blame is an answer only for a run of the task
			// and system prompts alone.
			assert.True(t, onlyTask(r), "no step blamed in a run with steps to blame")
			assert.Empty(t, a.Agent)
		} else {
			require.Less(t, a.Step, len(r.Steps))
			assert.NotEmpty(t, a.Agent)
		}

		again, err := whole(ctx, parse())
		require.NoError(t, err)
		assert.Equal(t, a, again.Attribution, "a second analysis of the same file")
		short, err := answer(ctx, parse())
		require.NoError(t, err)
		assert.Equal(t, a, short.Attribution, "the answer alone")
		masked, err := redacted(ctx, parse())
		require.NoError(t, err)
		require.Less(t, masked.Attribution.Step, len(r.Steps))
	})
}

// onlyTask reports whether a run holds nothing but system prompts and the
// user's first message: the task.
func onlyTask(r *run.Run) bool {
	users := 0
	for _, s := range r.Steps {
		switch s.Kind {
		case run.KindSystem:
		case run.KindUser:
			users++
		default:
			return false
		}
	}
	return users <= 1
}
