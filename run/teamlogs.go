package run

// Saved runs of agent frameworks whose records say who spoke in fields of
// their own: the OpenAI Assistants API's thread messages and run steps,
// Llama Stack's agent sessions, TaskWeaver's conversations, CrewAI's crew
// output, Mistral's Agents API conversations (mistral.go), debates that
// keep each player's own history, conversations whose roles are the
// agents' names, and LangGraph's streamed updates.

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
	"strings"
)

// teamLog reads data, one JSON object, as one of the saved runs this file
// knows; ok is false for any other object.
func teamLog(data []byte) ([]dumpMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var o map[string]any
	if dec.Decode(&o) != nil || dec.More() || o == nil {
		return nil, false
	}
	for _, read := range []func(map[string]any) ([]dumpMessage, bool){
		assistantsThread, llamaStackSession, taskWeaverConversation, crewOutput, mistralConversation, nodeResults, taskResults, rolesAsAgents,
	} {
		if ms, ok := read(o); ok && len(ms) > 0 {
			return ms, true
		}
	}
	if ms, ok := debatePlayers(data, o); ok && len(ms) > 0 {
		return ms, true
	}
	return nil, false
}

// dataList is the list a value holds: itself, or an API's page of it
// ({"object": "list", "data": [...]}).
func dataList(v any) []any {
	switch t := v.(type) {
	case []any:
		return t
	case map[string]any:
		list, _ := t["data"].([]any)
		return list
	}
	return nil
}

// objectIs reports whether e is an object whose "object" is kind.
func objectIs(e any, kind string) bool {
	m, _ := e.(map[string]any)
	return m != nil && m["object"] == kind
}

// createdAt is an Assistants API object's creation time.
func createdAt(m map[string]any) float64 {
	n, _ := m["created_at"].(json.Number)
	f, _ := n.Float64()
	return f
}

// assistantsThread reads a thread of the OpenAI Assistants API as saved
// from its list endpoints: the thread's messages (thread.message, newest
// first as listed by default) and its runs' steps (thread.run.step), each
// a list or a page of one. A run step that makes tool calls is the
// assistant's call and each call's output its result; one that creates a
// message stands where that message was made. The messages no step made
// (the user's) stand at their creation time. ok is false when neither
// list holds such objects.
func assistantsThread(o map[string]any) ([]dumpMessage, bool) {
	msgs := dataList(o["messages"])
	steps := dataList(firstNonNil(o["run_steps"], o["steps"]))
	if !slices.ContainsFunc(msgs, func(e any) bool { return objectIs(e, "thread.message") }) &&
		!slices.ContainsFunc(steps, func(e any) bool { return objectIs(e, "thread.run.step") }) {
		return nil, false
	}
	type event struct {
		at float64
		ms []dumpMessage
	}
	byID := map[string]map[string]any{}
	for _, e := range msgs {
		if m, ok := e.(map[string]any); ok && objectIs(m, "thread.message") {
			id, _ := m["id"].(string)
			byID[id] = m
		}
	}
	// Both lists are listed one way, newest first unless asked otherwise:
	// oldest first, a list's order breaks ties of its times, which count
	// seconds.
	if newestFirst(msgs, steps) {
		msgs, steps = reversed(msgs), reversed(steps)
	}
	made := map[string]bool{}
	var events []event
	for _, e := range steps {
		s, _ := e.(map[string]any)
		if !objectIs(s, "thread.run.step") {
			continue
		}
		details, _ := s["step_details"].(map[string]any)
		var ms []dumpMessage
		switch details["type"] {
		case "message_creation":
			mc, _ := details["message_creation"].(map[string]any)
			id, _ := mc["message_id"].(string)
			if m, ok := byID[id]; ok {
				made[id] = true
				ms = append(ms, threadMessage(m))
			}
		case "tool_calls":
			ms = assistantsCalls(details["tool_calls"])
		}
		events = append(events, event{createdAt(s), ms})
	}
	for _, e := range msgs {
		m, _ := e.(map[string]any)
		id, _ := m["id"].(string)
		if !objectIs(m, "thread.message") || made[id] {
			continue
		}
		events = append(events, event{createdAt(m), []dumpMessage{threadMessage(m)}})
	}
	// By time, and at one time, steps before messages, each list oldest
	// first.
	slices.SortStableFunc(events, func(a, b event) int {
		return cmp.Compare(a.at, b.at)
	})
	var out []dumpMessage
	for _, e := range events {
		out = append(out, e.ms...)
	}
	return out, true
}

// newestFirst reports whether lists of Assistants API objects are listed
// newest first: as the first of them whose ends differ in time is, else
// as the API lists by default.
func newestFirst(lists ...[]any) bool {
	for _, l := range lists {
		if len(l) < 2 {
			continue
		}
		first, _ := l[0].(map[string]any)
		last, _ := l[len(l)-1].(map[string]any)
		if a, b := createdAt(first), createdAt(last); a != b {
			return a > b
		}
	}
	return true
}

// reversed returns a copy of l, last first.
func reversed(l []any) []any {
	out := slices.Clone(l)
	slices.Reverse(out)
	return out
}

// threadMessage is one thread.message: its role and its text parts.
func threadMessage(m map[string]any) dumpMessage {
	role, _ := m["role"].(string)
	var texts []string
	for _, p := range dataList(m["content"]) {
		pm, _ := p.(map[string]any)
		if t, ok := pm["text"].(map[string]any); ok {
			if v, _ := t["value"].(string); v != "" {
				texts = append(texts, v)
			}
		}
	}
	return dumpMessage{chatMessage: chatMessage{Role: role, Text: strings.Join(texts, "\n\n")}}
}

// assistantsCalls is a tool_calls run step's calls, the assistant's, and
// their outputs: a function's output, a code interpreter's logs.
func assistantsCalls(v any) []dumpMessage {
	call := dumpMessage{chatMessage: chatMessage{Role: "assistant"}}
	var results []dumpMessage
	for _, e := range dataList(v) {
		c, _ := e.(map[string]any)
		id, _ := c["id"].(string)
		typ, _ := c["type"].(string)
		var name, args, output string
		switch typ {
		case "function":
			f, _ := c["function"].(map[string]any)
			name, _ = f["name"].(string)
			args, _ = f["arguments"].(string)
			output, _ = f["output"].(string)
		case "code_interpreter":
			ci, _ := c["code_interpreter"].(map[string]any)
			name = typ
			args, _ = ci["input"].(string)
			for _, out := range dataList(ci["outputs"]) {
				om, _ := out.(map[string]any)
				if logs, _ := om["logs"].(string); logs != "" {
					output = strings.TrimSpace(output + "\n" + logs)
				}
			}
		default:
			continue
		}
		call.Calls = append(call.Calls, ToolCall{ID: id, Name: name, Arguments: args})
		res := dumpMessage{chatMessage: chatMessage{Role: "tool", Text: output, CallID: id}, tool: name}
		res.failed = jsonReportsError(output)
		results = append(results, res)
	}
	if len(call.Calls) == 0 {
		return nil
	}
	return append([]dumpMessage{call}, results...)
}

// jsonReportsError reports whether text is a JSON object whose only
// purpose beside naming what it was about is an "error".
func jsonReportsError(text string) bool {
	var o map[string]any
	if json.Unmarshal([]byte(text), &o) != nil {
		return false
	}
	e, ok := o["error"]
	return ok && e != nil && e != false && e != ""
}

// llamaStackSession reads a Llama Stack agent's session (a Session with
// its turns, or one Turn): each turn's input messages, then its steps in
// order (an inference step the assistant's text and calls, a tool
// execution step each call's response), then its output message when no
// inference step already said it. ok is false for any other object.
func llamaStackSession(o map[string]any) ([]dumpMessage, bool) {
	turns := dataList(o["turns"])
	if turns == nil && o["input_messages"] != nil && o["steps"] != nil {
		turns = []any{o}
	}
	if !objectsAll(turns, func(t map[string]any) bool { return t["input_messages"] != nil && t["steps"] != nil }) {
		return nil, false
	}
	var out []dumpMessage
	for _, t := range turns {
		tm := t.(map[string]any)
		for _, e := range dataList(tm["input_messages"]) {
			if m, ok := e.(map[string]any); ok {
				out = append(out, llamaStackMessage(m))
			}
		}
		said := ""
		for _, e := range dataList(tm["steps"]) {
			s, _ := e.(map[string]any)
			switch s["step_type"] {
			case "inference":
				if m, ok := s["model_response"].(map[string]any); ok {
					dm := llamaStackMessage(m)
					said = dm.Text
					out = append(out, dm)
				}
			case "tool_execution":
				for _, r := range dataList(s["tool_responses"]) {
					rm, _ := r.(map[string]any)
					id, _ := rm["call_id"].(string)
					name, _ := rm["tool_name"].(string)
					out = append(out, dumpMessage{chatMessage: chatMessage{Role: "tool", Text: llamaStackText(rm["content"]), CallID: id}, tool: name})
				}
			}
		}
		if m, ok := tm["output_message"].(map[string]any); ok {
			if dm := llamaStackMessage(m); strings.TrimSpace(dm.Text) != strings.TrimSpace(said) || len(dm.Calls) > 0 {
				out = append(out, dm)
			}
		}
	}
	return out, true
}

// llamaStackMessage is one of Llama Stack's messages: its role, text and
// tool calls (their arguments an object or a text).
func llamaStackMessage(m map[string]any) dumpMessage {
	role, _ := m["role"].(string)
	dm := dumpMessage{chatMessage: chatMessage{Role: role, Text: llamaStackText(m["content"])}}
	if id, _ := m["call_id"].(string); id != "" {
		dm.CallID = id
	}
	for _, e := range dataList(m["tool_calls"]) {
		c, _ := e.(map[string]any)
		id, _ := c["call_id"].(string)
		name, _ := c["tool_name"].(string)
		args := ""
		switch a := c["arguments"].(type) {
		case string:
			args = a
		case nil:
		default:
			b, _ := json.Marshal(a)
			args = string(b)
		}
		dm.Calls = append(dm.Calls, ToolCall{ID: id, Name: name, Arguments: args})
	}
	return dm
}

// llamaStackText is a content's text: a text, or its items' texts.
func llamaStackText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case []any:
		var texts []string
		for _, e := range t {
			texts = append(texts, llamaStackText(e))
		}
		return strings.Join(texts, "\n")
	case map[string]any:
		s, _ := t["text"].(string)
		return s
	}
	return ""
}

// taskWeaverConversation reads a TaskWeaver conversation (its rounds, each
// the user's query and the posts its roles sent one another: "message",
// "send_from", "send_to", "attachment_list"). A post whose attachments
// hold the code a role ran is that role's call, its thought the call's
// words, and the execution's result the call's result; any other post is
// its sender's message. ok is false for any other object.
func taskWeaverConversation(o map[string]any) ([]dumpMessage, bool) {
	rounds := dataList(o["rounds"])
	if !objectsAll(rounds, func(r map[string]any) bool { return r["post_list"] != nil }) {
		return nil, false
	}
	var out []dumpMessage
	for _, r := range rounds {
		for _, p := range dataList(r.(map[string]any)["post_list"]) {
			pm, _ := p.(map[string]any)
			from, _ := pm["send_from"].(string)
			text, _ := pm["message"].(string)
			if from == "" {
				return nil, false
			}
			atts := map[string]string{}
			for _, a := range dataList(pm["attachment_list"]) {
				am, _ := a.(map[string]any)
				typ, _ := am["type"].(string)
				c, _ := am["content"].(string)
				atts[typ] = c
			}
			id, _ := pm["id"].(string)
			if isUserRole(from) {
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "user", Text: text}})
				continue
			}
			code := atts["reply_content"]
			if atts["reply_type"] != "python" || code == "" {
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: from, Text: text}})
				continue
			}
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: from, Text: atts["thought"],
				Calls: []ToolCall{{ID: id, Name: "python", Arguments: code}}}})
			res := dumpMessage{chatMessage: chatMessage{Role: "tool", Text: firstNonEmpty(atts["execution_result"], text), CallID: id}, tool: "python"}
			res.failed = atts["execution_status"] != "" && !strings.EqualFold(atts["execution_status"], "SUCCESS")
			out = append(out, res)
		}
	}
	return out, true
}

// crewOutput reads a CrewAI crew's output (CrewOutput: "raw" and
// "tasks_output", each task's "description", "agent" and "raw"): each
// task's description, the crew's author's, then what its agent gave. ok
// is false for any other object.
func crewOutput(o map[string]any) ([]dumpMessage, bool) {
	tasks := dataList(o["tasks_output"])
	if !objectsAll(tasks, func(t map[string]any) bool { return t["description"] != nil && t["agent"] != nil && t["raw"] != nil }) {
		return nil, false
	}
	var out []dumpMessage
	for _, t := range tasks {
		tm := t.(map[string]any)
		desc, _ := tm["description"].(string)
		agent, _ := tm["agent"].(string)
		raw, _ := tm["raw"].(string)
		out = append(out,
			dumpMessage{chatMessage: chatMessage{Role: "user", Text: desc}},
			dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: agent, Text: raw}})
	}
	return out, true
}

// rolesAsAgents reads an object that keeps, beside what it says of
// itself, one list of messages whose roles are its agents' names (a
// swarms Conversation's "conversation_history": {"role": "Analyst",
// "content"}): a role that is no chat role is the speaker's name. ok is
// false when the object holds other lists, or the list's roles are all
// chat roles (a transcript's).
func rolesAsAgents(o map[string]any) ([]dumpMessage, bool) {
	var list []any
	for k, v := range o {
		l, isList := v.([]any)
		switch {
		case labelKeys[k] || !isList:
		case list != nil:
			return nil, false
		default:
			list = l
		}
	}
	named := false
	if !objectsAll(list, func(m map[string]any) bool {
		role, _ := m["role"].(string)
		_, text := m["content"].(string)
		if r := normalRole(role); r != "user" && r != "assistant" && r != "system" && r != "tool" {
			named = true
		}
		return role != "" && text
	}) || !named {
		return nil, false
	}
	var out []dumpMessage
	for _, e := range list {
		m := e.(map[string]any)
		role, _ := m["role"].(string)
		text, _ := m["content"].(string)
		switch r := normalRole(role); r {
		case "user", "assistant", "system", "tool":
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: r, Text: text}})
		default:
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: role, Text: text}})
		}
	}
	return out, true
}

// debatePlayers reads a debate that keeps each player's own history under
// its name ("players": {"Affirmative side": [messages], ...}, as the
// Multi-Agents-Debate framework saves them) beside its topic: the topic is
// the task, then each round's replies, in the order the players are
// written, each its player's. The prompts each player was given are the
// others' replies relayed, and are not read again. ok is false for any
// other object.
func debatePlayers(data []byte, o map[string]any) ([]dumpMessage, bool) {
	players, _ := o["players"].(map[string]any)
	topic, _ := firstNonNil(o["debate_topic"], o["topic"], o["question"]).(string)
	if len(players) < 2 || topic == "" {
		return nil, false
	}
	var raw struct {
		Players json.RawMessage `json:"players"`
	}
	if json.Unmarshal(data, &raw) != nil {
		return nil, false
	}
	names := objectKeys(raw.Players)
	replies := map[string][]string{}
	rounds := 0
	for _, name := range names {
		list, ok := players[name].([]any)
		if !ok {
			return nil, false
		}
		for _, e := range list {
			m, _ := e.(map[string]any)
			text, isText := m["content"].(string)
			if m == nil || !isText {
				return nil, false
			}
			if normalRole(stringOrEmpty(m["role"])) == "assistant" {
				replies[name] = append(replies[name], text)
			}
		}
		rounds = max(rounds, len(replies[name]))
	}
	out := []dumpMessage{{chatMessage: chatMessage{Role: "user", Text: topic}}}
	for i := range rounds {
		for _, name := range names {
			if i < len(replies[name]) {
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: name, Text: replies[name][i]}})
			}
		}
	}
	return out, true
}

// objectKeys is the keys of the JSON object raw, in the order written,
// each once (a key written again stands where it first did, as decoding
// gives it its last value).
func objectKeys(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil
		}
		if k, _ := t.(string); !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return nil
		}
	}
	return keys
}

// graphUpdates reads LangGraph's streamed updates (stream_mode "updates":
// each element {NODE: {"messages": [...]}}, the node's update of the
// state) as the messages they add, each once: a node that returns the
// whole conversation (a supervisor's subgraph) gives again the messages
// already read, known by their ids. ok is false when some element is no
// such update.
func graphUpdates(list []any) ([]any, bool) {
	var out []any
	seen := map[string]bool{}
	for _, e := range list {
		m, _ := e.(map[string]any)
		if len(m) != 1 {
			return nil, false
		}
		for _, v := range m {
			u, _ := v.(map[string]any)
			var msgs []any
			switch t := u["messages"].(type) {
			case []any:
				msgs = t
			case map[string]any:
				msgs = []any{t}
			default:
				if v != nil {
					return nil, false
				}
			}
			for _, msg := range msgs {
				mm, ok := msg.(map[string]any)
				if !ok {
					return nil, false
				}
				if id, _ := mm["id"].(string); id != "" {
					if seen[id] {
						continue
					}
					seen[id] = true
				}
				out = append(out, mm)
			}
		}
	}
	return out, len(out) > 0
}

// withoutLabelRecord is a JSONL file's values without the one that holds
// only a label (mistake_agent, mistake_step, mistake_reason), and that
// label; meta is nil when no value is one.
func withoutLabelRecord(values []json.RawMessage) (rest []json.RawMessage, meta *fileObject) {
	for i, v := range values {
		var rec map[string]any
		if json.Unmarshal(v, &rec) != nil || !isLabelRecord(rec) {
			continue
		}
		meta = &fileObject{}
		if json.Unmarshal(v, meta) != nil {
			return values, nil
		}
		rest = append(slices.Clip(values[:i]), values[i+1:]...)
		return rest, meta
	}
	return values, nil
}

// toBytes is values as byte slices.
func toBytes(values []json.RawMessage) [][]byte {
	out := make([][]byte, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}

// labelBeside gives the one run of a telemetry file that is one object
// (a saved model call's request and response) the label that object
// holds beside it as top-level keys, as a transcript's does, when no span
// carries one; and the one run of a JSONL file of such objects (a log of
// model calls) the label of its record that holds only one, as a JSONL
// transcript's. A file of several runs, or whose run is labelled already,
// is left as it is.
func labelBeside(data []byte, cs []*Case) ([]*Case, error) {
	if len(cs) != 1 || cs[0].Label != nil || len(data) == 0 || data[0] != '{' {
		return cs, nil
	}
	var o map[string]any
	var meta *fileObject
	err := json.Unmarshal(data, &o)
	switch {
	case err == nil && slices.ContainsFunc([]string{"mistake_agent", "mistake_step"}, func(k string) bool { _, ok := o[k]; return ok }):
		meta = labelOf(o)
	case err != nil:
		if values, derr := decodeStream(data); derr == nil && len(values) > 1 {
			_, meta = withoutLabelRecord(values)
		}
	}
	if meta == nil {
		return cs, nil
	}
	c, err := meta.labelled(cs[0].Run)
	if err != nil {
		return nil, err
	}
	return []*Case{c}, nil
}
