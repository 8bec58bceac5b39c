package spans

import (
	"context"
	"fmt"
	"strings"
)

// LangSmith runs, as its SDK's list_runs and read_run return them and as
// they are saved: an array of runs, one a line, {"runs": […]}, or one root
// run whose "child_runs" hold the runs inside it. A run is {"id",
// "trace_id", "parent_run_id", "name", "run_type", "start_time",
// "end_time", "inputs", "outputs", "error", "extra": {"metadata"},
// "tags"}. Each run becomes a span carrying LangSmith's own names:
// langsmith.run_type, langsmith.inputs, langsmith.outputs, langsmith.tags
// and langsmith.metadata.* (LangGraph's langgraph_node among them); an
// error is the span's status, its exception the message (langSmithError).

func decodeLangSmith(ctx context.Context, data []byte) ([]Span, error) {
	lines := newLineCounter(data)
	var out []Span
	err := eachObject(ctx, data, "a LangSmith run", runList, func(m map[string]any, s int) error {
		return langSmithTree(ctx, m, lines.at(s), &out)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// runList finds the list of runs in the object at i: {"runs": […]}.
func runList(data []byte, i int) (int, bool) {
	s, _, ok := member(data, i, "runs")
	return s, ok && data[s] == '['
}

// langSmithTree reads a run and the runs nested in its child_runs, depth
// first and without recursion: a hostile file may nest runs deeply. A
// nested run without its own trace id or parent takes its parent's.
func langSmithTree(ctx context.Context, m map[string]any, line int, out *[]Span) error {
	type item struct {
		m             map[string]any
		trace, parent string
	}
	stack := []item{{m: m}}
	for len(stack) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		sp, err := langSmithRun(it.m, it.trace, it.parent, line)
		if err != nil {
			return err
		}
		*out = append(*out, sp)
		kids, _ := it.m["child_runs"].([]any)
		for i := len(kids) - 1; i >= 0; i-- {
			km, ok := kids[i].(map[string]any)
			if !ok {
				return fmt.Errorf("line %d: run %s: a child run is not a JSON object", line, QuoteForError(sp.SpanID))
			}
			stack = append(stack, item{m: km, trace: sp.TraceID, parent: sp.SpanID})
		}
	}
	return nil
}

// langSmithRun reads one run; trace and parent stand in for the ids a
// nested run does not give.
func langSmithRun(m map[string]any, trace, parent string, line int) (Span, error) {
	if m == nil {
		return Span{}, fmt.Errorf("line %d: a LangSmith run is a JSON object, not null", line)
	}
	sp := Span{
		SpanID:   firstText(m, []string{"id"}),
		TraceID:  firstText(m, []string{"trace_id"}),
		ParentID: firstText(m, []string{"parent_run_id"}),
		Name:     firstText(m, []string{"name"}),
		Line:     line,
	}
	if sp.TraceID == "" {
		sp.TraceID = trace
	}
	if sp.ParentID == "" {
		sp.ParentID = parent
	}
	if sp.TraceID == "" && sp.ParentID == "" {
		sp.TraceID = sp.SpanID // a root run is its trace
	}
	if sp.SpanID == "" || sp.TraceID == "" {
		return Span{}, fmt.Errorf("run %s at line %d has no id or trace_id", QuoteForError(sp.Name), line)
	}
	var err error
	if sp.Start, err = flatTime(m["start_time"]); err != nil {
		return Span{}, fmt.Errorf("run %s at line %d: start_time %w", QuoteForError(sp.Name), line, err)
	}
	if sp.End, err = flatTime(m["end_time"]); err != nil {
		return Span{}, fmt.Errorf("run %s at line %d: end_time %w", QuoteForError(sp.Name), line, err)
	}
	if e := strings.TrimSpace(textOrEmpty(m["error"])); e != "" {
		sp.Status = Status{Code: StatusError, Message: langSmithError(e)}
	} else if s := textOrEmpty(m["status"]); s == "success" {
		sp.Status.Code = StatusOK
	}
	for _, k := range []string{"run_type", "inputs", "outputs", "tags"} {
		if v, ok := m[k]; ok && v != nil {
			sp.Attrs = append(sp.Attrs, Attr{Key: "langsmith." + k, Value: FromAny(unwrapped(v, k))})
		}
	}
	if extra, ok := m["extra"].(map[string]any); ok {
		flatten("langsmith.metadata", extra["metadata"], &sp.Attrs)
	}
	sortAttrs(sp.Attrs)
	return sp, nil
}

// unwrapped returns the value a run's inputs or outputs wrap: LangSmith
// keeps a value that is not an object (a tool's input text, its result)
// as {"input": …} or {"output": …}, and its JavaScript SDK a function's
// result as {"outputs": …}.
func unwrapped(v any, key string) any {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 1 {
		return v
	}
	inner, ok := m[strings.TrimSuffix(key, "s")]
	if !ok && key == "outputs" {
		inner, ok = m[key]
	}
	if !ok {
		return v
	}
	return inner
}

// langSmithError is the message of a run's error: the exception that ends
// a Python traceback when it holds one ("ValueError: …", every line of it:
// what follows the last indented line of the frames), else the error's
// first line (the exception's repr).
func langSmithError(e string) string {
	_, tb, ok := strings.Cut(e, "Traceback (most recent call last):")
	if !ok {
		first, _, _ := strings.Cut(e, "\n")
		return strings.TrimSpace(first)
	}
	lines := strings.Split(strings.TrimRight(tb, " \t\r\n"), "\n")
	last := 0
	for i, l := range lines {
		if strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") {
			last = i + 1
		}
	}
	return strings.TrimSpace(strings.Join(lines[last:], "\n"))
}

// textOrEmpty returns v when it is a string, else "".
func textOrEmpty(v any) string {
	s, _ := v.(string)
	return s
}
