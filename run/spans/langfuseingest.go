package spans

import (
	"context"
	"fmt"
	"strings"
)

// Langfuse's ingestion batches, as its SDKs before OpenTelemetry (the
// JavaScript SDK 3.x, langfuse-langchain's CallbackHandler, the Python SDK
// 2.x) post them to POST /api/public/ingestion: {"batch": [event…],
// "metadata": {…}}, one request a line, or the events listed. An event is
// {"id", "type", "timestamp", "body"}; its type names what its body is:
// trace-create (a trace's record, sent again with the fields that change,
// such as its output), and span-, generation- and event-create with
// span- and generation-update (observation-create and -update naming the
// type in the body). The events of one observation (its id the body's) are
// one observation, its updates applied over what was created, in the
// order they were sent: an SDK may send an update before the create it
// follows. The observations and traces are then read as Langfuse's API
// lists them (langfuseObject); score-create, sdk-log and the rest are
// passed over.

// langfuseKinds are the observation types the ingestion events' types
// name.
var langfuseKinds = map[string]string{"span": "SPAN", "generation": "GENERATION", "event": "EVENT", "observation": ""}

// langfuseEvents is the merged content of a batch file: traces and
// observations by id, in the order they first appear.
type langfuseEvents struct {
	traces, obs          map[string]map[string]any
	traceOrder, obsOrder []string
	lines                map[string]int // the line of each trace's first event
}

func decodeLangfuseIngestion(ctx context.Context, data []byte) ([]Span, error) {
	lines := newLineCounter(data)
	ev := langfuseEvents{traces: map[string]map[string]any{}, obs: map[string]map[string]any{}, lines: map[string]int{}}
	type update struct {
		body map[string]any
		line int
	}
	var updates []update
	err := eachObject(ctx, data, "a Langfuse ingestion event", langfuseBatch, func(m map[string]any, s int) error {
		line := lines.at(s)
		typ := firstText(m, []string{"type"})
		body, ok := m["body"].(map[string]any)
		if !ok {
			if typ == "" {
				return fmt.Errorf("line %d: a Langfuse ingestion event with no type or body", line)
			}
			return nil // an sdk-log's body may be any value
		}
		kind, action, _ := strings.Cut(typ, "-")
		switch {
		case typ == "trace-create":
			return ev.trace(body, line)
		case action == "update":
			if _, ok := langfuseKinds[kind]; ok {
				updates = append(updates, update{body, line})
			}
		case action == "create":
			if t, ok := langfuseKinds[kind]; ok {
				return ev.observation(body, t, line)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, u := range updates {
		if err := ev.observation(u.body, "", u.line); err != nil {
			return nil, err
		}
	}
	return ev.spans()
}

// langfuseIngestion reports whether data holds ingestion events: its first
// value is a batch, an event, or a list of events.
func langfuseIngestion(data []byte) bool {
	i := skipSpace(data, 0)
	if i >= len(data) {
		return false
	}
	if data[i] == '{' {
		if s, ok := langfuseBatch(data, i); ok {
			i = s
		}
	}
	if data[i] == '[' {
		found := false
		_ = eachElement(data, i, func(s, _ int) error {
			found = langfuseEvent(data, s)
			return errStop
		})
		return found
	}
	return langfuseEvent(data, i)
}

// langfuseEvent reports whether the value at i is an ingestion event.
func langfuseEvent(data []byte, i int) bool {
	if i >= len(data) || data[i] != '{' {
		return false
	}
	keys := map[string]bool{}
	_ = eachMember(data, i, func(key []byte, _, _ int) bool {
		keys[string(key)] = true
		return true
	})
	return isLangfuseEvent(keys)
}

// isLangfuseEvent reports whether an object's keys are an ingestion
// event's.
func isLangfuseEvent(keys map[string]bool) bool {
	return keys["id"] && keys["type"] && keys["timestamp"] && keys["body"]
}

// langfuseBatch finds the events of a request: {"batch": […]}.
func langfuseBatch(data []byte, i int) (int, bool) {
	s, _, ok := member(data, i, "batch")
	return s, ok && data[s] == '['
}

// trace merges a trace-create event's body into its trace.
func (ev *langfuseEvents) trace(body map[string]any, line int) error {
	id := firstText(body, []string{"id"})
	if id == "" {
		return fmt.Errorf("line %d: a Langfuse trace-create event with no id", line)
	}
	t := ev.traces[id]
	if t == nil {
		t = map[string]any{}
		ev.traces[id] = t
		ev.traceOrder = append(ev.traceOrder, id)
		ev.lines[id] = line
	}
	began, seen := t["timestamp"]
	mergeSet(t, body)
	if seen {
		t["timestamp"] = began // a later event's timestamp is when it was sent
	}
	return nil
}

// observation merges a create or update event's body into its observation;
// typ is the observation type its event names, "" for an update.
func (ev *langfuseEvents) observation(body map[string]any, typ string, line int) error {
	id := firstText(body, []string{"id"})
	if id == "" {
		return fmt.Errorf("line %d: a Langfuse observation event with no id", line)
	}
	o := ev.obs[id]
	if o == nil {
		o = map[string]any{}
		ev.obs[id] = o
		ev.obsOrder = append(ev.obsOrder, id)
	}
	if typ != "" && o["type"] == nil {
		o["type"] = typ
	}
	mergeSet(o, body)
	if _, ok := ev.lines["obs:"+id]; !ok {
		ev.lines["obs:"+id] = line
	}
	return nil
}

// mergeSet copies the values src sets (not null) into dst.
func mergeSet(dst, src map[string]any) {
	for k, v := range src {
		if v != nil {
			dst[k] = v
		}
	}
}

// spans reads each trace with its observations as the API lists them. An
// observation of a trace no event created is of a trace known only by its
// id.
func (ev *langfuseEvents) spans() ([]Span, error) {
	byTrace := map[string][]any{}
	for _, id := range ev.obsOrder {
		o := ev.obs[id]
		tid := firstText(o, []string{"traceId"})
		if tid == "" {
			return nil, fmt.Errorf("line %d: Langfuse observation %q has no traceId", ev.lines["obs:"+id], firstText(o, []string{"name"}))
		}
		if ev.traces[tid] == nil {
			ev.traces[tid] = map[string]any{"id": tid}
			ev.traceOrder = append(ev.traceOrder, tid)
			ev.lines[tid] = ev.lines["obs:"+id]
		}
		byTrace[tid] = append(byTrace[tid], o)
	}
	var out []Span
	for _, tid := range ev.traceOrder {
		t := ev.traces[tid]
		t["observations"] = append([]any{}, byTrace[tid]...)
		ss, err := langfuseObject(t, ev.lines[tid])
		if err != nil {
			return nil, err
		}
		out = append(out, ss...)
	}
	return out, nil
}
