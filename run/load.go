package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/offattr/offattr/run/spans"
)

// Format names an input format.
type Format string

const (
	FormatAuto       Format = "auto"
	FormatWhoWhen    Format = "whowhen"    // {"question","ground_truth","history":[...]} as in the Who&When benchmark
	FormatTranscript Format = "transcript" // chat messages: array, JSONL, or {"messages":[...]}
	// Coding agents' session logs: each file is one run (see sessionlog.go).
	FormatClaudeCode Format = "claude-code" // Claude Code's (and the Claude Agent SDK's) session JSONL
	FormatCodex      Format = "codex"       // Codex CLI's rollout JSONL
	FormatAider      Format = "aider"       // aider's Markdown chat history (.aider.chat.history.md)
	// Telemetry: every trace of the file is one run (see telemetry.go).
	FormatOTLP          = Format(spans.OTLP)          // OTLP/JSON as the Collector's file exporter writes it
	FormatTempo         = Format(spans.Tempo)         // Grafana Tempo's trace download
	FormatJaeger        = Format(spans.Jaeger)        // Jaeger UI/API JSON
	FormatOpenInference = Format(spans.OpenInference) // flat span lists: Phoenix, Arize, OpenInference, MLflow
	FormatLangfuse      = Format(spans.Langfuse)      // Langfuse trace exports and ingestion batches
	FormatLangSmith     = Format(spans.LangSmith)     // LangSmith runs
	FormatCalls         = Format(spans.Calls)         // logs of model calls: request and response pairs
	FormatSentry        = Format(spans.Sentry)        // Sentry's envelopes and transaction events
	FormatDatadog       = Format(spans.Datadog)       // Datadog LLM Observability's span events
	FormatLunary        = Format(spans.Lunary)        // Lunary's run events
	FormatMaxim         = Format(spans.Maxim)         // Maxim's commit logs
	FormatGalileo       = Format(spans.Galileo)       // Galileo's traces
	FormatXRay          = Format(spans.XRay)          // AWS X-Ray's segment documents
	FormatLiteralAI     = Format(spans.LiteralAI)     // Literal AI's steps
	FormatPostHog       = Format(spans.PostHog)       // PostHog's LLM analytics events
)

// Formats lists the formats a user may force with --format.
var Formats = []Format{FormatAuto, FormatWhoWhen, FormatTranscript, FormatClaudeCode, FormatCodex, FormatAider, FormatOTLP, FormatTempo, FormatJaeger, FormatOpenInference, FormatLangfuse, FormatLangSmith, FormatCalls, FormatSentry, FormatDatadog, FormatLunary, FormatLiteralAI, FormatPostHog, FormatMaxim, FormatGalileo, FormatXRay}

// ParseFormat checks a --format value. "phoenix", "mlflow", "zipkin" and
// "genkit" name the flat span lists too: Phoenix is where most of them
// come from, an MLflow trace is one, inside {"info", "data": {"spans"}},
// and so are Zipkin's JSON and Genkit's trace data, its spans by their
// ids.
func ParseFormat(s string) (Format, error) {
	if s == "phoenix" || s == "mlflow" || s == "zipkin" || s == "genkit" {
		return FormatOpenInference, nil
	}
	names := make([]string, len(Formats))
	for i, f := range Formats {
		if string(f) == s {
			return f, nil
		}
		names[i] = string(f)
	}
	return "", fmt.Errorf("unknown format %q (want one of %s)", s, strings.Join(names, ", "))
}

// Errors a caller may branch on; every returned error wraps one of them or a
// JSON error, always with the file name in front.
var (
	ErrEmpty         = errors.New("run has no steps")
	ErrUnknownFormat = errors.New("unknown format")
	// ErrManyRuns: the file holds several traces and one was asked for.
	ErrManyRuns = errors.New("the file holds several runs")
	// ErrNoTrace: FILE#TRACEID names a trace the file does not hold.
	ErrNoTrace = errors.New("no such trace")
	// ErrAmbiguous: the file has the marks of two formats and none was named.
	ErrAmbiguous = errors.New("ambiguous format")
)

// Options change how a file is read. Question and GroundTruth, when set,
// override what the file says.
type Options struct {
	Format      Format
	Question    string
	GroundTruth string
	// NoGroundTruth drops the correct answer, whatever the file or
	// GroundTruth say: the "without ground truth" setting, decided here once
	// so that no later stage can see the answer.
	NoGroundTruth bool
	// Labels are decisive faults given beside telemetry files (--labels),
	// by trace; they win over offattr.mistake attributes in the file.
	Labels SpanLabels
	// LabelsFile is the file Labels were read from: one that also sits
	// among the files read is the labels, not a run, and is skipped.
	LabelsFile string
	// MaxInput is the most bytes one input may hold; a larger one is
	// refused (ErrTooLarge) before it is read whole. 0 means no limit.
	MaxInput int64
	// Stdin is what the path "-" reads; nil means os.Stdin.
	Stdin io.Reader
	// path is the file being read, for the files a format keeps beside it
	// (a Claude Code session's sub-agents); empty for standard input and
	// bytes read otherwise.
	path string
}

// Load reads and parses one run file. A label the file carries is dropped:
// use LoadCase to score against it. A telemetry file holding several
// traces is read as FILE#TRACEID; LoadAll reads all of them.
func Load(path string, opts Options) (*Run, error) {
	c, err := LoadCase(path, opts)
	if err != nil {
		return nil, err
	}
	return c.Run, nil
}

// LoadCase reads one run file with its label, if it has one. The path "-"
// reads opts.Stdin.
func LoadCase(path string, opts Options) (*Case, error) {
	return LoadOne(context.Background(), path, opts)
}

// LoadOne is LoadCase stopping when ctx ends, as LoadAll does.
func LoadOne(ctx context.Context, path string, opts Options) (*Case, error) {
	cases, err := LoadAll(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	return one(path, cases)
}

// one is the only case of cases, or an error wrapping ErrManyRuns that
// lists the traces.
func one(name string, cases []*Case) (*Case, error) {
	if len(cases) > 1 {
		return nil, fmt.Errorf("load %s: %w", name, manyRuns(cases))
	}
	return cases[0], nil
}

// LoadAll reads every run of a file: one for a Who&When case or a
// transcript, one per trace for telemetry (in the order the file first
// mentions each), or the one trace FILE#TRACEID names. Reading a large
// file takes seconds; when ctx ends, LoadAll returns at once with its
// error, and the reading it leaves behind ends by itself (the parsers
// check ctx as they go; a read of a file or a pipe runs to its end).
func LoadAll(ctx context.Context, path string, opts Options) ([]*Case, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type loaded struct {
		cases []*Case
		err   error
	}
	done := make(chan loaded, 1)
	go func() {
		cases, err := loadAll(ctx, path, opts)
		done <- loaded{cases, err}
	}()
	select {
	case l := <-done:
		return l.cases, l.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func loadAll(ctx context.Context, path string, opts Options) ([]*Case, error) {
	file, trace := SplitRef(path)
	if file != Stdin && sqliteFile(file) {
		// A database is opened where it is, not read into memory.
		cases, err := loadSQLite(ctx, file, opts)
		if err != nil || trace == "" {
			return cases, err
		}
		c, err := pickTrace(file, trace, cases)
		if err != nil {
			return nil, err
		}
		return []*Case{c}, nil
	}
	data, err := read(file, opts)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", file, err)
	}
	if file != Stdin {
		opts.path = file
	}
	if trace != "" {
		c, err := parseTrace(ctx, file, trace, data, opts)
		if err != nil {
			return nil, err
		}
		return []*Case{c}, nil
	}
	return ParseAll(ctx, file, data, opts)
}

// SplitRef splits FILE#TRACEID into the file and the trace id. A path that
// names an existing file is a file, '#' and all.
func SplitRef(path string) (file, trace string) {
	i := strings.LastIndexByte(path, '#')
	if i <= 0 || i == len(path)-1 {
		return path, ""
	}
	if _, err := os.Stat(path); err == nil {
		return path, ""
	}
	return path[:i], path[i+1:]
}

// Ref is the name of one trace of a file: FILE#TRACEID.
func Ref(file, trace string) string { return file + "#" + trace }

// Stdin is the path that names standard input.
const Stdin = "-"

// Parse parses the bytes of one run; name is used in errors and as
// Run.Source. A label is dropped, as by Load.
func Parse(name string, data []byte, opts Options) (*Run, error) {
	c, err := ParseCase(name, data, opts)
	if err != nil {
		return nil, err
	}
	return c.Run, nil
}

// ParseCase is Parse keeping the label. Data holding several traces is an
// error wrapping ErrManyRuns that lists them.
func ParseCase(name string, data []byte, opts Options) (*Case, error) {
	cases, err := ParseAll(context.Background(), name, data, opts)
	if err != nil {
		return nil, err
	}
	return one(name, cases)
}

// ParseAll is LoadAll for bytes in memory.
func ParseAll(ctx context.Context, name string, data []byte, opts Options) ([]*Case, error) {
	cases, err := parse(ctx, data, opts)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", name, err)
	}
	for _, c := range cases {
		if err := finish(c, name, opts); err != nil {
			return nil, err
		}
	}
	return cases, nil
}

// parseTrace reads the one trace of data that trace names.
func parseTrace(ctx context.Context, file, trace string, data []byte, opts Options) (*Case, error) {
	cases, err := ParseAll(ctx, file, data, opts)
	if err != nil {
		return nil, err
	}
	return pickTrace(file, trace, cases)
}

// pickTrace is the case of cases whose trace is trace, read from file.
func pickTrace(file, trace string, cases []*Case) (*Case, error) {
	for _, c := range cases {
		if c.Run.TraceID != "" && strings.EqualFold(c.Run.TraceID, trace) {
			return c, nil
		}
	}
	return nil, fmt.Errorf("load %s: %w %s in this file (it holds %s)", Ref(file, trace), ErrNoTrace, trace, traceList(cases))
}

func manyRuns(cases []*Case) error {
	return fmt.Errorf("%w: %d traces; name one as FILE#TRACEID (%s)", ErrManyRuns, len(cases), traceList(cases))
}

// traceList names the traces of a file, the first few of them.
func traceList(cases []*Case) string {
	var ids []string
	for _, c := range cases {
		if c.Run.TraceID == "" {
			continue
		}
		if len(ids) == 5 {
			ids = append(ids, fmt.Sprintf("and %d more", len(cases)-5))
			break
		}
		ids = append(ids, c.Run.TraceID)
	}
	if len(ids) == 0 {
		return "no traces"
	}
	return strings.Join(ids, ", ")
}

// finish applies the options to a parsed case and numbers its steps.
func finish(c *Case, name string, opts Options) error {
	r := c.Run
	r.Source = name
	if r.TraceID != "" {
		r.Source = Ref(name, r.TraceID)
	}
	if opts.Question != "" {
		r.Question = opts.Question
	}
	if opts.GroundTruth != "" {
		r.GroundTruth = opts.GroundTruth
	}
	if opts.NoGroundTruth {
		r.GroundTruth = ""
	}
	r.Question, r.GroundTruth = plainText(Excerpt(withoutBlobs(r.Question))), plainText(Excerpt(r.GroundTruth))
	r.Instructions = plainText(r.Instructions)
	for i := range r.Steps {
		excerptStep(&r.Steps[i]) // formats whose steps are not messages
		plainStep(&r.Steps[i])
	}
	if len(r.Steps) == 0 {
		return fmt.Errorf("load %s: %w", r.Source, ErrEmpty)
	}
	names := interner{}
	for i := range r.Steps {
		s := &r.Steps[i]
		s.Index = i
		s.Agent, s.Role = names.of(stepAgent(s.Agent, s.Role)), names.of(s.Role)
		// The loaders made each step's Extra (or none): it is changed in
		// place, and let go where it holds nothing.
		s.Trim()
		if e := s.Extra; e != nil {
			e.Target, e.TraceID, e.From = names.of(plainName(e.Target)), names.of(e.TraceID), names.of(e.From)
		}
	}
	return nil
}

// stepAgent is a step's agent as later stages read it, its name's plain
// text (plainName); the step's role when that leaves nothing of a name the
// file gave, as for a step that names no agent of its own.
func stepAgent(agent, role string) string {
	if agent == "" {
		return agent
	}
	if name := plainName(agent); name != "" {
		return name
	}
	return role
}

// interner keeps one copy of each string it is given. The decoder gives
// every step its own copy of its agent's and role's names (and of its
// trace id, and where its text was read from), which a long run repeats on
// every step: it keeps one copy of each of its few names.
type interner map[string]string

// of returns the copy of s kept, keeping s if it is the first.
func (in interner) of(s string) string {
	if s == "" {
		return s
	}
	if kept, ok := in[s]; ok {
		return kept
	}
	in[s] = s
	return s
}
