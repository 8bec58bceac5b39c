package run

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run/spans"
)

// TestDottedName: a name written without dots is read back as the one
// known name it can only be, list indexes filled in; one that fits two
// known names, or none, or that holds a dot, is not.
func TestDottedName(t *testing.T) {
	for _, tc := range []struct {
		key   string
		names []string
		want  string
	}{
		{"gen_ai_prompt", knownAttrNames, "gen_ai.prompt"},
		{"gen_ai_operation_name", knownAttrNames, "gen_ai.operation.name"},
		{"gen_ai_prompt_0_content", knownAttrNames, "gen_ai.prompt.0.content"},
		{"llm_input_messages_12_message_content", knownAttrNames, "llm.input_messages.12.message.content"},
		{"llm_output_messages_0_message_tool_calls_1_tool_call_function_arguments", knownAttrNames, "llm.output_messages.0.message.tool_calls.1.tool_call.function.arguments"},
		{"openinference_span_kind", knownAttrNames, "openinference.span.kind"},
		{"offattr_mistake", knownAttrNames, "offattr.mistake"},
		{"offattr_mistake_reason", knownAttrNames, "offattr.mistake_reason"},
		{"llm_input_messages_x_message_content", knownAttrNames, ""}, // no index
		{"llm_input_messages__message_content", knownAttrNames, ""},
		{"gen_ai_prompt_extra", knownAttrNames, ""},
		{"customer_tier", knownAttrNames, ""},
		{"gen_ai.prompt", knownAttrNames, ""}, // already dotted
		{"input", knownAttrNames, ""},
		{"a_b_c", []string{"a.b_c", "a_b.c"}, ""}, // two names fit
		{"a_b_c", []string{"a.b_c", "x.y"}, "a.b_c"},
	} {
		got, ok := dottedName(tc.key, tc.names)
		assert.Equal(t, tc.want != "", ok, tc.key)
		assert.Equal(t, tc.want, got, tc.key)
	}
}

// TestLabelValues: the attributes of a span whose backend wrote its
// names without dots, and that names none with a dot, are given under
// their dotted names; a span that holds a dotted name, or whose backend
// keeps names as written, wrote its undotted ones as they are meant.
func TestLabelValues(t *testing.T) {
	attrs := spans.Attrs{
		{Key: "input_value", Value: spans.String("Book a room")},
		{Key: "agent_name", Value: spans.String("Hotel Agent")},
		{Key: "customer_tier", Value: spans.String("gold")},
	}
	assert.Equal(t, spans.Attrs{
		{Key: "input.value", Value: spans.String("Book a room")},
		{Key: "agent.name", Value: spans.String("Hotel Agent")},
	}, labelValues(&spans.Span{Attrs: attrs, Undotted: true}))
	assert.Nil(t, labelValues(&spans.Span{Attrs: attrs}), "a backend that keeps its names")
	assert.Nil(t, labelValues(&spans.Span{Attrs: spans.Attrs{{Key: "customer_tier", Value: spans.String("gold")}}, Undotted: true}))
	assert.Nil(t, labelValues(&spans.Span{Attrs: spans.Attrs{
		{Key: "agent_name", Value: spans.String("qa_agent")},
		{Key: "gen_ai.system", Value: spans.String("openai")},
	}, Undotted: true}))
}

// TestDottedNameAllocs: every attribute name of a span without dots is
// tried against every known name, so a name that fits none (the common
// case) allocates nothing.
func TestDottedNameAllocs(t *testing.T) {
	for _, key := range []string{"customer_tier", "gen_ai_prompt_extra", "llm_input_messages_x_message_content", "input_value_extra"} {
		assert.Zero(t, testing.AllocsPerRun(20, func() { dottedName(key, knownAttrNames) }), key)
	}
}
