package evalcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/eval"
	"github.com/offattr/offattr/eval/evaltest"
	"github.com/offattr/offattr/internal/ctxtest"
	"github.com/offattr/offattr/internal/escape"
	"github.com/offattr/offattr/localllm/ollamatest"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
)

func TestEvalJSONShape(t *testing.T) {
	dir := evaltest.WriteCases(t)
	var out, errOut bytes.Buffer
	cmd := NewCmdEval(&cmdutil.IOStreams{Out: &out, ErrOut: &errOut}, nil)
	cmd.SetArgs([]string{dir, "--json"})
	err := cmd.Execute()
	require.ErrorIs(t, err, cmdutil.ErrInputsFailed, "the corpus holds a broken case: the report is written, and the exit says so")
	assert.EqualError(t, err, "1 of 5 cases could not be evaluated (see above; they count as wrong)")
	var rep map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	assert.ElementsMatch(t, []string{"setting", "mode", "subsets", "overall"}, keys(rep))
	assert.Equal(t, "rules", rep["mode"])
	overall := rep["overall"].(map[string]any)
	assert.ElementsMatch(t, []string{"name", "cases", "failed", "unlabelled", "agent_accuracy", "step_accuracy", "step_within", "recall_at", "in_sample", "usage", "seconds", "triage", "floors"}, keys(overall))
	assert.ElementsMatch(t, rules.LabelFreeBaselines(), keys(overall["floors"].(map[string]any)))
	for band := range overall["triage"].(map[string]any) {
		assert.Contains(t, []string{"clear", "review", "escalate"}, band)
	}
	assert.ElementsMatch(t, []string{"1", "2", "3", "5"}, keys(overall["step_within"].(map[string]any)))
	assert.ElementsMatch(t, []string{"1", "3", "5"}, keys(overall["recall_at"].(map[string]any)))
	assert.ElementsMatch(t, []string{"llm_calls", "prompt_tokens", "completion_tokens"}, keys(overall["usage"].(map[string]any)))
}

// TestEvalFloors: eval reports, beside the rules, what each label-free
// guess scores on the same cases, as --baseline measures it alone; a
// baseline's own report has no floors.
func TestEvalFloors(t *testing.T) {
	dir := evaltest.WriteCases(t)
	report := func(args ...string) eval.Report {
		var out, errOut bytes.Buffer
		cmd := NewCmdEval(&cmdutil.IOStreams{Out: &out, ErrOut: &errOut}, nil)
		cmd.SetArgs(append([]string{dir, "--json"}, args...))
		require.ErrorIs(t, cmd.Execute(), cmdutil.ErrInputsFailed, "one case is broken")
		var rep eval.Report
		require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
		return rep
	}
	rep := report()
	require.Len(t, rep.Overall.Floors, len(rules.LabelFreeBaselines()))
	for _, g := range rules.LabelFreeBaselines() {
		alone := report("--baseline", g)
		assert.Empty(t, alone.Overall.Floors, g)
		want := eval.Accuracy{AgentAccuracy: alone.Overall.AgentAccuracy, StepAccuracy: alone.Overall.StepAccuracy}
		assert.Equal(t, want, rep.Overall.Floors[g], g)
		for i, s := range alone.Subsets {
			assert.Equal(t, eval.Accuracy{AgentAccuracy: s.AgentAccuracy, StepAccuracy: s.StepAccuracy}, rep.Subsets[i].Floors[g], "%s on %s", g, s.Name)
		}
	}

	var out, errOut bytes.Buffer
	cmd := NewCmdEval(&cmdutil.IOStreams{Out: &out, ErrOut: &errOut}, nil)
	cmd.SetArgs([]string{dir})
	require.ErrorIs(t, cmd.Execute(), cmdutil.ErrInputsFailed)
	assert.Contains(t, out.String(), "beside the label-free floors")
	assert.Contains(t, out.String(), "best floor")
}

// TestEvalBaselineSaysSo: a baseline's report names the baseline as its
// mode, not the rules it stands in for, and prints no triage bands, as a
// baseline's answers are not triaged.
func TestEvalBaselineSaysSo(t *testing.T) {
	dir := evaltest.WriteCases(t)
	for _, g := range rules.BaselineNames() {
		var out, errOut bytes.Buffer
		cmd := NewCmdEval(&cmdutil.IOStreams{Out: &out, ErrOut: &errOut}, nil)
		cmd.SetArgs([]string{dir, "--baseline", g})
		require.ErrorIs(t, cmd.Execute(), cmdutil.ErrInputsFailed, "one case is broken")
		assert.Contains(t, out.String(), "mode: baseline "+g+"\n", g)
		assert.NotContains(t, out.String(), "triage bands", g)

		out.Reset()
		cmd = NewCmdEval(&cmdutil.IOStreams{Out: &out, ErrOut: &errOut}, nil)
		cmd.SetArgs([]string{dir, "--baseline", g, "--json"})
		require.ErrorIs(t, cmd.Execute(), cmdutil.ErrInputsFailed)
		var rep eval.Report
		require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
		assert.Equal(t, "baseline "+g, rep.Mode)
	}
}

// TestEvalSaysInSample: weights fitted on the cases make eval say that its
// figures are in-sample; the embedded ones, fitted elsewhere, do not.
func TestEvalSaysInSample(t *testing.T) {
	dir := evaltest.WriteCases(t)
	r, err := run.Load(filepath.Join(dir, "A", "1.json"), run.Options{})
	require.NoError(t, err)
	w := rules.DefaultWeights()
	w.FittedOn = []string{r.Fingerprint()}
	data, err := json.Marshal(w)
	require.NoError(t, err)
	weights := filepath.Join(t.TempDir(), "w.json")
	require.NoError(t, os.WriteFile(weights, data, 0o644))

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{dir, "--weights", weights}, "in-sample: the weights were fitted on 4 of these 5 cases"},
		{[]string{dir}, ""},
		{[]string{dir, "--weights", weights, "--baseline", "busiest-first"}, ""},
	} {
		var out, errOut bytes.Buffer
		cmd := NewCmdEval(&cmdutil.IOStreams{Out: &out, ErrOut: &errOut}, nil)
		cmd.SetArgs(c.args)
		require.ErrorIs(t, cmd.Execute(), cmdutil.ErrInputsFailed, "one case is broken")
		if c.want == "" {
			assert.NotContains(t, out.String(), "in-sample", c.args)
		} else {
			assert.Contains(t, out.String(), c.want, c.args)
		}
	}
}

func TestEvalMissingPath(t *testing.T) {
	var out, errOut bytes.Buffer
	cmd := NewCmdEval(&cmdutil.IOStreams{Out: &out, ErrOut: &errOut}, nil)
	cmd.SetArgs([]string{"does/not/exist"})
	cmd.SilenceUsage = true
	assert.EqualError(t, cmd.Execute(), "eval does/not/exist: no such file or directory")
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestEvalWithModel(t *testing.T) {
	srv := ollamatest.New(ollamatest.Model{Name: "fake", ContextLength: 8192, Digest: "sha256:f"})
	t.Cleanup(srv.Close)
	dir := evaltest.WriteCases(t)
	cache := t.TempDir()
	runEval := func() eval.Report {
		var out, errOut bytes.Buffer
		cmd := NewCmdEval(&cmdutil.IOStreams{Out: &out, ErrOut: &errOut}, nil)
		cmd.SetArgs([]string{dir, "--json", "--model", "fake", "--ollama-host", srv.URL, "--cache-dir", cache, "--panel", "2"})
		require.ErrorIs(t, cmd.Execute(), cmdutil.ErrInputsFailed, "one case is broken")
		var rep eval.Report
		require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
		return rep
	}
	first := runEval()
	assert.Equal(t, rules.ModeRulesLLM, first.Mode)
	// The 4 readable cases differ only in their labels, which the model never
	// sees: the first case's 3 answers (a reader's, two analysts') serve the
	// other 3 from the cache.
	assert.Equal(t, 3, first.Overall.Usage.LLMCalls)
	require.NotNil(t, first.Overall.ModelExposure)
	assert.InDelta(t, 0.8, *first.Overall.ModelExposure, 1e-9, "4 of 5 cases: one fails to load")
	second := runEval()
	assert.Equal(t, rules.ModeRulesLLM, second.Mode, "still rules+llm when every answer is cached")
	assert.Equal(t, 0, second.Overall.Usage.LLMCalls)
	assert.Equal(t, 3, srv.Hits("/api/chat"))
	assert.Equal(t, first.Overall.ModelExposure, second.Overall.ModelExposure)
	require.NotNil(t, first.Overall.ModelOnly, "what the model alone would have answered")
	for _, s := range first.Subsets {
		assert.NotNil(t, s.ModelOnly, s.Name)
	}
}

func TestWriteModelOnly(t *testing.T) {
	rep := eval.Report{Subsets: []eval.Score{{Name: "Hand-Crafted", AgentAccuracy: 0.5, StepAccuracy: 0.25, ModelOnly: &eval.Accuracy{AgentAccuracy: 0.75, StepAccuracy: 0.5}}},
		Overall: eval.Score{Name: "overall", AgentAccuracy: 0.5, StepAccuracy: 0.25, ModelOnly: &eval.Accuracy{AgentAccuracy: 0.75, StepAccuracy: 0.5}}}
	var b bytes.Buffer
	require.NoError(t, WriteTable(&b, rep))
	assert.Contains(t, b.String(), "\nmodel alone (its analysts' pick, without the rules): Hand-Crafted agent 0.750 step 0.500 (combined 0.500 / 0.250); overall agent 0.750 step 0.500 (combined 0.500 / 0.250)\n")
	b.Reset()
	rep.Overall.ModelOnly = nil
	require.NoError(t, WriteTable(&b, rep))
	assert.NotContains(t, b.String(), "model alone", "rules alone: no such line")
}

func TestEvalTelemetryLabels(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "testdata", "telemetry", "phoenix.jsonl"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "phoenix.jsonl"), data, 0o644))
	labels := filepath.Join(t.TempDir(), "labels.jsonl")
	require.NoError(t, os.WriteFile(labels, []byte(`{"trace_id":"7c1e2f3a4b5c6d7e8f9012a3b4c5d6e7","span_id":"a000000000000005","reason":"misspelt city"}`+"\n"), 0o644))
	casesPath := filepath.Join(t.TempDir(), "cases.jsonl")
	var out, errOut bytes.Buffer
	cmd := NewCmdEval(&cmdutil.IOStreams{Out: &out, ErrOut: &errOut}, nil)
	cmd.SetArgs([]string{dir, "--json", "--labels", labels, "--cases", casesPath})
	require.NoError(t, cmd.Execute())
	line, err := os.ReadFile(casesPath)
	require.NoError(t, err)
	var c eval.CaseResult
	require.NoError(t, json.Unmarshal(line, &c))
	assert.Equal(t, &run.Label{Agent: "Researcher", Step: 2, Reason: "misspelt city"}, c.Label, "the labels file wins over offattr.mistake")
	assert.Equal(t, filepath.Join(dir, "phoenix.jsonl")+"#7c1e2f3a4b5c6d7e8f9012a3b4c5d6e7", c.File)

	cmd = NewCmdEval(&cmdutil.IOStreams{Out: &out, ErrOut: &errOut}, nil)
	cmd.SetArgs([]string{dir, "--labels", filepath.Join(dir, "missing.jsonl")})
	assert.EqualError(t, cmd.Execute(), "labels "+filepath.Join(dir, "missing.jsonl")+": no such file or directory")
}

// TestEvalLabelsBesideTheTraces: the labels file --labels names may sit in
// the directory read; it is no run to warn of.
func TestEvalLabelsBesideTheTraces(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "testdata", "telemetry", "phoenix.jsonl"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "phoenix.jsonl"), data, 0o644))
	labels := filepath.Join(dir, "labels.jsonl")
	require.NoError(t, os.WriteFile(labels, []byte(`{"trace_id":"7c1e2f3a4b5c6d7e8f9012a3b4c5d6e7","span_id":"a000000000000005","reason":"misspelt city"}`+"\n"), 0o644))
	var out, errOut bytes.Buffer
	cmd := NewCmdEval(&cmdutil.IOStreams{Out: &out, ErrOut: &errOut}, nil)
	cmd.SetArgs([]string{dir, "--labels", labels})
	require.NoError(t, cmd.Execute())
	assert.NotContains(t, errOut.String(), "labels.jsonl")
	assert.NotContains(t, out.String(), "hold no label")
}

func TestEvalRedactsAndReadsStdin(t *testing.T) {
	leaky := filepath.Join("..", "..", "..", "..", "testdata", "leaky", "mailer.json")
	data, err := os.ReadFile(leaky)
	require.NoError(t, err)
	casesPath := filepath.Join(t.TempDir(), "cases.jsonl")
	out, stderr, err := cmdutil.ExecuteWithInput(func(io *cmdutil.IOStreams) *cobra.Command { return NewCmdEval(io, nil) },
		strings.NewReader(string(data)), "-", "--redact", "--cases", casesPath)
	require.NoError(t, err, stderr)
	assert.Contains(t, out, "stdin", "the case read from standard input is a subset of its own")
	cases, err := os.ReadFile(casesPath)
	require.NoError(t, err)
	for _, s := range []string{"bob@example.com", "Hunter22", "10.2.3.4"} {
		assert.NotContains(t, string(cases), s)
	}
	assert.Contains(t, string(cases), `"reason":"Mailer kept the wrong password=[PASSWORD_`)
}

// TestEmptyBandsShowADash: a band no case fell in has no accuracy, and
// says so rather than print a zero.
func TestEmptyBandsShowADash(t *testing.T) {
	rep := eval.Report{Overall: eval.Score{Name: "overall", Triage: map[string]eval.BandScore{
		"clear": {Cases: 2, StepAccuracy: 1, AgentAccuracy: 0.5}, "review": {}, "escalate": {},
	}}}
	var b bytes.Buffer
	require.NoError(t, WriteTriage(&b, rep))
	assert.Contains(t, b.String(), "2  1.000  0.500")
	assert.Equal(t, 4, strings.Count(b.String(), "–"), "two empty bands, two figures each: %s", b.String())
	assert.NotContains(t, b.String(), "0.000")

	b.Reset()
	require.NoError(t, WriteCalibration(&b, []eval.Bin{{Low: 0, High: 0.2}}))
	assert.Regexp(t, `0\s+–\s+–\n`, b.String())
}

// TestSubsetOfNoCaseShowsDashes: a subset with no labelled case (a folder
// of unlabelled traces beside labelled cases) has no figures, and its
// rows say so rather than print zeros.
func TestSubsetOfNoCaseShowsDashes(t *testing.T) {
	floors := map[string]eval.Accuracy{}
	for _, g := range rules.LabelFreeBaselines() {
		floors[g] = eval.Accuracy{}
	}
	empty := eval.Score{Name: "traces", StepWithin: map[string]float64{}, RecallAt: map[string]float64{}, Floors: floors}
	full := eval.Score{Name: "cases", Cases: 2, AgentAccuracy: 0.5, StepAccuracy: 0.5, StepWithin: map[string]float64{}, RecallAt: map[string]float64{}, Floors: floors}
	rep := eval.Report{Mode: "rules", Subsets: []eval.Score{empty, full}, Overall: full}
	var b bytes.Buffer
	require.NoError(t, WriteTable(&b, rep))
	require.NoError(t, WriteFloors(&b, rep))
	var rows int
	for _, line := range strings.Split(b.String(), "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == "traces" {
			rows++
			assert.NotRegexp(t, `0\.000\s+(/\s+)?0\.000`, line, "no accuracy figure")
			assert.GreaterOrEqual(t, strings.Count(line, "–"), 9, line)
		}
	}
	assert.Equal(t, 2, rows, b.String())
	assert.Contains(t, b.String(), "0.500")
}

// TestTablesEscapeSubsetNames: a subset is named for its directory, which
// may hold anything a file name can: every table writes the name escaped,
// so none of its characters acts on the terminal or breaks the columns.
func TestTablesEscapeSubsetNames(t *testing.T) {
	name := "=x\x1b]8;;http://evil.example\a\u202e\tcol"
	sub := eval.Score{Name: name, Cases: 1, Floors: map[string]eval.Accuracy{}, Triage: map[string]eval.BandScore{"clear": {Cases: 1}}}
	rep := eval.Report{Subsets: []eval.Score{sub}, Overall: eval.Score{Name: "overall", Cases: 1, Floors: map[string]eval.Accuracy{"first-step": {}}, Triage: sub.Triage}}
	for _, write := range []func(io.Writer, eval.Report) error{WriteTable, WriteFloors, WriteTriage} {
		var b bytes.Buffer
		require.NoError(t, write(&b, rep))
		assert.Contains(t, b.String(), escape.Line(name))
		assert.NotContains(t, b.String(), "\x1b")
		assert.NotContains(t, b.String(), "\u202e")
	}
}

// TestEvalInterruptedLeavesNoCasesFile: --cases is written whole or not at
// all. Cut short, eval leaves no half-written file (it has no --resume to
// continue one), and a file from an earlier eval stays as it was.
func TestEvalInterruptedLeavesNoCasesFile(t *testing.T) {
	dir := evaltest.WriteCases(t)
	out := t.TempDir()
	for _, earlier := range []bool{false, true} {
		path := filepath.Join(out, "cases.jsonl")
		if earlier {
			require.NoError(t, os.WriteFile(path, []byte("{\"earlier\": true}\n"), 0o644))
		}
		// Cancelled a few checks in: some cases are done, not all.
		ctx := ctxtest.After(6)
		cmd := NewCmdEval(&cmdutil.IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, nil)
		cmd.SetArgs([]string{dir, "--cases", path})
		cmd.SilenceUsage, cmd.SilenceErrors = true, true
		err := cmd.ExecuteContext(ctx)
		require.ErrorIs(t, err, context.Canceled)
		entries, err := os.ReadDir(out)
		require.NoError(t, err)
		if !earlier {
			assert.Empty(t, entries, "no cases file, whole or half")
			continue
		}
		assert.Len(t, entries, 1, "no temporary file is left")
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, "{\"earlier\": true}\n", string(data))
	}
}
