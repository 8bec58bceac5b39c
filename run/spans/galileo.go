package spans

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
)

// Galileo's traces, as its SDKs post them to its ingestion endpoint
// (/projects/ID/traces): {"log_stream_id", "traces": [trace…]} a request,
// one a line, or the traces listed. A trace and each span in it is
// {"type" ("trace", "workflow", "agent", "llm", "tool", "retriever"),
// "id", "name", "created_at", "metrics": {"duration_ns"}, "input",
// "output", "status_code", "spans": [child…]}, read as a tracing tool's
// call record is (flatSpan): its type the span's kind, its input and
// output kept under their names, a status code of 400 or more an error
// whose message is its output. Every span is of its trace.

func decodeGalileo(ctx context.Context, data []byte) ([]Span, error) {
	lines := newLineCounter(data)
	var out []Span
	err := eachObject(ctx, data, "a Galileo trace", galileoTraces, func(trace map[string]any, s int) error {
		line := lines.at(s)
		tid := firstText(trace, []string{"id"})
		if tid == "" {
			return fmt.Errorf("line %d: a Galileo trace with no id", line)
		}
		var walk func(m map[string]any, parent string, depth int) error
		walk = func(m map[string]any, parent string, depth int) error {
			if depth > maxDepth {
				return fmt.Errorf("line %d: Galileo spans nested deeper than %d", line, maxDepth)
			}
			id := firstText(m, []string{"id"})
			if id == "" {
				return fmt.Errorf("line %d: a Galileo span with no id, in trace %s", line, tid)
			}
			children, _ := m["spans"].([]any)
			rec := map[string]any{"trace_id": tid, "parent_id": parent}
			for k, v := range m {
				switch k {
				case "spans", "metrics", "created_at", "status_code":
				default:
					rec[k] = v
				}
			}
			start, err := flatTime(m["created_at"])
			if err != nil {
				return fmt.Errorf("span %s at line %d: start time %w", QuoteForError(firstText(m, []string{"name"})), line, err)
			}
			if start != 0 {
				rec["start_time"] = json.Number(strconv.FormatInt(start, 10))
				if mt, ok := m["metrics"].(map[string]any); ok {
					if d, ok := mt["duration_ns"].(json.Number); ok {
						if ns, err := d.Int64(); err == nil && ns >= 0 {
							rec["end_time"] = json.Number(strconv.FormatInt(start+ns, 10))
						}
					}
				}
			}
			if c, ok := m["status_code"].(json.Number); ok {
				if code, err := c.Int64(); err == nil && code >= 400 {
					rec["error"] = map[string]any{"message": fmt.Sprintf("status %d: %s", code, firstText(m, []string{"output"}))}
				}
			}
			sp, err := flatSpan(rec, line)
			if err != nil {
				return err
			}
			out = append(out, sp)
			for _, c := range children {
				cm, ok := c.(map[string]any)
				if !ok {
					return fmt.Errorf("line %d: a Galileo span is a JSON object, in trace %s", line, tid)
				}
				if err := walk(cm, id, depth+1); err != nil {
					return err
				}
			}
			return nil
		}
		return walk(trace, "", 0)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// galileoTraces finds the traces of a request: {"traces": […]} (as it
// does those of Tempo's search results).
func galileoTraces(data []byte, i int) (int, bool) {
	s, _, ok := member(data, i, "traces")
	return s, ok && data[s] == '['
}
