package run

import (
	"bytes"
	"encoding/json"
	"slices"
)

// studioRunMessages finds the messages of a team's run as AutoGen Studio
// keeps it ({"id", "session_id", "status", "task", "team_result":
// {"task_result": {"messages", "stop_reason"}, "usage", "duration"},
// "messages": [{"config": MESSAGE, "session_id", "run_id"…}]}): its team
// result's messages, AutoGen AgentChat's, else, a run that has no result
// yet, the message each row of its messages keeps under "config". ok is
// false for any other object, and for rows none of which keeps one of
// AgentChat's messages. fields is the object, for the label beside the
// run.
func studioRunMessages(data []byte) (msgs []any, fields map[string]any, ok bool) {
	if !bytes.Contains(data, []byte(`"team_result"`)) && !bytes.Contains(data, []byte(`"config"`)) {
		return nil, nil, false // neither a team result nor a row's config: no need to decode the file
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var o map[string]any
	if dec.Decode(&o) != nil || dec.More() {
		return nil, nil, false
	}
	teamResult, _ := o["team_result"].(map[string]any)
	taskResult, _ := teamResult["task_result"].(map[string]any)
	if msgs, ok := taskResult["messages"].([]any); ok && slices.ContainsFunc(msgs, agentChatMessage) {
		return msgs, o, true
	}
	rows, _ := o["messages"].([]any)
	for _, r := range rows {
		row, _ := r.(map[string]any)
		if row["config"] == nil || row["run_id"] == nil && row["session_id"] == nil {
			return nil, nil, false
		}
		if agentChatMessage(row["config"]) {
			msgs = append(msgs, row["config"])
		}
	}
	return msgs, o, len(msgs) > 0
}

// agentChatMessage reports whether v is one of AutoGen AgentChat's
// messages or events: a type of its own and no role.
func agentChatMessage(v any) bool {
	m, _ := v.(map[string]any)
	typ, _ := m["type"].(string)
	return m != nil && m["role"] == nil && autogenTypes[typ]
}
