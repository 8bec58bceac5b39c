package spans

import (
	"context"
	"fmt"
)

// Lunary's run events, as its SDKs post them to its ingestion endpoint
// (/v1/runs/ingest): {"events": [event…]} a request, one a line, or the
// events listed. An event is {"event": "start" | "end" | "error" | …,
// "type": "agent" | "llm" | "tool" | "chain" | …, "runId",
// "parentRunId", "timestamp" (milliseconds), "name", "input", "output",
// "error": {"message", "stack"}}. A run's events are one span, read as a
// call record of a tracing tool is (flatSpan): its type the span's kind,
// its input and output kept under their names, its error its status. A
// run's trace is the run at the root of its parents: the events name no
// trace.

func decodeLunary(ctx context.Context, data []byte) ([]Span, error) {
	lines := newLineCounter(data)
	type run struct {
		m    map[string]any
		line int
	}
	var order []string
	runs := map[string]*run{}
	err := eachObject(ctx, data, "a Lunary event", lunaryEvents, func(ev map[string]any, s int) error {
		line := lines.at(s)
		id := firstText(ev, []string{"runId"})
		if id == "" {
			return fmt.Errorf("line %d: a Lunary event with no runId", line)
		}
		r := runs[id]
		if r == nil {
			r = &run{m: map[string]any{"id": id}, line: line}
			runs[id] = r
			order = append(order, id)
		}
		kind := firstText(ev, []string{"event"})
		for k, v := range ev {
			switch k {
			case "runId", "event":
			case "timestamp":
				switch kind {
				case "start":
					r.m["start_time"] = v
				case "end", "error":
					r.m["end_time"] = v
				}
			default:
				if _, set := r.m[k]; !set || v != nil {
					r.m[k] = v
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	parent := func(id string) string {
		if p := runs[id]; p != nil {
			return firstText(p.m, []string{"parentRunId"})
		}
		return ""
	}
	roots := make(map[string]string, len(order))
	for _, id := range order {
		roots[id] = rootOf(id, parent)
	}
	out := make([]Span, 0, len(order))
	for _, id := range order {
		r := runs[id]
		r.m["trace_id"], r.m["parent_id"] = roots[id], r.m["parentRunId"]
		delete(r.m, "parentRunId")
		sp, err := flatSpan(r.m, r.line)
		if err != nil {
			return nil, err
		}
		out = append(out, sp)
	}
	return out, nil
}

// rootOf returns the record at the root of id's parents (the farthest one
// the file holds, or that a record names); in a loop of parents, the one
// the walk meets again.
func rootOf(id string, parent func(string) string) string {
	seen := map[string]bool{}
	for !seen[id] {
		seen[id] = true
		p := parent(id)
		if p == "" {
			break
		}
		id = p
	}
	return id
}

// lunaryEvents finds the events of a request: {"events": […]}.
func lunaryEvents(data []byte, i int) (int, bool) {
	s, _, ok := member(data, i, "events")
	return s, ok && data[s] == '['
}
