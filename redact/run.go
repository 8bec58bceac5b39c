package redact

import "github.com/offattr/offattr/run"

// Run returns a redacted copy of a run: question, ground truth, every
// step's content and tool-call arguments, and the label's reason. Agent
// names, roles, tool names and the source path are kept: attribution needs
// them and they are the user's own labels.
//
// Numbering follows the order of first appearance through the run, and a
// secret first seen in step 9 (password=…) is masked in step 2 as well:
// every text is redacted first, then secrets learnt anywhere are masked
// where they reappear bare.
func (r *Redactor) Run(in *run.Run) *run.Run {
	if in == nil {
		return nil
	}
	out := *in
	out.Steps = make([]run.Step, len(in.Steps))
	copy(out.Steps, in.Steps)
	for i := range out.Steps {
		if calls := in.Steps[i].ToolCalls; len(calls) > 0 {
			out.Steps[i].ToolCalls = append([]run.ToolCall(nil), calls...)
		}
	}
	texts := runTexts(&out)
	for _, t := range texts {
		*t = r.String(*t)
	}
	for _, t := range texts {
		*t = r.maskKnown(*t)
	}
	return &out
}

// runTexts points at the free text of a run, in reading order.
func runTexts(r *run.Run) []*string {
	ts := []*string{&r.Question, &r.GroundTruth}
	for i := range r.Steps {
		ts = append(ts, &r.Steps[i].Content)
		for j := range r.Steps[i].ToolCalls {
			ts = append(ts, &r.Steps[i].ToolCalls[j].Arguments)
		}
	}
	return ts
}
