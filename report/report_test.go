package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/triage"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func itoa(i int) string { return strconv.Itoa(i) }

func TestClean(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "Step 3: ok\n\tdone", "Step 3: ok\n\tdone"},
		{"crlf", "a\r\nb", "a\nb"},
		{"lone cr", "a\rb", "a␍b"},
		{"escape", "\x1b[31mred", "␛[31mred"},
		{"nul and del", "a\x00b\x7f", "a␀b␡"},
		{"c1", "a\u0085b", "a[U+0085]b"},
		{"bidi override", "abc\u202edcba\u202c", "abc[U+202E]dcba[U+202C]"},
		{"isolate and marks", "\u2066x\u2069\u200f", "[U+2066]x[U+2069][U+200F]"},
		{"line and paragraph separators", "a\u2028b\u2029c", "a[U+2028]b[U+2029]c"},
		{"zero-width space and BOM", "pass\u200bword\ufeff", "pass[U+200B]word[U+FEFF]"},
		{"Arabic letter mark", "a\u061cb", "a[U+061C]b"},
		{"invalid utf-8", "a\xffb", "a\uFFFDb"},
		{"markup stays text", "<b>x</b>", "<b>x</b>"},
		{"emoji and joiners", "👩‍💻 café", "👩‍💻 café"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, clean(tt.in))
		})
	}
}

func TestExcerpt(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly ten", 11, "exactly ten"},
		{"the quick brown fox jumps", 17, "the quick brown…"},
		{"the quick brown fox jumps", 12, "the quick br…"},
		{"ééééééééééééé", 5, "ééééé…"},
		{"averyveryverylongword", 8, "averyver…"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, excerpt(tt.in, tt.n))
		})
	}
}

func TestCollapse(t *testing.T) {
	long := strings.Repeat("word ", 400)
	tests := []struct {
		name      string
		text      string
		collapsed bool
		more      int
	}{
		{"short", "one line", false, 0},
		{"at the limit", strings.Repeat("x", longRunes), false, 0},
		{"long", long, true, 2000 - 319},
		{"many short lines", strings.Repeat("x\n", longLines+1), true, 2*(longLines+1) - 15},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			preview, more := collapse(tt.text)
			assert.Equal(t, tt.collapsed, preview != "")
			assert.Equal(t, tt.more, more)
			if tt.collapsed {
				assert.True(t, strings.HasSuffix(preview, " …"))
				assert.LessOrEqual(t, utf8.RuneCountInString(preview), previewRunes+2)
				assert.LessOrEqual(t, strings.Count(preview, "\n"), 7, "eight lines at most")
			}
		})
	}
}

// smallResult is a fixed answer over a small real run: the run is read and
// prepared by the engine's structural stages, the answer is written here,
// so that the golden page changes with this package, not with the rules.
func smallResult(t *testing.T) engine.Result {
	t.Helper()
	r, err := run.Load(filepath.Join("..", "testdata", "runs", "openai_tools.json"), run.Options{})
	require.NoError(t, err)
	e := r.Steps[3].Edit()
	e.TraceID, e.SpanID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	r.Steps[5].Content += "\n" + strings.Repeat("The conversion multiplies by 9/5 and adds 32. ", 40)
	in, err := engine.Prepare(r)
	require.NoError(t, err)
	corrected := 4
	findings := []rules.Finding{
		{Rule: "data_flow_origin", Step: 5, Strength: 0.8, Quote: "It is 10 degrees Celsius, which is 60 °F.", Reason: `the final answer's "60" first appears here`},
		{Rule: "local_fault", Step: 5, Strength: 0.5, Quote: "which is 60 °F", Reason: "a conversion that does not hold"},
		{Rule: "reversibility", Step: 3, Strength: -0.4, Quote: "get_weather", Reason: "a later call corrected it", QuoteStep: &corrected},
		{Rule: "unsupported_claim", Step: 2, Strength: 0.3, Quote: "convert Celsius to Fahrenheit", Reason: "a plan step with no source"},
	}
	a := rules.Attribution{File: r.Source, Agent: "executor", Step: 5, Confidence: 0.746, Mode: rules.ModeRules,
		Rationale: "Step 5 (executor) is the most likely decisive fault: data_flow_origin, local_fault.",
		Evidence:  []rules.Evidence{{Rule: "data_flow_origin", Step: 5, Quote: findings[0].Quote}, {Rule: "local_fault", Step: 5, Quote: findings[1].Quote}},
		Candidates: []rules.Candidate{
			{Step: 5, Agent: "executor", Score: 1.3, Rules: []string{"data_flow_origin", "local_fault"}},
			{Step: 2, Agent: "planner", Score: 0.21, Rules: []string{"unsupported_claim"}},
			{Step: 3, Agent: "executor", Score: 0.01, Rules: []string{}},
		}}
	return engine.Result{Attribution: a, Input: in, Findings: findings}
}

func writeRun(t *testing.T, res engine.Result, opts RunOptions) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, WriteRun(&b, res, opts))
	return b.Bytes()
}

// golden compares a page with testdata/name. The page's stylesheet and
// script are files of their own (assets/), and the policy's hashes follow
// from them (TestPolicyAllowsOnlyThePagesOwn), so the golden file holds
// the markup alone: its diff shows what a change did to the pages.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	got = bytes.Replace(got, []byte(baseCSS), []byte("/* assets/page.css */"), 1)
	got = bytes.Replace(got, []byte(script), []byte("/* assets/page.js */"), 1)
	got = regexp.MustCompile(`sha256-(?:[A-Za-z0-9/=]|&#43;)+`).ReplaceAll(got, []byte("sha256-…"))
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./report -update to write %s", path)
	if !bytes.Equal(want, got) {
		out := filepath.Join(os.TempDir(), "offattr-"+name)
		require.NoError(t, os.WriteFile(out, got, 0o644))
		t.Errorf("the page differs from %s: see `diff %s %s`; if the change is intended, rewrite it with -update and review the diff", path, path, out)
	}
}

func TestRunPageGolden(t *testing.T) {
	res := smallResult(t)
	page := writeRun(t, res, RunOptions{File: "testdata/runs/openai_tools.json",
		Triage: triage.Decide(res.Attribution, triage.Defaults()), Redacted: true})
	golden(t, "run.html.golden", page)
}

func TestScreenPageGolden(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteScreen(&b, screenRows(24), ScreenOptions{Source: "screen.jsonl"}))
	golden(t, "screen.html.golden", b.Bytes())
}

func TestRunPage(t *testing.T) {
	res := smallResult(t)
	doc := parse(t, writeRun(t, res, RunOptions{File: "x.json", Triage: triage.Decide(res.Attribution, triage.Defaults())}))
	checkSteps(t, doc, 6, 5)
	checkInert(t, doc)

	blamed := byID(doc, "step-5")
	require.NotNil(t, blamed)
	assert.True(t, hasClass(blamed, "blamed"), "the blamed step is marked for the eye too")
	assert.Contains(t, text(blamed), "blamed", "and in words, for print and screen readers")
	rank, _ := attr(blamed, "data-rank")
	assert.Equal(t, "1", rank)
	r2, _ := attr(byID(doc, "step-2"), "data-rank")
	assert.Equal(t, "2", r2, "the runner-up is marked with its rank")
	_, ranked := attr(byID(doc, "step-3"), "data-rank")
	assert.False(t, ranked, "a candidate no rule spoke for is not marked")

	tests := []struct {
		step int
		want []string
	}{
		{5, []string{"data_flow_origin", "+0.80", "It is 10 degrees Celsius, which is 60 °F.", "local_fault", "final answer"}},
		{3, []string{"reversibility", "-0.40", "a later call corrected it", "quoting step 4:", "calls get_weather", `{"city": "Oslo"}`,
			"trace 4bf92f3577b34da6a3ce929d0e0e4736", "span 00f067aa0ba902b7"}},
		{2, []string{"unsupported_claim", "candidate #2", "planner"}},
	}
	for _, tt := range tests {
		t.Run("step "+itoa(tt.step), func(t *testing.T) {
			got := strings.Join(strings.Fields(text(byID(doc, "step-"+itoa(tt.step)))), " ")
			for _, w := range tt.want {
				assert.Contains(t, got, strings.Join(strings.Fields(w), " "))
			}
		})
	}
	assert.NotContains(t, text(byID(doc, "step-1")), "trace ", "no ids where the log had none")

	answer := strings.Join(strings.Fields(text(byID(doc, "answer"))), " ")
	for _, w := range []string{"Step 5, by executor", "review", "confidence 0.746 between 0.4 and 0.75", "Candidates"} {
		assert.Contains(t, answer, w)
	}
	assert.Regexp(t, `Confidence\s*0\.746`, answer, "the confidence as triage reads it")
	assert.NotContains(t, answer, "Model analysts", "no votes without a model")
}

func TestRunPageCollapsesLongTexts(t *testing.T) {
	doc := parse(t, writeRun(t, smallResult(t), RunOptions{}))
	for _, tt := range []struct {
		step      int
		collapsed bool
	}{{5, true}, {2, false}} {
		var details *html.Node
		for _, e := range elements(byID(doc, "step-"+itoa(tt.step))) {
			if e.Data == "details" {
				details = e
			}
		}
		assert.Equal(t, tt.collapsed, details != nil, "step %d", tt.step)
		if details != nil {
			_, open := attr(details, "open")
			assert.True(t, open, "the blamed step's text starts open")
			assert.Contains(t, text(details), "adds 32. The conversion", "the whole text is in the page")
		}
	}
}

func TestRunPageGraph(t *testing.T) {
	r, err := run.Load(filepath.Join("..", "testdata", "runs", "magentic.json"), run.Options{})
	require.NoError(t, err)
	res := analyse(t, r)
	doc := parse(t, writeRun(t, res, RunOptions{}))
	var svg *html.Node
	for _, e := range elements(byID(doc, "graph")) {
		if e.Data == "svg" {
			svg = e
			break
		}
	}
	require.NotNil(t, svg, "the graph is an inline SVG")
	nodes := map[string]bool{}
	edges := map[string]int{}
	for _, e := range elements(svg) {
		if e.Data == "a" {
			href, _ := attr(e, "href")
			nodes[href] = true
		}
		if e.Data == "path" && hasClass(e, "edge") {
			c, _ := attr(e, "class")
			edges[strings.TrimPrefix(strings.Fields(c)[1], "e-")]++
			d, _ := attr(e, "d")
			assert.Regexp(t, `^M[0-9 .LC-]+$`, d, "a path is numbers and commands")
		}
	}
	assert.True(t, nodes["#step-"+itoa(res.Attribution.Step)], "the blamed step is drawn and links to its place in the timeline")
	flow := res.Input.Graph.AnswerFlow()
	require.NotEmpty(t, flow)
	for _, f := range flow {
		for _, s := range f.Path {
			assert.True(t, nodes["#step-"+itoa(s)], "step %d of the answer's data flow is drawn", s)
		}
	}
	require.Greater(t, len(flow[0].Path), 1, "the fixture's answer has a trace")
	assert.Positive(t, edges["flow"], "the answer's trace is drawn")
}

func TestRunPageVotes(t *testing.T) {
	res := withVotes(smallResult(t))
	doc := parse(t, writeRun(t, res, RunOptions{}))
	answer := strings.Join(strings.Fields(text(byID(doc, "answer"))), " ")
	assert.Contains(t, answer, "Model analysts' votes")
	assert.Contains(t, answer, "3 calls, 2400 prompt and 300 completion tokens")
	assert.Contains(t, text(byID(doc, "step-5")), "model: skeptical")
	assert.Contains(t, answer, "a step the run does not have", "a vote for a step out of range is listed, not linked")
	checkInert(t, doc)
}

func TestRunPageTriageFromAttribution(t *testing.T) {
	res := smallResult(t)
	res.Attribution.Triage, res.Attribution.TriageReason = "escalate", "calibrated: probability 0.31 < 0.5"
	doc := parse(t, writeRun(t, res, RunOptions{}))
	assert.Contains(t, text(byID(doc, "answer")), "escalate calibrated: probability 0.31 < 0.5")
	doc = parse(t, writeRun(t, res, RunOptions{Triage: triage.Decision{Class: triage.Review, Reason: "the screen said so"}}))
	assert.Contains(t, text(byID(doc, "answer")), "review the screen said so", "a verdict given wins")
}

func TestWriteRunWithoutInput(t *testing.T) {
	err := WriteRun(&bytes.Buffer{}, engine.Result{Attribution: rules.Attribution{Step: 1}}, RunOptions{})
	assert.ErrorIs(t, err, ErrNoAnalysis)
}

func TestHostileRunIsInert(t *testing.T) {
	page := hostilePage(t)
	doc := parse(t, page)
	checkInert(t, doc)
	res := analyse(t, hostileRun())
	checkSteps(t, doc, len(hostileRun().Steps), res.Attribution.Step)
	all := text(doc)
	for _, s := range append(hostileTexts, hostileAgents...) {
		assert.Contains(t, all, clean(s), "hostile text is shown as text, not dropped")
	}
	assert.NotContains(t, string(page), "\x1b", "no control character reaches the page")
	assert.NotContains(t, string(page), "\u202e")
}

// TestPolicyAllowsOnlyThePagesOwn checks that the policy's hashes are those
// of the page's style and script (else the browser would refuse them) and
// that it allows no source.
func TestPolicyAllowsOnlyThePagesOwn(t *testing.T) {
	var screen bytes.Buffer
	require.NoError(t, WriteScreen(&screen, screenRows(30), ScreenOptions{}))
	for name, page := range map[string][]byte{"run": writeRun(t, smallResult(t), RunOptions{}), "screen": screen.Bytes(), "hostile": hostilePage(t)} {
		t.Run(name, func(t *testing.T) {
			doc := parse(t, page)
			var csp, css, js string
			for _, e := range elements(doc) {
				switch e.Data {
				case "meta":
					if v, _ := attr(e, "http-equiv"); v == "Content-Security-Policy" {
						csp, _ = attr(e, "content")
					}
				case "style":
					css = text(e)
				case "script":
					js = text(e)
				}
			}
			assert.Equal(t, "default-src 'none'; script-src '"+hash(js)+"'; style-src '"+hash(css)+"'; base-uri 'none'; form-action 'none'", csp)
			assert.NotRegexp(t, `(?i)https?:|@import|url\((?:[^#)]|#[^a])`, css, "the stylesheet fetches nothing")
			assert.NotRegexp(t, `(?i)fetch\(|XMLHttpRequest|\.src\s*=|innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(`, js, "the script builds no markup and fetches nothing")
		})
	}
}

func TestScreenPage(t *testing.T) {
	rows := screenRows(50)
	rows[3].File = `"><img src=x onerror="document.documentElement.setAttribute('data-pwned','file')">.json`
	rows[4].Agent = hostileAgents[0]
	rows[5].Reason = hostileTexts[1]
	rows[6].Rules = []string{hostileTexts[0]}
	rows[19].Error = hostileTexts[2]
	var b bytes.Buffer
	require.NoError(t, WriteScreen(&b, rows, ScreenOptions{Source: "screen.jsonl", Redacted: true}))
	doc := parse(t, b.Bytes())
	checkInert(t, doc)

	want := make([]string, len(rows))
	for i, r := range rows {
		want[i] = r.File
	}
	assert.Equal(t, want, fileRows(doc), "one tr[data-file] per record, in order")

	summary := strings.Join(strings.Fields(text(byID(doc, "summary"))), " ")
	counts := map[string]int{}
	for _, r := range rows {
		if r.Failed() {
			counts["failed"]++
		} else {
			counts[string(r.Triage)]++
		}
	}
	for _, band := range []string{"clear", "review", "escalate", "failed"} {
		assert.Contains(t, summary, itoa(counts[band])+" "+band)
	}
	for _, w := range []string{"Most blamed agents", "Rules that blamed the step", "Confidence", "masked"} {
		assert.Contains(t, summary, w)
	}
	links := 0
	for _, e := range elements(byID(doc, "runs")) {
		if href, ok := attr(e, "href"); ok && e.Data == "a" {
			links++
			assert.Regexp(t, `^runs/run-\d{5}-[0-9a-f]{8}\.html$`, href)
		}
	}
	assert.Equal(t, len(rows)-5, links, "every analysed run links to its page; failures do not")
}

// TestScreenPageSize checks the bulk screen's budget: 10,000 records make a
// page under 5 MB.
func TestScreenPageSize(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteScreen(&b, screenRows(10000), ScreenOptions{Source: "screen.jsonl"}))
	assert.Less(t, b.Len(), 5<<20, "10,000 records: %d bytes", b.Len())
	assert.Equal(t, 10000, bytes.Count(b.Bytes(), []byte("<tr data-file=")))
}

func BenchmarkWriteScreen10k(b *testing.B) {
	rows := screenRows(10000)
	var size int
	for b.Loop() {
		var buf bytes.Buffer
		if err := WriteScreen(&buf, rows, ScreenOptions{}); err != nil {
			b.Fatal(err)
		}
		size = buf.Len()
	}
	b.ReportMetric(float64(size)/1e6, "MB")
}

// TestSpanLinks: with a link function each step with a span links to it;
// a link that is not http or https is left out.
func TestSpanLinks(t *testing.T) {
	res := smallResult(t)
	link := func(trace, span string) string { return "https://viewer.example/trace/" + trace + "?span=" + span }
	page := string(writeRun(t, res, RunOptions{File: "x.json", SpanLink: link}))
	assert.Contains(t, page, `href="https://viewer.example/trace/4bf92f3577b34da6a3ce929d0e0e4736?span=00f067aa0ba902b7"`)
	assert.Equal(t, 1, strings.Count(page, `class="trace-link"`), "only the step with a span")

	bad := func(string, string) string { return "javascript:alert(1)" }
	assert.NotContains(t, string(writeRun(t, res, RunOptions{File: "x.json", SpanLink: bad})), "trace-link")
	assert.NotContains(t, string(writeRun(t, res, RunOptions{File: "x.json"})), "trace-link")
}
