package run

import (
	"encoding/json"
	"sort"
	"strings"
)

// difyList reports whether x's data is a list of objects each of which is.
func difyList(x map[string]any, is func(map[string]any) bool) bool {
	return allObjects(listField(x, "data"), is)
}

// difyIsMessage: a message of a Dify app's conversation, its query and
// answer.
func difyIsMessage(m map[string]any) bool {
	_, q := m["query"]
	_, a := m["answer"]
	return q && a && (m["conversation_id"] != nil || m["agent_thoughts"] != nil)
}

// difyIsNode: a node execution of a Dify workflow run.
func difyIsNode(m map[string]any) bool {
	return stringOrEmpty(m["node_type"]) != "" && m["node_id"] != nil && m["title"] != nil
}

// difyMessages reads a Dify conversation's messages, oldest first: the
// query is the user's, the retrieved segments (retriever_resources) a
// retrieval of the app's, each agent thought its words and its calls
// (tool, several as "a;b", with tool_input and observation as JSON keyed
// by the tool) with their results, and the answer the app's, unless the
// last thought said it.
func difyMessages(list []any) *lowCodeSteps {
	msgs := byNumber(list, "created_at")
	s := &lowCodeSteps{}
	const agent = ""
	for _, m := range msgs {
		s.user(stringOrEmpty(m["query"]))
		if docs := listField(m, "retriever_resources"); len(docs) > 0 {
			id := s.call(agent, "", "dataset_retrieval", argsText(map[string]any{"query": stringOrEmpty(m["query"])}))
			s.result(id, "dataset_retrieval", difySegments(docs, "document_name"), false)
		}
		for _, t := range byNumber(listField(m, "agent_thoughts"), "position") {
			words := stringOrEmpty(t["thought"])
			var tools []string
			for _, name := range strings.Split(stringOrEmpty(t["tool"]), ";") {
				if name = strings.TrimSpace(name); name != "" {
					tools = append(tools, name)
				}
			}
			if len(tools) == 0 {
				s.say(agent, words)
				continue
			}
			inputs := difyByTool(stringOrEmpty(t["tool_input"]), tools)
			results := difyByTool(stringOrEmpty(t["observation"]), tools)
			for i, name := range tools {
				w := ""
				if i == 0 {
					w = words
				}
				id := s.call(agent, w, name, argsText(inputs[name]))
				s.result(id, name, textOf(results[name]), false)
			}
		}
		s.say(agent, stringOrEmpty(m["answer"]))
	}
	return s
}

// byNumber is list's objects (nil for what is none) in the order of
// their key's number, those with none first.
func byNumber(list []any, key string) []map[string]any {
	out := make([]map[string]any, 0, len(list))
	for _, e := range list {
		out = append(out, objOf(e))
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, _ := jsonNumber(out[i][key])
		b, _ := jsonNumber(out[j][key])
		return a < b
	})
	return out
}

// objOf is x as an object, nil when it is none.
func objOf(x any) map[string]any {
	m, _ := x.(map[string]any)
	return m
}

// difyByTool splits a thought's tool input or observation, JSON keyed by
// the tools it names, by tool; text keyed otherwise is the first tool's.
func difyByTool(text string, tools []string) map[string]any {
	out := map[string]any{}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var o map[string]any
	if dec.Decode(&o) == nil && o != nil {
		keyed := false
		for _, name := range tools {
			if v, ok := o[name]; ok {
				out[name], keyed = v, true
			}
		}
		if keyed {
			return out
		}
	}
	if strings.TrimSpace(text) != "" {
		out[tools[0]] = text
	}
	return out
}

// difySegments renders retrieved segments, each under the name its
// titleKey gives (a message's document_name, a retrieval node's title),
// with its content.
func difySegments(docs []any, titleKey string) string {
	var b strings.Builder
	for _, e := range docs {
		d := objOf(e)
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		if name := strings.TrimSpace(stringOrEmpty(d[titleKey])); name != "" {
			b.WriteString("[" + name + "] ")
		}
		b.WriteString(strings.TrimSpace(stringOrEmpty(d["content"])))
	}
	return b.String()
}

// difyNodes reads a Dify workflow run's node executions in their order
// (index): the start node's query (else its inputs) is the user's, a
// model's node (llm, agent, question-classifier, parameter-extractor)
// says its output (an agent node first its log, difyAgentLog), a node
// that acts (tool, knowledge-retrieval,
// http-request, code) is a call of its inputs with its outputs as the
// result, named by its title, an answer or end node's output is said
// unless a node said it already; the nodes that only route or join
// are passed over.
func difyNodes(list []any) *lowCodeSteps {
	nodes := byNumber(list, "index")
	s := &lowCodeSteps{}
	for _, n := range nodes {
		title := strings.TrimSpace(firstNonEmpty(stringOrEmpty(n["title"]), stringOrEmpty(n["node_type"])))
		in, out := objField(n, "inputs"), objField(n, "outputs")
		failed := stringOrEmpty(n["status"]) == "failed" || stringOrEmpty(n["status"]) == "exception"
		errText := strings.TrimSpace(stringOrEmpty(n["error"]))
		switch typ := stringOrEmpty(n["node_type"]); typ {
		case "start":
			if q := strings.TrimSpace(stringOrEmpty(in["sys.query"])); q != "" {
				s.user(q)
				continue
			}
			s.user(difyUserInputs(in))
		case "llm", "agent", "question-classifier", "parameter-extractor":
			if failed {
				s.say(title, errorText(firstNonEmpty(errText, "failed")))
				continue
			}
			if typ == "agent" {
				difyAgentLog(s, title, difyAgentLogOf(n))
				if t := difyModelOutput(typ, out); !s.said(t) {
					s.say(title, t)
				}
				continue
			}
			s.say(title, difyModelOutput(typ, out))
		case "tool", "knowledge-retrieval", "http-request", "code":
			args := in
			if typ == "knowledge-retrieval" {
				args = map[string]any{"query": in["query"]}
			}
			// A model's node whose output is this node's input just before
			// it (a rewritten query) made the call: its message is the
			// call's.
			// The inputs no earlier step gave are the node's configuration,
			// the app's and no value of the run's: the call is of the rest.
			args = s.fromRun(args)
			caller := title
			if n := len(s.out); n > 0 && s.out[n-1].Role == "assistant" && len(s.out[n-1].Calls) == 0 && difyFeeds(s.out[n-1].Text, args) {
				caller = s.out[n-1].Name
				s.out = s.out[:n-1]
			}
			id := s.call(caller, "", title, argsText(args))
			if failed {
				s.result(id, title, errorText(firstNonEmpty(errText, "failed")), true)
				continue
			}
			var res any = out
			switch {
			case typ == "tool" && stringOrEmpty(out["text"]) != "":
				res = out["text"]
			case typ == "knowledge-retrieval":
				res = difySegments(listField(out, "result"), "title")
			case typ == "http-request" && out["body"] != nil:
				res = out["body"]
			}
			s.result(id, title, textOf(res), false)
		case "answer", "end":
			var text string
			if typ == "answer" {
				text = stringOrEmpty(out["answer"])
			} else {
				keys := make([]string, 0, len(out))
				for k := range out {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				for _, k := range keys {
					if t := stringOrEmpty(out[k]); t != "" && !s.said(t) {
						text = t
						break
					}
				}
			}
			if text != "" && !s.said(text) {
				s.say(title, text)
			}
		}
	}
	return s
}

// fromRun is those of inputs whose values an earlier step of the run
// holds (the user's words, a node's output).
func (s *lowCodeSteps) fromRun(inputs map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range inputs {
		text := strings.TrimSpace(textOf(v))
		if text == "" {
			continue
		}
		if s.holds(text) {
			out[k] = v
		}
	}
	return out
}

// difyFeeds reports whether text, a model's output, is one of a node's
// inputs.
func difyFeeds(text string, inputs map[string]any) bool {
	text = strings.TrimSpace(text)
	for _, v := range inputs {
		if t, ok := v.(string); ok && text != "" && strings.TrimSpace(t) == text {
			return true
		}
	}
	return false
}

// difyUserInputs renders a start node's inputs, those the user gave (not
// the sys. ones), as "name: value" lines.
func difyUserInputs(in map[string]any) string {
	keys := make([]string, 0, len(in))
	for k := range in {
		if !strings.HasPrefix(k, "sys.") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	if len(keys) == 1 {
		return textOf(in[keys[0]])
	}
	var b strings.Builder
	for _, k := range keys {
		if t := strings.TrimSpace(textOf(in[k])); t != "" {
			b.WriteString(k + ": " + t + "\n")
		}
	}
	return b.String()
}

// difyModelOutput is what a model's node said: its text, a classifier's
// class, an extractor's parameters (not its __ fields).
func difyModelOutput(typ string, out map[string]any) string {
	switch typ {
	case "question-classifier":
		return firstNonEmpty(stringOrEmpty(out["class_name"]), textOf(out["class_id"]))
	case "parameter-extractor":
		params := map[string]any{}
		for k, v := range out {
			if !strings.HasPrefix(k, "__") {
				params[k] = v
			}
		}
		return textOf(params)
	}
	return firstNonEmpty(stringOrEmpty(out["text"]), textOf(out["json"]))
}

// difyAgentLogOf is an agent node's log (execution_metadata.agent_log,
// the metadata an object or, as the database keeps it, JSON text).
func difyAgentLogOf(n map[string]any) []any {
	meta := objField(n, "execution_metadata")
	if meta == nil {
		if t, ok := n["execution_metadata"].(string); ok {
			dec := json.NewDecoder(strings.NewReader(t))
			dec.UseNumber()
			_ = dec.Decode(&meta)
		}
	}
	return listField(meta, "agent_log")
}

// difyAgentLog reads an agent node's log, its entries in the order they
// were made: an entry that others name as their parent (a round) only
// groups them; a tool's call (its data's tool_call_name, or a label
// "CALL tool") is a call of its arguments with its output as the
// result; any other entry is the model's turn, its words its output (a
// text, or an object's llm_response or text) or else its thought.
func difyAgentLog(s *lowCodeSteps, agent string, log []any) {
	parents := map[string]bool{}
	for _, e := range log {
		if p := stringOrEmpty(objOf(e)["parent_id"]); p != "" {
			parents[p] = true
		}
	}
	for _, e := range log {
		entry := objOf(e)
		id := firstNonEmpty(stringOrEmpty(entry["message_id"]), stringOrEmpty(entry["id"]))
		if id != "" && parents[id] {
			continue
		}
		data := objField(entry, "data")
		errText := strings.TrimSpace(stringOrEmpty(entry["error"]))
		failed := errText != "" || stringOrEmpty(entry["status"]) == "error"
		label := strings.TrimSpace(stringOrEmpty(entry["label"]))
		tool := strings.TrimSpace(stringOrEmpty(data["tool_call_name"]))
		if after, ok := strings.CutPrefix(label, "CALL "); ok && tool == "" {
			// The model's own entry names its calls as tool_name too,
			// several as "a;b": only a call's entry is one.
			tool = strings.TrimSpace(firstNonEmpty(stringOrEmpty(data["tool_name"]), after))
		}
		if tool != "" {
			var args any = data["tool_call_args"]
			if args == nil {
				args = data["tool_input"]
			}
			call := s.call(agent, "", tool, argsText(args))
			if failed {
				s.result(call, tool, errorText(firstNonEmpty(errText, "failed")), true)
				continue
			}
			res := data["output"]
			if res == nil {
				res = data["tool_response"]
			}
			s.result(call, tool, textOf(res), false)
			continue
		}
		if failed {
			s.say(agent, errorText(firstNonEmpty(errText, "failed")))
			continue
		}
		words := ""
		switch o := data["output"].(type) {
		case string:
			words = o
		case map[string]any:
			words = firstNonEmpty(stringOrEmpty(o["llm_response"]), stringOrEmpty(o["text"]))
		}
		s.say(agent, firstNonEmpty(strings.TrimSpace(words), stringOrEmpty(data["thought"])))
	}
}
