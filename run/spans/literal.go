package spans

import (
	"context"
	"fmt"
)

// Literal AI's steps, as its SDKs ingest them (each ingestStep's
// variables) and its API lists them: one a line, listed, or {"steps":
// […]} (a thread's). A step is {"id", "parentId", "rootRunId",
// "threadId", "name", "type" ("run", "llm", "tool", "retrieval"…),
// "startTime", "endTime", "input", "output", "error", "generation"}, read
// as a tracing tool's call record is (flatSpan), an input or output
// {"content": …} as what it holds. Its trace is its root
// run, else its thread, else the step at the root of its parents (a root
// run names no root: it is its own).

func decodeLiteral(ctx context.Context, data []byte) ([]Span, error) {
	lines := newLineCounter(data)
	type step struct {
		m    map[string]any
		line int
	}
	var steps []step
	byID := map[string]map[string]any{}
	err := eachObject(ctx, data, "a Literal AI step", literalSteps, func(m map[string]any, s int) error {
		line := lines.at(s)
		id := firstText(m, []string{"id"})
		if id == "" {
			return fmt.Errorf("line %d: a Literal AI step with no id", line)
		}
		steps = append(steps, step{m, line})
		byID[id] = m
		return nil
	})
	if err != nil {
		return nil, err
	}
	parent := func(id string) string {
		if m := byID[id]; m != nil {
			return firstText(m, []string{"parentId"})
		}
		return ""
	}
	traces := make([]string, len(steps))
	for i, st := range steps {
		traces[i] = firstText(st.m, []string{"rootRunId", "threadId"})
		if traces[i] == "" {
			traces[i] = rootOf(firstText(st.m, []string{"id"}), parent)
		}
	}
	out := make([]Span, 0, len(steps))
	for i, st := range steps {
		m := st.m
		m["trace_id"], m["parent_id"] = traces[i], m["parentId"]
		delete(m, "parentId")
		for _, k := range []string{"input", "output"} {
			// A step keeps a value as {"content": …}: a model call's
			// messages, a run's text.
			if w, ok := m[k].(map[string]any); ok && len(w) == 1 && w["content"] != nil {
				m[k] = w["content"]
			}
		}
		sp, err := flatSpan(m, st.line)
		if err != nil {
			return nil, err
		}
		out = append(out, sp)
	}
	return out, nil
}

// literalSteps finds the steps of a thread: {"steps": […]}.
func literalSteps(data []byte, i int) (int, bool) {
	s, _, ok := member(data, i, "steps")
	return s, ok && data[s] == '['
}
