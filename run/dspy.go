package run

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// dspyTrajectoryKey is a key of a DSPy ReAct trajectory: the model's
// thought, the tool it chose and its arguments, and what the tool gave
// back, at the step its number says.
var dspyTrajectoryKey = regexp.MustCompile(`^(thought|tool_name|tool_args|observation)_(\d+)$`)

// dspyFinish is the tool a DSPy ReAct agent calls to say it is done; its
// observation ("Completed.") says nothing.
const dspyFinish = "finish"

// dspyErrorPrefix opens the observation DSPy writes when a tool raised.
const dspyErrorPrefix = "Execution error in "

// dspyPrediction reads a DSPy ReAct prediction as a program saves it
// (pred.toDict(), often beside its inputs: {"question", "trajectory":
// {"thought_0", "tool_name_0", "tool_args_0", "observation_0", …},
// "reasoning", "answer"}), or its trajectory alone. The input (question,
// else task) is the user's; each step's thought is the agent's words
// with its call of the tool named, and the observation the call's
// result (a tool that raised, failed); the thought of the step that
// calls finish is the agent's message, and the answer, the prediction's
// output after it, its last. ok is false when data is no trajectory of
// steps that call tools.
func dspyPrediction(data []byte, o *fileObject) ([]dumpMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var top map[string]any
	if dec.Decode(&top) != nil {
		return nil, false
	}
	traj, ok := top["trajectory"].(map[string]any)
	if !ok {
		traj = top // the trajectory saved alone
	}
	steps := map[int]map[string]any{} // step number → its fields by name
	for k, v := range traj {
		m := dspyTrajectoryKey.FindStringSubmatch(k)
		if m == nil {
			if ok {
				return nil, false // a trajectory holds nothing else
			}
			continue
		}
		n, err := strconv.Atoi(m[2])
		if err != nil {
			return nil, false
		}
		if steps[n] == nil {
			steps[n] = map[string]any{}
		}
		steps[n][m[1]] = v
	}
	order := make([]int, 0, len(steps))
	for n, s := range steps {
		if _, named := s["tool_name"].(string); !named {
			return nil, false
		}
		order = append(order, n)
	}
	if len(order) == 0 {
		return nil, false
	}
	slices.Sort(order)
	var out []dumpMessage
	if q := strings.TrimSpace(firstNonEmpty(o.Question, scalarString(o.Task))); q != "" {
		out = append(out, dumpMessage{chatMessage: chatMessage{Role: "user", Text: q}})
	}
	for _, n := range order {
		s := steps[n]
		thought := textOf(s["thought"])
		tool := strings.TrimSpace(stringOrEmpty(s["tool_name"]))
		if tool == dspyFinish {
			if strings.TrimSpace(thought) != "" {
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Text: thought}})
			}
			continue
		}
		id := "dspy-step-" + strconv.Itoa(n)
		out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Text: thought, Calls: []ToolCall{{ID: id, Name: tool, Arguments: textOf(s["tool_args"])}}}})
		if obs, ok := s["observation"]; ok {
			text := dspyObservation(obs)
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: id, Text: text}, failed: strings.HasPrefix(text, dspyErrorPrefix)})
		}
	}
	if answer := strings.TrimSpace(textOf(top["answer"])); answer != "" && ok {
		out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Text: answer}})
	}
	return out, true
}

// dspyObservation is a tool's observation as text: a list of passages (a
// retriever's) one a line, anything else as textOf writes it.
func dspyObservation(obs any) string {
	list, ok := obs.([]any)
	if !ok || !slices.ContainsFunc(list, func(e any) bool { _, s := e.(string); return s }) {
		return textOf(obs)
	}
	lines := make([]string, len(list))
	for i, e := range list {
		lines[i] = textOf(e)
	}
	return strings.Join(lines, "\n")
}
