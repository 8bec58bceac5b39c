package run

import "strings"

// A ReAct agent whose scratchpad is saved as one assistant turn writes
// its call, the harness's "Observation:" and what it thought next in the
// same message. splitObservations reads such a turn as the reader reads
// the observation answered in the next turn: the call a step of its own,
// the observation the tool's result, and any text after it a further
// step of the agent (itself a call when it writes one, split again).

// maxTurnParts bounds the steps one turn is split into.
const maxTurnParts = 3 * maxTextCalls

// inlineObservation splits a turn's text at the observation that follows
// a ReAct call ("Action: NAME" with its "Action Input:" line): the text
// up to that observation, the observation up to the agent's next labelled
// line ("Thought:", "Action:", "Final Answer:"), and what follows; false
// when the turn writes no call answered within it.
func inlineObservation(text string) (call, obs, rest string, ok bool) {
	lines := strings.Split(text, "\n")
	called := false
	start := -1
	for i, line := range lines {
		if _, _, isCall := reactAction(lines, i); isCall {
			called = true
		}
		if _, isObs := lineLabel(line, "observation"); isObs && called {
			start = i
			break
		}
	}
	if start < 0 {
		return "", "", "", false
	}
	end := len(lines)
	for j := start + 1; j < len(lines); j++ {
		if agentLine(lines[j]) {
			end = j
			break
		}
	}
	call = strings.TrimSpace(strings.Join(lines[:start], "\n"))
	obs = strings.TrimSpace(strings.Join(lines[start:end], "\n"))
	rest = strings.TrimSpace(strings.Join(lines[end:], "\n"))
	return call, obs, rest, call != "" && obs != ""
}

// agentLabels are the labels a ReAct agent opens its scratchpad's lines
// with; the harness's answer is labelled "Observation:".
var agentLabels = []string{"thought", "action", "final answer"}

// agentLine reports whether a line opens with a label the agent writes
// in its scratchpad (agentLabels), which ends an observation the harness
// appended and an action's input.
func agentLine(line string) bool {
	for _, label := range agentLabels {
		if _, ok := lineLabel(line, label); ok {
			return true
		}
	}
	return false
}

// reactAction reads a ReAct call at lines[i]: "Action: NAME" naming a
// tool, with an "Action Input:" line after it. It returns the tool's
// name and the first line of its input.
func reactAction(lines []string, i int) (name, input string, ok bool) {
	name, isAction := lineLabel(lines[i], "action")
	if !isAction || !toolName(name) || i+1 >= len(lines) {
		return "", "", false
	}
	input, ok = lineLabel(lines[i+1], "action input")
	return name, input, ok
}

// splitObservations splits each turn whose calls are written in its text
// and answered within it (inlineObservation) into the call, its result
// and the agent's text after it. It returns the steps and, for each
// message, the index of its first step; nil when no turn is split.
func splitObservations(msgs []message, steps []Step) ([]Step, []int) {
	var out []Step
	var first []int
	for i := range steps {
		s := steps[i]
		parts := []Step{s}
		if i < len(msgs) && s.Kind == KindToolCall && len(msgs[i].calls()) == 0 {
			parts = turnParts(s)
		}
		if len(parts) > 1 && first == nil {
			out = append(make([]Step, 0, len(steps)+2), steps[:i]...)
			first = make([]int, i, len(steps))
			for k := range first {
				first[k] = k
			}
		}
		if first != nil {
			first = append(first, len(out))
			out = append(out, parts...)
		}
	}
	if first == nil {
		return steps, nil
	}
	return out, first
}

// turnParts returns the steps a turn that writes its calls in its text
// is read as: itself when it holds no observation of its own, else its
// call, the observation and the parts of the text after it.
func turnParts(s Step) []Step {
	var out []Step
	text := s.Content
	for len(out) < maxTurnParts {
		call, obs, rest, ok := inlineObservation(text)
		calls := textCalls(call)
		if !ok || len(calls) == 0 {
			break
		}
		out = append(out,
			Step{Agent: s.Agent, Role: s.Role, Kind: KindToolCall, Content: call, Extra: &Extra{ToolCalls: calls}},
			Step{Agent: "tool", Role: "tool", Kind: KindToolResult, Content: obs})
		text = rest
		if text == "" {
			return out
		}
	}
	if len(out) == 0 {
		return []Step{s}
	}
	last := Step{Agent: s.Agent, Role: s.Role, Kind: KindMessage, Content: text}
	if calls := textCalls(text); len(calls) > 0 {
		last.Kind, last.Extra = KindToolCall, &Extra{ToolCalls: calls}
	}
	return append(out, last)
}
