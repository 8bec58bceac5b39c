package redact

import (
	"slices"

	"github.com/offattr/offattr/run"
)

// Run returns a redacted copy of a run: every text in it, the question, the
// ground truth, and each step's agent, role, target, content and tool calls
// (names and arguments). Agent names are redacted too, since an agent may
// be named after a person's e-mail address; the same name always gets the
// same placeholder, so steps and targets still refer to one agent, and
// attribution reads the placeholder as it would the name. The identifiers
// that link a tool call to its result or a step to its trace span are
// redacted too (a trace id may be an e-mail address or a key): the same id
// gets the same placeholder, so they still link, and hex ids, which hold
// nothing to mask, stay as they are. The run's name (Source: its file, or
// FILE#TRACEID) is redacted too, first, so a file named after a person's
// address reads [EMAIL_1] as the address does in the steps; a command that
// prints its own copy of the path masks it through String. Only the format
// and step kinds are kept as they are.
//
// Numbering follows the order of first appearance through the run, and a
// secret first seen in step 9 (password=…) is masked in step 2 as well:
// every text is redacted first, then secrets learnt anywhere are masked
// where they reappear bare. The Redactor keeps the run's placeholders for
// whatever is printed afterwards (String, Error).
//
// A nil Redactor returns in itself.
func (r *Redactor) Run(in *run.Run) *run.Run {
	if r == nil || in == nil {
		return in
	}
	out := copyRun(in)
	r.texts(runTexts(out))
	return out
}

// Case redacts a labelled run: the run as Run does, and the label's agent
// and reason with the same placeholders, so an answer read from the
// redacted run is still graded against the right agent. A nil Redactor
// returns c itself.
func (r *Redactor) Case(c run.Case) run.Case {
	if r == nil || c.Run == nil {
		return c
	}
	out := run.Case{Run: copyRun(c.Run)}
	texts := runTexts(out.Run)
	if c.Label != nil {
		l := *c.Label
		out.Label = &l
		texts = append(texts, &l.Agent, &l.Reason)
	}
	r.texts(texts)
	return out
}

// texts redacts texts in place as one run: the rules over each, then the
// secrets learnt anywhere wherever they reappear.
func (r *Redactor) texts(texts []*string) {
	// Names repeat on every step: redact each text once.
	done := map[string]string{}
	for _, t := range texts {
		red, ok := done[*t]
		if !ok {
			red = r.rules(*t)
			done[*t] = red
		}
		*t = red
	}
	for _, t := range texts {
		*t = r.maskKnown(*t)
	}
}

// copyRun copies a run deeply enough that redacting the copy leaves the
// original as it was.
func copyRun(in *run.Run) *run.Run {
	out := *in
	out.Steps = make([]run.Step, len(in.Steps))
	copy(out.Steps, in.Steps)
	out.Tools = slices.Clone(in.Tools)
	for i := range out.Tools {
		out.Tools[i].Offers = slices.Clone(out.Tools[i].Offers)
	}
	for i := range out.Steps {
		if s := &out.Steps[i]; s.Extra != nil {
			e := s.Edit() // the copy's own
			if len(e.ToolCalls) > 0 {
				e.ToolCalls = append([]run.ToolCall(nil), e.ToolCalls...)
			}
		}
	}
	return &out
}

// runTexts points at every text of a run, in reading order.
func runTexts(r *run.Run) []*string {
	ts := []*string{&r.Source, &r.Question, &r.Instructions, &r.GroundTruth, &r.TraceID}
	for i := range r.Tools {
		ts = append(ts, &r.Tools[i].Name)
		for j := range r.Tools[i].Offers {
			ts = append(ts, &r.Tools[i].Offers[j])
		}
	}
	for i := range r.Steps {
		s := &r.Steps[i]
		e := s.Extra
		if e == nil {
			ts = append(ts, &s.Agent, &s.Role, &s.Content)
			continue
		}
		ts = append(ts, &s.Agent, &s.Role, &e.Target, &s.Content, &e.ToolCallID, &e.TraceID, &e.SpanID, &e.From)
		for j := range e.ToolCalls {
			ts = append(ts, &e.ToolCalls[j].ID, &e.ToolCalls[j].Name, &e.ToolCalls[j].Arguments)
		}
	}
	return ts
}
