package run

import "strings"

// flowiseIsPrediction: a Flowise prediction's response, its text with
// the tools and agents that made it.
func flowiseIsPrediction(m map[string]any) bool {
	_, text := m["text"]
	return text && (m["chatId"] != nil || m["chatMessageId"] != nil || m["sessionId"] != nil) &&
		(m["usedTools"] != nil || m["agentReasoning"] != nil || m["sourceDocuments"] != nil || m["agentFlowExecutedData"] != nil)
}

// flowiseIsMessage: a Flowise chat message, its role userMessage or
// apiMessage.
func flowiseIsMessage(m map[string]any) bool {
	role := stringOrEmpty(m["role"])
	_, content := m["content"]
	return content && (role == "userMessage" || role == "apiMessage")
}

// flowisePrediction reads a prediction's response: its question is the
// user's, then its steps (flowiseSteps) and its text.
func flowisePrediction(m map[string]any) *lowCodeSteps {
	s := &lowCodeSteps{}
	s.user(stringOrEmpty(m["question"]))
	flowiseSteps(s, m, stringOrEmpty(m["text"]))
	return s
}

// flowiseMessages reads a chat flow's messages, a user's as the user's
// and an answer's as its steps (flowiseSteps) and its content.
func flowiseMessages(list []any) *lowCodeSteps {
	s := &lowCodeSteps{}
	for _, e := range list {
		m := objOf(e)
		if stringOrEmpty(m["role"]) == "userMessage" {
			s.user(stringOrEmpty(m["content"]))
			continue
		}
		flowiseSteps(s, m, stringOrEmpty(m["content"]))
	}
	return s
}

// flowiseSteps reads an answer's steps: each agent's reasoning
// (agentReasoning: a supervisor's instructions as its handoff to the
// worker it names next, an agent's tools and retrieved documents, its
// messages), else the answer's own tools (usedTools) and documents, and
// then its text, unless its last agent said it.
func flowiseSteps(s *lowCodeSteps, m map[string]any, text string) {
	const unnamed = ""
	if nodes := listOrJSON(m["agentFlowExecutedData"]); len(nodes) > 0 {
		flowiseAgentflow(s, nodes)
		if !s.said(text) {
			s.say(unnamed, text)
		}
		return
	}
	reasoning := listOrJSON(m["agentReasoning"])
	for _, e := range reasoning {
		r := objOf(e)
		agent := strings.TrimSpace(firstNonEmpty(stringOrEmpty(r["agentName"]), stringOrEmpty(r["nodeName"])))
		if next := strings.TrimSpace(stringOrEmpty(r["next"])); next != "" && !strings.EqualFold(next, "FINISH") && !strings.EqualFold(next, "END") {
			if instr := strings.TrimSpace(stringOrEmpty(r["instructions"])); instr != "" && !s.full() {
				s.out = append(s.out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: agent, Text: instr}, kind: KindHandoff, target: next})
			}
		}
		flowiseTools(s, agent, listOrJSON(r["usedTools"]))
		flowiseDocs(s, agent, listOrJSON(r["sourceDocuments"]))
		for _, msg := range listField(r, "messages") {
			s.say(agent, textOf(msg))
		}
	}
	last := unnamed
	if len(reasoning) == 0 {
		flowiseTools(s, unnamed, listOrJSON(m["usedTools"]))
		flowiseDocs(s, unnamed, listOrJSON(m["sourceDocuments"]))
	} else if !s.said(text) {
		for i := len(s.out) - 1; i >= 0; i-- {
			if s.out[i].Role == "assistant" {
				last = s.out[i].Name
				break
			}
		}
	}
	if !s.said(text) {
		s.say(last, text)
	}
}

// flowiseAgentflow reads an Agentflow's executed nodes
// ({"nodeLabel", "data": {"name", "input", "output"}, "status"}), each
// under its label: the start node's question is the user's, a model's
// node (an agent, an LLM) makes its tools' calls and retrievals and says
// its output's content, a tool or retriever node is a call of its input
// with its content as the result, a reply says what no node said, and
// the nodes that only route are passed over.
func flowiseAgentflow(s *lowCodeSteps, nodes []any) {
	for _, e := range nodes {
		n := objOf(e)
		data := objField(n, "data")
		in, out := objField(data, "input"), objField(data, "output")
		label := strings.TrimSpace(firstNonEmpty(stringOrEmpty(n["nodeLabel"]), stringOrEmpty(data["label"]), stringOrEmpty(n["nodeId"])))
		failed := strings.EqualFold(stringOrEmpty(n["status"]), "ERROR")
		content := textOf(out["content"])
		errText := firstNonEmpty(textOf(out["error"]), textOf(data["error"]), content, "failed")
		switch name := stringOrEmpty(data["name"]); {
		case strings.HasPrefix(name, "start"):
			if q := firstNonEmpty(textOf(out["question"]), textOf(in["question"])); !s.said(q) {
				s.user(q)
			}
		case strings.HasPrefix(name, "tool"), strings.HasPrefix(name, "retriever"), strings.HasPrefix(name, "httpAgentflow"):
			args := in["toolInputArgs"]
			if args == nil {
				args = in
			}
			tool := firstNonEmpty(stringOrEmpty(in["selectedTool"]), label)
			id := s.call(label, "", tool, argsText(args))
			if failed {
				s.result(id, tool, errorText(errText), true)
				continue
			}
			s.result(id, tool, content, false)
		case strings.HasPrefix(name, "agent"), strings.HasPrefix(name, "llm"):
			flowiseTools(s, label, listOrJSON(out["usedTools"]))
			flowiseDocs(s, label, listOrJSON(out["sourceDocuments"]))
			if failed {
				s.say(label, errorText(errText))
				continue
			}
			s.say(label, content)
		case strings.HasPrefix(name, "directReply"):
			if !s.said(content) {
				s.say(label, content)
			}
		}
	}
}

// flowiseTools reads used tools ({"tool", "toolInput", "toolOutput"}) as
// agent's calls and their results.
func flowiseTools(s *lowCodeSteps, agent string, tools []any) {
	for _, e := range tools {
		t := objOf(e)
		name := strings.TrimSpace(stringOrEmpty(t["tool"]))
		if name == "" {
			continue
		}
		id := s.call(agent, "", name, argsText(t["toolInput"]))
		out := textOf(t["toolOutput"])
		s.result(id, name, out, t["error"] != nil)
	}
}

// flowiseDocs reads source documents ({"pageContent", "metadata"}) as
// agent's retrieval and what it found.
func flowiseDocs(s *lowCodeSteps, agent string, docs []any) {
	if len(docs) == 0 {
		return
	}
	var b strings.Builder
	for _, e := range docs {
		d := objOf(e)
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		if src := strings.TrimSpace(stringOrEmpty(objField(d, "metadata")["source"])); src != "" {
			b.WriteString("[" + src + "] ")
		}
		b.WriteString(strings.TrimSpace(stringOrEmpty(d["pageContent"])))
	}
	id := s.call(agent, "", "retriever", argsText(map[string]any{}))
	s.result(id, "retriever", b.String(), false)
}

// langflowIsRun: Langflow's run output, each input's outputs with their
// results.
func langflowIsRun(m map[string]any) bool {
	outs := listField(m, "outputs")
	if len(outs) == 0 {
		return false
	}
	for _, e := range outs {
		o := objOf(e)
		if o == nil || o["outputs"] == nil || o["inputs"] == nil {
			return false
		}
	}
	return true
}

// langflowIsMessage: a Langflow message, its sender and text.
func langflowIsMessage(m map[string]any) bool {
	_, text := m["text"]
	return text && stringOrEmpty(m["sender"]) != "" && (m["sender_name"] != nil || m["content_blocks"] != nil) && m["session_id"] != nil
}

// langflowRun reads a run's output: each input's input_value is the
// user's, and each result's message its steps (langflowMessage).
func langflowRun(m map[string]any) *lowCodeSteps {
	s := &lowCodeSteps{}
	for _, e := range listField(m, "outputs") {
		o := objOf(e)
		s.user(textOf(objField(o, "inputs")["input_value"]))
		for _, r := range listField(o, "outputs") {
			res := objField(objOf(r), "results")
			for _, key := range []string{"message", "text"} {
				if msg := objField(res, key); msg != nil {
					langflowMessage(s, msg)
					break
				}
			}
		}
	}
	return s
}

// langflowMessages reads a flow's messages: a user's as the user's, and
// the machine's as their steps (langflowMessage).
func langflowMessages(list []any) *lowCodeSteps {
	s := &lowCodeSteps{}
	for _, e := range list {
		m := objOf(e)
		if strings.EqualFold(stringOrEmpty(m["sender"]), "User") {
			s.user(stringOrEmpty(m["text"]))
			continue
		}
		langflowMessage(s, m)
	}
	return s
}

// langflowMessage reads a message of the machine's, its sender's: its
// content blocks' tool uses as calls with their outputs, its blocks'
// other text (not the input it restates) as its words, and its text.
func langflowMessage(s *lowCodeSteps, m map[string]any) {
	agent := strings.TrimSpace(firstNonEmpty(stringOrEmpty(m["sender_name"]), stringOrEmpty(objField(objField(m, "properties"), "source")["display_name"])))
	text := stringOrEmpty(m["text"])
	for _, b := range listField(m, "content_blocks") {
		for _, c := range listField(objOf(b), "contents") {
			ct := objOf(c)
			switch stringOrEmpty(ct["type"]) {
			case "tool_use":
				name := strings.TrimSpace(stringOrEmpty(ct["name"]))
				if name == "" {
					continue
				}
				id := s.call(agent, "", name, argsText(ct["tool_input"]))
				if e := ct["error"]; e != nil {
					s.result(id, name, errorText(textOf(e)), true)
					continue
				}
				s.result(id, name, textOf(ct["output"]), false)
			case "text":
				t := stringOrEmpty(ct["text"])
				if strings.EqualFold(stringOrEmpty(objField(ct, "header")["title"]), "Input") || s.said(t) || strings.TrimSpace(t) == strings.TrimSpace(text) {
					continue
				}
				s.say(agent, t)
			}
		}
	}
	if !s.said(text) {
		s.say(agent, text)
	}
}
