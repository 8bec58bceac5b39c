// Package reportcmd implements `offattr report`: a self-contained HTML page
// for one run, or for the records of a whole screen with a page per run.
package reportcmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/cmd/offattr/internal/screenfile"
	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/internal/escape"
	"github.com/offattr/offattr/redact"
	"github.com/offattr/offattr/report"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/triage"
)

// ReportOptions holds every input and dependency of one report.
type ReportOptions struct {
	IO *cmdutil.IOStreams
	cmdutil.Analysis
	Path string
	// Output is the page's file; "" or "-" for standard output.
	Output string
	// Pages, for a screen, is the directory its runs' pages are written to
	// and linked from.
	Pages   string
	Workers int
	// TraceURL links each step's span to the user's trace viewer.
	TraceURL cmdutil.TraceURL
}

// NewCmdReport returns the report command; runF replaces the run function
// in tests that check flag parsing alone.
func NewCmdReport(io *cmdutil.IOStreams, runF func(*ReportOptions) error) *cobra.Command {
	opts := &ReportOptions{IO: io, Analysis: cmdutil.NewAnalysis(io)}
	cmd := &cobra.Command{
		Use:   "report FILE -o PAGE.html",
		Short: "Write an HTML page to read an attribution by: one run, or a whole screen",
		Long: `Write one self-contained HTML file (style and script inline, no request to
any host, readable with JavaScript off) to attach to a ticket or open on an
air-gapped machine.

FILE is a run (any format analyze reads; FILE#TRACEID for one trace of a
telemetry file) or the records of a screen (its JSONL or CSV output), told
apart by their content; - reads either from standard input.

For a run: the answer (blamed step, confidence, triage, rationale, the
candidates, the model's votes with --model), the dependency graph around the
blamed step with the path of the final answer's values back to their origin,
and the timeline: every step as id="step-N", its agent, kind and text, the
rules' findings with their quotes, trials and loop groups marked, trace and
span ids for telemetry.

For a screen: a summary with charts and one row per record, to sort and
filter by triage, agent, rule and confidence. With --pages DIR each analysed
run also gets its own page, DIR/NAME.html (NAME as export names its bundles:
the run's base name and a hash of its path), and its row links to it. The
runs are analysed again for that, with the flags given here: rules are
deterministic and model answers cached, so the pages repeat the screen.

Texts from logs are escaped, never markup. Redaction is on by default here,
since pages are made to be passed around: --no-redact shows texts as logged.
A run analysed with --model but without --redact asks the model again here,
because its prompts are masked now; give --no-redact to reuse the cache.`,
		Example: `  offattr report run.json -o run.html
  offattr report traces.jsonl#4bf92f3577b34da65eed0000cafe0001 -o trace.html
  offattr report run.json --model qwen3:8b -o run.html
  offattr screen corpus/ -o screen.jsonl && offattr report screen.jsonl -o screen.html --pages runs/`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			opts.SetDefaultAnalyzer(cmd.Context(), opts.IO, triage.Override{})
			if runF != nil {
				return runF(opts)
			}
			return reportRun(cmd.Context(), opts)
		},
	}
	opts.RegisterRedactingByDefault(cmd.Flags())
	f := cmd.Flags()
	f.StringVarP(&opts.Output, "output", "o", "", "the page to write; - for standard output (the default, but for a terminal)")
	f.StringVar(&opts.Pages, "pages", "", "for a screen: write each run's page into this directory and link the rows to them")
	cmdutil.IntVar(f, &opts.Workers, "workers", runtime.NumCPU(), 1, math.MaxInt, "with --pages: runs analysed in parallel")
	opts.TraceURL.Register(f)
	return cmd
}

func reportRun(ctx context.Context, opts *ReportOptions) error {
	if err := checkOutputs(opts); err != nil {
		return err
	}
	records, isScreen, err := readScreen(opts)
	if err != nil {
		return err
	}
	if opts.Pages == "-" {
		return cmdutil.Usagef("--pages -: the pages are files in a directory, not standard output; name a directory")
	}
	if !isScreen && opts.Pages != "" {
		return cmdutil.Usagef("--pages is for a screen's records; %s is a run", opts.Path)
	}
	patterns, analyze, err := opts.Prepare()
	if err != nil {
		return err
	}
	rp := &reporter{opts: opts, analyze: analyze, patterns: patterns}
	if isScreen {
		return rp.screen(ctx, records, patterns)
	}
	var page bytes.Buffer
	err = rp.runPage(ctx, &page, opts.Path, nil, "")
	if page.Len() > 0 {
		if werr := output(opts, page.Bytes()); werr != nil {
			return werr
		}
	}
	return err
}

// reporter writes the pages of one invocation.
type reporter struct {
	opts     *ReportOptions
	analyze  engine.AnalyzeFunc
	patterns *redact.Patterns // nil: no redaction
}

// readScreen tells a screen's records from a run by content: a CSV file is
// records; so is JSONL whose every line is an object with a "file" and a
// triage class or an error. Any other file is left to the run loader. One
// trace of a file (FILE#TRACEID) is a run. Standard input ("-") is read
// once and kept, for the run loader to read again when it is a run.
func readScreen(opts *ReportOptions) ([]screenfile.Record, bool, error) {
	path := opts.Path
	var data []byte
	var err error
	switch file, trace := run.SplitRef(path); {
	case trace != "":
		return nil, false, nil
	case file == run.Stdin:
		in := opts.Load.In
		if in == nil {
			in = os.Stdin
		}
		if max := int64(opts.Load.MaxInput); max > 0 {
			in = io.LimitReader(in, max+1) // the loader says it is too large
		}
		if data, err = io.ReadAll(in); err != nil {
			return nil, false, fmt.Errorf("read standard input: %w", err)
		}
		opts.Load.In = bytes.NewReader(data)
	default:
		if err := cmdutil.NotADirectory(path); err != nil {
			return nil, false, err
		}
		if data, err = readLimited(path, int64(opts.Load.MaxInput)); err != nil {
			return nil, false, err
		}
	}
	f := screenfile.FormatFor(path)
	c, err := screenfile.Parse(data, f)
	if f == screenfile.CSV {
		if err != nil {
			return nil, false, fmt.Errorf("read %s: %w", path, err)
		}
		return c.Records, true, nil
	}
	if err != nil || len(c.Records) == 0 {
		return nil, false, nil
	}
	for _, r := range c.Records {
		if r.Triage == "" && !r.Failed() {
			return nil, false, nil
		}
	}
	return c.Records, true, nil
}

// readLimited reads a file whole, but refuses one over max (0: no limit)
// before reading it, with the loader's error, as analyze does; a file that
// grows while it is read is cut at max+1 and refused too.
func readLimited(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, errors.Unwrap(err))
	}
	defer f.Close()
	if max <= 0 {
		data, err := io.ReadAll(f)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		return data, nil
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > max {
		return nil, fmt.Errorf("load %s: %w", path, &run.TooLargeError{Size: fi.Size(), Limit: max})
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("load %s: %w", path, &run.TooLargeError{Size: -1, Limit: max})
	}
	return data, nil
}

// runPage analyses one run and writes its page. d, when given, is a
// screen's verdict on the run, kept as export keeps it; back links to the
// screen's page. A model stage cut short by ctx still leaves the rules'
// answer: its page is written, and the error returned after.
func (rp *reporter) runPage(ctx context.Context, w io.Writer, path string, d *triage.Decision, back string) error {
	r, err := rp.opts.Load.Load(ctx, path)
	if err != nil {
		return err
	}
	res, err := rp.analyze(ctx, r)
	if err != nil && res.Attribution.Mode == "" {
		return fmt.Errorf("analyze %s: %w", path, err)
	}
	a := &res.Attribution
	shown := res.Redactor.String(path) // masked as the run's own name was
	a.File = shown
	var dec triage.Decision // the attribution's own band
	if d != nil {
		dec = *d // the screen's verdict, with its thresholds
	}
	if werr := report.WriteRun(w, res, report.RunOptions{File: shown, Triage: dec, Redacted: rp.patterns != nil, Back: back, SpanLink: rp.opts.TraceURL.Link}); werr != nil {
		return fmt.Errorf("report %s: %w", path, werr)
	}
	if err != nil {
		return fmt.Errorf("analyze %s: %w", path, err)
	}
	return nil
}

func output(opts *ReportOptions, page []byte) error {
	if opts.Output == "" || opts.Output == "-" {
		_, err := opts.IO.Out.Write(page)
		return err
	}
	if err := cmdutil.WriteFileAtomic(opts.Output, page); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "wrote %s\n", escape.Line(opts.Output))
	return nil
}

// screen writes a screen's page and, with --pages, a page per run first,
// so that the rows can link to the pages that exist. Runs whose page
// failed are reported and keep a row without a link; an interruption still
// writes the screen's page, linking the pages finished.
func (rp *reporter) screen(ctx context.Context, records []screenfile.Record, patterns *redact.Patterns) error {
	opts := rp.opts
	rows := make([]report.Row, len(records))
	var red *redact.Redactor // nil: masks nothing
	if patterns != nil {
		// One numbering for the page, so that one address is one
		// placeholder in every row. As redact.Run does, agent names and
		// file names are masked.
		red = patterns.NewRedactor()
	}
	for i, r := range records {
		rows[i] = row(r, red)
	}
	var failed []string
	var interrupted error
	if opts.Pages != "" {
		if err := os.MkdirAll(opts.Pages, 0o755); err != nil {
			return fmt.Errorf("create %s: %w", opts.Pages, errors.Unwrap(err))
		}
		var links []string
		links, failed, interrupted = rp.writePages(ctx, records)
		written := 0
		for i := range rows {
			rows[i].Page = links[i]
			if links[i] != "" {
				written++
			}
		}
		fmt.Fprintf(opts.IO.ErrOut, "wrote %d run pages to %s; %d failed\n", written, escape.Line(opts.Pages), len(failed))
	}
	if err := writeScreen(opts, rows, red); err != nil {
		return err
	}
	for _, e := range failed {
		fmt.Fprintf(opts.IO.ErrOut, "offattr: %s\n", e)
	}
	switch {
	case interrupted != nil:
		return interrupted
	case len(failed) > 0:
		return fmt.Errorf("%d of %d run pages could not be written (see above); their rows have no link", len(failed), len(records))
	}
	return nil
}

// writeScreen writes the page of a screen's rows; red, not nil when
// redacting, masks the records file's name as it masked the rows.
func writeScreen(opts *ReportOptions, rows []report.Row, red *redact.Redactor) error {
	var page bytes.Buffer
	if err := report.WriteScreen(&page, rows, report.ScreenOptions{Source: red.String(opts.Path), Redacted: red != nil}); err != nil {
		return err
	}
	return output(opts, page.Bytes())
}

// row is a record as the screen page lists it: the rules are those behind
// the blamed step's candidate.
func row(r screenfile.Record, red *redact.Redactor) report.Row {
	if r.Failed() {
		return report.Row{File: red.String(r.File), Error: red.String(r.Error)}
	}
	out := report.Row{File: red.String(r.File), Agent: red.String(r.Agent), Step: r.Step, Confidence: r.Confidence, Triage: r.Triage, Reason: red.String(r.Reason)}
	for _, c := range r.Candidates {
		if c.Step == r.Step {
			out.Rules = c.Rules
			break
		}
	}
	return out
}

// writePages writes the page of every analysed record into opts.Pages, with
// opts.Workers runs at once, and returns each record's link (relative to
// the screen page) or "", the errors of the runs that failed, in record
// order, and a non-nil error only when ctx ended.
func (rp *reporter) writePages(ctx context.Context, records []screenfile.Record) ([]string, []string, error) {
	opts := rp.opts
	base, back := ".", "" // the screen page's directory, and the way back to it
	if opts.Output != "" && opts.Output != "-" {
		base, back = filepath.Dir(opts.Output), relURL(opts.Pages, opts.Output)
	}
	links := make([]string, len(records))
	errs := make([]string, len(records))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(opts.Workers, max(len(records), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				rec := records[i]
				path := filepath.Join(opts.Pages, cmdutil.RunName(rec.File, rp.patterns)+".html")
				d := triage.Decision{Class: rec.Triage, Reason: rec.Reason}
				if err := rp.pageFile(ctx, path, rec.File, &d, back); err != nil {
					errs[i] = rp.patterns.NewRedactor().String(err.Error()) // it may name the file
					continue
				}
				links[i] = relURL(base, path)
			}
		}()
	}
feed:
	for i, rec := range records {
		if rec.Failed() {
			continue
		}
		if rec.Key != "" {
			errs[i] = fmt.Sprintf("page for %s: %s", rec.File, screenfile.ErrMasked)
			continue
		}
		if strings.HasPrefix(rec.File, "-:") {
			errs[i] = fmt.Sprintf("page for %s: a run read from standard input cannot be read again; save the stream to files and screen those", rp.patterns.NewRedactor().String(rec.File))
			continue
		}
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	var failed []string
	for _, e := range errs {
		if e != "" {
			failed = append(failed, e)
		}
	}
	if ctx.Err() != nil {
		return links, failed, fmt.Errorf("interrupted: %w", ctx.Err())
	}
	return links, failed, nil
}

func (rp *reporter) pageFile(ctx context.Context, path, run string, d *triage.Decision, back string) error {
	var page bytes.Buffer
	if err := rp.runPage(ctx, &page, run, d, back); err != nil {
		return err
	}
	return cmdutil.WriteOwnFile(path, page.Bytes())
}

// relURL is the relative link from a page in dir to target, each segment
// escaped; "" when there is none (another volume).
func relURL(dir, target string) string {
	ad, err1 := filepath.Abs(dir)
	at, err2 := filepath.Abs(target)
	rel, err := filepath.Rel(ad, at)
	if err1 != nil || err2 != nil || err != nil {
		return ""
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}

// checkOutputs refuses, before anything is read, outputs offattr must not
// write to: a device, a pipe, the file standard output goes to.
func checkOutputs(opts *ReportOptions) error {
	if err := opts.TraceURL.Check(); err != nil {
		return err
	}
	if opts.Output == "" && opts.IO.OutTTY {
		return cmdutil.Usagef("report writes an HTML page, not text for a terminal: give -o PAGE.html (or redirect standard output, or -o - to print it anyway)")
	}
	if opts.Output != "" && opts.Output != "-" {
		if err := opts.IO.CheckOutput(opts.Output); err != nil {
			return err
		}
		in, _ := run.SplitRef(opts.Path)
		if err := cmdutil.CheckNotInput(opts.Output, opts.Inputs([]string{in})); err != nil {
			return err
		}
	}
	if opts.Pages != "" {
		return cmdutil.CheckDir(opts.Pages)
	}
	return nil
}
