package run

import (
	"strconv"
	"strings"
)

// agentScopeMessages reads a list of AgentScope's messages as its early
// versions log them (logging.chat, a Msg a line: {"id", "timestamp",
// "name", "content", "role", "url", "metadata"}), when some message is
// one only AgentScope writes: a ReAct agent's reply as it parsed it
// ({"thought", "speak", "function": [{"name", "arguments"}]}, its words
// what it spoke, else its thought, and its calls), or the system's
// report of the functions its service toolkit executed (a numbered
// "Execute function NAME" block for each, its [STATUS] and [RESULT]),
// each block the result of the call of that function. ok is false for
// any other data, and for records not all of which are Msgs.
func agentScopeMessages(data []byte) ([]dumpMessage, bool) {
	list, err := anyList(data, "")
	if err != nil || len(list) == 0 {
		return nil, false
	}
	var out []dumpMessage
	marked := false
	for _, e := range list {
		m, _ := e.(map[string]any)
		if m == nil || m["id"] == nil || m["timestamp"] == nil || m["name"] == nil || m["role"] == nil {
			return nil, false
		}
		name := strings.TrimSpace(stringOrEmpty(m["name"]))
		role := stringOrEmpty(m["role"])
		if reply, ok := m["content"].(map[string]any); ok {
			if reply["speak"] == nil && reply["thought"] == nil && reply["function"] == nil {
				return nil, false
			}
			marked = true
			dm := dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: name, Text: firstNonEmpty(textOf(reply["speak"]), textOf(reply["thought"]))}}
			calls, _ := reply["function"].([]any)
			for _, c := range calls {
				if cm, ok := c.(map[string]any); ok {
					dm.Calls = append(dm.Calls, ToolCall{Name: stringOrEmpty(cm["name"]), Arguments: argsText(cm["arguments"])})
				}
			}
			out = append(out, dm)
			continue
		}
		text := textOf(m["content"])
		if role == "system" {
			if results, ok := executedFunctions(text); ok {
				marked = true
				out = append(out, results...)
				continue
			}
		}
		out = append(out, dumpMessage{chatMessage: chatMessage{Role: role, Name: name, Text: text}})
	}
	return out, marked
}

// executedFunctions reads the system's report of the functions executed
// ("1. Execute function NAME\n   [ARGUMENTS]:…\n   [STATUS]: SUCCESS\n
// [RESULT]: …"), a result of each block's function, failed when its
// status is not SUCCESS; ok is false for text that does not begin so.
func executedFunctions(text string) ([]dumpMessage, bool) {
	const head = ". Execute function "
	var out []dumpMessage
	var cur *dumpMessage
	inResult := false
	var result []string
	flush := func() {
		if cur != nil {
			cur.Text = strings.TrimSpace(strings.Join(result, "\n"))
			out = append(out, *cur)
		}
	}
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if n, name, ok := strings.Cut(trimmed, head); ok && isCount(n) {
			flush()
			cur = &dumpMessage{chatMessage: chatMessage{Role: "tool"}, tool: strings.TrimSpace(name)}
			inResult, result = false, nil
			continue
		}
		if cur == nil {
			if i == 0 || trimmed != "" {
				return nil, false
			}
			continue
		}
		switch {
		case strings.HasPrefix(trimmed, "[STATUS]:"):
			cur.failed = strings.TrimSpace(strings.TrimPrefix(trimmed, "[STATUS]:")) != "SUCCESS"
			inResult = false
		case strings.HasPrefix(trimmed, "[RESULT]:"):
			inResult = true
			result = append(result, strings.TrimSpace(strings.TrimPrefix(trimmed, "[RESULT]:")))
		case strings.HasPrefix(trimmed, "[ARGUMENTS]:"):
			inResult = false
		case inResult:
			result = append(result, line)
		}
	}
	flush()
	return out, len(out) > 0
}

// isCount reports whether s is a positive count written in digits.
func isCount(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n > 0
}

// agentScopeMarked reports whether m may be one of the messages only
// AgentScope writes (agentScopeMessages): a content that is no text nor
// parts, or the system's report of functions executed.
func (m message) agentScopeMarked() bool {
	return m.Content.err != nil || m.Role == "system" && strings.Contains(m.Content.text, ". Execute function ")
}
