package run

import (
	"bytes"
	"encoding/json"
)

// graphStateMessages finds the messages of a LangGraph thread's state: a
// StateSnapshot as LangGraph's API gives a thread's state (GET
// /threads/ID/state: {"values": {"messages": […]}, "next", "tasks",
// "metadata", "checkpoint", "created_at"…}) and LangGraph.js's getState()
// serialises it ({"values", "next", "tasks", "metadata", "config",
// "createdAt", "parentConfig"}), or a list of them, as a thread's history
// lists its checkpoints (newest first from both): the snapshot that holds
// the most messages, the thread's whole conversation; or a checkpoint as a
// checkpointer keeps it ({"v", "ts", "id", "channel_values": {"messages":
// […]}, "channel_versions", "versions_seen"…}), alone or in the tuple its
// get_tuple gives ({"config", "checkpoint", "metadata", "parent_config",
// "pending_writes"}), whose messages channel is the state's messages. ok
// is false for any other value.
func graphStateMessages(data []byte) ([]any, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return nil, false
	}
	snaps, isList := v.([]any)
	if !isList {
		snaps = []any{v}
	}
	var best []any
	for _, s := range snaps {
		msgs, ok := snapshotMessages(s)
		if !ok {
			return nil, false
		}
		if len(msgs) > len(best) {
			best = msgs
		}
	}
	return best, len(best) > 0
}

// snapshotMessages is the messages of one StateSnapshot: ok is false when
// s is none (no values holding a list of messages, or none of the
// snapshot's other members).
func snapshotMessages(s any) ([]any, bool) {
	m, _ := s.(map[string]any)
	if cp, ok := m["checkpoint"].(map[string]any); ok && m["values"] == nil && cp["channel_values"] != nil {
		return snapshotMessages(cp)
	}
	if cv, ok := m["channel_values"].(map[string]any); ok {
		msgs, ok := cv["messages"].([]any)
		if !ok || (m["channel_versions"] == nil && m["versions_seen"] == nil) {
			return nil, false
		}
		return msgs, true
	}
	values, _ := m["values"].(map[string]any)
	msgs, ok := values["messages"].([]any)
	if !ok {
		return nil, false
	}
	for _, k := range []string{"next", "tasks", "checkpoint", "config"} {
		if _, ok := m[k]; ok {
			return msgs, true
		}
	}
	return nil, false
}
