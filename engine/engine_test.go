package engine

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/redact"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/run/runtest"
	"github.com/offattr/offattr/triage"
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
			assert.Equal(t, trip.Steps[a.Step].SpanID(), a.SpanID)
			require.NotEmpty(t, a.Candidates)
			for _, c := range a.Candidates {
				assert.Equal(t, trip.TraceID, c.TraceID())
				assert.Equal(t, trip.Steps[c.Step].SpanID(), c.SpanID(), "candidate step %d", c.Step)
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

// TestTriageWithoutGroundTruth: a run without a ground truth is triaged by
// the weights' bands for such runs; one with a ground truth, and any run
// when the caller sets the bands, by the others.
func TestTriageWithoutGroundTruth(t *testing.T) {
	r, err := run.Load(filepath.Join("..", "testdata", "runs", "magentic.json"), run.Options{GroundTruth: "Canberra"})
	require.NoError(t, err)
	blind := *r
	blind.GroundTruth = ""
	w := *rules.DefaultWeights()
	w.Triage = rules.Bands{Clear: 0, Escalate: 0}                       // every answer clear
	w.TriageWithoutGroundTruth = &rules.Bands{Clear: 1.01, Escalate: 1} // every answer escalated
	for _, c := range []struct {
		name string
		r    *run.Run
		opts Options
		want string
	}{
		{"with ground truth", r, Options{}, "clear"},
		{"without", &blind, Options{}, "escalate"},
		{"without, bands set", &blind, Options{Triage: triage.Override{Clear: ptr(0), Escalate: ptr(0)}}, "clear"},
		{"without, a margin set", &blind, Options{Triage: triage.Override{Margin: ptr(0)}}, "escalate"},
	} {
		c.opts.Rules = rules.Combiner{Weights: &w}
		analyze, err := New(c.opts)
		require.NoError(t, err)
		res, err := analyze(context.Background(), c.r)
		require.NoError(t, err)
		assert.Equal(t, c.want, res.Attribution.Triage, c.name)
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
	assert.Equal(t, trip.Steps[6].SpanID(), res.Attribution.SpanID)
}

func TestAwaitStopsWaiting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		defer close(release)
		ctx, cancel := context.WithCancel(context.Background())
		go func() { time.Sleep(10 * time.Millisecond); cancel() }() // fake time: no real wait
		// f never returns before the test ends: only ctx can end the wait.
		_, err := await(ctx, func() int { <-release; return 1 })
		assert.ErrorIs(t, err, context.Canceled)

		v, err := await(context.Background(), func() int { return 7 })
		require.NoError(t, err)
		assert.Equal(t, 7, v)
	})
}

func TestRedactContext(t *testing.T) {
	r := &run.Run{Steps: []run.Step{{Agent: "a", Content: "mail bob@example.com"}}}
	p, err := redact.Compile(redact.Options{})
	require.NoError(t, err)

	got, err := RedactContext(context.Background(), p.NewRedactor(), r)
	require.NoError(t, err)
	assert.Equal(t, "mail [EMAIL_1]", got.Steps[0].Content)
	assert.Equal(t, "mail bob@example.com", r.Steps[0].Content, "the run itself is left as it was")

	got, err = RedactContext(context.Background(), nil, r)
	require.NoError(t, err)
	assert.Same(t, r, got, "no patterns, no copy")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = RedactContext(ctx, p.NewRedactor(), r)
	assert.ErrorIs(t, err, context.Canceled)
}

func ptr(x float64) *float64 { return &x }

// TestAnswerOnlyIsTheAnswer: an analysis for a caller that reads only the
// attribution, which lets the graph go before the rows are weighed, gives
// the attribution of the whole analysis on every labelled case, and holds
// nothing else.
func TestAnswerOnlyIsTheAnswer(t *testing.T) {
	whole, err := New(Options{})
	require.NoError(t, err)
	answer, err := New(Options{AnswerOnly: true})
	require.NoError(t, err)
	files := runtest.SystemFiles(t)
	if testing.Short() {
		files = files[:min(len(files), 40)]
	}
	for _, path := range files {
		want, err := whole(context.Background(), loadRun(t, path))
		require.NoError(t, err, path)
		got, err := answer(context.Background(), loadRun(t, path))
		require.NoError(t, err, path)
		assert.Equal(t, want.Attribution, got.Attribution, path)
		assert.Nil(t, got.Input, path)
		assert.Nil(t, got.Findings, path)
	}
}

func loadRun(t *testing.T, path string) *run.Run {
	t.Helper()
	r, err := run.Load(path, run.Options{})
	require.NoError(t, err, path)
	return r
}
