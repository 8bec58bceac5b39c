package run

import (
	"strings"

	"github.com/offattr/offattr/run/spans"
)

// HoneyHive's tracer (on OpenLLMetry) writes a traced function's span with
// honeyhive_event_type (model, tool or chain: a program's agents are
// chains, named for them), its arguments as honeyhive_inputs._params_.NAME
// and its result as honeyhive_outputs.result, each object flattened into
// one attribute a leaf (honeyhive_inputs._params_.args.city), and its error
// as honeyhive_error.

// honeyhiveRole is the role HoneyHive's event type gives a span.
func honeyhiveRole(t string) spanRole {
	switch strings.ToLower(t) {
	case "model":
		return roleLLM
	case "tool":
		return roleTool
	}
	return roleOther
}

// honeyhiveChain reports whether a span is a function HoneyHive's tracer
// traced as a chain: a piece of a program, as a LangSmith chain is.
func honeyhiveChain(s *spans.Span) bool {
	return strings.EqualFold(s.Attrs.Str("honeyhive_event_type"), "chain")
}

// honeyhiveArguments returns a traced function's arguments as JSON: its
// one argument as itself, more as an object by their names; "" when it
// records none.
func honeyhiveArguments(as spans.Attrs) string {
	params, ok := flattenedValue(as, "honeyhive_inputs._params_").(map[string]any)
	if !ok || len(params) == 0 {
		return ""
	}
	var v any = params
	if len(params) == 1 {
		for _, p := range params {
			v = p
		}
	}
	return spans.JSONText(v)
}

// honeyhiveResult returns a traced function's result as text: a string as
// it is, anything else as JSON; "" when it records none.
func honeyhiveResult(as spans.Attrs) string {
	switch v := flattenedValue(as, "honeyhive_outputs.result").(type) {
	case nil:
		return ""
	case string:
		return v
	default:
		return spans.JSONText(v)
	}
}

// maxFlattenedDepth bounds how deep a value flattened into attributes is
// rebuilt, as encoding/json bounds a JSON value's nesting: the keys of a
// leaf past it are one key.
const maxFlattenedDepth = 10000

// flattenedValue rebuilds the value an object flattened into attributes
// under prefix holds (prefix itself, or prefix.KEY.KEY… a leaf); nil when
// there is none.
func flattenedValue(as spans.Attrs, prefix string) any {
	var root map[string]any
	for _, a := range as {
		if a.Key == prefix {
			return a.Value.Any()
		}
		rest, ok := strings.CutPrefix(a.Key, prefix+".")
		if !ok || rest == "" {
			continue
		}
		if root == nil {
			root = map[string]any{}
		}
		m := root
		parts := strings.SplitN(rest, ".", maxFlattenedDepth)
		for _, p := range parts[:len(parts)-1] {
			next, ok := m[p].(map[string]any)
			if !ok {
				next = map[string]any{}
				m[p] = next
			}
			m = next
		}
		m[parts[len(parts)-1]] = a.Value.Any()
	}
	if root == nil {
		return nil
	}
	return root
}
