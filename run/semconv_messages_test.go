package run

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run/spans"
)

// TestCallsAsText: a message whose whole content is a list of OpenAI tool
// calls is read as those calls, its text as written kept (the tracer's
// view of the message shows it so); any other content stays text alone.
func TestCallsAsText(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		calls []ToolCall
	}{
		{"calls", `[{"function":{"name":"HelloTool","arguments":"{\"name\": \"Bob\"}"},"id":"call_1","type":"function"},{"function":{"name":"ByeTool","arguments":"{}"},"id":"call_2","type":"function"}]`,
			[]ToolCall{{ID: "call_1", Name: "HelloTool", Arguments: `{"name": "Bob"}`}, {ID: "call_2", Name: "ByeTool", Arguments: "{}"}}},
		{"arguments as an object", `[{"function":{"name":"search","arguments":{"q":"x"}}}]`, []ToolCall{{Name: "search", Arguments: `{"q":"x"}`}}},
		{"another type", `[{"function":{"name":"f","arguments":"{}"},"type":"custom"}]`, nil},
		{"a call without a name", `[{"function":{"arguments":"{}"},"type":"function"}]`, nil},
		{"a list of other objects", `[{"function":"sum","value":3}]`, nil},
		{"prose", `[note] the "function" is broken`, nil},
		{"empty list", `[]`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := chatMessage{Role: "assistant", Text: tt.text}
			callsAsText(&m)
			assert.Equal(t, tt.calls, m.Calls)
			assert.Equal(t, tt.text, m.Text)
		})
	}
}

// TestOnlyWrittenCalls: a step whose text is the list of its calls as the
// model wrote it says nothing in words of its own, as one whose text is
// its calls written out; one whose list names other calls, or whose text
// is prose, says something.
func TestOnlyWrittenCalls(t *testing.T) {
	hello := `[{"function":{"name":"HelloTool","arguments":"{\"name\": \"Bob\"}"},"id":"call_1","type":"function"}]`
	calls := []ToolCall{{ID: "call_1", Name: "HelloTool", Arguments: `{"name": "Bob"}`}}
	tests := []struct {
		name    string
		content string
		calls   []ToolCall
		want    bool
	}{
		{"the calls as the model wrote them", hello, calls, true},
		{"the calls written out", callText(calls), calls, true},
		{"the same list, its arguments filled in since", hello, []ToolCall{{ID: "call_1", Name: "HelloTool", Arguments: `{"name": "Bob", "formal": true}`}}, true},
		{"another call's list", hello, []ToolCall{{ID: "call_2", Name: "ByeTool"}}, false},
		{"one call of two", hello, append(calls, ToolCall{ID: "call_2", Name: "ByeTool"}), false},
		{"words beside the calls", "I will greet Bob.", calls, false},
		{"no calls", hello, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Step{Content: tt.content, Extra: &Extra{ToolCalls: tt.calls}}
			assert.Equal(t, tt.want, s.OnlyCalls())
		})
	}
}

// TestLeadingUserText: the task is the user messages that lead a model's
// input, up to the first message of another role.
func TestLeadingUserText(t *testing.T) {
	user := func(text string) chatMessage { return chatMessage{Role: "user", Text: text, From: "in"} }
	tests := []struct {
		name string
		msgs []chatMessage
		want string
	}{
		{"one", []chatMessage{{Role: "system", Text: "Be brief."}, user("What is 2+2?")}, "What is 2+2?"},
		{"two in a row", []chatMessage{user("Be helpful!"), {Role: "human", Text: "Search the web."}}, "Be helpful!\nSearch the web."},
		{"not past a reply", []chatMessage{user("Find it."), {Role: "assistant", Text: "Done."}, user("Now summarise.")}, "Find it."},
		{"empty ones skipped", []chatMessage{user(" "), user("Go.")}, "Go."},
		{"none", []chatMessage{{Role: "system", Text: "Be brief."}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, _ := leadingUserText(tt.msgs)
			assert.Equal(t, tt.want, text)
		})
	}
}

// TestFlatMessages: a model's input flattened to "role: text" lines is
// those messages only when it starts with a role and holds two or more;
// a line inside a message that only looks like one is kept in its text.
func TestFlatMessages(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []chatMessage // nil: not read as messages
	}{
		{
			name: "Langfuse's OpenAI integration",
			text: "developer: <info>\n- Use markdown.\n</info>\nuser: What is trending?\nassistant: None\ntool: [1, 2]",
			want: []chatMessage{{Role: "system", Text: "<info>\n- Use markdown.\n</info>"}, {Role: "user", Text: "What is trending?"}, {Role: "assistant", Text: "None"}, {Role: "tool", Text: "[1, 2]"}},
		},
		{
			name: "LangChain's rendered prompt",
			text: "System: Be brief.\nHuman: Say hi.",
			want: []chatMessage{{Role: "system", Text: "Be brief."}, {Role: "user", Text: "Say hi."}},
		},
		{
			name: "examples in a system prompt",
			text: "system: Answer as the examples do.\nUser: What is 2+2?\nAssistant: 4\nuser: What is 3+3?",
			want: []chatMessage{{Role: "system", Text: "Answer as the examples do.\nUser: What is 2+2?\nAssistant: 4"}, {Role: "user", Text: "What is 3+3?"}},
		},
		{
			name: "LangChain's roles, all capitalised",
			text: "System: Be brief.\nHuman: Hi.\nAI: Hello.\nHuman: Bye.",
			want: []chatMessage{{Role: "system", Text: "Be brief."}, {Role: "user", Text: "Hi."}, {Role: "assistant", Text: "Hello."}, {Role: "user", Text: "Bye."}},
		},
		{name: "one message", text: "user: Say hi."},
		{name: "a text that does not start with a role", text: "Compare these:\nuser: 12\nassistant: 14"},
		{name: "a role word without its colon", text: "User asked twice\nassistant: yes"},
		{name: "a colon in the first word's middle", text: "user:name=bob\nassistant: hi"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := flatMessages(tt.text)
			assert.Equal(t, tt.want != nil, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestAnthropicToolParts: Anthropic's tool_use parts are calls and its
// tool_result parts answer them, their content read as text.
func TestAnthropicToolParts(t *testing.T) {
	call, ok := messageOf(map[string]any{"role": "assistant", "content": []any{
		map[string]any{"type": "text", "text": "Checking."},
		map[string]any{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": map[string]any{"city": "Berlin"}},
	}})
	assert.True(t, ok)
	assert.Equal(t, "Checking.", call.Text)
	assert.Equal(t, []ToolCall{{ID: "toolu_1", Name: "get_weather", Arguments: `{"city":"Berlin"}`}}, call.Calls)

	result, ok := messageOf(map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "tool_result", "tool_use_id": "toolu_1", "content": []any{map[string]any{"type": "text", "text": "Cloudy, 59°F"}}},
	}})
	assert.True(t, ok)
	assert.Equal(t, "toolu_1", result.CallID)
	assert.Equal(t, "Cloudy, 59°F", result.Text)
}

// TestUnwrapped: an output message whose whole text is a framework's
// result object holding messages is read as those messages.
func TestUnwrapped(t *testing.T) {
	out := func(text string) chatMessage { return chatMessage{Role: "assistant", Text: text} }
	tests := []struct {
		name string
		text string
		want []chatMessage
	}{
		{"LangChain's LLMResult with a call", `{"generations": [[{"text": "Checking.", "message": {"tool_calls": [{"name": "get_weather", "args": {"city": "Oslo"}, "id": "tc_1"}]}}]], "llm_output": null}`,
			[]chatMessage{{Role: "assistant", Text: "Checking.", Calls: []ToolCall{{ID: "tc_1", Name: "get_weather", Arguments: `{"city":"Oslo"}`}}}}},
		{"LangChain's LLMResult, text only", `{"generations": [[{"text": "Snowy."}]]}`, []chatMessage{{Role: "assistant", Text: "Snowy."}}},
		{"a graph state", `{"messages": [{"content": "Done.", "type": "ai"}]}`, []chatMessage{{Role: "assistant", Text: "Done."}}},
		{"a tool message", `{"name": "get_weather", "type": "tool", "content": "-5C", "tool_call_id": "tc_1"}`,
			[]chatMessage{{Role: "tool", Name: "get_weather", Text: "-5C", CallID: "tc_1"}}},
		{"LangChain.js's ToolMessage as its fields", `{"lc_serializable": true, "lc_kwargs": {"status": "success", "content": "-5C", "tool_call_id": "tc_1", "name": "get_weather"}, "lc_namespace": ["langchain_core", "messages"], "content": "-5C", "tool_call_id": "tc_1"}`,
			[]chatMessage{{Role: "tool", Name: "get_weather", Text: "-5C", CallID: "tc_1"}}},
		{"LangChain.js's AIMessage as its fields, no tool message", `{"lc_serializable": true, "lc_kwargs": {"content": "Done."}, "content": "Done."}`, []chatMessage{out(`{"lc_serializable": true, "lc_kwargs": {"content": "Done."}, "content": "Done."}`)}},
		{"JSON that holds no messages", `{"temperature": -5, "unit": "C"}`, []chatMessage{out(`{"temperature": -5, "unit": "C"}`)}},
		{"prose", `{Snowy} all day`, []chatMessage{out(`{Snowy} all day`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, unwrapped([]chatMessage{out(tt.text)}))
		})
	}
}

// TestResultObjectsInSpanEvents: spans of no stated kind whose event
// bodies hold a framework's result objects as their output's text (as
// LangChain's instrumentation under ADOT writes them) read as a call, the
// tool's result answering it, and the reply.
func TestResultObjectsInSpanEvents(t *testing.T) {
	span := func(id string, start int, in, out string) string {
		body := map[string]any{"input": map[string]any{"messages": []any{map[string]any{"role": "user", "content": in}}},
			"output": map[string]any{"messages": []any{map[string]any{"role": "assistant", "content": out}}}}
		b, err := json.Marshal(map[string]any{"trace_id": "t1", "span_id": id, "parent_span_id": nil, "name": "openinference.instrumentation.langchain",
			"start_time": start, "end_time": start + 1, "attributes": map[string]any{"event.name": "openinference.instrumentation.langchain"},
			"span_events": []any{map[string]any{"event_name": "openinference.instrumentation.langchain", "span_id": id, "timestamp": start, "body": body}}})
		require.NoError(t, err)
		return string(b)
	}
	data := "[" + strings.Join([]string{
		span("s1", 10, "Weather in Oslo?", `{"generations": [[{"text": "Checking.", "message": {"tool_calls": [{"name": "get_weather", "args": {"city": "Oslo"}, "id": "tc_1"}]}}]]}`),
		span("s2", 20, "{'city': 'Oslo'}", `{"name": "get_weather", "type": "tool", "content": "-5C, snowy", "tool_call_id": "tc_1"}`),
		span("s3", 30, "Weather in Oslo?", `{"generations": [[{"text": "It is -5C and snowy in Oslo."}]]}`),
	}, ",") + "]"
	r, err := Parse("spans.json", []byte(data), Options{})
	require.NoError(t, err)
	var got []string
	for _, s := range r.Steps {
		got = append(got, string(s.Kind)+": "+s.Content)
	}
	assert.Equal(t, []string{"user: Weather in Oslo?", "tool_call: Checking.", "tool_result: -5C, snowy", "message: It is -5C and snowy in Oslo."}, got)
	assert.Equal(t, "tc_1", r.Steps[2].ToolCallID())
}

// TestStackless: an error message followed by a JavaScript stack reads as
// the stack's first line, with a message it does not repeat kept before
// it; a message without a stack is kept whole.
func TestStackless(t *testing.T) {
	tests := []struct{ name, msg, want string }{
		{"message and stack", "flight API timeout\n\nError: flight API timeout\n    at tool.name (/app/run.js:28:30)\n    at new Promise (<anonymous>)", "Error: flight API timeout"},
		{"stack alone", "\n\nParentCommand\n    at RunnableCallable._controlBranch [as func] (/app/state.cjs:775:65)", "ParentCommand"},
		{"a message the stack does not say", "lookup failed\n\nTypeError: x is undefined\n    at f (/app/a.js:1:2)", "lookup failed\nTypeError: x is undefined"},
		{"no stack", "ValueError: city not found\n  in get_forecast", "ValueError: city not found\n  in get_forecast"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, stackless(tt.msg))
		})
	}
	assert.True(t, isHandoff("", stackless(tests[1].msg)), "a control-flow error named by its stack alone")
}

// TestEmptyOutputMessages: OpenInference output messages that hold only
// their role record no reply, and the span's output.value is read; one
// that says anything is the output.
func TestEmptyOutputMessages(t *testing.T) {
	reply := `[{"content": [{"type": "tool-call", "toolCallId": "call_1", "toolName": "get_weather", "args": {"city": "Oslo"}}], "role": "assistant"}]`
	tests := []struct {
		name    string
		content string
		want    chatMessage
	}{
		{"empty: output.value", "", chatMessage{Role: "assistant", Calls: []ToolCall{{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Oslo"}`}}, From: "output.value"}},
		{"a text", "Oslo.", chatMessage{Role: "assistant", Text: "Oslo.", From: "llm.output_messages"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &spans.Span{Attrs: spans.Attrs{
				{Key: "llm.output_messages.0.message.role", Value: spans.String("assistant")},
				{Key: "llm.output_messages.0.message.content", Value: spans.String(tt.content)},
				{Key: "output.value", Value: spans.String(reply)},
			}}
			assert.Equal(t, []chatMessage{tt.want}, outputMessages(s))
		})
	}
}

// TestAISDKToolPart: a result written as the AI SDK's part for it is its
// output, or its error's text; an error the part could not keep is no
// text; any other result is no such part.
func TestAISDKToolPart(t *testing.T) {
	tests := []struct {
		name, result, want string
		ok                 bool
	}{
		{"object output kept as written", `{"type":"tool-result","toolCallId":"c3","toolName":"get_weather","input":{"city":"Oslo"},"output":{"city":"Oslo","tempC":7},"dynamic":false}`, `{"city":"Oslo","tempC":7}`, true},
		{"text output", `{"type":"tool-result","toolCallId":"c1","toolName":"research","input":{},"output":"7 °F."}`, "7 °F.", true},
		{"typed output", `{"type":"tool-result","toolCallId":"c1","toolName":"t","input":{},"output":{"type":"error-text","value":"no such city"}}`, "Error: no such city", true},
		{"error text", `{"type":"tool-error","toolCallId":"c2","toolName":"get_weather","input":{},"error":"unknown city: Olso"}`, "Error: unknown city: Olso", true},
		{"an Error it could not keep", `{"type":"tool-error","toolCallId":"c2","toolName":"get_weather","input":{},"error":{},"dynamic":false}`, "", true},
		{"no call id", `{"type":"tool-result","output":"x"}`, "", false},
		{"another object", `{"city":"Oslo"}`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, ok := aiSDKToolPart(tt.result)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, text)
		})
	}
}

// TestLangChainPromptBatch: LangChain hands a chat model's callbacks its
// prompts as a batch, a list of message lists, and LangSmith records an
// llm run's inputs so ({"messages": [[…]]}): a batch of one prompt is
// that prompt's messages, its system message the run's instructions.
// A batch of several prompts is no one conversation, and is not read as
// messages.
func TestLangChainPromptBatch(t *testing.T) {
	lc := func(class, typ, content string) string {
		return `{"lc":1,"type":"constructor","id":["langchain","schema","messages","` + class + `"],"kwargs":{"content":"` + content + `","type":"` + typ + `"}}`
	}
	system, human := lc("SystemMessage", "system", "Route hotels to hotel_agent."), lc("HumanMessage", "human", "Book a hotel in Lisbon.")
	file := func(messages string) string {
		return `{"id":"r","trace_id":"r","name":"LangGraph","run_type":"chain","start_time":"2026-03-02T09:00:00","end_time":"2026-03-02T09:00:03","inputs":{},"outputs":{},"child_runs":[` +
			`{"id":"l","name":"ChatOpenAI","run_type":"llm","start_time":"2026-03-02T09:00:01","end_time":"2026-03-02T09:00:02","inputs":{"messages":` + messages + `},` +
			`"outputs":{"generations":[[{"text":"Done.","type":"ChatGeneration","message":` + lc("AIMessage", "ai", "Done.") + `}]]}}]}`
	}
	for _, tt := range []struct {
		name, messages, instructions, question string
	}{
		{"a batch of one prompt", `[[` + system + `,` + human + `]]`, "Route hotels to hotel_agent.", "Book a hotel in Lisbon."},
		{"the prompt's messages listed", `[` + system + `,` + human + `]`, "Route hotels to hotel_agent.", "Book a hotel in Lisbon."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCase("run.json", []byte(file(tt.messages)), Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.instructions, c.Run.Instructions)
			assert.Equal(t, tt.question, c.Run.Question)
		})
	}
	assert.Empty(t, messagesOf([]any{[]any{map[string]any{"role": "user", "content": "a"}}, []any{map[string]any{"role": "user", "content": "b"}}}, "user"),
		"a batch of two prompts")
}

// TestRequestInstructionsCopiesNoPrompt: a request body's system prompt
// is read as the instructions, and a prompt that is no request body
// (most of them, on every span) is passed over without a copy.
func TestRequestInstructionsCopiesNoPrompt(t *testing.T) {
	body := &spans.Span{Attrs: spans.Attrs{{Key: "input.value", Value: spans.String(` {"system": "Be brief.", "messages": [{"role": "user", "content": "Q"}]}`)}}}
	assert.Equal(t, spans.Attrs{{Key: "gen_ai.system_instructions", Value: spans.String("Be brief.")}}, requestInstructions(body))
	for _, text := range []string{
		strings.Repeat("Find a hotel in Porto for three nights. ", 40),
		"{" + strings.Repeat("no messages here, ", 40) + "}",
	} {
		s := &spans.Span{Attrs: spans.Attrs{{Key: "input.value", Value: spans.String(text)}}}
		assert.Nil(t, requestInstructions(s))
		assert.Zero(t, testing.AllocsPerRun(20, func() { requestInstructions(s) }), text[:20])
	}
}
