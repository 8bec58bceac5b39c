package engine

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/redact"
	"github.com/offattr/offattr/run"
)

func TestAwaitStopsWaiting(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	// f never returns before the test ends: only ctx can end the wait.
	_, err := await(ctx, func() int { <-release; return 1 })
	assert.ErrorIs(t, err, context.Canceled)

	v, err := await(context.Background(), func() int { return 7 })
	require.NoError(t, err)
	assert.Equal(t, 7, v)
}

func TestRedactContext(t *testing.T) {
	r := &run.Run{Steps: []run.Step{{Agent: "a", Content: "mail bob@example.com"}}}
	p, err := redact.Compile(redact.Options{})
	require.NoError(t, err)

	got, err := RedactContext(context.Background(), p, r)
	require.NoError(t, err)
	assert.Equal(t, "mail [EMAIL_1]", got.Steps[0].Content)
	assert.Equal(t, "mail bob@example.com", r.Steps[0].Content, "the run itself is left as it was")

	got, err = RedactContext(context.Background(), nil, r)
	require.NoError(t, err)
	assert.Same(t, r, got, "no patterns, no copy")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = RedactContext(ctx, p, r)
	assert.ErrorIs(t, err, context.Canceled)
}
