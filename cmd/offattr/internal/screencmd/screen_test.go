package screencmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/cmd/offattr/internal/screenfile"
	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/redact"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/triage"
)

// runJSON is a small transcript whose last speaker and confidence the spy
// analyzer reads back.
func runJSON(agent string, conf float64, extra string) string {
	return fmt.Sprintf(`{"question":"q","messages":[{"role":"user","content":"task %s"},{"role":"assistant","name":%q,"content":"conf=%.2f"}]}`, extra, agent, conf)
}

// corpus writes runs/<i>.json for i in 1..n, plus one broken file.
func corpus(t *testing.T, n int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "runs")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	for i := 1; i <= n; i++ {
		agent := []string{"Planner", "Coder", "WebSurfer"}[i%3]
		conf := []float64{0.9, 0.6, 0.2}[i%3]
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d.json", i)), []byte(runJSON(agent, conf, "")), 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "broken.json"), []byte(`{"messages": [`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a run"), 0o644))
	return dir
}

// spy attributes a run to its last step and records what it saw.
type spy struct {
	mu    sync.Mutex
	seen  []string
	calls atomic.Int64
	// cancelAfter cancels the screen's context on that call (0: never).
	cancelAfter int64
	cancel      context.CancelFunc
}

func (s *spy) analyzer(p *redact.Patterns) (engine.AnalyzeFunc, error) {
	return func(ctx context.Context, r *run.Run) (engine.Result, error) {
		n := s.calls.Add(1)
		if s.cancelAfter > 0 && n >= s.cancelAfter {
			s.cancel()
			return engine.Result{}, ctx.Err()
		}
		if p != nil {
			r = p.NewRedactor().Run(r) // as the engine does
		}
		last := r.Steps[len(r.Steps)-1]
		s.mu.Lock()
		for _, st := range r.Steps {
			s.seen = append(s.seen, st.Content)
		}
		s.mu.Unlock()
		var conf float64
		fmt.Sscanf(last.Content, "conf=%f", &conf)
		a := rules.Attribution{Agent: last.Agent, Step: last.Index, Confidence: conf, Mode: rules.ModeRules,
			Candidates: []rules.Candidate{{Step: last.Index, Agent: last.Agent, Score: conf}}}
		d := triage.Decide(a, triage.Defaults()) // as the engine does with its bands
		a.Triage, a.TriageReason = string(d.Class), d.Reason
		return engine.Result{Attribution: a}, nil
	}, nil
}

func newOpts(sp *spy, paths ...string) (*ScreenOptions, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	return &ScreenOptions{
		IO:       &cmdutil.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut},
		Analysis: cmdutil.Analysis{Load: cmdutil.LoadFlags{Format: "auto"}, Analyzer: sp.analyzer}, Paths: paths,
		Workers: 3, Candidates: 3,
	}, &out, &errOut
}

func parseRecords(t *testing.T, data []byte, f screenfile.Format) []screenfile.Record {
	t.Helper()
	c, err := screenfile.Parse(data, f)
	require.NoError(t, err)
	return c.Records
}

func files(recs []screenfile.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = filepath.Base(r.File)
	}
	return out
}

func TestScreenWritesOneRecordPerInputInOrder(t *testing.T) {
	dir := corpus(t, 12)
	opts, out, errOut := newOpts(&spy{}, dir, filepath.Join(dir, "missing.json"))
	err := screenRun(context.Background(), opts)
	require.ErrorIs(t, err, cmdutil.ErrInputsFailed)
	assert.EqualError(t, err, "2 of 14 inputs could not be analysed (recorded as errors on standard output)")

	recs := parseRecords(t, out.Bytes(), screenfile.JSONL)
	assert.Equal(t, []string{"1.json", "2.json", "3.json", "4.json", "5.json", "6.json", "7.json", "8.json", "9.json",
		"10.json", "11.json", "12.json", "broken.json", "missing.json"}, files(recs))

	assert.Equal(t, screenfile.Record{File: filepath.Join(dir, "1.json"), Agent: "Coder", Step: 1, Confidence: 0.6,
		Triage: triage.Review, Reason: "confidence 0.6 between 0.4 and 0.75", Mode: "rules",
		Candidates: []rules.Candidate{{Step: 1, Agent: "Coder", Score: 0.6}}}, recs[0])
	assert.Equal(t, triage.Escalate, recs[1].Triage)
	assert.Equal(t, triage.Clear, recs[2].Triage)
	assert.Contains(t, recs[12].Error, "broken.json")
	assert.Equal(t, filepath.Join(dir, "missing.json"), recs[13].File)
	assert.Equal(t, "screen "+filepath.Join(dir, "missing.json")+": no such file or directory", recs[13].Error)

	assert.Contains(t, errOut.String(), "screened 14 runs")
	assert.Contains(t, errOut.String(), "; 2 failed")
	assert.Contains(t, errOut.String(), "triage: clear 4, review 4, escalate 4")
	assert.Contains(t, errOut.String(), "agents: Coder 4, Planner 4, WebSurfer 4")
	assert.NotContains(t, errOut.String(), "\r", "no progress bar when stderr is not a terminal")
}

// TestScreenCollectsLessOften: while a screen runs, the collector lets the
// heap grow to ScreenGCPercent, unless the user set GOGC (cmdutil.CollectAt);
// afterwards the setting is what it was.
func TestScreenCollectsLessOften(t *testing.T) {
	if _, set := os.LookupEnv("GOGC"); set {
		t.Skip("GOGC is set: screen keeps it")
	}
	// Reading the setting writes it for a moment: the screen's workers
	// read it one at a time, or one would see another's -1.
	var mu sync.Mutex
	gcPercent := func() int {
		mu.Lock()
		defer mu.Unlock()
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p
	}
	before := gcPercent()
	sp := &spy{}
	var during atomic.Int64
	opts, _, _ := newOpts(sp, corpus(t, 3))
	opts.Analyzer = func(p *redact.Patterns) (engine.AnalyzeFunc, error) {
		analyze, err := sp.analyzer(p)
		return func(ctx context.Context, r *run.Run) (engine.Result, error) {
			during.Store(int64(gcPercent()))
			return analyze(ctx, r)
		}, err
	}
	require.ErrorIs(t, screenRun(context.Background(), opts), cmdutil.ErrInputsFailed, "the corpus holds a broken file")
	assert.Equal(t, int64(ScreenGCPercent), during.Load())
	assert.Equal(t, before, gcPercent(), "restored")
}

func TestScreenCSVAndGlob(t *testing.T) {
	dir := corpus(t, 3)
	outPath := filepath.Join(t.TempDir(), "screen.csv")
	opts, stdout, _ := newOpts(&spy{}, filepath.Join(dir, "*.json"))
	opts.Output = outPath
	require.NoError(t, screenRun(context.Background(), opts))
	assert.Empty(t, stdout.String(), "records go to the file")

	data, err := os.ReadFile(outPath)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(data), "file,agent,step,confidence,triage,reason,mode,error\n"))
	assert.Equal(t, []string{"1.json", "2.json", "3.json"}, files(parseRecords(t, data, screenfile.CSV)))
}

func TestScreenStdinStream(t *testing.T) {
	sp := &spy{}
	opts, out, _ := newOpts(sp, "-")
	opts.IO.In = strings.NewReader(runJSON("A", 0.9, "") + "\n\nnot json\n" + runJSON("B", 0.1, "") + "\n")
	require.ErrorIs(t, screenRun(context.Background(), opts), cmdutil.ErrInputsFailed, "line 3 is not a run")
	recs := parseRecords(t, out.Bytes(), screenfile.JSONL)
	require.Len(t, recs, 3)
	assert.Equal(t, []string{"-:1", "-:3", "-:4"}, []string{recs[0].File, recs[1].File, recs[2].File})
	assert.Equal(t, "A", recs[0].Agent)
	assert.Contains(t, recs[1].Error, "load -:3:")
	assert.Equal(t, "B", recs[2].Agent)
}

func TestScreenInterruptAndResume(t *testing.T) {
	dir := corpus(t, 20)
	outPath := filepath.Join(t.TempDir(), "screen.jsonl")

	ctx, cancel := context.WithCancel(context.Background())
	sp := &spy{cancelAfter: 8, cancel: cancel}
	opts, _, errOut := newOpts(sp, dir)
	opts.Output, opts.Workers = outPath, 1 // one worker: the cut is deterministic
	err := screenRun(ctx, opts)
	require.ErrorContains(t, err, "interrupted: "+outPath+" holds")
	assert.ErrorContains(t, err, "with --resume to finish")
	data, err := os.ReadFile(outPath)
	require.NoError(t, err)
	first := parseRecords(t, data, screenfile.JSONL)
	require.Len(t, first, 7, "the 8th call was interrupted")
	assert.True(t, bytes.HasSuffix(data, []byte("\n")), "only whole records")
	assert.Contains(t, errOut.String(), "skipped: 14 not finished\n", "every input not recorded (20 runs and a broken file, 7 recorded), those never started included")

	// Without --resume the file is not overwritten.
	opts, _, _ = newOpts(&spy{}, dir)
	opts.Output = outPath
	assert.ErrorContains(t, screenRun(context.Background(), opts), "add --resume")

	// A killed run may leave half a line; resume cuts it and goes on.
	f, err := os.OpenFile(outPath, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"file":"` + filepath.Join(dir, "zz.json") + `","agent":"Co`)
	require.NoError(t, err)
	require.NoError(t, f.Close())

	opts, _, errOut = newOpts(&spy{}, dir)
	opts.Output, opts.Resume = outPath, true
	require.ErrorIs(t, screenRun(context.Background(), opts), cmdutil.ErrInputsFailed, "broken.json")
	data, err = os.ReadFile(outPath)
	require.NoError(t, err)
	all := parseRecords(t, data, screenfile.JSONL)
	assert.Len(t, all, 21, "every input exactly once")
	assert.ElementsMatch(t, []string{"1.json", "2.json", "3.json", "4.json", "5.json", "6.json", "7.json", "8.json", "9.json", "10.json",
		"11.json", "12.json", "13.json", "14.json", "15.json", "16.json", "17.json", "18.json", "19.json", "20.json", "broken.json"}, files(all))
	assert.Equal(t, files(first), files(all[:len(first)]), "earlier records kept as they were")
	assert.Contains(t, errOut.String(), fmt.Sprintf("%d already recorded", len(first)))
}

func TestScreenShardsPartitionInputs(t *testing.T) {
	dir := corpus(t, 30)
	var union []string
	for i := range 3 {
		opts, out, errOut := newOpts(&spy{}, dir)
		opts.Shard = fmt.Sprintf("%d/3", i)
		if err := screenRun(context.Background(), opts); err != nil {
			require.ErrorIs(t, err, cmdutil.ErrInputsFailed, "the shard with broken.json")
		}
		recs := parseRecords(t, out.Bytes(), screenfile.JSONL)
		assert.NotEmpty(t, recs, "each shard gets some of 31 inputs")
		assert.Contains(t, errOut.String(), "in other shards")
		union = append(union, files(recs)...)
	}
	assert.Len(t, union, 31)
	seen := map[string]bool{}
	for _, f := range union {
		assert.False(t, seen[f], "%s in two shards", f)
		seen[f] = true
	}
}

func TestScreenRedactsBeforeAnalysis(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "secret.json")
	require.NoError(t, os.WriteFile(path, []byte(runJSON("A", 0.9, "mail ops@example.com key EMP-123456")), 0o644))
	patterns := filepath.Join(dir, "patterns.txt")
	require.NoError(t, os.WriteFile(patterns, []byte(`EMP-\d{6}`+"\n"), 0o644))

	sp := &spy{}
	opts, _, _ := newOpts(sp, path)
	opts.Redact.Patterns = patterns
	require.NoError(t, screenRun(context.Background(), opts))
	assert.Contains(t, sp.seen, "task mail [EMAIL_1] key [CUSTOM_1]")

	bad := filepath.Join(dir, "bad.txt")
	require.NoError(t, os.WriteFile(bad, []byte("(\n"), 0o644))
	opts, _, _ = newOpts(&spy{}, path)
	opts.Redact.Patterns = bad
	assert.ErrorContains(t, screenRun(context.Background(), opts), "bad.txt:1")
}

// Under --redact a record names its input masked, with a key that
// --resume finds it by; a name with nothing to mask needs no key.
func TestScreenMasksNamesAndResumesByKey(t *testing.T) {
	for _, out := range []string{"screen.jsonl", "screen.csv"} {
		t.Run(out, func(t *testing.T) {
			dir := t.TempDir()
			var paths []string
			for _, name := range []string{"frank.green@woodgrove.com.json", "bob@woodgrove.com.json", "plain.json", "carol@woodgrove.com.json"} {
				paths = append(paths, filepath.Join(dir, name))
				require.NoError(t, os.WriteFile(paths[len(paths)-1], []byte(runJSON("A", 0.9, "")), 0o644))
			}
			require.NoError(t, os.WriteFile(filepath.Join(dir, "dave@woodgrove.com.json"), []byte(`{"messages": [`), 0o644))
			paths = append(paths, filepath.Join(dir, "dave@woodgrove.com.json"))
			outPath := filepath.Join(t.TempDir(), out)
			format := screenfile.FormatFor(outPath)

			ctx, cancel := context.WithCancel(context.Background())
			opts, _, _ := newOpts(&spy{cancelAfter: 3, cancel: cancel}, paths...)
			opts.Output, opts.Workers, opts.Redact.On = outPath, 1, true
			require.ErrorContains(t, screenRun(ctx, opts), "interrupted")
			data, err := os.ReadFile(outPath)
			require.NoError(t, err)
			require.Len(t, parseRecords(t, data, format), 2)

			opts, _, _ = newOpts(&spy{}, paths...)
			opts.Output, opts.Resume, opts.Redact.On = outPath, true, true
			require.ErrorIs(t, screenRun(context.Background(), opts), cmdutil.ErrInputsFailed, "dave's file is broken")
			data, err = os.ReadFile(outPath)
			require.NoError(t, err)
			assert.NotContains(t, string(data), "woodgrove")
			recs := parseRecords(t, data, format)
			require.Len(t, recs, 5, "every input exactly once")
			for i, r := range recs {
				if filepath.Base(paths[i]) == "plain.json" {
					assert.Equal(t, paths[i], r.File)
					assert.Empty(t, r.Key)
					continue
				}
				assert.Equal(t, filepath.Join(dir, "[EMAIL_1].json"), r.File)
				assert.Equal(t, screenfile.KeyOf(paths[i]), r.Key)
			}
			assert.Contains(t, recs[4].Error, "[EMAIL_1]", "the failure's message is masked as its name")
		})
	}
}

func TestScreenRecordsAnalyzerFailuresAndPanics(t *testing.T) {
	dir := corpus(t, 3)
	opts, out, _ := newOpts(&spy{}, dir)
	opts.Analyzer = func(*redact.Patterns) (engine.AnalyzeFunc, error) {
		return func(ctx context.Context, r *run.Run) (engine.Result, error) {
			if strings.HasSuffix(r.Source, "2.json") {
				panic("boom")
			}
			return engine.Result{}, errors.New("no steps to blame")
		}, nil
	}
	require.ErrorIs(t, screenRun(context.Background(), opts), cmdutil.ErrInputsFailed)
	recs := parseRecords(t, out.Bytes(), screenfile.JSONL)
	require.Len(t, recs, 4)
	assert.Equal(t, "analyze "+filepath.Join(dir, "1.json")+": no steps to blame", recs[0].Error)
	assert.Equal(t, "internal error (please report it): boom", recs[1].Error)
}

// TestScreenLeavesOutALabelsFile: a labels file kept beside the traces it
// labels (for eval's --labels) is no run and no failed input: it is left
// out with a note, and the screen succeeds.
func TestScreenLeavesOutALabelsFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "runs")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "1.json"), []byte(runJSON("Coder", 0.6, "")), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "labels.jsonl"), []byte(`{"trace_id": "t1", "span_id": "s1", "reason": "r"}`+"\n"), 0o644))
	opts, out, errOut := newOpts(&spy{}, dir)
	require.NoError(t, screenRun(context.Background(), opts))
	recs := parseRecords(t, out.Bytes(), screenfile.JSONL)
	assert.Equal(t, []string{"1.json"}, files(recs))
	assert.Contains(t, errOut.String(), "labels.jsonl: unknown format: a labels file for telemetry (trace_id, span_id, reason), not a run: give it to eval or fit with --labels (left out)")
	assert.Contains(t, errOut.String(), "skipped: 1 labels files")
}

func TestScreenFlags(t *testing.T) {
	var got *ScreenOptions
	cmd := NewCmdScreen(&cmdutil.IOStreams{}, func(o *ScreenOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"a", "b/", "-o", "x.csv", "-j", "5", "--resume", "--shard", "2/4", "--redact",
		"--clear-above", "0.8", "--escalate-below", "0.3", "--margin", "0.2"})
	require.NoError(t, cmd.Execute())
	assert.Equal(t, []string{"a", "b/"}, got.Paths)
	assert.Equal(t, "x.csv", got.Output)
	assert.Equal(t, 5, got.Workers)
	assert.True(t, got.Resume)
	assert.True(t, got.Redact.On)
	assert.Equal(t, "2/4", got.Shard)
	assert.Equal(t, triage.Thresholds{Clear: 0.8, Escalate: 0.3, Margin: 0.2}, got.Triage.Over(triage.Thresholds{Clear: 0.9, Escalate: 0.1, Margin: 0.5}))

	cmd = NewCmdScreen(&cmdutil.IOStreams{}, func(o *ScreenOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"a", "--margin", "0.2"})
	require.NoError(t, cmd.Execute())
	assert.Equal(t, triage.Thresholds{Clear: 0.9, Escalate: 0.1, Margin: 0.2}, got.Triage.Over(triage.Thresholds{Clear: 0.9, Escalate: 0.1}),
		"a flag given replaces its own threshold only: the weights' bands for each run stand")

	cmd = NewCmdScreen(&cmdutil.IOStreams{}, func(o *ScreenOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"a"})
	require.NoError(t, cmd.Execute())
	assert.Equal(t, triage.Override{}, got.Triage, "without the flags the weights' bands stand")
}

// TestScreenHelpSaysHowARunIsCleared: the help's triage paragraph names
// both ways to clear, as triage.Decide clears: by confidence and, with
// the weights' bands, by spread (a record cleared at a confidence below
// --clear-above is otherwise unexplained).
func TestScreenHelpSaysHowARunIsCleared(t *testing.T) {
	long := strings.Join(strings.Fields(NewCmdScreen(&cmdutil.IOStreams{}, nil).Long), " ")
	assert.Contains(t, long, "clear when confidence ≥ --clear-above, or the rules' evidence points at few steps")
	assert.Contains(t, long, "spread at most the weights' clear spread")
}

func TestScreenRejectsBadOptions(t *testing.T) {
	tests := []struct {
		name string
		set  func(*ScreenOptions)
		want string
	}{
		{"shard", func(o *ScreenOptions) { o.Shard = "4/4" }, "i must be 0..3"},
		{"thresholds", func(o *ScreenOptions) { o.Triage = triage.Override{Clear: ptr(0.75), Escalate: ptr(0.9)} }, "escalate-below"},
		{"one threshold against the weights' other", func(o *ScreenOptions) { o.Triage = triage.Override{Clear: ptr(0.01)} }, "the flags not given keep the weights' bands"},
		{"workers", func(o *ScreenOptions) { o.Workers = 0 }, "--workers 0"},
		{"resume to stdout", func(o *ScreenOptions) { o.Resume = true }, "--resume needs -o"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts, _, _ := newOpts(&spy{}, ".")
			tt.set(opts)
			assert.ErrorContains(t, screenRun(context.Background(), opts), tt.want)
		})
	}
}

// TestScreenTelemetryTraces: each trace of a telemetry file is a record
// named FILE#TRACEID, with its trace and span; --resume skips the traces
// already recorded and screens the rest of the file.
func TestScreenTelemetryTraces(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "testdata", "telemetry", "otel-sdk.jsonl"))
	require.NoError(t, err)
	const id = "4bf92f3577b34da65eed0000cafe0001"
	ids := []string{id, strings.Replace(id, "0001", "0002", 1), strings.Replace(id, "0001", "0003", 1)}
	var all []byte
	for _, other := range ids {
		all = append(all, strings.ReplaceAll(string(data), id, other)...)
	}
	dir := t.TempDir()
	traces := filepath.Join(dir, "traces.jsonl")
	require.NoError(t, os.WriteFile(traces, all, 0o644))

	analyzer, err := engine.New(engine.Options{})
	require.NoError(t, err)
	outPath := filepath.Join(t.TempDir(), "screen.jsonl")
	opts, _, _ := newOpts(&spy{}, dir)
	opts.Analyzer = func(*redact.Patterns) (engine.AnalyzeFunc, error) { return analyzer, nil }
	opts.Output = outPath
	require.NoError(t, screenRun(context.Background(), opts))
	out, err := os.ReadFile(outPath)
	require.NoError(t, err)
	recs := parseRecords(t, out, screenfile.JSONL)
	require.Len(t, recs, 3)
	for i, r := range recs {
		assert.Equal(t, traces+"#"+ids[i], r.File)
		assert.Equal(t, ids[i], r.TraceID)
		assert.NotEmpty(t, r.SpanID)
		assert.Empty(t, r.Error)
	}

	lines := strings.SplitAfter(string(out), "\n")
	require.NoError(t, os.WriteFile(outPath, []byte(lines[0]+lines[1]), 0o644))
	var seen []string
	opts, _, errOut := newOpts(&spy{}, dir)
	opts.Analyzer = func(*redact.Patterns) (engine.AnalyzeFunc, error) {
		return func(ctx context.Context, r *run.Run) (engine.Result, error) {
			seen = append(seen, r.TraceID)
			return analyzer(ctx, r)
		}, nil
	}
	opts.Output, opts.Resume, opts.Workers = outPath, true, 1
	require.NoError(t, screenRun(context.Background(), opts))
	assert.Equal(t, []string{ids[2]}, seen, "only the trace not yet recorded")
	out, err = os.ReadFile(outPath)
	require.NoError(t, err)
	assert.Equal(t, []string{"traces.jsonl#" + ids[0], "traces.jsonl#" + ids[1], "traces.jsonl#" + ids[2]}, files(parseRecords(t, out, screenfile.JSONL)))
	assert.Contains(t, errOut.String(), "2 already recorded")
}

func ptr(x float64) *float64 { return &x }
