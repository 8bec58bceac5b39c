package run

import (
	"bytes"
	"encoding/json"
	"strings"
)

// adkSession finds the messages of a Google ADK session as its session
// services keep it, and as `adk run --save_session` and its web UI write
// it: {"id", "appName", "userId", "state", "events": [event…]} (app_name
// and the rest in snake case where pydantic writes no aliases). An event
// is {"author", "content": {"role", "parts"}, "invocationId", "actions",
// "errorCode", "errorMessage", "partial"…}: its content is a message of
// its author, the user or the agent that made it (an agent's tools'
// results are a content of the user's role, authored by that agent); a
// streamed partial event is passed over, as the whole one follows; an
// event with an error and no content says its author's error. A label
// beside the session's keys is the run's (the caller reads it). ok is false
// for any other object: one whose events do not all name their author,
// or that names no app.
func adkSession(data []byte) ([]any, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var s struct {
		AppName      json.RawMessage  `json:"appName"`
		AppNameSnake json.RawMessage  `json:"app_name"`
		Events       []map[string]any `json:"events"`
	}
	if dec.Decode(&s) != nil || len(s.Events) == 0 || len(s.AppName) == 0 && len(s.AppNameSnake) == 0 {
		return nil, false
	}
	var list []any
	for _, e := range s.Events {
		author, ok := e["author"].(string)
		if !ok {
			return nil, false
		}
		if e["partial"] == true {
			continue
		}
		author = strings.TrimSpace(author)
		if c, ok := e["content"].(map[string]any); ok {
			m := make(map[string]any, len(c)+1)
			for k, v := range c {
				m[k] = v
			}
			if author != "" && author != "user" {
				m["name"] = author
			}
			list = append(list, m)
			continue
		}
		msg := strings.TrimSpace(textOf(firstOf(e, "errorMessage", "error_message")))
		code := strings.TrimSpace(textOf(firstOf(e, "errorCode", "error_code")))
		if msg == "" && code == "" {
			continue
		}
		text := errorText(strings.TrimPrefix(code+": "+msg, ": "))
		list = append(list, map[string]any{"role": "model", "name": author, "parts": []any{map[string]any{"text": text}}})
	}
	return list, true
}

// firstOf is the first of m's values under keys that is set.
func firstOf(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil {
			return v
		}
	}
	return nil
}
