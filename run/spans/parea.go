package spans

// Parea's trace logs, as its SDK's get_trace_log returns one and its
// exports keep them: a log is one span, {"trace_id" (the span's own id),
// "root_trace_id", "parent_trace_id", "trace_name", "start_timestamp",
// "end_timestamp", "inputs", "output", "configuration": {"model",
// "provider", "messages"}, "status", "error", "children" (its children's
// ids), "children_logs" (the children themselves)}. Its trace is its
// root's id; a log at the root is its own parent. A model call's
// configuration holds the messages it was given, its input.

// isPareaLog reports whether m, a record or the set of its keys, is one
// of Parea's trace logs.
func isPareaLog[V any](m map[string]V) bool {
	return hasKeys(m, "trace_id", "root_trace_id", "trace_name")
}

// pareaLog rewrites a Parea trace log as the flat span it is.
func pareaLog(m map[string]any) map[string]any {
	rec := map[string]any{}
	attrs := map[string]any{}
	for k, v := range m {
		switch k {
		case "trace_id", "root_trace_id", "parent_trace_id", "trace_name", "start_timestamp", "end_timestamp",
			"inputs", "output", "configuration", "status", "error", "children", "children_logs":
		default:
			attrs[k] = v
		}
	}
	id := flatID(m["trace_id"], 16)
	rec["span_id"], rec["name"] = m["trace_id"], m["trace_name"]
	rec["trace_id"] = m["root_trace_id"]
	if flatID(m["root_trace_id"], 32) == "" {
		rec["trace_id"] = m["trace_id"]
	}
	if p := flatID(m["parent_trace_id"], 16); p != id {
		rec["parent_id"] = m["parent_trace_id"]
	}
	rec["start_time"], rec["end_time"] = m["start_timestamp"], m["end_timestamp"]
	rec["input"], rec["output"] = m["inputs"], m["output"]
	// Its trace decorator logs a function's call, and its wrapped
	// clients a model call, whose configuration holds its messages.
	rec["span_kind"] = "FUNCTION"
	if conf, ok := m["configuration"].(map[string]any); ok {
		if msgs, ok := conf["messages"].([]any); ok && len(msgs) > 0 {
			rec["span_kind"] = "LLM"
			rec["input"] = msgs
		}
		for k, v := range conf {
			if k != "messages" {
				attrs["configuration."+k] = v
			}
		}
	}
	if s, _ := m["status"].(string); s == "error" || m["error"] != nil && m["error"] != "" {
		rec["status_code"] = "ERROR"
		rec["status_message"] = m["error"]
	}
	rec["attributes"] = attrs
	return rec
}
