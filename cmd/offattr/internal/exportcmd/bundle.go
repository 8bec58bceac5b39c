package exportcmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/offattr/offattr/hierarchy"
	"github.com/offattr/offattr/localllm"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/triage"
)

// Bundle is everything a stronger model needs to attribute one run, and
// nothing that needs offattr to read: the JSON twin of the Markdown prompt.
type Bundle struct {
	File        string   `json:"file"`
	Task        string   `json:"task"`
	GroundTruth string   `json:"ground_truth,omitempty"`
	Steps       int      `json:"steps"`
	Agents      []string `json:"agents"`
	Redacted    bool     `json:"redacted"`
	// Budget is the token budget of the whole prompt; Tokens its estimate
	// of the Markdown actually written (four bytes a token).
	Budget  int     `json:"budget_tokens"`
	Tokens  int     `json:"prompt_tokens"`
	Context Context `json:"context"`
	// Local is the local screen's answer: the rules', with the local
	// model's votes when it was asked.
	Local        rules.Attribution `json:"local_attribution"`
	Triage       triage.Decision   `json:"triage"`
	Question     string            `json:"question"`
	AnswerSchema map[string]any    `json:"answer_schema"`
}

// Context is the budgeted view of the run around the best candidate.
type Context struct {
	Target int    `json:"target"`
	Tokens int    `json:"tokens"`
	Text   string `json:"text"`
}

// ContextFunc renders the view of run r around step target in at most
// budget tokens (four bytes a token), giving up once ctx is done.
type ContextFunc func(ctx context.Context, in *rules.Input, target, budget int) (string, error)

// ECHOContext is the run around the target within the budget: every step
// in full when it fits; otherwise the farthest steps are reduced first, to
// ECHO's key decisions, summaries and milestones (package hierarchy), so
// that the blamed step and its neighbours keep their full text longest.
func ECHOContext(ctx context.Context, in *rules.Input, target, budget int) (string, error) {
	c, err := hierarchy.BuildFullWithinContext(ctx, in.Run, in.Features, target, budget)
	if err != nil {
		return "", err
	}
	return c.Render(), nil
}

// renderContext is a ContextFunc with its context bound, as build calls it.
type renderContext func(in *rules.Input, target, budget int) (string, error)

// question is what the stronger model is asked; it restates the task
// definition (Who&When, RAFFLES Def. 3.5) so the bundle stands alone.
const question = `Which agent, at which step, made the decisive fault in this failed run? The decisive fault is the ` + rules.DecisiveFault + `: it must be a fault, it must be critical to the failure, and it must be the first such step. Steps are numbered from 0 as in the context. The local screen's candidates may be wrong; judge from the log. Answer with JSON only, following the schema.`

// answerSchema is the JSON Schema of the answer.
func answerSchema(agents []string) map[string]any {
	return map[string]any{
		"type":     "object",
		"required": []string{"agent", "step", "reason"},
		"properties": map[string]any{
			"agent":  map[string]any{"type": "string", "enum": agents, "description": "the responsible agent, as named in the log"},
			"step":   map[string]any{"type": "integer", "minimum": 0, "description": "0-based index of the decisive step"},
			"reason": map[string]any{"type": "string", "description": "one or two sentences citing the step"},
		},
	}
}

// target is the step the context centres on: the local answer, else the
// best candidate, else the first step. The other candidates are in the
// candidates table with their evidence, and in the context at the detail
// their distance gives them.
func target(a rules.Attribution, steps int) int {
	if a.Agent != "" && a.Step >= 0 && a.Step < steps {
		return a.Step
	}
	for _, c := range a.Candidates {
		if c.Step >= 0 && c.Step < steps {
			return c.Step
		}
	}
	return 0
}

// minContextTokens is the least context worth sending: below it the
// budget is reported as too small rather than exporting a blind prompt.
const minContextTokens = 200

// quoteCaps are the evidence-quote lengths tried, longest first, when the
// budget is tight.
var quoteCaps = []int{400, 160, 60}

// build assembles the bundle of one analysed run within budget tokens.
func build(in *rules.Input, a rules.Attribution, d triage.Decision, budget int, redacted bool, ctxf renderContext) (Bundle, error) {
	r := in.Run
	b := Bundle{
		File: a.File, Task: r.Question, GroundTruth: r.GroundTruth, Steps: len(r.Steps), Agents: r.Agents(),
		Redacted: redacted, Budget: budget, Local: a, Triage: d, Question: question,
	}
	b.AnswerSchema = answerSchema(b.Agents)
	b.Context.Target = target(a, len(r.Steps))
	local := a
	for _, limit := range quoteCaps {
		b.Local = capQuotes(local, limit)
		fixed := localllm.EstimateTokens(b.Markdown())
		room := budget - fixed
		if room < minContextTokens {
			continue
		}
		text, err := ctxf(in, b.Context.Target, room)
		if err != nil {
			return Bundle{}, fmt.Errorf("context: %w", err)
		}
		b.Context.Text = strings.TrimSpace(text)
		b.Context.Tokens = localllm.EstimateTokens(b.Context.Text)
		b.Tokens = localllm.EstimateTokens(b.Markdown())
		return b, nil
	}
	b.Local = capQuotes(local, quoteCaps[len(quoteCaps)-1])
	need := localllm.EstimateTokens(b.Markdown()) + minContextTokens
	return Bundle{}, fmt.Errorf("--budget %d is too small: this run's prompt needs about %d tokens with the least context", budget, need)
}

// capQuotes shortens evidence quotes and the rationale to limit bytes.
func capQuotes(a rules.Attribution, limit int) rules.Attribution {
	out := a
	out.Evidence = make([]rules.Evidence, len(a.Evidence))
	for i, e := range a.Evidence {
		e.Quote = clip(e.Quote, limit)
		out.Evidence[i] = e
	}
	out.Rationale = clip(a.Rationale, 4*limit)
	return out
}

// clip cuts s to about n bytes at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return strings.TrimSpace(s[:cut]) + " …"
}
