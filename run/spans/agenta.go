package spans

import (
	"context"
	"strings"
)

// Agenta's traces, as its observability API returns them in its own
// format ({"version", "count", "trees": [{"tree": {"id"}, "nodes": {NAME:
// node}}]}): a node is one span, {"root": {"id"}, "tree": {"id"}, "node":
// {"id", "name", "type"}, "parent": {"id"}, "time": {"start", "end"},
// "status": {"code", "message"}, "exception", "data": {"inputs",
// "outputs", "internals"}, "metrics", "meta", "nodes": {NAME: node or
// [node…]}}, its children under their names. A model call's inputs keep
// its messages as {"prompt": [message…]}, its outputs as {"completion":
// [message…]}. Its type is what it runs
// (agent, tool, chat, completion, workflow, task…); a value its function
// returned that is no object is its outputs' "__default__".

// isAgentaTree reports whether m is one of Agenta's trees: its keys
// Agenta's (isAgentaKeys), its tree an object.
func isAgentaTree(m map[string]any) bool {
	_, t := m["tree"].(map[string]any)
	return t && isAgentaKeys(m)
}

// isAgentaKeys reports whether m, a record or the set of its keys, has
// the keys of one of Agenta's trees ({"tree", "nodes"} and at most one
// more).
func isAgentaKeys[V any](m map[string]V) bool {
	return hasKeys(m, "tree", "nodes") && len(m) <= 3
}

// agentaKinds are Agenta's node types that are model calls.
var agentaKinds = map[string]string{"chat": "LLM", "completion": "LLM"}

// agentaSpans appends the spans of an Agenta tree, parents first.
func agentaSpans(ctx context.Context, tree map[string]any, line int, out *[]Span) error {
	treeID := ""
	if t, ok := tree["tree"].(map[string]any); ok {
		treeID = flatID(t["id"], 32)
	}
	stack := agentaChildren(tree["nodes"])
	for len(stack) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := stack[0]
		stack = stack[1:]
		rec := agentaNode(n, treeID)
		if err := flatTree(ctx, rec, "", line, out); err != nil {
			return err
		}
		stack = append(stack, agentaChildren(n["nodes"])...)
	}
	return nil
}

// agentaChildren returns the nodes under a node's "nodes", each name's
// node or nodes in order of their names.
func agentaChildren(v any) []map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	var out []map[string]any
	for _, k := range sortedKeys(m) {
		switch c := m[k].(type) {
		case map[string]any:
			out = append(out, c)
		case []any:
			for _, e := range c {
				if em, ok := e.(map[string]any); ok {
					out = append(out, em)
				}
			}
		}
	}
	return out
}

// agentaNode rewrites an Agenta node as the flat span it is.
func agentaNode(n map[string]any, treeID string) map[string]any {
	sub := func(k string) map[string]any {
		m, _ := n[k].(map[string]any)
		return m
	}
	rec := map[string]any{"trace_id": treeID}
	if r := sub("root"); treeID == "" && r != nil {
		rec["trace_id"] = r["id"]
	}
	if nd := sub("node"); nd != nil {
		rec["span_id"], rec["name"] = nd["id"], nd["name"]
		if t, _ := nd["type"].(string); t != "" {
			t = strings.ToLower(t)
			rec["span_kind"] = strings.ToUpper(t)
			if k, ok := agentaKinds[t]; ok {
				rec["span_kind"] = k
			}
		}
	}
	if p := sub("parent"); p != nil {
		rec["parent_id"] = p["id"]
	}
	if t := sub("time"); t != nil {
		rec["start_time"], rec["end_time"] = t["start"], t["end"]
	}
	if s := sub("status"); s != nil {
		rec["status_code"], rec["status_message"] = s["code"], s["message"]
	}
	if e, ok := n["exception"]; ok && e != nil {
		rec["error"] = e
	}
	if d := sub("data"); d != nil {
		rec["input"], rec["output"] = agentaValue(d["inputs"], "prompt"), agentaValue(agentaDefault(d["outputs"]), "completion")
	}
	attrs := map[string]any{}
	for _, k := range []string{"meta", "metrics", "refs"} {
		if v, ok := n[k]; ok && v != nil {
			attrs[k] = v
		}
	}
	rec["attributes"] = attrs
	return rec
}

// agentaDefault returns the value Agenta keeps as an output's
// "__default__" (a function's return value that is no object), else v.
func agentaDefault(v any) any {
	if m, ok := v.(map[string]any); ok && len(m) == 1 {
		if d, ok := m["__default__"]; ok {
			return d
		}
	}
	return v
}

// agentaValue returns the messages a model call's inputs or outputs hold
// under key, as Agenta keeps them ({"prompt": [message…]}, {"completion":
// [message…]}), else v.
func agentaValue(v any, key string) any {
	if m, ok := v.(map[string]any); ok && len(m) == 1 {
		if l, ok := m[key].([]any); ok {
			return l
		}
	}
	return v
}
