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
// lists them (langfuseTrace); score-create, sdk-log and the rest are
// passed over.

// langfuseKinds are the observation types the ingestion events' types
// name.
var langfuseKinds = map[string]string{"span": "SPAN", "generation": "GENERATION", "event": "EVENT", "observation": ""}

// langfuseEvents is the merged content of a batch file: traces and
// observations by id, in the order they first appear.
type langfuseEvents struct {
	traces, obs          map[string]map[string]any
	traceOrder, obsOrder []string
	traceLine, obsLine   map[string]int            // the line of each one's first event
	sdk                  map[string]map[string]any // each observation's batch's metadata
}

func decodeLangfuseIngestion(ctx context.Context, data []byte) ([]Span, error) {
	lines := newLineCounter(data)
	ev := langfuseEvents{
		traces: map[string]map[string]any{}, obs: map[string]map[string]any{}, sdk: map[string]map[string]any{},
		traceLine: map[string]int{}, obsLine: map[string]int{},
	}
	type update struct {
		body, sdk map[string]any
		line      int
	}
	var updates []update
	var sdk map[string]any // the metadata of the batch being read
	one := func(s, e int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		line := lines.at(s)
		if data[s] != '{' {
			return fmt.Errorf("line %d: a Langfuse ingestion event is a JSON object", line)
		}
		var m map[string]any
		if err := decodeJSON(data, s, e, &m); err != nil {
			return err
		}
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
				updates = append(updates, update{body, sdk, line})
			}
		case action == "create":
			if t, ok := langfuseKinds[kind]; ok {
				return ev.observation(body, t, sdk, line)
			}
		}
		return nil
	}
	recs, err := records(data)
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		sdk = nil
		switch {
		case data[r.start] == '[':
			err = eachElement(data, r.start, one)
		case data[r.start] == '{':
			if b, ok := langfuseBatch(data, r.start); ok {
				if ms, me, ok := member(data, r.start, "metadata"); ok && data[ms] == '{' {
					if err := decodeJSON(data, ms, me, &sdk); err != nil {
						return nil, err
					}
				}
				err = eachElement(data, b, one)
			} else {
				err = one(r.start, r.end)
			}
		default:
			err = one(r.start, r.end)
		}
		if err != nil {
			return nil, err
		}
	}
	for _, u := range updates {
		if err := ev.observation(u.body, "", u.sdk, u.line); err != nil {
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
	keys, ok := objectKeys(data, i)
	return ok && isLangfuseEvent(keys)
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
		ev.traceLine[id] = line
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
func (ev *langfuseEvents) observation(body map[string]any, typ string, sdk map[string]any, line int) error {
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
	if sdk != nil && ev.sdk[id] == nil {
		ev.sdk[id] = sdk
	}
	if _, ok := ev.obsLine[id]; !ok {
		ev.obsLine[id] = line
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
			return nil, fmt.Errorf("line %d: Langfuse observation %s has no traceId", ev.obsLine[id], QuoteForError(firstText(o, []string{"name"})))
		}
		if ev.traces[tid] == nil {
			ev.traces[tid] = map[string]any{"id": tid}
			ev.traceOrder = append(ev.traceOrder, tid)
			ev.traceLine[tid] = ev.obsLine[id]
		}
		byTrace[tid] = append(byTrace[tid], o)
	}
	var out []Span
	for _, tid := range ev.traceOrder {
		obs := byTrace[tid]
		ss, err := langfuseTrace(langfuseClean(ev.traces[tid]), obs, ev.traceLine[tid], func(i int) int {
			return ev.obsLine[firstText(obs[i].(map[string]any), []string{"id"})]
		})
		if err != nil {
			return nil, err
		}
		for i := range ss {
			ss[i].Attrs = append(ss[i].Attrs, langfuseSDK(ev.sdk[ss[i].SpanID])...)
		}
		out = append(out, ss...)
	}
	return out, nil
}

// langfuseSDK returns the attributes of the SDK that sent an observation,
// from its batch's metadata: langfuse.sdk.name, .version and .integration
// (DEFAULT for the SDK's own trace(), span() and generation() calls,
// LANGCHAIN for its LangChain handler's).
func langfuseSDK(meta map[string]any) Attrs {
	var out Attrs
	for _, k := range []string{"integration", "name", "version"} {
		if v := firstText(meta, []string{"sdk_" + k}); v != "" {
			out = append(out, Attr{Key: "langfuse.sdk." + k, Value: String(v)})
		}
	}
	return out
}
