package redact

import "github.com/offattr/offattr/run"

// Run returns a redacted copy of a run: question, ground truth, every
// step's content and tool-call arguments, and the label's reason. Agent
// names, roles, tool names and the source path are kept: attribution needs
// them and they are the user's own labels.
//
// It reads everything once before writing anything, so a secret first seen
// in step 9 (password=…) is masked in step 2 as well, and numbering follows
// the order of first appearance through the run.
func (r *Redactor) Run(in *run.Run) *run.Run {
	if in == nil {
		return nil
	}
	for _, t := range runTexts(in) {
		r.String(t) // learn secrets and numbering; output comes below
	}
	out := *in
	out.Question = r.String(in.Question)
	out.GroundTruth = r.String(in.GroundTruth)
	out.Steps = make([]run.Step, len(in.Steps))
	for i, s := range in.Steps {
		s.Content = r.String(s.Content)
		if len(s.ToolCalls) > 0 {
			calls := make([]run.ToolCall, len(s.ToolCalls))
			for j, c := range s.ToolCalls {
				c.Arguments = r.String(c.Arguments)
				calls[j] = c
			}
			s.ToolCalls = calls
		}
		out.Steps[i] = s
	}
	if in.Label != nil {
		l := *in.Label
		l.Reason = r.String(l.Reason)
		out.Label = &l
	}
	return &out
}

// runTexts lists the free text of a run in reading order.
func runTexts(in *run.Run) []string {
	ts := []string{in.Question, in.GroundTruth}
	for _, s := range in.Steps {
		ts = append(ts, s.Content)
		for _, c := range s.ToolCalls {
			ts = append(ts, c.Arguments)
		}
	}
	if in.Label != nil {
		ts = append(ts, in.Label.Reason)
	}
	return ts
}
