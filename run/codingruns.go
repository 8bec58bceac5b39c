package run

// Runs that coding agents on issue benchmarks save in files of their own:
// Moatless Tools' trajectories, a state machine's transitions each with
// the model's requests and the replies they got, and Agentless's
// localization records, a pipeline's prompts and the model's responses to
// each stage.

import (
	"encoding/json"
	"fmt"
	"strings"
)

// codingRuns reads data as a Moatless Tools trajectory (one run) or as
// Agentless's localization records (a JSON object a line, each one run,
// named by its instance; a label record among them labelling the one run
// beside it). ok is false when data is neither.
func codingRuns(data []byte) (cases []*Case, ok bool, err error) {
	values, err := decodeStream(data)
	if err != nil || len(values) == 0 {
		return nil, false, nil
	}
	rest, beside := withoutLabelRecord(values)
	if len(rest) == 0 {
		return nil, false, nil
	}
	objects := make([]map[string]any, len(rest))
	for i, v := range rest {
		if json.Unmarshal(v, &objects[i]) != nil || objects[i] == nil {
			return nil, false, nil
		}
	}
	if len(objects) == 1 {
		if ms, ok := moatlessTrajectory(objects[0]); ok {
			meta := labelOf(objects[0])
			if beside != nil {
				meta = beside
			}
			c, ok, err := dumpCaseOfMessages(ms, meta)
			if !ok {
				return nil, true, fmt.Errorf("Moatless trajectory: no transition says anything")
			}
			return []*Case{c}, true, err
		}
	}
	runs := make([][]dumpMessage, len(objects))
	names := make([]string, len(objects))
	for i, o := range objects {
		ms, ok := localizationStages(o)
		if !ok {
			return nil, false, nil
		}
		runs[i], names[i] = ms, strings.TrimSpace(stringOrEmpty(o["instance_id"]))
	}
	if beside != nil && len(runs) > 1 {
		return nil, true, fmt.Errorf("a label record beside %d Agentless records labels none of them: put mistake_agent and mistake_step in the record of the run they label", len(runs))
	}
	names = recordNames(names)
	for i, ms := range runs {
		meta := labelOf(objects[i])
		if beside != nil {
			meta = beside
		}
		c, ok, err := dumpCaseOfMessages(ms, meta)
		if err != nil {
			return nil, true, fmt.Errorf("run %s: %w", names[i], err)
		}
		if !ok {
			return nil, true, fmt.Errorf("Agentless record %s: no stage says anything, and it found nothing", names[i])
		}
		if len(runs) > 1 {
			c.Run.TraceID = names[i]
		}
		cases = append(cases, c)
	}
	return cases, true, nil
}

// moatlessTrajectory reads a Moatless Tools trajectory ({"initial_message",
// "transitions": [{"state": {"name", …}, "actions": [{"request",
// "response": {"trigger", "output"}, "completion"}]}], "info"}): the
// initial message is the user's task, and each action of a transition is
// the model's turn as the state's agent (a state has its prompt and its
// own schema of requests), its request's scratch pad the words and the
// rest the call the state makes, and the output the response gives back
// that call's result; a response that rejects the request gives its
// retry message instead ({"trigger": "retry", "retry_message"}), the
// call's failure. The completions repeat the prompts each request was
// made from, and are not read. ok is false for any other object.
func moatlessTrajectory(o map[string]any) ([]dumpMessage, bool) {
	transitions, ok := o["transitions"].([]any)
	if !ok || len(transitions) == 0 {
		return nil, false
	}
	task, ok := o["initial_message"].(string)
	if !ok {
		return nil, false
	}
	if !objectsAll(transitions, func(t map[string]any) bool {
		state, _ := t["state"].(map[string]any)
		_, named := state["name"].(string)
		return named
	}) {
		return nil, false
	}
	out := []dumpMessage{{chatMessage: chatMessage{Role: "user", Text: strings.TrimSpace(task)}}}
	for ti, t := range transitions {
		tm := t.(map[string]any)
		state := strings.TrimSpace(tm["state"].(map[string]any)["name"].(string))
		actions, _ := tm["actions"].([]any)
		for ai, a := range actions {
			am, ok := a.(map[string]any)
			if !ok {
				continue
			}
			req, _ := am["request"].(map[string]any)
			if req == nil {
				continue
			}
			words := strings.TrimSpace(stringOrEmpty(req["scratch_pad"]))
			args := map[string]any{}
			for k, v := range req {
				if k != "scratch_pad" && v != nil {
					args[k] = v
				}
			}
			id := fmt.Sprintf("%d.%d", ti, ai)
			msg := chatMessage{Role: "assistant", Name: state, Text: words}
			if len(args) > 0 {
				msg.Calls = []ToolCall{{ID: id, Name: state, Arguments: textOf(args)}}
			}
			out = append(out, dumpMessage{chatMessage: msg})
			resp, _ := am["response"].(map[string]any)
			if len(args) == 0 {
				continue
			}
			if output, ok := resp["output"].(map[string]any); ok && len(output) > 0 {
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "tool", Name: state, Text: textOf(output), CallID: id}, tool: state})
			} else if retry := strings.TrimSpace(stringOrEmpty(resp["retry_message"])); retry != "" {
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "tool", Name: state, Text: retry, CallID: id}, tool: state, failed: true})
			}
		}
	}
	return out, len(out) > 1
}

// localizationKeys are the keys of an Agentless localization record
// under which each stage keeps its prompt and the model's response, in
// the order the stages run: the files to edit, the code related to the
// issue in them, the places to edit.
var localizationKeys = []string{"file_traj", "related_loc_traj", "edit_loc_traj"}

// localizationStages reads an Agentless localization record
// ({"instance_id", "found_files", "file_traj": {"prompt", "response",
// "usage"}, "related_loc_traj", "edit_loc_traj", …}): each stage's prompt
// is the user's message (the first one holds the issue) and its response
// (a text, or the samples drawn, the first of them the one used) the
// model's. A record that kept no stage is what its stages found. ok is
// false for any other object.
func localizationStages(o map[string]any) ([]dumpMessage, bool) {
	if _, ok := o["found_files"]; !ok {
		return nil, false
	}
	var out []dumpMessage
	for _, k := range localizationKeys {
		st, ok := o[k].(map[string]any)
		if !ok {
			continue
		}
		prompt := strings.TrimSpace(stringOrEmpty(st["prompt"]))
		resp := st["response"]
		if list, ok := resp.([]any); ok && len(list) > 0 {
			resp = list[0]
		}
		answer := strings.TrimSpace(stringOrEmpty(resp))
		if prompt == "" && answer == "" {
			continue
		}
		if prompt != "" {
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "user", Text: prompt}})
		}
		if answer != "" {
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Text: answer}})
		}
	}
	if len(out) > 0 {
		return out, true
	}
	// A record saved without its stages' prompts and responses (Agentless
	// keeps them only when asked to) still holds what each stage found:
	// the model's answers, parsed.
	for _, k := range localizationFound {
		if found := foundText(o[k]); found != "" {
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Text: found}})
		}
	}
	return out, true
}

// localizationFound are the keys of an Agentless localization record
// under which each stage keeps what it found, in the order the stages run.
var localizationFound = []string{"found_files", "found_related_locs", "found_edit_locs"}

// foundText is what a stage found as text: its places one a line (a
// list's strings, lists of them flattened), else the value as JSON.
func foundText(v any) string {
	var lines []string
	var flat func(any) bool
	flat = func(v any) bool {
		switch t := v.(type) {
		case string:
			if t = strings.TrimSpace(t); t != "" {
				lines = append(lines, t)
			}
			return true
		case []any:
			for _, x := range t {
				if !flat(x) {
					return false
				}
			}
			return true
		}
		return v == nil
	}
	if !flat(v) {
		return textOf(v)
	}
	return strings.Join(lines, "\n")
}
