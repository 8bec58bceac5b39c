package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/offattr/offattr/run/spans"
)

// Format names an input format.
type Format string

const (
	FormatAuto       Format = "auto"
	FormatWhoWhen    Format = "whowhen"    // {"question","ground_truth","history":[...]} as in the Who&When benchmark
	FormatTranscript Format = "transcript" // chat messages: array, JSONL, or {"messages":[...]}
	// Telemetry: every trace of the file is one run (see telemetry.go).
	FormatOTLP          = Format(spans.OTLP)          // OTLP/JSON as the Collector's file exporter writes it
	FormatTempo         = Format(spans.Tempo)         // Grafana Tempo's trace download
	FormatJaeger        = Format(spans.Jaeger)        // Jaeger UI/API JSON
	FormatOpenInference = Format(spans.OpenInference) // flat span lists: Phoenix, Arize, OpenInference, MLflow
	FormatLangfuse      = Format(spans.Langfuse)      // Langfuse trace exports
)

// Formats lists the formats a user may force with --format.
var Formats = []Format{FormatAuto, FormatWhoWhen, FormatTranscript, FormatOTLP, FormatTempo, FormatJaeger, FormatOpenInference, FormatLangfuse}

// ParseFormat checks a --format value. "phoenix" and "mlflow" name the
// flat span lists too: Phoenix is where most of them come from, and an
// MLflow trace is one, inside {"info", "data": {"spans"}}.
func ParseFormat(s string) (Format, error) {
	if s == "phoenix" || s == "mlflow" {
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
	// MaxInput is the most bytes one input may hold; a larger one is
	// refused (ErrTooLarge) before it is read whole. 0 means no limit.
	MaxInput int64
	// Stdin is what the path "-" reads; nil means os.Stdin.
	Stdin io.Reader
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
	cases, err := LoadAll(context.Background(), path, opts)
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
	data, err := read(file, opts)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", file, err)
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

// read reads a whole input, refusing one over opts.MaxInput: a regular
// file by its size before reading, anything else once it has passed the
// limit, so that a huge input costs neither the time nor the memory to
// read it.
func read(path string, opts Options) ([]byte, error) {
	if path == Stdin {
		in := opts.Stdin
		if in == nil {
			in = os.Stdin
		}
		return readAll(in, 0, opts.MaxInput)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, PathCause(err)
	}
	defer f.Close()
	var size int64
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
		if opts.MaxInput > 0 && size > opts.MaxInput {
			return nil, &TooLargeError{Size: size, Limit: opts.MaxInput}
		}
	}
	return readAll(f, size, opts.MaxInput)
}

// readAll reads r to its end. With the size known it reads into one
// buffer of that size, as os.ReadFile does (growing by doubling would
// briefly hold twice the input); max > 0 stops it one byte past max.
func readAll(r io.Reader, size, max int64) ([]byte, error) {
	if max > 0 {
		r = io.LimitReader(r, max+1)
	}
	n := int64(512)
	if size > 0 {
		n = size + 1 // room to see EOF without growing
	}
	if max > 0 {
		n = min(n, max+1)
	}
	buf := make([]byte, 0, n)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if max > 0 && int64(len(buf)) > max {
			return nil, &TooLargeError{Size: -1, Limit: max}
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, PathCause(err)
		}
	}
}

// ErrTooLarge is what TooLargeError is.
var ErrTooLarge = errors.New("input too large")

// TooLargeError is an input over Options.MaxInput. Its message names the
// --max-input flag, which every command that reads runs has, because the
// error reaches the user through libraries (eval) that know no flags.
type TooLargeError struct {
	Size  int64 // -1 when the input was not read to its end
	Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("input is larger than the %s limit; raise --max-input to read it", FormatSize(e.Limit))
	}
	return fmt.Sprintf("input is %s, larger than the %s limit; raise --max-input to read it", FormatSize(e.Size), FormatSize(e.Limit))
}

// Is makes errors.Is(err, ErrTooLarge) true.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// FormatSize writes a byte count as people read it, in powers of 1024:
// "512 B", "3.5 KiB", "256 MiB", "1.2 GiB".
func FormatSize(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	v, u := float64(n), 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if u == 0 || v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), units[u])
	}
	return fmt.Sprintf("%.1f %s", v, units[u])
}

// PathCause strips the *fs.PathError around err: callers name the file in
// their own message, and "load x: open x: no such file" would say it twice.
func PathCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

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
	r.Question, r.GroundTruth = Excerpt(r.Question), Excerpt(r.GroundTruth)
	for i := range r.Steps {
		excerptStep(&r.Steps[i]) // formats whose steps are not messages
	}
	if len(r.Steps) == 0 {
		return fmt.Errorf("load %s: %w", r.Source, ErrEmpty)
	}
	for i := range r.Steps {
		r.Steps[i].Index = i
	}
	return nil
}

func parse(ctx context.Context, data []byte, opts Options) ([]*Case, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, errors.New("file is empty")
	}
	format := opts.Format
	if format == "" || format == FormatAuto {
		if f := spans.Detect(trimmed); f != "" {
			format = Format(f)
		}
		if err := ambiguous(trimmed, format); err != nil {
			return nil, err
		}
	}
	if isTelemetry(format) {
		return telemetry(ctx, data, spans.Format(format), opts.Labels)
	}
	c, err := parseOne(trimmed, data, format)
	if err != nil {
		return nil, err
	}
	return []*Case{c}, nil
}

// formatKeys are top-level keys that each say a file is in one format.
var formatKeys = []struct {
	key    string
	format Format
}{
	{"resourceSpans", FormatOTLP}, {"resource_spans", FormatOTLP}, {"batches", FormatTempo},
	{"observations", FormatLangfuse}, {"history", FormatWhoWhen}, {"messages", FormatTranscript},
}

// ambiguous refuses a file whose top-level object has the keys of two
// formats (a Who&When "history" beside OTLP's "resourceSpans"): reading it
// as either would drop the other without a word.
func ambiguous(data []byte, detected Format) error {
	if data[0] != '{' {
		return nil
	}
	claims := map[Format]string{}
	var order []Format
	claim := func(f Format, why string) {
		if _, ok := claims[f]; !ok {
			claims[f] = why
			order = append(order, f)
		}
	}
	keys := spans.TopKeys(data, 64)
	for _, k := range keys {
		for _, fk := range formatKeys {
			if k == fk.key {
				claim(fk.format, fmt.Sprintf("%q", k))
			}
		}
	}
	if isTelemetry(detected) {
		claim(detected, "its layout")
	}
	if len(order) < 2 {
		return nil
	}
	var parts []string
	for _, f := range order {
		parts = append(parts, fmt.Sprintf("%s (%s)", f, claims[f]))
	}
	return fmt.Errorf("%w: the file matches %d formats, %s; name the one to read with --input-format", ErrAmbiguous, len(order), strings.Join(parts, ", "))
}

func parseOne(trimmed, data []byte, format Format) (*Case, error) {
	if format == "" {
		format = FormatAuto
	}
	switch trimmed[0] {
	case '[':
		if format == FormatWhoWhen {
			return nil, errors.New("a Who&When file is a JSON object, this is an array")
		}
		var msgs []message
		if err := decodeStrict(data, &msgs); err != nil {
			return nil, err
		}
		return caseOf(transcript(msgs, nil))
	case '{':
		// One value is read in place: splitting it into values first would
		// copy a large file twice more. Only a file that is not one value
		// (the decoder checks the whole file before it decodes anything,
		// and says so with a syntax error) is split.
		var o fileObject
		err := json.Unmarshal(data, &o)
		if se := (*json.SyntaxError)(nil); !errors.As(err, &se) {
			return decoded(data, &o, err, format)
		}
		values, err := decodeStream(data)
		if err != nil {
			return nil, err
		}
		if len(values) > 1 {
			if format == FormatWhoWhen {
				return nil, errors.New("a Who&When file holds one JSON object, this holds several (JSONL)")
			}
			msgs := make([]message, len(values))
			for i, v := range values {
				if err := json.Unmarshal(v, &msgs[i]); err != nil {
					return nil, fmt.Errorf("JSONL line %d: %s", lineOfValue(data, i), describeJSONError(v, err))
				}
			}
			return caseOf(transcript(msgs, nil))
		}
		return object(values[0], format)
	default:
		return nil, fmt.Errorf("%w: not JSON (starts with %q)", ErrUnknownFormat, firstRune(trimmed))
	}
}

// object reads a single JSON object: a Who&When case or a transcript with
// messages. One decode reads either: a present "history" or "messages"
// decodes non-nil, even when empty.
func object(data []byte, format Format) (*Case, error) {
	var o fileObject
	return decoded(data, &o, json.Unmarshal(data, &o), format)
}

// decoded is object given data decoded into o, with the decoder's error.
func decoded(data []byte, o *fileObject, err error, format Format) (*Case, error) {
	if err != nil {
		return nil, errors.New(describeJSONError(data, err))
	}
	switch {
	case format == FormatWhoWhen || (format == FormatAuto && o.History != nil):
		if o.History == nil {
			return nil, errors.New(`not a Who&When case: no "history" field`)
		}
		return o.whoWhen()
	case o.Messages != nil:
		return caseOf(transcript(o.Messages, o))
	case format == FormatTranscript:
		var m message
		if err := decodeStrict(data, &m); err != nil {
			return nil, err
		}
		return caseOf(transcript([]message{m}, nil))
	default:
		return nil, fmt.Errorf(`%w: a JSON object with neither "history" (Who&When) nor "messages" (transcript), nor a trace layout (its keys: %s)`, ErrUnknownFormat, strings.Join(spans.TopKeys(data, 12), ", "))
	}
}

// fileObject is every field either object format carries. "task" is read
// raw: a Who&When file may use it for anything.
type fileObject struct {
	Question       string          `json:"question"`
	Task           json.RawMessage `json:"task"`
	GroundTruth    json.RawMessage `json:"ground_truth"`
	ExpectedAnswer json.RawMessage `json:"expected_answer"`
	History        []message       `json:"history"`
	Messages       []message       `json:"messages"`
	MistakeAgent   string          `json:"mistake_agent"`
	MistakeStep    json.RawMessage `json:"mistake_step"`
	MistakeReason  string          `json:"mistake_reason"`
}

func (o *fileObject) whoWhen() (*Case, error) {
	r := &Run{Format: FormatWhoWhen, Question: strings.TrimSpace(o.Question), GroundTruth: scalarString(o.GroundTruth)}
	r.Steps = make([]Step, 0, len(o.History))
	for i, m := range o.History {
		s, err := m.step()
		if err != nil {
			return nil, fmt.Errorf("history[%d]: %w", i, err)
		}
		r.Steps = append(r.Steps, s)
	}
	if o.MistakeAgent != "" || len(o.MistakeStep) > 0 {
		step, err := strconv.Atoi(scalarString(o.MistakeStep))
		if err != nil {
			return nil, fmt.Errorf("mistake_step %s is not a step index", string(o.MistakeStep))
		}
		return &Case{Run: r, Label: &Label{Agent: o.MistakeAgent, Step: step, Reason: o.MistakeReason}}, nil
	}
	return &Case{Run: r}, nil
}

// caseOf wraps an unlabelled run.
func caseOf(r *Run, err error) (*Case, error) {
	if err != nil {
		return nil, err
	}
	return &Case{Run: r}, nil
}

func transcript(msgs []message, meta *fileObject) (*Run, error) {
	r := &Run{Format: FormatTranscript, Steps: make([]Step, 0, len(msgs))}
	if meta != nil {
		r.Question = strings.TrimSpace(firstNonEmpty(meta.Question, scalarString(meta.Task)))
		r.GroundTruth = firstNonEmpty(scalarString(meta.GroundTruth), scalarString(meta.ExpectedAnswer))
	}
	for i, m := range msgs {
		s, err := m.step()
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
		r.Steps = append(r.Steps, s)
	}
	if r.Question == "" {
		for _, s := range r.Steps {
			if s.Kind == KindUser {
				r.Question = strings.TrimSpace(s.Content)
				break
			}
		}
	}
	return r, nil
}

// message is the union of the message shapes we read: Who&When history
// entries and OpenAI / AutoGen / AG2 chat messages.
type message struct {
	Role         string        `json:"role"`
	Name         string        `json:"name"`
	Content      content       `json:"content"`
	ToolCalls    []rawToolCall `json:"tool_calls"`
	FunctionCall *rawFunction  `json:"function_call"`
	ToolCallID   string        `json:"tool_call_id"`
}

type rawToolCall struct {
	ID       string      `json:"id"`
	Function rawFunction `json:"function"`
}

type rawFunction struct {
	Name      string    `json:"name"`
	Arguments arguments `json:"arguments"`
}

// content is a message's content, decoded to text (contentText) where the
// decoder meets it: kept raw to be decoded later, every message would be
// copied once more. What is wrong with it waits in err, so that a bad
// message is still reported after the whole file has decoded, by its
// index.
type content struct {
	text string
	err  error
}

func (c *content) UnmarshalJSON(data []byte) error {
	c.text, c.err = contentText(excerptRawString(data))
	return nil
}

// arguments is a call's arguments as text (scalarString), decoded where
// the decoder meets them, as content is.
type arguments string

func (a *arguments) UnmarshalJSON(data []byte) error {
	*a = arguments(scalarString(excerptRawString(data)))
	return nil
}

// magenticRole matches Magentic-One roles such as "Orchestrator (-> WebSurfer)".
var magenticRole = regexp.MustCompile(`^\s*(.+?)\s*\(\s*(.*?)\s*\)\s*$`)

// magenticParts returns magenticRole's submatches of a trimmed role, nil if
// it does not match. A trimmed role matches only if it ends in ")": most
// roles are plain names that the regexp need not read.
func magenticParts(role string) []string {
	if !strings.HasSuffix(role, ")") {
		return nil
	}
	return magenticRole.FindStringSubmatch(role)
}

func (m message) step() (Step, error) {
	if m.Content.err != nil {
		return Step{}, m.Content.err
	}
	s := Step{Role: m.Role, Content: Excerpt(m.Content.text), ToolCallID: m.ToolCallID, Kind: KindMessage}
	for _, tc := range m.ToolCalls {
		s.ToolCalls = append(s.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: string(tc.Function.Arguments)})
	}
	if m.FunctionCall != nil {
		s.ToolCalls = append(s.ToolCalls, ToolCall{Name: m.FunctionCall.Name, Arguments: string(m.FunctionCall.Arguments)})
	}
	role := strings.TrimSpace(m.Role)
	agent := strings.TrimSpace(m.Name)
	if sm := magenticParts(role); sm != nil {
		role = sm[1]
		detail := strings.ToLower(sm[2])
		switch {
		case strings.HasPrefix(detail, "->"):
			s.Kind = KindInstruction
			s.Target = strings.TrimSpace(sm[2][2:])
		case strings.HasPrefix(detail, "thought"):
			s.Kind = KindThought
		case strings.HasPrefix(detail, "termination"):
			s.Kind = KindTermination
		}
	}
	if agent == "" {
		agent = role
	}
	if agent == "" {
		return Step{}, errors.New(`message has neither "name" nor "role"`)
	}
	s.Agent = agent
	if s.Kind == KindMessage {
		switch {
		case isUserRole(role):
			// In group chats (AutoGen) every agent but the speaker is "user";
			// only a message without a name of its own (none, or its role
			// again) is the task giver.
			if m.Name == "" || AgentKey(m.Name) == AgentKey(role) {
				s.Kind = KindUser
			}
		case strings.EqualFold(role, "system"):
			s.Kind = KindSystem
		case strings.EqualFold(role, "tool"), strings.EqualFold(role, "function"):
			s.Kind = KindToolResult
		}
		if len(s.ToolCalls) > 0 {
			s.Kind = KindToolCall
		}
	}
	return s, nil
}

// isUserRole reports whether a role is the human's.
func isUserRole(role string) bool {
	return strings.EqualFold(role, "user") || strings.EqualFold(role, "human")
}

// contentText accepts a string, null, or OpenAI content parts.
func contentText(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	switch raw[0] {
	case '"':
		if s, ok := unquoteString(raw); ok {
			return s, nil
		}
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	case '[':
		var parts []json.RawMessage
		if err := json.Unmarshal(raw, &parts); err != nil {
			return "", err
		}
		var texts []string
		for _, p := range parts {
			var part struct {
				Type string `json:"type"`
				Text string `json:"text"`
			}
			if bytes.HasPrefix(bytes.TrimSpace(p), []byte(`"`)) {
				var s string
				if err := json.Unmarshal(p, &s); err != nil {
					return "", err
				}
				texts = append(texts, s)
				continue
			}
			if err := json.Unmarshal(p, &part); err != nil {
				return "", fmt.Errorf("content part: %w", err)
			}
			if part.Text != "" {
				texts = append(texts, part.Text)
			} else if part.Type != "" && part.Type != "text" {
				texts = append(texts, "["+part.Type+"]")
			}
		}
		return strings.Join(texts, "\n"), nil
	default:
		return "", fmt.Errorf("content is %s, want a string or a list of parts", jsonKind(raw[0]))
	}
}

// unquoteString decodes the JSON string literal raw when it holds valid UTF-8
// and no escapes but \n, \t, \r, \b, \f, \", \\ and \/, as most
// messages do; ok is false otherwise (\u escapes, invalid UTF-8, anything
// json.Unmarshal would refuse), and json.Unmarshal decodes it. A message
// was checked with the whole file, and json.Unmarshal would check it
// again, byte by byte, before reading it.
func unquoteString(raw []byte) (s string, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' || !utf8.Valid(raw) {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	// b has no buffer while body needs no decoding. Built in a Builder,
	// the text is not copied once more into a string: it is most of a
	// file's bytes.
	var b strings.Builder
	plain := 0 // body[plain:i] is text not yet written to b
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c < 0x20 || c == '"':
			return "", false
		case c != '\\':
			continue
		}
		if b.Cap() == 0 {
			b.Grow(len(body))
		}
		b.Write(body[plain:i])
		if i++; i == len(body) {
			return "", false
		}
		switch c := body[i]; c {
		case '"', '\\', '/':
			b.WriteByte(c)
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		default:
			return "", false
		}
		plain = i + 1
	}
	if b.Cap() == 0 {
		return string(body), true
	}
	b.Write(body[plain:])
	return b.String(), true
}

func jsonKind(b byte) string {
	switch b {
	case '{':
		return "an object"
	case 't', 'f':
		return "a boolean"
	default:
		return "a number"
	}
}

// scalarString renders a JSON scalar (string, number, bool) as plain text.
func scalarString(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	return string(raw)
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func firstRune(b []byte) string {
	s := string(b)
	for _, r := range s {
		return string(r)
	}
	return ""
}

// decodeStrict decodes exactly one JSON value and reports syntax errors with
// their line and column.
func decodeStrict(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return errors.New(describeJSONError(data, err))
	}
	return nil
}

// decodeStream splits a file into its top-level JSON values (one for a plain
// JSON file, many for JSONL).
func decodeStream(data []byte) ([]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var out []json.RawMessage
	for {
		var v json.RawMessage
		err := dec.Decode(&v)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				return nil, errors.New(describeJSONError(data, err))
			}
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, errors.New(describeJSONError(data, err))
			}
			return nil, err
		}
		out = append(out, v)
	}
}

// describeJSONError is spans.JSONError on the whole of data, as text.
func describeJSONError(data []byte, err error) string {
	return spans.JSONError(data, 0, len(data), err).Error()
}

// lineOfValue returns the line on which the i-th top-level value of a JSONL
// file starts.
func lineOfValue(data []byte, i int) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	for n := 0; ; n++ {
		start := dec.InputOffset()
		var v json.RawMessage
		if dec.Decode(&v) != nil || n == i {
			// InputOffset is before any whitespace preceding the value.
			rest := data[start:]
			skip := len(rest) - len(bytes.TrimLeft(rest, " \t\r\n"))
			line, _ := spans.Position(data, int(start)+skip)
			return line
		}
	}
}
