package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
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

var _ engine.AnalyzeFunc = (&fixed{}).analyze

func TestEvaluateScores(t *testing.T) {
	dir := evaltest.WriteCases(t)
	subsets, err := Discover([]string{dir})
	require.NoError(t, err)
	require.Len(t, subsets, 2)
	assert.Equal(t, "A", subsets[0].Name)
	assert.Equal(t, []string{"1.json", "2.json", "10.json"}, baseNames(subsets[0].Files), "numeric order")

	spy := &fixed{}
	var cases, warn bytes.Buffer
	rep, err := Evaluate(context.Background(), subsets, spy.analyze, Options{Cases: &cases, Warn: &warn})
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

// TestEvaluateCountsInSample: cases the weights were fitted on are counted
// per subset, so that a report can say its figures are in-sample. The
// cases of A are one run labelled three ways; B's differs in its task.
func TestEvaluateCountsInSample(t *testing.T) {
	dir := evaltest.WriteCases(t)
	b := filepath.Join(dir, "B", "1.json")
	data, err := os.ReadFile(b)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(b, bytes.Replace(data, []byte(`"question":"q"`), []byte(`"question":"another q"`), 1), 0o644))
	subsets, err := Discover([]string{dir})
	require.NoError(t, err)
	r, err := run.Load(subsets[0].Files[0], run.Options{})
	require.NoError(t, err)
	fitted := r.Fingerprint()

	rep, err := Evaluate(context.Background(), subsets, (&fixed{}).analyze, Options{InSample: func(fp string) bool { return fp == fitted }})
	require.NoError(t, err)
	assert.Equal(t, 3, rep.Subsets[0].InSample)
	assert.Equal(t, 0, rep.Subsets[1].InSample, "another task, another run")
	assert.Equal(t, 3, rep.Overall.InSample)

	rep, err = Evaluate(context.Background(), subsets, (&fixed{}).analyze, Options{})
	require.NoError(t, err)
	assert.Zero(t, rep.Overall.InSample, "no weights, nothing in-sample")
}

func TestEvaluateWithoutGroundTruth(t *testing.T) {
	subsets, err := Discover([]string{evaltest.WriteCases(t)})
	require.NoError(t, err)
	spy := &fixed{}
	var sink bytes.Buffer
	rep, err := Evaluate(context.Background(), subsets, spy.analyze, Options{Load: run.Options{NoGroundTruth: true}, Cases: &sink, Warn: &sink})
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
	rep, err := Evaluate(context.Background(), subsets, (&fixed{}).analyze, Options{Cases: &sink, Warn: &sink})
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

func TestTriageHasEveryBand(t *testing.T) {
	// A reader of eval --json finds all three bands, with zero cases where
	// no run fell.
	tl := NewTally("x")
	tl.Add(&run.Label{Agent: "A", Step: 1}, &rules.Attribution{Agent: "A", Step: 1, Triage: "escalate"})
	tl.Add(&run.Label{Agent: "A", Step: 2}, &rules.Attribution{Agent: "B", Step: 1, Triage: "escalate"})
	s := tl.Score()
	assert.Equal(t, map[string]BandScore{
		"clear":    {},
		"review":   {},
		"escalate": {Cases: 2, StepAccuracy: 0.5, AgentAccuracy: 0.5},
	}, s.Triage)
}

func baseNames(paths []string) []string {
	var out []string
	for _, p := range paths {
		out = append(out, filepath.Base(p))
	}
	return out
}

// TestEvaluateTelemetry: every labelled trace of a telemetry file is a
// case named FILE#TRACEID; unlabelled traces are left out and said so.
func TestEvaluateTelemetry(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "testdata", "telemetry")
	sdk, err := os.ReadFile(filepath.Join(src, "otel-sdk.jsonl"))
	require.NoError(t, err)
	const id = "4bf92f3577b34da65eed0000cafe0001"
	unlabelled := strings.ReplaceAll(strings.ReplaceAll(string(sdk), id, strings.Replace(id, "0001", "0002", 1)), `"offattr.mistake"`, `"x.mistake"`)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "traces"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "traces", "collector.jsonl"), append(sdk, unlabelled...), 0o644))
	phoenix, err := os.ReadFile(filepath.Join(src, "phoenix.jsonl"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "traces", "phoenix.jsonl"), phoenix, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "traces", "none.jsonl"), []byte(unlabelled), 0o644))

	subsets, err := Discover([]string{dir})
	require.NoError(t, err)
	require.Len(t, subsets, 1)
	spy := &fixed{}
	var cases, warn bytes.Buffer
	rep, err := Evaluate(context.Background(), subsets, spy.analyze, Options{Cases: &cases, Warn: &warn})
	require.NoError(t, err)
	assert.Equal(t, 2, rep.Overall.Cases, "two labelled traces; the file with none is not a case")
	assert.Equal(t, 0, rep.Overall.Failed)
	assert.Equal(t, 1, rep.Overall.Unlabelled)
	assert.Contains(t, warn.String(), "collector.jsonl: 1 of 2 traces are not labelled and are left out")
	assert.Contains(t, warn.String(), "none.jsonl: no trace is labelled (mark the decisive span with offattr.mistake=true, or give --labels)")
	var results []CaseResult
	for _, line := range strings.Split(strings.TrimSpace(cases.String()), "\n") {
		var r CaseResult
		require.NoError(t, json.Unmarshal([]byte(line), &r))
		results = append(results, r)
	}
	require.Len(t, results, 2)
	assert.Equal(t, filepath.Join(dir, "traces", "collector.jsonl")+"#"+id, results[0].File)
	assert.Equal(t, &run.Label{Agent: "Researcher", Step: 6, Reason: "Researcher copied the Celsius figures as Fahrenheit instead of converting them."}, results[0].Label)
	assert.Equal(t, filepath.Join(dir, "traces", "phoenix.jsonl")+"#7c1e2f3a4b5c6d7e8f9012a3b4c5d6e7", results[1].File)
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

// TestLabelsOutsideTheRunAndUnlabelledFiles: a label naming a step the run
// does not have, or an agent none of its steps is by, is an error for that
// case alone (never scored, so a -1 is
// not "within ±3" of step 2), and a file with no label is counted apart,
// neither right nor wrong.
func TestLabelsOutsideTheRunAndUnlabelledFiles(t *testing.T) {
	dir := t.TempDir()
	history := `"history": [{"role": "human", "content": "q"}, {"role": "Orchestrator", "content": "look it up"}, {"role": "WebSurfer", "content": "found it"}, {"role": "Orchestrator", "content": "done"}]`
	files := map[string]string{
		"1.json": `{"question": "q", ` + history + `, "mistake_agent": "WebSurfer", "mistake_step": "2"}`,
		"2.json": `{"question": "q", ` + history + `, "mistake_agent": "WebSurfer", "mistake_step": "-1"}`,
		"3.json": `{"question": "q", ` + history + `, "mistake_agent": "WebSurfer", "mistake_step": "999999999"}`,
		"4.json": `{"question": "q", ` + history + `}`,
		"5.json": `{"question": "q", ` + history + `, "mistake_agent": "WebSurfr", "mistake_step": "2"}`,
		"6.json": `{"question": "q", ` + history + `, "mistake_agent": "web_surfer", "mistake_step": "2"}`,
		"7.json": `{"question": "q", ` + history + `, "mistake_agent": "", "mistake_step": "2"}`,
		"8.json": `{"question": "q", ` + history + `, "mistake_step": "2"}`,
		// A labels file kept beside the traces it labels is no case.
		"labels.jsonl": `{"trace_id": "t1", "span_id": "s1", "reason": "r"}` + "\n",
	}
	for name, data := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644))
	}
	subsets, err := Discover([]string{dir})
	require.NoError(t, err)
	var warn bytes.Buffer
	rep, err := Evaluate(context.Background(), subsets, (&fixed{}).analyze, Options{Warn: &warn})
	require.NoError(t, err)
	o := rep.Overall
	assert.Equal(t, 7, o.Cases, "the unlabelled file and the labels file are no cases")
	assert.Equal(t, 2, o.Failed, "the two labels of steps outside the run; an agent no step is by is scored")
	assert.Equal(t, 1, o.Unlabelled, "the labels file holds labels, and is not counted as holding none")
	assert.Contains(t, warn.String(), "labels.jsonl: unknown format: a labels file for telemetry (trace_id, span_id, reason), not a run: give it to eval or fit with --labels (left out)")
	assert.InDelta(t, 5.0/7, o.StepWithin["3"], 1e-9, "only the labels in range are near the answer")
	assert.Contains(t, warn.String(), "2.json: the label names a step outside the run: mistake_step -1 is negative")
	assert.Contains(t, warn.String(), "3.json: the label names a step outside the run: mistake_step 999999999 is past the last step, 3")
	assert.Contains(t, warn.String(), "4.json: not a labelled case")
	assert.Contains(t, warn.String(), `5.json: mistake_agent "WebSurfr" is none of its agents (human, Orchestrator, WebSurfer): scored, its agent can never be right`)
	assert.NotContains(t, warn.String(), "6.json", "an agent is the same whatever its case and separators")
	for _, name := range []string{"7.json", "8.json"} {
		assert.Contains(t, warn.String(), name+": the label names no agent (mistake_agent is empty or missing): scored, its agent can never be right")
	}
}

// TestLabelsFileGivenIsSkipped: the labels file --labels names, sitting
// among the traces read, is skipped without a word and counted nowhere;
// another labels file beside it is left out as a labels file.
func TestLabelsFileGivenIsSkipped(t *testing.T) {
	dir := t.TempDir()
	history := `"history": [{"role": "human", "content": "q"}, {"role": "Orchestrator", "content": "look it up"}, {"role": "WebSurfer", "content": "found it"}]`
	label := `{"trace_id": "t1", "span_id": "s1", "reason": "r"}` + "\n"
	for name, data := range map[string]string{
		"1.json":       `{"question": "q", ` + history + `, "mistake_agent": "WebSurfer", "mistake_step": "2"}`,
		"labels.jsonl": label,
		"other.jsonl":  label,
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644))
	}
	subsets, err := Discover([]string{dir})
	require.NoError(t, err)
	var warn bytes.Buffer
	load := run.Options{LabelsFile: filepath.Join(dir, "labels.jsonl")}
	rep, err := Evaluate(context.Background(), subsets, (&fixed{}).analyze, Options{Load: load, Warn: &warn})
	require.NoError(t, err)
	assert.Equal(t, 1, rep.Overall.Cases)
	assert.Equal(t, 0, rep.Overall.Unlabelled, "neither labels file holds no label")
	assert.Equal(t, 0, rep.Overall.Failed)
	assert.NotContains(t, warn.String(), "labels.jsonl", "the file --labels names is no run to warn of")
	assert.Contains(t, warn.String(), "other.jsonl: unknown format: a labels file for telemetry")
}

// TestWarningsEscapeLogText: the warnings about a case's label write the
// agents' names and the file's name as escaped text, so a name that
// holds a terminal's control reaches the terminal as its escapes (an
// agent's name loses an escape sequence whole; a bell, and an ESC that
// begins none, stay).
func TestWarningsEscapeLogText(t *testing.T) {
	dir := t.TempDir()
	history := `"history": [{"role": "human", "content": "q"}, {"role": "Web\u0007Surfer", "content": "found it"}, {"role": "Orchestrator\u001b", "content": "done"}]`
	name := "bell\a.json"
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(`{"question": "q", `+history+`, "mistake_agent": "Surfer\u001b[31m", "mistake_step": "1"}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "traces.json"), []byte(`{"resourceSpans": [{"scopeSpans": [{"spans": [
		{"traceId": "0102030405060708090a0b0c0d0e0f10", "spanId": "0102030405060708", "name": "chat", "startTimeUnixNano": "1", "endTimeUnixNano": "2", "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}}, {"key": "gen_ai.output.messages", "value": {"stringValue": "[{\"role\":\"assistant\",\"content\":\"A\"}]"}}, {"key": "offattr.mistake", "value": {"boolValue": true}}]},
		{"traceId": "1102030405060708090a0b0c0d0e0f10", "spanId": "1102030405060708", "name": "chat", "startTimeUnixNano": "1", "endTimeUnixNano": "2", "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}}, {"key": "gen_ai.output.messages", "value": {"stringValue": "[{\"role\":\"assistant\",\"content\":\"B\"}]"}}]}]}]}]}`), 0o644))
	require.NoError(t, os.Rename(filepath.Join(dir, "traces.json"), filepath.Join(dir, "t\x1b[1m.json")))
	var warn bytes.Buffer
	for _, file := range []string{name, "t\x1b[1m.json"} {
		_, err := LabelledCases(context.Background(), filepath.Join(dir, file), run.Options{}, &warn)
		require.NoError(t, err)
	}
	assert.Contains(t, warn.String(), `is none of its agents (human, Web\aSurfer, Orchestrator\x1b)`)
	assert.Contains(t, warn.String(), `1 of 2 traces are not labelled`)
	assert.NotContains(t, warn.String(), "\x1b", "no escape byte reaches the terminal")
	assert.NotContains(t, warn.String(), "\a", "no bell reaches the terminal")
}

// TestSortCases: files named by numbers come in their order, compressed
// or not, before the others in name order.
func TestSortCases(t *testing.T) {
	files := []string{"d/notes.json", "d/10.json", "d/9.json.gz", "d/2.jsonl", "d/a.json"}
	sortCases(files)
	assert.Equal(t, []string{"d/2.jsonl", "d/9.json.gz", "d/10.json", "d/a.json", "d/notes.json"}, files)
}

// TestDiscoverReadsFilesNamedWithoutExtension: a case file named without
// an extension (as Genkit names a trace by its id) is a case when its
// text begins as JSON does; a note beside it is not.
func TestDiscoverReadsFilesNamedWithoutExtension(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"1.json":                           `{}`,
		"0af7651916cd43dd8448eb211c80319c": `{"traceId": "0af7651916cd43dd8448eb211c80319c"}`,
		"NOTES":                            "labelled by hand",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	subsets, err := Discover([]string{dir})
	require.NoError(t, err)
	require.Len(t, subsets, 1)
	var names []string
	for _, f := range subsets[0].Files {
		names = append(names, filepath.Base(f))
	}
	assert.ElementsMatch(t, []string{"1.json", "0af7651916cd43dd8448eb211c80319c"}, names)
}
