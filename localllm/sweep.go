package localllm

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/ollama/ollama/api"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
)

// The sweep strategy lets the model look across the whole run, so that it
// can find a fault the rules did not rank (Who&When's step-by-step and
// binary search read the run; RAFFLES iterates with a memory; ECHO reads
// in context windows). A round is:
//
//  1. reading: the run in windows that fit the model's context
//     (window.go), one call each; the reader names at most maxSuspects
//     steps of its window that may be the decisive fault, with a reason;
//  2. judging: the panel, as the rank strategy runs it, judges the rules'
//     top candidates and the readers' most confident suspects (at most
//     suspectSlots), each with its L1–L4 context and the readers' reasons.
//
// A round ends the sweep when the panel's winner meets the criteria
// (acceptCriteria). Otherwise the finalists the panel rated low are
// rejected, with the criterion they failed, and the next round's readers
// are told so and cannot name them again (their schema leaves them out):
// RAFFLES's memory of rejected hypotheses. --rounds bounds the rounds; by
// default a second round also has to fit the run's token budget
// (caseTokens).

const (
	// maxSuspects is how many steps one window may name.
	maxSuspects = 3
	// suspectSlots is how many of the readers' suspects the panel judges,
	// beside the rules' top candidates.
	suspectSlots = 3
	// suspectReasonChars bounds a suspect's reason in the schema.
	suspectReasonChars = 150
	// acceptCriteria is the mean criteria score (fault, first, decisive)
	// at which the panel's winner ends the sweep, as RAFFLES stops when its
	// evaluators' summed confidence passes a threshold.
	acceptCriteria = 0.5
	// maxWindows bounds the calls a round's reading makes; steps beyond
	// them are not read (the rationale says so).
	maxWindows = 8
	// maxWindowTokens bounds one reading call, well inside an 8K num_ctx.
	maxWindowTokens = 4500
)

// The reading budget of a round, in estimated prompt tokens over all its
// windows' logs: half the run, at least minReadTokens (a short run is
// then read in full) and at most maxReadTokens. With the panel's budget
// (budget.go) this keeps a case near 5K tokens on a 10-step run and
// under 16K on a 130-step one; see the README's figures.
const (
	minReadTokens = 1000
	maxReadTokens = 5000
)

func readBudget(runTokens int) int {
	return min(max(runTokens/2, minReadTokens), maxReadTokens)
}

// caseTokens is the run's token budget for the default rounds: a second
// round runs only if, at the first round's cost, it stays within it.
func caseTokens(runTokens int) int {
	return min(max(2*runTokens, 6000), 16000)
}

// readerRole is the one who reads a window; it is not one of the panel.
var readerRole = Role{Name: "reader"}

const sweepSystemPrompt = `You read one part of the log of a failed multi-agent run to find where its decisive fault may be: the earliest step whose correction would have turned the failure into a success. Such a step is a mistake (a wrong fact or reasoning, a wrong or unfollowed instruction, a bad tool use) that was not corrected later and led to the failure.
%s
Name at most %d steps of this part that may be the decisive fault, the most suspicious first, each with a reason of at most 20 words and your confidence from 0 to 1. Name no step if nothing in this part looks wrong. Steps already rejected cannot be named again. Answer with JSON only.`

func sweepSystem() string { return fmt.Sprintf(sweepSystemPrompt, dataNotice, maxSuspects) }

// suspect is a step a reader named.
type suspect struct {
	Reason     string  `json:"reason"`
	Step       int     `json:"step"`
	Confidence float64 `json:"confidence"`
	// choices is how many steps the reader chose it among.
	choices int
}

// suspectSchema lets a reader name at most maxSuspects of steps, reason
// first.
func suspectSchema(steps []int) *jsonschema.Schema {
	return object(property{"suspects", list(object(
		property{"reason", text(suspectReasonChars)},
		property{"step", integerEnum(steps...)},
		property{"confidence", number(0, 1)},
	), maxSuspects)})
}

// suspectTokens is a reader's num_predict: about 60 tokens a suspect.
func suspectTokens(think bool) int {
	n := 24 + 60*maxSuspects
	if think {
		n += thinkTokens
	}
	return n
}

// parseSuspects reads an answer that passed the schema; a step named
// twice counts once, with its first reason.
func parseSuspects(content string, steps []int) ([]suspect, error) {
	var a struct {
		Suspects []suspect `json:"suspects"`
	}
	if err := json.Unmarshal([]byte(content), &a); err != nil {
		return nil, err
	}
	var out []suspect
	for _, s := range a.Suspects {
		if !slices.Contains(steps, s.Step) {
			// The schema allows only shown steps; this guards the promise.
			return nil, fmt.Errorf("step %d was not shown", s.Step)
		}
		if !slices.ContainsFunc(out, func(o suspect) bool { return o.Step == s.Step }) {
			s.Reason = strings.Join(strings.Fields(s.Reason), " ")
			s.choices = len(steps)
			out = append(out, s)
		}
	}
	return out, nil
}

// sweep is one run's sweep: what it read, what it rejected, what it spent.
type sweep struct {
	j       *Judge
	r       *run.Run
	f       *extract.RunFeatures
	att     rules.Attribution
	name    string
	render  ContextFunc
	focus   []int // the rules' top candidates, read in full
	entries []readEntry

	seen     map[int]bool
	raised   map[int]suspect // a step's first naming, with its reason
	rejected []rules.Rejection
	usage    rules.Usage
	planned  int // estimated prompt tokens of the calls made
	windows  int
	unread   int // steps beyond maxWindows in the last reading
}

func (j *Judge) newSweep(r *run.Run, f *extract.RunFeatures, att rules.Attribution, name string) *sweep {
	if f == nil || len(f.Steps) != len(r.Steps) {
		f = extract.Run(r)
	}
	s := &sweep{j: j, r: r, f: f, att: att, name: name, render: j.render(r, f), seen: map[int]bool{}, raised: map[int]suspect{}}
	for _, c := range j.pick(r, att) {
		s.focus = append(s.focus, c.Step)
	}
	s.entries = readEntries(r, f, s.focus)
	return s
}

// readerBudget is the prompt budget of one reading call.
func (s *sweep) readerBudget(factor int) int {
	return min(maxWindowTokens, promptLimitFor(s.j.model.NumCtx, suspectTokens(s.j.thinks()))) / factor
}

// reading is a planned round of reading: its windows and their prompts.
type reading struct {
	windows []window
	calls   []call
	unread  int
}

// plan lays the run out in windows for a round with memory (the rejected
// hypotheses so far), each prompt within the reader's budget.
func (s *sweep) plan(factor int) (reading, error) {
	budget := s.readerBudget(factor)
	d := newDataHead(s.r, budget)
	d.notes = s.memory()
	intro := s.intro(0, 0, 0)
	capacity := budget - EstimateTokens(sweepSystem()) - d.tokens() - EstimateTokens(intro) - fenceTokens(d.fence, "log") - 2*perMessage - 8
	if capacity < minContextTokens {
		return reading{}, fmt.Errorf("model %s: a %d-token reading window leaves no room for the log", s.j.model.Name, budget)
	}
	es := slices.Clone(s.entries)
	total := fitEntries(es, readBudget(runTokens(s.r))/factor, capacity)
	ws := packWindows(es, total, capacity)
	rd := reading{windows: ws}
	if len(ws) > maxWindows {
		rd.windows = ws[:maxWindows]
		rd.unread = len(s.r.Steps) - 1 - rd.windows[maxWindows-1].to
	}
	rejected := map[int]bool{}
	for _, x := range s.rejected {
		rejected[x.Step] = true
	}
	for k, w := range rd.windows {
		steps := slices.DeleteFunc(w.steps(), func(i int) bool { return rejected[i] })
		if len(steps) == 0 {
			continue
		}
		fm, err := newFormat(suspectSchema(steps))
		if err != nil {
			return reading{}, err
		}
		user := d.write(s.intro(k+1, len(rd.windows), w.from)+fmt.Sprintf("through %d.\n", w.to), w.text())
		rd.calls = append(rd.calls, s.j.newReaderCall(user, fm, steps))
	}
	return rd, nil
}

// intro is the line before a window's log. (Its length does not depend
// on the numbers beyond a few bytes, which the budget's slack absorbs.)
func (s *sweep) intro(k, n, from int) string {
	return fmt.Sprintf("Part %d of %d of the log, a run of %d steps: steps near the rules' suspects in full (cut if long), the others reduced to key decisions, summaries or milestones, as each label says; steps %d ",
		k, n, len(s.r.Steps), from)
}

// memory is the rejected hypotheses, one a line, for the readers.
func (s *sweep) memory() string {
	var b strings.Builder
	for _, x := range s.rejected {
		fmt.Fprintf(&b, "Step %d was examined and rejected: %s\n", x.Step, x.Reason)
	}
	return b.String()
}

// newReaderCall is a reader's request, made as an analyst's is.
func (j *Judge) newReaderCall(user string, fm *format, steps []int) call {
	c := j.newCall(readerRole, prompt{steps: steps, user: user, format: fm})
	c.req.Messages[0].Content = sweepSystem()
	c.req.Options["num_predict"] = suspectTokens(j.thinks())
	c.window = true
	return c
}

// read runs a round of reading and returns the suspects in step order.
// Its error is non-nil only when ctx ended.
func (s *sweep) read(ctx context.Context) ([]suspect, error) {
	for {
		factor := s.j.shrink.get()
		rd, err := s.plan(factor)
		if err != nil {
			s.j.warns.line(s.name, err.Error()+"; the sweep reads nothing")
			return nil, nil
		}
		outs := s.j.askAll(ctx, rd.calls)
		for i, o := range outs {
			s.usage = s.usage.Add(o.usage)
			s.planned += callTokens(rd.calls[i].req)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if overflowed(outs) && s.j.shrink.grow(factor) {
			s.j.warnOnce("overflow", fmt.Sprintf("model %s: prompts sized at bytes/4 tokens do not fit its context; shrinking them %d×", s.j.model.Name, s.j.shrink.get()))
			continue
		}
		s.windows, s.unread = len(rd.windows), rd.unread
		var sus []suspect
		for i, o := range outs {
			c := rd.calls[i]
			if o.problem != "" {
				s.j.warns.line(s.name, fmt.Sprintf("reader of steps %d-%d: %s; answer dropped", c.steps[0], c.steps[len(c.steps)-1], o.problem))
				continue
			}
			// The reader answered: every step it was offered was its to
			// name.
			for _, st := range c.steps {
				s.seen[st] = true
			}
			sus = append(sus, o.suspects...)
		}
		slices.SortStableFunc(sus, func(a, b suspect) int { return cmp.Compare(a.Step, b.Step) })
		for _, x := range sus {
			if _, ok := s.raised[x.Step]; !ok {
				s.raised[x.Step] = x
			}
		}
		return sus, nil
	}
}

// callTokens estimates a request's prompt as the server would count it.
func callTokens(req *api.ChatRequest) int {
	n := 0
	for _, m := range req.Messages {
		n += EstimateTokens(m.Content) + perMessage
	}
	return n
}

// askAll asks every call at once (Parallel bounds them).
func (j *Judge) askAll(ctx context.Context, calls []call) []outcome {
	outs := make([]outcome, len(calls))
	var wg sync.WaitGroup
	for i, c := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i] = j.ask(ctx, c)
		}()
	}
	wg.Wait()
	return outs
}

// finalists are the candidates the panel judges: the rules' top
// candidates and the incumbent (the last round's winner) that were not
// rejected, then the readers' most confident suspects, in that order (the
// consensus breaks ties by it).
func (s *sweep) finalists(sus []suspect, incumbent *rules.Candidate) []rules.Candidate {
	rejected := map[int]bool{}
	for _, x := range s.rejected {
		rejected[x.Step] = true
	}
	var out []rules.Candidate
	has := func(step int) bool {
		return slices.ContainsFunc(out, func(c rules.Candidate) bool { return c.Step == step })
	}
	for _, c := range s.j.pick(s.r, s.att) {
		if !rejected[c.Step] {
			out = append(out, c)
		}
	}
	if incumbent != nil && !has(incumbent.Step) {
		out = append(out, *incumbent)
	}
	byConfidence := slices.Clone(sus)
	slices.SortStableFunc(byConfidence, func(a, b suspect) int { return cmp.Compare(b.Confidence, a.Confidence) })
	added := 0
	for _, x := range byConfidence {
		if added == suspectSlots {
			break
		}
		if rejected[x.Step] || has(x.Step) {
			continue
		}
		out = append(out, s.candidate(x.Step))
		added++
	}
	return out
}

// candidate is step as the rules ranked it, or unranked (score 0) with
// the agent that answers for it.
func (s *sweep) candidate(step int) rules.Candidate {
	for _, c := range s.att.Candidates {
		if c.Step == step {
			return c
		}
	}
	agent := s.r.Steps[step].Agent
	if c := int(s.f.Steps[step].Caller); c >= 0 && c < len(s.r.Steps) {
		agent = s.r.Steps[c].Agent
	}
	return rules.Candidate{Step: step, Agent: agent}
}

// notes are the readers' reasons for the finalists they raised, for the
// panel.
func (s *sweep) notes(judged []rules.Candidate) string {
	var b strings.Builder
	for _, c := range judged {
		if x, ok := s.raised[c.Step]; ok {
			fmt.Fprintf(&b, "A reader raised step %d: %s\n", c.Step, x.Reason)
		}
	}
	return b.String()
}

// reject records the finalists the panel rated below acceptCriteria, with
// the criterion that failed most; it reports whether it rejected any.
func (s *sweep) reject(t *tally) bool {
	rejected := false
	for _, c := range t.judged {
		k := t.crit[c.Step]
		if k.mean() >= acceptCriteria || slices.ContainsFunc(s.rejected, func(x rules.Rejection) bool { return x.Step == c.Step }) {
			continue
		}
		why := "the panel found no mistake there"
		switch lowest := min(k.Fault, k.First, k.Decisive); {
		case lowest == k.First && k.Fault >= acceptCriteria:
			why = "an earlier step erred first"
		case lowest == k.Decisive && k.Fault >= acceptCriteria:
			why = "the mistake was corrected or did not decide the outcome"
		}
		reason := fmt.Sprintf("%s (fault %.2f, first %.2f, decisive %.2f)", why, k.Fault, k.First, k.Decisive)
		if raised, ok := s.raised[c.Step]; ok {
			reason = fmt.Sprintf("raised as %q, but %s", clipBytes(raised.Reason, 80), reason)
		}
		s.rejected = append(s.rejected, rules.Rejection{Step: c.Step, Reason: reason})
		rejected = true
	}
	return rejected
}

// sweepReview runs the sweep on r and combines the last panel that
// answered with the rules.
func (j *Judge) sweepReview(ctx context.Context, s *sweep, review *rules.ModelReview) (rules.Attribution, error) {
	att := s.att
	cancelled := func(err error) (rules.Attribution, error) {
		att.Usage = att.Usage.Add(s.usage)
		j.warns.line(s.name, "model calls cancelled; the rules' answer stands")
		return att, fmt.Errorf("judge %s: %w", s.name, err)
	}
	var (
		incumbent *rules.Candidate
		judged    []rules.Candidate
		outs      []outcome
		roundCost int
	)
	rounds := 0
	for rounds < j.opts.Rounds {
		rounds++
		before := s.planned
		sus, err := s.read(ctx)
		if err != nil {
			return cancelled(err)
		}
		cands := s.finalists(sus, incumbent)
		if len(cands) == 0 {
			break
		}
		got, err := j.judge(ctx, s.r, s.render, cands, s.notes(cands))
		s.usage = s.usage.Add(got.spent)
		s.planned += got.planned
		if err != nil {
			for _, o := range got.outs {
				s.usage = s.usage.Add(o.usage)
			}
			return cancelled(err)
		}
		if got.failed != "" {
			j.warns.line(s.name, got.failed+"; the panel was not asked")
			break
		}
		if !answered(got.outs) && outs != nil {
			// Keep the last panel that answered; this one's calls count.
			for _, o := range got.outs {
				s.usage = s.usage.Add(o.usage)
			}
			break
		}
		for _, o := range outs {
			s.usage = s.usage.Add(o.usage) // a superseded panel's calls
		}
		judged, outs = cands, got.outs
		if answered(outs) {
			for _, c := range judged {
				s.seen[c.Step] = true
			}
		}
		roundCost = max(roundCost, s.planned-before)
		t := newTally(att, judged, outs)
		if t.mu == 0 || accepted(t) {
			break
		}
		if j.roundsBudgeted && s.planned+roundCost > caseTokens(runTokens(s.r)) {
			break
		}
		if !s.reject(t) {
			break
		}
		best := t.rescore(judged)[0]
		incumbent = &best
	}
	review.Rounds = rounds
	review.Windows = s.windows
	review.CandidatesSeen = sortedSteps(s.seen)
	review.Finalists = stepsOf(judged)
	review.Rejected = s.rejected
	if outs == nil {
		// Not even the reading left a finalist (a run without steps).
		att.Usage = att.Usage.Add(s.usage)
		att.Model = review
		return att, nil
	}
	for _, o := range outs {
		if o.answer == nil {
			j.warns.line(s.name, fmt.Sprintf("analyst %s: %s; answer dropped", o.role.Name, o.problem))
		}
	}
	// combine counts the last panel's calls; s.usage holds the rest.
	out := combine(att, judged, outs, j.model, Roles[:j.opts.Panel], readerChoices(s.raised), review, j.weighing)
	out.Usage = out.Usage.Add(s.usage)
	out.Rationale = joinSentences(out.Rationale, s.explain(rounds))
	return out, nil
}

// accepted reports whether the panel's winner meets the criteria.
func accepted(t *tally) bool {
	best := t.rescore(t.judged)[0]
	return t.crit[best.Step].mean() >= acceptCriteria
}

func answered(outs []outcome) bool {
	for _, o := range outs {
		if o.answer != nil {
			return true
		}
	}
	return false
}

// explain says what the sweep read and set aside.
func (s *sweep) explain(rounds int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The model read the run in %d window(s) over %d round(s) and could name %d of its %d steps",
		s.windows, rounds, len(s.seen), len(s.r.Steps))
	if len(s.raised) > 0 {
		fmt.Fprintf(&b, "; readers raised steps %s", joinInts(slices.Sorted(maps.Keys(s.raised))))
	}
	b.WriteString(".")
	if s.unread > 0 {
		fmt.Fprintf(&b, " The last %d steps did not fit %d windows and were not read.", s.unread, maxWindows)
	}
	if len(s.rejected) > 0 {
		var xs []string
		for _, x := range s.rejected {
			xs = append(xs, fmt.Sprint(x.Step))
		}
		fmt.Fprintf(&b, " Rejected: steps %s.", strings.Join(xs, ", "))
	}
	return b.String()
}

// readerChoices maps each raised step to how many steps its reader
// chose it among.
func readerChoices(raised map[int]suspect) map[int]int {
	out := make(map[int]int, len(raised))
	for k, x := range raised {
		out[k] = x.choices
	}
	return out
}

func sortedSteps(m map[int]bool) []int {
	out := []int{}
	for k, ok := range m {
		if ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func stepsOf(cs []rules.Candidate) []int {
	out := []int{}
	for _, c := range cs {
		out = append(out, c.Step)
	}
	return out
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ", ")
}
