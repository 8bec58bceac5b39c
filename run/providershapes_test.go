package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestProviderShapes: single assistants' runs saved in their providers'
// own shapes are read as the steps they hold, the assistant answering
// for every call and result: the AI SDK's generateText result as its
// SDK before version 5 wrote its steps (text, toolCalls, toolResults),
// beside the prompt or alone; a Responses API call log whose response's
// output holds a hosted web search that failed or listed its sources;
// Cohere's tool_plan, the words of a turn that only calls tools, and its
// documents, a tool's result; the sources a reply cites, beside its
// words.
func TestProviderShapes(t *testing.T) {
	tests := []struct {
		name, data string
		steps      []string
		label      *Label
	}{
		{"AI SDK v4 result beside its prompt, labelled", `{"prompt": "Ferry to Peaks Island from Portland, Maine?",
			"steps": [{"stepType": "initial", "text": "", "toolCalls": [{"type": "tool-call", "toolCallId": "c1", "toolName": "searchWeb", "args": {"query": "Portland Oregon ferry"}}],
			"toolResults": [{"type": "tool-result", "toolCallId": "c1", "toolName": "searchWeb", "args": {"query": "Portland Oregon ferry"}, "result": {"results": []}}],
			"finishReason": "tool-calls", "request": {}, "response": {"id": "r1"}},
			{"stepType": "tool-result", "text": "No ferry found.", "toolCalls": [], "toolResults": [], "finishReason": "stop", "request": {}, "response": {"id": "r2"}}],
			"text": "No ferry found.", "mistake_agent": "assistant", "mistake_step": 1}`,
			[]string{"user user: Ferry to Peaks Island from Portland, Maine?", `assistant tool_call: searchWeb({"query":"Portland Oregon ferry"})`,
				`assistant tool_result: {"results":[]}`, "assistant message: No ferry found."}, &Label{Agent: "assistant", Step: 1}},
		{"AI SDK v4 steps alone, each with its request and response", `[{"text": "", "toolCalls": [{"toolCallId": "c1", "toolName": "f", "args": {"x": 1}}],
			"toolResults": [{"toolCallId": "c1", "toolName": "f", "args": {"x": 1}, "result": 2}], "finishReason": "tool-calls", "request": {}, "response": {}},
			{"text": "It is 2.", "toolCalls": [], "toolResults": [], "finishReason": "stop", "request": {}, "response": {}}]`,
			[]string{`assistant tool_call: f({"x":1})`, "assistant tool_result: 2", "assistant message: It is 2."}, nil},
		{"Responses API call log, a failed web search", `{"request": {"model": "gpt-4.1", "input": "Busiest day on the bridge?"},
			"response": {"object": "response", "status": "completed", "output": [
			{"id": "ws_1", "type": "web_search_call", "status": "failed", "action": {"type": "search", "query": "bridge busiest day"}},
			{"id": "msg_1", "type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "23 June 2019.", "annotations": []}]}]},
			"mistake_agent": "assistant", "mistake_step": 3}`,
			[]string{"user user: Busiest day on the bridge?", `assistant tool_call: web_search({"query":"bridge busiest day"})`,
				"assistant tool_result: Error: web_search failed", "assistant message: 23 June 2019."}, &Label{Agent: "assistant", Step: 3}},
		{"stored response, a web search's sources its result", `{"object": "response", "input": "Louvre visitors in 2023?", "output": [
			{"id": "ws_1", "type": "web_search_call", "status": "completed", "action": {"type": "search", "query": "Louvre visitors 2023",
			"sources": [{"type": "url", "url": "https://louvre.fr/a", "title": "Attendance 2023"}]}},
			{"id": "msg_1", "type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "8.7 million.",
			"annotations": [{"type": "url_citation", "start_index": 0, "end_index": 11, "title": "Attendance 2023", "url": "https://louvre.fr/a"}]}]}]}`,
			[]string{"user user: Louvre visitors in 2023?", `assistant tool_call: web_search({"query":"Louvre visitors 2023"})`,
				"assistant tool_result: Attendance 2023 (https://louvre.fr/a)", "assistant message: 8.7 million.\n[source: Attendance 2023 (https://louvre.fr/a)]"}, nil},
		{"Cohere v2: a tool plan and a document", `{"messages": [{"role": "user", "content": "When did Oodi open?"},
			{"role": "assistant", "tool_plan": "Oodi opened in 1998; I will search the visitors.", "tool_calls": [{"id": "s1", "type": "function", "function": {"name": "web_search", "arguments": "{\"query\": \"Oodi visitors\"}"}}]},
			{"role": "tool", "tool_call_id": "s1", "content": [{"type": "document", "document": {"data": "{\"snippet\": \"Oodi opened on 5 December 2018.\"}"}}]},
			{"role": "assistant", "content": [{"type": "text", "text": "It opened in 1998."}]}]}`,
			[]string{"user user: When did Oodi open?", "assistant tool_call: Oodi opened in 1998; I will search the visitors.",
				`tool tool_result: {"snippet": "Oodi opened on 5 December 2018."}`, "assistant message: It opened in 1998."}, nil},
		{"Anthropic: a text document and a reply's citations", `{"messages": [{"role": "user", "content": [{"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "The summit is 1,141 m."}}, {"type": "text", "text": "How high?"}]},
			{"role": "assistant", "content": [{"type": "text", "text": "1,411 m.", "citations": [{"type": "char_location", "cited_text": "The summit is 1,141 m.", "document_index": 0}]}]}]}`,
			[]string{"user user: The summit is 1,141 m.\nHow high?", "assistant message: 1,411 m.\n[source: \"The summit is 1,141 m.\"]"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, got := parsedSteps(t, tt.data)
			assert.Equal(t, tt.steps, got)
			assert.Equal(t, tt.label, c.Label)
		})
	}
}

// TestHostedCallArguments: a hosted call's action is its arguments
// without the operation its name already says and without the sources
// it returned; an operation the name does not say (a computer's click)
// stays, as do arguments of any other shape.
func TestHostedCallArguments(t *testing.T) {
	tests := []struct {
		name string
		args any
		want any
	}{
		{"a search's type and sources", map[string]any{"type": "search", "query": "q", "sources": []any{"x"}}, map[string]any{"query": "q"}},
		{"another operation of the tool", map[string]any{"type": "open_page", "url": "u"}, map[string]any{"type": "open_page", "url": "u"}},
		{"not an object", "q", "q"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, actionArgs("web_search", tt.args))
		})
	}
	assert.Equal(t, map[string]any{"type": "click", "x": 1}, actionArgs("computer", map[string]any{"type": "click", "x": 1}), "a computer's click")
}
