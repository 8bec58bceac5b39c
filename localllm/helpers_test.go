package localllm

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/localllm/ollamatest"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
)

const testModel = "qwen3:8b"

func qwen(ctx int) ollamatest.Model {
	return ollamatest.Model{Name: testModel, ContextLength: ctx, Digest: "sha256:abc"}
}

func newServer(t *testing.T, models ...ollamatest.Model) *ollamatest.Server {
	t.Helper()
	s := ollamatest.New(models...)
	t.Cleanup(s.Close)
	return s
}

// syncBuffer collects warnings written from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// never is a reply's delay no test outlasts: the fake model answers such
// a request only by its being cancelled.
const never = time.Hour

// attributeReturns runs j.Attribute and fails t if it does not return
// within minutes: a guard against a hang, not a measure of speed.
func attributeReturns(t *testing.T, ctx context.Context, j *Judge, r *run.Run, att rules.Attribution) (rules.Attribution, error) {
	t.Helper()
	type result struct {
		att rules.Attribution
		err error
	}
	done := make(chan result, 1)
	go func() {
		got, err := j.Attribute(ctx, r, att)
		done <- result{got, err}
	}()
	select {
	case res := <-done:
		return res.att, res.err
	case <-time.After(5 * time.Minute):
		t.Fatal("Attribute did not return: it waits for a model that never answers")
		return rules.Attribution{}, nil
	}
}

// newJudge connects to srv with a private cache dir; edit adjusts options.
func newJudge(t *testing.T, srv *ollamatest.Server, edit func(*Options)) (*Judge, *syncBuffer) {
	t.Helper()
	warn := &syncBuffer{}
	// The panel's tests ask it to judge the rules' candidates (rank); the
	// sweep's tests ask for their strategy.
	opts := Options{Model: testModel, Host: srv.URL, CacheDir: t.TempDir(), Warn: warn, Strategy: StrategyRank}
	if edit != nil {
		edit(&opts)
	}
	j, err := New(context.Background(), opts)
	require.NoError(t, err)
	return j, warn
}

// testRun is a run of n steps of about words words each.
func testRun(n, words int) *run.Run {
	r := &run.Run{Source: "case.json", Question: "How many studio albums did the band release before 2000?"}
	agents := []string{"Planner", "Searcher", "Coder", "Verifier"}
	for i := range n {
		content := fmt.Sprintf("Step %d says: ", i) + strings.Repeat(fmt.Sprintf("word%d ", i), words)
		r.Steps = append(r.Steps, run.Step{Index: i, Agent: agents[i%len(agents)], Kind: run.KindMessage, Content: content})
	}
	return r
}

// testAttribution is a rules answer ranking steps 2, 4, 6 (scores 1/2, 1/3,
// 1/4), confident 0.5 in step 2.
func testAttribution(r *run.Run) rules.Attribution {
	a := rules.Attribution{File: "case.json", Mode: rules.ModeRules, Rationale: "Rules blame step 2.", Evidence: []rules.Evidence{}}
	for i, s := range []int{2, 4, 6} {
		a.Candidates = append(a.Candidates, rules.Candidate{Step: s, Agent: r.Steps[s].Agent, Score: 1 / float64(i+2), Rules: []string{"test_rule"}})
	}
	a.Step, a.Agent, a.Confidence = 2, r.Steps[2].Agent, 0.5
	return a
}
