package spans

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
)

// Maxim's commit logs, as its SDKs write them (the body its logger posts
// to /api/sdk/v3/log, or a log file it keeps): one a line,
// ENTITY{id=ID,action=ACTION,data=JSON}. An entity (trace, span,
// generation, tool_call, retrieval…) is made by create, or by its
// parent's add-span, add-generation, add-tool-call or add-retrieval (the
// child's id in data); update merges data into it, result is its output,
// error its error, end its end. An entity is one span, read as a tracing
// tool's call record is (flatSpan): its kind the entity (a generation an
// llm, a tool call a tool, a retrieval a retriever; a span of a program's
// stays a span), a generation's messages and a tool call's args its
// input. Its trace is the entity at the root of its parents. Sessions
// group traces and are no span.

// maximLine is a commit log's line: its entity, id and action, and where
// its data begins (the rest of the line but the closing brace).
var maximLine = regexp.MustCompile(`^([a-z][a-z_]*)\{id=([^,{}\s]+),action=([a-z][a-z-]*),data=`)

// IsMaxim reports whether a line is one of Maxim's commit logs.
func IsMaxim(line []byte) bool {
	return maximLine.Match(line)
}

// maximChildren are the actions that make a child of an entity, and the
// entity each makes.
var maximChildren = map[string]string{
	"add-span":       "span",
	"add-generation": "generation",
	"add-tool-call":  "tool_call",
	"add-retrieval":  "retrieval",
	"add-trace":      "trace",
}

// maximKinds are the flat record kinds of Maxim's entities.
var maximKinds = map[string]string{"generation": "llm", "tool_call": "tool", "retrieval": "retriever"}

func decodeMaxim(ctx context.Context, data []byte) ([]Span, error) {
	type entity struct {
		kind   string
		m      map[string]any
		parent string
		line   int
	}
	var order []string
	byID := map[string]*entity{}
	get := func(kind, id string, line int) *entity {
		e := byID[id]
		if e == nil {
			e = &entity{kind: kind, m: map[string]any{"id": id}, line: line}
			byID[id] = e
			order = append(order, id)
		}
		return e
	}
	line := 0
	for rest := data; len(rest) > 0; {
		line++
		if line%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		text, next, _ := bytes.Cut(rest, []byte("\n"))
		start := len(data) - len(rest)
		rest = next
		text = bytes.TrimRight(text, " \t\r")
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		m := maximLine.FindSubmatchIndex(text)
		if m == nil || text[len(text)-1] != '}' {
			return nil, fmt.Errorf("line %d: not a Maxim commit log (ENTITY{id=…,action=…,data=…})", line)
		}
		kind, id, action := string(text[m[2]:m[3]]), string(text[m[4]:m[5]]), string(text[m[6]:m[7]])
		var d map[string]any
		if err := decodeJSON(data, start+m[1], start+len(text)-1, &d); err != nil {
			return nil, fmt.Errorf("the data of %s %s: %w", kind, id, err)
		}
		e := get(kind, id, line)
		switch action {
		case "result":
			e.m["output"] = d["result"]
		case "error", "add-error":
			e.m["error"] = d["error"]
			if d["error"] == nil {
				e.m["error"] = d
			}
		case "end":
			e.m["end_time"] = d["endTimestamp"]
		default:
			if child, ok := maximChildren[action]; ok {
				cid := firstText(d, []string{"id"})
				if cid == "" {
					return nil, fmt.Errorf("line %d: %s %s: %s names no id", line, kind, id, action)
				}
				c := get(child, cid, line)
				c.parent = id
				e = c
			}
			for k, v := range d {
				if k == "startTimestamp" {
					k = "start_time"
				}
				if _, set := e.m[k]; !set || v != nil {
					e.m[k] = v
				}
			}
		}
	}
	parent := func(id string) string {
		if e := byID[id]; e != nil && e.kind != "session" {
			if p := byID[e.parent]; p == nil || p.kind != "session" {
				return e.parent
			}
		}
		return ""
	}
	out := make([]Span, 0, len(order))
	for _, id := range order {
		e := byID[id]
		if e.kind == "session" {
			continue
		}
		e.m["trace_id"], e.m["parent_id"] = rootOf(id, parent), parent(id)
		e.m["type"] = e.kind
		if k, ok := maximKinds[e.kind]; ok {
			e.m["type"] = k
		}
		for _, k := range []string{"messages", "args"} {
			if v, ok := e.m[k]; ok && e.m["input"] == nil {
				e.m["input"] = v
				delete(e.m, k)
			}
		}
		sp, err := flatSpan(e.m, e.line)
		if err != nil {
			return nil, err
		}
		out = append(out, sp)
	}
	return out, nil
}
