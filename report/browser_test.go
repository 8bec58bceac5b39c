package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/offattr/offattr/run"
)

// The browser tests open the pages in a real headless Chromium, with
// --dump-dom (the DOM after the page's script ran) and --screenshot, and no
// driver library. They need Debian's chromium package:
//
//	apt-get install -y chromium
//
// OFFATTR_CHROMIUM names another binary. Without one they skip, unless
// OFFATTR_REQUIRE_BROWSER=1 (as CI sets it), when they fail: a CI that
// skipped them would pass without having opened a page. Screenshots go to
// OFFATTR_SCREENSHOTS when it is set, else to a temporary directory; the
// test log names them.

const (
	chromiumEnv    = "OFFATTR_CHROMIUM"
	requireEnv     = "OFFATTR_REQUIRE_BROWSER"
	screenshotsEnv = "OFFATTR_SCREENSHOTS"
)

// chromium returns the browser to test with, or skips tb.
func chromium(tb testing.TB) string {
	tb.Helper()
	if testing.Short() {
		tb.Skip("-short: the browser tests start Chromium")
	}
	bin := os.Getenv(chromiumEnv)
	if bin == "" {
		bin = "chromium"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		msg := fmt.Sprintf("headless Chromium not found (%v): install Debian's package with `apt-get install -y chromium`, or set %s to a Chromium binary", err, chromiumEnv)
		if os.Getenv(requireEnv) == "1" {
			tb.Fatalf("%s; %s=1 requires the browser tests", msg, requireEnv)
		}
		tb.Skip(msg)
	}
	return path
}

// browse runs one headless Chromium on url with the given action flags
// (--dump-dom, --screenshot=...) and returns its standard output. Each run
// has its own profile, and nothing that would reach a network at start-up.
func browse(tb testing.TB, bin, url string, action ...string) []byte {
	tb.Helper()
	profile, err := os.MkdirTemp("", "offattr-chromium-")
	require.NoError(tb, err)
	defer os.RemoveAll(profile)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--no-first-run", "--disable-sync", "--hide-scrollbars",
		"--user-data-dir=" + profile}, action...)
	cmd := exec.CommandContext(ctx, bin, append(args, url)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	require.NoError(tb, err, "chromium %s: %s", strings.Join(action, " "), lastLines(stderr.String(), 10))
	return stdout.Bytes()
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}

// writePage writes page into a fresh directory and returns its file URL.
func writePage(tb testing.TB, dir, name string, page []byte) string {
	tb.Helper()
	path := filepath.Join(dir, name)
	require.NoError(tb, os.WriteFile(path, page, 0o644))
	abs, err := filepath.Abs(path)
	require.NoError(tb, err)
	return "file://" + filepath.ToSlash(abs)
}

// open loads url once, with --dump-dom (the DOM once the page has loaded
// and its script has run) and --screenshot (the first screen, w×h, kept
// where the log says) together, and returns both.
func open(t *testing.T, bin, url, name string, w, h int) (*html.Node, image.Image) {
	t.Helper()
	dir := os.Getenv(screenshotsEnv)
	if dir == "" {
		dir = t.TempDir()
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	path, err := filepath.Abs(filepath.Join(dir, name))
	require.NoError(t, err)
	dom := browse(t, bin, url, "--dump-dom", fmt.Sprintf("--window-size=%d,%d", w, h), "--screenshot="+path)
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err, "the screenshot is a PNG")
	t.Logf("screenshot: %s", path)
	assert.Equal(t, image.Rect(0, 0, w, h), img.Bounds())
	return parse(t, dom), img
}

// root is the document's <html> element.
func root(doc *html.Node) *html.Node {
	for _, e := range elements(doc) {
		if e.Data == "html" {
			return e
		}
	}
	return nil
}

// pageBackground is --bg in page.css: a screenshot showing it proves the
// browser applied the stylesheet the policy allows by hash.
var pageBackground = color.RGBA{0xfb, 0xfa, 0xf7, 0xff}

func sameColour(a, b color.Color) bool {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	near := func(x, y uint32) bool { return x>>8 <= y>>8+2 && y>>8 <= x>>8+2 }
	return near(r1, r2) && near(g1, g2) && near(b1, b2)
}

// inked counts the pixels of a region that are not the page background:
// text and rules drawn.
func inked(img image.Image, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if !sameColour(img.At(x, y), pageBackground) {
				n++
			}
		}
	}
	return n
}

func TestBrowserRunPage(t *testing.T) {
	bin := chromium(t)
	t.Parallel()
	r, err := run.Load(filepath.Join("..", "testdata", "runs", "magentic.json"), run.Options{})
	require.NoError(t, err)
	res := withVotes(analyse(t, r))
	var b bytes.Buffer
	require.NoError(t, WriteRun(&b, res, RunOptions{File: "testdata/runs/magentic.json", Redacted: true}))
	url := writePage(t, t.TempDir(), "run.html", b.Bytes())

	doc, img := open(t, bin, url, "run.png", 1200, 1600)
	checkSteps(t, doc, len(r.Steps), res.Attribution.Step)
	checkInert(t, doc)
	assert.True(t, hasClass(root(doc), "js"), "the script ran under the page's policy")
	for _, e := range elements(doc) {
		if e.Data == "form" && hasClass(e, "controls") {
			_, hidden := attr(e, "hidden")
			assert.False(t, hidden, "the script showed the filters")
		}
	}
	assert.True(t, sameColour(img.At(3, 3), pageBackground), "the stylesheet applied: the page has its background, not %v", img.At(3, 3))
	assert.Greater(t, inked(img, image.Rect(0, 0, 1200, 400)), 2000, "the top of the page shows text")
}

func TestBrowserHostileRunIsInert(t *testing.T) {
	bin := chromium(t)
	t.Parallel()
	dir := t.TempDir()
	url := writePage(t, dir, "hostile.html", hostilePage(t))
	doc, img := open(t, bin, url, "hostile.png", 1200, 1000)
	checkInert(t, doc)
	checkSteps(t, doc, len(hostileRun().Steps), analyse(t, hostileRun()).Attribution.Step)
	_, hit := attr(root(doc), pwned)
	assert.False(t, hit, "no payload ran")
	assert.True(t, hasClass(root(doc), "js"), "the page's own script ran")
	all := text(doc)
	for _, s := range append(hostileTexts, hostileAgents...) {
		assert.Contains(t, all, clean(s), "the browser shows the payload as text")
	}
	assert.Greater(t, inked(img, image.Rect(0, 0, 1200, 1000)), 5000, "the log's style did not hide the page")
}

func TestBrowserScreenPage(t *testing.T) {
	bin := chromium(t)
	t.Parallel()
	rows := screenRows(300)
	rows[7].File = `"><img src=x onerror="document.documentElement.setAttribute('data-pwned','file')">.json`
	rows[8].Agent = hostileAgents[2]
	for i := range rows {
		if rows[i].Agent == "WebSurfer" && i%2 == 0 {
			rows[i].Agent = "web_surfer" // the same agent: the filter finds both
		}
	}
	var b bytes.Buffer
	require.NoError(t, WriteScreen(&b, rows, ScreenOptions{Source: "screen.jsonl"}))
	url := writePage(t, t.TempDir(), "screen.html", b.Bytes())

	// The fragment is the page's own filter and sort: a bookmarkable view.
	doc, img := open(t, bin, url+"#triage=escalate&agent=WebSurfer&sort=conf&dir=desc", "screen.png", 1200, 1400)
	checkInert(t, doc)
	assert.True(t, hasClass(root(doc), "js"))
	files := fileRows(doc)
	assert.Len(t, files, len(rows), "one tr[data-file] per record")

	var shown []float64
	var agents []string
	escalated := 0
	for _, r := range rows {
		if r.Triage == "escalate" && run.SameAgent(r.Agent, "WebSurfer") {
			escalated++
		}
	}
	for _, e := range elements(doc) {
		if e.Data != "tr" {
			continue
		}
		if _, ok := attr(e, "data-file"); !ok {
			continue
		}
		if _, hidden := attr(e, "hidden"); hidden {
			continue
		}
		var cells []string
		for c := e.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.Data == "td" {
				cells = append(cells, text(c))
			}
		}
		require.Len(t, cells, 7)
		assert.Equal(t, "escalate", cells[4], "the filter hides the other bands")
		agents = append(agents, cells[1])
		conf, err := strconv.ParseFloat(cells[3], 64)
		require.NoError(t, err)
		shown = append(shown, conf)
	}
	assert.Len(t, shown, escalated)
	assert.Contains(t, agents, "WebSurfer")
	assert.Contains(t, agents, "web_surfer", "one agent however it is spelled")
	assert.IsNonIncreasing(t, shown, "sorted by confidence, descending")
	require.NotZero(t, escalated, "the fixture has rows to show")
	for _, e := range elements(doc) {
		if hasClass(e, "shown") {
			assert.Equal(t, fmt.Sprintf("showing %d of %d", escalated, len(rows)), text(e))
		}
	}
	assert.True(t, sameColour(img.At(3, 3), pageBackground))
}

// BenchmarkBrowserOpenScreen10k measures how long Chromium takes to open a
// screen page of 10,000 records: from the start of loading to the page laid
// out, its script having run (filters read, rows indexed). A harness page
// loads it in a frame and times it, so the browser's own start-up is not
// counted. Run it with
//
//	go test -run '^$' -bench BrowserOpen -benchtime 3x ./report
//
// On a shared machine the figure is the machine's load as much as the
// page's; `chrt -f 10` on the test binary gives the browser the CPU.
func BenchmarkBrowserOpenScreen10k(b *testing.B) {
	bin := chromium(b)
	dir := b.TempDir()
	var page bytes.Buffer
	require.NoError(b, WriteScreen(&page, screenRows(10000), ScreenOptions{Source: "screen.jsonl"}))
	writePage(b, dir, "screen.html", page.Bytes())
	url := writePage(b, dir, "harness.html", []byte(harness))
	var total, wall time.Duration
	for b.Loop() {
		start := time.Now()
		out := browse(b, bin, url, "--dump-dom", "--allow-file-access-from-files", "--window-size=1280,1000")
		wall += time.Since(start)
		doc := parse(b, out)
		var got struct {
			MS   float64 `json:"ms"`
			Rows int     `json:"rows"`
			JS   bool    `json:"js"`
		}
		raw := text(byID(doc, "out"))
		require.NoError(b, json.Unmarshal([]byte(raw), &got), "harness said %q", raw)
		require.Equal(b, 10000, got.Rows)
		require.True(b, got.JS, "the page's script ran")
		total += time.Duration(got.MS * float64(time.Millisecond))
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "open-ms")
	b.ReportMetric(float64(wall.Milliseconds())/float64(b.N), "chromium-wall-ms")
	b.ReportMetric(float64(page.Len())/1e6, "MB")
}

// harness opens screen.html in a frame and reports, as JSON in #out, the
// milliseconds from asking for the page to its load event and a forced
// layout. The frame's load event follows the page's script, which runs as
// the page is parsed.
const harness = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>harness</title></head>
<body><pre id="out">pending</pre>
<script>
var t0 = performance.now();
var f = document.createElement("iframe");
f.width = 1280; f.height = 900;
f.onload = function () {
  var d = f.contentDocument;
  var h = d.body.offsetHeight;
  var ms = performance.now() - t0;
  document.getElementById("out").textContent = JSON.stringify({ms: ms, height: h,
    rows: d.querySelectorAll("tr[data-file]").length, js: d.documentElement.classList.contains("js")});
};
f.src = "screen.html";
document.body.appendChild(f);
</script></body></html>`
