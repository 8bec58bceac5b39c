package run

// The messages agent frameworks hand back, saved as they are rather than
// traced: LangChain's and LangGraph's messages (model_dump, messages_to_dict,
// dumpd), AutoGen's (a TaskResult's messages, a team's saved state),
// pydantic-ai's, the OpenAI Agents SDK's and Responses API's items (also
// as a request body or a stored response), Anthropic's, Bedrock's
// Converse, Google GenAI's (also a generateContent request body),
// LlamaIndex's, Semantic Kernel's and the Vercel AI SDK's messages,
// smolagents' memory steps, Letta's messages (letta.go). Each is read into chat messages and laid out
// as a transcript's steps.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/offattr/offattr/run/spans"
)

// dumpMessage is one message of a dump: a chat message, and what the
// framework says of it beyond one.
type dumpMessage struct {
	chatMessage
	kind    Kind   // KindThought or KindHandoff; empty for a message read by its role
	target  string // a handoff's, or the agent a call hands a task to
	tool    string // the tool a result is of, for a dump that gives results no call id (Gemini)
	failed  bool   // a tool result that reports an error
	summary bool   // AutoGen's summary of the results just before it
	reasons bool   // a Responses API reasoning item's summary: the words of the call after it
	// handsTo is the agent a result says now answers (the OpenAI Agents
	// SDK's transfer message, {"assistant": NAME}): the unnamed
	// assistant's messages after it are that agent's.
	handsTo string
}

// present records that a field is there, without keeping its value.
type present bool

func (p *present) UnmarshalJSON([]byte) error {
	*p = true
	return nil
}

// listOf records that a field holds a list of objects, and the keys
// those objects have, without keeping their values: a message's parts,
// blocks or items mark a dump only in the shape a framework writes them.
type listOf map[string]bool

func (l *listOf) UnmarshalJSON(b []byte) error {
	var list []map[string]json.RawMessage
	if json.Unmarshal(b, &list) != nil {
		return nil // not a list of objects: no framework's
	}
	*l = listOf{}
	for _, o := range list {
		for k := range o {
			(*l)[k] = true
		}
	}
	return nil
}

// has reports whether some object of l has one of keys; with no keys,
// whether l holds an object at all.
func (l listOf) has(keys ...string) bool {
	return len(l) > 0 && (len(keys) == 0 || slices.ContainsFunc(keys, func(k string) bool { return l[k] }))
}

// The keys by which a message's blocks and items are a framework's:
// LlamaIndex's blocks each say their block_type, Semantic Kernel's items
// their content_type (Python) or $type (.NET). A chat message that keeps
// other lists under these names beside its content (search results, a
// chat app's layout blocks) is a chat message.
var (
	blockKeys = []string{"block_type"}
	itemKeys  = []string{"content_type", "$type"}
)

// objectsWith reports whether v is a list holding an object with one of
// keys (with no keys, an object at all): listOf.has for a decoded value.
func objectsWith(v any, keys ...string) bool {
	list, _ := v.([]any)
	return slices.ContainsFunc(list, func(e any) bool {
		o, ok := e.(map[string]any)
		return ok && (len(keys) == 0 || slices.ContainsFunc(keys, func(k string) bool { _, ok := o[k]; return ok }))
	})
}

// dumped reports whether m has the marks of a framework's message dump
// rather than a chat message: no role but a type, a wrapped message,
// parts or a memory step's fields (LangChain, AutoGen, pydantic-ai, the
// Responses API, smolagents), parts, blocks or items beside its role
// (Google GenAI, LlamaIndex, Semantic Kernel), tool calls and results
// among its content parts (Anthropic, the Vercel AI SDK) or in its
// options (LlamaIndex.TS), or a message type of Letta's.
func (m message) dumped() bool {
	if lettaMarked(m) {
		return true
	}
	if m.Role == "" && (m.Type != "" || bool(m.Data || m.Kwargs || m.StepNumber || m.Task || m.SystemPrompt || m.DataclassRole) || m.Parts.has()) {
		return true
	}
	return m.Parts.has() || m.Blocks.has(blockKeys...) || m.Items.has(itemKeys...) || m.Contents.has(contentsKeys...) || m.Content.tools || m.Options.calls || m.Options.answers
}

// toolPartTypes are the types of content parts that call a tool or give
// its result.
var toolPartTypes = map[string]bool{"tool_use": true, "tool_result": true, "server_tool_use": true, "mcp_tool_use": true, "tool-call": true, "tool-result": true, "toolRequest": true, "toolResponse": true}

// dumpCase reads data, a list of messages (a JSON array or one a line),
// or under key the list of an object, as a framework's dump; ok is false
// when no element reads as a message.
func dumpCase(data []byte, key string, meta *fileObject) (c *Case, ok bool, err error) {
	list, err := anyList(data, key)
	if err != nil {
		return nil, false, nil
	}
	return dumpCaseOf(list, meta)
}

// dumpCaseOf is dumpCase given the list decoded.
func dumpCaseOf(list []any, meta *fileObject) (c *Case, ok bool, err error) {
	if ms, ok := lettaMessages(list); ok {
		return dumpCaseOfMessages(ms, meta)
	}
	if steps, ok := aiSDKSteps(list); ok {
		list = steps
	}
	return dumpCaseOfMessages(agentsMessages(list, itemAgents(list)), meta)
}

// itemAgents are the agents a dump's items name as theirs, each beside
// the item (Agency Swarm's saved threads: every Responses API item with
// the "agent" whose thread it is, and the "callerAgent" that asked it),
// one for each element of list; nil when no item names one, so that the
// dump is read by its messages' own speakers.
func itemAgents(list []any) []string {
	agents := make([]string, len(list))
	named := false
	for i, e := range list {
		m, _ := e.(map[string]any)
		if a, ok := m["agent"].(string); ok && strings.TrimSpace(a) != "" {
			agents[i] = strings.TrimSpace(a)
			named = true
		}
	}
	if !named {
		return nil
	}
	return agents
}

// aiSDKSteps reads the Vercel AI SDK's steps (generateText's
// result.steps: each {"content": [parts], "finishReason", "request",
// "response"}) as the messages they hold: the prompt the first step's
// request sent (its body, as the provider's API writes it:
// requestMessages, or {"messages": [...]}), then each step's content as
// the assistant's message, its text and calls in order with the results
// among them. ok is false when list is not all steps.
func aiSDKSteps(list []any) ([]any, bool) {
	if !objectsAll(list, func(m map[string]any) bool {
		_, parts := m["content"].([]any)
		_, calls := m["toolCalls"].([]any)
		return (parts || calls) && m["finishReason"] != nil && m["role"] == nil
	}) {
		return nil, false
	}
	var out []any
	first := list[0].(map[string]any)
	req, _ := first["request"].(map[string]any)
	var body []byte
	switch b := req["body"].(type) {
	case string:
		body = []byte(b)
	case map[string]any:
		body, _ = json.Marshal(b)
	}
	if prompt, ok := requestMessages(body); ok {
		out = append(out, prompt...)
	} else if prompt, err := anyList(body, "messages"); err == nil && objectsAll(prompt, func(m map[string]any) bool { return m["role"] != nil }) {
		out = append(out, prompt...)
	}
	for _, e := range list {
		out = append(out, map[string]any{"role": "assistant", "content": stepContent(e.(map[string]any))})
	}
	return out, true
}

// stepContent is an AI SDK step's content parts: its "content", or, as
// the SDK before version 5 wrote a step, its text, then its toolCalls and
// their toolResults, each a part of the type it is.
func stepContent(step map[string]any) any {
	if parts, ok := step["content"].([]any); ok {
		return parts
	}
	var parts []any
	if text := strings.TrimSpace(stringOrEmpty(step["text"])); text != "" {
		parts = append(parts, map[string]any{"type": "text", "text": text})
	}
	for _, k := range []string{"toolCalls", "toolResults"} {
		list, _ := step[k].([]any)
		for _, e := range list {
			if em, ok := e.(map[string]any); ok {
				pm := maps.Clone(em)
				if pm["type"] == nil {
					pm["type"] = map[string]string{"toolCalls": "tool-call", "toolResults": "tool-result"}[k]
				}
				parts = append(parts, pm)
			}
		}
	}
	return parts
}

// aiSDKResult reads a saved result of the Vercel AI SDK's generateText
// ({"steps": [...], "text", …}, its steps aiSDKSteps' list) as the
// messages its steps hold, after the prompt saved beside them ("prompt",
// a text, or "messages") when the first step's request gives none. ok is
// false for any other object.
func aiSDKResult(data []byte) ([]any, bool) {
	var res struct {
		Steps    json.RawMessage `json:"steps"`
		Prompt   any             `json:"prompt"`
		Messages json.RawMessage `json:"messages"`
	}
	if json.Unmarshal(data, &res) != nil || len(res.Steps) == 0 {
		return nil, false
	}
	list, err := anyList(res.Steps, "")
	if err != nil {
		return nil, false
	}
	steps, ok := aiSDKSteps(list)
	if !ok {
		return nil, false
	}
	if slices.ContainsFunc(steps, func(e any) bool { return normalRole(stringOrEmpty(e.(map[string]any)["role"])) == "user" }) {
		return steps, true
	}
	var prompt []any
	if text, ok := res.Prompt.(string); ok && strings.TrimSpace(text) != "" {
		prompt = []any{map[string]any{"role": "user", "content": text}}
	} else if ms, err := anyList(res.Messages, ""); err == nil && objectsAll(ms, func(m map[string]any) bool { return m["role"] != nil }) {
		prompt = ms
	}
	return append(prompt, steps...), true
}

// dumpCaseOfMessages is dumpCaseOf given the messages read.
func dumpCaseOfMessages(ms []dumpMessage, meta *fileObject) (c *Case, ok bool, err error) {
	if len(ms) == 0 {
		return nil, false, nil
	}
	r := dumpRun(ms)
	if meta != nil {
		r.Question = strings.TrimSpace(firstNonEmpty(meta.Question, scalarString(meta.Task)))
		r.GroundTruth = firstNonEmpty(scalarString(meta.GroundTruth), scalarString(meta.ExpectedAnswer))
		if r.Instructions == "" {
			r.Instructions = meta.systemPrompt()
		}
		taskFromMessages(r)
		c, err := meta.labelled(r)
		return c, true, err
	}
	taskFromMessages(r)
	return &Case{Run: r}, true, nil
}

// dumpAfter reads data, a list of messages, as a framework's dump when
// reading it as chat messages failed on a field of another type (the
// "action" object of a Responses API item, where SWE-agent's is a
// command's text) and some element has a dump's marks (dumpMarked); ok
// is false for any other error or list, or when no element reads as a
// message.
func dumpAfter(data []byte, err error) (c *Case, ok bool, derr error) {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field == "" {
		return nil, false, nil
	}
	list, lerr := anyList(data, "")
	if lerr != nil || !slices.ContainsFunc(list, dumpMarked) {
		return nil, false, nil
	}
	return dumpCaseOf(list, nil)
}

// messagesDumpAfter is dumpAfter for the list an object holds under
// "messages", o being the rest of the object as decoded beside it (its
// label): Semantic Kernel's .NET ChatHistory, whose roles are objects,
// fails to decode as chat messages.
func messagesDumpAfter(data []byte, o *fileObject, err error) (c *Case, ok bool, derr error) {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || !strings.HasPrefix(te.Field, "messages.") {
		return nil, false, nil
	}
	list, lerr := anyList(data, "messages")
	if lerr != nil || !slices.ContainsFunc(list, dumpMarked) {
		return nil, false, nil
	}
	return dumpCaseOf(list, o)
}

// dumpMarked is message.dumped for a decoded element.
func dumpMarked(e any) bool {
	m, _ := e.(map[string]any)
	if m == nil {
		return false
	}
	if m["role"] == nil && slices.ContainsFunc([]string{"type", "data", "kwargs", "step_number", "task", "system_prompt", "_role"}, func(k string) bool { return m[k] != nil }) {
		return true
	}
	opts, _ := m["options"].(map[string]any)
	return objectsWith(m["parts"]) || objectsWith(m["blocks"], blockKeys...) || objectsWith(m["items"], itemKeys...) || objectsWith(m["Items"], itemKeys...) || frameworkMarked(m) || opts["toolCall"] != nil || opts["toolResult"] != nil
}

// anyList decodes data as a list of values: a JSON array, the values of a
// JSONL file, or, when key is set, the list an object holds under it.
// Numbers are kept as written.
func anyList(data []byte, key string) ([]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out []any
	for {
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
		if !dec.More() {
			break
		}
	}
	if len(out) == 1 {
		switch t := out[0].(type) {
		case []any:
			return t, nil
		case map[string]any:
			if key != "" {
				list, ok := t[key].([]any)
				if !ok {
					return nil, fmt.Errorf("no list under %s", spans.QuoteForError(key))
				}
				return list, nil
			}
		}
	}
	return out, nil
}

// dumpMessages reads each element of a dump as the messages it holds. A
// system prompt given again, word for word, is read once (pydantic-ai
// writes its instructions into every request).
func dumpMessages(list []any) []dumpMessage { return agentsMessages(list, nil) }

// agentsMessages is dumpMessages for a dump that says apart from its
// messages which agent made each (agents[i] for list[i], "" where it says
// none): a message that names no speaker of its own, but the user's, is
// that agent's.
func agentsMessages(list []any, agents []string) []dumpMessage {
	var out []dumpMessage
	prompts := map[string]bool{}
	// A reasoning item's summary is the reason the model states for the
	// call right after it (a computer-using agent's "Clicking Submit to
	// finish."): that call's words, as a turn's text before its calls is.
	// One that no call follows is passed over, as it was.
	reasons := ""
	for i, e := range list {
		m, ok := withoutNulls(e).(map[string]any)
		if !ok {
			continue
		}
		for _, dm := range elementMessages(m) {
			if i < len(agents) && agents[i] != "" && dm.Name == "" && normalRole(dm.Role) != "user" && normalRole(dm.Role) != "system" {
				dm.Name = agents[i]
			}
			if normalRole(dm.Role) == "system" {
				if prompts[dm.Text] {
					continue
				}
				prompts[dm.Text] = true
			}
			if dm.reasons {
				reasons = dm.Text
				continue
			}
			if reasons != "" && dm.Role == "assistant" && dm.Text == "" && len(dm.Calls) > 0 && dm.kind == "" {
				dm.Text = reasons
			}
			reasons = ""
			n := len(out)
			if n > 0 && dm.Role == "assistant" && dm.Text == "" && len(dm.Calls) > 0 && dm.kind == "" &&
				out[n-1].Role == "assistant" && out[n-1].Text == "" && len(out[n-1].Calls) > 0 && out[n-1].kind == "" && out[n-1].Name == dm.Name {
				// The Responses API lists one turn's calls as items of
				// their own: one message makes them.
				out[n-1].Calls = append(out[n-1].Calls, dm.Calls...)
				continue
			}
			out = append(out, dm)
		}
	}
	return dropSummaries(out)
}

// withoutNulls is x without the fields whose value is null: a model
// dumped without exclude_none writes every field it has, and a part's
// null fields (Google GenAI's) would say it is what it is not.
func withoutNulls(x any) any {
	switch t := x.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, v := range t {
			if v != nil {
				out[k] = withoutNulls(v)
			}
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, v := range t {
			out[i] = withoutNulls(v)
		}
		return out
	}
	return x
}

// elementMessages reads one element of a dump, in the first shape it
// has.
func elementMessages(m map[string]any) []dumpMessage {
	if parts, ok := m["parts"].([]any); ok && m["role"] == nil && partsKinded(parts) {
		return pydanticMessages(m, parts)
	}
	if ms, ok := autogenMessages(m); ok {
		return ms
	}
	if ms, ok := smolagentsStep(m); ok {
		return ms
	}
	if data, ok := m["data"].(map[string]any); ok && m["role"] == nil {
		// LangChain's messages_to_dict, {"type", "data": {…}}: the type is
		// in the data too in Python's, only outside it in JavaScript's.
		if typ, ok := m["type"].(string); ok && data["type"] == nil {
			data = maps.Clone(data)
			data["type"] = typ
		}
		return langChainMessage(data)
	}
	if items, ok := m["items"].([]any); ok && objectsWith(items, itemKeys...) {
		return kernelMessages(m, items)
	}
	if items, ok := m["Items"].([]any); ok && objectsWith(items, itemKeys...) {
		return kernelMessages(kernelNet(m), kernelNetItems(items))
	}
	if ms, ok := frameworkMessage(m); ok {
		return ms
	}
	if blocks, ok := m["blocks"].([]any); ok && objectsWith(blocks, blockKeys...) {
		return llamaIndexMessage(m, blocks)
	}
	if opts, ok := m["options"].(map[string]any); ok && m["role"] != nil && (opts["toolCall"] != nil || opts["toolResult"] != nil) {
		return llamaTSMessage(m, opts)
	}
	if typ, _ := m["type"].(string); m["role"] == nil && responsesType(typ) {
		return responsesItems(m, typ)
	}
	if parts, ok := m["parts"].([]any); ok && m["role"] != nil {
		if ms, ok := uiMessage(m, parts); ok {
			return ms
		}
	}
	if ms, ok := resultParts(m); ok {
		return ms
	}
	return langChainMessage(m)
}

// uiMessage reads a message of the Vercel AI SDK's UI (useChat's
// UIMessage, {"id", "role", "parts"}), whose tool parts ({"type":
// "tool-NAME" or "dynamic-tool", "toolCallId", "state", "input",
// "output" or "errorText"}) each hold a call and its outcome. The parts
// are in the order they were made: text and the calls after it are one
// message, their outcomes results after it, and text after those, or a
// new step of the model's, a new message. ok is false when no part is a
// tool's or starts a step.
func uiMessage(m map[string]any, parts []any) ([]dumpMessage, bool) {
	role := stringOrEmpty(m["role"])
	var out, results []dumpMessage
	cur := dumpMessage{chatMessage: chatMessage{Role: role}}
	var texts []string
	flush := func() {
		cur.Text = strings.TrimSpace(strings.Join(nonEmpty(texts), "\n"))
		if cur.Text != "" || len(cur.Calls) > 0 {
			out = append(out, cur)
		}
		out = append(out, results...)
		cur, texts, results = dumpMessage{chatMessage: chatMessage{Role: role}}, nil, nil
	}
	ui := false
	for _, p := range parts {
		pm, _ := p.(map[string]any)
		typ, _ := pm["type"].(string)
		id, _ := pm["toolCallId"].(string)
		switch {
		case typ == "step-start": // a new call of the model
			ui = true
			if len(cur.Calls) > 0 {
				flush()
			}
		case typ == "text":
			if len(cur.Calls) > 0 {
				flush()
			}
			texts = append(texts, stringOrEmpty(pm["text"]))
		case typ == "tool-invocation":
			// The SDK's fourth version: {"type": "tool-invocation",
			// "toolInvocation": {"state", "toolCallId", "toolName", "args",
			// "result" once its state is "result"}}.
			inv, _ := pm["toolInvocation"].(map[string]any)
			id, _ := inv["toolCallId"].(string)
			if id == "" {
				continue
			}
			ui = true
			name := stringOrEmpty(inv["toolName"])
			cur.Calls = append(cur.Calls, ToolCall{ID: id, Name: name, Arguments: textOf(inv["args"])})
			if res, ok := inv["result"]; ok && inv["state"] == "result" {
				results = append(results, dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: id, Text: textOf(res)}, tool: name})
			}
		case id != "" && (strings.HasPrefix(typ, "tool-") || typ == "dynamic-tool"):
			ui = true
			name := firstNonEmpty(stringOrEmpty(pm["toolName"]), strings.TrimPrefix(typ, "tool-"))
			cur.Calls = append(cur.Calls, ToolCall{ID: id, Name: name, Arguments: textOf(pm["input"])})
			if e, ok := pm["errorText"].(string); ok {
				results = append(results, dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: id, Text: e}, tool: name, failed: true})
			} else if res, ok := pm["output"]; ok {
				results = append(results, dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: id, Text: textOf(res)}, tool: name})
			}
		}
	}
	if !ui {
		return nil, false
	}
	flush()
	return out, true
}

// langChainMessage reads a message in the shapes messageOf knows
// (LangChain's, its dumpd serialisation, OpenAI's, Anthropic's, Google
// GenAI's, the Vercel AI SDK's). A tool message's name is its tool's, not
// an agent's; its status says whether the tool failed.
func langChainMessage(m map[string]any) []dumpMessage {
	msg, ok := messageOf(withoutThoughts(m))
	if !ok {
		return nil
	}
	dm := dumpMessage{chatMessage: msg}
	fields := m
	if kw, ok := m["kwargs"].(map[string]any); ok {
		fields = kw
	}
	if normalRole(dm.Role) == "tool" || dm.CallID != "" {
		dm.tool, dm.Name = firstNonEmpty(dm.Name, stringOrEmpty(fields["function"])), ""
		said, failed := toolError(fields["error"])
		dm.failed = fields["status"] == "error" || failed
		if said != "" && !strings.Contains(dm.Text, said) {
			dm.Text = strings.TrimSpace(dm.Text + "\n" + said)
		}
	}
	dm.Calls = uniqueCalls(dm.Calls)
	return []dumpMessage{dm}
}

// toolError reads a tool message's "error": Inspect AI's ToolCallError
// ({"type", "message"}: what failed, said), or tau2-bench's flag (true).
func toolError(e any) (said string, failed bool) {
	switch e := e.(type) {
	case bool:
		return "", e
	case map[string]any:
		said = strings.TrimSpace(stringOrEmpty(e["message"]))
		if typ := strings.TrimSpace(stringOrEmpty(e["type"])); typ != "" && said == "" {
			said = typ
		}
		return said, said != ""
	case string:
		return strings.TrimSpace(e), strings.TrimSpace(e) != ""
	}
	return "", false
}

// withoutThoughts is m without the parts of its content that are the
// model's thinking (Anthropic's thinking and redacted_thinking blocks, a
// reasoning part, a Gemini part marked a thought, Bedrock's
// reasoningContent block): not what the message
// says, and often an opaque token the provider signs.
func withoutThoughts(m map[string]any) map[string]any {
	out, cloned := m, false
	for _, key := range []string{"content", "parts"} {
		parts, ok := m[key].([]any)
		if !ok {
			continue
		}
		kept := slices.DeleteFunc(slices.Clone(parts), func(p any) bool {
			pm, _ := p.(map[string]any)
			typ, _ := pm["type"].(string)
			return typ == "thinking" || typ == "redacted_thinking" || isReasoning(typ) || pm["thought"] == true || pm["reasoningContent"] != nil
		})
		if len(kept) < len(parts) {
			if !cloned {
				out, cloned = maps.Clone(m), true
			}
			out[key] = kept
		}
	}
	return out
}

// uniqueCalls drops a call listed again under its id (a LangChain
// message from Anthropic holds each call as a content block and in its
// tool_calls).
func uniqueCalls(calls []ToolCall) []ToolCall {
	seen := map[string]bool{}
	out := calls[:0:0]
	for _, c := range calls {
		if c.ID != "" && seen[c.ID] {
			continue
		}
		seen[c.ID] = true
		out = append(out, c)
	}
	return out
}

// resultParts reads a message whose content parts give tools' results
// (Anthropic's tool_result blocks, the Vercel AI SDK's tool-result parts,
// Google GenAI's function_response parts, Bedrock's toolResult blocks) as
// one result for each, after any text the message says too; ok is false
// when it gives none. In the assistant's own message (the results of
// Anthropic's server tools, which the API runs within the turn) each
// result stands where it is: after the call it answers, before the text
// that reads it.
func resultParts(m map[string]any) ([]dumpMessage, bool) {
	key := "content"
	parts, ok := m[key].([]any)
	if !ok {
		key = "parts"
		parts, ok = m[key].([]any)
	}
	if !ok {
		return nil, false
	}
	inTurn := normalRole(stringOrEmpty(m["role"])) == "assistant"
	var out, results []dumpMessage
	var rest []any
	said := func() {
		if len(rest) > 0 {
			msg := maps.Clone(m)
			msg[key] = rest
			out = append(out, langChainMessage(msg)...)
			rest = nil
		}
	}
	found := false
	for _, p := range parts {
		pm, _ := p.(map[string]any)
		r, ok := partResult(pm)
		switch {
		case !ok:
			rest = append(rest, p)
		case inTurn:
			said()
			out = append(out, r)
		default:
			results = append(results, r)
		}
		found = found || ok
	}
	if !found {
		return nil, false
	}
	said()
	return append(out, results...), true
}

// partResult reads a content part that gives a tool's result; ok is false
// for any other part.
func partResult(pm map[string]any) (dumpMessage, bool) {
	typ, _ := pm["type"].(string)
	result := func(id any, text string, failed bool) (dumpMessage, bool) {
		return dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: stringOrEmpty(id), Text: text}, failed: failed}, true
	}
	switch {
	case pm == nil:
		return dumpMessage{}, false
	case typ == "tool_result" && pm["run"] != nil: // Amp's threads: {"type": "tool_result", "toolUseID", "run": {"status", "result" | "error"}}
		run, _ := pm["run"].(map[string]any)
		if run["status"] == "error" || run["status"] == "cancelled" || run["status"] == "rejected-by-user" {
			e := run["error"]
			if em, ok := e.(map[string]any); ok && em["message"] != nil {
				e = em["message"]
			}
			return result(firstNonEmpty(stringOrEmpty(pm["toolUseID"]), stringOrEmpty(pm["tool_use_id"])), firstNonEmpty(textOf(e), textOf(run["status"])), true)
		}
		return result(firstNonEmpty(stringOrEmpty(pm["toolUseID"]), stringOrEmpty(pm["tool_use_id"])), toolOutputText(run["result"]), false)
	case typ == "tool_result" && pm["tool_use_id"] == nil && pm["output"] != nil: // AgentScope's: {"type": "tool_result", "id", "name", "output": text | [blocks]}
		dm, _ := result(pm["id"], contentOf(pm["output"]), false)
		dm.tool = stringOrEmpty(pm["name"])
		return dm, true
	case typ == "tool_result":
		return result(pm["tool_use_id"], contentOf(pm["content"]), pm["is_error"] == true)
	case strings.HasSuffix(typ, "_tool_result") && pm["tool_use_id"] != nil: // a server tool's: web_search_tool_result, code_execution_tool_result…
		text, failed := serverToolResult(pm["content"])
		return result(pm["tool_use_id"], text, failed)
	case typ == "tool-result":
		out := pm["output"]
		if out == nil {
			out = pm["result"]
		}
		dm, _ := result(pm["toolCallId"], toolOutputText(out), pm["isError"] == true)
		dm.tool = stringOrEmpty(pm["toolName"])
		return dm, true
	case typ == "tool-error": // the AI SDK's step content: {"type": "tool-error", "toolCallId", "toolName", "input", "error"}
		dm, _ := result(pm["toolCallId"], textOf(pm["error"]), true)
		dm.tool = stringOrEmpty(pm["toolName"])
		return dm, true
	case typ == "toolResponse":
		text, failed := gooseResult(pm)
		return result(pm["id"], text, failed)
	case pm["tool_call_result"] != nil: // Haystack's: {"tool_call_result": {"result", "origin": {the call}, "error"}}
		tr, _ := pm["tool_call_result"].(map[string]any)
		origin, _ := tr["origin"].(map[string]any)
		dm, _ := result(origin["id"], textOf(tr["result"]), tr["error"] == true)
		dm.tool = stringOrEmpty(origin["tool_name"])
		return dm, true
	case pm["toolResult"] != nil: // Bedrock's: {"toolResult": {"toolUseId", "content": [blocks], "status"}}
		tr, _ := pm["toolResult"].(map[string]any)
		return result(tr["toolUseId"], contentOf(tr["content"]), tr["status"] == "error")
	case pm["function_response"] != nil || pm["functionResponse"] != nil:
		fr, _ := pm["function_response"].(map[string]any)
		if fr == nil {
			fr, _ = pm["functionResponse"].(map[string]any)
		}
		text, failed := functionResponse(fr["response"])
		dm, _ := result(fr["id"], text, failed)
		dm.tool = stringOrEmpty(fr["name"])
		return dm, true
	}
	return dumpMessage{}, false
}

// serverToolResult reads the content of an Anthropic server tool's result
// block: search results as their titles and addresses (their text is
// encrypted), a run's output as what it printed, failed when it exited
// other than 0, and an error object ({"type": "…_error", "error_code"}) as
// its code, failed.
func serverToolResult(c any) (text string, failed bool) {
	switch t := c.(type) {
	case map[string]any:
		typ, _ := t["type"].(string)
		if strings.HasSuffix(typ, "_error") {
			return textOf(t["error_code"]), true
		}
		if _, ok := t["stdout"]; ok {
			code := textOf(t["return_code"])
			return strings.Join(nonEmpty([]string{strings.TrimSpace(stringOrEmpty(t["stdout"])), strings.TrimSpace(stringOrEmpty(t["stderr"]))}), "\n"), code != "" && code != "0"
		}
		return textOf(t), false
	case []any:
		var lines []string
		for _, e := range t {
			em, _ := e.(map[string]any)
			switch {
			case em["text"] != nil:
				lines = append(lines, stringOrEmpty(em["text"]))
			case em["url"] != nil:
				lines = append(lines, strings.TrimSpace(stringOrEmpty(em["title"])+" ("+stringOrEmpty(em["url"])+")"))
			default:
				lines = append(lines, textOf(e))
			}
		}
		return strings.Join(lines, "\n"), false
	}
	return contentOf(c), false
}

// functionResponse reads a Gemini function response's response: the
// object a tool returned, or, as Google ADK wraps them, {"result": …}
// around a value that is no object and {"error": …} around the error of a
// tool that raised, or, as Gemini CLI's tools answer, {"output": …}
// around their text, read as what they wrap (the error a failed call's).
func functionResponse(resp any) (text string, failed bool) {
	if m, ok := resp.(map[string]any); ok && len(m) == 1 {
		if e, ok := m["error"]; ok && e != nil {
			return textOf(e), true
		}
		if r, ok := m["result"]; ok && r != nil {
			return textOf(r), false
		}
		if o, ok := m["output"]; ok && o != nil {
			// Gemini CLI's (and Qwen Code's) tools answer {"output": text}.
			return textOf(o), false
		}
	}
	return textOf(resp), false
}

// gooseResult reads a tool's result as Goose writes it in a message's
// content ({"type": "toolResponse", "id", "toolResult": {"status":
// "success", "value": [content…]} or {"status": "error", "error"}}): the
// text of the contents meant for the model (a content whose annotations
// give the user alone as its audience is the user's summary of it), and
// whether the call failed.
func gooseResult(pm map[string]any) (text string, failed bool) {
	tr, _ := pm["toolResult"].(map[string]any)
	if tr["status"] == "error" {
		return textOf(tr["error"]), true
	}
	value, _ := tr["value"].([]any)
	var kept []any
	for _, c := range value {
		cm, _ := c.(map[string]any)
		ann, _ := cm["annotations"].(map[string]any)
		if aud, ok := ann["audience"].([]any); ok && !slices.Contains(aud, any("assistant")) {
			continue
		}
		kept = append(kept, c)
	}
	return contentOf(kept), false
}

// partsKinded reports whether parts are pydantic-ai's, each saying its
// kind.
func partsKinded(parts []any) bool {
	for _, p := range parts {
		if pm, ok := p.(map[string]any); !ok || pm["part_kind"] == nil {
			return false
		}
	}
	return len(parts) > 0
}

// pydanticMessages reads one of pydantic-ai's ModelRequest or
// ModelResponse (all_messages_json): a request's parts each a message of
// its own (the system prompt, the user's prompt, a tool's return, a
// retry prompt: a call's arguments or the output refused, sent back), a
// response's text and calls one assistant message.
func pydanticMessages(m map[string]any, parts []any) []dumpMessage {
	var out []dumpMessage
	if instr, ok := m["instructions"].(string); ok && strings.TrimSpace(instr) != "" && m["kind"] == "request" {
		out = append(out, dumpMessage{chatMessage: chatMessage{Role: "system", Text: instr}})
	}
	reply := dumpMessage{chatMessage: chatMessage{Role: "assistant"}}
	var texts []string
	var returns []dumpMessage
	for _, p := range parts {
		pm, _ := p.(map[string]any)
		switch pm["part_kind"] {
		case "system-prompt":
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "system", Text: contentOf(pm["content"])}})
		case "user-prompt":
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "user", Text: mixedContent(pm["content"])}})
		case "tool-return", "builtin-tool-return":
			r := dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: stringOrEmpty(pm["tool_call_id"]), Text: textOf(pm["content"])}, tool: stringOrEmpty(pm["tool_name"])}
			if pm["part_kind"] == "builtin-tool-return" {
				returns = append(returns, r)
			} else {
				out = append(out, r)
			}
		case "retry-prompt":
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: stringOrEmpty(pm["tool_call_id"]), Text: textOf(pm["content"])}, tool: stringOrEmpty(pm["tool_name"]), failed: true})
		case "text":
			texts = append(texts, stringOrEmpty(pm["content"]))
		case "tool-call", "builtin-tool-call":
			reply.Calls = append(reply.Calls, ToolCall{ID: stringOrEmpty(pm["tool_call_id"]), Name: stringOrEmpty(pm["tool_name"]), Arguments: textOf(pm["args"])})
		}
	}
	if m["kind"] == "response" {
		reply.Text = strings.TrimSpace(strings.Join(nonEmpty(texts), "\n"))
		out = append(out, reply)
	}
	return append(out, returns...)
}

// mixedContent is a prompt's content: text, or a list of texts and
// media, each medium written as its kind (pydantic-ai's "kind", as
// image-url), else as an image (AutoGen's multimodal messages); any other
// value as JSON (AutoGen's structured messages).
func mixedContent(c any) string {
	list, ok := c.([]any)
	if !ok {
		return textOf(c)
	}
	var texts []string
	for _, e := range list {
		if s, ok := e.(string); ok {
			texts = append(texts, s)
		} else if em, _ := e.(map[string]any); stringOrEmpty(em["kind"]) != "" {
			texts = append(texts, "["+stringOrEmpty(em["kind"])+"]")
		} else {
			texts = append(texts, "[image]")
		}
	}
	return strings.Join(nonEmpty(texts), "\n")
}

// autogenTypes are the types of AutoGen's messages and events
// (autogen_agentchat) and of the model context its agents keep
// (autogen_core's LLM messages), which have no role: their source is the
// agent.
var autogenTypes = map[string]bool{
	"TextMessage": true, "MultiModalMessage": true, "StopMessage": true, "HandoffMessage": true,
	"ToolCallSummaryMessage": true, "StructuredMessage": true, "ToolCallRequestEvent": true,
	"ToolCallExecutionEvent": true, "ThoughtEvent": true, "CodeGenerationEvent": true,
	"CodeExecutionEvent": true, "MemoryQueryEvent": true, "UserInputRequestedEvent": true,
	"ModelClientStreamingChunkEvent": true, "SelectSpeakerEvent": true, "SelectorEvent": true,
	"UserMessage": true, "AssistantMessage": true, "SystemMessage": true, "FunctionExecutionResultMessage": true,
}

// autogenMessages reads one of AutoGen's messages ({"source", "type",
// "content", "models_usage"}); ok is false when m is none.
func autogenMessages(m map[string]any) ([]dumpMessage, bool) {
	typ, _ := m["type"].(string)
	if m["role"] != nil || !autogenTypes[typ] {
		return nil, false
	}
	source := strings.TrimSpace(stringOrEmpty(m["source"]))
	said := func(text string) dumpMessage {
		role := "assistant"
		if source == "" || isUserRole(source) {
			role = "user"
		}
		return dumpMessage{chatMessage: chatMessage{Role: role, Name: source, Text: text}}
	}
	switch typ {
	case "ModelClientStreamingChunkEvent", "UserInputRequestedEvent", "SelectSpeakerEvent", "SelectorEvent":
		// A piece of a reply listed whole after it, a prompt for input,
		// the speaker chosen: nothing said.
		return nil, true
	case "SystemMessage":
		return []dumpMessage{{chatMessage: chatMessage{Role: "system", Text: contentOf(m["content"])}}}, true
	case "ToolCallRequestEvent", "AssistantMessage":
		list, ok := m["content"].([]any)
		if !ok {
			if typ == "ToolCallRequestEvent" {
				return nil, true
			}
			return []dumpMessage{said(textOf(m["content"]))}, true
		}
		dm := said(stringOrEmpty(m["thought"]))
		dm.Role = "assistant"
		for _, c := range list {
			if cm, ok := c.(map[string]any); ok {
				dm.Calls = append(dm.Calls, partCall(cm, "id", "name", "arguments"))
			}
		}
		return []dumpMessage{dm}, true
	case "ToolCallExecutionEvent", "FunctionExecutionResultMessage":
		list, _ := m["content"].([]any)
		var out []dumpMessage
		for _, c := range list {
			cm, ok := c.(map[string]any)
			if !ok {
				continue
			}
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "tool", Name: source, CallID: stringOrEmpty(cm["call_id"]), Text: textOf(cm["content"])}, tool: stringOrEmpty(cm["name"]), failed: cm["is_error"] == true})
		}
		return out, true
	case "CodeExecutionEvent":
		// The output of code an agent generated in its event before: a
		// result, its exit code other than 0 a failure.
		res, _ := m["result"].(map[string]any)
		text := stringOrEmpty(m["content"])
		if out := stringOrEmpty(res["output"]); strings.TrimSpace(text) == "" {
			text = out
		}
		code := textOf(res["exit_code"])
		return []dumpMessage{{chatMessage: chatMessage{Role: "tool", Name: source, Text: text}, failed: code != "" && code != "0"}}, true
	case "ThoughtEvent":
		dm := said(textOf(m["content"]))
		dm.Role, dm.kind = "assistant", KindThought
		return []dumpMessage{dm}, true
	case "HandoffMessage":
		dm := said(textOf(m["content"]))
		dm.Role, dm.kind, dm.target = "assistant", KindHandoff, strings.TrimSpace(stringOrEmpty(m["target"]))
		return []dumpMessage{dm}, true
	case "ToolCallSummaryMessage":
		dm := said(textOf(m["content"]))
		dm.Role, dm.summary = "assistant", true
		return []dumpMessage{dm}, true
	}
	return []dumpMessage{said(mixedContent(m["content"]))}, true
}

// dropSummaries drops AutoGen's ToolCallSummaryMessage where it only
// repeats the results just before it (its default, each result's text a
// line): the same output would be read twice, the second time as the
// agent's words.
func dropSummaries(ms []dumpMessage) []dumpMessage {
	out := make([]dumpMessage, 0, len(ms))
	for i, m := range ms {
		if m.summary {
			var texts []string
			for j := i - 1; j >= 0 && ms[j].Role == "tool" && ms[j].Name == m.Name; j-- {
				texts = append([]string{ms[j].Text}, texts...)
			}
			if len(texts) > 0 && strings.TrimSpace(strings.Join(texts, "\n")) == strings.TrimSpace(m.Text) {
				continue
			}
		}
		out = append(out, m)
	}
	return out
}

// savedState finds the messages of AutoGen's saved state: a team's
// (save_state(), {"type": "TeamState", "agent_states": {…}}), whose
// manager keeps the whole thread, or one agent's, whose model context
// holds its messages. ok is false for any other object.
func savedState(data []byte) ([]any, bool) {
	var st struct {
		AgentStates map[string]json.RawMessage `json:"agent_states"`
		LLMContext  *struct {
			Messages json.RawMessage `json:"messages"`
		} `json:"llm_context"`
	}
	if json.Unmarshal(data, &st) != nil {
		return nil, false
	}
	if st.LLMContext != nil {
		list, err := anyList(st.LLMContext.Messages, "")
		return list, err == nil
	}
	names := slices.Sorted(maps.Keys(st.AgentStates))
	for _, name := range names {
		var manager struct {
			Thread json.RawMessage `json:"message_thread"`
		}
		if json.Unmarshal(st.AgentStates[name], &manager) == nil && len(manager.Thread) > 0 {
			list, err := anyList(manager.Thread, "")
			return list, err == nil
		}
	}
	return nil, false
}

// requestMessages finds the messages of a model API's request body or
// stored response, saved as the run's history: Gemini's generateContent
// request ({"contents": [...]}, each content a role and its parts), and
// the Responses API's request ({"input": a text or a list of items}) and
// response ({"output": [items]}), the input first. Neither body's
// instructions are a step: a label numbers the list's messages. ok is
// false when a list is not all messages of its API.
func requestMessages(data []byte) ([]any, bool) {
	var body struct {
		Contents json.RawMessage `json:"contents"`
		Input    json.RawMessage `json:"input"`
		Output   json.RawMessage `json:"output"`
	}
	if json.Unmarshal(data, &body) != nil {
		return nil, false
	}
	if len(body.Contents) > 0 {
		list, err := anyList(body.Contents, "")
		return list, err == nil && objectsAll(list, func(m map[string]any) bool {
			_, ok := m["parts"].([]any)
			return ok && stringOrEmpty(m["role"]) != ""
		})
	}
	var out []any
	var text string
	if json.Unmarshal(body.Input, &text) == nil {
		out = append(out, map[string]any{"role": "user", "content": text})
	} else if len(body.Input) > 0 {
		list, err := anyList(body.Input, "")
		if err != nil || !objectsAll(list, isResponsesItem) {
			return nil, false
		}
		out = append(out, list...)
	}
	if len(body.Output) > 0 {
		list, err := anyList(body.Output, "")
		if err != nil || !objectsAll(list, func(m map[string]any) bool { return m["type"] != nil && isResponsesItem(m) }) {
			return nil, false
		}
		out = append(out, list...)
	}
	// A list of chat messages alone under "input" is no mark of the API.
	return out, len(body.Output) > 0 || slices.ContainsFunc(out, func(e any) bool { return e.(map[string]any)["type"] != nil })
}

// agentsSDKItems finds the one list of an object whose items are
// unmistakably the OpenAI Agents SDK's input list (its to_input_list(),
// the Responses API's items): each says its type, one the API has, and
// one at least is a message with its role ({"type": "message", "role"}), a
// function call or a call's output. A list of untyped chat messages, or a
// second list of such items, is no mark of the SDK's; ok is false then.
func agentsSDKItems(data []byte) ([]any, bool) {
	var o map[string]json.RawMessage
	if json.Unmarshal(data, &o) != nil {
		return nil, false
	}
	var found []any
	for _, v := range o {
		if len(v) == 0 || v[0] != '[' {
			continue
		}
		list, err := anyList(v, "")
		if err != nil || !objectsAll(list, func(m map[string]any) bool { return m["type"] != nil && isResponsesItem(m) }) {
			continue
		}
		if !slices.ContainsFunc(list, func(e any) bool { return sdkMark(e.(map[string]any)) }) {
			continue
		}
		if found != nil {
			return nil, false
		}
		found = list
	}
	return found, found != nil
}

// sdkMark reports whether m, an item of the Responses API, is one that
// marks a list as the Agents SDK's: a message with its role, a function
// call, or a call's output.
func sdkMark(m map[string]any) bool {
	switch stringOrEmpty(m["type"]) {
	case "message":
		return stringOrEmpty(m["role"]) != ""
	case "function_call", "function_call_output":
		return true
	}
	return false
}

// isResponsesItem reports whether m is an item of the Responses API: a
// message (a role and its content) or a call, its output or reasoning.
func isResponsesItem(m map[string]any) bool {
	typ, _ := m["type"].(string)
	if typ == "" || typ == "message" {
		_, ok := m["content"]
		return ok && stringOrEmpty(m["role"]) != ""
	}
	return responsesType(typ)
}

// objectsAll reports whether list holds objects only, at least one, each
// of which ok holds of.
func objectsAll(list []any, ok func(map[string]any) bool) bool {
	return len(list) > 0 && allOf(list, func(e any) bool {
		m, isObject := e.(map[string]any)
		return isObject && ok(m)
	})
}

// smolagentsStep reads one of smolagents' memory steps
// (agent.memory.get_full_steps()): the task, the system prompt, a plan,
// an action (the model's output and the calls it made, then what they
// printed, an error included) and the final answer. ok is false when m
// is none.
func smolagentsStep(m map[string]any) ([]dumpMessage, bool) {
	if m["role"] != nil || m["content"] != nil {
		return nil, false
	}
	switch {
	case m["task"] != nil && len(m) <= 3:
		return []dumpMessage{{chatMessage: chatMessage{Role: "user", Text: textOf(m["task"])}}}, true
	case m["system_prompt"] != nil && len(m) == 1:
		return []dumpMessage{{chatMessage: chatMessage{Role: "system", Text: textOf(m["system_prompt"])}}}, true
	case m["plan"] != nil && (m["model_output_message"] != nil || m["timing"] != nil || m["start_time"] != nil):
		// A planning step; one dumped without its model's messages keeps
		// its timing.
		return []dumpMessage{{chatMessage: chatMessage{Role: "assistant", Text: textOf(m["plan"])}}}, true
	case m["output"] != nil && len(m) == 1:
		return []dumpMessage{{chatMessage: chatMessage{Role: "assistant", Text: textOf(m["output"])}}}, true
	case m["step_number"] == nil || m["model_input_messages"] == nil && m["observations"] == nil && m["error"] == nil && m["model_output"] == nil:
		// An action step that holds none of what the model was given,
		// what it said, what its action printed or how it failed is no
		// step of smolagents'.
		return nil, false
	}
	text := stringOrEmpty(m["model_output"])
	if text == "" {
		if om, ok := m["model_output_message"].(map[string]any); ok {
			text = contentOf(om["content"])
		}
	}
	call := dumpMessage{chatMessage: chatMessage{Role: "assistant", Text: strings.TrimSpace(text)}}
	if msg, ok := messageOf(map[string]any{"role": "assistant", "tool_calls": m["tool_calls"]}); ok {
		call.Calls = msg.Calls
	}
	out := []dumpMessage{call}
	obs := strings.TrimSpace(textOf(m["observations"]))
	if obs == "" && m["is_final_answer"] == true {
		obs = textOf(m["action_output"])
	}
	failed := false
	if e, ok := m["error"].(map[string]any); ok {
		obs = strings.TrimSpace(obs + "\n" + errorText(stringOrEmpty(e["message"])))
		failed = true
	}
	if obs != "" || len(call.Calls) > 0 {
		res := dumpMessage{chatMessage: chatMessage{Role: "tool", Text: obs}, failed: failed}
		if len(call.Calls) > 0 {
			res.CallID, res.tool = call.Calls[0].ID, call.Calls[0].Name
		}
		out = append(out, res)
	}
	return out, true
}

// kernelMessages reads Semantic Kernel's ChatMessageContent as its
// ChatHistory serialises it ({"role", "name", "items": [{"content_type":
// "text" | "function_call" | "function_result", …}]}): its text and
// calls one message, each result one of its own.
func kernelMessages(m map[string]any, items []any) []dumpMessage {
	dm := dumpMessage{chatMessage: chatMessage{Role: stringOrEmpty(m["role"]), Name: stringOrEmpty(m["name"])}}
	var texts []string
	var results []dumpMessage
	for _, it := range items {
		im, _ := it.(map[string]any)
		switch im["content_type"] {
		case "text":
			texts = append(texts, stringOrEmpty(im["text"]))
		case "function_call":
			dm.Calls = append(dm.Calls, ToolCall{ID: stringOrEmpty(im["id"]), Name: kernelFunction(im), Arguments: textOf(im["arguments"])})
		case "function_result":
			results = append(results, dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: stringOrEmpty(im["id"]), Text: textOf(im["result"])}, tool: kernelFunction(im)})
		case nil:
		default:
			texts = append(texts, "["+stringOrEmpty(im["content_type"])+"]")
		}
	}
	dm.Text = strings.TrimSpace(strings.Join(nonEmpty(texts), "\n"))
	if len(results) > 0 && dm.Text == "" && len(dm.Calls) == 0 {
		return results
	}
	return append([]dumpMessage{dm}, results...)
}

// kernelNet is Semantic Kernel's ChatMessageContent as .NET serialises
// it ({"Role": {"Label"}, "AuthorName", "Items"}) in the fields Python's
// has.
func kernelNet(m map[string]any) map[string]any {
	role, _ := m["Role"].(map[string]any)
	return map[string]any{"role": stringOrEmpty(role["Label"]), "name": stringOrEmpty(m["AuthorName"])}
}

// kernelNetItems are a .NET ChatMessageContent's items, each named by its
// "$type" (TextContent, FunctionCallContent, FunctionResultContent), in
// the fields Python's have.
func kernelNetItems(items []any) []any {
	out := make([]any, 0, len(items))
	for _, it := range items {
		im, _ := it.(map[string]any)
		typ := stringOrEmpty(im["$type"])
		item := map[string]any{"content_type": strings.ToLower(strings.TrimSuffix(typ, "Content")), "function_name": im["FunctionName"], "plugin_name": im["PluginName"]}
		switch typ {
		case "TextContent":
			item["content_type"], item["text"] = "text", im["Text"]
		case "FunctionCallContent":
			item["content_type"], item["id"], item["arguments"] = "function_call", im["Id"], im["Arguments"]
		case "FunctionResultContent":
			item["content_type"], item["id"], item["result"] = "function_result", im["CallId"], im["Result"]
		}
		out = append(out, item)
	}
	return out
}

// kernelFunction is the name of the function a Semantic Kernel item
// calls: its plugin's and its own, as the kernel names it to the model.
func kernelFunction(im map[string]any) string {
	if n := stringOrEmpty(im["name"]); n != "" {
		return n
	}
	fn, plugin := stringOrEmpty(im["function_name"]), stringOrEmpty(im["plugin_name"])
	if plugin == "" {
		return fn
	}
	return plugin + "-" + fn
}

// llamaIndexMessage reads LlamaIndex's ChatMessage ({"role",
// "additional_kwargs", "blocks": [{"block_type": "text", "text"}, …]}):
// its text from its blocks, the calls it makes and the call it answers
// from its additional_kwargs or its tool_call blocks.
func llamaIndexMessage(m map[string]any, blocks []any) []dumpMessage {
	var texts []string
	kw, _ := m["additional_kwargs"].(map[string]any)
	msg := map[string]any{"role": llamaRole(stringOrEmpty(m["role"])), "additional_kwargs": kw}
	var calls []ToolCall
	for _, b := range blocks {
		bm, _ := b.(map[string]any)
		switch bm["block_type"] {
		case "text":
			texts = append(texts, stringOrEmpty(bm["text"]))
		case "tool_call":
			calls = append(calls, ToolCall{ID: stringOrEmpty(bm["tool_call_id"]), Name: stringOrEmpty(bm["tool_name"]), Arguments: textOf(bm["tool_kwargs"])})
		case nil:
		default:
			texts = append(texts, "["+stringOrEmpty(bm["block_type"])+"]")
		}
	}
	msg["content"] = strings.Join(nonEmpty(texts), "\n")
	if id := stringOrEmpty(kw["tool_call_id"]); id != "" {
		msg["tool_call_id"] = id
	}
	if n := stringOrEmpty(kw["name"]); n != "" {
		msg["name"] = n
	}
	ms := langChainMessage(msg)
	if len(ms) == 1 {
		ms[0].Calls = uniqueCalls(append(ms[0].Calls, calls...))
	}
	return ms
}

// llamaTSMessage reads LlamaIndex.TS's ChatMessage ({"role", "content",
// "options"}) that calls tools ({"toolCall": [{"name", "input", "id"}]},
// one call or a list) or answers one ({"toolResult": {"result",
// "isError", "id"}}, on a message of the user's role): a result is the
// tool's, of the call it names.
func llamaTSMessage(m map[string]any, opts map[string]any) []dumpMessage {
	if tr, ok := opts["toolResult"].(map[string]any); ok {
		text := textOf(tr["result"])
		if text == "" {
			text = contentOf(m["content"])
		}
		return []dumpMessage{{chatMessage: chatMessage{Role: "tool", CallID: stringOrEmpty(tr["id"]), Text: text}, failed: tr["isError"] == true}}
	}
	calls, ok := opts["toolCall"].([]any)
	if !ok {
		calls = []any{opts["toolCall"]}
	}
	msg := dumpMessage{chatMessage: chatMessage{Role: llamaRole(stringOrEmpty(m["role"])), Text: contentOf(m["content"])}}
	for _, c := range calls {
		if cm, ok := c.(map[string]any); ok {
			msg.Calls = append(msg.Calls, partCall(cm, "id", "name", "input"))
		}
	}
	return []dumpMessage{msg}
}

// llamaRole is the chat role a LlamaIndex role stands for.
func llamaRole(role string) string {
	switch role {
	case "chatbot", "model":
		return "assistant"
	case "function":
		return "tool"
	}
	return role
}

// responsesType reports whether typ is the type of a Responses API item
// that is no message: a call, its output, or a model's reasoning.
func responsesType(typ string) bool {
	return strings.HasSuffix(typ, "_call") || callOutput(typ) || typ == "reasoning" || typ == "item_reference" || strings.HasPrefix(typ, "mcp_")
}

// callOutput reports whether typ is the type of a call's output: the
// Responses API's *_call_output, or *_call_result as the Agents SDK for
// JavaScript names its items (function_call_result, computer_call_result).
func callOutput(typ string) bool {
	return strings.HasSuffix(typ, "_call_output") || strings.HasSuffix(typ, "_call_result")
}

// responsesItems reads an item of OpenAI's Responses API, as the Agents
// SDK's to_input_list() (and, in JavaScript, a result's history) lists
// them, that is no message: a call the model
// made (function_call, custom_tool_call, or a hosted tool's, as
// web_search_call) or a call's output, or a reasoning item's summary
// (the words of the call after it, agentsMessages); the rest are passed
// over.
func responsesItems(m map[string]any, typ string) []dumpMessage {
	id := firstNonEmpty(stringOrEmpty(m["call_id"]), stringOrEmpty(m["callId"]))
	switch {
	case typ == "reasoning":
		var texts []string
		if parts, ok := m["summary"].([]any); ok {
			for _, p := range parts {
				if pm, ok := p.(map[string]any); ok {
					texts = append(texts, strings.TrimSpace(stringOrEmpty(pm["text"])))
				}
			}
		}
		if text := strings.Join(nonEmpty(texts), "\n"); text != "" {
			return []dumpMessage{{chatMessage: chatMessage{Role: "assistant", Text: text}, reasons: true}}
		}
		return nil
	case callOutput(typ):
		out := m["output"]
		if om, ok := out.(map[string]any); ok && om["type"] != nil {
			out = []any{om} // the JavaScript SDK's one part, {"type": "text", "text"}
		}
		text := contentOf(out)
		return []dumpMessage{{chatMessage: chatMessage{Role: "tool", CallID: id, Text: text}, handsTo: transferredTo(text)}}
	case strings.HasSuffix(typ, "_call"):
		name := stringOrEmpty(m["name"])
		if name == "" {
			name = strings.TrimSuffix(typ, "_call")
		}
		if id == "" {
			id = stringOrEmpty(m["id"])
		}
		var args any
		for _, k := range []string{"arguments", "input", "action", "queries", "code"} {
			if args = m[k]; args != nil {
				break
			}
		}
		args = actionArgs(name, args)
		out := []dumpMessage{{chatMessage: chatMessage{Role: "assistant", Calls: []ToolCall{{ID: id, Name: name, Arguments: textOf(args)}}}}}
		if res, ok := m["output"]; ok && res != nil { // a hosted call that holds its output (mcp_call)
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: id, Text: contentOf(res)}, tool: name, failed: m["error"] != nil})
		} else if res, ok := hostedOutcome(m, name); ok {
			out = append(out, res)
		}
		return out
	}
	return nil
}

// actionArgs is a hosted call's action as its arguments, without what
// is no argument: the operation its "type" names when the call's name
// says it already (web_search_call's {"type": "search"}), and the sources
// a search returned (its result, hostedOutcome). Any other value is
// returned as it is.
func actionArgs(name string, args any) any {
	a, ok := args.(map[string]any)
	if !ok {
		return args
	}
	op, _ := a["type"].(string)
	named := op != "" && slices.Contains(strings.Split(name, "_"), op)
	if !named && a["sources"] == nil {
		return args
	}
	out := maps.Clone(a)
	if named {
		delete(out, "type")
	}
	delete(out, "sources")
	return out
}

// hostedOutcome is what a call of a tool the API runs itself
// (web_search_call, file_search_call), holding no output, says came of it:
// that it failed, by its status, or the sources its action lists
// (web_search_call.action.sources, each a title and address) or the
// results it holds (file_search_call.results), as its result. ok is false
// for a call of the program's own tool (it has a name), and for one that
// says neither.
func hostedOutcome(m map[string]any, name string) (dumpMessage, bool) {
	if m["name"] != nil {
		return dumpMessage{}, false
	}
	id := firstNonEmpty(stringOrEmpty(m["call_id"]), stringOrEmpty(m["id"]))
	res := dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: id}, tool: name}
	switch status := stringOrEmpty(m["status"]); status {
	case "failed", "incomplete":
		res.Text, res.failed = name+" "+status, true
		return res, true
	}
	action, _ := m["action"].(map[string]any)
	for _, found := range []any{action["sources"], m["results"]} {
		if list, ok := found.([]any); ok && len(list) > 0 {
			res.Text, _ = serverToolResult(list)
			return res, strings.TrimSpace(res.Text) != ""
		}
	}
	return dumpMessage{}, false
}

// transferredTo is the agent a handoff's output names, as the OpenAI
// Agents SDK writes it ({"assistant": NAME}); empty for any other text.
func transferredTo(text string) string {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, `{"assistant"`) {
		return ""
	}
	var to map[string]string
	if json.Unmarshal([]byte(t), &to) != nil || len(to) != 1 {
		return ""
	}
	return strings.TrimSpace(to["assistant"])
}

// normalRole is the chat role a dump's role stands for: LangChain's,
// Google GenAI's and smolagents' names for the assistant, the user and a
// tool.
func normalRole(role string) string {
	switch r := strings.ToLower(strings.TrimSpace(role)); r {
	case "human", "user":
		return "user"
	case "ai", "assistant", "model", "chatbot":
		return "assistant"
	case "tool", "function", "tool-response":
		return "tool"
	case "system", "developer":
		return "system"
	default:
		return r
	}
}

// dumpRun lays a dump's messages out as a run's steps. The agent of a
// step is the name the dump gives its speaker, else its role; a tool's
// result is of the agent that made the call it answers (by its id, or,
// where the dump gives none, the first call of its tool without an id
// not yet answered: results come in the order of their calls).
func dumpRun(ms []dumpMessage) *Run {
	r := &Run{Format: FormatTranscript, Steps: make([]Step, 0, len(ms))}
	callers := map[string]string{}    // call id → its agent
	nameless := map[string][]string{} // a tool → the agents of its calls without ids not yet answered
	last, current := "", ""
	for _, m := range ms {
		role := normalRole(m.Role)
		text := strings.TrimSpace(m.Text)
		name := strings.TrimSpace(m.Name)
		s := Step{Role: role, Content: text, Kind: KindMessage}
		switch {
		case role == "tool" || m.CallID != "" && len(m.Calls) == 0:
			s.Kind, s.Role = KindToolResult, "tool"
			agent, id := callers[m.CallID], m.CallID
			if open := nameless[m.tool]; id == "" && len(open) > 0 {
				agent, nameless[m.tool] = open[0], open[1:]
			}
			s.Agent = firstNonEmpty(agent, name, last, "tool")
			if m.failed {
				s.Content = errorText(text)
			}
			if id != "" {
				s.Extra = &Extra{ToolCallID: id}
			}
			if m.handsTo != "" {
				current = m.handsTo
			}
			r.Steps = append(r.Steps, s)
			continue
		case text == "" && len(m.Calls) == 0:
			continue
		case role == "system":
			s.Kind, s.Agent = KindSystem, "system"
		case role == "user" && (name == "" || isUserRole(name)):
			s.Kind, s.Agent = KindUser, firstNonEmpty(name, "user")
		default:
			if name == "" && role == "assistant" {
				name = current
			}
			s.Agent = firstNonEmpty(name, role, "assistant")
			if role == "user" {
				s.Role = "assistant" // a named agent's words in the user's role, as a group chat passes them
			}
			last = s.Agent
		}
		switch {
		case m.kind != "":
			s.Kind = m.kind
			if m.target != "" {
				s.Extra = &Extra{Target: m.target}
			}
		case len(m.Calls) > 0:
			s.Kind = KindToolCall
			s.Extra = &Extra{ToolCalls: m.Calls, Target: m.target} // a call that hands a task to an agent is addressed to it
			if text == "" {
				s.Content = callText(m.Calls)
			}
			for _, c := range m.Calls {
				if c.ID != "" {
					callers[c.ID] = s.Agent
				} else {
					nameless[c.Name] = append(nameless[c.Name], s.Agent)
				}
			}
		}
		r.Steps = append(r.Steps, s)
	}
	dumpTextCalls(r.Steps)
	return r
}

// dumpTextCalls reads the calls a dump's reply writes in its text (a
// ReAct agent's "Action:" lines, a chat template's markup: textCalls)
// when the dump keeps none of its own for it, and the turn after it
// whose text gives their results back (textResult: an "Observation:",
// a result's markup) as the result of those calls, of the caller: a
// framework that prompts its model for actions in text keeps them in
// its memory as plain messages (LlamaIndex's ReAct agent, each
// observation in the user's role). A dump that keeps calls of its own
// (a tool's event after the model's text, as AgentOps records them)
// keeps every call there.
func dumpTextCalls(steps []Step) {
	if slices.ContainsFunc(steps, func(s Step) bool { return len(s.ToolCalls()) > 0 }) {
		return
	}
	caller := "" // the agent whose last step wrote its calls in its text
	for i := range steps {
		s := &steps[i]
		if caller != "" && (s.Kind == KindUser || s.Kind == KindSystem || s.Kind == KindToolResult) && takeTextResult(s, caller) {
			continue
		}
		if s.Kind == KindToolResult {
			continue
		}
		caller = ""
		if s.Kind != KindMessage || len(s.ToolCalls()) > 0 {
			continue
		}
		if calls := textCalls(s.Content); len(calls) > 0 {
			s.Kind = KindToolCall
			s.Edit().ToolCalls = calls
			caller = s.Agent
		}
	}
}
