package run

import (
	"encoding/json"
	"slices"
	"strings"
)

// sessionTrace reads a harness's session record whose turns are listed
// under "trace" (AIOpsLab's session: {"agent", "session_id",
// "problem_id", "trace": [{"role", "content"}], "results"}): the agent's
// turns and the environment's answers to them, in order. ok is false
// unless every element is a message with a role and some content, and
// one of them is the assistant's: a trace of another shape (spans, an
// object) is not a session's turns.
func sessionTrace(data []byte) ([]message, bool) {
	var rec struct {
		Trace json.RawMessage `json:"trace"`
	}
	if json.Unmarshal(data, &rec) != nil || len(rec.Trace) == 0 {
		return nil, false
	}
	var list []message
	if json.Unmarshal(rec.Trace, &list) != nil || len(list) < 2 {
		return nil, false
	}
	if slices.ContainsFunc(list, func(m message) bool { return strings.TrimSpace(m.Role) == "" || !m.Content.set }) {
		return nil, false
	}
	return list, slices.ContainsFunc(list, func(m message) bool { return strings.EqualFold(m.Role, "assistant") })
}
