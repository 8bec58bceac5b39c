package graph

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

// synthRun generates a run of n steps that looks like a planner-led team at
// work: a task, a plan, then cycles of ledger, instruction, executor report
// or code, tool output (some of it failing), with re-plans now and then,
// instructions repeated verbatim or reworded (loops), and numbers handed on
// from step to step (data flow). The same n and seed give the same run.
func synthRun(n int, seed uint64) (*run.Run, *extract.RunFeatures) {
	s := &synth{rng: rand.New(rand.NewPCG(seed, 0x5eed)), r: &run.Run{Source: fmt.Sprintf("synthetic-%d", n)}, f: &extract.RunFeatures{}}
	s.r.Question = "Find the total yearly cost of 3 storage plans at 1250 GB each and compare it with the budget of 4800 dollars."
	for _, c := range []string{"3", "1250", "4800"} {
		s.f.Question = append(s.f.Question, extract.Claim{Kind: extract.ClaimNumber, Text: c, Norm: c})
	}
	s.step("user", extract.KindTask, "", s.r.Question, nil)
	sinceReplan := 0
	for len(s.r.Steps) < n-1 {
		switch {
		case len(s.r.Steps) == 1:
			s.plan(extract.KindPlan)
		case sinceReplan > 40 && s.rng.IntN(10) == 0:
			s.plan(extract.KindReplan)
			sinceReplan = 0
		default:
			s.cycle()
		}
		sinceReplan = len(s.r.Steps) - s.lastPlan
	}
	s.step("planner", extract.KindFinalAnswer, "", "FINAL ANSWER: the total is "+s.value()+" dollars.", nil)
	s.r.Steps, s.f.Steps = s.r.Steps[:n], s.f.Steps[:n]
	extract.AssignCallers(s.r, s.f)
	return s.r, s.f
}

type synth struct {
	rng      *rand.Rand
	r        *run.Run
	f        *extract.RunFeatures
	pool     []string          // numbers stated so far
	lastInst map[string]string // last instruction to each executor
	lastPlan int
}

var synthWords = strings.Fields(`storage plan provider price month year tier archive backup region
	transfer egress request cold hot replica volume snapshot quota discount contract invoice
	table column page result search listing vendor offer account limit usage estimate total
	compare summary detail report source link official pricing calculator documentation`)

var synthTasks = []string{
	"Search the %s pricing page of vendor %d and report the %s price per %s for the %s tier",
	"Open the %s documentation of vendor %d and list every %s limit that applies to the %s %s",
	"Compute the %s total for %d plans from the %s table and check the %s %s",
}

func (s *synth) word() string { return synthWords[s.rng.IntN(len(synthWords))] }

// value returns a number: half the time one already stated (data flow),
// else a new one.
func (s *synth) value() string {
	if len(s.pool) > 0 && s.rng.IntN(2) == 0 {
		return s.pool[s.rng.IntN(len(s.pool))]
	}
	v := fmt.Sprintf("%d.%02d", 10+s.rng.IntN(9000), s.rng.IntN(100))
	s.pool = append(s.pool, v)
	return v
}

func (s *synth) words(k int) string {
	w := make([]string, k)
	for i := range w {
		w[i] = s.word()
	}
	return strings.Join(w, " ")
}

func (s *synth) step(agent string, kind extract.StepKind, target, text string, errs []extract.Signal) {
	i := len(s.r.Steps)
	s.r.Steps = append(s.r.Steps, run.Step{Index: i, Agent: agent, Kind: run.KindMessage, Content: text, Extra: &run.Extra{Target: target}})
	ft := extract.Features{Index: int32(i), Kind: kind, Kinds: extract.KindsOf(kind), Details: &extract.Details{Rare: &extract.Rare{Target: target}, Errors: errs}}
	for _, tok := range strings.Fields(text) {
		tok = strings.Trim(tok, ".,:;()")
		if tok != "" && (tok[0] >= '0' && tok[0] <= '9') {
			ft.Claims = append(ft.Claims, extract.Claim{Kind: extract.ClaimNumber, Text: tok, Norm: tok})
		}
	}
	s.f.Steps = append(s.f.Steps, ft)
}

func (s *synth) plan(kind extract.StepKind) {
	s.lastPlan = len(s.r.Steps)
	var sb strings.Builder
	sb.WriteString("Here is the plan to follow as best as possible:\n")
	for k := 1; k <= 5; k++ {
		fmt.Fprintf(&sb, "- Step %d: %s %s, expected near %s.\n", k, s.words(6), s.word(), s.value())
	}
	s.step("planner", kind, "", sb.String(), nil)
}

// cycle adds a ledger, an instruction, and the executor's work.
func (s *synth) cycle() {
	if s.lastInst == nil {
		s.lastInst = map[string]string{}
	}
	target := []string{"browser", "coder"}[s.rng.IntN(2)]
	s.step("planner", extract.KindLedger, "", fmt.Sprintf(`{"is_request_satisfied": false, "is_progress_being_made": %v, "next_speaker": %q, "reason": "%s"}`,
		s.rng.IntN(3) > 0, target, s.words(12)), nil)
	inst, repeat := s.lastInst[target], s.rng.IntN(10) < 3
	if inst == "" || !repeat {
		inst = fmt.Sprintf(synthTasks[s.rng.IntN(len(synthTasks))], s.word(), 1+s.rng.IntN(40), s.word(), s.word(), s.word())
	}
	s.lastInst[target] = inst
	s.step("planner", extract.KindInstruction, target, "Please "+inst+".", nil)
	if target == "browser" {
		s.step("browser", extract.KindMessage, "", fmt.Sprintf("I visited https://vendor%d.example/%s and found %s. The %s is %s and the %s is %s. %s",
			s.rng.IntN(50), s.word(), s.words(20), s.word(), s.value(), s.word(), s.value(), s.words(40)), nil)
		return
	}
	s.step("coder", extract.KindToolCall, "", fmt.Sprintf("```python\n# %s\nprices = [%s, %s, %s]\nprint(sum(prices) * 12)\n```", s.words(8), s.value(), s.value(), s.value()), nil)
	if s.rng.IntN(5) == 0 {
		s.step("runner", extract.KindToolResult, "", "exitcode: 1 (execution failed)\nCode output: Traceback (most recent call last): NameError: name 'prices' is not defined",
			[]extract.Signal{{Kind: "exit_code", Severity: extract.SeverityHigh, Quote: "exitcode: 1 (execution failed)"}})
		return
	}
	s.step("runner", extract.KindToolResult, "", "exitcode: 0 (execution succeeded)\nCode output: "+s.value(), nil)
}
