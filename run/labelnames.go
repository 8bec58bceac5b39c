package run

import (
	"strings"

	"github.com/offattr/offattr/run/spans"
)

// Some backends keep attributes under names without dots (Elastic APM's
// labels make every dot an underscore: gen_ai_prompt_0_content), and
// run/spans marks the spans they wrote (Span.Undotted). On such a span,
// none of whose attribute names holds a dot, a name is read back as the
// one convention name it can only be: a name of knownAttrNames, each of
// its dots written as an underscore and each "#" a list index. A name
// that fits two of them, or none, stays as written. Any other span wrote
// its names as they are meant (pydantic-ai's agent_name beside its
// gen_ai.* attributes, an exporter's own customer_tier), and so does one
// that holds a dotted name.

// knownAttrNames are the GenAI and OpenInference names read back so,
// and a label's own (mistakeKeys).
var knownAttrNames = []string{
	"gen_ai.operation.name", "gen_ai.system", "gen_ai.provider.name", "gen_ai.request.model", "gen_ai.response.model",
	"gen_ai.agent.name", "gen_ai.agent.id", "gen_ai.agent.description", "gen_ai.conversation.id",
	"gen_ai.tool.name", "gen_ai.tool.call.id", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result", "gen_ai.tool.definitions",
	"gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions", "gen_ai.output.type",
	"gen_ai.response.finish_reasons", "gen_ai.data_source.id", "gen_ai.retrieval.query.text", "gen_ai.retrieval.documents",
	"gen_ai.prompt", "gen_ai.completion",
	"gen_ai.prompt.#.role", "gen_ai.prompt.#.content", "gen_ai.completion.#.role", "gen_ai.completion.#.content", "gen_ai.completion.#.finish_reason",
	"openinference.span.kind", "input.value", "input.mime_type", "output.value", "output.mime_type",
	"llm.model_name", "llm.provider", "llm.system", "llm.invocation_parameters",
	"llm.input_messages.#.message.role", "llm.input_messages.#.message.content", "llm.input_messages.#.message.name", "llm.input_messages.#.message.tool_call_id",
	"llm.input_messages.#.message.tool_calls.#.tool_call.function.name", "llm.input_messages.#.message.tool_calls.#.tool_call.function.arguments",
	"llm.output_messages.#.message.role", "llm.output_messages.#.message.content", "llm.output_messages.#.message.name",
	"llm.output_messages.#.message.tool_calls.#.tool_call.id",
	"llm.output_messages.#.message.tool_calls.#.tool_call.function.name", "llm.output_messages.#.message.tool_calls.#.tool_call.function.arguments",
	"tool.name", "tool.description", "tool.parameters", "tool_call.id", "tool_call.function.name", "tool_call.function.arguments",
	"retrieval.documents.#.document.content", "retrieval.documents.#.document.id",
	"agent.name", "graph.node.id", "graph.node.name", "graph.node.parent_id", "session.id", "user.id",
	"offattr.mistake", "offattr.mistake_reason",
}

// dottedName returns the one name of names that key is written without
// dots, its indexes filled in.
func dottedName(key string, names []string) (string, bool) {
	if strings.Contains(key, ".") || !strings.Contains(key, "_") {
		return "", false
	}
	found, n := "", 0
	for _, name := range names {
		if d, ok := undotted(key, name); ok {
			found, n = d, n+1
		}
	}
	if n != 1 {
		return "", false
	}
	return found, true
}

// undotted reports whether key is name with its dots written as
// underscores and each "#" an index, and returns name with them filled in.
// It is asked of every attribute name of such a span against every known
// name, so a name that does not fit costs no allocation.
func undotted(key, name string) (string, bool) {
	if !undottedFits(key, name, nil) {
		return "", false
	}
	var b strings.Builder
	undottedFits(key, name, &b)
	return b.String(), true
}

// undottedFits reports whether key is name written so, writing name with
// its indexes filled in to b when b is not nil.
func undottedFits(key, name string, b *strings.Builder) bool {
	for first := true; ; first = false {
		part, rest, more := strings.Cut(name, ".")
		if !first {
			if !strings.HasPrefix(key, "_") {
				return false
			}
			key = key[1:]
			if b != nil {
				b.WriteByte('.')
			}
		}
		if part == "#" {
			j := 0
			for j < len(key) && j < 9 && key[j] >= '0' && key[j] <= '9' {
				j++
			}
			if j == 0 {
				return false
			}
			part = key[:j]
		} else if !strings.HasPrefix(key, part) {
			return false
		}
		key = key[len(part):]
		if b != nil {
			b.WriteString(part)
		}
		if !more {
			return key == ""
		}
		name = rest
	}
}

// labelValues returns the attributes of a span whose backend wrote
// their names without dots, and that names none with a dot, under their
// dotted names (dottedName of knownAttrNames), or nil.
func labelValues(s *spans.Span) spans.Attrs {
	if !s.Undotted {
		return nil
	}
	for _, a := range s.Attrs {
		if strings.Contains(a.Key, ".") {
			return nil
		}
	}
	var out spans.Attrs
	for _, a := range s.Attrs {
		name, ok := dottedName(a.Key, knownAttrNames)
		if !ok {
			continue
		}
		if _, held := out.Get(name); held {
			continue
		}
		out = append(out, spans.Attr{Key: name, Value: a.Value})
	}
	return out
}
