package spans

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
)

// New Relic's AI monitoring events, as an NRQL query answers them
// (SELECT * FROM LlmChatCompletionSummary, LlmChatCompletionMessage,
// LlmTool WHERE trace_id = …): through NerdGraph, {"data": {"actor":
// {"account": {"nrql": {"results": [row…]}}}}}; through the query API,
// {"results": [{"events": [row…]}]}; or the rows alone. A row is one
// event, flat: every row has "trace_id", "span_id", "ingest_source" and a
// "timestamp" in milliseconds, and the answer lists them newest first.
// A model call is a summary ("request.model", "response.number_of_messages",
// "duration" in milliseconds) and its messages (each with the call's
// "completion_id", its "sequence", "role", "content", and "is_response"
// on what the model answered); a tool's run is an LlmTool row ("run_id",
// "name", "input", "output", "error"). Each call is read as a model span
// of its messages, each tool's run as a tool span, in the order they
// began.

// isNewRelicRow reports whether keys are those of one of New Relic's AI
// monitoring events.
func isNewRelicRow(keys map[string]bool) bool {
	return keys["ingest_source"] && keys["trace_id"] && keys["span_id"] && keys["timestamp"] &&
		(keys["completion_id"] || keys["run_id"] || keys["response.number_of_messages"] || keys["request.model"])
}

// newRelicRowOf reports whether m is such a row.
func newRelicRowOf(m map[string]any) bool {
	keys := make(map[string]bool, len(m))
	for k := range m {
		keys[k] = true
	}
	return isNewRelicRow(keys)
}

// newRelicResults returns where the list of an NRQL answer's rows (or
// of its tables, {"events": [row…]}) starts in the object at i.
func newRelicResults(data []byte, i int) (int, bool) {
	at := i
	if s, _, ok := member(data, at, "data"); ok && data[s] == '{' {
		a, _, ok := member(data, s, "actor")
		if !ok || data[a] != '{' {
			return 0, false
		}
		at = a
		if acc, _, ok := member(data, at, "account"); ok && data[acc] == '{' {
			at = acc
		}
		n, _, ok := member(data, at, "nrql")
		if !ok || data[n] != '{' {
			return 0, false
		}
		at = n
	}
	s, _, ok := member(data, at, "results")
	if !ok || data[s] != '[' {
		return 0, false
	}
	rows := false
	_ = eachElement(data, s, func(es, _ int) error {
		if data[es] != '{' {
			return errStop
		}
		if ev, _, ok := member(data, es, "events"); ok && data[ev] == '[' {
			_ = eachElement(data, ev, func(rs, _ int) error {
				rows = newRelicElement(data, rs)
				return errStop
			})
			return errStop
		}
		rows = newRelicElement(data, es)
		return errStop
	})
	return s, rows
}

// newRelicElement reports whether the value at i is a New Relic row.
func newRelicElement(data []byte, i int) bool {
	keys, ok := objectKeys(data, i)
	return ok && isNewRelicRow(keys)
}

// newRelicRows returns the rows m holds, m starting on the given line:
// m itself, or a query API table's events.
func newRelicRows(m map[string]any, line int) []newRelicRow {
	if newRelicRowOf(m) {
		return []newRelicRow{{m, line}}
	}
	evs, _ := m["events"].([]any)
	var out []newRelicRow
	for _, e := range evs {
		if r, ok := e.(map[string]any); ok && newRelicRowOf(r) {
			out = append(out, newRelicRow{r, line})
		}
	}
	return out
}

// newRelicRow is a row of a query's answer, with the line of the file
// its record starts on.
type newRelicRow struct {
	m    map[string]any
	line int
}

// newRelicSpans reads a query's rows as flat spans, each with the line
// of its first row: one for each model call (its summary and messages,
// by completion_id) and one for each tool's run.
func newRelicSpans(rows []newRelicRow) []newRelicRow {
	type call struct {
		summary map[string]any
		msgs    []map[string]any
		line    int
	}
	calls := map[string]*call{}
	var order []string
	var out []newRelicRow
	get := func(id string, line int) *call {
		c, ok := calls[id]
		if !ok {
			c = &call{line: line}
			calls[id] = c
			order = append(order, id)
		}
		return c
	}
	for i, row := range rows {
		r := row.m
		switch {
		case r["completion_id"] != nil:
			c := get(FromAny(r["completion_id"]).Text(), row.line)
			c.msgs = append(c.msgs, r)
		case r["run_id"] != nil && r["name"] != nil:
			out = append(out, newRelicRow{newRelicTool(r), row.line})
		case r["response.number_of_messages"] != nil || r["request.model"] != nil:
			id := FromAny(r["id"]).Text()
			if id == "" {
				id = fmt.Sprintf("\x00row %d", i) // no message names it: a call of its own
			}
			get(id, row.line).summary = r
		}
	}
	for _, id := range order {
		c := calls[id]
		out = append(out, newRelicRow{newRelicCall(id, c.summary, c.msgs), c.line})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, _ := flatTime(out[i].m["start_time"])
		b, _ := flatTime(out[j].m["start_time"])
		return a < b
	})
	return out
}

// newRelicCall is one model call as an OpenInference model span: the
// messages it was sent, in sequence, and those it answered.
func newRelicCall(id string, summary map[string]any, msgs []map[string]any) map[string]any {
	sort.SliceStable(msgs, func(i, j int) bool { return newRelicSeq(msgs[i]) < newRelicSeq(msgs[j]) })
	var in, outMsgs []any
	for _, m := range msgs {
		msg := map[string]any{"message.role": m["role"], "message.content": m["content"]}
		if m["is_response"] == true {
			outMsgs = append(outMsgs, msg)
		} else {
			in = append(in, msg)
		}
	}
	head := summary
	if head == nil && len(msgs) > 0 {
		head = msgs[0]
	}
	attrs := map[string]any{"openinference.span.kind": "LLM", "llm.input_messages": in, "llm.output_messages": outMsgs}
	rec := map[string]any{"name": "LlmChatCompletion", "attributes": attrs}
	if head != nil {
		rec["trace_id"] = head["trace_id"]
		rec["span_id"] = head["span_id"]
		rec["start_time"] = head["timestamp"]
		if m := first(head, []string{"response.model", "request.model"}); m != nil {
			attrs["llm.model_name"] = m
		}
		if summary != nil && summary["error"] == true {
			rec["status_code"] = "ERROR"
		}
		endAfterMillis(rec, head["duration"])
	}
	if rec["span_id"] == nil {
		rec["span_id"] = id
	}
	return rec
}

// newRelicTool is one tool's run as an OpenInference tool span.
func newRelicTool(r map[string]any) map[string]any {
	attrs := map[string]any{"openinference.span.kind": "TOOL", "tool.name": r["name"]}
	if v, ok := r["input"]; ok && v != nil {
		attrs["input.value"] = v
	}
	if v, ok := r["output"]; ok && v != nil {
		attrs["output.value"] = v
	}
	rec := map[string]any{"name": r["name"], "trace_id": r["trace_id"], "span_id": r["span_id"], "start_time": r["timestamp"], "attributes": attrs}
	if r["error"] == true {
		rec["status_code"] = "ERROR"
		rec["status_message"] = "the tool failed"
	}
	endAfterMillis(rec, r["duration"])
	return rec
}

// newRelicSeq is a message's place in its call.
func newRelicSeq(m map[string]any) int64 {
	if n, ok := m["sequence"].(json.Number); ok {
		if i, err := n.Int64(); err == nil {
			return i
		}
	}
	if s, ok := m["sequence"].(string); ok {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i
		}
	}
	return 0
}
