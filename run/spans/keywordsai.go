package spans

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Keywords AI's logs, as its request-log API lists them ({"results":
// [log…], "count", "next", "previous"}) or a log export keeps them: a log
// is one span of its trace, {"trace_unique_id", "span_unique_id",
// "span_parent_id", "span_name", "span_workflow_name", "log_type",
// "start_time", "timestamp", "prompt_messages", "completion_message",
// "input", "output", "status_code", "error_message"…}. Its log_type is
// OpenLLMetry's span kind (workflow, task, agent, tool) or a model call's
// (chat, completion, response…); a model call's messages are its input and
// the message it completed its output.

// isKeywordsLog reports whether m, a record or the set of its keys, is
// one of Keywords AI's logs.
func isKeywordsLog[V any](m map[string]V) bool {
	return hasKeys(m, "trace_unique_id", "span_unique_id")
}

// keywordsFields are the fields of a Keywords AI log that say what the
// span is, under flatSpan's names.
var keywordsFields = map[string]string{
	"trace_unique_id": "trace_id", "span_unique_id": "span_id", "span_parent_id": "parent_id",
	"span_name": "name", "start_time": "start_time", "error_message": "status_message",
}

// keywordsKinds are the log types of OpenLLMetry's span kinds; any other
// type is a model call's.
var keywordsKinds = map[string]bool{"workflow": true, "task": true, "agent": true, "tool": true}

// keywordsLog rewrites a Keywords AI log as the flat span it is: its own
// fields under flatSpan's names, its kind OpenLLMetry's, every other
// field an attribute.
func keywordsLog(m map[string]any) map[string]any {
	rec := map[string]any{}
	attrs := map[string]any{}
	for k, v := range m {
		if f, ok := keywordsFields[k]; ok {
			rec[f] = v
			continue
		}
		switch k {
		case "input", "output", "log_type", "timestamp", "status_code", "prompt_messages", "completion_message":
		default:
			attrs[k] = v
		}
	}
	// Its timestamp is when the log was made, at the span's end when the
	// span's start is written beside it.
	if _, ok := rec["start_time"]; ok {
		rec["end_time"] = m["timestamp"]
	} else {
		rec["start_time"] = m["timestamp"]
	}
	t, _ := m["log_type"].(string)
	t = strings.ToLower(strings.TrimSpace(t))
	rec["input"], rec["output"] = m["input"], m["output"]
	switch {
	case keywordsKinds[t]:
		attrs["traceloop.span.kind"] = t
		if name := strings.TrimSpace(textOrEmpty(m["span_name"])); name != "" {
			// OpenLLMetry names an entity's span NAME.KIND.
			attrs["traceloop.entity.name"] = strings.TrimSuffix(name, "."+t)
		}
	case t != "":
		rec["span_kind"] = "LLM"
		if p, ok := m["prompt_messages"]; ok && p != nil {
			rec["input"] = p
		}
		if c, ok := m["completion_message"]; ok && c != nil {
			rec["output"] = []any{c}
		}
	}
	if code, ok := m["status_code"]; ok && statusFailed(code) {
		rec["status_code"] = "ERROR"
	}
	rec["attributes"] = attrs
	return rec
}

// statusFailed reports whether an HTTP status code, as a number or as
// text, says the request failed (400 and above).
func statusFailed(v any) bool {
	var s string
	switch c := v.(type) {
	case json.Number:
		s = c.String()
	case string:
		s = strings.TrimSpace(c)
	case float64:
		return c >= 400
	default:
		return false
	}
	n, err := strconv.Atoi(s)
	return err == nil && n >= 400
}
