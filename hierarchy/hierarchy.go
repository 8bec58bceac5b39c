// Package hierarchy builds ECHO's hierarchical context around a target step
// (L1 = the step and its neighbours in full, L2 = key decisions at distance
// 2-3, L3 = summaries at 4-6, L4 = milestones beyond) and fits it to a token
// budget. It reads extract's reductions and judges nothing; later stages
// (the local model's prompts) render it.
package hierarchy

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

// Errors a caller may branch on.
var (
	ErrStepOutOfRange = errors.New("step out of range")
	// ErrBudgetTooSmall: not even the header and the target's own label fit.
	ErrBudgetTooSmall = errors.New("budget too small")
)

// Level is an ECHO context level, by distance from the target.
type Level int

// Levels by distance: 0-1 is L1, 2-3 L2, 4-6 L3, beyond L4.
func levelOf(distance int) Level {
	switch {
	case distance <= 1:
		return 1
	case distance <= 3:
		return 2
	case distance <= 6:
		return 3
	}
	return 4
}

// Detail is how much of a step a context shows; fitting a budget moves an
// entry down this list.
type Detail string

const (
	DetailFull        Detail = "full"
	DetailTruncated   Detail = "truncated" // full text with its middle cut out
	DetailKeyDecision Detail = "key_decision"
	DetailSummary     Detail = "summary"
	DetailMilestone   Detail = "milestone"
	DetailHeader      Detail = "header" // index, agent and kind only
	DetailOmitted     Detail = "omitted"
)

// ladder orders the details from most to least.
var ladder = []Detail{DetailFull, DetailTruncated, DetailKeyDecision, DetailSummary, DetailMilestone, DetailHeader, DetailOmitted}

// initialDetail is ECHO's detail for a level.
var initialDetail = map[Level]Detail{1: DetailFull, 2: DetailKeyDecision, 3: DetailSummary, 4: DetailMilestone}

// Entry is one step as the context shows it.
type Entry struct {
	Index       int                 `json:"index"`
	Agent       string              `json:"agent"`
	Kind        extract.StepKind    `json:"kind"`
	Target      string              `json:"addressed_to,omitempty"`
	ContextType extract.ContextType `json:"context_type"`
	Distance    int                 `json:"distance"`
	Level       Level               `json:"level"`
	Detail      Detail              `json:"detail"`
	IsTarget    bool                `json:"is_target,omitempty"`
	// Text is what the context shows for the step at its detail.
	Text string `json:"text,omitempty"`

	full, keyDecision, summary, milestone string
	cap                                   int // bytes of full text kept when truncated
}

// Context is the hierarchical context of one target step.
type Context struct {
	Target int `json:"target"`
	Steps  int `json:"steps"`
	// Budget is the token budget the context was fitted to, 0 if none.
	Budget  int     `json:"budget,omitempty"`
	Tokens  int     `json:"tokens"`
	Entries []Entry `json:"entries"`

	// fullFirst is set by Full: the header then says every step starts
	// in full.
	fullFirst bool
}

// Build makes the ECHO context of step target: every step of the run at the
// detail its distance gives it. f may be nil, in which case the run is
// extracted here.
func Build(r *run.Run, f *extract.RunFeatures, target int) (Context, error) {
	if target < 0 || target >= len(r.Steps) {
		return Context{}, fmt.Errorf("context of step %d: %w (the run has steps 0 to %d)", target, ErrStepOutOfRange, len(r.Steps)-1)
	}
	if f == nil || len(f.Steps) != len(r.Steps) {
		f = extract.Run(r)
	}
	c := Context{Target: target, Steps: len(r.Steps), Entries: make([]Entry, len(r.Steps))}
	for i, s := range r.Steps {
		red := f.Reductions(i)
		fs := &f.Steps[i]
		d := abs(i - target)
		e := Entry{
			Index: i, Agent: s.Agent, Kind: fs.Kind, Target: fs.Target, ContextType: fs.ContextType,
			Distance: d, Level: levelOf(d), IsTarget: i == target,
			full:        strings.TrimSpace(s.Content),
			keyDecision: oneLine(red.KeyDecision),
			summary:     oneLine(red.Summary),
			milestone:   oneLine(red.Milestone),
		}
		if e.full == "" {
			e.full = "(empty)"
		}
		e.setDetail(initialDetail[e.Level])
		c.Entries[i] = e
	}
	c.Tokens = extract.EstimateTokens(c.Render())
	return c, nil
}

// BuildWithin is Build then Fit: the context of step target in at most
// budget tokens (no limit if budget <= 0).
func BuildWithin(r *run.Run, f *extract.RunFeatures, target, budget int) (Context, error) {
	c, err := Build(r, f, target)
	if err != nil {
		return Context{}, err
	}
	return Fit(c, budget)
}

// BuildWithinContext is BuildWithin that stops with ctx's error once ctx
// is done, in extraction (when f is nil) and in fitting.
func BuildWithinContext(ctx context.Context, r *run.Run, f *extract.RunFeatures, target, budget int) (Context, error) {
	c, err := buildContext(ctx, r, f, target)
	if err != nil {
		return Context{}, err
	}
	return FitContext(ctx, c, budget)
}

// buildContext is Build that extracts the run (when f is nil) stopping
// with ctx's error once ctx is done.
func buildContext(ctx context.Context, r *run.Run, f *extract.RunFeatures, target int) (Context, error) {
	if (f == nil || len(f.Steps) != len(r.Steps)) && target >= 0 && target < len(r.Steps) {
		var err error
		if f, err = extract.RunContext(ctx, r); err != nil {
			return Context{}, err
		}
	}
	return Build(r, f, target)
}

// Full returns c with every step at its full text: the most a budget can
// hold. Fitting it (Fit) then reduces the farthest steps first, so that
// within the budget the target and its neighbours keep their full text
// longest and ECHO's levels are where a tight budget ends up, not where an
// ample one starts.
func (c Context) Full() Context {
	c.Entries = append([]Entry(nil), c.Entries...)
	for i := range c.Entries {
		c.Entries[i].setDetail(DetailFull)
	}
	c.fullFirst = true
	c.Tokens = extract.EstimateTokens(c.Render())
	return c
}

// BuildFullWithinContext is BuildWithinContext from every step in full
// (Full) rather than from ECHO's levels: what a reader with room for the
// whole run, such as a stronger model, should be given.
func BuildFullWithinContext(ctx context.Context, r *run.Run, f *extract.RunFeatures, target, budget int) (Context, error) {
	c, err := buildContext(ctx, r, f, target)
	if err != nil {
		return Context{}, err
	}
	return FitContext(ctx, c.Full(), budget)
}

// RenderWithin is the one call a prompt builder needs: the rendered context
// of step target, at most budget tokens by extract.EstimateTokens.
func RenderWithin(r *run.Run, f *extract.RunFeatures, target, budget int) (string, error) {
	c, err := BuildWithin(r, f, target, budget)
	if err != nil {
		return "", err
	}
	return c.Render(), nil
}

// setDetail moves the entry to detail d and sets its Text.
func (e *Entry) setDetail(d Detail) {
	e.Detail = d
	switch d {
	case DetailFull:
		e.Text = e.full
	case DetailTruncated:
		e.Text = truncate(e.full, e.cap)
	case DetailKeyDecision:
		e.Text = e.keyDecision
	case DetailSummary:
		e.Text = e.summary
	case DetailMilestone:
		e.Text = e.milestone
	default:
		e.Text = ""
	}
}

// next is the detail one step down the ladder.
func next(d Detail) Detail {
	for i, x := range ladder {
		if x == d && i+1 < len(ladder) {
			return ladder[i+1]
		}
	}
	return DetailOmitted
}

// oneLine joins the words of s with single spaces. Reductions mostly are on
// one line already, and Build reduces every step of the run for every
// target, so those are returned as they are, without splitting them.
func oneLine(s string) string {
	if isOneLine(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// isOneLine reports whether s is its words joined by single spaces, as
// strings.Fields sees words.
func isOneLine(s string) bool {
	space := true // before the first word, as after a space
	for _, r := range s {
		switch {
		case r == ' ':
			if space {
				return false
			}
			space = true
		case unicode.IsSpace(r):
			return false
		default:
			space = false
		}
	}
	return !space || s == ""
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
