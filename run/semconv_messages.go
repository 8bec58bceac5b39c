package run

// The messages a span holds, wherever a convention puts them (attributes,
// events, indexed keys, JSON values), read into chat messages.

import (
	"encoding/json"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/offattr/offattr/run/spans"
)

// chatMessage is one chat message read from any convention.
type chatMessage struct {
	Role   string
	Name   string
	Text   string
	Calls  []ToolCall
	CallID string // the call a tool message answers
	From   string // the attribute or event it was read from
}

// A messageSource reads messages in one convention's way, nil when the
// span has none of them.
type messageSource func(*spans.Span) []chatMessage

// labelled says where a source's messages come from, for those that do
// not say it themselves.
func labelled(from string, src messageSource) messageSource {
	return func(s *spans.Span) []chatMessage {
		ms := src(s)
		for i := range ms {
			if ms[i].From == "" {
				ms[i].From = from
			}
		}
		return ms
	}
}

func fromJSON(key string) messageSource {
	return labelled(key, func(s *spans.Span) []chatMessage { return jsonMessages(s.Attrs, key) })
}

func fromIndexed(prefix string) messageSource {
	return labelled(prefix, func(s *spans.Span) []chatMessage { return indexedMessages(indexed(s.Attrs, prefix)) })
}

// fromIndexedOutput is fromIndexed for a model call's output, which is
// one reply: a list of the pieces it was streamed in is read as that
// reply (streamed), unless the list starts past the first piece (a record
// of the stream's later pieces only), which is no reply. An input is a conversation, and stays its messages.
// Output messages that hold nothing but their role record no reply (BeeAI
// writes its reply's tool calls as an empty assistant message, the reply
// itself in output.value): the next source is read.
func fromIndexedOutput(prefix string) messageSource {
	return labelled(prefix, func(s *spans.Span) []chatMessage {
		groups, first := indexedFrom(s.Attrs, prefix)
		if reply, ok := streamed(groups); ok {
			if first > 0 {
				return nil // the stream's later pieces only: its start is not recorded
			}
			return []chatMessage{reply}
		}
		ms := indexedMessages(groups)
		if !slices.ContainsFunc(ms, func(m chatMessage) bool { return m.Text != "" || len(m.Calls) > 0 || m.CallID != "" }) {
			return nil
		}
		return ms
	})
}

func fromEvents(output bool) messageSource {
	return labelled("GenAI events", func(s *spans.Span) []chatMessage { return eventMessages(s, output) })
}

func fromValues(role string, keys ...string) messageSource {
	return func(s *spans.Span) []chatMessage { return valueMessages(s.Attrs, role, keys...) }
}

// fromPrompt reads a model's input from free-form values, as fromValues
// reads a user's, but a text of "role: text" lines is the messages it
// flattens (flatMessages). An agent's input is what its user wrote, which
// may quote a conversation: only a model's is read so.
func fromPrompt(keys ...string) messageSource {
	return func(s *spans.Span) []chatMessage { return values(s.Attrs, "user", true, keys) }
}

// Where each convention keeps what a model call was given and answered,
// in the order they are tried: GenAI, OpenInference, GenAI's deprecated
// attributes and OpenLLMetry's numbered ones, GenAI events, then free-form
// values (Langfuse's observation input and output, OpenInference's
// input.value and output.value, OpenLLMetry's entity input and output,
// Google ADK's LLM request and response). An agent's run is read the same
// way, and where Mastra keeps it beside GenAI's operation names.
var (
	// promptKeys hold a model call's input as a free-form value: its
	// messages, or the request body that holds them.
	promptKeys   = []string{"langfuse.observation.input", "input.value", "traceloop.entity.input", "gcp.vertex.agent.llm_request", "mlflow.spanInputs", "haystack.component.input", "langsmith.inputs", "_ml_obs.meta.input.value", "langwatch.input.value"}
	inputSources = []messageSource{
		fromJSON("gen_ai.input.messages"), fromIndexed("llm.input_messages"), fromJSON("gen_ai.prompt"), fromJSON("gen_ai.request.messages"),
		fromJSON("_ml_obs.meta.input.messages"), fromJSON("$ai_input"), fromIndexed("gen_ai.prompt"), fromEvents(false), fromEventList("events", false), fromJSON("ai.prompt.messages"), labelled("ai.prompt", aiSDKPrompt),
		fromJSON("span_data.input"), fromJSON("genkit:input"), fromJSON("llm.messages"),
		fromPrompt(promptKeys...),
		fromFound(false),
	}
	// messageOutputSources hold output messages proper (with roles and
	// tool calls), not free-form values: an agent span that carries them
	// with no model call inside it recorded the model's work itself.
	messageOutputSources = []messageSource{
		fromJSON("gen_ai.output.messages"), fromIndexedOutput("llm.output_messages"), fromJSON("gen_ai.completion"),
		fromIndexedOutput("gen_ai.completion"), fromEvents(true), fromEventList("events", true), labelled("ai.response", aiSDKResponse),
		labelled("gen_ai.response.text", sentryResponse),
		fromJSON("_ml_obs.meta.output.messages"), // Datadog's
		fromJSON("$ai_output_choices"),           // PostHog's
		fromJSON("llm.generated_message"),        // promptflow
		fromJSON("span_data.output"),             // the OpenAI Agents SDK's export
		fromJSON("genkit:output"),
	}
	outputSources = append(slices.Clip(messageOutputSources),
		fromValues("assistant", "langfuse.observation.output", "output.value", "traceloop.entity.output", "gcp.vertex.agent.llm_response", "mlflow.spanOutputs", "haystack.component.output", "gen_ai.output", "langsmith.outputs", "_ml_obs.meta.output.value", "langwatch.output.value"),
		fromFound(true),
		// A tracing tool's record of a model call that keeps the answer as
		// plain text under its output (Parea's): read when no messages are.
		fromValues("assistant", "output"),
	)
	agentInputSources = []messageSource{
		fromJSON("gen_ai.input.messages"), fromJSON("gen_ai.request.messages"), labelled("ai.prompt", aiSDKPrompt), fromEventList("all_messages_events", false),
		fromValues("user", "input.value", "langfuse.observation.input", "langfuse.trace.input", "traceloop.entity.input", "mlflow.spanInputs", "haystack.component.input", "langsmith.inputs", "mastra.agent_run.input", "genkit:input", "_ml_obs.meta.input.value", "langwatch.input.value", "$ai_input_state", "input", "inputs"),
		labelled("lmnr.span.input", laminarInput),
	}
	agentOutputSources = []messageSource{
		fromJSON("gen_ai.output.messages"), labelled("ai.response", aiSDKResponse), labelled("gen_ai.response.text", sentryResponse),
		fromValues("assistant", "output.value", "langfuse.observation.output", "langfuse.trace.output", "traceloop.entity.output", "mlflow.spanOutputs", "final_result", "langsmith.outputs", "mastra.agent_run.output", "genkit:output", "_ml_obs.meta.output.value", "lmnr.span.output", "langwatch.output.value", "$ai_output_state", "output", "outputs"),
	}
)

func fromFound(output bool) messageSource {
	return func(s *spans.Span) []chatMessage { return foundMessages(s, output) }
}

// Where no convention matches, messages are looked for by their shape:
// a value holding role/content objects (a list of them, one, or JSON text
// of either) under a key that says it is an input or an output, in the
// span's attributes or in any of its events.
var (
	foundOutputWords = []string{"output", "completion", "response", "result", "answer"}
	foundInputWords  = []string{"input", "prompt", "request", "messages"}
)

// foundMessages is the general fallback: the messages of the first
// attribute or event attribute whose key has one of the words of its
// side and whose value holds messages.
func foundMessages(s *spans.Span, output bool) []chatMessage {
	words := foundInputWords
	if output {
		words = foundOutputWords
	}
	look := func(as spans.Attrs, where string) []chatMessage {
		for _, a := range as {
			if a.Value.Kind == spans.KindString && !strings.ContainsAny(a.Value.Str[:min(len(a.Value.Str), 1)], "[{") {
				continue
			}
			if !keyHas(a.Key, words) || (!output && keyHas(a.Key, foundOutputWords)) {
				continue
			}
			if x, ok := anyOf(a.Value); ok {
				if ms := messagesOf(x, ""); len(ms) > 0 && ms[0].Role != "" {
					if output {
						ms = unwrapped(ms)
					}
					for i := range ms {
						ms[i].From = where + a.Key
					}
					return ms
				}
			}
		}
		return nil
	}
	if m := look(s.Attrs, ""); m != nil {
		return m
	}
	for _, e := range s.Events {
		if m := look(e.Attrs, "event "+e.Name+": "); m != nil {
			return m
		}
	}
	return nil
}

// unwrapped reads an output message whose whole text is JSON holding
// messages of its own (a framework's result object written as the reply:
// LangChain's LLMResult, a graph state's {"messages"}, a tool message; a
// list of chat messages, each with its role, as Galileo's OpenAI wrapper
// writes a reply's) as those messages. Other messages are kept as they
// are.
func unwrapped(ms []chatMessage) []chatMessage {
	var out []chatMessage
	for _, m := range ms {
		t := strings.TrimSpace(m.Text)
		var x any
		if len(m.Calls) > 0 || !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[") || json.Unmarshal([]byte(t), &x) != nil || !roledList(x) {
			out = append(out, m)
			continue
		}
		inner := messagesOf(x, "")
		if len(inner) == 0 || inner[0].Role == "" {
			out = append(out, m)
			continue
		}
		out = append(out, inner...)
	}
	return out
}

// roledList reports whether x, when it is a list, is one of chat
// messages, each an object with its role; anything else passes.
func roledList(x any) bool {
	list, ok := x.([]any)
	if !ok {
		return true
	}
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return false
		}
		if r, _ := m["role"].(string); strings.TrimSpace(r) == "" {
			return false
		}
	}
	return len(list) > 0
}

// keyHas reports whether an attribute key has one of words as one of
// its parts (split at dots and underscores).
func keyHas(key string, words []string) bool {
	for _, part := range strings.FieldsFunc(strings.ToLower(key), func(r rune) bool { return r == '.' || r == '_' }) {
		if slices.Contains(words, part) {
			return true
		}
	}
	return false
}

// fromEventList reads GenAI events kept in one attribute, a JSON list of
// {"event.name", …}, rather than as the span's events: Pydantic AI does so
// under Logfire ("events" on a model call, "all_messages_events" on an
// agent run).
func fromEventList(key string, output bool) messageSource {
	return labelled(key, func(s *spans.Span) []chatMessage {
		v, ok := s.Attrs.Get(key)
		if !ok {
			return nil
		}
		x, _ := anyOf(v)
		list, _ := x.([]any)
		var held spans.Span
		for _, item := range list {
			m, ok := item.(map[string]any)
			if !ok {
				continue
			}
			e := spans.Event{Name: stringOrEmpty(m["event.name"])}
			for _, k := range slices.Sorted(maps.Keys(m)) {
				e.Attrs = append(e.Attrs, spans.Attr{Key: k, Value: spans.FromAny(m[k])})
			}
			held.Events = append(held.Events, e)
		}
		return eventMessages(&held, output)
	})
}

// aiSDKPrompt reads the Vercel AI SDK's ai.prompt, {"system", "prompt",
// "messages"}, where a call was given a prompt rather than messages.
func aiSDKPrompt(s *spans.Span) []chatMessage {
	v, ok := s.Attrs.Get("ai.prompt")
	if !ok {
		return nil
	}
	x, ok := anyOf(v)
	if !ok {
		if t := strings.TrimSpace(v.Text()); t != "" {
			return []chatMessage{{Role: "user", Text: t}}
		}
		return nil
	}
	m, ok := x.(map[string]any)
	if !ok {
		return messagesOf(x, "user")
	}
	var out []chatMessage
	if sys := strings.TrimSpace(stringOrEmpty(m["system"])); sys != "" {
		out = append(out, chatMessage{Role: "system", Text: sys})
	}
	if ms := messagesOf(m["messages"], "user"); len(ms) > 0 {
		return append(out, ms...)
	}
	if p := strings.TrimSpace(textOf(m["prompt"])); p != "" {
		out = append(out, chatMessage{Role: "user", Text: p})
	}
	return out
}

// aiSDKResponse reads what a Vercel AI SDK call answered: its text (or
// object) and its tool calls.
func aiSDKResponse(s *spans.Span) []chatMessage {
	msg := chatMessage{Role: "assistant", Text: firstText(s.Attrs, "ai.response.text", "ai.response.object")}
	if v, ok := s.Attrs.Get("ai.response.toolCalls"); ok {
		if x, ok := anyOf(v); ok {
			calls, _ := x.([]any)
			for _, c := range calls {
				if cm, ok := c.(map[string]any); ok {
					msg.Calls = append(msg.Calls, aiSDKCall(cm))
				}
			}
		}
	}
	if msg.Text == "" && len(msg.Calls) == 0 {
		return nil
	}
	return []chatMessage{msg}
}

// aiSDKCall reads a tool call as the AI SDK writes it, in a response or
// in a message's content ({"toolCallId", "toolName", "args" or "input"}).
func aiSDKCall(m map[string]any) ToolCall {
	args := m["args"]
	if args == nil {
		args = m["input"]
	}
	return ToolCall{ID: stringOrEmpty(m["toolCallId"]), Name: stringOrEmpty(m["toolName"]), Arguments: textOf(args)}
}

// sentryResponse reads what a call answered as Sentry's AI agent
// monitoring records it: gen_ai.response.text (its text, or a JSON list
// of the texts of its choices) and gen_ai.response.tool_calls (the
// provider's calls, as OpenAI lists them, as the Responses API's items or
// as content parts).
func sentryResponse(s *spans.Span) []chatMessage {
	m := map[string]any{"role": "assistant"}
	var content []any
	if v, ok := s.Attrs.Get("gen_ai.response.text"); ok {
		if x, ok := anyOf(v); ok {
			texts, _ := x.([]any)
			for _, t := range texts {
				content = append(content, map[string]any{"type": "text", "text": textOf(t)})
			}
		} else {
			content = append(content, map[string]any{"type": "text", "text": v.Text()})
		}
	}
	if v, ok := s.Attrs.Get("gen_ai.response.tool_calls"); ok {
		calls, _ := anyOf(v)
		list, _ := calls.([]any)
		for _, c := range list {
			cm, _ := c.(map[string]any)
			switch {
			case cm["function"] != nil:
				m["tool_calls"] = append(stillList(m["tool_calls"]), c)
			case cm["type"] == "function_call" && cm["name"] != nil:
				// The Responses API's item, as its integration with the
				// OpenAI Agents SDK records a call: {"type":
				// "function_call", "call_id", "name", "arguments"}.
				if items, ok := responsesItem(cm); ok {
					for _, tc := range items[0].Calls {
						m["tool_calls"] = append(stillList(m["tool_calls"]), map[string]any{
							"id": tc.ID, "type": "function", "function": map[string]any{"name": tc.Name, "arguments": tc.Arguments}})
					}
				}
			default:
				content = append(content, c)
			}
		}
	}
	m["content"] = content
	msg, _ := messageOf(m)
	if msg.Text == "" && len(msg.Calls) == 0 {
		return nil
	}
	return []chatMessage{msg}
}

// stillList returns x as a list, nil when it is none.
func stillList(x any) []any {
	l, _ := x.([]any)
	return l
}

// laminarInput reads what Laminar's observe() records as a function's
// input, lmnr.span.input: its arguments as a JSON list, one argument as
// that argument.
func laminarInput(s *spans.Span) []chatMessage {
	v, ok := s.Attrs.Get("lmnr.span.input")
	if !ok {
		return nil
	}
	if x, ok := anyOf(v); ok {
		if args, ok := x.([]any); ok && len(args) == 1 {
			return valueMessages(spans.Attrs{{Key: "lmnr.span.input", Value: spans.String(textOf(args[0]))}}, "user", "lmnr.span.input")
		}
	}
	return valueMessages(s.Attrs, "user", "lmnr.span.input")
}

// firstMessages returns the messages of the first source that has any.
func firstMessages(s *spans.Span, sources []messageSource) []chatMessage {
	for _, src := range sources {
		if m := src(s); len(m) > 0 {
			return m
		}
	}
	return nil
}

// inputMessages reads what a model call was given.
func inputMessages(s *spans.Span) []chatMessage { return firstMessages(s, inputSources) }

// outputMessages reads what a model call answered: the only messages of a
// model call that become steps, since its input repeats the history.
func outputMessages(s *spans.Span) []chatMessage { return firstMessages(s, outputSources) }

// agentInput and agentOutput read what an agent span was given and
// answered, for the task and for agents whose inside was not traced. An
// output that is a request (isRequest) answers nothing.
func agentInput(s *spans.Span) []chatMessage { return firstMessages(s, agentInputSources) }

func agentOutput(s *spans.Span) []chatMessage {
	ms := firstMessages(s, agentOutputSources)
	if isRequest(ms) {
		return nil
	}
	return ms
}

// isRequest reports whether an output's messages are a request for a
// model rather than anything said: each is the user's or the system's,
// as the prompt a Genkit executable prompt renders (its action's output
// is the model's input).
func isRequest(ms []chatMessage) bool {
	return len(ms) > 0 && !slices.ContainsFunc(ms, func(m chatMessage) bool { return !requestRoles[m.Role] })
}

// requestRoles are the roles of the messages a request gives a model.
var requestRoles = map[string]bool{"user": true, "human": true, "system": true, "developer": true}

// jsonMessages reads a messages attribute written as JSON text or as a
// structured value: the GenAI schema ({role, parts: [{type, content}]}) or
// OpenAI's ({role, content, tool_calls}).
func jsonMessages(as spans.Attrs, key string) []chatMessage {
	v, ok := as.Get(key)
	if !ok {
		return nil
	}
	x, ok := anyOf(v)
	if !ok {
		return nil
	}
	return messagesOf(x, "")
}

// textMessages reads a content event's messages: JSON messages, else its
// text, as OpenLIT writes it, the conversation flattened to "role:
// content" lines (flatMessages) or the one message of role.
func textMessages(as spans.Attrs, key, role string) []chatMessage {
	if ms := jsonMessages(as, key); len(ms) > 0 {
		return ms
	}
	if v, ok := as.Get(key); ok {
		if _, isJSON := anyOf(v); isJSON {
			return nil // JSON that holds no message
		}
	}
	return values(as, role, true, []string{key})
}

// anyOf returns a value as decoded JSON: structured values as they are,
// strings parsed when they hold a JSON object or array.
func anyOf(v spans.Value) (any, bool) {
	switch v.Kind {
	case spans.KindList, spans.KindMap:
		return v.Any(), true
	case spans.KindString:
		t := strings.TrimSpace(v.Str)
		if t == "" || (t[0] != '[' && t[0] != '{') {
			return nil, false
		}
		var x any
		if json.Unmarshal([]byte(t), &x) != nil {
			return nil, false
		}
		return x, true
	}
	return nil, false
}

// valueMessages reads free-form input or output values (OpenInference's
// input.value, Langfuse's observation input…): messages when the value
// holds them, else the text itself as one message of role.
func valueMessages(as spans.Attrs, role string, keys ...string) []chatMessage {
	return values(as, role, false, keys)
}

// values is valueMessages, reading a text as the messages it flattens
// when flat.
func values(as spans.Attrs, role string, flat bool, keys []string) []chatMessage {
	for _, k := range keys {
		v, ok := as.Get(k)
		if !ok {
			continue
		}
		if x, ok := anyOf(v); ok {
			if m := messagesOf(x, role); len(m) > 0 {
				for i := range m {
					m[i].From = k
				}
				return m
			}
			if t := textOf(x); t != "" {
				return []chatMessage{{Role: role, Text: t, From: k}}
			}
			continue
		}
		if t := strings.TrimSpace(unquote(v.Text())); t != "" {
			if ms, ok := flatMessages(t); ok && flat {
				for i := range ms {
					ms[i].From = k
				}
				return ms
			}
			return []chatMessage{{Role: role, Text: t, From: k}}
		}
	}
	return nil
}

// flatRoles are the roles a conversation flattened to text names at the
// start of its lines, and the roles they stand for.
var flatRoles = map[string]string{"system": "system", "developer": "system", "user": "user", "human": "user", "assistant": "assistant", "ai": "assistant", "tool": "tool"}

// flatMessages reads a model's input flattened to text, each message
// starting a line with its role and a colon ("system: …\nuser: …", as
// Langfuse's OpenAI integration records a prompt, or "System: …\nHuman:
// …", as LangChain renders one), as those messages. ok is false unless the
// text starts with a role and holds two messages or more: a line that only
// looks so inside one message is that message's text. A writer spells
// every role alike, in lower case or not, so a line whose role is spelt
// otherwise than the first's is text too (a system prompt's examples,
// "User: …\nAssistant: …", in a prompt Langfuse flattened).
func flatMessages(text string) (ms []chatMessage, ok bool) {
	lower := false // how the first role is spelt
	for line := range strings.Lines(text) {
		name, rest, found := strings.Cut(line, ":")
		if role := flatRoles[strings.ToLower(name)]; found && role != "" && (rest == "" || rest[0] == ' ' || rest[0] == '\n') && (len(ms) == 0 || lower == (name == strings.ToLower(name))) {
			lower = name == strings.ToLower(name)
			ms = append(ms, chatMessage{Role: role, Text: rest})
			continue
		}
		if len(ms) == 0 {
			return nil, false
		}
		ms[len(ms)-1].Text += line
	}
	if len(ms) < 2 {
		return nil, false
	}
	for i := range ms {
		ms[i].Text = strings.TrimSpace(ms[i].Text)
	}
	return ms, true
}

// toolRequests reads a model's output written as the list of tool calls
// it requests, [{"tool.name": …, "tool.args": …}] (any-agent's
// gen_ai.output) or [{"toolCallId", "toolName", "input" or "args"}] (the
// Vercel AI SDK's toolCalls, as Langfuse keeps a generation's output):
// one assistant message making them.
func toolRequests(list []any) (chatMessage, bool) {
	msg := chatMessage{Role: "assistant"}
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return chatMessage{}, false
		}
		switch {
		case stringOrEmpty(m["tool.name"]) != "":
			msg.Calls = append(msg.Calls, ToolCall{Name: stringOrEmpty(m["tool.name"]), Arguments: textOf(m["tool.args"])})
		case stringOrEmpty(m["toolName"]) != "" && m["role"] == nil && m["type"] == nil:
			msg.Calls = append(msg.Calls, aiSDKCall(m))
		default:
			return chatMessage{}, false
		}
	}
	return msg, len(msg.Calls) > 0
}

// messagesOf finds the messages in a decoded JSON value: a list of them,
// one, or one under a key frameworks use ("messages", OpenAI's
// "choices[].message", "output", "input").
func messagesOf(x any, role string) []chatMessage {
	switch t := x.(type) {
	case []any:
		if msg, ok := toolRequests(t); ok {
			return []chatMessage{msg}
		}
		if len(t) == 1 {
			if prompt, ok := t[0].([]any); ok {
				// A batch of one prompt, as LangChain hands a chat
				// model's callbacks its messages ([[…]]): that prompt.
				// A batch of several is no one conversation.
				return messagesOf(prompt, role)
			}
		}
		var out []chatMessage
		for _, e := range t {
			m, ok := e.(map[string]any)
			if !ok {
				continue
			}
			if msg, ok := messageOf(m); ok {
				out = append(out, msg)
			} else if msg, ok := choiceMessage(m); ok { // OpenAI's choices, listed bare
				out = append(out, msg)
			} else if _, ok := m["choices"]; ok || m["lg_name"] == "Command" {
				out = append(out, messagesOf(m, role)...) // a list of chat completions, or of Commands
			} else if msgs, ok := responsesItem(m); ok {
				for _, msg := range msgs {
					if n := len(out); n > 0 && len(msg.Calls) > 0 && out[n-1].Role == "assistant" && out[n-1].Text == "" && len(out[n-1].Calls) > 0 && out[n-1].From == "" {
						out[n-1].Calls = append(out[n-1].Calls, msg.Calls...) // one turn's calls, one message
						continue
					}
					out = append(out, msg)
				}
			}
		}
		return out
	case map[string]any:
		if msg, ok := messageOf(t); ok {
			return []chatMessage{msg}
		}
		for _, k := range []string{"messages", "contents", "replies"} { // OpenAI's, Gemini's, Haystack's
			if ms, ok := t[k]; ok {
				return messagesOf(ms, role)
			}
		}
		if c, ok := t["content"].(map[string]any); ok { // a Gemini response
			return messagesOf(c, role)
		}
		if m, ok := t["message"].(map[string]any); ok { // a response holding its message (Genkit's, Ollama's)
			return messagesOf(m, role)
		}
		if u, ok := t["update"].(map[string]any); ok && t["lg_name"] == "Command" { // a LangGraph Command's state update
			return messagesOf(u, role)
		}
		if gs, ok := t["generations"].([]any); ok {
			return generations(gs)
		}
		if cs, ok := t["choices"].([]any); ok {
			var out []chatMessage
			if docs := searchResults(t["search_results"]); docs != "" {
				// What the search gave the answer, fetched for it: a tool's result.
				out = append(out, chatMessage{Role: "tool", Name: "search_results", Text: docs})
			}
			for _, c := range cs {
				if cm, ok := c.(map[string]any); ok {
					if msg, ok := choiceMessage(cm); ok {
						out = append(out, msg)
					}
				}
			}
			return out
		}
		if o, ok := t["output"].([]any); ok && (len(t) == 1 || t["object"] == "response") { // a tracer's wrapper of what a node returned; a Responses API response
			return messagesOf(o, role)
		}
		if msg, ok := textAndCalls(t); ok {
			return []chatMessage{msg}
		}
		for _, k := range []string{"output", "input", "task", "query", "question", "content", "text"} {
			if s, ok := t[k].(string); ok && strings.TrimSpace(s) != "" {
				return []chatMessage{{Role: role, Text: strings.TrimSpace(s)}}
			}
		}
	}
	return nil
}

// searchResults is the text of the pages a search-grounded completion
// (Perplexity's) lists in its "search_results", each after its title
// and address.
func searchResults(x any) string {
	list, _ := x.([]any)
	var texts []string
	for _, e := range list {
		r, _ := e.(map[string]any)
		text := strings.TrimSpace(stringOrEmpty(r["snippet"]))
		if text == "" {
			continue
		}
		name := strings.TrimSpace(stringOrEmpty(r["title"]))
		if u := strings.TrimSpace(stringOrEmpty(r["url"])); u != "" {
			name = strings.TrimSpace(name + " (" + u + ")")
		}
		if name != "" {
			text = name + ": " + text
		}
		texts = append(texts, text)
	}
	return strings.Join(texts, "\n\n")
}

// textAndCalls reads a model call's result as the Vercel AI SDK's
// generate functions give it and Mastra records each step of a generation,
// {"text", "toolCalls": [{"toolCallId", "toolName", "args" or "input"}]}
// with no role: one assistant message saying the text and making the
// calls.
func textAndCalls(t map[string]any) (chatMessage, bool) {
	text, ok := t["text"].(string)
	calls, listed := t["toolCalls"].([]any)
	if !ok || !listed || t["role"] != nil {
		return chatMessage{}, false
	}
	msg := chatMessage{Role: "assistant", Text: strings.TrimSpace(text)}
	if len(calls) > 0 {
		req, ok := toolRequests(calls)
		if !ok {
			return chatMessage{}, false
		}
		msg.Calls = req.Calls
	}
	return msg, msg.Text != "" || len(msg.Calls) > 0
}

// choiceMessage reads one of OpenAI's choices, {"index", "message",
// "finish_reason"}: its message.
func choiceMessage(c map[string]any) (chatMessage, bool) {
	m, ok := c["message"].(map[string]any)
	if !ok {
		return chatMessage{}, false
	}
	return messageOf(m)
}

// responsesItem reads an item of OpenAI's Responses API that is no
// message: a function call the model made ({"type": "function_call",
// "call_id" or "callId", "name", "arguments"}) or its output
// ({"type": "function_call_output", "call_id", "output"}), or a call of a
// tool the API runs itself (web_search_call) and what came of it, as a
// dump's item is read (responsesItems), a failure written as an error.
func responsesItem(m map[string]any) ([]chatMessage, bool) {
	id := stringOrEmpty(m["call_id"])
	if id == "" {
		id = stringOrEmpty(m["callId"])
	}
	typ, _ := m["type"].(string)
	switch {
	case typ == "function_call":
		return []chatMessage{{Role: "assistant", Calls: []ToolCall{{ID: id, Name: stringOrEmpty(m["name"]), Arguments: textOf(m["arguments"])}}}}, true
	case typ == "function_call_output":
		return []chatMessage{{Role: "tool", CallID: id, Text: contentOf(m["output"])}}, true
	case strings.HasSuffix(typ, "_call") && m["name"] == nil:
		var out []chatMessage
		for _, dm := range responsesItems(m, typ) {
			if dm.failed {
				dm.Text = errorText(dm.Text)
			}
			out = append(out, dm.chatMessage)
		}
		return out, len(out) > 0
	}
	return nil, false
}

// generations reads LangChain's LLMResult, {"generations": [[{"text",
// "message"}]]}: a list of candidate replies per prompt, each with its
// text and, when the model called tools, the message that carries them.
func generations(gs []any) []chatMessage {
	var out []chatMessage
	for _, g := range gs {
		list, _ := g.([]any)
		for _, c := range list {
			cm, ok := c.(map[string]any)
			if !ok {
				continue
			}
			m, _ := cm["message"].(map[string]any)
			m = maps.Clone(m)
			if m == nil {
				m = map[string]any{}
			}
			if _, ok := m["content"]; !ok {
				m["content"] = cm["text"]
			}
			if m["role"] == nil && m["type"] == nil {
				m["role"] = "assistant"
			}
			if msg, ok := messageOf(m); ok {
				out = append(out, msg)
			}
		}
	}
	return out
}

// langChainRoles are the roles LangChain's message types stand for.
var langChainRoles = map[string]string{"human": "user", "ai": "assistant", "AIMessageChunk": "assistant", "tool": "tool", "system": "system", "function": "tool"}

// langChainClasses are LangChain's message classes and the types they
// stand for.
var langChainClasses = map[string]string{"HumanMessage": "human", "AIMessage": "ai", "AIMessageChunk": "ai", "ToolMessage": "tool", "SystemMessage": "system", "FunctionMessage": "function"}

// messageOf reads one message object; ok is false when it has no role.
func messageOf(m map[string]any) (chatMessage, bool) {
	role, _ := m["role"].(string)
	if role == "" {
		role, _ = m["_role"].(string) // Haystack's ChatMessage as a dataclass
	}
	if role == "" {
		if kw, ok := m["kwargs"].(map[string]any); ok { // LangChain's serialised objects: {"lc", "id", "kwargs": {…}}
			if msg, ok := messageOf(kw); ok {
				return msg, true
			}
			// LangChain.js leaves the type out of the kwargs: the class
			// the id ends with says it.
			if id, ok := m["id"].([]any); ok && len(id) > 0 && kw["type"] == nil {
				if class, ok := id[len(id)-1].(string); ok && langChainClasses[class] != "" {
					kw = maps.Clone(kw)
					kw["type"] = langChainClasses[class]
					return messageOf(kw)
				}
			}
			return chatMessage{}, false
		}
		if kw, ok := m["lc_kwargs"].(map[string]any); ok && kw["tool_call_id"] != nil && kw["type"] == nil {
			// LangChain.js's ToolMessage written as its fields
			// ({"lc_serializable", "lc_kwargs", "lc_namespace", …}, as
			// Langfuse's LangChain handler sends a tool's result): of
			// LangChain's messages only a tool's answers a call.
			kw = maps.Clone(kw)
			kw["type"] = "tool"
			return messageOf(kw)
		}
		if _, ok := m["content"]; ok {
			role = langChainRoles[stringOrEmpty(m["type"])] // LangChain's messages: {"type": "human", "content"}
		}
	}
	if role == "" {
		return chatMessage{}, false
	}
	if _, ok := m["content"]; !ok {
		if c, ok := m["_content"]; ok {
			m = maps.Clone(m)
			m["content"] = c
		}
	}
	msg := chatMessage{Role: role}
	msg.Name, _ = m["name"].(string)
	msg.CallID, _ = m["tool_call_id"].(string)
	var texts []string
	if parts, ok := m["parts"].([]any); ok {
		for _, p := range parts {
			pm, ok := p.(map[string]any)
			if !ok {
				continue
			}
			typ, _ := pm["type"].(string)
			if typ == "" { // Gemini's parts say what they are by their key
				for _, k := range []string{"text", "function_call", "function_response", "functionCall", "functionResponse"} {
					if _, ok := pm[k]; ok {
						typ = k
						break
					}
				}
			}
			if isReasoning(typ) {
				continue
			}
			switch typ {
			case "text":
				t, ok := pm["text"].(string)
				if !ok {
					t = textOf(pm["content"])
				}
				if call, ok := reprCall(t); ok { // a call printed as its SDK object
					msg.Calls = append(msg.Calls, call)
				} else {
					texts = append(texts, t)
				}
			case "function_call", "functionCall":
				fc, _ := pm[typ].(map[string]any)
				msg.Calls = append(msg.Calls, ToolCall{ID: stringOrEmpty(fc["id"]), Name: stringOrEmpty(fc["name"]), Arguments: textOf(fc["args"])})
			case "function_response", "functionResponse":
				fr, _ := pm[typ].(map[string]any)
				msg.CallID = stringOrEmpty(fr["id"])
				texts = append(texts, textOf(fr["response"]))
			case "tool_call":
				msg.Calls = append(msg.Calls, ToolCall{ID: stringOrEmpty(pm["id"]), Name: stringOrEmpty(pm["name"]), Arguments: textOf(pm["arguments"])})
			case "tool_call_response":
				msg.CallID = strings.TrimSpace(stringOrEmpty(pm["id"]))
				r := pm["response"]
				if r == nil {
					r = pm["result"]
				}
				texts = append(texts, textOf(r))
			default:
				if c := textOf(pm["content"]); c != "" {
					texts = append(texts, c)
				} else if typ != "" {
					texts = append(texts, "["+typ+"]")
				}
			}
		}
	} else {
		texts = append(texts, contentOf(m["content"]))
		texts = append(texts, toolParts(m["content"], &msg)...)
	}
	calls, ok := m["tool_calls"].([]any)
	if !ok { // LangChain keeps OpenAI's calls in additional_kwargs
		kw, _ := m["additional_kwargs"].(map[string]any)
		calls, _ = kw["tool_calls"].([]any)
	}
	for _, c := range calls {
		cm, ok := c.(map[string]any)
		if !ok {
			continue
		}
		if f, ok := cm["function"].(map[string]any); ok {
			msg.Calls = append(msg.Calls, ToolCall{ID: stringOrEmpty(cm["id"]), Name: stringOrEmpty(f["name"]), Arguments: textOf(f["arguments"])})
		} else { // LangChain's own, {"name", "args", "id"}; Datadog's, {"name", "arguments", "tool_id"}; Inspect AI's, {"id", "function": NAME, "arguments"}
			args := cm["args"]
			if args == nil {
				args = cm["arguments"]
			}
			name := firstNonEmpty(stringOrEmpty(cm["name"]), stringOrEmpty(cm["function"]))
			msg.Calls = append(msg.Calls, ToolCall{ID: firstNonEmpty(stringOrEmpty(cm["id"]), stringOrEmpty(cm["tool_id"])), Name: name, Arguments: textOf(args)})
		}
	}
	// Datadog's tool messages: {"role": "tool", "tool_results": [{"name",
	// "result", "tool_id"}]}.
	if results, ok := m["tool_results"].([]any); ok {
		for _, r := range results {
			if rm, ok := r.(map[string]any); ok {
				texts = append(texts, textOf(rm["result"]))
				if msg.CallID == "" {
					msg.CallID = stringOrEmpty(rm["tool_id"])
				}
			}
		}
	}
	msg.Text = strings.TrimSpace(strings.Join(nonEmpty(texts), "\n"))
	callsAsText(&msg)
	return msg, true
}

// isReasoning reports whether a message part's type is a model's
// reasoning (GenAI's "reasoning", or a framework's own type named so, as
// Microsoft.Extensions.AI's TextReasoningContent): it is not what the
// message says, and may be an opaque token the provider signs.
func isReasoning(typ string) bool {
	return strings.Contains(strings.ToLower(typ), "reasoning")
}

// callsAsText reads a message whose whole content is a list of OpenAI tool
// calls ([{"id", "type": "function", "function": {"name", "arguments"}}],
// as Koog and others write the calls a model made into the content) as
// those calls. The text stays as the message wrote it, as the tracer's
// own view of the message shows it; OnlyCalls knows it for the calls.
func callsAsText(m *chatMessage) {
	if len(m.Calls) > 0 {
		return
	}
	if calls, ok := writtenCalls(m.Text); ok {
		m.Calls = calls
	}
}

// writtenCalls reads text that is a list of OpenAI tool calls, written as
// JSON, as those calls; ok is false for any other text.
func writtenCalls(text string) ([]ToolCall, bool) {
	if !strings.HasPrefix(text, "[") || !strings.Contains(text, `"function"`) {
		return nil, false
	}
	var list []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function *struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	}
	if json.Unmarshal([]byte(text), &list) != nil || len(list) == 0 {
		return nil, false
	}
	calls := make([]ToolCall, 0, len(list))
	for _, c := range list {
		if c.Function == nil || c.Function.Name == "" || c.Type != "" && c.Type != "function" {
			return nil, false
		}
		var args any
		if len(c.Function.Arguments) > 0 && json.Unmarshal(c.Function.Arguments, &args) != nil {
			return nil, false
		}
		calls = append(calls, ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: textOf(args)})
	}
	return calls, true
}

// toolParts reads the tool calls and results among a message's content
// parts, as the Vercel AI SDK ({"type": "tool-call", …}), Anthropic
// ({"type": "tool_use", …}, {"type": "tool_result", …}), Haystack
// ({"tool_call": …}, {"tool_call_result": …}), Genkit ({"toolRequest":
// …}, {"toolResponse": …}) and Bedrock ({"toolUse": …}, {"toolResult": …})
// write them, and returns the texts of results contentOf does not read.
func toolParts(c any, msg *chatMessage) []string {
	parts, _ := c.([]any)
	var texts []string
	for _, p := range parts {
		pm, ok := p.(map[string]any)
		if !ok {
			continue
		}
		switch {
		case pm["type"] == "tool-call" && pm["function"] != nil && pm["toolName"] == nil:
			// A call part as PostHog normalises one, {"type": "tool-call",
			// "id", "function": {"name", "arguments"}} (Mastra's exporter
			// writes a generation's calls so).
			f, _ := pm["function"].(map[string]any)
			msg.Calls = append(msg.Calls, ToolCall{ID: stringOrEmpty(pm["id"]), Name: stringOrEmpty(f["name"]), Arguments: textOf(f["arguments"])})
		case pm["type"] == "tool-call":
			msg.Calls = append(msg.Calls, aiSDKCall(pm))
		case pm["type"] == "tool-result":
			answers(msg, pm["toolCallId"])
		case pm["type"] == "function" && pm["function"] != nil: // an OpenAI call as a part, as PostHog writes a reply's calls
			f, _ := pm["function"].(map[string]any)
			msg.Calls = append(msg.Calls, ToolCall{ID: stringOrEmpty(pm["id"]), Name: stringOrEmpty(f["name"]), Arguments: textOf(f["arguments"])})
		case pm["type"] == "tool_use", pm["type"] == "server_tool_use", pm["type"] == "mcp_tool_use": // Anthropic's Messages API: a tool of the client's, the API's or an MCP server's
			msg.Calls = append(msg.Calls, partCall(pm, "id", "name", "input"))
		case pm["type"] == "tool_result":
			answers(msg, pm["tool_use_id"])
		case pm["tool_call"] != nil:
			tc, _ := pm["tool_call"].(map[string]any)
			msg.Calls = append(msg.Calls, partCall(tc, "id", "tool_name", "arguments"))
		case pm["type"] == "toolRequest": // Goose's: {"id", "toolCall": {"status", "value": {"name", "arguments"}}}
			tc, _ := pm["toolCall"].(map[string]any)
			v, _ := tc["value"].(map[string]any)
			c := partCall(v, "id", "name", "arguments")
			c.ID = stringOrEmpty(pm["id"])
			msg.Calls = append(msg.Calls, c)
		case pm["type"] == "toolResponse":
			answers(msg, pm["id"])
			text, _ := gooseResult(pm)
			texts = append(texts, text)
		case pm["toolUse"] != nil: // Bedrock's content blocks, as Strands writes them
			tu, _ := pm["toolUse"].(map[string]any)
			msg.Calls = append(msg.Calls, partCall(tu, "toolUseId", "name", "input"))
		case pm["type"] == "toolUse":
			msg.Calls = append(msg.Calls, partCall(pm, "toolUseId", "name", "input"))
		case pm["toolResult"] != nil:
			tr, _ := pm["toolResult"].(map[string]any)
			answers(msg, tr["toolUseId"])
			texts = append(texts, contentOf(tr["content"]))
		case pm["toolRequest"] != nil: // Genkit's parts
			tr, _ := pm["toolRequest"].(map[string]any)
			msg.Calls = append(msg.Calls, partCall(tr, "ref", "name", "input"))
		case pm["toolResponse"] != nil:
			tr, _ := pm["toolResponse"].(map[string]any)
			answers(msg, tr["ref"])
			texts = append(texts, textOf(tr["output"]))
		case pm["tool_call_result"] != nil:
			r, _ := pm["tool_call_result"].(map[string]any)
			if origin, ok := r["origin"].(map[string]any); ok && msg.CallID == "" {
				msg.CallID = stringOrEmpty(origin["id"])
			}
			texts = append(texts, textOf(r["result"]))
		}
	}
	return texts
}

// partCall reads a call from a content part, by the keys its format
// gives the call's id, name and arguments.
func partCall(p map[string]any, id, name, args string) ToolCall {
	return ToolCall{ID: stringOrEmpty(p[id]), Name: stringOrEmpty(p[name]), Arguments: textOf(p[args])}
}

// answers records the call a result part answers, unless the message
// names one already.
func answers(msg *chatMessage, id any) {
	if msg.CallID == "" {
		msg.CallID = stringOrEmpty(id)
	}
}

// contentOf reads OpenAI content: a string or a list of typed parts.
func contentOf(c any) string {
	parts, ok := c.([]any)
	if !ok {
		return textOf(c)
	}
	var texts []string
	for _, p := range parts {
		switch t := p.(type) {
		case string:
			texts = append(texts, t)
		case map[string]any:
			switch typ, _ := t["type"].(string); {
			case typ == "tool-call", typ == "tool_use", typ == "server_tool_use", typ == "mcp_tool_use", typ == "toolUse", typ == "toolRequest", typ == "toolResponse", typ == "function" && t["function"] != nil: // a call or Goose's result, read by toolParts
			case typ == "tool_result": // Anthropic's: its content is text or parts
				texts = append(texts, contentOf(t["content"]))
			case typ == "tool-result":
				r := t["result"]
				if r == nil {
					r = t["output"]
				}
				texts = append(texts, toolOutputText(r))
			case t["text"] != nil:
				texts = append(texts, stringOrEmpty(t["text"]))
				texts = append(texts, citedSources(t)...)
			case typ == "" && t["json"] != nil: // Bedrock's JSON block
				texts = append(texts, textOf(t["json"]))
			case typ != "" && typ != "text":
				texts = append(texts, "["+typ+"]")
			}
		}
	}
	return strings.Join(nonEmpty(texts), "\n")
}

// citedSources are the sources a text part cites, as a reply shows them
// beside its words: the Responses API's url_citation annotations (a
// page's title and address) and Anthropic's citations (a page's title and
// address, and the text quoted), each once, one a line, written
// "[source: TITLE (URL): "QUOTED"]". What a reply rests on is part of what it says: an answer
// citing a page of another year than it states has read that page.
func citedSources(part map[string]any) []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range []string{"annotations", "citations"} {
		list, _ := part[k].([]any)
		for _, e := range list {
			c, _ := e.(map[string]any)
			if c == nil {
				continue
			}
			line := strings.TrimSpace(stringOrEmpty(c["title"]))
			if u := strings.TrimSpace(stringOrEmpty(c["url"])); u != "" {
				line = strings.TrimSpace(line + " (" + u + ")")
			}
			if q := strings.TrimSpace(stringOrEmpty(c["cited_text"])); q != "" {
				line = strings.TrimPrefix(line+": ", ": ") + strconv.Quote(q)
			}
			if line == "" {
				continue
			}
			if !seen[line] {
				seen[line] = true
				out = append(out, "[source: "+line+"]")
			}
		}
	}
	return out
}

// toolOutputText reads a tool's result as the Vercel AI SDK writes it
// since its fifth version, {"type": "text" | "json" | "error-text" |
// "error-json" | "content", "value"}: the value, an error's marked as
// one. Any other result is rendered by textOf.
func toolOutputText(r any) string {
	m, _ := r.(map[string]any)
	typ, _ := m["type"].(string)
	v, ok := m["value"]
	if !ok || typ == "" || len(m) != 2 {
		return textOf(r)
	}
	if typ == "content" {
		return contentOf(v)
	}
	t := textOf(v)
	if strings.HasPrefix(typ, "error") {
		return errorText(t)
	}
	return t
}

// textOf renders a decoded JSON value as text: strings as they are,
// anything else as compact JSON.
func textOf(x any) string {
	switch t := x.(type) {
	case nil:
		return ""
	case string:
		return t
	default:
		return spans.JSONText(t)
	}
}

// stringOrEmpty is x when x is a string (a decoded JSON value), else "".
func stringOrEmpty(x any) string {
	s, _ := x.(string)
	return s
}

func nonEmpty(ss []string) []string {
	out := ss[:0:0]
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

// indexedMessages reads messages flattened into numbered attributes, as
// indexed groups them:
// OpenInference's llm.input_messages.N.message.role/content/tool_calls…
// and OpenLLMetry's gen_ai.prompt.N.role/content.
func indexedMessages(groups []spans.Attrs) []chatMessage {
	var out []chatMessage
	for _, e := range groups {
		m := chatMessage{
			Role:   firstStr(e, "message.role", "role"),
			Name:   firstStr(e, "message.name", "name"),
			CallID: firstStr(e, "message.tool_call_id", "tool_call_id"),
			Text:   firstStr(e, "message.content", "content"),
		}
		if m.Text == "" {
			var texts []string
			for _, c := range indexed(e, "message.contents") {
				if t := c.Str("message_content.text"); t != "" {
					texts = append(texts, t)
				}
			}
			m.Text = strings.Join(texts, "\n")
		}
		if m.Text == "" {
			m.Text = strings.Join(numbered(e, "message.content"), "\n") // message.content.N, content as a list of texts
		}
		for _, c := range indexed(e, "message.tool_calls") {
			m.Calls = append(m.Calls, ToolCall{ID: c.Str("tool_call.id"), Name: c.Str("tool_call.function.name"), Arguments: firstText(c, "tool_call.function.arguments")})
		}
		for _, c := range indexed(e, "tool_calls") {
			m.Calls = append(m.Calls, ToolCall{ID: c.Str("id"), Name: c.Str("name"), Arguments: firstText(c, "arguments")})
		}
		if n := e.Str("message.function_call_name"); n != "" {
			m.Calls = append(m.Calls, ToolCall{Name: n, Arguments: e.Str("message.function_call_arguments_json")})
		}
		callsAsText(&m)
		if m.Role == "" && m.Text == "" && len(m.Calls) == 0 {
			continue
		}
		if m.Role == "" {
			m.Role = "assistant"
		}
		out = append(out, m)
	}
	return out
}

// streamedPieces is how many text pieces a list of messages must hold,
// and streamedPiece how short most of them must be, to be read as one
// reply streamed a token or so at a time.
const (
	streamedPieces = 8
	streamedPiece  = 16
)

// streamed reads a list of numbered messages that is one reply recorded
// as the pieces it was streamed in (BeeAI writes each chunk as an output
// message): many assistant messages, text only, most of them a few bytes.
// The reply is the pieces joined as they were, spaces and all.
func streamed(groups []spans.Attrs) (chatMessage, bool) {
	if len(groups) < streamedPieces {
		return chatMessage{}, false
	}
	var b strings.Builder
	short := 0
	for _, e := range groups {
		role := firstStr(e, "message.role", "role")
		if role != "" && role != "assistant" || len(indexed(e, "message.tool_calls")) > 0 || len(indexed(e, "tool_calls")) > 0 {
			return chatMessage{}, false
		}
		piece := e.Str("message.content")
		if len(piece) < streamedPiece {
			short++
		}
		b.WriteString(piece)
	}
	text := strings.TrimSpace(b.String())
	if 2*short < len(groups) || text == "" {
		return chatMessage{}, false
	}
	return chatMessage{Role: "assistant", Text: text}, true
}

// indexed groups the attributes prefix.N.rest by N, in order of N, each
// group keyed by rest. A list value under prefix itself (as flat span
// dumps write it) is read the same way, its objects flattened to dotted
// keys.
func indexed(as spans.Attrs, prefix string) []spans.Attrs {
	groups, _ := indexedFrom(as, prefix)
	return groups
}

// indexedFrom is indexed, with the lowest N the groups start at (0 for a
// list under prefix itself, -1 when there is none).
func indexedFrom(as spans.Attrs, prefix string) (groups []spans.Attrs, first int) {
	if v, ok := as.Get(prefix); ok && v.Kind == spans.KindList {
		out := make([]spans.Attrs, 0, len(v.List))
		for _, e := range v.List {
			var flat spans.Attrs
			flattenValue("", e, &flat)
			out = append(out, flat)
		}
		return out, 0
	}
	byN := map[int]spans.Attrs{}
	p := prefix + "."
	for _, a := range as {
		if !strings.HasPrefix(a.Key, p) {
			continue
		}
		rest := a.Key[len(p):]
		dot := strings.IndexByte(rest, '.')
		if dot <= 0 {
			continue
		}
		n, err := strconv.Atoi(rest[:dot])
		if err != nil || n < 0 {
			continue
		}
		byN[n] = append(byN[n], spans.Attr{Key: rest[dot+1:], Value: a.Value})
	}
	if len(byN) == 0 {
		return nil, -1
	}
	ns := make([]int, 0, len(byN))
	for n := range byN {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	out := make([]spans.Attrs, len(ns))
	for i, n := range ns {
		out[i] = byN[n]
	}
	return out, ns[0]
}

// numbered returns the texts of the attributes prefix.N, in order of N.
func numbered(as spans.Attrs, prefix string) []string {
	byN := map[int]string{}
	p := prefix + "."
	for _, a := range as {
		if rest, ok := strings.CutPrefix(a.Key, p); ok {
			if n, err := strconv.Atoi(rest); err == nil && n >= 0 {
				byN[n] = a.Value.Text()
			}
		}
	}
	var out []string
	for _, n := range slices.Sorted(maps.Keys(byN)) {
		if t := strings.TrimSpace(byN[n]); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// flattenValue writes a map value as dotted keys; lists under a key are
// kept whole, for indexed to read.
func flattenValue(key string, v spans.Value, out *spans.Attrs) {
	if v.Kind == spans.KindMap {
		for _, a := range v.Map {
			k := a.Key
			if key != "" {
				k = key + "." + a.Key
			}
			flattenValue(k, a.Value, out)
		}
		return
	}
	if key != "" {
		*out = append(*out, spans.Attr{Key: key, Value: v})
	}
}

// eventMessages reads the GenAI events older instrumentations record on
// the span: gen_ai.{system,user,assistant,tool}.message and gen_ai.choice
// with the message in their attributes, or gen_ai.content.prompt and
// gen_ai.content.completion holding gen_ai.prompt / gen_ai.completion.
// partsMessage reads an event attribute that holds a message's content
// as a list of parts (Strands writes Bedrock's content blocks: {"text"},
// {"toolUse"}, {"toolResult"}) as a message of role; ok is false when the
// attribute holds no such list.
func partsMessage(as spans.Attrs, key, role string) (chatMessage, bool) {
	v, ok := as.Get(key)
	if !ok {
		return chatMessage{}, false
	}
	x, ok := anyOf(v)
	parts, isList := x.([]any)
	if !ok || !isList || len(parts) == 0 {
		return chatMessage{}, false
	}
	for _, p := range parts {
		if _, ok := p.(map[string]any); !ok {
			return chatMessage{}, false
		}
	}
	return messageOf(map[string]any{"role": role, "content": parts})
}

// choiceOf reads a choice event's message written without its role
// ({"content", "tool_calls"}), which the GenAI events leave out when it
// is the assistant's; ok is false for any other message.
func choiceOf(as spans.Attrs) (chatMessage, bool) {
	v, ok := as.Get("message")
	if !ok {
		return chatMessage{}, false
	}
	x, _ := anyOf(v)
	m, ok := x.(map[string]any)
	if !ok || m["role"] != nil {
		return chatMessage{}, false
	}
	m = maps.Clone(m)
	m["role"] = "assistant"
	return messageOf(m)
}

// eventBody returns an event's attributes with its body's fields among
// them, where the body is one JSON object under gen_ai.event.content (as
// Azure AI Inference's tracing writes a message event's body on a span):
// the fields the GenAI events' bodies hold (content, message, tool_calls,
// id) as the event's own attributes. The event's own attributes come
// first, in file order; the body's follow, by name.
func eventBody(as spans.Attrs) spans.Attrs {
	v, ok := as.Get("gen_ai.event.content")
	if !ok {
		return as
	}
	x, _ := anyOf(v)
	body, ok := x.(map[string]any)
	if !ok {
		return as
	}
	out := slices.Clip(as)
	for _, k := range slices.Sorted(maps.Keys(body)) {
		out = append(out, spans.Attr{Key: k, Value: spans.FromAny(body[k])})
	}
	return out
}

func eventMessages(s *spans.Span, output bool) []chatMessage {
	var out []chatMessage
	for _, e := range s.Events {
		e.Attrs = eventBody(e.Attrs)
		switch {
		case !output && e.Name == "gen_ai.content.prompt":
			out = append(out, textMessages(e.Attrs, "gen_ai.prompt", "user")...)
		case output && e.Name == "gen_ai.content.completion":
			out = append(out, textMessages(e.Attrs, "gen_ai.completion", "assistant")...)
		case output && e.Name == "gen_ai.choice":
			if m, ok := choiceOf(e.Attrs); ok {
				out = append(out, m)
			} else if m := jsonMessages(e.Attrs, "message"); len(m) > 0 {
				out = append(out, m...)
			} else if m, ok := partsMessage(e.Attrs, "message", "assistant"); ok {
				out = append(out, m)
			} else if t := firstText(e.Attrs, "content"); t != "" {
				out = append(out, chatMessage{Role: "assistant", Text: t})
			}
		case !output && strings.HasPrefix(e.Name, "gen_ai.") && strings.HasSuffix(e.Name, ".message"):
			role := strings.TrimSuffix(strings.TrimPrefix(e.Name, "gen_ai."), ".message")
			if r := firstStr(e.Attrs, "role"); r != "" {
				role = r
			}
			m, ok := partsMessage(e.Attrs, "content", role)
			if !ok {
				m = chatMessage{Role: role, Text: firstText(e.Attrs, "content")}
			}
			if id := e.Attrs.Str("id"); id != "" && m.CallID == "" {
				m.CallID = id
			}
			if x, ok := e.Attrs.Get("tool_calls"); ok {
				if calls, ok := anyOf(x); ok {
					if parsed, ok := messageOf(map[string]any{"role": m.Role, "tool_calls": calls}); ok {
						m.Calls = parsed.Calls
					}
				}
			}
			out = append(out, m)
		}
	}
	return out
}
