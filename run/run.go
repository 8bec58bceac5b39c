// Package run holds the model of a multi-agent run and loads it from the
// formats people export (Who&When JSON, plain chat transcripts, and
// OpenTelemetry-style traces read through run/spans). It decides what a
// step is and who spoke it; it knows nothing of attribution.
package run

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
)

// Kind says what sort of message a step is, as far as the file itself tells.
// Finer kinds (plan, ledger, tool result...) are extract's business.
type Kind string

const (
	KindMessage     Kind = "message"     // an ordinary agent message
	KindUser        Kind = "user"        // the human or task giver
	KindThought     Kind = "thought"     // an orchestrator's private reasoning
	KindInstruction Kind = "instruction" // a message addressed to Target
	KindTermination Kind = "termination" // the orchestrator ending the run
	KindToolCall    Kind = "tool_call"   // a message carrying function calls
	KindToolResult  Kind = "tool_result" // a function's answer (role "tool")
	KindSystem      Kind = "system"      // a system prompt inside the transcript
	// KindHandoff is control passing to Target, which some frameworks
	// report as an exception (LangGraph's ParentCommand): not a fault.
	KindHandoff Kind = "handoff"
)

// Step is one agent's message. Index is its 0-based position in the run.
type Step struct {
	Index   int    `json:"index"`
	Agent   string `json:"agent"`
	Role    string `json:"role,omitempty"`
	Kind    Kind   `json:"kind"`
	Content string `json:"content"`
	// Extra holds what most steps lack (a target, tool calls, where in
	// the telemetry the step was read), nil when the step has none of it:
	// a long run's steps would each carry it empty. Read it through the
	// step's methods; steps copied from one another share it, so change a
	// step's through Edit.
	*Extra
}

// Extra is what a step holds beyond its agent, role, kind and content.
// Embedded in Step, its fields are read as JSON in the step's own object,
// and in Go through the step's methods of their names.
type Extra struct {
	Target     string     `json:"target,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	// TraceID and SpanID locate the step in the telemetry it was read from
	// (hex, as OpenTelemetry writes them), so an answer can be opened in a
	// trace viewer; empty for other formats.
	TraceID string `json:"trace_id,omitempty"`
	SpanID  string `json:"span_id,omitempty"`
	// From names where in its span the step's text was read: the
	// attribute ("llm.output_messages", "output.value"), the event, or
	// the span's status; empty for other formats.
	From string `json:"from,omitempty"`
}

// Target is the agent the step is addressed to, if it names one.
func (s Step) Target() string { return s.extra().Target }

// ToolCalls are the tool calls the step carries.
func (s Step) ToolCalls() []ToolCall { return s.extra().ToolCalls }

// OnlyCalls reports whether the step's content is its tool calls written
// out (callText), or the list of them as the model wrote it into its
// content (writtenCalls, the same calls by name and id): the step says
// nothing in words of its own.
func (s Step) OnlyCalls() bool {
	calls := s.ToolCalls()
	if len(calls) == 0 {
		return false
	}
	if s.Content == callText(calls) {
		return true
	}
	written, ok := writtenCalls(s.Content)
	return ok && slices.EqualFunc(written, calls, func(a, b ToolCall) bool {
		return a.ID == b.ID && cleanName(a.Name) == b.Name
	})
}

// ToolCallID is, for a tool's output, the id of the call it answers.
func (s Step) ToolCallID() string { return s.extra().ToolCallID }

// TraceID is the trace the step was read from; empty for other formats.
func (s Step) TraceID() string { return s.extra().TraceID }

// SpanID is the span the step was read from; empty for other formats.
func (s Step) SpanID() string { return s.extra().SpanID }

// From is where in its span the step's text was read.
func (s Step) From() string { return s.extra().From }

// roleRuntimeFailure is the role of a step that a run's runtime reported
// failing, written as a step of its own (a span's error status and
// exception events, as the telemetry readers write them).
const roleRuntimeFailure = "error"

// RuntimeFailure reports whether the step is a failure the run's runtime
// reported as a step of its own, not a turn of an agent or a tool.
func (s Step) RuntimeFailure() bool { return s.Role == roleRuntimeFailure }

var noExtra Extra

func (s Step) extra() *Extra {
	if s.Extra == nil {
		return &noExtra
	}
	return s.Extra
}

// Edit returns s's Extra to change, made s's own: a copy of the one s
// shared with the steps it was copied from or to, or a new one.
func (s *Step) Edit() *Extra {
	e := *s.extra()
	s.Extra = &e
	return s.Extra
}

// Trim drops s's Extra when it holds nothing, as a step read without any
// of it has none.
func (s *Step) Trim() {
	if e := s.Extra; e != nil && e.Target == "" && len(e.ToolCalls) == 0 && e.ToolCallID == "" && e.TraceID == "" && e.SpanID == "" && e.From == "" {
		s.Extra = nil
	}
}

// ToolCall is an OpenAI-style function call carried by a step.
type ToolCall struct {
	ID        string `json:"id,omitempty"`
	Name      string `json:"name"`
	Arguments string `json:"arguments,omitempty"`
}

// Label is the human annotation of a benchmark case: who failed, and when.
type Label struct {
	Agent  string `json:"agent"`
	Step   int    `json:"step"`
	Reason string `json:"reason,omitempty"`
}

// Run is a whole failed run as offattr sees it.
type Run struct {
	Source string `json:"source"`
	Format Format `json:"format"`
	// TraceID is the trace the run was read from, for telemetry, or the
	// record of a file of several sessions (an OpenHands evaluation's
	// output.jsonl, by its instance_id); empty otherwise. Source is then
	// FILE#TRACEID.
	TraceID  string `json:"trace_id,omitempty"`
	Question string `json:"question,omitempty"`
	// Instructions are the system instructions the run's model was given
	// where the file keeps them apart from its steps (a trace's model
	// calls repeat them in their input, or record them as
	// gen_ai.system_instructions): the rules a policy states. A transcript
	// keeps its system prompt as a step instead.
	Instructions string `json:"instructions,omitempty"`
	// Tools are the tools the run's model was offered where the file
	// declares them apart from its steps (a saved request's "tools"), with
	// the values their schemas offer.
	Tools       []Tool `json:"tools,omitempty"`
	GroundTruth string `json:"ground_truth,omitempty"`
	Steps       []Step `json:"steps"`
	// turnStep is, for a transcript some of whose messages are read as
	// several steps, the first step of each message, by which a label
	// that counts messages is read; nil where each message is a step.
	turnStep []int
}

// Case is a run as a labelled corpus holds it: the run, and beside it the
// human annotation it is graded against. The label is kept out of Run so
// that nothing handed a *Run (every stage of the attribution) can read it;
// only scoring and fitting hold a Case.
type Case struct {
	Run   *Run
	Label *Label // nil for an unlabelled run
}

// Fingerprint is a short digest of what the run says: its task, and each
// step's agent and text. Weights keep the fingerprints of the runs they
// were fitted on, so that a figure measured on those runs can say it is
// in-sample. The file's name and format do not count: a run copied or
// exported again is the same run.
func (r *Run) Fingerprint() string {
	h := sha256.New()
	write := func(s string) { fmt.Fprintf(h, "%d:%s", len(s), s) } // length first: no two runs write the same bytes
	write(r.Question)
	for _, s := range r.Steps {
		write(s.Agent)
		write(s.Content)
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// Agents returns the distinct agent names in order of first appearance.
func (r *Run) Agents() []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range r.Steps {
		if !seen[s.Agent] {
			seen[s.Agent] = true
			out = append(out, s.Agent)
		}
	}
	return out
}
