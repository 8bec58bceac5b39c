package spans

import (
	"context"
	"fmt"
	"strings"
)

// Langfuse exports: a trace with its observations (GET /traces/{id}, the
// UI's download), a list of them ({"data": […]}, an array, or one a line;
// GET /traces lists each trace's observations by id only, and such a
// trace holds only its own input and output), a session with its traces
// (GET /sessions/{id}: {"id", "createdAt", "projectId", "traces": […]},
// the traces without observations), or a list of observations ({"data":
// [observation…]}, GET /v2/observations). Each observation
// becomes a span carrying Langfuse's own attribute names, the ones its
// OpenTelemetry ingestion reads (langfuse.observation.type, .input,
// .output, .level, .status_message, .model.name); level ERROR is the span
// status. Attributes of spans Langfuse ingested over OTLP, kept in
// metadata.attributes, are restored as they were. The trace itself is a
// root span of type TRACE holding the trace's name, input and output, so
// that its input can stand for the task.

func decodeLangfuse(ctx context.Context, data []byte) ([]Span, error) {
	if langfuseIngestion(data) {
		return decodeLangfuseIngestion(ctx, data)
	}
	lines := newLineCounter(data)
	return eachTraceSpans(ctx, data, func(s, e int) ([]Span, error) {
		var m map[string]any
		if err := decodeJSON(data, s, e, &m); err != nil {
			return nil, err
		}
		return langfuseObject(m, lines.at(s))
	})
}

// langfuseObject reads a trace (with "observations"), a trace beside its
// observations ({"trace": {…}, "observations": […]}, as Langfuse's own
// fixtures and database dumps hold them) or one observation.
func langfuseObject(m map[string]any, line int) ([]Span, error) {
	m = langfuseClean(m)
	if ts, ok := m["traces"].([]any); ok && m["observations"] == nil {
		return langfuseSession(ts, line)
	}
	obs, isTrace := m["observations"].([]any)
	if t, ok := m["trace"].(map[string]any); ok && isTrace {
		t = langfuseClean(t)
		t["observations"] = obs
		m = t
	}
	if !isTrace {
		sp, err := langfuseObservation(m, "", line)
		if err != nil {
			return nil, err
		}
		return []Span{sp}, nil
	}
	return langfuseTrace(m, obs, line, func(int) int { return line })
}

// langfuseTrace reads a trace and its observations; lineOf gives the line
// of each observation (the trace's, in an export; its first event's, in
// ingestion batches).
func langfuseTrace(m map[string]any, obs []any, line int, lineOf func(i int) int) ([]Span, error) {
	traceID := firstText(m, []string{"id"})
	if traceID == "" {
		return nil, fmt.Errorf("line %d: a Langfuse trace with no id", line)
	}
	// The trace's own span takes the trace's id, unless an observation has
	// it (langfuse-langchain gives its root run the trace's id): then the
	// observations that name no parent hang from the trace's span, and the
	// ones naming the trace's id as parent from that observation.
	rootID := traceID
	for _, o := range obs {
		if om, ok := o.(map[string]any); ok && firstText(om, []string{"id"}) == traceID {
			rootID = traceID + "/trace"
		}
	}
	root := Span{TraceID: traceID, SpanID: rootID, Name: firstText(m, []string{"name"}), Line: line}
	root.Start, _ = flatTime(m["timestamp"])
	root.End = root.Start
	root.Attrs = Attrs{{Key: "langfuse.observation.type", Value: String("TRACE")}}
	for _, k := range []string{"name", "input", "output", "sessionId", "userId"} {
		if v, ok := m[k]; ok && v != nil {
			root.Attrs = append(root.Attrs, Attr{Key: "langfuse.trace." + k, Value: FromAny(v)})
		}
	}
	out := []Span{root}
	for i, o := range obs {
		if _, id := o.(string); id {
			continue // an observation named by its id (GET /traces), not held
		}
		om, ok := o.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("line %d: Langfuse trace %s: an observation is not a JSON object", lineOf(i), traceID)
		}
		om = langfuseClean(om)
		sp, err := langfuseObservation(om, traceID, lineOf(i))
		if err != nil {
			return nil, err
		}
		if sp.ParentID == traceID && firstText(om, []string{"parentObservationId", "parent_observation_id"}) == "" {
			sp.ParentID = rootID
		}
		out = append(out, sp)
	}
	return out, nil
}

// langfuseSession reads the traces of a session, which Langfuse lists
// without their observations: each is its own input and output.
func langfuseSession(traces []any, line int) ([]Span, error) {
	var out []Span
	for _, t := range traces {
		tm, ok := t.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("line %d: a trace of a Langfuse session is not a JSON object", line)
		}
		if tm["observations"] == nil {
			tm["observations"] = []any{}
		}
		ss, err := langfuseObject(tm, line)
		if err != nil {
			return nil, err
		}
		out = append(out, ss...)
	}
	return out, nil
}

func langfuseObservation(m map[string]any, traceID string, line int) (Span, error) {
	sp := Span{
		TraceID:  firstText(m, []string{"traceId", "trace_id"}),
		SpanID:   firstText(m, []string{"id"}),
		ParentID: firstText(m, []string{"parentObservationId", "parent_observation_id"}),
		Name:     firstText(m, []string{"name"}),
		Line:     line,
	}
	if sp.TraceID == "" {
		sp.TraceID = traceID
	}
	if sp.SpanID == "" || sp.TraceID == "" {
		return Span{}, fmt.Errorf("line %d: Langfuse observation %s has no id or traceId", line, QuoteForError(sp.Name))
	}
	if sp.ParentID == "" && traceID != "" {
		sp.ParentID = traceID // under the trace's own span
	}
	var err error
	if sp.Start, err = flatTime(first(m, []string{"startTime", "start_time"})); err != nil {
		return Span{}, fmt.Errorf("line %d: Langfuse observation %s: startTime %w", line, QuoteForError(sp.Name), err)
	}
	if sp.End, err = flatTime(first(m, []string{"endTime", "end_time"})); err != nil {
		return Span{}, fmt.Errorf("line %d: Langfuse observation %s: endTime %w", line, QuoteForError(sp.Name), err)
	}
	level := strings.ToUpper(firstText(m, []string{"level"}))
	if level == "ERROR" {
		sp.Status.Code = StatusError
	}
	sp.Status.Message = firstText(m, []string{"statusMessage", "status_message"})
	add := func(key string, v any) {
		if v != nil {
			sp.Attrs = append(sp.Attrs, Attr{Key: key, Value: FromAny(v)})
		}
	}
	add("langfuse.observation.type", strings.ToUpper(firstText(m, []string{"type"})))
	add("langfuse.observation.input", m["input"])
	add("langfuse.observation.output", m["output"])
	add("langfuse.observation.level", nilIfEmpty(level))
	add("langfuse.observation.status_message", nilIfEmpty(sp.Status.Message))
	add("langfuse.observation.model.name", m["model"])
	if meta, ok := m["metadata"].(map[string]any); ok {
		for _, k := range sortedKeys(meta) {
			if k == "attributes" {
				var restored Attrs
				flatten("", meta[k], &restored)
				sortAttrs(restored)
				sp.Attrs = append(sp.Attrs, restored...)
				continue
			}
			add("langfuse.observation.metadata."+k, meta[k])
		}
	}
	return sp, nil
}

// langfuseClean reads an observation or trace record as database dumps
// write them: every column as text, an absent value as "None" or "null",
// JSON values (input, output, metadata) as JSON text, sometimes encoded
// twice. Absent values are dropped and JSON text is decoded, so that the
// record reads as the API gives it.
func langfuseClean(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		s, ok := v.(string)
		if !ok {
			out[k] = v
			continue
		}
		switch k {
		case "input", "output":
			out[k] = innerJSONText(s)
			continue
		case "metadata":
			out[k] = decodeJSONText(s)
			continue
		}
		if s == "None" || s == "null" {
			continue
		}
		out[k] = v
	}
	return out
}

// decodeJSONText decodes text that holds a JSON value, unwrapping a JSON
// string that holds JSON in turn; other text is returned as it is.
func decodeJSONText(s string) any {
	var x any = s
	for range 3 {
		t, ok := x.(string)
		if !ok {
			return x
		}
		t = strings.TrimSpace(t)
		if t == "" || !strings.ContainsRune(`{["`, rune(t[0])) {
			return x
		}
		y, ok := decodeLoose(t)
		if !ok {
			return x
		}
		x = y
	}
	return x
}

// innerJSONText unwraps text that holds a JSON string holding JSON in
// turn, down to the text of the JSON object, array or scalar it holds. The
// text is kept as written, not decoded: an input or output is what a
// program recorded (a tool's result as the tool returned it), and decoding
// it into a map would give its keys in another order and its numbers in
// another form (60.0 as 60). The readers of a span decode the JSON they
// need, as they do for any attribute holding JSON text.
func innerJSONText(s string) any {
	x := decodeJSONText(s)
	switch x.(type) {
	case map[string]any, []any:
	default:
		return x
	}
	text := s
	for range 3 {
		t := strings.TrimSpace(text)
		if t == "" || t[0] != '"' {
			break
		}
		y, ok := decodeLoose(t)
		inner, isText := y.(string)
		if !ok || !isText {
			break
		}
		text = inner
	}
	return text
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
