package reportcmd

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
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

var runs = filepath.Join("..", "..", "..", "..", "testdata", "runs")

func runReport(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	return cmdutil.Execute(func(io *cmdutil.IOStreams) *cobra.Command { return NewCmdReport(io, nil) }, args...)
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(data)
}

var (
	stepID  = regexp.MustCompile(`<li id="step-(\d+)"`)
	blamed  = regexp.MustCompile(`<li id="step-(\d+)"[^>]*data-blamed="true"`)
	fileRow = regexp.MustCompile(`<tr data-file="([^"]*)"`)
)

func TestReportFlags(t *testing.T) {
	tests := []struct {
		args   []string
		check  func(t *testing.T, o *ReportOptions)
		redact bool
	}{
		{[]string{"run.json"}, func(t *testing.T, o *ReportOptions) {
			assert.Equal(t, "", o.Output, "standard output by default")
			assert.Empty(t, o.Pages)
			assert.Positive(t, o.Workers)
		}, true},
		{[]string{"run.json", "--no-redact", "-o", "x.html"}, func(t *testing.T, o *ReportOptions) {
			assert.Equal(t, "x.html", o.Output)
		}, false},
		{[]string{"s.jsonl", "--pages", "runs", "--workers", "3", "--model", "qwen3:8b", "--no-ground-truth", "--weights", "w.json"}, func(t *testing.T, o *ReportOptions) {
			assert.Equal(t, "runs", o.Pages)
			assert.Equal(t, "w.json", o.Rules.Weights, "the rules are chosen as for analyze")
			assert.Equal(t, 3, o.Workers)
			assert.Equal(t, "qwen3:8b", o.Model.Model)
			assert.True(t, o.Load.NoGroundTruth)
		}, true},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var got *ReportOptions
			_, _, err := cmdutil.Execute(func(io *cmdutil.IOStreams) *cobra.Command {
				return NewCmdReport(io, func(o *ReportOptions) error { got = o; return nil })
			}, tt.args...)
			require.NoError(t, err)
			assert.Equal(t, tt.args[0], got.Path)
			tt.check(t, got)
			p, err := got.Redact.Compile()
			require.NoError(t, err)
			assert.Equal(t, tt.redact, p != nil, "redaction is on unless --no-redact")
		})
	}
}

func TestReportRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.html")
	stdout, stderr, err := runReport(t, filepath.Join(runs, "magentic.json"), "-o", out)
	require.NoError(t, err)
	assert.Empty(t, stdout, "the page goes to -o")
	assert.Equal(t, "wrote "+out+"\n", stderr, "and says where")
	page := read(t, out)
	assert.Len(t, stepID.FindAllString(page, -1), 12, "one element per step")
	m := blamed.FindAllStringSubmatch(page, -1)
	require.Len(t, m, 1)
	assert.Equal(t, "7", m[0][1], "the step analyze blames")
	assert.Contains(t, page, "secrets and personal data masked before analysis")
	assert.Regexp(t, `<span class="band band-(clear|review|escalate)">(clear|review|escalate)</span> <span class="why">[^<]+</span>`,
		page[strings.Index(page, "<dl"):strings.Index(page, "</dl>")], "the triage band the attribution carries, and why")
}

func TestReportRunToStdout(t *testing.T) {
	stdout, _, err := runReport(t, filepath.Join(runs, "chat.jsonl"), "--no-redact")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(stdout, "<!DOCTYPE html>"), "a chat transcript in JSONL is a run, not a screen")
	assert.Len(t, stepID.FindAllString(stdout, -1), 3)
	assert.Contains(t, stdout, "off: texts are shown as logged")
}

// TestReportInputs: report reads what every command reads, one trace of
// a file (FILE#TRACEID) and standard input, a run or a screen's records.
func TestReportInputs(t *testing.T) {
	jaeger := filepath.Join("..", "..", "..", "..", "testdata", "telemetry", "jaeger.json")
	rec, _ := json.Marshal(screenRecords()[0])
	tests := []struct {
		name  string
		arg   string
		stdin string
		steps int // step elements on the page; 0 for a screen's page
	}{
		{name: "FILE#TRACEID", arg: jaeger + "#4bf92f3577b34da65eed0000cafe0001", steps: 8},
		{name: "a run on standard input", arg: "-", stdin: read(t, jaeger), steps: 8},
		{name: "a screen on standard input", arg: "-", stdin: string(rec) + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, _, err := cmdutil.ExecuteWithInput(func(io *cmdutil.IOStreams) *cobra.Command { return NewCmdReport(io, nil) },
				strings.NewReader(tt.stdin), tt.arg, "--no-redact")
			require.NoError(t, err)
			require.True(t, strings.HasPrefix(stdout, "<!DOCTYPE html>"))
			assert.Len(t, stepID.FindAllString(stdout, -1), tt.steps)
			if tt.steps == 0 {
				assert.Len(t, fileRow.FindAllString(stdout, -1), 1, "the screen's one record")
			}
		})
	}
}

func TestReportRedactsByDefault(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "frank.green@woodgrove.com.json")
	require.NoError(t, os.WriteFile(path, []byte(`[
		{"role": "user", "content": "Mail the report to jane.doe@example.com."},
		{"role": "assistant", "name": "mailer", "content": "Sent to jane.doe@example.com with key sk-proj-abcdefghijklmnopqrstuvwx1234."}
	]`), 0o644))
	masked, _, err := runReport(t, path)
	require.NoError(t, err)
	for _, secret := range []string{"jane.doe@example.com", "sk-proj-abcdefghijklmnopqrstuvwx1234", "woodgrove"} {
		assert.NotContains(t, masked, secret)
	}
	assert.Contains(t, masked, "[EMAIL_1].json", "the file's name, first")
	assert.Contains(t, masked, "[EMAIL_2]")

	plain, _, err := runReport(t, path, "--no-redact")
	require.NoError(t, err)
	assert.Contains(t, plain, "jane.doe@example.com")
	assert.Contains(t, plain, "frank.green@woodgrove.com.json")

	// A screen's page and its runs' pages: rows, titles and page names.
	screen := filepath.Join(dir, "screen.jsonl")
	writeRecords(t, screen, []screenfile.Record{
		{File: path, Agent: "mailer", Step: 1, Confidence: 0.5, Triage: triage.Review, Reason: "r", Mode: "rules"},
		{File: "[EMAIL_1].json", Key: "6ddd67d4a05f07c3", Agent: "mailer", Step: 1, Confidence: 0.5, Triage: triage.Review, Reason: "r", Mode: "rules"},
	})
	out, pages := filepath.Join(dir, "screen.html"), filepath.Join(dir, "pages")
	_, stderr, err := runReport(t, screen, "-o", out, "--pages", pages)
	require.ErrorContains(t, err, "1 of 2 run pages could not be written")
	assert.Contains(t, stderr, screenfile.ErrMasked.Error(), "a masked record leads to no run")
	assert.NotContains(t, stderr, "woodgrove")
	assert.NotContains(t, read(t, out), "woodgrove")
	entries, err := os.ReadDir(pages)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Regexp(t, `^EMAIL_1-[0-9a-f]{8}\.html$`, entries[0].Name())
	assert.NotContains(t, read(t, filepath.Join(pages, entries[0].Name())), "woodgrove")
}

// writeRecords writes records as screen does.
func writeRecords(t *testing.T, path string, recs []screenfile.Record) {
	t.Helper()
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	w, err := screenfile.NewWriter(f, screenfile.FormatFor(path), true, false)
	require.NoError(t, err)
	for _, r := range recs {
		require.NoError(t, w.Write(r))
	}
}

func screenRecords() []screenfile.Record {
	return []screenfile.Record{
		{File: filepath.Join(runs, "magentic.json"), Agent: "WebSurfer", Step: 7, Confidence: 0.754, Triage: triage.Clear, Reason: "confidence 0.754 ≥ 0.75", Mode: "rules",
			Candidates: []rules.Candidate{{Step: 7, Agent: "WebSurfer", Score: 2.31, Rules: []string{"data_flow_origin", "premature_satisfaction"}}}},
		{File: filepath.Join(runs, "bad.json"), Error: "load bad.json: invalid JSON at line 3, column 14; mailed to ops@example.com"},
		{File: filepath.Join(runs, "autogen.json"), Agent: "Coder", Step: 2, Confidence: 0.3, Triage: triage.Escalate, Reason: "low confidence 0.3 < 0.4", Mode: "rules"},
		{File: filepath.Join(runs, "gone.json"), Agent: "X", Step: 1, Confidence: 0.5, Triage: triage.Review, Reason: "confidence 0.5 between 0.4 and 0.75", Mode: "rules"},
		{File: "-:3", Agent: "Y", Step: 0, Confidence: 0.5, Triage: triage.Review, Reason: "r", Mode: "rules"},
	}
}

func TestReportScreenWithPages(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "screen.jsonl")
	writeRecords(t, in, screenRecords())
	out := filepath.Join(dir, "html", "screen.html")
	require.NoError(t, os.MkdirAll(filepath.Dir(out), 0o755))
	pages := filepath.Join(dir, "html", "runs")

	_, stderr, err := runReport(t, in, "-o", out, "--pages", pages, "--workers", "2")
	require.Error(t, err, "two runs cannot be read again")
	assert.Contains(t, err.Error(), "2 of 5 run pages could not be written")
	assert.Contains(t, stderr, "gone.json")
	assert.Contains(t, stderr, "-:3: a run read from standard input cannot be read again")
	assert.Contains(t, stderr, "wrote 2 run pages to "+pages)

	page := read(t, out)
	var files []string
	for _, m := range fileRow.FindAllStringSubmatch(page, -1) {
		files = append(files, m[1])
	}
	want := []string{}
	for _, r := range screenRecords() {
		want = append(want, r.File)
	}
	assert.Equal(t, want, files, "one row per record, failures and runs without a page included")
	assert.NotContains(t, page, "ops@example.com", "errors are redacted")
	assert.Contains(t, page, "data_flow_origin, premature_satisfaction", "the blamed step's rules, from its candidate")

	for _, name := range []string{"magentic.json", "autogen.json"} {
		rel := "runs/" + cmdutil.RunName(filepath.Join(runs, name), nil) + ".html"
		assert.Contains(t, page, `href="`+rel+`"`, "the row links to the run's page")
		run := read(t, filepath.Join(filepath.Dir(out), rel))
		assert.Contains(t, run, `href="../screen.html"`, "the run's page links back")
		assert.Regexp(t, `data-blamed="true"`, run)
	}
	magentic := read(t, filepath.Join(pages, cmdutil.RunName(filepath.Join(runs, "magentic.json"), nil)+".html"))
	assert.True(t, strings.Contains(magentic, `<span class="band band-clear">clear</span> <span class="why">confidence 0.754 ≥ 0.75</span>`), "the screen's verdict is kept")
	assert.Equal(t, 2, strings.Count(page, `<a href="runs/`), "no link for a run without a page")
}

func TestReportScreenCSV(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "screen.csv")
	writeRecords(t, in, screenRecords())
	stdout, _, err := runReport(t, in)
	require.NoError(t, err)
	assert.Len(t, fileRow.FindAllString(stdout, -1), 5)
	assert.Contains(t, stdout, "Screen of 5 runs")
}

func TestReportErrors(t *testing.T) {
	dir := t.TempDir()
	screen := filepath.Join(dir, "s.jsonl")
	writeRecords(t, screen, screenRecords()[:1])
	csvScreen := filepath.Join(dir, "s.csv")
	writeRecords(t, csvScreen, screenRecords())
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing file", []string{filepath.Join(dir, "nope.json")}, "read " + filepath.Join(dir, "nope.json") + ": no such file or directory"},
		{"invalid run", []string{filepath.Join(runs, "..", "bad", "invalid.json")}, "line 4, column 23"},
		{"pages for a run", []string{filepath.Join(runs, "magentic.json"), "--pages", dir}, "--pages is for a screen's records"},
		{"workers", []string{screen, "--pages", dir, "--workers", "0"}, `"--workers" flag: must be at least 1`},
		{"contradiction", []string{screen, "--no-redact", "--redact-patterns", "p.txt"}, "contradict"},
		{"bad csv", []string{writeFile(t, dir, "x.csv", "a,b\n")}, "not a screen record"},
		{"screen over --max-input", []string{screen, "--max-input", "10"}, "load " + screen + ": input is"},
		{"csv over --max-input", []string{csvScreen, "--max-input", "10"}, "larger than the 10 B limit; raise --max-input"},
		{"run over --max-input", []string{filepath.Join(runs, "magentic.json"), "--max-input", "10"}, "larger than the 10 B limit; raise --max-input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, _, err := runReport(t, tt.args...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Empty(t, stdout)
		})
	}
}

func writeFile(t *testing.T, dir, name, data string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
	return path
}

// TestReportInterruptedModel: a model stage cut short still leaves the
// rules' answer, whose page is written before the error is reported.
func TestReportInterruptedModel(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.html")
	var opts *ReportOptions
	_, _, err := cmdutil.Execute(func(io *cmdutil.IOStreams) *cobra.Command {
		return NewCmdReport(io, func(o *ReportOptions) error { opts = o; return nil })
	}, filepath.Join(runs, "magentic.json"), "-o", out)
	require.NoError(t, err)
	opts.Analyzer = func(p *redact.Patterns) (engine.AnalyzeFunc, error) {
		an, err := engine.New(engine.Options{Redact: p})
		return func(ctx context.Context, r *run.Run) (engine.Result, error) {
			res, _ := an(ctx, r)
			return res, context.Canceled
		}, err
	}
	err = reportRun(context.Background(), opts)
	assert.True(t, errors.Is(err, context.Canceled))
	assert.Regexp(t, `data-blamed="true"`, read(t, out), "the rules' answer is on the page")
}

func TestReadScreen(t *testing.T) {
	dir := t.TempDir()
	rec, _ := json.Marshal(screenRecords()[0])
	tests := []struct {
		name, file, data string
		screen           bool
	}{
		{"screen jsonl", "s.jsonl", string(rec) + "\n" + `{"file":"x","error":"e"}` + "\n", true},
		{"chat jsonl", "c.jsonl", `{"role":"user","content":"hi"}` + "\n", false},
		{"who&when", "w.json", `{"question":"q","history":[{"role":"a","content":"c"}]}`, false},
		{"file field alone", "f.jsonl", `{"file":"x"}` + "\n", false},
		{"empty", "e.jsonl", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, screen, err := readScreen(&ReportOptions{Path: writeFile(t, dir, tt.file, tt.data)})
			require.NoError(t, err)
			assert.Equal(t, tt.screen, screen)
		})
	}
}

// TestReportToATerminal: a page is not written to a terminal unless asked
// for with -o -; redirected, it is.
func TestReportToATerminal(t *testing.T) {
	path := filepath.Join(runs, "chat.jsonl")
	for _, tt := range []struct {
		args []string
		tty  bool
		ok   bool
	}{
		{[]string{path}, true, false},
		{[]string{path, "-o", "-"}, true, true},
		{[]string{path}, false, true},
	} {
		var out, errOut strings.Builder
		cmd := NewCmdReport(&cmdutil.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut, OutTTY: tt.tty}, nil)
		cmd.SetArgs(tt.args)
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		err := cmd.Execute()
		if tt.ok {
			require.NoError(t, err, "%v", tt.args)
			assert.True(t, strings.HasPrefix(out.String(), "<!DOCTYPE html>"))
			continue
		}
		var usage *cmdutil.UsageError
		require.ErrorAs(t, err, &usage)
		assert.ErrorContains(t, err, "give -o PAGE.html")
		assert.Empty(t, out.String())
	}
}

// TestReportTraceURL: --trace-url (or $OFFATTR_TRACE_URL) links the spans
// of a trace's steps; a template that cannot make a link is a usage error.
func TestReportTraceURL(t *testing.T) {
	trace := filepath.Join("..", "..", "..", "..", "testdata", "telemetry", "otel-sdk.jsonl")
	stdout, _, err := runReport(t, trace, "--trace-url", "http://jaeger:16686/trace/{trace_id}?uiFind={span_id}")
	require.NoError(t, err)
	assert.Contains(t, stdout, `href="http://jaeger:16686/trace/4bf92f3577b34da65eed0000cafe0001?uiFind=00f067aa0ba90009"`)
	_, _, err = runReport(t, trace, "--trace-url", "http://jaeger/")
	var usage *cmdutil.UsageError
	assert.ErrorAs(t, err, &usage)
}
