package run

// CAMEL's saved role-playing chats: the files of its ai_society, code and
// math datasets, and what its role-playing examples write the same way.

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// camelMessage is one message of a CAMEL chat: its sender's role name
// ("Stock Trader"), its role type (USER for the AI user, who instructs,
// ASSISTANT for the AI assistant, who solves) and its chat role.
type camelMessage struct {
	RoleName string  `json:"role_name"`
	RoleType string  `json:"role_type"`
	Role     string  `json:"role"`
	Content  content `json:"content"`
}

// camelChat reads data as a CAMEL chat when it has one: an object whose
// messages are its fields message_1, message_2, … in the order of their
// numbers, beside the roles (role_1, role_2) and the task as specified
// (specified_task, else original_task). ok is false for an object with
// no such message. Both of CAMEL's roles are agents, so the AI user's
// instructions are agents' turns; a chat whose file names no task (the
// math and science datasets', whose messages are their texts alone) takes
// the first message's text for it, as a transcript does.
func camelChat(data []byte, o *fileObject) (c *Case, ok bool, err error) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil {
		return nil, false, nil
	}
	type numbered struct {
		n   int
		key string
	}
	var keys []numbered
	for k := range fields {
		rest, found := strings.CutPrefix(k, "message_")
		if !found {
			continue
		}
		if n, err := strconv.Atoi(rest); err == nil && n > 0 && strconv.Itoa(n) == rest {
			keys = append(keys, numbered{n, k})
		}
	}
	if len(keys) == 0 {
		return nil, false, nil
	}
	slices.SortFunc(keys, func(a, b numbered) int { return cmp.Compare(a.n, b.n) })
	roles := map[string]string{} // role type → role name, from role_1 and role_2
	for _, k := range []string{"role_1", "role_2"} {
		var v string
		if json.Unmarshal(fields[k], &v) == nil {
			if name, kind, found := strings.Cut(v, "_RoleType."); found {
				roles[strings.ToUpper(kind)] = name
			}
		}
	}
	msgs := make([]message, 0, len(keys))
	for _, k := range keys {
		var m camelMessage
		raw := bytes.TrimSpace(fields[k.key])
		if len(raw) > 0 && raw[0] == '"' {
			// The math and science datasets keep each message as its
			// text alone: the problem the AI user poses, then the AI
			// assistant's solution.
			m.RoleType = "USER"
			if k.n%2 == 0 {
				m.RoleType = "ASSISTANT"
			}
			if err := json.Unmarshal(raw, &m.Content); err != nil {
				return nil, true, fmt.Errorf("%s: %w", k.key, jsonError(raw, err))
			}
		} else if err := json.Unmarshal(raw, &m); err != nil {
			return nil, true, fmt.Errorf("%s: %w", k.key, jsonError(raw, err))
		}
		kind := strings.ToUpper(m.RoleType)
		role := m.Role
		if role == "" {
			role = strings.ToLower(kind)
		}
		msgs = append(msgs, message{Role: role, Name: firstNonEmpty(m.RoleName, roles[kind]), Content: m.Content})
	}
	var task struct {
		Specified string `json:"specified_task"`
		Original  string `json:"original_task"`
	}
	_ = json.Unmarshal(data, &task) // either may be missing or of another type
	meta := *o
	meta.Question = firstNonEmpty(strings.TrimSpace(o.Question), strings.TrimSpace(task.Specified), strings.TrimSpace(task.Original))
	r, err := transcript(msgs, &meta)
	if err != nil {
		return nil, true, fmt.Errorf("CAMEL chat: %w", err)
	}
	c, err = o.labelled(r)
	return c, true, err
}
