package run

// Which format a file is in, when the user does not say.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/offattr/offattr/run/spans"
)

// parse reads the runs of data, in the format opts names or the one
// data shows.
func parse(ctx context.Context, data []byte, opts Options) ([]*Case, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	data = terminalFile(data)
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, errors.New("file is empty")
	}
	format := opts.Format
	auto := format == "" || format == FormatAuto
	if spans.Binary(data) && (auto || format == FormatOTLP || format == FormatTempo) {
		// A binary file is read as it is (trimming white space would cut
		// a protobuf's first tag, a line feed), and decoded once: as
		// OTLP's protobuf, else, when no format was named, as the text it
		// is not, which is refused below.
		all, err := spans.DecodeOTLPProto(ctx, data)
		named := spans.Format(format)
		if auto {
			named = spans.OTLP
		}
		switch {
		case err == nil:
			return traces(ctx, all, named, opts.Labels)
		case !auto || !errors.Is(err, spans.ErrNotOTLPProto):
			return nil, err
		}
	}
	if spans.IsParquet(data) && (auto || isTelemetry(format) || format == FormatTranscript) {
		rows, err := spans.ParquetRows(data)
		if err != nil {
			return nil, err
		}
		if !auto && isTelemetry(format) {
			return telemetry(ctx, rows, spans.Format(format), opts.Labels)
		}
		cs, ok, err := rowsFrame(ctx, rows, "a Parquet file's rows", opts)
		if !ok {
			return nil, fmt.Errorf("%w: a Parquet file whose rows are neither spans nor chat messages offattr knows", ErrUnknownFormat)
		}
		return cs, err
	}
	if auto && !spans.Binary(trimmed) {
		// A trace file with a label beside its own members, or on a line
		// of its own.
		if rest, label, ok := traceLabelWrapper(trimmed); ok {
			if f := spans.Detect(rest); f != "" && isTelemetry(Format(f)) {
				cs, err := telemetry(ctx, rest, f, opts.Labels)
				if err != nil {
					return nil, err
				}
				return labelTraceCases(cs, label)
			}
			if cs, ok, err := frame(ctx, rest, opts); ok && (err != nil || cs[0].Run.TraceID != "") {
				if err != nil {
					return nil, err
				}
				return labelTraceCases(cs, label)
			}
		}
	}
	if auto {
		// Binary data is no OTLP protobuf by now: Detect would only try
		// that again.
		if !spans.Binary(trimmed) {
			if f := spans.Detect(trimmed); f != "" {
				format = Format(f)
			}
		}
		if err := ambiguous(trimmed, format); err != nil {
			return nil, err
		}
	}
	if isTelemetry(format) {
		if !auto && spans.Detect(trimmed) == "" {
			// Named by the user, in a layout of no trace format: a data
			// frame of its spans is read as them.
			for fr := range spans.Frames(trimmed) {
				if spans.Detect(fr.Rows) == spans.Format(format) {
					return telemetry(ctx, fr.Rows, spans.Format(format), opts.Labels)
				}
			}
			if rows, ok := spans.TableRows(trimmed); ok && spans.Detect(rows) == spans.Format(format) {
				return telemetry(ctx, rows, spans.Format(format), opts.Labels)
			}
		}
		cs, err := telemetry(ctx, data, spans.Format(format), opts.Labels)
		if err != nil {
			return nil, err
		}
		return labelBeside(trimmed, cs)
	}
	if c, ok, err := sessionLog(trimmed, format, opts); ok {
		if err != nil {
			return nil, err
		}
		return []*Case{c}, nil
	}
	if auto {
		if c, ok, err := cliSession(trimmed); ok {
			if err != nil {
				return nil, err
			}
			return []*Case{c}, nil
		}
		if cs, ok, err := chatAppRuns(trimmed); ok {
			return cs, err
		}
	}
	if cs, ok, err := evaluationRecords(trimmed, format); ok {
		return cs, err
	}
	if cs, ok, err := solutionRecords(trimmed, format); ok {
		return cs, err
	}
	if auto && chatDevLogHead(trimmed) {
		// ChatDev's log, whose records begin with a bracket as a JSON
		// array does.
		if c, ok := chatDevLog(trimmed); ok {
			return []*Case{c}, nil
		}
		return nil, errors.New("ChatDev log: no turn says anything after its role prompt")
	}
	if auto {
		if c, ok, err := protocolLog(trimmed); ok {
			if err != nil {
				return nil, fmt.Errorf("protocol log: %w", err)
			}
			return []*Case{c}, nil
		}
	}
	var c *Case
	var err error
	if trimmed[0] == '[' && format != FormatWhoWhen {
		// A CAMEL Workforce's log, a run for each task it processed; any
		// other list is read as parseOne reads it past that try.
		if cs, ok := workforceLog(trimmed); ok {
			return cs, nil
		}
		c, err = messageList(data)
	} else {
		c, err = parseOne(trimmed, data, format)
	}
	if errors.Is(err, ErrUnknownFormat) && auto {
		if cs, ok, herr := harnessRecords(trimmed); ok {
			return cs, herr
		}
		if c, ok, herr := harnessTrajectory(trimmed); ok {
			return []*Case{c}, herr
		}
		if cs, ok, cerr := codingRuns(trimmed); ok {
			return cs, cerr
		}
		if cs, ok, derr := agentContexts(trimmed); ok {
			return cs, derr
		}
		if cs, ok, berr := bfclRecords(trimmed); ok {
			return cs, berr
		}
		if c, ok := crewAILog(trimmed); ok {
			return []*Case{c}, nil
		}
		if cs, ok := metaGPTLog(trimmed); ok {
			return cs, nil
		}
		if c, ok, aerr := agentOpsSession(trimmed); ok {
			return []*Case{c}, aerr
		}
		if cs, ok, ferr := frame(ctx, trimmed, opts); ok {
			return cs, ferr
		}
		if cs, ok, ferr := tableFrame(ctx, trimmed, opts); ok {
			return cs, ferr
		}
		if cs, ok := amongText(ctx, trimmed, opts); ok {
			return cs, nil
		}
	}
	if err != nil {
		return nil, err
	}
	return []*Case{c}, nil
}

// sessionLog reads data as the coding agent's session log that format
// names, or, when it names none, that data's records show; ok is false
// when it is none.
func sessionLog(data []byte, format Format, opts Options) (c *Case, ok bool, err error) {
	if format == "" || format == FormatAuto {
		format = sessionLogFormat(data)
	}
	switch format {
	case FormatClaudeCode:
		c, err = claudeCode(data, opts.path, opts)
	case FormatCodex:
		c, err = codex(data, opts.path, opts)
	case FormatAider:
		c, err = aider(data)
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, true, fmt.Errorf("%s session log: %w", format, err)
	}
	return c, true, nil
}

// amongText reads a file that starts with a line of text, no JSON, as the
// spans among its lines (spans.AmongText), as a program that prints its
// spans to standard output beside its own lines writes it. ok is false
// when the file holds no spans so, or they do not read. Only such a file
// is tried: a file that starts with JSON is read as a whole, and a reading
// after its failure would keep the whole file in memory while it is read.
func amongText(ctx context.Context, data []byte, opts Options) ([]*Case, bool) {
	spansOnly, ok := spans.AmongText(data)
	if !ok {
		return nil, false
	}
	f := spans.Detect(bytes.TrimSpace(spansOnly))
	if f == "" || !isTelemetry(Format(f)) {
		return nil, false
	}
	cs, err := telemetry(ctx, spansOnly, f, opts.Labels)
	return cs, err == nil
}

// frame reads a file of no known layout as a data frame's rows
// (spans.Frames): the first reading whose rows are spans of a trace format,
// or a transcript's messages. ok is false when no reading is either.
func frame(ctx context.Context, data []byte, opts Options) (cases []*Case, ok bool, err error) {
	for fr := range spans.Frames(data) {
		if f := spans.Detect(fr.Rows); f != "" {
			cs, err := telemetry(ctx, fr.Rows, f, opts.Labels)
			if err != nil {
				return nil, true, fmt.Errorf("read as a data frame's rows (%s orient): %w", fr.Orient, err)
			}
			return cs, true, nil
		}
		if c, err := parseOne(fr.Rows, fr.Rows, FormatAuto); err == nil {
			return []*Case{c}, true, nil
		}
	}
	return nil, false, nil
}

// tableFrame reads a file written as a CSV or TSV table (pandas' to_csv,
// a tool's table export) as its rows (spans.TableRows), as frame reads a
// frame written as JSON. ok is false when it is no table, or its rows are
// neither spans nor messages.
func tableFrame(ctx context.Context, data []byte, opts Options) (cases []*Case, ok bool, err error) {
	rows, ok := spans.TableRows(data)
	if !ok {
		return nil, false, nil
	}
	return rowsFrame(ctx, rows, "a table's rows", opts)
}

// rowsFrame reads rows (a JSON array of objects, what, a frame's rows
// read from another layout) as spans of a trace format, or as a
// transcript's messages; ok is false when they are neither.
func rowsFrame(ctx context.Context, rows []byte, what string, opts Options) (cases []*Case, ok bool, err error) {
	if f := spans.Detect(rows); f != "" {
		cs, err := telemetry(ctx, rows, f, opts.Labels)
		if err != nil {
			return nil, true, fmt.Errorf("read as %s: %w", what, err)
		}
		return cs, true, nil
	}
	if c, err := parseOne(rows, rows, FormatAuto); err == nil {
		return []*Case{c}, true, nil
	}
	return nil, false, nil
}

// formatKeys are top-level keys that each say a file is in one format.
var formatKeys = []struct {
	key    string
	format Format
}{
	{"resourceSpans", FormatOTLP}, {"resource_spans", FormatOTLP}, {"resourceLogs", FormatOTLP}, {"resource_logs", FormatOTLP}, {"batches", FormatTempo},
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
			// A model call's record holds its request's messages (LiteLLM's
			// logs, Humanloop's): no transcript beside the call.
			if k == fk.key && !(detected == FormatCalls && fk.format == FormatTranscript) {
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

// messageList reads data, a JSON array that is no CAMEL Workforce log,
// as a list of messages, or as the dump its error points to.
func messageList(data []byte) (*Case, error) {
	var msgs []message
	if err := json.Unmarshal(data, &msgs); err != nil {
		if c, ok, derr := dumpAfter(data, err); ok {
			return c, derr
		}
		return nil, notMessages(data, err)
	}
	return chat(msgs, data)
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
		if cs, ok := workforceLog(trimmed); ok {
			// A CAMEL Workforce's log held in an object beside its label.
			if len(cs) > 1 {
				return nil, fmt.Errorf("a CAMEL Workforce log of %d tasks: a label beside it labels none of them; give each task's log an object of its own", len(cs))
			}
			return cs[0], nil
		}
		return messageList(data)
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
			if rest, meta := withoutLabelRecord(values); meta != nil {
				// A label given as a record of its own: the run is the
				// other records, the label beside them.
				joined := bytes.Join(toBytes(rest), []byte("\n"))
				c, err := parseOne(joined, joined, format)
				if err != nil || c.Label != nil {
					return c, err
				}
				return meta.labelled(c.Run)
			}
			if format == FormatWhoWhen {
				return nil, errors.New("a Who&When file holds one JSON object, this holds several (JSONL)")
			}
			msgs := make([]message, len(values))
			for i, v := range values {
				if err := json.Unmarshal(v, &msgs[i]); err != nil {
					if c, ok, derr := dumpAfter(data, err); ok {
						return c, derr
					}
					var te *json.UnmarshalTypeError
					if errors.As(err, &te) && te.Field == "" {
						return nil, fmt.Errorf("%w: JSONL line %d is a JSON %s, neither a chat message nor a span", ErrUnknownFormat, lineOfValue(data, i), te.Value)
					}
					return nil, fmt.Errorf("JSONL line %d: %w", lineOfValue(data, i), jsonError(v, err))
				}
			}
			return chat(msgs, data)
		}
		return object(values[0], format)
	default:
		if js, ok, err := taskWeaverYAML(data); ok {
			// A TaskWeaver conversation kept as YAML, read as its JSON.
			if err != nil {
				return nil, err
			}
			return parseOne(js, js, format)
		}
		if what := fileKind(bytes.TrimLeft(data, " \r\n")); what != "" {
			return nil, fmt.Errorf("%w: %s", ErrUnknownFormat, what)
		}
		return nil, fmt.Errorf("%w: not JSON (starts with %q)", ErrUnknownFormat, firstRune(trimmed))
	}
}

// fileKinds are kinds of file that hold runs in a form offattr does not
// read, by how they begin, and what to read instead.
var fileKinds = []struct {
	magic, what string
}{
	{"PAR1", "a Parquet file cut short: it does not end as a whole one does"},
	{"SQLite format 3\x00", "an SQLite database, read from its file only: name the database's file, not compressed (AutoGen's runtime log, Phoenix's phoenix.db), or export the traces as JSON (MLflow's search_traces) and read that"},
	{"PK\x03\x04", "a ZIP archive: unpack it and read the files it holds"},
	{"\x28\xb5\x2f\xfd", "compressed with zstd: decompress it first (gzip is read as it is)"},
	{"\xfd7zXZ\x00", "compressed with xz: decompress it first (gzip is read as it is)"},
	{"BZh", "compressed with bzip2: decompress it first (gzip is read as it is)"},
}

// fileKind names what data, a file that is no JSON, holds when it is a
// kind of file that keeps runs in another form (fileKinds, a saved web
// page), with what to read instead, or a table whose rows did not read as
// runs; "" otherwise.
func fileKind(data []byte) string {
	if spans.IsParquet(data) {
		return "a Parquet file, read as a frame of spans or messages only (a trace format or transcript, or no --input-format)"
	}
	for _, k := range fileKinds {
		if bytes.HasPrefix(data, []byte(k.magic)) && (k.magic != "BZh" || len(data) > 3 && data[3] >= '1' && data[3] <= '9') {
			return k.what
		}
	}
	head := bytes.ToLower(data[:min(len(data), 64)])
	if bytes.HasPrefix(head, []byte("<!doctype html")) || bytes.HasPrefix(head, []byte("<html")) {
		return "an HTML page (a trace viewer's page, saved): export the trace as JSON from the tool that shows it and read that"
	}
	if names, sep, ok := spans.TableColumns(data); ok {
		what := "a CSV table"
		if sep == '\t' {
			what = "a TSV table"
		}
		return what + " whose rows are neither spans nor chat messages offattr knows (its columns: " + columnList(names) + ")"
	}
	return ""
}

// columnList lists a table's first columns (or a database's first
// tables), for an error.
func columnList(header []string) string {
	var names []string
	for k, name := range header {
		if k == 6 {
			names = append(names, "…")
			break
		}
		// A name is the file's text: quoted as Go quotes it, no line or
		// control character of its own reaches the error.
		names = append(names, strconv.Quote(name))
	}
	return strings.Join(names, ", ")
}

// notMessages is the error of decoding data, a list of messages: an
// element that is no object at all (a list of lists, of numbers) makes the
// file one of no format offattr knows, not a message with a wrong field.
func notMessages(data []byte, err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field != "" {
		return jsonError(data, err)
	}
	if at := firstNonObject(data); at >= 0 {
		line, col := spans.Position(data, at)
		return fmt.Errorf("%w: a list whose element at line %d, column %d is a JSON %s, neither a chat message nor a span", ErrUnknownFormat, line, col, te.Value)
	}
	return fmt.Errorf("%w: a list whose elements are JSON %ss, neither chat messages nor spans", ErrUnknownFormat, te.Value)
}

// firstNonObject returns the offset at which the first element of the
// array data that is no JSON object starts, or -1.
func firstNonObject(data []byte) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // [
		return -1
	}
	for dec.More() {
		at := int(dec.InputOffset())
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return -1
		}
		// The offset is where the last value ended: past the comma and
		// the blanks before this one.
		for at < len(data) && (data[at] == ',' || data[at] == ' ' || data[at] == '\t' || data[at] == '\n' || data[at] == '\r') {
			at++
		}
		if len(v) > 0 && v[0] != '{' {
			return at
		}
	}
	return -1
}

// chat reads a list of messages (data, an array or one a line) as a
// transcript, when some element is a chat message at all: a list of
// records of no format offattr knows is refused, not read as silent steps.
// An empty list is a transcript with no steps.
func chat(msgs []message, data []byte) (*Case, error) {
	if len(msgs) > 0 && msgs[0].event() {
		return openHandsFile(data)
	}
	if len(msgs) > 0 && (msgs[0].Role == "userMessage" || msgs[0].Role == "apiMessage" || !slices.ContainsFunc(msgs, message.said)) {
		// A low-code platform's messages or node executions (Flowise,
		// Langflow, Dify).
		if c, ok, err := lowCodeCase(data, nil); ok {
			return c, err
		}
	}
	if slices.ContainsFunc(msgs, message.agentScopeMarked) {
		if ms, ok := agentScopeMessages(data); ok {
			// AgentScope's logged messages, an agent's reply as it
			// parsed it, the functions executed as the system's.
			if c, ok, err := dumpCaseOfMessages(ms, nil); ok {
				return c, err
			}
		}
	}
	if slices.ContainsFunc(msgs, message.frameworkEvent) {
		if list, agents, ok := frameworkEvents(data); ok {
			if c, ok, err := dumpCaseOfMessages(agentsMessages(list, agents), nil); ok {
				return c, err
			}
		}
	}
	if len(msgs) > 0 && !slices.ContainsFunc(msgs, message.said) {
		if c, ok := crewAILog(data); ok {
			return c, nil
		}
		if ms, ok := kaibanLogs(data); ok {
			if c, ok, err := dumpCaseOfMessages(ms, nil); ok {
				return c, err
			}
		}
		if ms, ok := stormRun(data); ok {
			// STORM's conversation log alone.
			if c, ok, err := dumpCaseOfMessages(ms, nil); ok {
				return c, err
			}
		}
	}
	if slices.ContainsFunc(msgs, message.dumped) {
		if c, ok, err := dumpCase(data, "", nil); ok {
			return c, err
		}
	}
	if len(msgs) > 0 && !slices.ContainsFunc(msgs, message.said) {
		if list, ok := graphStateMessages(data); ok {
			// A LangGraph thread's history, its checkpoints' states.
			if c, ok, err := dumpCaseOf(list, nil); ok {
				return c, err
			}
		}
		if list, err := anyList(data, ""); err == nil {
			if ms, ok := llamaWorkflowEvents(list); ok {
				// A LlamaIndex agent workflow's events, as its serializer
				// writes them.
				if c, ok, err := dumpCaseOfMessages(ms, nil); ok {
					return c, err
				}
			}
			if _, ok := aiSDKSteps(list); ok {
				// The Vercel AI SDK's steps, as it wrote them before
				// version 5 (text, toolCalls, toolResults).
				if c, ok, err := dumpCaseOf(list, nil); ok {
					return c, err
				}
			}
			if ms, ok := bedrockAgentEvents(list); ok {
				// A Bedrock agent's invocation events, its trace's parts.
				if c, ok, err := dumpCaseOfMessages(ms, nil); ok {
					return c, err
				}
			}
			if list, ok := graphUpdates(list); ok {
				// LangGraph's streamed updates, each a node's.
				if c, ok, err := dumpCaseOf(list, nil); ok {
					return c, err
				}
			}
			if c, ok, err := sourceEvents(list); ok {
				// A log of events naming their sources (Magentic-One's).
				return c, err
			}
			if ms, task, ok := networkChunks(list); ok {
				// An agent network's streamed chunks (Mastra's).
				if c, ok, err := dumpCaseOfMessages(ms, &fileObject{Question: task}); ok {
					return c, err
				}
			}
			if ms, task, ok := flowStates(list); ok {
				// A CrewAI Flow's persisted states, each its method's.
				if c, ok, err := dumpCaseOfMessages(ms, &fileObject{Question: task}); ok {
					return c, err
				}
			}
			if msgs, ok := chatResults(list); ok {
				// AG2's chat results, one chat after another.
				return caseOf(transcript(msgs, nil))
			}
		}
		keys := spans.TopKeys(data, 12)
		if spanLabelKeys(keys) {
			return nil, ErrLabelsFile
		}
		return nil, fmt.Errorf("%w: a list whose elements have no role, content or tool call, and no trace layout (the first element's keys: %s)", ErrUnknownFormat, spans.KeysForError(keys))
	}
	if len(msgs) > 0 && !slices.ContainsFunc(msgs, message.named) {
		if ms, ok := chatArenaHistory(data); ok {
			// A ChatArena history: its records name the player in a
			// field of their own.
			if c, ok, err := dumpCaseOfMessages(ms, nil); ok {
				return c, err
			}
		}
	}
	return caseOf(transcript(msgs, nil))
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
		if c, ok, derr := messagesDumpAfter(data, o, err); ok {
			return c, derr
		}
		if ms, ok := teamLog(data); ok {
			// A framework's saved run whose "messages" are no chat
			// messages (the Assistants API's page of a thread's).
			var fields map[string]any
			_ = json.Unmarshal(data, &fields) // teamLog read it as an object
			if c, ok, derr := dumpCaseOfMessages(ms, labelOf(fields)); ok {
				return c, derr
			}
		}
		if format == FormatAuto {
			// A label beside a run's list under a key a Who&When case
			// or a transcript also uses ("history"), whose elements are
			// another format's: the list read as it would be alone.
			if c, ok, lerr := labelledList(data, format); ok && lerr == nil {
				return c, nil
			}
		}
		return nil, jsonError(data, err)
	}
	o.raw = data
	if format == FormatAuto && slices.ContainsFunc(o.History, message.a2a) {
		// An A2A Task, whose history is its messages' parts.
		if c, ok, err := a2aTask(data, o); ok {
			return c, err
		}
	}
	switch {
	case format == FormatWhoWhen || (format == FormatAuto && o.History != nil):
		if o.History == nil {
			return nil, errors.New(`not a Who&When case: no "history" field`)
		}
		return o.whoWhen()
	case o.Messages != nil:
		if list, fields, ok := studioRunMessages(data); ok {
			// A team's run as AutoGen Studio keeps it; a label beside it
			// is the run's, and its task (a message's config) is the
			// user's first message.
			if c, ok, err := dumpCaseOf(list, labelOf(fields)); ok {
				return c, err
			}
		}
		if ms, ok := agnoTeamRun(data); ok {
			// An Agno team's run, its members' runs among the leader's
			// messages; a label beside them is the run's.
			if c, ok, err := dumpCaseOfMessages(ms, o); ok {
				return c, err
			}
		}
		if slices.ContainsFunc(o.Messages, message.dumped) {
			if c, ok, err := dumpCase(data, "messages", o); ok {
				return c, err
			}
		}
		r, err := transcript(o.Messages, o)
		if err != nil {
			return nil, err
		}
		return o.labelled(r)
	}
	if o.Messages == nil && len(o.Storage) > 0 && !slices.ContainsFunc(o.Storage, func(m message) bool { return !m.said() }) {
		r, err := transcript(o.Storage, o)
		if err != nil {
			return nil, err
		}
		return o.labelled(r)
	}
	if list, ok := sessionTrace(data); ok && o.Messages == nil {
		// A harness's session record, its turns under "trace"; a label
		// beside them is the run's.
		r, err := transcript(list, o)
		if err != nil {
			return nil, err
		}
		return o.labelled(r)
	}
	if c, ok, err := camelChat(data, o); ok {
		return c, err
	}
	if list, ok := graphStateMessages(data); ok {
		// A LangGraph thread's state, whose messages are its values'; a
		// label beside them is the run's.
		if c, ok, err := dumpCaseOf(list, o); ok {
			return c, err
		}
	}
	if list, agents, ok := runStateItems(data); ok {
		// The OpenAI Agents SDK's run state, whose items say their agent.
		if c, ok, err := dumpCaseOfMessages(agentsMessages(list, agents), nil); ok {
			return c, err
		}
	}
	if list, agents, ok := runResultItems(data); ok {
		// The OpenAI Agents SDK's run result (Python's), whose items say
		// their agent; a label beside them is the run's.
		if c, ok, err := dumpCaseOfMessages(agentsMessages(list, agents), o); ok {
			return c, err
		}
	}
	if msgs, ok := chatResultObject(data); ok {
		// One of AG2's chat results; a label beside it is the run's.
		r, err := transcript(msgs, o)
		if err != nil {
			return nil, err
		}
		return o.labelled(r)
	}
	if list, ok := frameworkThread(data); ok {
		// An Agent Framework thread, whose messages are its store's; a
		// label beside them is the run's.
		if c, ok, err := dumpCaseOf(list, o); ok {
			return c, err
		}
	}
	if list, agents, ok := frameworkEvents(data); ok {
		// An Agent Framework workflow's events, whose messages are its
		// agents'; a label beside them is the run's.
		if c, ok, err := dumpCaseOfMessages(agentsMessages(list, agents), o); ok {
			return c, err
		}
	}
	if list, ok := adkSession(data); ok {
		// A Google ADK session, whose messages are its events' contents;
		// a label beside them is the run's.
		if c, ok, err := dumpCaseOf(list, o); ok {
			return c, err
		}
	}
	if list, ok := savedState(data); ok {
		// AutoGen's saved state, whose messages are under its agents'; a
		// label beside them is the run's.
		if c, ok, err := dumpCaseOf(list, o); ok {
			return c, err
		}
	}
	if list, ok := executorMessages(data); ok {
		// An agent executor's result with its intermediate steps; a label
		// beside them is the run's.
		if c, ok, err := dumpCaseOf(list, o); ok {
			return c, err
		}
	}
	if list, ok := aiSDKResult(data); ok {
		// The Vercel AI SDK's generateText result, its steps after the
		// prompt; a label beside them is the run's.
		if c, ok, err := dumpCaseOf(list, o); ok {
			return c, err
		}
	}
	if list, ok := requestMessages(data); ok {
		// A model API's request body or stored response, whose messages
		// are under its own key; a label beside them is the run's.
		if c, ok, err := dumpCaseOf(list, o); ok {
			return c, err
		}
	}
	for _, read := range []func([]byte) ([]message, string, bool){answerTree, teamMemories} {
		// A ToolBench answer, its run the longest of its train_messages,
		// or MetaGPT's saved team, its messages its roles' memories; the
		// task theirs, and a label beside them the run's.
		if msgs, task, ok := read(data); ok {
			o.Question = firstNonEmpty(o.Question, task)
			r, err := transcript(msgs, o)
			if err != nil {
				return nil, err
			}
			return o.labelled(r)
		}
	}
	if ms, ok := dspyPrediction(data, o); ok {
		// A DSPy ReAct prediction, whose steps are its trajectory's; a
		// label beside them is the run's.
		if c, ok, err := dumpCaseOfMessages(ms, o); ok {
			return c, err
		}
	}
	if ms, ok := kaibanLogs(data); ok {
		// A KaibanJS team's state, whose steps are its workflow's logs;
		// a label beside them is the run's.
		if c, ok, err := dumpCaseOfMessages(ms, o); ok {
			return c, err
		}
	}
	if ms, ok := stormRun(data); ok {
		// A STORM run's conversations, outline and article; a label
		// beside them is the run's.
		if c, ok, err := dumpCaseOfMessages(ms, o); ok {
			return c, err
		}
	}
	if ms, ok := gptResearcherLog(data); ok {
		// GPT Researcher's log of a task; a label beside it is the run's.
		if c, ok, err := dumpCaseOfMessages(ms, o); ok {
			return c, err
		}
	}
	if c, ok, err := tradingAgentsCase(data, o); ok {
		// TradingAgents' logged state of a trade decision; a label beside
		// it is the run's.
		return c, err
	}
	if c, ok, err := textLogOf(data, o); ok {
		// A record that holds a run's text log; a label beside it is the
		// run's.
		return c, err
	}
	if c, ok, err := lowCodeCase(data, o); ok {
		// A low-code platform's saved run (n8n, Dify, Flowise, Langflow);
		// a label beside it is the run's.
		return c, err
	}
	if ms, ok := teamLog(data); ok {
		// A framework's saved run whose records name their agents; a
		// label beside it is the run's.
		if c, ok, err := dumpCaseOfMessages(ms, o); ok {
			return c, err
		}
	}
	if c, ok, err := labelledList(data, format); ok {
		// A label beside a run's list under a key of its own.
		return c, err
	}
	if list, ok := agentsSDKItems(data); ok {
		// The Agents SDK's input list (to_input_list()) saved under a key
		// of its own; a label beside it is the run's.
		if c, ok, err := dumpCaseOf(list, o); ok {
			return c, err
		}
	}
	if format == FormatTranscript {
		var m message
		if err := decodeStrict(data, &m); err != nil {
			return nil, err
		}
		return caseOf(transcript([]message{m}, nil))
	}
	keys := spans.TopKeys(data, 12)
	if spanLabelKeys(keys) {
		return nil, ErrLabelsFile
	}
	return nil, fmt.Errorf(`%w: a JSON object with neither "history" (Who&When) nor "messages" (transcript), nor a trace layout (its keys: %s)`, ErrUnknownFormat, spans.KeysForError(keys))
}
