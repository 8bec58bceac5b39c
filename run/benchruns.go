package run

// Trajectories that benchmarks and their papers publish in files of their
// own: ToolBench's answer trees (DFSDT's answer_generation, its
// train_messages), the multi-agent debates that keep each agent's own
// contexts under the question they answer, and MetaGPT's saved team,
// whose messages are its roles' memories.

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// answerTree reads a ToolBench answer ({"answer_generation": {"query",
// "train_messages": [[messages], …], "final_answer", …}, "win", …}): each
// list of train_messages is the conversation up to one of the model's
// turns, so the longest is the whole run; the query is its task. ok is
// false for any other object.
func answerTree(data []byte) (msgs []message, query string, ok bool) {
	var top struct {
		Generation *struct {
			Query         string      `json:"query"`
			TrainMessages [][]message `json:"train_messages"`
		} `json:"answer_generation"`
	}
	if json.Unmarshal(data, &top) != nil || top.Generation == nil {
		return nil, "", false
	}
	for _, list := range top.Generation.TrainMessages {
		if len(list) > len(msgs) {
			msgs = list
		}
	}
	if len(msgs) == 0 {
		return nil, "", false
	}
	for _, m := range msgs {
		if !m.said() {
			return nil, "", false
		}
	}
	return msgs, strings.TrimSpace(top.Generation.Query), true
}

// agentContexts reads the debates that save, under each question, each
// agent's own context and the answer ({QUESTION: [[[messages], …],
// ANSWER]}, as the multi-agent debate of Du et al. writes them): each
// question is a run, its task the question and its ground truth the
// answer, then each round's replies, in the order the agents are listed,
// the first agent's named "agent 1". The prompts each agent was given
// relay the others' replies, and are not read again. A label beside a
// file's one question is that run's. ok is false for any other object.
func agentContexts(data []byte) (cases []*Case, ok bool, err error) {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return nil, false, nil
	}
	var questions []string
	for _, k := range objectKeys(data) {
		if !labelKeys[k] {
			questions = append(questions, k)
		}
	}
	if len(questions) == 0 {
		return nil, false, nil
	}
	runs := make([][]dumpMessage, len(questions))
	answers := make([]json.RawMessage, len(questions))
	for i, q := range questions {
		var pair []json.RawMessage
		var agents [][]message
		if strings.TrimSpace(q) == "" || json.Unmarshal(top[q], &pair) != nil || len(pair) != 2 || json.Unmarshal(pair[0], &agents) != nil || len(agents) < 2 {
			return nil, false, nil
		}
		replies := make([][]string, len(agents))
		rounds := 0
		for a, list := range agents {
			for _, m := range list {
				if !m.said() {
					return nil, false, nil
				}
				if normalRole(m.Role) == "assistant" {
					replies[a] = append(replies[a], m.Content.text)
				}
			}
			rounds = max(rounds, len(replies[a]))
		}
		if rounds == 0 {
			return nil, false, nil
		}
		out := []dumpMessage{{chatMessage: chatMessage{Role: "user", Text: q}}}
		for r := range rounds {
			for a := range agents {
				if r < len(replies[a]) {
					out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: "agent " + strconv.Itoa(a+1), Text: replies[a][r]}})
				}
			}
		}
		runs[i], answers[i] = out, pair[1]
	}
	var beside *fileObject
	if len(questions) == 1 {
		var o map[string]any
		_ = json.Unmarshal(data, &o) // read above as an object
		beside = labelOf(o)
	}
	for i, ms := range runs {
		meta := &fileObject{Question: questions[i], GroundTruth: answers[i]}
		if beside != nil {
			meta.MistakeAgent, meta.MistakeStep, meta.MistakeReason = beside.MistakeAgent, beside.MistakeStep, beside.MistakeReason
		}
		c, _, err := dumpCaseOfMessages(ms, meta)
		if err != nil {
			return nil, true, fmt.Errorf("question %d: %w", i+1, err)
		}
		if len(runs) > 1 {
			c.Run.TraceID = strconv.Itoa(i + 1)
		}
		cases = append(cases, c)
	}
	return cases, true, nil
}

// teamMemories reads MetaGPT's saved team ({"env": {"roles": {NAME:
// {"rc": {"memory": {"storage": [messages]}}}}, "history"}, "idea"}):
// the environment's history, when it is a memory of its own, else every
// role's memory in the order the team lists them, each message once (by
// its id) where it is first kept. The idea is the task. ok is false for any other
// object.
func teamMemories(data []byte) (msgs []message, idea string, ok bool) {
	type memory struct {
		Storage []json.RawMessage `json:"storage"`
	}
	var team struct {
		Idea string `json:"idea"`
		Env  *struct {
			Roles   json.RawMessage `json:"roles"`
			History json.RawMessage `json:"history"`
		} `json:"env"`
	}
	if json.Unmarshal(data, &team) != nil || team.Env == nil {
		return nil, "", false
	}
	var lists [][]json.RawMessage
	var h memory
	if json.Unmarshal(team.Env.History, &h) == nil && len(h.Storage) > 0 {
		lists = append(lists, h.Storage)
	} else {
		var roles map[string]struct {
			RC struct {
				Memory memory `json:"memory"`
			} `json:"rc"`
		}
		if json.Unmarshal(team.Env.Roles, &roles) != nil {
			return nil, "", false
		}
		for _, name := range objectKeys(team.Env.Roles) {
			if st := roles[name].RC.Memory.Storage; len(st) > 0 {
				lists = append(lists, st)
			}
		}
	}
	var order []json.RawMessage
	seen := map[string]bool{}
	for _, list := range lists {
		for _, raw := range list {
			var m struct {
				ID string `json:"id"`
			}
			_ = json.Unmarshal(raw, &m)
			if m.ID != "" && seen[m.ID] {
				continue
			}
			seen[m.ID] = true
			order = append(order, raw)
		}
	}
	if len(order) == 0 {
		return nil, "", false
	}
	msgs = make([]message, len(order))
	for i, raw := range order {
		if json.Unmarshal(raw, &msgs[i]) != nil || !msgs[i].said() {
			return nil, "", false
		}
	}
	return msgs, strings.TrimSpace(team.Idea), true
}

// bfclEntry is an entry of a step of BFCL's multi-turn inference log:
// the model's input, its output, the handler's note on decoding it (with
// the calls decoded) or a call's result.
type bfclEntry struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	Decoded []string        `json:"model_response_decoded"`
}

// bfclRecords reads the Berkeley Function Calling Leaderboard's
// multi-turn results (one record a line: {"id", "result",
// "inference_log": [{"begin_of_turn_query": [messages], "step_0":
// [entries], …}, …]}): each record is a run, named by its id as a
// harness's records are (recordNames), each turn's query the
// user's messages, each step the model's output, making the calls the
// handler decoded from it, then those calls' results in order. The
// model's inputs repeat what came before, and are not read again. A label
// record beside a file's one record is that run's. ok is false when data
// is no such records.
func bfclRecords(data []byte) (cases []*Case, ok bool, err error) {
	values, err := decodeStream(data)
	if err != nil || len(values) == 0 {
		return nil, false, nil
	}
	values, beside := withoutLabelRecord(values)
	if len(values) == 0 || beside != nil && len(values) != 1 {
		return nil, false, nil
	}
	type record struct {
		ID           json.RawMessage   `json:"id"`
		InferenceLog []json.RawMessage `json:"inference_log"`
	}
	recs := make([]record, len(values))
	names := make([]string, len(values))
	for i, v := range values {
		if json.Unmarshal(v, &recs[i]) != nil || len(recs[i].InferenceLog) == 0 {
			return nil, false, nil
		}
		names[i] = strings.TrimSpace(scalarString(recs[i].ID))
	}
	if len(recs) > 1 {
		names = recordNames(names)
	}
	for i, rec := range recs {
		var ms []dumpMessage
		for t, turn := range rec.InferenceLog {
			var fields map[string]json.RawMessage
			if json.Unmarshal(turn, &fields) != nil {
				return nil, false, nil
			}
			for _, key := range objectKeys(turn) {
				if key == "begin_of_turn_query" {
					var query []message
					if json.Unmarshal(fields[key], &query) != nil {
						return nil, false, nil
					}
					for _, q := range query {
						ms = append(ms, dumpMessage{chatMessage: chatMessage{Role: normalRole(q.Role), Text: q.Content.text}})
					}
					continue
				}
				var entries []bfclEntry
				if !strings.HasPrefix(key, "step_") || json.Unmarshal(fields[key], &entries) != nil {
					return nil, false, nil
				}
				ms = append(ms, bfclStep(entries, fmt.Sprintf("%d-%s", t, key))...)
			}
		}
		meta := &fileObject{}
		if beside != nil {
			meta = beside
		}
		c, said, err := dumpCaseOfMessages(ms, meta)
		name := names[i]
		if err != nil {
			return nil, true, fmt.Errorf("run %s: %w", name, err)
		}
		if !said {
			return nil, true, fmt.Errorf("run %s: no message says anything", name)
		}
		if len(values) > 1 {
			c.Run.TraceID = name
		}
		cases = append(cases, c)
	}
	return cases, true, nil
}

// bfclStep is one step of a turn: the model's output with the calls
// decoded from it, then their results, each answering the call in its
// place.
func bfclStep(entries []bfclEntry, id string) []dumpMessage {
	var out []dumpMessage
	reply := -1
	results := 0
	for _, e := range entries {
		switch e.Role {
		case "inference_output":
			text := scalarString(e.Content)
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Text: text}})
			reply = len(out) - 1
		case "handler_log":
			if reply < 0 {
				continue
			}
			for k, d := range e.Decoded {
				if c, ok := pyLiteralCall(strings.TrimSpace(d)); ok {
					c.ID = fmt.Sprintf("%s-%d", id, k)
					out[reply].Calls = append(out[reply].Calls, c)
				}
			}
		case "tool":
			m := dumpMessage{chatMessage: chatMessage{Role: "tool", Text: scalarString(e.Content)}}
			if reply >= 0 && results < len(out[reply].Calls) {
				m.CallID = out[reply].Calls[results].ID
				m.tool = out[reply].Calls[results].Name
			}
			results++
			out = append(out, m)
		}
	}
	return out
}
