package run

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// n8nRunData is an n8n execution's data.resultData.runData, nil when x
// holds none: each node's runs by the node's name.
func n8nRunData(x map[string]any) map[string]any {
	return objField(objField(objField(x, "data"), "resultData"), "runData")
}

// n8nNodeRun is one run of a node of an n8n execution.
type n8nNodeRun struct {
	node   string
	index  int // the node's run
	run    map[string]any
	start  float64
	order  float64 // the execution's index, for runs that start at once
	key    float64 // where its output stands among the runs'
	parent string  // the node a sub-node (a model, tool or memory) serves
	pRun   int
	sub    bool // a sub-node's run: its data is under an ai_… connection
}

// n8nExecution reads an n8n execution's runs in the order they ran:
//
//   - a run no node started (the trigger's: a chat message, a webhook's
//     body, a form) is the user's message;
//   - a chat model's run serves the agent or chain node that is its
//     source: each generation is that node's message, or its tool calls
//     (the message's tool_calls);
//   - a tool's run (ai_tool) is the result of its agent's call of it, the
//     call read from its input when no model's output made it;
//   - an agent's or chain's own output comes after its sub-nodes' runs:
//     its intermediate steps when no sub-node's run is saved, and its
//     answer unless the model already said it;
//   - the other nodes (memory, parsers, plain workflow nodes) are passed
//     over.
func n8nExecution(x map[string]any) *lowCodeSteps {
	runData := n8nRunData(x)
	var runs []*n8nNodeRun
	for node, v := range runData {
		list, _ := v.([]any)
		for i, e := range list {
			r, ok := e.(map[string]any)
			if !ok || len(runs) >= maxLowCodeItems {
				continue
			}
			nr := &n8nNodeRun{node: node, index: i, run: r}
			nr.start, _ = jsonNumber(r["startTime"])
			nr.order, _ = jsonNumber(r["executionIndex"])
			for k := range objField(r, "data") {
				if strings.HasPrefix(k, "ai_") {
					nr.sub = true
				}
			}
			if src := listField(r, "source"); len(src) > 0 {
				if s, ok := src[0].(map[string]any); ok {
					nr.parent = stringOrEmpty(s["previousNode"])
					p, _ := jsonNumber(s["previousNodeRun"])
					nr.pRun = int(p)
				}
			}
			runs = append(runs, nr)
		}
	}
	if len(runs) == 0 {
		return nil
	}
	// A node's runs in order, a sub-node's under its parent's run.
	children := map[string][]*n8nNodeRun{}
	for _, r := range runs {
		if r.sub && r.parent != "" {
			k := r.parent + "\x00" + strconv.Itoa(r.pRun)
			children[k] = append(children[k], r)
		}
	}
	// A parent's output stands after its sub-nodes' runs (each key found
	// once; a run met again on its own path, a loop of sources, counts
	// as its start).
	done := map[*n8nNodeRun]bool{}
	onPath := map[*n8nNodeRun]bool{}
	var keyOf func(r *n8nNodeRun) float64
	keyOf = func(r *n8nNodeRun) float64 {
		if done[r] || onPath[r] {
			return r.key
		}
		onPath[r] = true
		r.key = r.start
		for _, c := range children[r.node+"\x00"+strconv.Itoa(r.index)] {
			if ck := keyOf(c); ck >= r.key {
				r.key = ck + 0.001
			}
		}
		onPath[r], done[r] = false, true
		return r.key
	}
	for _, r := range runs {
		keyOf(r)
	}
	sort.SliceStable(runs, func(i, j int) bool {
		a, b := runs[i], runs[j]
		if a.key != b.key {
			return a.key < b.key
		}
		if a.order != b.order {
			return a.order < b.order
		}
		return a.node < b.node
	})
	s := &lowCodeSteps{}
	pending := map[string]*n8nCalls{} // agent → its calls not yet answered
	for _, r := range runs {
		data := objField(r.run, "data")
		hasChildren := len(children[r.node+"\x00"+strconv.Itoa(r.index)]) > 0
		switch {
		case len(listField(r.run, "source")) == 0 && !r.sub:
			if text := n8nInput(n8nFirstJSON(data["main"])); text != "" {
				s.user(text)
			}
		case data["ai_languageModel"] != nil || objField(r.run, "inputOverride")["ai_languageModel"] != nil:
			agent := firstNonEmpty(r.parent, r.node)
			prompt := n8nFirstJSON(objField(r.run, "inputOverride")["ai_languageModel"])
			if !s.hasUser() {
				s.user(n8nPromptQuestion(prompt))
			}
			if s.instructions == "" {
				s.instructions = n8nPromptSystem(prompt)
			}
			if e := n8nError(r.run); e != "" {
				s.say(agent, errorText(e))
				continue
			}
			out := n8nFirstJSON(data["ai_languageModel"])
			for _, g := range n8nGenerations(out) {
				text := stringOrEmpty(g["text"])
				calls := n8nToolCalls(objField(g, "message"))
				if len(calls) == 0 {
					s.say(agent, text)
					continue
				}
				for i, c := range calls {
					words := ""
					if i == 0 {
						words = text
					}
					c.ID = s.call(agent, words, c.Name, c.Arguments)
					if pending[agent] == nil {
						pending[agent] = &n8nCalls{}
					}
					pending[agent].add(c)
				}
			}
		case data["ai_tool"] != nil || objField(r.run, "inputOverride")["ai_tool"] != nil:
			agent := firstNonEmpty(r.parent, r.node)
			in := n8nFirstJSON(objField(r.run, "inputOverride")["ai_tool"])
			id, tool := "", r.node
			if c, ok := pending[agent].take(n8nToolName(r.node)); ok {
				id, tool = c.ID, c.Name
			} else {
				args := any(in)
				if q, ok := in["query"]; ok {
					args = q
				}
				id = s.call(agent, "", n8nToolName(r.node), argsText(args))
				tool = n8nToolName(r.node)
			}
			if hasChildren {
				// An agent used as a tool (an AI Agent Tool node): its
				// model's steps are its own, the call hands it the task.
				s.handsTo(id, r.node)
			}
			if e := n8nError(r.run); e != "" {
				s.result(id, tool, errorText(e), true)
				continue
			}
			out := n8nFirstJSON(data["ai_tool"])
			var res any = out
			if v, ok := out["response"]; ok && len(out) == 1 {
				res = v
			} else if v, ok := out["output"]; ok && len(out) == 1 {
				res = v
			}
			s.result(id, tool, textOf(res), false)
		case r.sub:
			// Memory, parsers, embeddings: no step of the run's.
		case data["main"] != nil:
			out := n8nFirstJSON(data["main"])
			if !hasChildren && listField(out, "intermediateSteps") == nil {
				continue
			}
			if !s.hasUser() {
				s.user(n8nInput(out))
			}
			if !n8nServedByTools(children[r.node+"\x00"+strconv.Itoa(r.index)]) {
				n8nSteps(s, r.node, listField(out, "intermediateSteps"))
			}
			if e := n8nError(r.run); e != "" {
				s.say(r.node, errorText(e))
				continue
			}
			s.say(r.node, firstNonEmpty(stringOrEmpty(out["output"]), stringOrEmpty(out["text"])))
		}
	}
	return s
}

// n8nCalls are an agent's calls not yet answered, in the order it made
// them. A tool's run answers the first of them that calls it, else the
// first; each is found in time that does not grow with the calls before
// it, as a model's run may make any number of calls.
type n8nCalls struct {
	calls  []ToolCall
	taken  []bool
	next   int              // no call before it is left
	byName map[string][]int // the calls of each tool (n8nToolName), oldest first; some may be taken
}

func (q *n8nCalls) add(c ToolCall) {
	if q.byName == nil {
		q.byName = map[string][]int{}
	}
	name := n8nToolName(c.Name)
	q.byName[name] = append(q.byName[name], len(q.calls))
	q.calls = append(q.calls, c)
	q.taken = append(q.taken, false)
}

// take removes and returns the first call left of tool (n8nToolName),
// else the first call left; ok is false when none is left.
func (q *n8nCalls) take(tool string) (c ToolCall, ok bool) {
	if q == nil {
		return ToolCall{}, false
	}
	at := q.byName[tool]
	for len(at) > 0 && q.taken[at[0]] {
		at = at[1:]
	}
	q.byName[tool] = at
	pick := -1
	if len(at) > 0 {
		pick = at[0]
	} else {
		for q.next < len(q.calls) && q.taken[q.next] {
			q.next++
		}
		if q.next < len(q.calls) {
			pick = q.next
		}
	}
	if pick < 0 {
		return ToolCall{}, false
	}
	q.taken[pick] = true
	return q.calls[pick], true
}

// hasUser reports whether the run has a user's message yet.
func (s *lowCodeSteps) hasUser() bool {
	for _, m := range s.out {
		if m.Role == "user" {
			return true
		}
	}
	return false
}

// n8nServedByTools reports whether some sub-node run of an agent is a
// model's or a tool's, whose steps are read from it.
func n8nServedByTools(children []*n8nNodeRun) bool {
	for _, c := range children {
		d := objField(c.run, "data")
		if d["ai_tool"] != nil || d["ai_languageModel"] != nil {
			return true
		}
	}
	return false
}

// n8nSteps reads an agent's intermediate steps ([{"action": {"tool",
// "toolInput", "log"}, "observation"}]) as its calls and their results.
func n8nSteps(s *lowCodeSteps, agent string, steps []any) {
	for _, e := range steps {
		st, _ := e.(map[string]any)
		a := objField(st, "action")
		tool := strings.TrimSpace(stringOrEmpty(a["tool"]))
		if tool == "" {
			continue
		}
		words := stringOrEmpty(a["log"])
		if strings.HasPrefix(strings.TrimSpace(words), "Invoking ") {
			// The executor's note of the call, not the model's words.
			words = ""
		}
		id := s.call(agent, words, tool, argsText(a["toolInput"]))
		s.result(id, tool, textOf(st["observation"]), false)
	}
}

// n8nFirstJSON is the json of a connection's first item ([[{"json"}]]).
func n8nFirstJSON(x any) map[string]any {
	outer, _ := x.([]any)
	for _, o := range outer {
		inner, _ := o.([]any)
		for _, it := range inner {
			if m, ok := it.(map[string]any); ok {
				if j := objField(m, "json"); j != nil {
					return j
				}
			}
		}
	}
	return nil
}

// n8nInputKeys are the fields a trigger's item gives its message in: a
// chat trigger's chatInput, a form's or a webhook body's words.
var n8nInputKeys = []string{"chatInput", "message", "text", "query", "question", "input", "prompt"}

// n8nInput is the user's words in a trigger's item: one of
// n8nInputKeys, in the item or its webhook body.
func n8nInput(j map[string]any) string {
	for _, o := range []map[string]any{j, objField(j, "body")} {
		for _, k := range n8nInputKeys {
			if t := strings.TrimSpace(stringOrEmpty(o[k])); t != "" {
				return t
			}
		}
	}
	return ""
}

// n8nPromptQuestion is the human's last words in a chat model's prompt
// (its messages as "System: …\nHuman: …" text).
func n8nPromptQuestion(in map[string]any) string {
	msgs := listField(in, "messages")
	if len(msgs) == 0 {
		return ""
	}
	text := textOf(msgs[0])
	at := strings.LastIndex(text, "Human: ")
	if at < 0 {
		return ""
	}
	text = text[at+len("Human: "):]
	for _, next := range []string{"\nAI: ", "\nSystem: ", "\nTool: "} {
		if i := strings.Index(text, next); i >= 0 {
			text = text[:i]
		}
	}
	return strings.TrimSpace(text)
}

// n8nPromptSystem is the system's words that open a chat model's prompt
// ("System: …" before the first other speaker's).
func n8nPromptSystem(in map[string]any) string {
	msgs := listField(in, "messages")
	if len(msgs) == 0 {
		return ""
	}
	text, ok := strings.CutPrefix(strings.TrimSpace(textOf(msgs[0])), "System: ")
	if !ok {
		return ""
	}
	for _, next := range []string{"\nHuman: ", "\nAI: ", "\nTool: "} {
		if i := strings.Index(text, next); i >= 0 {
			text = text[:i]
		}
	}
	return strings.TrimSpace(text)
}

// n8nGenerations are a model run's generations (response.generations,
// a list of lists).
func n8nGenerations(out map[string]any) []map[string]any {
	var gens []map[string]any
	for _, g := range listField(objField(out, "response"), "generations") {
		inner, ok := g.([]any)
		if !ok {
			inner = []any{g}
		}
		for _, e := range inner {
			if m, ok := e.(map[string]any); ok {
				gens = append(gens, m)
			}
		}
	}
	return gens
}

// n8nToolCalls are the tool calls of a generation's message (LangChain's
// serialized message: kwargs.tool_calls, else the provider's
// additional_kwargs.tool_calls).
func n8nToolCalls(msg map[string]any) []ToolCall {
	kw := objField(msg, "kwargs")
	if kw == nil {
		kw = msg
	}
	var out []ToolCall
	for _, e := range listField(kw, "tool_calls") {
		c, _ := e.(map[string]any)
		if name := strings.TrimSpace(stringOrEmpty(c["name"])); name != "" {
			out = append(out, ToolCall{Name: name, Arguments: argsText(c["args"])})
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, e := range listField(objField(kw, "additional_kwargs"), "tool_calls") {
		c, _ := e.(map[string]any)
		f := objField(c, "function")
		if name := strings.TrimSpace(stringOrEmpty(f["name"])); name != "" {
			out = append(out, ToolCall{Name: name, Arguments: argsText(f["arguments"])})
		}
	}
	return out
}

// n8nError is a failed run's error message.
func n8nError(r map[string]any) string {
	e := objField(r, "error")
	if e == nil {
		return ""
	}
	return strings.TrimSpace(firstNonEmpty(stringOrEmpty(e["message"]), stringOrEmpty(e["description"]), "failed"))
}

// n8nToolName is the name an agent calls a tool node by: its name with
// what is neither letter nor digit as "_", in lower case.
func n8nToolName(node string) string {
	return strings.ToLower(strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return '_'
	}, strings.TrimSpace(node)))
}
