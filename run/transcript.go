package run

// Who&When cases and chat transcripts: the object formats, read into
// runs.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/offattr/offattr/run/spans"
)

// fileObject is every field either object format carries. "task" is read
// raw: a Who&When file may use it for anything.
type fileObject struct {
	Question       string          `json:"question"`
	Task           json.RawMessage `json:"task"`
	GroundTruth    json.RawMessage `json:"ground_truth"`
	ExpectedAnswer json.RawMessage `json:"expected_answer"`
	History        history         `json:"history"`
	Messages       []message       `json:"messages"`
	// Storage is a MetaGPT memory's (Memory.model_dump()): its messages
	// in order, each also listed again under "index" by the action that
	// caused it.
	Storage       []message       `json:"storage"`
	MistakeAgent  string          `json:"mistake_agent"`
	MistakeStep   json.RawMessage `json:"mistake_step"`
	MistakeReason string          `json:"mistake_reason"`
	// InstanceID names the task of an OpenHands evaluation's record.
	InstanceID string `json:"instance_id"`
	// System and Instructions are a model API's request body's system
	// prompt beside its messages: Anthropic's and Bedrock Converse's
	// "system" (a text, or a list of text blocks), the Responses API's
	// "instructions", Gemini's system instruction (a content's parts, or
	// a text) under the REST API's key or the Python SDK's.
	System              json.RawMessage `json:"system"`
	Instructions        json.RawMessage `json:"instructions"`
	SystemInstruction   json.RawMessage `json:"systemInstruction"`
	SystemInstructionPy json.RawMessage `json:"system_instruction"`
	// requestTools are the tools a saved chat request declares beside
	// its messages.
	requestTools
	raw []byte // the object as read, for a history of another shape
}

func (o *fileObject) whoWhen() (*Case, error) {
	if len(o.History) > 0 && o.History[0].event() {
		// OpenHands' evaluation output: the history is its event stream.
		var h struct {
			History []json.RawMessage `json:"history"`
		}
		if err := json.Unmarshal(o.raw, &h); err != nil {
			return nil, err
		}
		events, err := unpaired(h.History)
		if err != nil {
			return nil, err
		}
		r, err := openHands(events)
		if err != nil {
			return nil, err
		}
		return o.labelled(r)
	}
	if len(o.History) > 0 && !slices.ContainsFunc(o.History, func(m message) bool { return !m.Parts.has() || m.Content.set }) {
		// Contents whose words are all in parts (Gemini's, as a chat
		// session's history or a saved checkpoint keeps them) under
		// "history": read as the framework's dump they are.
		if c, ok, err := dumpCase(o.raw, "history", o); ok {
			return c, err
		}
	}
	if len(o.History) > 0 && !o.History[0].said() {
		if ms, ok := browserUseHistory(o.raw, o); ok {
			// browser-use's saved agent history: its steps are the
			// model's outputs and their results.
			if c, ok, err := dumpCaseOfMessages(ms, o); ok {
				return c, err
			}
		}
	}
	fencedActions(o.History)
	r := &Run{Format: FormatWhoWhen, Question: strings.TrimSpace(o.Question), GroundTruth: scalarString(o.GroundTruth)}
	r.Steps = make([]Step, 0, len(o.History))
	names := nameSet{}
	for i, m := range o.History {
		s, err := m.step()
		if err != nil {
			return nil, fmt.Errorf("history[%d]: %w", i, err)
		}
		r.Steps = append(r.Steps, names.shared(s))
	}
	observations(o.History, r.Steps)
	textResults(o.History, r.Steps)
	sweAgentTools(o.History, r.Steps)
	r.Steps, r.turnStep = splitObservations(o.History, r.Steps)
	taskFromMessages(r)
	return o.labelled(r)
}

// history is a file's "history": its messages, or the events of an
// OpenHands session. OpenHands' earlier evaluation output wrote them as
// [action, observation] pairs; those are read one after another.
type history []message

func (h *history) UnmarshalJSON(data []byte) error {
	if rest := bytes.TrimLeft(data, " \t\r\n"); len(rest) == 0 || rest[0] != '[' || !bytes.HasPrefix(bytes.TrimLeft(rest[1:], " \t\r\n"), []byte("[")) {
		if err := json.Unmarshal(data, (*[]message)(h)); err != nil {
			return err
		}
		*h = unwrappedItems(*h)
		return nil
	}
	var pairs [][]message
	if err := json.Unmarshal(data, &pairs); err != nil {
		return err
	}
	*h = nil
	for _, p := range pairs {
		*h = append(*h, p...)
	}
	return nil
}

// unpaired returns the events of a history, each pair of an earlier
// OpenHands output (history) read as its two events.
func unpaired(events []json.RawMessage) ([]json.RawMessage, error) {
	var out []json.RawMessage
	for _, e := range events {
		if e = bytes.TrimSpace(e); len(e) == 0 || e[0] != '[' {
			out = append(out, e)
			continue
		}
		var pair []json.RawMessage
		if err := json.Unmarshal(e, &pair); err != nil {
			return nil, err
		}
		out = append(out, pair...)
	}
	return out, nil
}

// labelled returns r as a case with the label o carries, if any: the
// agent and the index of the decisive step, as offattr numbers the run's
// steps.
func (o *fileObject) labelled(r *Run) (*Case, error) {
	if o.MistakeAgent == "" && len(o.MistakeStep) == 0 {
		return &Case{Run: r}, nil
	}
	if len(o.MistakeStep) == 0 {
		return nil, fmt.Errorf("mistake_agent %s is given without a mistake_step", spans.QuoteForError(o.MistakeAgent))
	}
	step, err := strconv.Atoi(scalarString(o.MistakeStep))
	if err != nil {
		return nil, fmt.Errorf("mistake_step %s is not a step index", errorValue(o.MistakeStep))
	}
	if step >= 0 && step < len(r.turnStep) {
		// The label counts the file's messages; a turn read as several
		// steps is labelled at its first.
		step = r.turnStep[step]
	}
	return &Case{Run: r, Label: &Label{Agent: o.MistakeAgent, Step: step, Reason: o.MistakeReason}}, nil
}

// nameSet keeps one copy of each name a run's messages repeat: every
// message of a long run decoded its own agent and role.
type nameSet map[string]string

// of returns the copy of name kept, keeping name if there is none.
func (n nameSet) of(name string) string {
	if kept, ok := n[name]; ok {
		return kept
	}
	n[name] = name
	return name
}

// shared returns s with its agent, role and target the copies kept.
func (n nameSet) shared(s Step) Step {
	s.Agent, s.Role = n.of(s.Agent), n.of(s.Role)
	if s.Extra != nil { // the step's own, as message.step made it
		s.Extra.Target = n.of(s.Extra.Target)
	}
	return s
}

// caseOf wraps an unlabelled run.
func caseOf(r *Run, err error) (*Case, error) {
	if err != nil {
		return nil, err
	}
	return &Case{Run: r}, nil
}

func transcript(msgs []message, meta *fileObject) (*Run, error) {
	fencedActions(msgs)
	r := &Run{Format: FormatTranscript, Steps: make([]Step, 0, len(msgs))}
	if meta != nil {
		r.Question = strings.TrimSpace(firstNonEmpty(meta.Question, scalarString(meta.Task)))
		r.GroundTruth = firstNonEmpty(scalarString(meta.GroundTruth), scalarString(meta.ExpectedAnswer))
		r.Tools = meta.toolsOf()
		r.Instructions = meta.systemPrompt()
	}
	names := nameSet{}
	for i, m := range msgs {
		s, err := m.step()
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
		r.Steps = append(r.Steps, names.shared(s))
	}
	observations(msgs, r.Steps)
	textResults(msgs, r.Steps)
	sweAgentTools(msgs, r.Steps)
	clineSession(msgs, r.Steps)
	r.Steps, r.turnStep = splitObservations(msgs, r.Steps)
	screenObservations(r)
	fencedCommands(r)
	systemAnsweredBlocks(r)
	taskFromMessages(r)
	return r, nil
}

// systemPrompt returns the system prompt a request body keeps apart from
// its messages (System, Instructions, SystemInstruction), "" for none:
// not a step, as a label numbers the messages, but the run's
// instructions, whose policies and date the task then carries. A list
// of blocks is read for their texts; a value of another shape holds none.
func (o *fileObject) systemPrompt() string {
	if text := textBlocks(o.System); text != "" {
		return text
	}
	var text string
	if json.Unmarshal(o.Instructions, &text) == nil {
		return text
	}
	return geminiInstruction(o.SystemInstruction, o.SystemInstructionPy)
}

// geminiInstruction is the text of the first of raws that holds Gemini's
// system instruction (a text, text blocks, or a content's parts), "" for
// none.
func geminiInstruction(raws ...json.RawMessage) string {
	for _, raw := range raws {
		var content struct {
			Parts json.RawMessage `json:"parts"`
		}
		if text := textBlocks(raw); text != "" {
			return text
		}
		if json.Unmarshal(raw, &content) == nil {
			if text := textBlocks(content.Parts); text != "" {
				return text
			}
		}
	}
	return ""
}

// textBlocks is raw's text: a text, or a list of blocks' texts joined by
// blank lines; "" when it holds none.
func textBlocks(raw json.RawMessage) string {
	var text string
	if json.Unmarshal(raw, &text) == nil && strings.TrimSpace(text) != "" {
		return text
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) == nil {
		var texts []string
		for _, b := range blocks {
			if strings.TrimSpace(b.Text) != "" {
				texts = append(texts, b.Text)
			}
		}
		return strings.Join(texts, "\n\n")
	}
	return ""
}

// taskFromMessages gives a run whose file names no task the first user
// message's text: the first without a name of its own, else the one that
// opens the chat (openedByUser). Where that text is a prompt template
// stating its question on a labelled line (templateQuestion) and the run
// has no instructions of its own, the question is the task and the
// template's instructions become the run's; a run that has instructions
// keeps the whole text as its task.
func taskFromMessages(r *Run) {
	for _, s := range r.Steps {
		if s.Kind == KindUser {
			if r.Question == "" {
				r.Question = strings.TrimSpace(s.Content)
				if instructions, question, ok := templateQuestion(r.Question); ok && r.Instructions == "" {
					r.Question, r.Instructions = question, instructions
				}
			}
			return
		}
	}
	openedByUser(r)
}

// openedByUser reads a chat with no nameless user message whose first
// message after the system prompts is a user message under a name of its
// own (an AutoGen user proxy, a team's "Human"): that message opens the
// chat, so it gives the task, and its sender is the user there. Later
// user messages under names stay agents' turns, as in a group chat.
//
// A file that names its task too (a Who&When "question") is read so when
// that message posts the very task: the run's trace, which has no field
// for the task, shows that sender as the user, and the reading must not
// depend on which of the two the run was written as. The message may
// break the task's lines elsewhere.
func openedByUser(r *Run) {
	for i := range r.Steps {
		s := &r.Steps[i]
		if s.Kind == KindSystem {
			continue
		}
		text := strings.TrimSpace(s.Content)
		if s.Kind == KindMessage && (isUserRole(s.Role) || initiatorView(r.Steps, s.Agent)) && text != "" && (r.Question == "" || sameWords(text, r.Question)) {
			s.Kind = KindUser
			if r.Question == "" {
				r.Question = text
			}
		}
		return
	}
}

// initiatorView reports whether a two-party chat is saved as the agent
// that opened it, opener, keeps it (AG2's chat_history, an agent's
// chat_messages): its own messages, the opening one among them, under the
// assistant's role and the other party's under the user's. The opener
// speaks again (a user proxy answers code with its output), so a chat
// opened by one agent's reply to another is not read so.
func initiatorView(steps []Step, opener string) bool {
	own, other := 0, ""
	for _, s := range steps {
		switch {
		case s.Kind == KindSystem:
		case s.Kind != KindMessage || s.Agent == "":
			return false
		case s.Agent == opener:
			if !strings.EqualFold(s.Role, "assistant") {
				return false
			}
			own++
		case other == "" || s.Agent == other:
			if !isUserRole(s.Role) {
				return false
			}
			other = s.Agent
		default:
			return false // a third party: a group chat's speakers
		}
	}
	return own >= 2 && other != ""
}

// sameWords reports whether a and b are the same words, however spaced.
func sameWords(a, b string) bool {
	return slices.Equal(strings.Fields(a), strings.Fields(b))
}

// message is the union of the message shapes we read: Who&When history
// entries and OpenAI / AutoGen / AG2 chat messages.
type message struct {
	Role         string        `json:"role"`
	Name         string        `json:"name"`
	Content      content       `json:"content"`
	ToolCalls    []rawToolCall `json:"tool_calls"`
	FunctionCall *rawFunction  `json:"function_call"`
	ToolCallID   string        `json:"tool_call_id"`
	// ToolPlan is what Cohere's chat API (v2) has the model write before
	// the calls of a turn that only calls tools: its words of that turn.
	ToolPlan string `json:"tool_plan"`
	// Action and MessageType are SWE-agent's: the command line an
	// assistant's reply ran in the agent's shell, written in the reply's
	// text and again here, and "observation" for the message that gives
	// back what it printed.
	Action      string `json:"action"`
	MessageType string `json:"message_type"`
	// IsDemo marks a message of a demonstration SWE-agent shows before
	// the task: a solved session of another task, part of the prompt.
	IsDemo bool `json:"is_demo"`
	// Source and Observation are an OpenHands event's: a stream of them
	// is read by openHands, not as messages.
	Source      string `json:"source"`
	Observation string `json:"observation"`
	// Sender is the agent OpenAI Swarm marks each of its replies with
	// (response.messages: the assistant's message, "sender": the agent's
	// name).
	Sender string `json:"sender"`
	// Type and the fields marked present are the marks of the message
	// dumps frameworks write (dumped): a list holding one is read in
	// dumps.go.
	Type   string  `json:"type"`
	Data   present `json:"data"`
	Kwargs present `json:"kwargs"`
	Parts  listOf  `json:"parts"`
	Blocks listOf  `json:"blocks"`
	Items  listOf  `json:"items"`
	// Contents are the Agent Framework's (agentframework.go).
	Contents listOf `json:"contents"`
	// Options is LlamaIndex.TS's: the calls a message makes (toolCall)
	// or the call it answers (toolResult).
	Options toolOptions `json:"options"`
	// StepNumber, Task and SystemPrompt are smolagents' memory steps'.
	StepNumber   present `json:"step_number"`
	Task         present `json:"task"`
	SystemPrompt present `json:"system_prompt"`
	// DataclassRole is the role of Haystack's ChatMessage dumped as the
	// dataclass it is ({"_role", "_content", "_name", "_meta"}).
	DataclassRole present `json:"_role"`
	// Wrapped, ToolCallsCamel and ToolCallIDCamel are a Continue
	// session's: each history item holds its message under "message",
	// whose calls and result's call id are camelCase (unwrapped).
	Wrapped         json.RawMessage `json:"message"`
	ToolCallsCamel  []rawToolCall   `json:"toolCalls"`
	ToolCallIDCamel string          `json:"toolCallId"`
	// Format is the language of Open Interpreter's "code" message (its
	// Type), the code the interpreter's execute runs; its "console"
	// message is what that run printed.
	Format string `json:"format"`
}

// toolOptions records whether a message's options (LlamaIndex.TS's)
// make calls or answer one; options of any other shape, an object or not,
// record neither.
type toolOptions struct{ calls, answers bool }

func (o *toolOptions) UnmarshalJSON(b []byte) error {
	var opts map[string]json.RawMessage
	if json.Unmarshal(b, &opts) == nil {
		o.calls, o.answers = len(opts["toolCall"]) > 0 && string(opts["toolCall"]) != "null", len(opts["toolResult"]) > 0 && string(opts["toolResult"]) != "null"
	}
	return nil
}

// unwrappedItems returns h with each item that holds its message under
// "message" and is no message itself (a Continue session's history item,
// {"message", "contextItems"}) read as that message, its camelCase call
// fields as OpenAI's, and a model's thinking (role "thinking") left out:
// it is not what the model said.
func unwrappedItems(h []message) []message {
	holds := func(m message) bool {
		return !m.said() && len(m.Wrapped) > 0 && m.Wrapped[0] == '{'
	}
	if !slices.ContainsFunc(h, holds) {
		return h
	}
	out := make([]message, 0, len(h))
	for _, m := range h {
		if holds(m) {
			var inner message
			if json.Unmarshal(m.Wrapped, &inner) == nil {
				m = inner
			}
		}
		if m.Role == "thinking" {
			continue
		}
		if len(m.ToolCalls) == 0 {
			m.ToolCalls = m.ToolCallsCamel
		}
		if m.ToolCallID == "" {
			m.ToolCallID = m.ToolCallIDCamel
		}
		out = append(out, m)
	}
	return out
}

// event reports whether m is an OpenHands event rather than a chat
// message: it has a source, and an action or an observation, and no role.
func (m message) event() bool {
	return m.Role == "" && m.Source != "" && (m.Action != "" || m.Observation != "")
}

// named reports whether m says who wrote it, by its role or its name.
func (m message) named() bool {
	return strings.TrimSpace(m.Role) != "" || strings.TrimSpace(m.Name) != ""
}

// said reports whether m is a chat message at all: it has a role, a
// content (even an empty one) or calls.
func (m message) said() bool {
	return m.Role != "" || m.Content.set || len(m.ToolCalls) > 0 || m.FunctionCall != nil
}

type rawToolCall struct {
	ID       string      `json:"id"`
	Function rawFunction `json:"function"`
}

type rawFunction struct {
	Name      string    `json:"name"`
	Arguments arguments `json:"arguments"`
}

// content is a message's content, decoded to text (contentText) where the
// decoder meets it: kept raw to be decoded later, every message would be
// copied once more. What is wrong with it waits in err, so that a bad
// message is still reported after the whole file has decoded, by its
// index.
type content struct {
	text  string
	err   error
	set   bool // the message has a content, even an empty one
	tools bool // its parts call tools or give their results (toolPartTypes)
}

func (c *content) UnmarshalJSON(data []byte) error {
	c.text, c.err = contentText(excerptRawString(data))
	c.set = true
	c.tools = callsAmongParts(data)
	return nil
}

// callsAmongParts reports whether data, a message's content, is a list of
// parts one of which calls a tool or gives its result: by its type, or,
// as Bedrock's Converse API and Haystack write their parts, by its key
// (toolUse, toolResult; tool_call, tool_call_result).
func callsAmongParts(data []byte) bool {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '[' || !bytes.Contains(data, []byte(`tool`)) {
		return false
	}
	var parts []struct {
		Type       string          `json:"type"`
		ToolUse    json.RawMessage `json:"toolUse"`
		ToolResult json.RawMessage `json:"toolResult"`
		// Haystack's ChatMessage parts: {"tool_call": {…}} and
		// {"tool_call_result": {…}}.
		ToolCall       json.RawMessage `json:"tool_call"`
		ToolCallResult json.RawMessage `json:"tool_call_result"`
	}
	if json.Unmarshal(data, &parts) != nil {
		return false
	}
	for _, p := range parts {
		if toolPartTypes[p.Type] || len(p.ToolUse) > 0 || len(p.ToolResult) > 0 || len(p.ToolCall) > 0 || len(p.ToolCallResult) > 0 {
			return true
		}
	}
	return false
}

// arguments is a call's arguments as text (scalarString), decoded where
// the decoder meets them, as content is.
type arguments string

func (a *arguments) UnmarshalJSON(data []byte) error {
	*a = arguments(scalarString(excerptRawString(data)))
	return nil
}

// magenticRole matches Magentic-One roles such as "Orchestrator (-> WebSurfer)".
var magenticRole = regexp.MustCompile(`^\s*(.+?)\s*\(\s*(.*?)\s*\)\s*$`)

// magenticParts returns magenticRole's submatches of a trimmed role, nil if
// it does not match. A trimmed role matches only if it ends in ")": most
// roles are plain names that the regexp need not read.
func magenticParts(role string) []string {
	if !strings.HasSuffix(role, ")") {
		return nil
	}
	return magenticRole.FindStringSubmatch(role)
}

func (m message) step() (Step, error) {
	if m.Content.err != nil {
		return Step{}, m.Content.err
	}
	text, calls := m.Content.text, m.calls()
	if len(calls) == 0 {
		if replyText, replyCalls, ok := embeddedReply(text); ok {
			text, calls = replyText, replyCalls
		}
	}
	if strings.TrimSpace(text) == "" && len(calls) > 0 {
		text = strings.TrimSpace(m.ToolPlan)
	}
	if strings.TrimSpace(text) == "" {
		// A reply that only calls tools says what it calls, as the trace
		// readers write it.
		text = callText(calls)
	}
	s := Step{Role: m.Role, Content: Excerpt(text), Kind: KindMessage}
	if m.ToolCallID != "" || len(calls) > 0 {
		s.Extra = &Extra{ToolCallID: m.ToolCallID, ToolCalls: calls}
	}
	role := strings.TrimSpace(m.Role)
	agent := strings.TrimSpace(m.Name)
	if sm := magenticParts(role); sm != nil {
		// Magentic-One writes what kind of step a message is in brackets
		// after its agent; any other bracket is part of the name, as
		// MetaGPT writes a role's profile after its name ("Alex(Engineer)"),
		// and a label names the agent so.
		detail := strings.ToLower(sm[2])
		switch {
		case strings.HasPrefix(detail, "->"):
			role = sm[1]
			s.Kind = KindInstruction
			s.Edit().Target = strings.TrimSpace(sm[2][2:])
		case strings.HasPrefix(detail, "thought"):
			role = sm[1]
			s.Kind = KindThought
		case strings.HasPrefix(detail, "termination"):
			role = sm[1]
			s.Kind = KindTermination
		}
	}
	if agent == "" && strings.EqualFold(role, "assistant") {
		agent = strings.TrimSpace(m.Sender)
	}
	if agent == "" {
		agent = role
	}
	if agent == "" {
		return Step{}, errors.New(`message has neither "name" nor "role"`)
	}
	s.Agent = agent
	if s.Kind == KindMessage {
		switch {
		case isUserRole(role):
			// In group chats (AutoGen) every agent but the speaker is "user";
			// only a message without a name of its own (none, or its role
			// again) is the task giver.
			if m.Name == "" || AgentKey(m.Name) == AgentKey(role) {
				s.Kind = KindUser
			}
		case strings.EqualFold(role, "system"):
			s.Kind = KindSystem
		case strings.EqualFold(role, "tool"), strings.EqualFold(role, "function"), strings.EqualFold(role, "ipython"),
			strings.EqualFold(role, "env"), strings.EqualFold(role, "environment"):
			// ipython is the role Llama's template gives a tool's output;
			// env the one harnesses give the environment's answer to the
			// agent's action (AIOpsLab's sessions).
			s.Kind = KindToolResult
		case m.Type == "console" && !strings.EqualFold(role, "assistant"):
			// Open Interpreter's console message: what its code printed.
			s.Kind = KindToolResult
		}
		if s.Kind == KindMessage && len(calls) == 0 {
			if calls = textCalls(text); len(calls) > 0 {
				s.Edit().ToolCalls = calls
			}
		}
		if len(s.ToolCalls()) > 0 {
			s.Kind = KindToolCall
		}
	}
	if m.IsDemo {
		// A demonstration is part of the prompt, as the system's
		// instructions are: not the task, and no call or turn of the run.
		s.Kind, s.Extra = KindSystem, nil
	}
	return s, nil
}

// calls returns the tool calls the message makes, in its fields.
func (m message) calls() []ToolCall {
	var out []ToolCall
	for _, tc := range m.ToolCalls {
		out = append(out, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: string(tc.Function.Arguments)})
	}
	if m.FunctionCall != nil {
		out = append(out, ToolCall{Name: m.FunctionCall.Name, Arguments: string(m.FunctionCall.Arguments)})
	}
	if len(out) == 0 && strings.EqualFold(strings.TrimSpace(m.Role), "assistant") && m.Type == "code" && strings.TrimSpace(m.Format) != "" && strings.TrimSpace(m.Content.text) != "" {
		// Open Interpreter's code message: the code it ran, in the
		// language its format names.
		out = append(out, ToolCall{Name: "execute", Arguments: textOf(map[string]any{"language": strings.TrimSpace(m.Format), "code": strings.TrimSpace(m.Content.text)})})
	}
	if len(out) == 0 && strings.EqualFold(strings.TrimSpace(m.Role), "assistant") && strings.TrimSpace(m.Action) != "" {
		// A reply that ran a command it wrote in its text (SWE-agent
		// before function calling): the command is the call, made in the
		// agent's shell.
		out = append(out, ToolCall{Name: "bash", Arguments: textOf(map[string]any{"command": strings.TrimSpace(m.Action)})})
	}
	return out
}

// observations reads the messages that give back what a command run by
// an action printed (SWE-agent's "observation" messages, sent in the
// user's role) as that call's results, not as the user's words: a
// message marked an observation that follows a step whose calls came
// from an action. SWE-agent's trajectories from before it marked its
// messages mark none: there the user-role message right after such a
// step is its observation.
func observations(msgs []message, steps []Step) {
	marked := false
	for _, m := range msgs {
		if m.MessageType != "" {
			marked = true
			break
		}
	}
	for i := 1; i < len(msgs) && i < len(steps); i++ {
		prev := msgs[i-1]
		observed := msgs[i].MessageType == "observation" || !marked && isUserRole(strings.TrimSpace(msgs[i].Role))
		if observed && len(prev.ToolCalls) == 0 && prev.FunctionCall == nil && strings.TrimSpace(prev.Action) != "" && steps[i-1].Kind == KindToolCall {
			steps[i].Kind = KindToolResult
			steps[i].Agent = "tool"
		}
	}
}

// textResults reads the turns that answer calls written in the text of
// the turn before them (textCalls), past the other results of those
// calls, as those calls' results: a user's, a tool's or an ipython turn
// whose text is a result's markup (textResult) is the tool's output,
// without its markup, answering the call it names or else the calls
// before it. A result in the user's turn is the tool's, as SWE-agent's
// observations are, and so is one in a system turn, where autonomous
// agents' harnesses write what a command returned.
func textResults(msgs []message, steps []Step) {
	written := false // the last step other than a result wrote its calls in its text
	for i := 0; i < len(msgs) && i < len(steps); i++ {
		s := &steps[i]
		if written && (isUserRole(strings.TrimSpace(msgs[i].Role)) || s.Kind == KindToolResult || s.Kind == KindSystem) && takeTextResult(s, "tool") {
			continue
		}
		if s.Kind != KindToolResult {
			written = len(s.ToolCalls()) > 0 && len(msgs[i].calls()) == 0
		}
	}
}

// embeddedReply reads a message whose whole content is a model's reply
// written as JSON, as a log that kept the reply as the API returned it
// does: {"role": "assistant", "content": null, "tool_calls": [...]}. It is
// read as the messages around it are, its arguments as written. It
// returns the reply's text and calls, and false unless that reply is an
// assistant's and makes calls: the calls are what the step did.
func embeddedReply(text string) (string, []ToolCall, bool) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "{") || !strings.HasSuffix(t, "}") || !strings.Contains(t, `"tool_calls"`) && !strings.Contains(t, `"function_call"`) {
		return "", nil, false
	}
	var reply message
	if json.Unmarshal([]byte(t), &reply) != nil || reply.Content.err != nil || !strings.EqualFold(strings.TrimSpace(reply.Role), "assistant") {
		return "", nil, false
	}
	calls := reply.calls()
	return reply.Content.text, calls, len(calls) > 0
}

// isUserRole reports whether a role is the human's.
func isUserRole(role string) bool {
	return strings.EqualFold(role, "user") || strings.EqualFold(role, "human")
}

// errorValue is a label's JSON value as an error quotes it: on one line,
// a text quoted, anything else as compact JSON, and cut where it is long,
// so that a label holding a megabyte gives an error of one short line.
func errorValue(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return spans.QuoteForError(s)
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return spans.QuoteForError(string(raw))
	}
	return spans.CutForError(b.String())
}
