package localllm

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
)

// Role is one analyst of ECHO's panel (§3.2, A.5): the same question asked
// with a different focus, so that one bias does not decide alone.
type Role struct {
	Name  string
	Focus string
}

// Roles are the panel in the order --panel takes them. The first three
// balance each other: one wants proof, one accepts subtle evidence, one
// checks the exact values.
var Roles = []Role{
	{"conservative", "You are a conservative analyst: attribute a fault only on strong, clear evidence in the log, and give low confidence when the evidence is thin."},
	{"liberal", "You are a liberal analyst: accept reasonable evidence and look for subtle errors others overlook, such as a wrong assumption, an unchecked value or an instruction not followed."},
	{"detail-focused", "You are a detail-focused analyst: check exact wording, numbers, names and URLs against the task and earlier steps, and prefer concrete evidence to general impressions."},
	{"pattern-focused", "You are a pattern-focused analyst: follow how an error propagates through the run, such as repeated failing actions, plans that never change, or wrong values passed on."},
	{"skeptical", "You are a skeptical analyst: question every assumption, consider whether an apparent error was reasonable, and whether another candidate is the real cause."},
	{"general", "You are a balanced analyst: weigh all evidence equally and look for the most obvious, most impactful mistake."},
}

// The criteria are RAFFLES's three conditions of a decisive fault (§4):
// a fault, the first one, and decisive (not corrected, caused the failure).
const systemPrompt = `You find the decisive fault in the log of a failed multi-agent run: the earliest step whose correction would have turned the failure into a success. A step is the decisive fault when
(1) fault: the agent's action there is a mistake (wrong fact or reasoning, a wrong or unfollowed instruction, a bad tool use);
(2) first: no earlier step made a mistake that led to the wrong outcome;
(3) decisive: the mistake was not corrected later and led to the failure.
%s
%s
Judge only the candidate steps listed. For each candidate give your confidence from 0 to 1 that it meets each criterion. Then vote for the one candidate that is the decisive fault, with a reason of at most 25 words and your confidence from 0 to 1. Answer with JSON only.`

// maxQuestionTokens caps the task text; the log matters more.
const maxQuestionTokens = 250

// reasonChars bounds the vote's reason in the schema, so the answer length
// (and num_predict) stays predictable.
const reasonChars = 200

// candidateKey names a candidate's criteria in the answer.
func candidateKey(step int) string { return fmt.Sprintf("step_%d", step) }

// answerSchema asks for the three criteria of every candidate, then the
// vote, in that order: the grammar makes the model assess before it votes.
func answerSchema(steps []int) *jsonschema.Schema {
	var props []property
	for _, s := range steps {
		props = append(props, property{candidateKey(s), object(
			property{"fault", number(0, 1)},
			property{"first", number(0, 1)},
			property{"decisive", number(0, 1)},
		)})
	}
	props = append(props, property{"vote", object(
		property{"reason", text(reasonChars)},
		property{"step", integerEnum(steps...)},
		property{"confidence", number(0, 1)},
	)})
	return object(props...)
}

// answer is a validated analyst answer.
type answer struct {
	Criteria map[int]criteria
	Vote     vote
}

type criteria struct {
	Fault    float64 `json:"fault"`
	First    float64 `json:"first"`
	Decisive float64 `json:"decisive"`
}

// mean is a candidate's criteria score: RAFFLES sums its evaluators'
// confidences; the mean keeps it in [0,1].
func (c criteria) mean() float64 { return (c.Fault + c.First + c.Decisive) / 3 }

type vote struct {
	Reason     string  `json:"reason"`
	Step       int     `json:"step"`
	Confidence float64 `json:"confidence"`
}

// parseAnswer reads an answer that already passed the schema.
func parseAnswer(content string, steps []int) (answer, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(content), &raw); err != nil {
		return answer{}, err
	}
	a := answer{Criteria: map[int]criteria{}}
	for _, s := range steps {
		var c criteria
		if err := json.Unmarshal(raw[candidateKey(s)], &c); err != nil {
			return answer{}, fmt.Errorf("%s: %w", candidateKey(s), err)
		}
		a.Criteria[s] = c
	}
	if err := json.Unmarshal(raw["vote"], &a.Vote); err != nil {
		return answer{}, fmt.Errorf("vote: %w", err)
	}
	return a, nil
}

// answerTokens is num_predict for k candidates: about 30 tokens of criteria
// each and 70 for the vote, with room for the whitespace grammars allow.
func answerTokens(k int, think bool) int {
	n := 96 + 40*k
	if think {
		n += thinkTokens
	}
	return n
}

// thinkTokens is what --think adds to num_predict for the reasoning.
const thinkTokens = 1024

// prompt is everything but the role: the part every analyst shares.
type prompt struct {
	steps  []int
	user   string
	format *format
}

// systemFor is the system message of one analyst.
func systemFor(r Role) string { return fmt.Sprintf(systemPrompt, r.Focus, dataNotice) }

// buildPrompt writes the user message for the candidates within budget
// tokens for the whole call (system message included). notes, when not
// empty, say why some candidates were raised (the sweep's reasons); they
// quote the log, so they are fenced like it.
func buildPrompt(r *run.Run, cands []rules.Candidate, budget int, render ContextFunc, notes string) (prompt, error) {
	p := prompt{}
	for _, c := range cands {
		p.steps = append(p.steps, c.Step)
	}
	d := newDataHead(r, budget)
	d.notes = notes
	var tail strings.Builder
	tail.WriteString("Candidates: ")
	tail.WriteString(stepList(p.steps))
	tail.WriteString(".\n\nLog around each candidate (marked TARGET): nearby steps in full, farther ones reduced to key decisions, summaries and milestones, or omitted:\n")

	// The longest role prompt bounds the system message of every analyst.
	system := 0
	for _, r := range Roles {
		system = max(system, EstimateTokens(systemFor(r)))
	}
	room := budget - system - d.tokens() - EstimateTokens(tail.String()) - fenceTokens(d.fence, "log") - 2*perMessage
	text, err := render(r, p.steps, max(room, minContextTokens))
	if err != nil {
		return p, fmt.Errorf("build context: %w", err)
	}
	p.user = d.write(tail.String(), text)
	p.format, err = newFormat(answerSchema(p.steps))
	return p, err
}

// perMessage is what the chat template adds around each message, in tokens.
const perMessage = 8

// dataHead is the part of a user message every strategy shares: the task,
// the correct answer when the run has one, and notes, each fenced.
type dataHead struct {
	question, truth, notes string
	// fence is estimated from the whole run, before the log is rendered,
	// so that the budget can count it; write takes the final one.
	fence string
}

func newDataHead(r *run.Run, budget int) dataHead {
	q := strings.Join(strings.Fields(r.Question), " ")
	if q == "" {
		q = "(not given)"
	}
	d := dataHead{question: clipBytes(q, min(maxQuestionTokens, budget/4)*4)}
	if t := strings.TrimSpace(r.GroundTruth); t != "" {
		d.truth = clipBytes(t, 400)
	}
	texts := []string{d.question, d.truth}
	for _, s := range r.Steps {
		texts = append(texts, s.Agent, s.Content)
	}
	d.fence = fenceFor(texts...)
	return d
}

// tokens estimates the head as write writes it.
func (d dataHead) tokens() int {
	var b strings.Builder
	d.writeHead(&b, d.fence)
	return EstimateTokens(b.String())
}

func (d dataHead) writeHead(b *strings.Builder, fence string) {
	b.WriteString("Task:\n")
	fenced(b, fence, "task", d.question)
	if d.truth != "" {
		b.WriteString("Correct answer:\n")
		fenced(b, fence, "answer", d.truth)
	}
	if d.notes != "" {
		b.WriteString("Notes from reading the whole run:\n")
		fenced(b, fence, "notes", d.notes)
	}
}

// write is the whole user message: the head, the instructions in tail,
// then the log, fenced. The fence is chosen from everything fenced, so
// nothing inside can close it.
func (d dataHead) write(tail, log string) string {
	fence := fenceFor(d.question, d.truth, d.notes, log)
	var b strings.Builder
	d.writeHead(&b, fence)
	b.WriteString(tail)
	fenced(&b, fence, "log", log)
	return strings.TrimRight(b.String(), "\n")
}

// stepList writes steps as "steps 2, 4 and 6", or "step 2".
func stepList(steps []int) string {
	parts := make([]string, len(steps))
	for i, s := range steps {
		parts[i] = fmt.Sprint(s)
	}
	if len(parts) == 1 {
		return "step " + parts[0]
	}
	return "steps " + strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// minContextTokens is the least log an analyst gets, even when the budget
// is eaten by a long task: without the candidate steps there is nothing to
// judge. The num_ctx margin (see promptLimit) absorbs the overshoot.
const minContextTokens = 150
