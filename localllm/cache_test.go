package localllm

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/rules"
)

func TestCacheMakesRerunFree(t *testing.T) {
	srv := newServer(t, qwen(32768))
	dir := filepath.Join(t.TempDir(), "cache")
	j, _ := newJudge(t, srv, func(o *Options) { o.CacheDir = dir })
	r := testRun(10, 30)

	first, err := j.Attribute(context.Background(), r, testAttribution(r))
	require.NoError(t, err)
	require.Equal(t, 3, first.Usage.LLMCalls)
	require.Len(t, srv.Chats(), 3)

	second, err := j.Attribute(context.Background(), r, testAttribution(r))
	require.NoError(t, err)
	assert.Len(t, srv.Chats(), 3, "a cached answer makes no request")
	assert.Equal(t, 0, second.Usage.LLMCalls)
	assert.Equal(t, 0, second.Usage.PromptTokens)
	second.Usage = first.Usage
	assert.Equal(t, first, second, "a re-run gives the same attribution")

	// Readable only by the owner: dirs 0700, files 0600.
	files := 0
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		info, err := d.Info()
		require.NoError(t, err)
		if d.IsDir() {
			assert.Equal(t, fs.FileMode(0o700), info.Mode().Perm(), p)
		} else {
			files++
			assert.Equal(t, fs.FileMode(0o600), info.Mode().Perm(), p)
		}
		return nil
	}))
	assert.Equal(t, 3, files, "one entry per analyst")

	// A new Judge (a new process) on the same cache dir is just as free.
	j2, _ := newJudge(t, srv, func(o *Options) { o.CacheDir = dir })
	third, err := j2.Attribute(context.Background(), r, testAttribution(r))
	require.NoError(t, err)
	assert.Equal(t, 0, third.Usage.LLMCalls)
	assert.Len(t, srv.Chats(), 3)
}

func TestNoCache(t *testing.T) {
	srv := newServer(t, qwen(32768))
	dir := t.TempDir()
	j, _ := newJudge(t, srv, func(o *Options) { o.CacheDir = dir; o.NoCache = true })
	r := testRun(10, 30)
	for range 2 {
		a, err := j.Attribute(context.Background(), r, testAttribution(r))
		require.NoError(t, err)
		assert.Equal(t, 3, a.Usage.LLMCalls)
	}
	assert.Len(t, srv.Chats(), 6)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "--no-cache writes nothing")
}

func TestCacheDirChoice(t *testing.T) {
	t.Setenv(CacheDirEnv, "/from/env")
	got, err := cacheDir("/from/flag")
	require.NoError(t, err)
	assert.Equal(t, "/from/flag", got)
	got, err = cacheDir("")
	require.NoError(t, err)
	assert.Equal(t, "/from/env", got)
	t.Setenv(CacheDirEnv, "")
	t.Setenv("XDG_CACHE_HOME", "/xdg")
	got, err = cacheDir("")
	require.NoError(t, err)
	assert.Equal(t, "/xdg/offattr/llm", got)
}

func TestCacheKey(t *testing.T) {
	base := func() *api.ChatRequest {
		return &api.ChatRequest{
			Model:    testModel,
			Messages: []api.Message{{Role: "system", Content: "s"}, {Role: "user", Content: "u"}},
			Format:   []byte(`{"type":"object"}`),
			Options:  map[string]any{"seed": 42, "temperature": 0},
		}
	}
	m := Model{Name: testModel, Digest: "sha256:abc"}
	key := cacheKey(m, base())
	assert.Len(t, key, 64)
	assert.Equal(t, key, cacheKey(m, base()), "stable")
	changes := map[string]func(*Model, *api.ChatRequest){
		"digest":  func(m *Model, r *api.ChatRequest) { m.Digest = "sha256:def" },
		"message": func(m *Model, r *api.ChatRequest) { r.Messages[1].Content = "u2" },
		"schema":  func(m *Model, r *api.ChatRequest) { r.Format = []byte(`{"type":"string"}`) },
		"seed":    func(m *Model, r *api.ChatRequest) { r.Options["seed"] = 43 },
		"think":   func(m *Model, r *api.ChatRequest) { r.Think = &api.ThinkValue{Value: true} },
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			m2, r2 := m, base()
			change(&m2, r2)
			assert.NotEqual(t, key, cacheKey(m2, r2))
		})
	}
	// The host does not matter: the same weights answer the same anywhere.
	m3 := m
	m3.Host = "http://elsewhere:11434"
	assert.Equal(t, key, cacheKey(m3, base()))
}

func TestCacheUnwritable(t *testing.T) {
	srv := newServer(t, qwen(32768))
	file := filepath.Join(t.TempDir(), "not-a-dir")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	j, warn := newJudge(t, srv, func(o *Options) { o.CacheDir = file })
	r := testRun(10, 30)
	got, err := j.Attribute(context.Background(), r, testAttribution(r))
	require.NoError(t, err)
	assert.Equal(t, rules.ModeRulesLLM, got.Mode, "answers are used even when they cannot be cached")
	assert.Equal(t, 3, got.Usage.LLMCalls)
	assert.Equal(t, 1, strings.Count(warn.String(), "offattr: model: response cache disabled: create cache dir:"), warn.String())
}
