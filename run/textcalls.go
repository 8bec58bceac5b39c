package run

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Models served without a tool-calling API (open models behind a local
// server, and the agents trained on them) write their calls in the text
// of their turn, in the markup their chat template taught them, and the
// harness answers each in the next turn, wrapped in the markup for
// results. textCalls reads such a turn's calls, and textResults the
// turns that answer them, so that they are calls and results as a tool
// API's would be. A call is known by its markup's structure: a JSON
// object with a name and arguments inside the tags that hold calls, or,
// for the markups whose calls are plain text (a search query, a command
// line, code), a non-empty body between an opening and a closing tag
// that begin no quotation. A tag quoted in prose, or an example in a
// system prompt's instructions (a system turn is not read), is no call.

// maxTextCalls bounds the calls read from one turn, and maxTextCallScan
// the text searched for them: a call is written near its turn's end, and
// a huge message is output, not a turn of a model.
const (
	maxTextCalls    = 20
	maxTextCallScan = 256 << 10
)

// textCalls returns the tool calls a turn's text writes in a chat
// template's markup, in the order written; nil when it writes none.
func textCalls(text string) []ToolCall {
	if len(text) > maxTextCallScan {
		text = text[:maxTextCallScan]
	}
	var out []ToolCall
	add := func(calls ...ToolCall) {
		for _, c := range calls {
			if len(out) < maxTextCalls {
				out = append(out, c)
			}
		}
	}
	// Hermes, Qwen2.5, Qwen3: <tool_call>{"name": …, "arguments": …}</tool_call>,
	// the last one perhaps cut off before its closing tag.
	for _, body := range tagBodies(text, "<tool_call>", "</tool_call>", true) {
		if c, ok := namedCall(body); ok {
			add(c)
		}
	}
	// Llama 3.1's custom tools: <function=NAME>{…}</function>.
	for rest, tags := text, 0; tags < 2*maxTextCalls; tags++ {
		i := strings.Index(rest, "<function=")
		if i < 0 {
			break
		}
		rest = rest[i+len("<function="):]
		end := strings.IndexByte(rest, '>')
		if end < 0 {
			break
		}
		name := rest[:end]
		body, after, ok := strings.Cut(rest[end+1:], "</function>")
		if !ok {
			break // no later tag is closed either
		}
		if !toolName(name) {
			continue
		}
		if args, ok := argsObject([]byte(strings.TrimSpace(body))); ok {
			add(ToolCall{Name: name, Arguments: args})
		}
		rest = after
	}
	// Llama 3.1 and 3.2: <|python_tag|> before a JSON call or a built-in
	// tool's call, or a whole turn that is a bare JSON call.
	if _, after, ok := strings.Cut(text, "<|python_tag|>"); ok {
		add(pythonTagCalls(after)...)
	} else if t := strings.TrimSpace(trimEndTokens(text)); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[{") {
		add(jsonCalls(t)...)
	}
	// Mistral: [TOOL_CALLS] [{"name": …, "arguments": …, "id": …}], or
	// its later tokenizer's [TOOL_CALLS]NAME[ARGS]{…}.
	if _, after, ok := strings.Cut(text, "[TOOL_CALLS]"); ok {
		add(mistralCalls(after)...)
	}
	// Qwen-Agent: ✿FUNCTION✿: NAME, then ✿ARGS✿: {…}.
	for rest, tags := text, 0; tags < 2*maxTextCalls; tags++ {
		_, after, ok := strings.Cut(rest, "✿FUNCTION✿:")
		if !ok {
			break
		}
		rest = after
		name, args, ok := strings.Cut(after, "✿ARGS✿:")
		if !ok {
			break
		}
		name = strings.TrimSpace(name)
		if i := strings.Index(args, "✿"); i >= 0 {
			args = args[:i]
		}
		if a, ok := argsObject([]byte(strings.TrimSpace(args))); ok && toolName(name) {
			add(ToolCall{Name: name, Arguments: a})
		}
	}
	// Search-R1 and the RL search agents like it: <search> query </search>.
	for _, body := range tagBodies(text, "<search>", "</search>", false) {
		if q := strings.TrimSpace(body); q != "" && !strings.ContainsAny(q, "<>\n") {
			add(ToolCall{Name: "search", Arguments: textOf(map[string]any{"query": q})})
		}
	}
	// CodeAct and OpenHands before function calling: code and command
	// lines in execution tags, named as OpenHands names those tools.
	for _, body := range tagBodies(text, "<execute_ipython>", "</execute_ipython>", false) {
		if code := strings.TrimSpace(body); code != "" {
			add(ToolCall{Name: "execute_ipython_cell", Arguments: textOf(map[string]any{"code": code})})
		}
	}
	for _, body := range tagBodies(text, "<execute_bash>", "</execute_bash>", false) {
		if line := strings.TrimSpace(body); line != "" {
			add(ToolCall{Name: "execute_bash", Arguments: textOf(map[string]any{"command": line})})
		}
	}
	// ReAct agents prompted to write their actions as text: a line
	// "Action: NAME" followed by "Action Input: INPUT", and the JSON chat
	// agents' fenced {"action": NAME, "action_input": …} blobs. An action
	// that names no tool ("Final Answer") is the reply, not a call.
	add(reactCalls(text)...)
	// Harnesses of Python-like functions: one call alone in a bare code
	// fence (fencedcalls.go).
	if len(out) == 0 {
		add(fencedCalls(text)...)
	}
	return out
}

// reactCalls reads the actions a ReAct agent's turn writes as text, in
// order: "Action: NAME" with the "Action Input:" line after it (its input
// running to an "Observation:" line the turn may append, to the agent's
// next labelled line (agentLine), or to the end),
// and JSON action blobs in code fences. An input that is a JSON object is
// the call's arguments; any other is its single input.
func reactCalls(text string) []ToolCall {
	var out []ToolCall
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines) && len(out) < maxTextCalls; i++ {
		name, first, ok := reactAction(lines, i)
		if !ok {
			continue
		}
		input := []string{first}
		for j := i + 2; j < len(lines); j++ {
			if _, obs := lineLabel(lines[j], "observation"); obs || agentLine(lines[j]) {
				break
			}
			input = append(input, lines[j])
		}
		out = append(out, ToolCall{Name: name, Arguments: reactArgs(strings.TrimSpace(strings.Join(input, "\n")))})
	}
	for _, body := range tagBodies(text, "```", "```", false) {
		body = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(body), "json"))
		var v struct {
			Action      string          `json:"action"`
			ActionInput json.RawMessage `json:"action_input"`
		}
		if len(out) >= maxTextCalls || json.Unmarshal([]byte(body), &v) != nil || !toolName(v.Action) || v.ActionInput == nil {
			continue
		}
		args, ok := argsObject(v.ActionInput)
		if !ok {
			var s string
			if json.Unmarshal(v.ActionInput, &s) != nil {
				s = string(v.ActionInput)
			}
			args = reactArgs(s)
		}
		out = append(out, ToolCall{Name: v.Action, Arguments: args})
	}
	return out
}

// lineLabel returns what follows a line's label ("Action:"), any case,
// and false for a line that opens with another label or none.
func lineLabel(line, label string) (string, bool) {
	t := strings.TrimSpace(line)
	if len(t) <= len(label) || !strings.EqualFold(t[:len(label)], label) || t[len(label)] != ':' {
		return "", false
	}
	return strings.TrimSpace(t[len(label)+1:]), true
}

// reactArgs gives an action's input as a call's arguments: a JSON object
// as written, any other text as its one input.
func reactArgs(input string) string {
	if args, ok := argsObject([]byte(input)); ok {
		return args
	}
	return textOf(map[string]any{"input": strings.Trim(input, "\"'`")})
}

// tagBodies returns the texts between each opening tag and the closing
// tag after it (with open, the text to the end after a last opening tag
// left unclosed). An opening tag in quotes or inline code (`<search>`),
// or one that a word runs into, is quoted, not written to be run.
func tagBodies(text, openTag, closeTag string, open bool) []string {
	var out []string
	for rest, tags := text, 0; len(out) < maxTextCalls && tags < 2*maxTextCalls; tags++ {
		i := strings.Index(rest, openTag)
		if i < 0 {
			break
		}
		r, _ := utf8.DecodeLastRuneInString(rest[:i])
		quoted := strings.ContainsRune("`'\"“‘", r)
		rest = rest[i+len(openTag):]
		body, after, ok := strings.Cut(rest, closeTag)
		if !ok && !open {
			break
		}
		if !quoted {
			out = append(out, body)
		}
		rest = after
	}
	return out
}

// trimEndTokens drops the special tokens a template ends a turn with,
// which a log that kept the model's raw text still holds.
func trimEndTokens(text string) string {
	for _, tok := range []string{"<|eom_id|>", "<|eot_id|>", "</s>", "<|im_end|>"} {
		text = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), tok))
	}
	return text
}

// pythonTagCalls reads what follows Llama's <|python_tag|>: a JSON call
// or calls (separated by ";"), a built-in tool's call
// (brave_search.call(query="…")), or else code for its code interpreter.
func pythonTagCalls(text string) []ToolCall {
	t := strings.TrimSpace(trimEndTokens(text))
	if t == "" {
		return nil
	}
	if strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		var out []ToolCall
		for part := range strings.SplitSeq(t, ";") {
			out = append(out, jsonCalls(strings.TrimSpace(part))...)
		}
		if len(out) > 0 {
			return out
		}
	}
	if name, rest, ok := strings.Cut(t, ".call("); ok && toolName(name) && strings.HasSuffix(rest, ")") {
		if args, ok := keywordArgs(strings.TrimSuffix(rest, ")")); ok {
			return []ToolCall{{Name: name, Arguments: args}}
		}
	}
	return []ToolCall{{Name: "code_interpreter", Arguments: textOf(map[string]any{"code": t})}}
}

// keywordArgs reads a built-in tool's arguments as Llama writes them,
// name="value" pairs (values quoted with escapes, as Python and Go
// write them), as a JSON object; false for anything else.
func keywordArgs(s string) (string, bool) {
	args := map[string]any{}
	for s = strings.TrimSpace(s); s != ""; {
		key, rest, ok := strings.Cut(s, "=")
		key = strings.TrimSpace(key)
		rest = strings.TrimSpace(rest)
		if !ok || !toolName(key) || rest == "" || rest[0] != '"' {
			return "", false
		}
		quoted, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return "", false
		}
		value, err := strconv.Unquote(quoted)
		if err != nil {
			return "", false
		}
		args[key] = value
		s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest[len(quoted):]), ","))
	}
	if len(args) == 0 {
		return "", false
	}
	return textOf(args), true
}

// jsonCalls reads text that is wholly a JSON call ({"name": …,
// "arguments" or "parameters": {…}}) or a list of them; nil otherwise.
func jsonCalls(text string) []ToolCall {
	var raw json.RawMessage
	if json.Unmarshal([]byte(text), &raw) != nil {
		return nil
	}
	var items []json.RawMessage
	if raw[0] == '[' {
		if json.Unmarshal(raw, &items) != nil {
			return nil
		}
	} else {
		items = []json.RawMessage{raw}
	}
	var out []ToolCall
	for _, it := range items {
		c, ok := namedCall(string(it))
		if !ok {
			c, ok = commandCall(it)
		}
		if !ok {
			return nil // a list of other things is data, not calls
		}
		out = append(out, c)
	}
	return out
}

// commandCall reads a reply written as one JSON object whose "command"
// names a tool and gives it "args", beside the agent's thoughts, as the
// autonomous agents that answer in that format write it.
func commandCall(raw json.RawMessage) (ToolCall, bool) {
	var v struct {
		Command *struct {
			Name string          `json:"name"`
			Args json.RawMessage `json:"args"`
		} `json:"command"`
	}
	if json.Unmarshal(raw, &v) != nil || v.Command == nil || !toolName(v.Command.Name) {
		return ToolCall{}, false
	}
	args, ok := argsObject(v.Command.Args)
	if !ok {
		return ToolCall{}, false
	}
	return ToolCall{Name: v.Command.Name, Arguments: args}, true
}

// mistralCalls reads what follows Mistral's [TOOL_CALLS]: a JSON list of
// calls, or NAME[ARGS]{…} pairs.
func mistralCalls(text string) []ToolCall {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "[") {
		dec := json.NewDecoder(strings.NewReader(t))
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			return nil
		}
		return jsonCalls(string(raw))
	}
	var out []ToolCall
	for len(out) < maxTextCalls {
		name, rest, ok := strings.Cut(t, "[ARGS]")
		name = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), "[TOOL_CALLS]"))
		if !ok || !toolName(name) {
			break
		}
		dec := json.NewDecoder(strings.NewReader(rest))
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			break
		}
		args, ok := argsObject(raw)
		if !ok {
			break
		}
		out = append(out, ToolCall{Name: name, Arguments: args})
		t = strings.TrimSpace(rest[dec.InputOffset():])
	}
	return out
}

// namedCall reads a JSON object that names a tool and gives it arguments
// (under "arguments" or "parameters", as an object or as a string that
// holds one), with an id if it has one.
func namedCall(body string) (ToolCall, bool) {
	var v struct {
		Name       string          `json:"name"`
		Arguments  json.RawMessage `json:"arguments"`
		Parameters json.RawMessage `json:"parameters"`
		ID         string          `json:"id"`
	}
	if json.Unmarshal([]byte(strings.TrimSpace(body)), &v) != nil || !toolName(v.Name) {
		return ToolCall{}, false
	}
	raw := v.Arguments
	if raw == nil {
		raw = v.Parameters
	}
	args, ok := argsObject(raw)
	if !ok {
		return ToolCall{}, false
	}
	return ToolCall{ID: v.ID, Name: v.Name, Arguments: args}, true
}

// argsObject returns a call's arguments, a JSON object, as written (one
// given as a string that holds an object, as that object); false for
// anything else.
func argsObject(raw []byte) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		raw = bytes.TrimSpace([]byte(s))
	}
	if len(raw) == 0 || raw[0] != '{' || !json.Valid(raw) {
		return "", false
	}
	return string(raw), true
}

// toolName reports whether s can name a tool: an identifier, dotted or
// dashed, of at most 64 bytes. A placeholder ("<function-name>") or a
// sentence cannot.
func toolName(s string) bool {
	if s == "" || len(s) > 64 || !unicode.IsLetter(rune(s[0])) && s[0] != '_' {
		return false
	}
	for _, r := range s {
		if r > unicode.MaxASCII || !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '.' && r != '-' {
			return false
		}
	}
	return true
}

// resultWraps are the markups a harness wraps a tool's result in when it
// answers a call written in the model's text, each as its opening and
// closing marks.
var resultWraps = [][2]string{
	{"<tool_response>", "</tool_response>"}, // Hermes, Qwen
	{"<information>", "</information>"},     // Search-R1
	{"[TOOL_RESULTS]", "[/TOOL_RESULTS]"},   // Mistral
	{"✿RESULT✿:", ""},                       // Qwen-Agent
}

// takeTextResult makes s, a turn after one whose calls are written in
// its text, the result of those calls when its text gives them back
// (textResult): its text without the markup, answering the call it
// names. A turn that was not a tool's result becomes one, in the tool's
// role, of agent: the agent the reader gives its tools' results to, as
// it gives those of calls it keeps structured (a dump's caller, a
// transcript's "tool"). It reports whether s was such a turn.
func takeTextResult(s *Step, agent string) bool {
	body, id, ok := textResult(s.Content)
	if !ok {
		return false
	}
	if s.Kind != KindToolResult {
		s.Kind, s.Role, s.Agent = KindToolResult, "tool", agent
	}
	s.Content = body
	if id != "" && s.ToolCallID() == "" {
		s.Edit().ToolCallID = id
	}
	return true
}

// textResult reads a turn that gives back the results of the calls
// written in the turn before it: its text opens with a result's markup
// (resultWraps) or with an observation's head ("Observation:", as
// CodeAct's harness answers). It returns the results' texts without
// their markup (Mistral's {"content": …, "call_id": …} as its content,
// and the call it answers), except an observation's turn, returned whole
// with its "Observation:" label as the other readers of observations
// keep it; and false for any other text.
func textResult(text string) (body, callID string, ok bool) {
	t := strings.TrimSpace(text)
	if head, _, found := strings.Cut(t, ":"); found && strings.EqualFold(head, "observation") {
		return text, "", true
	}
	if head, rest, found := strings.Cut(t, " returned:"); found {
		// "Command NAME returned: …", as autonomous agents' harnesses
		// answer a command.
		if verb, name, ok := strings.Cut(head, " "); ok && strings.EqualFold(verb, "command") && toolName(name) {
			return strings.TrimSpace(rest), "", true
		}
	}
	for _, w := range resultWraps {
		if !strings.HasPrefix(t, w[0]) {
			continue
		}
		var parts []string
		rest := t
		for strings.HasPrefix(rest, w[0]) && len(parts) < maxTextCalls {
			rest = rest[len(w[0]):]
			part, after, closed := rest, "", false
			if w[1] != "" {
				part, after, closed = strings.Cut(rest, w[1])
			}
			if !closed {
				after = ""
			}
			parts = append(parts, strings.TrimSpace(part))
			rest = strings.TrimSpace(after)
		}
		if rest != "" {
			parts = append(parts, rest) // what the harness wrote after them
		}
		body = strings.Join(parts, "\n")
		if w[0] == "[TOOL_RESULTS]" && len(parts) == 1 {
			body, callID = mistralResult(body)
		}
		return body, callID, true
	}
	return "", "", false
}

// mistralResult reads Mistral's result object, {"content": …, "call_id":
// …}: its content (a text as it is, anything else as JSON) and the call
// it answers; a body of another shape is returned as it is.
func mistralResult(body string) (string, string) {
	var v struct {
		Content json.RawMessage `json:"content"`
		CallID  string          `json:"call_id"`
	}
	if json.Unmarshal([]byte(body), &v) != nil || v.Content == nil {
		return body, ""
	}
	var s string
	if json.Unmarshal(v.Content, &s) == nil {
		return s, v.CallID
	}
	return string(v.Content), v.CallID
}
