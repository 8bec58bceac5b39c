//go:build unix

package run_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestLogsBesideAreRegularFiles: the logs a session's reading opens beside
// it (a Claude Code sub-agent's, a Codex parent's or sub-agent's rollout)
// are read only when they are regular files. A named pipe there held the
// reading, and a screen with it, until a writer came: it is an error
// naming it, or for a walk's question whether a rollout is a sub-agent's,
// no.
func TestLogsBesideAreRegularFiles(t *testing.T) {
	within := func(t *testing.T, f func()) {
		t.Helper()
		done := make(chan struct{})
		go func() { defer close(done); f() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("the reading waits on a named pipe")
		}
	}
	t.Run("claude code sub-agent", func(t *testing.T) {
		path, _ := withSubagentLog(t, nil)
		sub := filepath.Join(filepath.Dir(path), "s", "subagents", "agent-a6e4ca9c7525b01dd.jsonl")
		require.NoError(t, os.Remove(sub))
		require.NoError(t, syscall.Mkfifo(sub, 0o600))
		within(t, func() {
			_, err := run.LoadAll(context.Background(), path, run.Options{})
			if assert.ErrorIs(t, err, run.ErrNotRegular) {
				assert.Contains(t, err.Error(), "agent-a6e4ca9c7525b01dd.jsonl")
			}
		})
	})
	codex := filepath.Join("..", "testdata", "traces", "codex-subagent")
	parent := "rollout-2026-11-27T18-37-40-01a21e4c-82cd-75c2-bdb4-1c69e0b197d3.jsonl"
	child := "rollout-2026-11-27T18-37-40-01a21e4c-8358-7140-8478-b2d8e9f7a486.jsonl"
	for _, tc := range []struct{ name, pipe, read string }{
		{"codex sub-agent", child, parent},
		{"codex parent", parent, child},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			data, err := os.ReadFile(filepath.Join(codex, tc.read))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, tc.read), data, 0o600))
			require.NoError(t, syscall.Mkfifo(filepath.Join(dir, tc.pipe), 0o600))
			within(t, func() {
				if tc.read == parent {
					_, err := run.LoadAll(context.Background(), filepath.Join(dir, tc.read), run.Options{})
					if assert.ErrorIs(t, err, run.ErrNotRegular) {
						assert.Contains(t, err.Error(), tc.pipe)
					}
					return
				}
				assert.False(t, new(run.Rollouts).IsSubagent(filepath.Join(dir, tc.read)))
			})
		})
	}
}
