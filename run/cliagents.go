package run

// The session files other command-line and editor coding agents keep:
// Gemini CLI's chat recordings ({"sessionId", "projectHash", "messages":
// [{"type": "user" | "gemini" | "info" | "error", "content",
// "toolCalls": [{"id", "name", "args", "result": [parts], "status"}]}]}),
// Qwen Code's chat records (JSONL, {"uuid", "sessionId", "type": "user"
// | "assistant" | "tool_result" | "system", "message": a Gemini content}),
// OpenCode's session export ({"info": the session, "messages": [{"info":
// {"role", …}, "parts": [{"type": "text" | "tool" | "step-start" | …}]}]}),
// VS Code Copilot Chat's export ({"requests": [{"message", "response",
// "result": {"metadata": {"toolCallRounds", "toolCallResults"}}}]}), and
// the UI messages Cline, Roo Code and Kilo Code keep of a task
// (ui_messages.json: [{"ts", "type": "say" | "ask", "say" | "ask", "text"}]).
// Each is read into chat messages and laid out as a transcript's steps; a
// label beside them (top-level keys, or a record of its own in a JSONL
// file) is the run's.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/offattr/offattr/run/spans"
)

// cliSession reads data as one of the session files above; ok is false
// when its shape is none of theirs.
func cliSession(data []byte) (c *Case, ok bool, err error) {
	if len(data) == 0 {
		return nil, false, nil
	}
	var ms []dumpMessage
	var meta *fileObject
	switch data[0] {
	case '[':
		keys := spans.TopKeys(data, 16)
		if !slices.Contains(keys, "ts") || !slices.Contains(keys, "say") && !slices.Contains(keys, "ask") {
			return nil, false, nil
		}
		list, err := anyList(data, "")
		if err != nil {
			return nil, false, nil
		}
		if ms, ok = uiMessages(list); !ok {
			return nil, false, nil
		}
	case '{':
		keys := spans.TopKeys(data, 64)
		has := func(k string) bool { return slices.Contains(keys, k) }
		shaped := has("requests") && (has("responderUsername") || has("requesterUsername")) ||
			has("messages") && (has("sessionId") || has("info")) ||
			has("sessionId") && has("message") && has("type")
		if !shaped {
			return nil, false, nil
		}
		list, err := anyList(data, "")
		if err != nil {
			return nil, false, nil
		}
		if ms, meta, ok = cliRecords(list); !ok {
			return nil, false, nil
		}
	default:
		return nil, false, nil
	}
	if len(ms) == 0 {
		return nil, false, nil
	}
	if meta == nil {
		meta = &fileObject{}
	}
	return dumpCaseOfMessages(ms, meta)
}

// cliRecords reads list, the values of a file that starts with an object:
// one object of a session export, or Qwen Code's records one a line.
func cliRecords(list []any) (ms []dumpMessage, meta *fileObject, ok bool) {
	if len(list) == 1 {
		o, _ := list[0].(map[string]any)
		if o == nil {
			return nil, nil, false
		}
		if ms, ok = geminiRecording(o); !ok {
			if ms, ok = openCodeExport(o); !ok {
				if ms, ok = copilotExport(o); !ok {
					return nil, nil, false
				}
			}
		}
		return ms, labelOf(o), true
	}
	return qwenRecords(list)
}

// labelOf is the label o holds beside a run, as a file's object holds it.
func labelOf(o map[string]any) *fileObject {
	meta := &fileObject{}
	for k := range labelKeys {
		if v, ok := o[k]; ok {
			raw, _ := json.Marshal(map[string]any{k: v})
			_ = json.Unmarshal(raw, meta)
		}
	}
	return meta
}

// geminiRecording reads Gemini CLI's chat recording: a user's message,
// the model's ("gemini": its text, then its tool calls, each with the
// function responses it got), and the CLI's own notices (info, warning,
// error), which no agent said and are passed over.
func geminiRecording(o map[string]any) ([]dumpMessage, bool) {
	list, _ := o["messages"].([]any)
	if o["sessionId"] == nil || len(list) == 0 || !objectsAll(list, func(m map[string]any) bool {
		_, typed := m["type"].(string)
		return typed && m["role"] == nil && m["parts"] == nil
	}) {
		return nil, false
	}
	var out []dumpMessage
	model := false
	for _, e := range list {
		m := e.(map[string]any)
		text := strings.TrimSpace(contentOf(m["content"]))
		switch m["type"] {
		case "user":
			if text != "" {
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "user", Text: text}})
			}
		case "gemini":
			model = true
			calls, _ := m["toolCalls"].([]any)
			turn := dumpMessage{chatMessage: chatMessage{Role: "assistant", Text: text}}
			var results []dumpMessage
			for _, tc := range calls {
				cm, _ := tc.(map[string]any)
				if cm == nil {
					continue
				}
				id, name := stringOrEmpty(cm["id"]), stringOrEmpty(cm["name"])
				turn.Calls = append(turn.Calls, ToolCall{ID: id, Name: name, Arguments: textOf(cm["args"])})
				results = append(results, recordedResult(cm, id, name))
			}
			if turn.Text != "" || len(turn.Calls) > 0 {
				out = append(out, turn)
			}
			out = append(out, results...)
		}
	}
	return out, model
}

// recordedResult is the result of a tool call Gemini CLI recorded: its
// function responses' text, else what the CLI displayed of it; failed
// when its status says so.
func recordedResult(cm map[string]any, id, name string) dumpMessage {
	dm := dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: id}, tool: name}
	parts, _ := cm["result"].([]any)
	var texts []string
	for _, p := range parts {
		pm, _ := p.(map[string]any)
		if r, ok := partResult(pm); ok {
			texts = append(texts, r.Text)
			dm.failed = dm.failed || r.failed
		} else if t, ok := pm["text"].(string); ok {
			texts = append(texts, t)
		}
	}
	dm.Text = strings.Join(nonEmpty(texts), "\n")
	if dm.Text == "" {
		dm.Text = stringOrEmpty(cm["resultDisplay"])
	}
	switch cm["status"] {
	case "error", "cancelled":
		dm.failed = true
	}
	return dm
}

// qwenRecords reads Qwen Code's chat records: each user, assistant or
// tool_result record's message is a Gemini content, read as Google
// GenAI's are; system records (compression, telemetry) are passed over,
// and a record holding only a label labels the run. ok is false unless
// every record but a label is one of a session, and some message holds
// parts.
func qwenRecords(list []any) (ms []dumpMessage, meta *fileObject, ok bool) {
	var contents []any
	for _, e := range list {
		rec, _ := e.(map[string]any)
		if rec == nil {
			return nil, nil, false
		}
		if isLabelRecord(rec) {
			meta = labelOf(rec)
			continue
		}
		typ, _ := rec["type"].(string)
		if rec["sessionId"] == nil || typ == "" {
			return nil, nil, false
		}
		msg, _ := rec["message"].(map[string]any)
		switch typ {
		case "user", "assistant", "tool_result":
			if _, parts := msg["parts"].([]any); !parts {
				return nil, nil, false
			}
			contents = append(contents, msg)
		}
	}
	if len(contents) == 0 {
		return nil, nil, false
	}
	return dumpMessages(contents), meta, true
}

// geminiContentRecord reports whether raw, a session record's message,
// is a Gemini content (a role and parts, no content): Qwen Code's, whose
// records are otherwise Claude Code's in shape.
func geminiContentRecord(raw json.RawMessage) bool {
	var m struct {
		Parts   json.RawMessage `json:"parts"`
		Content json.RawMessage `json:"content"`
	}
	return json.Unmarshal(raw, &m) == nil && len(m.Parts) > 0 && len(m.Content) == 0
}

// openCodeExport reads OpenCode's export of a session: each message's
// info says its role, and its parts are what it holds in order. An
// assistant's parts are read as the AI SDK's UI parts are (its text,
// then its calls, each tool part's state holding the call's input and
// its output or error), a new step of the model's starting a new turn;
// its reasoning and the step's bookkeeping are passed over, as are a
// user's parts the CLI added (synthetic).
func openCodeExport(o map[string]any) ([]dumpMessage, bool) {
	list, _ := o["messages"].([]any)
	if _, ok := o["info"].(map[string]any); !ok || len(list) == 0 || !objectsAll(list, func(m map[string]any) bool {
		info, _ := m["info"].(map[string]any)
		_, parts := m["parts"].([]any)
		return info != nil && info["role"] != nil && parts
	}) {
		return nil, false
	}
	var out []dumpMessage
	for _, e := range list {
		m := e.(map[string]any)
		info := m["info"].(map[string]any)
		role := stringOrEmpty(info["role"])
		parts := m["parts"].([]any)
		if role != "assistant" {
			var texts []string
			for _, p := range parts {
				pm, _ := p.(map[string]any)
				if pm["type"] == "text" && pm["synthetic"] != true {
					texts = append(texts, stringOrEmpty(pm["text"]))
				}
			}
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: role, Text: strings.TrimSpace(strings.Join(nonEmpty(texts), "\n"))}})
			continue
		}
		out = append(out, openCodeTurns(parts)...)
	}
	return out, true
}

// openCodeTurns reads an OpenCode assistant message's parts as the AI
// SDK's UI parts they are made from: a tool part is one whose state
// holds the call's input and its output or error.
func openCodeTurns(parts []any) []dumpMessage {
	ui := make([]any, 0, len(parts))
	for _, p := range parts {
		pm, _ := p.(map[string]any)
		switch pm["type"] {
		case "step-start", "text":
			ui = append(ui, pm)
		case "tool":
			st, _ := pm["state"].(map[string]any)
			part := map[string]any{"type": "dynamic-tool", "toolName": pm["tool"], "toolCallId": pm["callID"], "input": st["input"]}
			switch st["status"] {
			case "completed":
				part["output"] = st["output"]
			case "error":
				part["errorText"] = textOf(st["error"])
			}
			ui = append(ui, part)
		}
	}
	if ms, ok := uiMessage(map[string]any{"role": "assistant"}, ui); ok {
		return ms
	}
	// No step or tool among them: its text alone.
	return []dumpMessage{{chatMessage: chatMessage{Role: "assistant", Text: strings.TrimSpace(contentOf(ui))}}}
}

// copilotExport reads VS Code Copilot Chat's export of a chat: each
// request's message is the user's, and its response the assistant's. An
// agent's response keeps its model's rounds in its result's metadata
// (each round's text and the calls it made, with the calls' results
// beside them by id): those are its turns. A response without them is
// its parts' text (the markdown it wrote).
func copilotExport(o map[string]any) ([]dumpMessage, bool) {
	list, _ := o["requests"].([]any)
	if len(list) == 0 || !objectsAll(list, func(m map[string]any) bool {
		_, msg := m["message"].(map[string]any)
		return msg && m["response"] != nil
	}) {
		return nil, false
	}
	var out []dumpMessage
	for _, e := range list {
		req := e.(map[string]any)
		msg := req["message"].(map[string]any)
		out = append(out, dumpMessage{chatMessage: chatMessage{Role: "user", Text: strings.TrimSpace(stringOrEmpty(msg["text"]))}})
		result, _ := req["result"].(map[string]any)
		md, _ := result["metadata"].(map[string]any)
		rounds, _ := md["toolCallRounds"].([]any)
		if len(rounds) == 0 {
			var texts []string
			resp, _ := req["response"].([]any)
			for _, p := range resp {
				pm, _ := p.(map[string]any)
				if k, _ := pm["kind"].(string); k == "" || k == "markdownContent" {
					texts = append(texts, contentValue(pm))
				}
			}
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Text: strings.TrimSpace(strings.Join(nonEmpty(texts), ""))}})
			continue
		}
		results, _ := md["toolCallResults"].(map[string]any)
		for _, r := range rounds {
			rm, _ := r.(map[string]any)
			turn := dumpMessage{chatMessage: chatMessage{Role: "assistant", Text: strings.TrimSpace(stringOrEmpty(rm["response"]))}}
			calls, _ := rm["toolCalls"].([]any)
			var rs []dumpMessage
			for _, c := range calls {
				cm, _ := c.(map[string]any)
				id, name := stringOrEmpty(cm["id"]), stringOrEmpty(cm["name"])
				turn.Calls = append(turn.Calls, ToolCall{ID: id, Name: name, Arguments: textOf(cm["arguments"])})
				if res, ok := results[id].(map[string]any); ok {
					rs = append(rs, dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: id, Text: copilotResult(res)}, tool: name})
				}
			}
			out = append(out, turn)
			out = append(out, rs...)
		}
	}
	return out, true
}

// contentValue is a response part's markdown: {"value": text} or
// {"content": {"value": text}}.
func contentValue(pm map[string]any) string {
	if v, ok := pm["value"].(string); ok {
		return v
	}
	c, _ := pm["content"].(map[string]any)
	return stringOrEmpty(c["value"])
}

// copilotResult is the text of a tool call's result as Copilot keeps it:
// {"content": [{"value": text} …]}.
func copilotResult(res map[string]any) string {
	parts, _ := res["content"].([]any)
	var texts []string
	for _, p := range parts {
		pm, _ := p.(map[string]any)
		if v, ok := pm["value"].(string); ok {
			texts = append(texts, v)
		} else if pm != nil {
			texts = append(texts, textOf(pm["value"]))
		}
	}
	return strings.Join(nonEmpty(texts), "\n")
}

// uiMessages reads the UI messages Cline, Roo Code and Kilo Code keep of
// a task. Each API request the extension starts (say "api_req_started")
// begins a turn of the model's: its text, the tool it asks to use (ask
// "tool": a JSON object naming the tool and its parameters; ask
// "command": a command line) and its answer (completion_result) are that
// turn's, a command's output the result of its call. A new task handed
// to a mode (the tool newTask) hands the work to that mode, and the
// subtask's result is that mode's message. The user's words are the task
// (say "task"), the feedback after a turn (user_feedback), and any text
// said before the first API request: the model says nothing before it is
// asked. ok is false unless every element is such a message.
func uiMessages(list []any) ([]dumpMessage, bool) {
	if !objectsAll(list, func(m map[string]any) bool {
		typ, _ := m["type"].(string)
		return m["ts"] != nil && (typ == "say" && m["say"] != nil || typ == "ask" && m["ask"] != nil)
	}) {
		return nil, false
	}
	var out []dumpMessage
	cur := dumpMessage{chatMessage: chatMessage{Role: "assistant"}}
	var texts []string
	asked, pendingCall := false, ""
	mode := ""
	flush := func() {
		cur.Text = strings.TrimSpace(strings.Join(nonEmpty(texts), "\n"))
		if cur.Text != "" || len(cur.Calls) > 0 {
			out = append(out, cur)
		}
		cur, texts = dumpMessage{chatMessage: chatMessage{Role: "assistant"}}, nil
	}
	for i, e := range list {
		m := e.(map[string]any)
		text := stringOrEmpty(m["text"])
		what := stringOrEmpty(m["say"]) + stringOrEmpty(m["ask"])
		switch what {
		case "api_req_started":
			flush()
			asked = true
		case "task", "user_feedback":
			flush()
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "user", Text: strings.TrimSpace(text)}})
		case "text":
			if !asked {
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "user", Text: strings.TrimSpace(text)}})
				continue
			}
			if len(cur.Calls) > 0 {
				flush()
			}
			texts = append(texts, text)
		case "completion_result":
			texts = append(texts, text)
		case "followup":
			var q struct {
				Question string `json:"question"`
			}
			if json.Unmarshal([]byte(text), &q) == nil && q.Question != "" {
				text = q.Question
			}
			texts = append(texts, text)
		case "tool", "command", "use_mcp_server":
			id := "ui-" + strings.TrimSpace(textOf(m["ts"])) + "-" + textOf(i)
			call := ToolCall{ID: id, Name: "execute_command", Arguments: textOf(map[string]any{"command": text})}
			if what != "command" {
				var params map[string]any
				if json.Unmarshal([]byte(text), &params) != nil {
					continue
				}
				call.Name = firstNonEmpty(stringOrEmpty(params["tool"]), stringOrEmpty(params["type"]), what)
				delete(params, "tool")
				call.Arguments = textOf(params)
				if call.Name == "newTask" {
					mode = stringOrEmpty(params["mode"])
					cur.target = mode
				}
			}
			cur.Calls = append(cur.Calls, call)
			pendingCall = id
		case "command_output":
			flush()
			if n := len(out); n > 0 && out[n-1].Role == "tool" && out[n-1].CallID == pendingCall {
				// The output of one command, in the chunks it came in.
				out[n-1].Text += "\n" + text
				continue
			}
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: pendingCall, Text: text}, tool: "execute_command"})
		case "subtask_result":
			flush()
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: firstNonEmpty(mode, "subtask"), Text: strings.TrimSpace(text)}})
		}
	}
	flush()
	return out, len(out) > 0
}

// labelledList reads an object that holds a label, or the task (its
// question, its ground truth) a run was given, and under one other key a
// list: the list is the run, as a file of its own would be read, and the
// label and the task beside it are its. ok is false for any other object,
// and for one with no label whose list reads as no run.
func labelledList(data []byte, format Format) (c *Case, ok bool, err error) {
	var o map[string]json.RawMessage
	if json.Unmarshal(data, &o) != nil {
		return nil, false, nil
	}
	var list json.RawMessage
	labelled := false
	for k, v := range o {
		switch {
		case labelKeys[k]:
			labelled = true
		case taskKeys[k]:
		case list != nil:
			return nil, false, nil
		default:
			list = v
		}
	}
	if len(list) == 0 || list[0] != '[' || len(o) < 2 {
		return nil, false, nil
	}
	meta := &fileObject{}
	var question json.RawMessage
	if err := json.Unmarshal(data, &struct {
		MistakeAgent  *string          `json:"mistake_agent"`
		MistakeStep   *json.RawMessage `json:"mistake_step"`
		MistakeReason *string          `json:"mistake_reason"`
		Question      *json.RawMessage `json:"question"`
		Task          *json.RawMessage `json:"task"`
		GroundTruth   *json.RawMessage `json:"ground_truth"`
	}{&meta.MistakeAgent, &meta.MistakeStep, &meta.MistakeReason, &question, &meta.Task, &meta.GroundTruth}); err != nil {
		if !labelled {
			return nil, false, nil
		}
		return nil, true, err
	}
	given := func(c *Case) {
		if c == nil || c.Run == nil {
			return
		}
		if task := strings.TrimSpace(firstNonEmpty(scalarString(question), scalarString(meta.Task))); task != "" {
			c.Run.Question = task
		}
		if gt := scalarString(meta.GroundTruth); gt != "" {
			c.Run.GroundTruth = gt
		}
	}
	if format == FormatAuto {
		if c, ok, err := cliSession(list); ok {
			given(c)
			if err != nil || c.Label != nil {
				return c, true, err
			}
			c, err = meta.labelled(c.Run)
			return c, true, err
		}
		if cs, ok, err := chatAppRuns(list); ok {
			switch {
			case err != nil:
				return nil, true, err
			case len(cs) > 1:
				return nil, true, fmt.Errorf("%d chats: a label beside them labels none of them; give each chat an object of its own", len(cs))
			}
			c = cs[0]
			given(c)
			if c.Label != nil {
				return c, true, nil
			}
			c, err = meta.labelled(c.Run)
			return c, true, err
		}
	}
	c, err = parseOne(list, list, format)
	if err != nil && !labelled {
		return nil, false, nil
	}
	given(c)
	if err != nil || c.Label != nil {
		return c, true, err
	}
	c, err = meta.labelled(c.Run)
	return c, true, err
}
