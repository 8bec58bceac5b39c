package run

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// flowStates reads a CrewAI Flow's persisted states, the rows of the
// flow_states table its SQLite persistence keeps ({"id", "flow_uuid",
// "method_name", "timestamp", "state_json"}), as a query lists them: the
// state after each method, the state's JSON as text or as an object. Each
// row is a step of its method, its words the fields of the state it
// changed (each "field: value"); the text fields no method changed,
// those the flow was started with, are the task, the user's words before
// them. ok is false when some
// row is none, or the rows are of more than one flow.
func flowStates(list []any) (ms []dumpMessage, task string, ok bool) {
	if len(list) == 0 {
		return nil, "", false
	}
	var states []map[string]any
	flow := ""
	for _, e := range list {
		row, _ := e.(map[string]any)
		id, name := stringOrEmpty(row["flow_uuid"]), strings.TrimSpace(stringOrEmpty(row["method_name"]))
		if id == "" || name == "" || flow != "" && id != flow {
			return nil, "", false
		}
		flow = id
		state, _ := row["state_json"].(map[string]any)
		if s, isText := row["state_json"].(string); isText {
			if state = stateText(s); state == nil {
				return nil, "", false
			}
		}
		if state == nil {
			return nil, "", false
		}
		states = append(states, state)
		ms = append(ms, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: name}})
	}
	given := map[string]bool{}
	var texts []string
	for _, k := range slices.Sorted(maps.Keys(states[0])) {
		if s, isText := states[0][k].(string); isText && k != "id" && strings.TrimSpace(s) != "" && unchanged(states, k) {
			given[k] = true
			texts = append(texts, strings.TrimSpace(s))
		}
	}
	before := map[string]any{}
	for i, state := range states {
		var said []string
		for _, k := range slices.Sorted(maps.Keys(state)) {
			if k == "id" || given[k] || reflect.DeepEqual(before[k], state[k]) {
				continue
			}
			if v := strings.TrimSpace(textOf(state[k])); v != "" && v != "[]" && v != "{}" {
				said = append(said, k+": "+v)
			}
		}
		ms[i].Text = strings.Join(said, "\n")
		before = state
	}
	task = strings.Join(texts, "\n")
	if task != "" {
		ms = append([]dumpMessage{{chatMessage: chatMessage{Role: "user", Text: task}}}, ms...)
	}
	return ms, task, true
}

// unchanged reports whether every state holds field k as the first does.
func unchanged(states []map[string]any, k string) bool {
	return !slices.ContainsFunc(states[1:], func(s map[string]any) bool { return !reflect.DeepEqual(s[k], states[0][k]) })
}

// stateText decodes a state kept as JSON text, its numbers as written
// (json.Number, as the rows' objects are read), so that a state's field
// reads the same in either form; nil when the text is no one object.
func stateText(s string) map[string]any {
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	var state map[string]any
	if dec.Decode(&state) != nil || dec.Decode(new(any)) != io.EOF {
		return nil
	}
	return state
}
