package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/eval/evaltest"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
)

// fixed predicts step 2 with candidates 2, 1, 3 and records what it saw.
type fixed struct{ seen []*run.Run }

func (f *fixed) analyze(_ context.Context, r *run.Run) (engine.Result, error) {
	f.seen = append(f.seen, r)
	return engine.Result{Attribution: rules.Attribution{Agent: r.Steps[2].Agent, Step: 2, Confidence: 0.5,
		Candidates: []rules.Candidate{{Step: 2}, {Step: 1}, {Step: 3}}}}, nil
}

var _ engine.Analyzer = (&fixed{}).analyze

func TestEvaluateScores(t *testing.T) {
	dir := evaltest.WriteCases(t)
	subsets, err := Discover([]string{dir})
	require.NoError(t, err)
	require.Len(t, subsets, 2)
	assert.Equal(t, "A", subsets[0].Name)
	assert.Equal(t, []string{"1.json", "2.json", "10.json"}, baseNames(subsets[0].Files), "numeric order")

	spy := &fixed{}
	var cases, warn bytes.Buffer
	rep, err := Evaluate(context.Background(), subsets, run.Options{}, spy.analyze, &cases, &warn)
	require.NoError(t, err)

	a := rep.Subsets[0]
	assert.Equal(t, 3, a.Cases)
	assert.Equal(t, 0, a.Failed)
	assert.InDelta(t, 2.0/3, a.AgentAccuracy, 1e-9, "websurfer = WebSurfer = Web_Surfer; Orchestrator is not")
	assert.InDelta(t, 1.0/3, a.StepAccuracy, 1e-9)
	assert.InDelta(t, 1.0, a.StepWithin["1"], 1e-9)
	assert.InDelta(t, 1.0/3, a.RecallAt["1"], 1e-9)
	assert.InDelta(t, 1.0, a.RecallAt["3"], 1e-9)

	b := rep.Subsets[1]
	assert.Equal(t, 2, b.Cases)
	assert.Equal(t, 1, b.Failed, "the broken file counts")
	assert.InDelta(t, 0.0, b.AgentAccuracy, 1e-9)
	assert.InDelta(t, 0.5, b.StepWithin["1"], 1e-9, "the broken file counts as wrong")
	assert.Contains(t, warn.String(), "9.json")

	assert.Equal(t, 5, rep.Overall.Cases)
	assert.Equal(t, 1, rep.Overall.Failed)
	assert.InDelta(t, 2.0/5, rep.Overall.AgentAccuracy, 1e-9)

	lines := strings.Split(strings.TrimSpace(cases.String()), "\n")
	require.Len(t, lines, 5)
	var first CaseResult
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &first))
	assert.Equal(t, 2, first.Label.Step)
	assert.True(t, first.Prediction.StepCorrect)
	assert.Len(t, first.Candidates, 3)

	for _, r := range spy.seen {
		assert.Equal(t, "the answer", r.GroundTruth, "with ground truth the answer reaches the attributor")
	}
}

func TestEvaluateWithoutGroundTruth(t *testing.T) {
	subsets, err := Discover([]string{evaltest.WriteCases(t)})
	require.NoError(t, err)
	spy := &fixed{}
	var sink bytes.Buffer
	rep, err := Evaluate(context.Background(), subsets, run.Options{NoGroundTruth: true}, spy.analyze, &sink, &sink)
	require.NoError(t, err)
	assert.Equal(t, SettingWithoutGroundTruth, rep.Setting)
	require.Len(t, spy.seen, 4)
	for _, r := range spy.seen {
		assert.Empty(t, r.GroundTruth, "without ground truth the answer must not reach the attributor")
	}
}

func TestEvaluateCalibration(t *testing.T) {
	subsets, err := Discover([]string{evaltest.WriteCases(t)})
	require.NoError(t, err)
	var sink bytes.Buffer
	rep, err := Evaluate(context.Background(), subsets, run.Options{}, (&fixed{}).analyze, &sink, &sink)
	require.NoError(t, err)
	total := 0
	for _, b := range rep.Calibration {
		total += b.Cases
		if b.Low == 0.5 {
			assert.Equal(t, 4, b.Cases, "the spy always says 0.5")
			assert.Equal(t, 1, b.StepHits)
			assert.Equal(t, 2, b.AgentHits)
			assert.InDelta(t, 0.25, b.StepAccuracy(), 1e-9)
		}
	}
	assert.Equal(t, 4, total, "failed cases have no confidence to bin")
}

func TestScoringUsesAgentIdentity(t *testing.T) {
	// Scoring compares agents as every stage does (run.SameAgent): digits
	// count, so Agent1 is not Agent2.
	tl := NewTally("x")
	o := tl.Add(&run.Label{Agent: "Agent2", Step: 1}, &rules.Attribution{Agent: "Agent1", Step: 1})
	assert.False(t, o.AgentCorrect)
	o = tl.Add(&run.Label{Agent: "web_surfer", Step: 1}, &rules.Attribution{Agent: "WebSurfer", Step: 1})
	assert.True(t, o.AgentCorrect)
}

func baseNames(paths []string) []string {
	var out []string
	for _, p := range paths {
		out = append(out, filepath.Base(p))
	}
	return out
}

func TestModelExposure(t *testing.T) {
	seen := func(steps ...int) *rules.Attribution {
		return &rules.Attribution{Agent: "A", Step: steps[0], Model: &rules.ModelReview{CandidatesSeen: steps}}
	}
	label := &run.Label{Agent: "A", Step: 4}
	tests := []struct {
		name  string
		cases []*rules.Attribution // nil: a failed case
		want  *float64
	}{
		{"rules alone: no figure", []*rules.Attribution{{Agent: "A", Step: 4}}, nil},
		{"shown, not shown", []*rules.Attribution{seen(1, 4, 9), seen(1, 2, 3)}, ptr(0.5)},
		{"a failed case counts as not exposed", []*rules.Attribution{seen(4), nil, seen(0, 4)}, ptr(2.0 / 3)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl := NewTally("x")
			for _, a := range tt.cases {
				o := tl.Add(label, a)
				if a != nil && a.Model != nil {
					require.NotNil(t, o.Exposed)
					assert.Equal(t, slices.Contains(a.Model.CandidatesSeen, 4), *o.Exposed)
				}
			}
			all := NewTally("all")
			all.Merge(tl)
			for _, s := range []Score{tl.Score(), all.Score()} {
				if tt.want == nil {
					assert.Nil(t, s.ModelExposure)
					continue
				}
				require.NotNil(t, s.ModelExposure)
				assert.InDelta(t, *tt.want, *s.ModelExposure, 1e-9)
			}
		})
	}
}

func ptr(f float64) *float64 { return &f }
