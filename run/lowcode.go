package run

import (
	"bytes"
	"encoding/json"
	"index/suffixarray"
	"slices"
	"strconv"
	"strings"
)

// Low-code agent platforms' saved runs, each known by its structure:
//
//   - n8n's execution ({"data": {"resultData": {"runData": {NODE: [run…]}}},
//     "workflowData"}, as GET /executions/{id}?includeData=true gives it,
//     or with its data as flatted text, as n8n's own REST API and
//     database keep it, lowcode_flatted.go);
//   - Dify's messages of a conversation ({"data": [{"query", "answer",
//     "agent_thoughts"…}]}) and a workflow run's node executions
//     ({"data": [{"node_id", "node_type", "title", "inputs", "outputs"}]},
//     an agent node's log of turns and calls in its execution_metadata);
//   - Flowise's prediction ({"text", "usedTools", "agentReasoning"…}) and
//     chat messages ([{"role": "userMessage" | "apiMessage", "content"…}]);
//   - Langflow's run output ({"outputs": [{"inputs", "outputs":
//     [{"results": {"message"}}]}]}) and messages ([{"sender", "text",
//     "content_blocks"}]).
//
// A tool call and its result are steps, and the node or agent that made a
// step is its agent.

// maxLowCodeItems bounds the records read of one saved run.
const maxLowCodeItems = 20000

// lowCodeCase reads data as one of the platforms' saved runs (lowCodeRun),
// labelled by meta when it is given; ok is false when it is none.
func lowCodeCase(data []byte, meta *fileObject) (c *Case, ok bool, err error) {
	s, ok := lowCodeRun(data)
	if !ok {
		return nil, false, nil
	}
	c, ok, err = dumpCaseOfMessages(s.out, meta)
	if ok && err == nil && c.Run.Instructions == "" {
		c.Run.Instructions = strings.TrimSpace(s.instructions)
	}
	return c, ok, err
}

// lowCodeRun reads data, a JSON object or array, as one of the platforms'
// saved runs; ok is false when it is none.
func lowCodeRun(data []byte) (*lowCodeSteps, bool) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	var s *lowCodeSteps
	switch t := v.(type) {
	case map[string]any:
		if f := n8nFlatted(t); f != nil {
			t = f
		}
		switch {
		case n8nRunData(t) != nil:
			s = n8nExecution(t)
		case difyList(t, difyIsMessage):
			s = difyMessages(t["data"].([]any))
		case difyList(t, difyIsNode):
			s = difyNodes(t["data"].([]any))
		case flowiseIsPrediction(t):
			s = flowisePrediction(t)
		case langflowIsRun(t):
			s = langflowRun(t)
		}
	case []any:
		switch {
		case allObjects(t, difyIsNode):
			s = difyNodes(t)
		case allObjects(t, flowiseIsMessage):
			s = flowiseMessages(t)
		case allObjects(t, langflowIsMessage):
			s = langflowMessages(t)
		}
	}
	return s, s != nil && len(s.out) > 0
}

// allObjects reports whether list is not empty and each element is an
// object that is.
func allObjects(list []any, is func(map[string]any) bool) bool {
	if len(list) == 0 {
		return false
	}
	for _, e := range list {
		o, ok := e.(map[string]any)
		if !ok || !is(o) {
			return false
		}
	}
	return true
}

// lowCodeSteps collects a run's messages, numbering the calls it makes.
type lowCodeSteps struct {
	out   []dumpMessage
	calls int
	at    map[string]int // a call's message, by the call's id
	// instructions are the system prompt the run's first model was
	// given, where the platform saves it beside the steps, not as one.
	instructions string
	// seen indexes the messages before the last (said, holds): a
	// platform's reader asks of each step whether an earlier one wrote
	// its text, and the last message may yet be dropped.
	seen lowCodeSeen
}

// lowCodeSeen indexes the first n messages of a run: their trimmed texts
// (but tools' results) by count, and all their texts in suffix arrays of
// halving sizes, each chunk built again only when merged with one no
// bigger than twice it, so a run's reading stays near linear in its
// size however many times it asks.
type lowCodeSeen struct {
	n      int
	said   map[string]int
	chunks []seenChunk
}

// seenChunk is a suffix array of messages' texts, each between NULs.
type seenChunk struct {
	data []byte
	sa   *suffixarray.Index
}

// index brings the index up to all the messages but the last.
func (s *lowCodeSteps) index() {
	x := &s.seen
	if x.n > len(s.out) {
		*x = lowCodeSeen{}
	}
	upTo := len(s.out) - 1
	if x.n >= upTo {
		return
	}
	if x.said == nil {
		x.said = map[string]int{}
	}
	data := []byte{0}
	for _, m := range s.out[x.n:upTo] {
		if m.Role != "tool" {
			x.said[strings.TrimSpace(m.Text)]++
		}
		data = append(append(data, m.Text...), 0)
	}
	x.n = upTo
	x.chunks = append(x.chunks, seenChunk{data: data})
	for k := len(x.chunks); k >= 2 && len(x.chunks[k-2].data) <= 2*len(x.chunks[k-1].data); k = len(x.chunks) {
		merged := append(x.chunks[k-2].data[:len(x.chunks[k-2].data):len(x.chunks[k-2].data)], x.chunks[k-1].data...)
		x.chunks = append(x.chunks[:k-2], seenChunk{data: merged})
	}
	for i := range x.chunks {
		if x.chunks[i].sa == nil {
			x.chunks[i].sa = suffixarray.New(x.chunks[i].data)
		}
	}
}

// holds reports whether a message of the run's holds text.
func (s *lowCodeSteps) holds(text string) bool {
	s.index()
	for _, m := range s.out[s.seen.n:] {
		if strings.Contains(m.Text, text) {
			return true
		}
	}
	if strings.IndexByte(text, 0) >= 0 {
		// A NUL parts the indexed texts: read them one by one.
		return slices.ContainsFunc(s.out[:s.seen.n], func(m dumpMessage) bool { return strings.Contains(m.Text, text) })
	}
	for _, c := range s.seen.chunks {
		if len(c.sa.Lookup([]byte(text), 1)) > 0 {
			return true
		}
	}
	return false
}

func (s *lowCodeSteps) full() bool { return len(s.out) >= maxLowCodeItems }

func (s *lowCodeSteps) user(text string) {
	if text = strings.TrimSpace(text); text != "" && !s.full() {
		s.out = append(s.out, dumpMessage{chatMessage: chatMessage{Role: "user", Text: text}})
	}
}

// say adds agent's message, unless it repeats the message just before it
// of the same agent (a platform saves an agent's answer again as the
// run's output).
func (s *lowCodeSteps) say(agent, text string) {
	text = strings.TrimSpace(text)
	if text == "" || s.full() {
		return
	}
	if n := len(s.out); n > 0 {
		last := s.out[n-1]
		if last.Role == "assistant" && last.Name == agent && len(last.Calls) == 0 && strings.TrimSpace(last.Text) == text {
			return
		}
	}
	s.out = append(s.out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: agent, Text: text}})
}

// said reports whether text is already a message of the run's, as a
// workflow's closing node repeats an answer another node gave.
func (s *lowCodeSteps) said(text string) bool {
	text = strings.TrimSpace(text)
	s.index()
	return s.seen.said[text] > 0 || slices.ContainsFunc(s.out[s.seen.n:], func(m dumpMessage) bool { return m.Role != "tool" && strings.TrimSpace(m.Text) == text })
}

// call adds agent's call of tool with args (its words before it as the
// message's text) and returns the call's id.
func (s *lowCodeSteps) call(agent, words, tool, args string) string {
	s.calls++
	id := "lowcode-call-" + strconv.Itoa(s.calls)
	if !s.full() {
		if s.at == nil {
			s.at = map[string]int{}
		}
		s.at[id] = len(s.out)
		s.out = append(s.out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: agent, Text: strings.TrimSpace(words),
			Calls: []ToolCall{{ID: id, Name: tool, Arguments: args}}}})
	}
	return id
}

// handsTo marks call id as handing its task to agent, a tool that is an
// agent itself.
func (s *lowCodeSteps) handsTo(id, agent string) {
	if i, ok := s.at[id]; ok {
		s.out[i].target = agent
	}
}

// result adds the result of call id.
func (s *lowCodeSteps) result(id, tool, text string, failed bool) {
	if !s.full() {
		s.out = append(s.out, dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: id, Text: text}, tool: tool, failed: failed})
	}
}

// argsText renders a tool's input as its call's arguments: an object as
// it is, a string that holds one as that object, any other value as
// {"input": value}.
func argsText(x any) string {
	switch t := x.(type) {
	case map[string]any:
		return textOf(t)
	case string:
		var o map[string]any
		if json.Unmarshal([]byte(strings.TrimSpace(t)), &o) == nil && o != nil {
			return strings.TrimSpace(t)
		}
	}
	return textOf(map[string]any{"input": x})
}

// objField is o[key] as an object, nil when it is none.
func objField(o map[string]any, key string) map[string]any {
	m, _ := o[key].(map[string]any)
	return m
}

// listField is o[key] as a list, nil when it is none.
func listField(o map[string]any, key string) []any {
	l, _ := o[key].([]any)
	return l
}

// listOrJSON is x as a list: a list itself, or a string that holds one
// (Flowise's chat messages keep their tools and reasoning as JSON text).
func listOrJSON(x any) []any {
	switch t := x.(type) {
	case []any:
		return t
	case string:
		dec := json.NewDecoder(strings.NewReader(t))
		dec.UseNumber()
		var l []any
		if dec.Decode(&l) == nil {
			return l
		}
	}
	return nil
}

// jsonNumber is x, a decoded JSON number, as a float; ok is false for any
// other value.
func jsonNumber(x any) (float64, bool) {
	switch t := x.(type) {
	case json.Number:
		f, err := t.Float64()
		return f, err == nil
	case float64:
		return t, true
	}
	return 0, false
}
