package evalcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/cmd/offattr/internal/pipeline"
	"github.com/offattr/offattr/localllm/ollamatest"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
)

// writeCases lays out a dataset with two subsets and one unreadable case.
func writeCases(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(rel string, v any) {
		path := filepath.Join(dir, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		data, ok := v.(string)
		if !ok {
			b, err := json.Marshal(v)
			require.NoError(t, err)
			data = string(b)
		}
		require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
	}
	kase := func(agent, step string) map[string]any {
		return map[string]any{
			"question": "q", "ground_truth": "the answer",
			"history": []map[string]string{
				{"role": "human", "content": "q"},
				{"role": "Orchestrator (-> Web_Surfer)", "content": "look it up"},
				{"role": "WebSurfer", "content": "found it"},
				{"role": "Orchestrator (thought)", "content": "done"},
			},
			"mistake_agent": agent, "mistake_step": step,
		}
	}
	write("A/1.json", kase("websurfer", "2"))
	write("A/2.json", kase("Orchestrator", "1"))
	write("A/10.json", kase("Web_Surfer", "3"))
	write("B/1.json", kase("Orchestrator", "3"))
	write("B/9.json", "{ not json")
	return dir
}

// fixed predicts step 2 with candidates 2, 1, 3 and records what it saw.
type fixed struct{ seen []*run.Run }

func (f *fixed) analyze(_ context.Context, r *run.Run) (rules.Attribution, error) {
	f.seen = append(f.seen, r)
	return rules.Attribution{Agent: r.Steps[2].Agent, Step: 2, Confidence: 0.5,
		Candidates: []rules.Candidate{{Step: 2}, {Step: 1}, {Step: 3}}}, nil
}

func TestEvaluateScores(t *testing.T) {
	dir := writeCases(t)
	subsets, err := discover([]string{dir})
	require.NoError(t, err)
	require.Len(t, subsets, 2)
	assert.Equal(t, "A", subsets[0].Name)
	assert.Equal(t, []string{"1.json", "2.json", "10.json"}, baseNames(subsets[0].Files), "numeric order")

	spy := &fixed{}
	var cases, warn bytes.Buffer
	rep, err := Evaluate(context.Background(), subsets, cmdutil.LoadFlags{Format: "auto"}, spy.analyze, &cases, &warn)
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
		assert.Nil(t, r.Label, "the label never reaches the attributor")
		assert.Equal(t, "the answer", r.GroundTruth)
	}
}

func TestEvaluateWithoutGroundTruth(t *testing.T) {
	subsets, err := discover([]string{writeCases(t)})
	require.NoError(t, err)
	spy := &fixed{}
	var sink bytes.Buffer
	rep, err := Evaluate(context.Background(), subsets, cmdutil.LoadFlags{Format: "auto", NoGroundTruth: true}, spy.analyze, &sink, &sink)
	require.NoError(t, err)
	assert.Equal(t, "without_ground_truth", rep.Setting)
	require.Len(t, spy.seen, 4)
	for _, r := range spy.seen {
		assert.Empty(t, r.GroundTruth, "without ground truth the answer must not reach the attributor")
	}
}

func TestEvalJSONShape(t *testing.T) {
	dir := writeCases(t)
	var out, errOut bytes.Buffer
	cmd := NewCmdEval(&cmdutil.IOStreams{Out: &out, ErrOut: &errOut}, nil)
	cmd.SetArgs([]string{dir, "--json"})
	require.NoError(t, cmd.Execute())
	var rep map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	assert.ElementsMatch(t, []string{"setting", "mode", "subsets", "overall"}, keys(rep))
	assert.Equal(t, "rules", rep["mode"])
	overall := rep["overall"].(map[string]any)
	assert.ElementsMatch(t, []string{"name", "cases", "failed", "agent_accuracy", "step_accuracy", "step_within", "recall_at", "usage", "seconds"}, keys(overall))
	assert.ElementsMatch(t, []string{"1", "2", "3", "5"}, keys(overall["step_within"].(map[string]any)))
	assert.ElementsMatch(t, []string{"1", "3", "5"}, keys(overall["recall_at"].(map[string]any)))
	assert.ElementsMatch(t, []string{"llm_calls", "prompt_tokens", "completion_tokens"}, keys(overall["usage"].(map[string]any)))
}

func TestEvalMissingPath(t *testing.T) {
	var out, errOut bytes.Buffer
	cmd := NewCmdEval(&cmdutil.IOStreams{Out: &out, ErrOut: &errOut}, nil)
	cmd.SetArgs([]string{"does/not/exist"})
	cmd.SilenceUsage = true
	assert.EqualError(t, cmd.Execute(), "eval does/not/exist: no such file or directory")
}

func TestSameAgent(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"WebSurfer", "Websurfer", true},
		{"Web_Surfer", "websurfer", true},
		{"Verification_Expert", "VerificationExpert", true},
		{"Verification_Expert", "DataVerification_Expert", false},
		{"", "", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, SameAgent(tt.a, tt.b), "%q vs %q", tt.a, tt.b)
	}
}

func baseNames(paths []string) []string {
	var out []string
	for _, p := range paths {
		out = append(out, filepath.Base(p))
	}
	return out
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

var _ pipeline.Analyzer = (&fixed{}).analyze

func TestEvalWithModel(t *testing.T) {
	srv := ollamatest.New(ollamatest.Model{Name: "fake", ContextLength: 8192, Digest: "sha256:f"})
	t.Cleanup(srv.Close)
	dir := writeCases(t)
	cache := t.TempDir()
	eval := func() Report {
		var out, errOut bytes.Buffer
		cmd := NewCmdEval(&cmdutil.IOStreams{Out: &out, ErrOut: &errOut}, nil)
		cmd.SetArgs([]string{dir, "--json", "--model", "fake", "--ollama-host", srv.URL, "--cache-dir", cache, "--panel", "2"})
		require.NoError(t, cmd.Execute())
		var rep Report
		require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
		return rep
	}
	first := eval()
	assert.Equal(t, rules.ModeRulesLLM, first.Mode)
	// The 4 readable cases differ only in their labels, which the model never
	// sees: the first case's 2 answers serve the other 3 from the cache.
	assert.Equal(t, 2, first.Overall.Usage.LLMCalls)
	second := eval()
	assert.Equal(t, rules.ModeRulesLLM, second.Mode, "still rules+llm when every answer is cached")
	assert.Equal(t, 0, second.Overall.Usage.LLMCalls)
	assert.Equal(t, 2, srv.Hits("/api/chat"))
}

func TestEvaluateCalibration(t *testing.T) {
	subsets, err := discover([]string{writeCases(t)})
	require.NoError(t, err)
	var sink bytes.Buffer
	rep, err := Evaluate(context.Background(), subsets, cmdutil.LoadFlags{Format: "auto"}, (&fixed{}).analyze, &sink, &sink)
	require.NoError(t, err)
	total := 0
	for _, b := range rep.Calibration {
		total += b.Cases
		if b.Low == 0.5 {
			assert.Equal(t, 4, b.Cases, "the spy always says 0.5")
			assert.Equal(t, 1, b.StepHits)
			assert.Equal(t, 2, b.AgentHits)
		}
	}
	assert.Equal(t, 4, total, "failed cases have no confidence to bin")
	var out bytes.Buffer
	require.NoError(t, WriteCalibration(&out, rep.Calibration))
	assert.Contains(t, out.String(), "0.5–0.7")
}
