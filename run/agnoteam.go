package run

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"unicode"
)

// agnoTeamRun reads an Agno team's run as its response is saved
// (TeamRunOutput's, earlier TeamRunResponse's to_dict(): {"team_id",
// "team_name", "messages": […], "member_responses": [runs…]…}). The
// leader's messages are OpenAI's chat messages, its own steps; a
// delegation among its calls (a member named by member_id, as
// delegate_task_to_member and transfer_task_to_member take it, or every
// member where the call names none, as run_member_agents runs them) is
// followed by that member's run: its messages after the task it was
// handed, its system prompt and that task left out, and its answer,
// which the leader's result of the call only repeats, the last of them.
// A member is named by its agent_name (a sub-team by its team_name), the
// leader by the team's name; a member's own members are read the same
// way. The leader's messages replayed from the session's history
// (from_history) are its conversation's earlier turns, kept as a
// transcript keeps them; a member's are not its steps, which begin
// where it was handed its task. ok is false for any object without
// member runs.
func agnoTeamRun(data []byte) ([]dumpMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var run map[string]any
	if dec.Decode(&run) != nil {
		return nil, false
	}
	if !objectsWith(run["member_responses"], "messages") {
		return nil, false
	}
	targets := map[string]string{} // a delegation's call id → the one member it hands its task to
	ms := agentsMessages(agnoMessages(withoutNulls(run).(map[string]any), false, 0, targets), nil)
	for i := range ms {
		if len(ms[i].Calls) == 1 {
			ms[i].target = targets[ms[i].Calls[0].ID]
		}
	}
	return ms, len(ms) > 0
}

// agnoMessages is the messages of one Agno run, a member's (handed its
// task by the leader's call) or the team's, its members' among them;
// targets gets the member each delegation that names one hands its task
// to, by the call's id.
func agnoMessages(run map[string]any, member bool, depth int, targets map[string]string) []any {
	name := agnoName(run)
	msgs, _ := run["messages"].([]any)
	members, _ := run["member_responses"].([]any)
	if depth > 8 { // teams nested deeper than any a user builds: read the leader's messages alone
		members = nil
	}
	used := make([]bool, len(members))
	answered := map[string]bool{} // the leader's delegations a member's run follows
	var out []any
	byID := agnoMemberIDs(members)
	unused := 0 // the member runs not yet handed a task
	for _, mr := range members {
		if _, ok := mr.(map[string]any); ok {
			unused++
		}
	}
	take := func(i int, cid string) {
		used[i] = true
		unused--
		answered[cid] = true
		out = append(out, agnoMessages(members[i].(map[string]any), true, depth+1, targets)...)
	}
	said := false // the run's agent has spoken: a member's task is behind it
	for _, e := range msgs {
		m, ok := e.(map[string]any)
		if !ok || member && m["from_history"] == true {
			continue
		}
		role := normalRole(stringOrEmpty(m["role"]))
		switch {
		case member && (role == "system" || role == "user" && !said):
			continue
		case role == "tool" && answered[stringOrEmpty(m["tool_call_id"])]:
			continue
		case role == "assistant":
			said = true
			if stringOrEmpty(m["name"]) == "" && name != "" {
				m = cloneWith(m, "name", name)
			}
		}
		out = append(out, m)
		if role != "assistant" {
			continue
		}
		calls, _ := m["tool_calls"].([]any)
		for _, c := range calls {
			cm, _ := c.(map[string]any)
			fn, _ := cm["function"].(map[string]any)
			var args map[string]any
			_ = json.Unmarshal([]byte(textOf(fn["arguments"])), &args)
			id, cid := stringOrEmpty(args["member_id"]), stringOrEmpty(cm["id"])
			if id == "" {
				// A call of a tool of the members that names none hands
				// the task to every member.
				if unused == 0 || !strings.Contains(strings.ToLower(stringOrEmpty(fn["name"])), "member") {
					continue
				}
				for i, mr := range members {
					if r, _ := mr.(map[string]any); r != nil && !used[i] {
						take(i, cid)
					}
				}
				continue
			}
			// The first member not yet handed a task that the id names.
			ids := byID[strings.ToLower(strings.TrimSpace(id))]
			for len(ids) > 0 && used[ids[0]] {
				ids = ids[1:]
			}
			byID[strings.ToLower(strings.TrimSpace(id))] = ids
			if len(ids) == 0 {
				continue
			}
			take(ids[0], cid)
			if cid != "" {
				targets[cid] = agnoName(members[ids[0]].(map[string]any))
			}
		}
	}
	// Members whose delegation the leader's messages do not show ran
	// before its last word.
	var rest []any
	for i, mr := range members {
		if r, ok := mr.(map[string]any); ok && !used[i] {
			rest = append(rest, agnoMessages(r, true, depth+1, targets)...)
		}
	}
	if len(rest) > 0 {
		at := len(out)
		if at > 0 {
			if last, ok := out[at-1].(map[string]any); ok && normalRole(stringOrEmpty(last["role"])) == "assistant" && last["tool_calls"] == nil {
				at--
			}
		}
		out = append(out[:at:at], append(rest, out[at:]...)...)
	}
	return out
}

// agnoName is the agent an Agno run is of: its agent's name, a team's
// name, else its id.
func agnoName(run map[string]any) string {
	return strings.TrimSpace(firstNonEmpty(stringOrEmpty(run["agent_name"]), stringOrEmpty(run["team_name"]), stringOrEmpty(run["agent_id"]), stringOrEmpty(run["team_id"])))
}

// agnoMemberIDs indexes the member runs by the ids a delegation may name
// each by, in lower case: its agent_id or team_id, or its name as Agno
// makes an id of it (lower case, words joined by hyphens), each id's
// runs in their order. Looking a call's id up once keeps a run of many
// members and many calls linear in its size.
func agnoMemberIDs(members []any) map[string][]int {
	byID := map[string][]int{}
	for i, mr := range members {
		r, _ := mr.(map[string]any)
		var ids []string
		for _, k := range []string{"agent_id", "team_id", "agent_name", "team_name"} {
			if v := stringOrEmpty(r[k]); v != "" {
				for _, id := range []string{strings.ToLower(v), urlSafe(v)} {
					if !slices.Contains(ids, id) {
						ids = append(ids, id)
					}
				}
			}
		}
		for _, id := range ids {
			byID[id] = append(byID[id], i)
		}
	}
	return byID
}

// urlSafe is name as Agno makes an id of it: lower case, each run of
// characters other than letters and digits a hyphen.
func urlSafe(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(strings.TrimSpace(name)) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// cloneWith is a copy of m with k set to v.
func cloneWith(m map[string]any, k string, v any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for key, val := range m {
		out[key] = val
	}
	out[k] = v
	return out
}
