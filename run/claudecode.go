package run

// Claude Code's session logs, as the Claude Agent SDK writes them too
// (~/.claude/projects/DIR/SESSION.jsonl): one record a line, {"type":
// "user" | "assistant" | …, "uuid", "parentUuid", "isSidechain",
// "message": {"role", "content"}, "toolUseResult"}, each content block of
// a reply a record of its own. A sub-agent that the Task (Agent) tool
// starts writes its records as a sidechain: in the same file, or, in
// newer versions, in SESSION/subagents/agent-ID.jsonl beside it, which
// the reading of SESSION.jsonl takes in where the call's result names
// the agent.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// claudeMainAgent names the session's own agent; a sub-agent is named by
// its type.
const claudeMainAgent = "assistant"

// claudeRecord is a record of a Claude Code session log.
type claudeRecord struct {
	Type             string `json:"type"`
	Timestamp        string `json:"timestamp"`
	UUID             string `json:"uuid"`
	ParentUUID       string `json:"parentUuid"`
	IsSidechain      bool   `json:"isSidechain"`
	IsMeta           bool   `json:"isMeta"`
	IsCompactSummary bool   `json:"isCompactSummary"`
	AgentID          string `json:"agentId"`
	AttributionAgent string `json:"attributionAgent"`
	// Origin says what wrote a user record that the user did not: a
	// background sub-agent's notice that it finished, for one.
	Origin *struct {
		Kind string `json:"kind"`
	} `json:"origin"`
	Message *claudeMessage `json:"message"`
	// ToolUseResult is what the tool returned, beside the result given to
	// the model; read only for the sub-agent it names.
	ToolUseResult json.RawMessage `json:"toolUseResult"`
}

// claudeAgentResult is what the call of a sub-agent returned: the agent it
// ran, and whether it runs on in the background ("async_launched").
type claudeAgentResult struct {
	AgentID   string `json:"agentId"`
	AgentType string `json:"agentType"`
	Status    string `json:"status"`
}

type claudeMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// claudePart is a content block: text, thinking, tool_use or tool_result.
type claudePart struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// claudeSubagent is what a sub-agent's call gives as its input.
type claudeSubagent struct {
	SubagentType string `json:"subagent_type"`
	Prompt       string `json:"prompt"`
}

// claudeSession reads the records of one session.
type claudeSession struct {
	steps []Step
	// stamps are when each step was written, zero where unknown; at is
	// the time of the record being read.
	stamps []time.Time
	at     time.Time
	// background are the steps of sub-agents that ran in the background,
	// each group to be laid among the session's steps by time.
	background []timedSteps
	// agentOf names the agent of each sidechain record read, by uuid: a
	// record in a sidechain is its parent's agent's.
	agentOf map[string]string
	// prompts are the sub-agent types of the calls that started one, by
	// the prompt given: a sidechain starts with that prompt.
	prompts map[string]string
	// byID names the agent of each sidechain, by its agentId.
	byID map[string]string
	// said is the last message of each agent.
	said map[string]string
	// targets are the sub-agent types of the calls that start one, by
	// the call's id.
	targets map[string]string
	// subagent reads the log of the sub-agent of an id, kept beside the
	// session's file; nil when there is no such file.
	subagent func(id string) ([]byte, string, error)
}

// claudeCode reads a Claude Code session log. path is the file's name,
// for the sub-agents' logs beside it, read as opts say any input is;
// empty for data read otherwise.
func claudeCode(data []byte, path string, opts Options) (*Case, error) {
	s := &claudeSession{agentOf: map[string]string{}, prompts: map[string]string{}, byID: map[string]string{}, said: map[string]string{}, targets: map[string]string{}}
	if path != "" {
		s.subagent = subagentLogs(path, opts)
	}
	if err := s.read(data, ""); err != nil {
		return nil, err
	}
	s.steps, _ = layByTime(s.steps, s.stamps, s.background)
	if len(s.steps) == 0 {
		return nil, fmt.Errorf("%w: a Claude Code session log with no message", errNotSessionLog)
	}
	r := &Run{Format: FormatClaudeCode, Steps: s.steps}
	for _, st := range r.Steps {
		if st.Kind == KindUser {
			r.Question = strings.TrimSpace(st.Content)
			break
		}
	}
	return &Case{Run: r}, nil
}

// IsSessionDir reports whether dir is the directory a Claude Code session
// keeps beside its log (SESSION/ beside SESSION.jsonl, holding its
// sub-agents' logs): reading the log reads them, so a walk over runs
// leaves the directory out.
func IsSessionDir(dir string) bool {
	log, err := os.Stat(filepath.Clean(dir) + ".jsonl")
	if err != nil || !log.Mode().IsRegular() {
		return false
	}
	sub, err := os.Stat(filepath.Join(dir, "subagents"))
	return err == nil && sub.IsDir()
}

// subagentLogs finds the sub-agents' logs of the session in path:
// SESSION/subagents/agent-ID.jsonl beside SESSION.jsonl.
func subagentLogs(path string, opts Options) func(id string) ([]byte, string, error) {
	dir := filepath.Join(strings.TrimSuffix(path, filepath.Ext(path)), "subagents")
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil
	}
	return func(id string) ([]byte, string, error) {
		if id == "" || strings.ContainsAny(id, `/\`) || strings.Contains(id, "..") {
			return nil, "", nil
		}
		name := filepath.Join(dir, "agent-"+id+".jsonl")
		data, err := readBeside(name, opts) // within --max-input, as the session's own log
		if errors.Is(err, os.ErrNotExist) {
			return nil, name, nil
		}
		return data, name, err
	}
}

// read reads the records of data, a session's log or a sub-agent's; agent
// names the sub-agent whose log it is, empty for the session's.
func (s *claudeSession) read(data []byte, agent string) error {
	return eachLine(data, func(_ int, v json.RawMessage) error {
		var rec claudeRecord
		if err := json.Unmarshal(v, &rec); err != nil {
			return jsonError(v, err)
		}
		if (rec.Type != "user" && rec.Type != "assistant") || rec.Message == nil || rec.IsMeta || rec.IsCompactSummary {
			// A record of the session's own bookkeeping; a sidechain's
			// next record may name it as its parent.
			if who, ok := s.agentOf[rec.ParentUUID]; ok && rec.IsSidechain && rec.UUID != "" {
				s.agentOf[rec.UUID] = who
			}
			return nil
		}
		s.at, _ = time.Parse(time.RFC3339Nano, rec.Timestamp)
		return s.record(&rec, agent)
	})
}

// record reads one user or assistant record.
func (s *claudeSession) record(rec *claudeRecord, agent string) error {
	who, root := s.agent(rec, agent)
	parts, err := claudeParts(rec.Message.Content)
	if err != nil {
		return fmt.Errorf("message.content: %w", err)
	}
	for _, p := range parts {
		switch p.Type {
		case "text":
			if strings.TrimSpace(p.Text) == "" {
				continue
			}
			if rec.Type == "assistant" {
				s.add(Step{Agent: who, Role: "assistant", Kind: KindMessage, Content: p.Text, Extra: &Extra{From: "text"}})
				s.said[who] = p.Text
				continue
			}
			if root && who != claudeMainAgent {
				if _, ok := s.prompts[p.Text]; ok {
					continue // the prompt of the call that started the sub-agent, read as that call
				}
			}
			if rec.Origin != nil && rec.Origin.Kind == "task-notification" {
				s.notification(p.Text, who)
				continue
			}
			s.add(Step{Agent: "user", Role: "user", Kind: KindUser, Content: p.Text, Extra: &Extra{From: "text"}})
		case "tool_use":
			s.toolUse(p, who)
		case "tool_result":
			res := agentResult(rec)
			async := res.Status == "async_launched"
			var answer string
			if !async {
				if answer, err = s.subagentOf(res, p.ToolUseID); err != nil {
					return err
				}
			}
			texts, err := claudeResultTexts(p.Content)
			if err != nil {
				return fmt.Errorf("tool_result %s: %w", p.ToolUseID, err)
			}
			if answer != "" && len(texts) > 0 && texts[0] == answer {
				// The sub-agent's answer, read as its own step; the
				// rest is the CLI's note of the agent's id and usage.
				continue
			}
			text := strings.Join(texts, "\n")
			if p.IsError {
				text = errorText(text)
			}
			s.add(Step{Agent: who, Role: "tool", Kind: KindToolResult, Content: text, Extra: &Extra{ToolCallID: p.ToolUseID, From: "tool_result"}})
			if async {
				// Launched to run in the background: its steps come
				// after the launch, among the session's by time, and its
				// answer in a notification.
				if err := s.inBackground(func() error {
					_, err := s.subagentOf(res, p.ToolUseID)
					return err
				}); err != nil {
					return err
				}
			}
		}
		// thinking and redacted_thinking are not what the agent said;
		// images and documents say nothing as text.
	}
	return nil
}

// agent names the agent of rec, and reports whether rec starts its
// chain: a sidechain's first record is the prompt its sub-agent was given.
func (s *claudeSession) agent(rec *claudeRecord, agent string) (string, bool) {
	if agent == "" && !rec.IsSidechain {
		return claudeMainAgent, rec.ParentUUID == ""
	}
	parent, known := s.agentOf[rec.ParentUUID]
	who := agent
	switch {
	case who != "":
	case rec.AttributionAgent != "":
		who = rec.AttributionAgent
	case s.byID[rec.AgentID] != "":
		who = s.byID[rec.AgentID]
	case known:
		who = parent
	default:
		who = s.promptAgent(rec)
	}
	if rec.AgentID != "" && s.byID[rec.AgentID] == "" && who != unnamedSubagent {
		s.byID[rec.AgentID] = who
	}
	s.agentOf[rec.UUID] = who
	return who, !known
}

// promptAgent is the type of the sub-agent whose prompt rec gives, as the
// call that started it named it; unnamedSubagent when no call did.
func (s *claudeSession) promptAgent(rec *claudeRecord) string {
	if parts, err := claudeParts(rec.Message.Content); err == nil {
		for _, p := range parts {
			if t := s.prompts[p.Text]; p.Type == "text" && t != "" {
				return t
			}
		}
	}
	return unnamedSubagent
}

// unnamedSubagent names a sub-agent that neither its records nor the call
// that started it name.
const unnamedSubagent = "subagent"

// toolUse reads a call. A call that starts a sub-agent (its input names a
// subagent_type) is addressed to it.
func (s *claudeSession) toolUse(p claudePart, who string) {
	c := ToolCall{ID: p.ID, Name: cleanName(p.Name), Arguments: compactJSON(p.Input)}
	e := &Extra{ToolCalls: []ToolCall{c}, From: "tool_use"}
	var sub claudeSubagent
	if isObject(p.Input) && json.Unmarshal(p.Input, &sub) == nil && cleanName(sub.SubagentType) != "" {
		sub.SubagentType = cleanName(sub.SubagentType) // an agent's name is printed and may name files
		e.Target = sub.SubagentType
		s.targets[p.ID] = sub.SubagentType
		if sub.Prompt != "" {
			s.prompts[sub.Prompt] = sub.SubagentType
		}
	}
	s.add(Step{Agent: who, Role: "assistant", Kind: KindToolCall, Content: callText(e.ToolCalls), Extra: e})
}

// agentResult reads what a call's result record says of the sub-agent it
// ran; its AgentID is empty when it names none.
func agentResult(rec *claudeRecord) claudeAgentResult {
	var res claudeAgentResult
	if isObject(rec.ToolUseResult) && json.Unmarshal(rec.ToolUseResult, &res) != nil {
		return claudeAgentResult{}
	}
	return res
}

// subagentOf reads the log of the sub-agent that the call callID ran
// (res), when that log is a file of its own and its records were not in
// this one. It returns the sub-agent's last message when its steps are
// in the run, read here or before: the call's result repeats it.
func (s *claudeSession) subagentOf(res claudeAgentResult, callID string) (string, error) {
	if res.AgentID == "" {
		return "", nil
	}
	if who, read := s.byID[res.AgentID]; read {
		return s.said[who], nil
	}
	if s.subagent == nil {
		return "", nil
	}
	data, name, err := s.subagent(res.AgentID)
	if err != nil {
		return "", fmt.Errorf("sub-agent log %s: %w", name, err)
	}
	if data == nil {
		return "", nil
	}
	who := firstNonEmpty(cleanName(res.AgentType), s.targets[callID], unnamedSubagent)
	s.byID[res.AgentID] = who
	delete(s.said, who)
	if err := s.read(data, who); err != nil {
		return "", fmt.Errorf("sub-agent log %s: %w", name, err)
	}
	return s.said[who], nil
}

// notification reads the notice, given to the agent who as a user
// message, that a sub-agent running in the background finished: the
// sub-agent's answer, read as the result of the call that started it,
// unless the sub-agent's own steps hold it.
func (s *claudeSession) notification(text, who string) {
	id, result := tagText(text, "task-id"), tagText(text, "result")
	if agent, read := s.byID[id]; read && result != "" && result == strings.TrimSpace(s.said[agent]) {
		return
	}
	s.add(Step{Agent: who, Role: "tool", Kind: KindToolResult, Content: text, Extra: &Extra{ToolCallID: tagText(text, "tool-use-id"), From: "task-notification"}})
}

// tagText is the trimmed text between <tag> and </tag> in text, or "".
func tagText(text, tag string) string {
	_, rest, ok := strings.Cut(text, "<"+tag+">")
	if !ok {
		return ""
	}
	inner, _, ok := strings.Cut(rest, "</"+tag+">")
	if !ok {
		return ""
	}
	return strings.TrimSpace(inner)
}

func (s *claudeSession) add(st Step) {
	s.steps = append(s.steps, st)
	s.stamps = append(s.stamps, s.at)
}

// inBackground runs read, which reads a sub-agent's log, keeping the
// steps it adds to be laid among the session's by time.
func (s *claudeSession) inBackground(read func() error) error {
	steps, stamps, at := s.steps, s.stamps, s.at
	s.steps, s.stamps = nil, nil
	err := read()
	if len(s.steps) > 0 {
		s.background = append(s.background, timedSteps{after: len(steps) - 1, steps: s.steps, stamps: s.stamps})
	}
	s.steps, s.stamps, s.at = steps, stamps, at
	return err
}

// claudeParts reads a message's content: a string (a user's text) or
// content blocks.
func claudeParts(raw json.RawMessage) ([]claudePart, error) {
	text, isText, err := stringOrNull(raw)
	if err != nil || isText {
		return []claudePart{{Type: "text", Text: text}}, err
	}
	var parts []claudePart
	if err := json.Unmarshal(raw, &parts); err != nil {
		return nil, jsonError(raw, err)
	}
	return parts, nil
}

// claudeResultTexts reads a tool result's content: a string, or blocks
// whose texts are taken in order.
func claudeResultTexts(raw json.RawMessage) ([]string, error) {
	parts, err := claudeParts(raw)
	if err != nil {
		return nil, err
	}
	var texts []string
	for _, p := range parts {
		if p.Type == "text" && p.Text != "" {
			texts = append(texts, p.Text)
		}
	}
	return texts, nil
}
