package engine

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
)

// TestSpanIDs: every answer read from telemetry carries the trace and span
// of its step and of each candidate, whichever analyzer chose them; other
// formats carry none, and their JSON does not change.
func TestSpanIDs(t *testing.T) {
	trip, err := run.Load(filepath.Join("..", "testdata", "telemetry", "otel-sdk.jsonl"), run.Options{})
	require.NoError(t, err)
	chat, err := run.Load(filepath.Join("..", "testdata", "runs", "chat.jsonl"), run.Options{})
	require.NoError(t, err)
	for _, opts := range []Options{{}, {Baseline: "first-step"}} {
		analyze, err := New(opts)
		require.NoError(t, err)
		t.Run("telemetry "+opts.Baseline, func(t *testing.T) {
			res, err := analyze(context.Background(), trip)
			require.NoError(t, err)
			a := res.Attribution
			assert.Equal(t, trip.TraceID, a.TraceID)
			assert.Equal(t, trip.Steps[a.Step].SpanID, a.SpanID)
			require.NotEmpty(t, a.Candidates)
			for _, c := range a.Candidates {
				assert.Equal(t, trip.TraceID, c.TraceID)
				assert.Equal(t, trip.Steps[c.Step].SpanID, c.SpanID, "candidate step %d", c.Step)
			}
		})
		t.Run("transcript "+opts.Baseline, func(t *testing.T) {
			res, err := analyze(context.Background(), chat)
			require.NoError(t, err)
			out, err := json.Marshal(res.Attribution)
			require.NoError(t, err)
			assert.NotContains(t, string(out), "trace_id")
			assert.NotContains(t, string(out), "span_id")
		})
	}
}

// judgeFunc is a Judge from a function.
type judgeFunc func(context.Context, *rules.Input, rules.Attribution) (rules.Attribution, error)

func (f judgeFunc) Review(ctx context.Context, in *rules.Input, a rules.Attribution) (rules.Attribution, error) {
	return f(ctx, in, a)
}

// TestSpanIDsFollowTheModel: a model that moves the answer moves its ids.
func TestSpanIDsFollowTheModel(t *testing.T) {
	trip, err := run.Load(filepath.Join("..", "testdata", "telemetry", "otel-sdk.jsonl"), run.Options{})
	require.NoError(t, err)
	analyze, err := New(Options{Judge: judgeFunc(func(_ context.Context, _ *rules.Input, a rules.Attribution) (rules.Attribution, error) {
		a.Step, a.Agent = 6, "Researcher"
		return a, nil
	})})
	require.NoError(t, err)
	res, err := analyze(context.Background(), trip)
	require.NoError(t, err)
	assert.Equal(t, trip.Steps[6].SpanID, res.Attribution.SpanID)
}
