package run

// What a span did: its tool call and result, a handoff, and the errors
// and labelled mistake it carries.

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/offattr/offattr/run/spans"
)

// toolCall reads a tool span's call: name, id and arguments.
func toolCall(s *spans.Span, role spanRole) ToolCall {
	name := firstStr(s.Attrs, toolNameKeys...)
	if name == "" {
		name = strings.TrimSpace(strings.TrimPrefix(s.Name, "execute_tool"))
		if m := mastraToolCall.FindStringSubmatch(name); m != nil {
			name = m[1]
		}
	}
	if name == "" && role == roleRetrieval {
		name = "retrieval"
	}
	name = cleanName(unquote(name))
	args := firstText(s.Attrs, toolArgKeys...)
	if args == "" {
		args = honeyhiveArguments(s.Attrs)
	}
	return ToolCall{
		ID:        firstStr(s.Attrs, toolIDKeys...),
		Name:      name,
		Arguments: namedArguments(jsonArguments(args), name),
	}
}

// namedArguments reads a call's input written as the request that names
// its tool, {"tool_name": NAME, "arguments": {…}} (OpenLLMetry's MCP
// instrumentation writes a tools/call so), as the arguments; any other
// input is kept as it is.
func namedArguments(a, name string) string {
	if !strings.HasPrefix(a, `{"tool_name"`) {
		return a
	}
	var in struct {
		ToolName  string          `json:"tool_name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal([]byte(a), &in) != nil || in.ToolName != name || len(in.Arguments) == 0 {
		return a
	}
	return string(in.Arguments)
}

// jsonArguments reads a call's arguments written as JSON text twice over
// (a JSON string holding the JSON object, as a tracer that encodes
// arguments already encoded writes them) as the JSON they hold; any other
// arguments are kept as they are.
func jsonArguments(a string) string {
	if !strings.HasPrefix(a, `"`) {
		return a
	}
	var inner string
	if json.Unmarshal([]byte(a), &inner) != nil {
		return a
	}
	if t := strings.TrimSpace(inner); (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t)) {
		return t
	}
	return a
}

// Where conventions keep a tool span's call and result, in the order they
// are tried: GenAI, OpenInference, Langfuse, OpenLLMetry, Google ADK, the
// Vercel AI SDK, MLflow, Pydantic AI under Logfire, any-agent, the OpenAI
// Agents SDK's export, Genkit, VoltAgent.
var (
	toolNameKeys   = []string{"gen_ai.tool.name", "tool.name", "tool_call.function.name", "traceloop.entity.name", "ai.toolCall.name", "mlflow.spanFunctionName", "span_data.name", "entityName"}
	toolIDKeys     = []string{"gen_ai.tool.call.id", "tool.id", "tool_call.id", "ai.toolCall.id", "tool.call.id", "toolCallId"}
	toolArgKeys    = []string{"gen_ai.tool.call.arguments", "gen_ai.retrieval.query.text", "gen_ai.tool.input", "tool_call.function.arguments", "input.value", "langfuse.observation.input", "traceloop.entity.input", "gcp.vertex.agent.tool_call_args", "ai.toolCall.args", "mlflow.spanInputs", "tool_arguments", "gen_ai.tool.args", "langsmith.inputs", "span_data.input", "genkit:input", "_ml_obs.meta.input.value", "lmnr.span.input", "langwatch.input.value", "$ai_input_state", "reranker.query", "input", "inputs"}
	toolResultKeys = []string{"gen_ai.tool.call.result", "gen_ai.retrieval.documents", "gen_ai.tool.output", "output.value", "langfuse.observation.output", "traceloop.entity.output", "gcp.vertex.agent.tool_response", "ai.toolCall.result", "mlflow.spanOutputs", "tool_response", "gen_ai.output", "langsmith.outputs", "span_data.output", "genkit:output", "_ml_obs.meta.output.value", "lmnr.span.output", "langwatch.output.value", "$ai_output_state", "output", "outputs"}
)

// toolResult reads what a tool or retrieval span returned, and the
// attribute it was read from: a retriever's chunks, or the chunks a
// reranker kept (not those it was given).
func toolResult(s *spans.Span, role spanRole) (text, from string) {
	if role == roleRetrieval {
		for _, key := range []string{"retrieval.documents", "reranker.output_documents"} {
			var docs []string
			for _, d := range indexed(s.Attrs, key) {
				if c := d.Str("document.content"); c != "" {
					docs = append(docs, c)
				}
			}
			if len(docs) > 0 {
				return strings.Join(docs, "\n\n"), key
			}
		}
	}
	for _, k := range toolResultKeys {
		if t := firstText(s.Attrs, k); t != "" && !objectPlaceholder.MatchString(t) {
			t = unquote(t)
			if k == "genkit:output" && s.Attrs.Str("genkit:metadata:subtype") == "tool.v2" {
				t = multipartOutput(t)
			}
			return toolMessageText(t), k
		}
	}
	if t := honeyhiveResult(s.Attrs); t != "" {
		return toolMessageText(t), "honeyhive_outputs.result"
	}
	// GenAI's events: a tool span's choice is what the tool gave back
	// (Strands).
	for _, m := range eventMessages(s, true) {
		if t := strings.TrimSpace(m.Text); t != "" {
			return t, "GenAI events"
		}
	}
	return "", ""
}

// multipartOutput reads the response of a Genkit tool of subtype tool.v2
// (a multipart tool, as Genkit for Go defines every tool), {"output": …,
// "content": [part…]}, as its output, written as the tool wrote it; a
// response with no output is kept whole.
func multipartOutput(t string) string {
	var r struct {
		Output json.RawMessage `json:"output"`
	}
	if json.Unmarshal([]byte(t), &r) != nil || len(r.Output) == 0 || string(r.Output) == "null" {
		return t
	}
	var text string
	if json.Unmarshal(r.Output, &text) == nil {
		return text
	}
	return string(r.Output)
}

// objectPlaceholder matches what JavaScript's String() makes of an object
// with no text of its own, "[object ToolMessage]" (OpenLIT writes a
// LangChain.js tool's result so): it says nothing of the result.
var objectPlaceholder = regexp.MustCompile(`^\[object [A-Za-z_$][\w$]*\]$`)

// toolMessageText reads a result written as the tool message that carries
// it (LangChain's ToolMessage, serialised or as a dict: {"type": "tool",
// "content": …}) as the message's text, and a text, a tool message or a
// Command carrying one that a tracer wrapped as {"output": …} or
// {"result": …} as the text (beside the flag of an MCP tool's error,
// {"result": …, "is_error": true}, as OpenLLMetry's MCP instrumentation
// writes a CallToolResult whose isError is set: the span's status says it);
// any other result is kept as it is.
func toolMessageText(t string) string {
	if text, ok := aiSDKToolPart(t); ok {
		return text
	}
	// Most results are not such objects: only one that may be is parsed.
	body := strings.TrimLeft(strings.TrimPrefix(t, "{"), " \t\r\n")
	wrapped := strings.HasPrefix(body, `"output"`) || strings.HasPrefix(body, `"result"`)
	if !strings.HasPrefix(t, "{") || !wrapped && !strings.Contains(t, `"content"`) {
		return t
	}
	var x map[string]any
	if json.Unmarshal([]byte(t), &x) != nil {
		return t
	}
	if m, ok := messageOf(x); ok && m.Role == "tool" && m.Text != "" {
		return m.Text
	}
	if _, ok := x["is_error"].(bool); ok && len(x) == 2 {
		delete(x, "is_error")
	}
	if len(x) == 1 {
		for _, k := range []string{"output", "result"} {
			switch v := x[k].(type) {
			case string:
				if strings.TrimSpace(v) != "" {
					return v
				}
			case map[string]any:
				if text, ok := toolMessageIn(v); ok {
					return text
				}
			}
		}
	}
	return t
}

// aiSDKToolPart reads a result written as the Vercel AI SDK's part for it
// ({"type": "tool-result", "toolCallId", "toolName", "input", "output"},
// or "tool-error" with its "error"), as Sentry's integration records a
// tool's result: the output, or the error's text. An error the part
// could not keep (JavaScript's Error written as {}) is no text: the span's
// error says it. ok is false for any other result.
func aiSDKToolPart(t string) (text string, ok bool) {
	if !strings.HasPrefix(t, `{"type":"tool-`) {
		return "", false
	}
	var p struct {
		Type       string          `json:"type"`
		ToolCallID string          `json:"toolCallId"`
		Output     json.RawMessage `json:"output"`
		Error      json.RawMessage `json:"error"`
	}
	if json.Unmarshal([]byte(t), &p) != nil || p.ToolCallID == "" {
		return "", false
	}
	switch p.Type {
	case "tool-result":
		var x any
		if json.Unmarshal(p.Output, &x) != nil {
			return "", false
		}
		switch v := x.(type) {
		case string:
			return v, true
		case map[string]any:
			if _, typed := v["type"]; typed && len(v) == 2 {
				return toolOutputText(v), true // {"type", "value"}
			}
		}
		return string(p.Output), true
	case "tool-error":
		var msg string
		if json.Unmarshal(p.Error, &msg) == nil && strings.TrimSpace(msg) != "" {
			return errorLine("", msg), true
		}
		return "", true
	}
	return "", false
}

// toolMessageIn returns the text of the tool message a result object is,
// or that it carries as the update of a LangGraph Command (a tool's way to
// hand off: {"lg_name": "Command", "update": {"messages": […]}, "goto"}),
// its last tool message.
func toolMessageIn(v map[string]any) (string, bool) {
	if m, ok := messageOf(v); ok && m.Role == "tool" && m.Text != "" {
		return m.Text, true
	}
	u, ok := v["update"].(map[string]any)
	if !ok {
		return "", false
	}
	ms := messagesOf(u, "")
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Role == "tool" && ms[i].Text != "" {
			return ms[i].Text, true
		}
	}
	return "", false
}

// firstText is firstStr rendering structured values as JSON.
func firstText(as spans.Attrs, keys ...string) string {
	for _, k := range keys {
		if v, ok := as.Get(k); ok {
			if t := strings.TrimSpace(v.Text()); t != "" && t != "null" {
				return t
			}
		}
	}
	return ""
}

// spanErrors are the error signals a span carries, as lines the extract
// stage reads as errors: exception events ("ValueError: city not found"),
// then the status message when no exception said it.
// Control flow that frameworks raise as an exception is a handoff, not
// an error: LangGraph moves to another graph's node by raising
// ParentCommand (a Command for the parent graph), and interrupts a run for
// a human by raising GraphInterrupt.
var (
	// handoffExceptions are exception types (the last dotted part) that
	// pass control on.
	handoffExceptions = []string{"ParentCommand", "Command", "GraphInterrupt", "NodeInterrupt", "GraphBubbleUp"}
	// handoffTarget finds where a Command sends control: goto='node'.
	handoffTarget = regexp.MustCompile(`goto\s*=\s*(?:Send\(\s*node\s*=\s*)?['"]([^'"]+)['"]`)
)

// handoff is a handoff a span's exception reported.
type handoff struct {
	Target string // empty when the exception does not say
	Text   string
}

// spanHandoffOp reads a span that records a handoff as its operation
// (GenAI's agent_handoff, with gen_ai.handoff.from_agent and .to_agent;
// the OpenAI Agents SDK's handoff spans, under GenAI's operation name or
// in its own export).
func spanHandoffOp(s *spans.Span) (handoff, bool) {
	if op := firstStr(s.Attrs, "gen_ai.operation.name", "span_data.type"); op != "agent_handoff" && op != "handoff" {
		return handoff{}, false
	}
	h := handoff{Target: cleanName(firstStr(s.Attrs, "gen_ai.handoff.to_agent", "to_agent", "span_data.to_agent"))}
	h.Text = "Hands off control"
	if h.Target != "" {
		h.Text = "Hands off to " + h.Target
	}
	return h, true
}

// isHandoff reports whether an exception type, or a message written as
// "Type(…)", "Type: …" or the type alone, is control flow.
func isHandoff(typ, msg string) bool {
	if typ == "" {
		if i := strings.IndexAny(msg, "(:"); i > 0 {
			typ = msg[:i]
		} else if m := strings.TrimSpace(msg); !strings.ContainsAny(m, " \t\n") {
			typ = m
		}
	}
	typ = strings.TrimSpace(typ)
	return typ != "" && slices.Contains(handoffExceptions, typ[strings.LastIndexByte(typ, '.')+1:])
}

// spanHandoff returns the handoff a span's exception events or status
// report, if any.
func spanHandoff(s *spans.Span) (handoff, bool) {
	for _, e := range s.Events {
		if e.Name == "exception" {
			typ, msg := exception(e)
			if isHandoff(typ, msg) {
				return newHandoff(typ, msg), true
			}
		}
	}
	if msg := stackless(s.Status.Message); s.Status.Code == spans.StatusError && isHandoff(s.Attrs.Str("error.type"), msg) {
		return newHandoff(s.Attrs.Str("error.type"), msg), true
	}
	return handoff{}, false
}

// exception reads an exception event's type and message.
func exception(e spans.Event) (typ, msg string) {
	return e.Attrs.Str("exception.type"), stackless(e.Attrs.Str("exception.message"))
}

// stackless reads an error message that carries a JavaScript stack trace
// (OpenTelemetry JS instrumentations may write an error's message and then
// its stack, "message\n\nError: message\n    at f (file:1:2)…") as the
// stack's first line, which names the error's type and says its message;
// a message given before the stack that this line does not repeat is kept
// before it. Any other message is returned as it is.
func stackless(msg string) string {
	frame := strings.Index(msg, "\n    at ")
	if frame < 0 {
		return msg
	}
	head := strings.TrimRight(msg[:frame], " \t\r\n")
	line := head[strings.LastIndexByte(head, '\n')+1:]
	before := strings.TrimSpace(strings.TrimSuffix(head, line))
	line = strings.TrimSpace(line)
	if before == "" || strings.Contains(line, before) {
		return line
	}
	return before + "\n" + line
}

func newHandoff(typ, msg string) handoff {
	h := handoff{}
	if m := handoffTarget.FindStringSubmatch(msg); m != nil {
		h.Target = cleanName(m[1])
	}
	typ = strings.TrimSpace(typ[strings.LastIndexByte(typ, '.')+1:])
	switch {
	case h.Target != "":
		h.Text = "Hands off to " + h.Target
	default:
		h.Text = "Hands off control"
	}
	if typ != "" {
		h.Text += " (" + typ + ")"
	}
	if msg = strings.TrimSpace(msg); msg != "" {
		h.Text += ": " + msg
	}
	return h
}

func spanErrors(s *spans.Span) []string {
	var out []string
	for _, e := range s.Events {
		if e.Name != "exception" {
			continue
		}
		typ, msg := exception(e)
		if typ == "" && msg == "" || isHandoff(typ, msg) {
			continue
		}
		out = append(out, errorLine(typ, msg))
	}
	if s.Status.Code != spans.StatusError {
		return out
	}
	if len(out) == 0 {
		_, raised := spanHandoff(s)
		_, op := spanHandoffOp(s)
		if raised || op {
			return nil // the status says only that control was passed on
		}
	}
	msg := strings.TrimSpace(stackless(s.Status.Message))
	for _, l := range out {
		if msg == "" || strings.Contains(l, msg) {
			return out // the exception already says it
		}
	}
	if msg == "" {
		if t := s.Attrs.Str("error.type"); t != "" {
			return append(out, errorLine(t, ""))
		}
		return append(out, "Error: "+s.Name+" failed (span status ERROR)")
	}
	return append(out, errorLine(s.Attrs.Str("error.type"), msg))
}

// levelStatus reads an error that a convention keeps in attributes rather
// than in the span's status: Langfuse's observation level ERROR, with its
// status message, as its SDKs write them on the spans they export.
func levelStatus(s *spans.Span) (spans.Status, bool) {
	if s.Status.Code == spans.StatusError || !strings.EqualFold(s.Attrs.Str("langfuse.observation.level"), "ERROR") {
		return spans.Status{}, false
	}
	return spans.Status{Code: spans.StatusError, Message: strings.TrimSpace(s.Attrs.Str("langfuse.observation.status_message"))}, true
}

// goPlainErrors are the types of the errors Go's errors.New, fmt.Errorf
// and errors.Join make, as OpenTelemetry Go's RecordError names an
// error's type: they say only that the error is a message.
var goPlainErrors = map[string]bool{"*errors.errorString": true, "*fmt.wrapError": true, "*fmt.wrapErrors": true, "*errors.joinError": true}

// errorLine writes an exception as a traceback's last line does, which
// extract reads as an exception; a type that does not read as one
// ("httpx.ConnectTimeout") gets "Error:" in front.
func errorLine(typ, msg string) string {
	typ, msg = strings.TrimSpace(typ), strings.TrimSpace(msg)
	typ = typ[strings.LastIndexByte(typ, '/')+1:] // Go's import paths
	if goPlainErrors[typ] {
		typ = ""
	}
	line := typ
	switch {
	case typ == "" || typ == "_OTHER" || strings.HasPrefix(msg, typ+": "): // a message that names its type already
		line = msg
	case msg != "":
		line = typ + ": " + msg
	}
	if typ == "" {
		// A message that is an exception's own line ("ValueError: …", as
		// Langfuse keeps it) reads as one, whichever format carried it.
		if i := strings.Index(msg, ": "); i > 0 && !strings.ContainsAny(msg[:i], " \t") {
			typ = msg[:i]
		}
	}
	base := typ[strings.LastIndexByte(typ, '.')+1:]
	if !strings.HasSuffix(base, "Error") && !strings.HasSuffix(base, "Exception") {
		line = "Error: " + line
	}
	return line
}

// mistake reads offattr's own label attributes: the span a person marked
// as the decisive fault, and why. Where a tool keeps what a person adds to
// a run as its metadata (LangSmith), the label is read there too.
func mistake(s *spans.Span) (reason string, ok bool) {
	for _, k := range mistakeKeys {
		v, found := s.Attrs.Get(k.mark)
		if found && (v.Kind == spans.KindBool && v.Bool || strings.EqualFold(v.Text(), "true")) {
			return s.Attrs.Str(k.reason), true
		}
	}
	return "", false
}

// mistakeKeys are where a label's mark and reason are read: as attributes,
// and as LangSmith keeps a run's metadata.
var mistakeKeys = []struct{ mark, reason string }{
	{"offattr.mistake", "offattr.mistake_reason"},
	{"langsmith.metadata.offattr.mistake", "langsmith.metadata.offattr.mistake_reason"},
}
