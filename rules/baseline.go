package rules

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/offattr/offattr/run"
)

// Baselines are the trivial attributors the rules are measured against, by
// the name eval's --baseline takes.
// Only the first error reads a fact of the steps (FailureWords); the
// others read the run's order and speakers.
var Baselines = map[string]func(*Input) Attribution{
	"first-error":   Baseline,
	"first-step":    ofRun(FirstStepBaseline),
	"last-step":     ofRun(LastStepBaseline),
	"busiest-first": ofRun(BusiestFirstBaseline),
	"random":        ofRun(RandomBaseline),
}

// ofRun makes a baseline that reads only the run one that takes the input.
func ofRun(b func(*run.Run) Attribution) func(*Input) Attribution {
	return func(in *Input) Attribution { return b(in.Run) }
}

// BaselineNames lists the baselines in a stable order.
func BaselineNames() []string {
	return []string{"first-error", "first-step", "last-step", "busiest-first", "random"}
}

// LabelFreeBaselines are the four guesses that read nothing of the steps'
// text, only their order and speakers: a system's label-free floor is the
// best of them, and the rules are worth running only above it.
func LabelFreeBaselines() []string {
	return []string{"first-step", "last-step", "busiest-first", "random"}
}

// Guesses are the label-free guesses fit may let answer in place of the
// step model (Weights.Guess): random is left out, as a guess no better
// than chance on average is never worth keeping.
var Guesses = slices.DeleteFunc(LabelFreeBaselines(), func(name string) bool { return name == "random" })

// guessDescriptions say what each guess answers, for a rationale.
var guessDescriptions = map[string]string{
	"first-step":    "the first agent message after the task",
	"last-step":     "the run's last step",
	"busiest-first": "the first message of the agent with the most",
}

// GuessFirst returns order (row indices) with the row of the step the
// named guess answers moved to the front, and the guess; order as it is,
// and "", when guess is empty or its step has no row.
func GuessFirst(guess string, in *Input, rows []StepRow, order []int) ([]int, string) {
	if guess == "" || len(order) == 0 {
		return order, ""
	}
	if out, ok := stepFirst(rows, order, Baselines[guess](in).Step); ok {
		return out, guess
	}
	return order, ""
}

// AgentRoleNames are the agents weights may name first (Weights.AgentRole):
// three by where each stands in its run as the label-free guesses see it
// (AgentRoles), the one with the most messages, the first to speak after
// the task, the speaker of the last step; and the one the step model
// gives the most probability, summed over the steps it answers for; and
// that agent only when it holds DominantShare times the probability of
// the agent the step model's ranking names (dominant).
var AgentRoleNames = []string{"busiest", "first", "last", "probable", "dominant"}

// DominantShare is how many times the probability of the agent the
// ranking names the dominant agent must hold. The ranking answers with
// one step, and a step likelihood fitted on few runs moves that answer to
// an agent with few, likely steps as readily as to one with many; an agent
// that holds far more of the probability over all its steps is the better
// bet for who is at fault, and a close one is not worth the step.
const DominantShare = 2.0

// agentRoleDescriptions say which agent each role is, for a rationale.
var agentRoleDescriptions = map[string]string{
	"busiest":  "the agent with the most messages",
	"first":    "the first agent to speak after the task",
	"last":     "the agent that speaks the run's last step",
	"probable": "the agent the step model finds most likely at fault over all its steps",
	"dominant": fmt.Sprintf("the agent the step model finds at least %g times as likely at fault over all its steps as the agent of its best-ranked step", DominantShare),
}

// RoleFirst returns order (row indices) with the first of its rows whose
// agent (run.AgentKey of StepRow.Agent: who answers for the step) is the
// one role names moved to the front, and role; order as it is, and "",
// when role is empty, that row is already first, or no row is that
// agent's. p is the step model's probability of each row.
func RoleFirst(role string, in *Input, rows []StepRow, order []int, p []float64) ([]int, string) {
	if role == "" || len(order) == 0 {
		return order, ""
	}
	var key string
	switch role {
	case "probable":
		key = probableAgent(rows, order, p)
	case "dominant":
		if key = dominantAgent(rows, order, p); key == "" {
			return order, ""
		}
	default:
		busiest, first, last := AgentRoles(in.Run)
		key = map[string]string{"busiest": busiest, "first": first, "last": last}[role]
	}
	for k, i := range order {
		if run.AgentKey(rows[i].Agent) != key {
			continue
		}
		if k == 0 {
			return order, ""
		}
		return toFront(order, k), role
	}
	return order, ""
}

// probableAgent returns the key (run.AgentKey) of the agent whose rows
// hold the most of the probability p; of agents holding as much, the one
// whose row comes first in order.
func probableAgent(rows []StepRow, order []int, p []float64) string {
	key, _ := probableAgentMass(rows, order, p)
	return key
}

// probableAgentMass is probableAgent, and each agent's probability summed
// over the rows it answers for, by its key.
func probableAgentMass(rows []StepRow, order []int, p []float64) (string, map[string]float64) {
	mass := map[string]float64{}
	for i, r := range rows {
		mass[run.AgentKey(r.Agent)] += p[i]
	}
	best := ""
	for _, i := range order {
		if key := run.AgentKey(rows[i].Agent); best == "" || mass[key] > mass[best] {
			best = key
		}
	}
	return best, mass
}

// dominantAgent returns the key (run.AgentKey) of the agent probableAgent
// names when its rows hold at least DominantShare times the probability
// of the rows of the agent of order's first row; "" otherwise.
func dominantAgent(rows []StepRow, order []int, p []float64) string {
	key, mass := probableAgentMass(rows, order, p)
	top := run.AgentKey(rows[order[0]].Agent)
	if key == top || mass[key] < DominantShare*mass[top] {
		return ""
	}
	return key
}

// stepFirst returns order (row indices) with the row of step moved to the
// front, the others keeping their order, and whether step has a row.
func stepFirst(rows []StepRow, order []int, step int) ([]int, bool) {
	for k, i := range order {
		if rows[i].Step == step {
			return toFront(order, k), true
		}
	}
	return order, false
}

// toFront returns a copy of order with its k-th entry first, the others
// keeping their order.
func toFront(order []int, k int) []int {
	out := make([]int, 0, len(order))
	out = append(out, order[k])
	out = append(out, order[:k]...)
	return append(out, order[k+1:]...)
}

// LastStepBaseline blames the run's last step that can be blamed (not a
// system prompt, not the task), then the ones before it.
func LastStepBaseline(r *run.Run) Attribution {
	a := Attribution{File: r.Source, Mode: ModeRules, Evidence: []Evidence{}, Candidates: []Candidate{}}
	for _, i := range blamable(r) {
		a.Candidates = append(a.Candidates, Candidate{Step: i, Agent: r.Steps[i].Agent, Rules: []string{"baseline_last_step"}})
	}
	slices.Reverse(a.Candidates)
	return positional(r, a, "Baseline: step %d (%s) is the run's last step.")
}

// RandomBaseline blames a step drawn uniformly from those that can be
// blamed, by a hash of the run's content: the same run gets the same
// guess on any machine, and over many runs it is as right as chance.
func RandomBaseline(r *run.Run) Attribution {
	a := Attribution{File: r.Source, Mode: ModeRules, Evidence: []Evidence{}, Candidates: []Candidate{}}
	steps := blamable(r)
	h := fnv.New64a()
	h.Write([]byte(r.Fingerprint()))
	rng := rand.New(rand.NewPCG(h.Sum64(), 0))
	rng.Shuffle(len(steps), func(i, j int) { steps[i], steps[j] = steps[j], steps[i] })
	for _, i := range steps {
		a.Candidates = append(a.Candidates, Candidate{Step: i, Agent: r.Steps[i].Agent, Rules: []string{"baseline_random"}})
	}
	return positional(r, a, "Baseline: step %d (%s), drawn at random.")
}

// blamable lists the steps a positional guess may name: every step but
// system prompts and the first user message (the task); all of them when
// that leaves none.
func blamable(r *run.Run) []int {
	var out []int
	task := true
	for _, s := range r.Steps {
		switch {
		case s.Kind == run.KindSystem:
		case s.Kind == run.KindUser && task:
			task = false
		default:
			out = append(out, s.Index)
		}
	}
	if len(out) == 0 {
		for i := range r.Steps {
			out = append(out, i)
		}
	}
	return out
}

// lastBlamable is the last of blamable(r), found without listing them: a
// long run's list is as long as the run.
func lastBlamable(r *run.Run) int {
	task := slices.IndexFunc(r.Steps, func(s run.Step) bool { return s.Kind == run.KindUser })
	for i := len(r.Steps) - 1; i >= 0; i-- {
		if s := &r.Steps[i]; s.Kind != run.KindSystem && i != task {
			return s.Index
		}
	}
	return len(r.Steps) - 1
}

// positional scores a guess's candidates in their order and answers with
// the first, explained by why (a format with the step and its agent).
func positional(r *run.Run, a Attribution, why string) Attribution {
	for i := range a.Candidates {
		a.Candidates[i].Score = 1 / float64(i+2)
	}
	if len(a.Candidates) == 0 {
		a.Step = -1
		a.Rationale = "No step to guess: the run is empty."
		return a
	}
	top := a.Candidates[0]
	a.Agent, a.Step, a.Confidence = top.Agent, top.Step, top.Score
	a.Evidence = append(a.Evidence, Evidence{Rule: top.Rules[0], Step: top.Step, Quote: Quote(r.Steps[top.Step].Content, 0, 0)})
	a.Rationale = fmt.Sprintf(why, top.Step, top.Agent)
	return a
}

// BusiestFirstBaseline is the label-free floor that needs no reading at
// all: the agent with the most messages (after the task), at its first
// one; its later messages follow as candidates.
func BusiestFirstBaseline(r *run.Run) Attribution {
	a := Attribution{File: r.Source, Mode: ModeRules, Evidence: []Evidence{}, Candidates: []Candidate{}}
	busiest, first := busiestAgent(r)
	for _, s := range r.Steps {
		if s.Index != first && run.AgentKey(s.Agent) == busiest && s.Kind != run.KindUser && s.Kind != run.KindSystem && s.Kind != run.KindToolResult {
			a.Candidates = append(a.Candidates, Candidate{Step: s.Index, Agent: s.Agent, Score: 1 / float64(len(a.Candidates)+2), Rules: []string{"baseline_busiest_first"}})
		}
	}
	if len(a.Candidates) == 0 {
		return FirstStepBaseline(r)
	}
	top := a.Candidates[0]
	a.Agent, a.Step, a.Confidence = top.Agent, top.Step, top.Score
	a.Rationale = fmt.Sprintf("Baseline: %s sends the most messages; blaming its first, step %d.", top.Agent, top.Step)
	return a
}

// busiestAgent returns the key (run.AgentKey) of the agent with the most
// messages after the task, "" when no agent has one, and the index of the
// task: the first message, neither a user's, a system prompt nor a tool's
// output, that the run holds (-1 if none).
func busiestAgent(r *run.Run) (key string, task int) {
	count := map[string]int{}
	keyOf := agentKeys{}.of
	task = -1
	for _, s := range r.Steps {
		if s.Kind == run.KindUser || s.Kind == run.KindSystem || s.Kind == run.KindToolResult {
			continue
		}
		if task < 0 {
			task = s.Index
			continue
		}
		count[keyOf(s.Agent)]++
	}
	most := 0
	for _, s := range r.Steps {
		if k := keyOf(s.Agent); count[k] > most {
			key, most = k, count[k]
		}
	}
	return key, task
}

// agentKeys makes each agent name's run.AgentKey once, for a reader of
// every step: a run has few agents and many steps.
type agentKeys map[string]string

func (m agentKeys) of(name string) string {
	k, ok := m[name]
	if !ok {
		k = run.AgentKey(name)
		m[name] = k
	}
	return k
}

// firstAgentStep is the step FirstStepBaseline blames: the first after
// the task that is neither a user's nor a system prompt; the first step
// when there is none.
func firstAgentStep(r *run.Run) int {
	for _, s := range r.Steps[min(1, len(r.Steps)):] {
		if isAgentStep(s) {
			return s.Index
		}
	}
	return 0
}

// agentSteps lists the steps after the first that are neither a user's nor
// a system prompt, in order.
func agentSteps(r *run.Run) []int {
	var out []int
	for _, s := range r.Steps[min(1, len(r.Steps)):] {
		if isAgentStep(s) {
			out = append(out, s.Index)
		}
	}
	return out
}

// isAgentStep reports whether s is neither a user's nor a system prompt.
func isAgentStep(s run.Step) bool { return s.Kind != run.KindUser && s.Kind != run.KindSystem }

// AgentRoles returns the keys (run.AgentKey) of the agents the label-free
// guesses name: the one with the most messages (busiest-first), the first
// to speak after the task (first-step) and the speaker of the last step
// that can be blamed (last-step). Empty for an empty run.
func AgentRoles(r *run.Run) (busiest, first, last string) {
	if len(r.Steps) == 0 {
		return "", "", ""
	}
	first = run.AgentKey(r.Steps[firstAgentStep(r)].Agent)
	if busiest, _ = busiestAgent(r); busiest == "" {
		busiest = first
	}
	return busiest, first, run.AgentKey(r.Steps[lastBlamable(r)].Agent)
}

// FirstStepBaseline is the positional guess the papers report as a floor:
// it blames the first agent message after the task, then the following ones
// in order.
func FirstStepBaseline(r *run.Run) Attribution {
	a := Attribution{File: r.Source, Mode: ModeRules, Evidence: []Evidence{}, Candidates: []Candidate{}}
	for _, i := range agentSteps(r) {
		a.Candidates = append(a.Candidates, Candidate{Step: i, Agent: r.Steps[i].Agent, Score: 1 / float64(len(a.Candidates)+2), Rules: []string{"baseline_first_step"}})
	}
	if len(a.Candidates) == 0 {
		s := r.Steps[0]
		a.Candidates = append(a.Candidates, Candidate{Step: s.Index, Agent: s.Agent, Score: 0.5, Rules: []string{"baseline_first_step"}})
	}
	top := a.Candidates[0]
	a.Agent, a.Step, a.Confidence = top.Agent, top.Step, top.Score
	a.Evidence = append(a.Evidence, Evidence{Rule: "baseline_first_step", Step: top.Step, Quote: Quote(r.Steps[top.Step].Content, 0, 0)})
	a.Rationale = fmt.Sprintf("Baseline: step %d (%s) is the first agent message after the task.", top.Step, top.Agent)
	return a
}

// Baseline is the honest floor every real rule must beat: it blames the first
// non-user step with explicit failure words (extract's FailureWords), or,
// when no step has them, the first step that is not the task itself. Later
// such steps follow as alternatives.
func Baseline(in *Input) Attribution {
	r := in.Run
	a := Attribution{File: r.Source, Mode: ModeRules, Evidence: []Evidence{}, Candidates: []Candidate{}}
	for _, s := range r.Steps {
		if s.Kind == run.KindUser {
			continue
		}
		w := in.Features.Steps[s.Index].FailureWords
		if w == nil {
			continue
		}
		a.Evidence = append(a.Evidence, Evidence{Rule: "baseline_error_signal", Step: s.Index, Quote: Quote(s.Content, w.Offset, w.Len)})
		a.Candidates = append(a.Candidates, Candidate{Step: s.Index, Agent: s.Agent, Rules: []string{"baseline_error_signal"}})
	}
	if len(a.Candidates) == 0 {
		for _, s := range r.Steps {
			if s.Kind != run.KindUser && s.Index > 0 {
				a.Candidates = append(a.Candidates, Candidate{Step: s.Index, Agent: s.Agent, Rules: []string{"baseline_first_step"}})
				a.Evidence = append(a.Evidence, Evidence{Rule: "baseline_first_step", Step: s.Index, Quote: Quote(s.Content, 0, 0)})
				break
			}
		}
	}
	if len(a.Candidates) == 0 {
		s := r.Steps[0]
		a.Candidates = append(a.Candidates, Candidate{Step: s.Index, Agent: s.Agent, Rules: []string{"baseline_first_step"}})
	}
	for i := range a.Candidates {
		a.Candidates[i].Score = 1 / float64(i+2)
	}
	top := a.Candidates[0]
	a.Agent, a.Step, a.Confidence = top.Agent, top.Step, top.Score
	if top.Rules[0] == "baseline_error_signal" {
		a.Rationale = fmt.Sprintf("Baseline: step %d (%s) is the first step with an explicit error signal.", top.Step, top.Agent)
	} else {
		a.Rationale = fmt.Sprintf("Baseline: no step shows an error signal; blaming the first step after the task, step %d (%s).", top.Step, top.Agent)
	}
	return a
}

// Quote returns a short single-line excerpt of s around [start, start+n),
// for evidence a person can find in the log.
func Quote(s string, start, n int) string {
	const width = 160
	if start < 0 || start > len(s) {
		start = 0
	}
	from := start - 40
	if from < 0 || n == 0 {
		from = start
	}
	for from > 0 && !isBoundary(s, from) {
		from--
	}
	to := from + width
	if to > len(s) {
		to = len(s)
	}
	for to < len(s) && !isBoundary(s, to) {
		to++
	}
	var before, after string
	if from > 0 {
		before = "…"
	}
	if to < len(s) {
		after = "…"
	}
	return before + collapseSpace(s[from:to]) + after
}

// collapseSpace returns s with its words one space apart and no space
// around them: s itself when they already are, as in most quotes, so
// that a finding's quote shares the step's text instead of copying it.
func collapseSpace(s string) string {
	if singleSpaced(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// singleSpaced reports whether strings.Fields would find s's words one
// space apart, with no space before the first or after the last.
func singleSpaced(s string) bool {
	space := true // at the start, a space would be leading
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		switch {
		case r == ' ' && space, r != ' ' && unicode.IsSpace(r):
			return false
		}
		space = r == ' '
		i += size
	}
	return !space || s == ""
}

// isBoundary reports whether i starts a UTF-8 character, so quotes never cut
// a rune in half.
func isBoundary(s string, i int) bool { return i >= len(s) || s[i]&0xC0 != 0x80 }
