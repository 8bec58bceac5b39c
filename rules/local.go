package rules

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/run"
)

// localFault is CHIEF's local attribution: a step whose own action failed
// (its code or tool call errored, or it reports that it could not do its
// job) is a fault, and its own root when the steps it read were sound. When
// an input was already faulty the fault is propagated, and scored lower.
func localFault(in *Input) []Finding {
	// Each step's strongest finding, in the order its step was first
	// found; at[step] is its position in out. A long run has a finding
	// for many of its steps: a map of them by step held each one twice.
	var out []Finding
	at := map[int]int{}
	var causes [][2]int // a failing step and the step that first wrote the name its error quotes
	slip := firstSlip(in)
	// A worker's failure told before the coordinator gave up and answered
	// without a result (gaveUp) is one it met and reported; the decision
	// to stop on nothing is the coordinator's (premature_satisfaction).
	stop := gaveUp(in)
	toldBeforeStop := func(j int) bool {
		return stop >= 0 && j < stop && !run.SameAgent(responsible(in, j), in.Run.Steps[stop].Agent)
	}
	add := func(f Finding) {
		k, ok := at[f.Step]
		switch {
		case !ok:
			at[f.Step] = len(out)
			out = append(out, f)
		case f.Strength > out[k].Strength:
			out[k] = f
		}
	}
	for j := range in.Features.Steps {
		f := &in.Features.Steps[j]
		if sig, failed := toolFailed(f); failed {
			if toldBeforeStop(j) {
				continue
			}
			if corrected(in, j) >= 0 {
				continue // a failure the run recovered from is not a fault that decided it (CHIEF deviation-aware)
			}
			if serviceFailed(in, j) {
				continue // the service failed, not the call
			}
			if c := callerOf(in, j); c >= 0 {
				if o, n := omittedModule(in, j); o >= 0 && o < c {
					// The code imports what the design laid out; the
					// module's file went missing from the list.
					add(Finding{Step: o, Strength: failureWeight(sig), Quote: quoteAt(in, o, 0, 0),
						Reason: fmt.Sprintf("it lists the files to write without %s, which the failed run at step %d quotes as missing", n, j)})
					continue
				}
				if d, why := toolDefiner(in, j, c); d >= 0 {
					// The code run was the caller's test of another
					// agent's code, which answers for the failure as it
					// does for a tester's account of it.
					if k := repairOf(in, d, j); k >= 0 {
						if t, why := bentTo(in, d, k, j); t >= 0 {
							add(Finding{Step: t, Strength: failureWeight(sig), Quote: quoteAt(in, t, 0, 0), Reason: why})
						}
						continue
					}
					add(Finding{Step: d, Strength: failureWeight(sig), Quote: causeQuote(in, d, j), Reason: why})
					continue
				}
				add(Finding{Step: c, Strength: failureWeight(sig), Quote: quoteAt(in, j, sig.Offset, len(sig.Quote)), QuoteStep: quotedFrom(j),
					Reason: fmt.Sprintf("the code or call it issued failed when run at step %d (%s)", j, sig.Kind)})
			}
			continue
		}
		if !isAgentDecision(in, j) {
			continue
		}
		if j == slip {
			add(Finding{Step: j, Strength: 0.5, Quote: quoteAt(in, j, 0, 0),
				Reason: "what it writes is contradicted by its own arithmetic or by the calendar"})
		}
		if sig, ok := stepError(in, j); ok && sig.Severity >= extract.SeverityMedium {
			if toldBeforeStop(j) {
				continue
			}
			if recoveredFrom(in, j) >= 0 || echoesRecovered(in, j) {
				continue // the agent's tries got past it (CHIEF deviation-aware)
			}
			if retriesFailedCall(in, j) {
				continue // the failure it tells of is the result before it, which is read as such
			}
			o, why := errorCause(in, j)
			if o < 0 {
				// A failure that names no code of another's: the code a
				// later step rewrote, bent to the failed test, is still
				// read as bent (bentTo), and the failure as repaired.
				if d, k := rewrittenAfter(in, j); k >= 0 {
					if t, why := bentTo(in, d, k, j); t >= 0 {
						add(Finding{Step: t, Strength: 0.5, Quote: quoteAt(in, t, 0, 0), Reason: why})
						continue
					}
				}
			}
			if k := repairOf(in, o, j); k >= 0 {
				// The code the failure ran through was rewritten and ran
				// cleanly after (CHIEF deviation-aware); but a rewrite that
				// gave up the task's figure for another did what the
				// failed test asked, and the test asked it.
				if t, why := bentTo(in, o, k, j); t >= 0 {
					add(Finding{Step: t, Strength: 0.5, Quote: quoteAt(in, t, 0, 0), Reason: why})
				}
				continue
			}
			add(Finding{Step: j, Strength: 0.5, Quote: quoteAt(in, j, sig.Offset, len(sig.Quote)),
				Reason: fmt.Sprintf("the agent reports it could not do its part (%s)", sig.Kind)})
			if o >= 0 {
				add(Finding{Step: o, Strength: 0.5, Quote: causeQuote(in, o, j), Reason: why})
				causes = append(causes, [2]int{j, o})
			}
		}
	}
	// Which findings' input was already faulty is read off the findings as
	// found, before any is changed.
	faulty := make([]int, len(out))
	for k, f := range out {
		faulty[k] = -1
		for _, p := range in.Graph.Predecessors(f.Step, graph.Data, graph.Instructs, graph.Observes) {
			if j, ok := at[p]; ok && p < f.Step && out[j].Strength >= f.Strength {
				faulty[k] = p
				break
			}
		}
	}
	// A failure whose error names what an earlier step first wrote had a
	// faulty input too: the name it was given.
	for _, c := range causes {
		if k := at[c[0]]; faulty[k] < 0 {
			faulty[k] = c[1]
		}
	}
	for k, p := range faulty {
		if p >= 0 {
			out[k].Strength *= 0.5
			out[k].Reason += fmt.Sprintf("; but its input from step %d was already faulty", p)
		}
	}
	return out
}

// repairOf is the step after the failure reported at step j that
// rewrote the code of step o (the code errorCause blames) defining a
// function the failure ran through, when no step after the rewrite
// reports a failure through it again: the failure was repaired where it
// arose, as a failed call is corrected by a later clean one. It is -1
// when there is none: a team that edits the failing test instead leaves
// the code as it was, and the failure on it.
func repairOf(in *Input, o, j int) int {
	if o < 0 {
		return -1
	}
	for _, fn := range in.Features.Steps[o].Defines {
		if !slices.Contains(in.Features.Steps[j].FailedIn, fn) {
			continue
		}
		for k := j + 1; k < len(in.Features.Steps); k++ {
			f := &in.Features.Steps[k]
			if slices.Contains(f.FailedIn, fn) {
				break // it failed again before any rewrite held
			}
			if slices.Contains(f.Defines, fn) && isAgentDecision(in, k) && !f.Has(extract.KindToolResult) && !sameCode(in, o, k) {
				if failsAgain(in, fn, k) {
					return -1
				}
				return k
			}
		}
	}
	return -1
}

// rewrittenAfter is, for a failure reported at step j, the first agent
// step after it that writes code of a file an earlier step's code, before
// j, named and defining a function it defined, and that earlier step:
// the code the team rewrote after the failure, and the version it
// rewrote. It returns -1,
// -1 when no step did.
func rewrittenAfter(in *Input, j int) (int, int) {
	sup := in.supportIndex()
	writers, definers := sup.codeWriters(in)
	from, _ := slices.BinarySearch(writers, j+1)
	for _, k := range writers[from:] {
		f := &in.Features.Steps[k]
		o := -1 // the last step before j that defined a function k defines, in a file k names
		for _, fn := range f.Defines {
			ds := definers[fn]
			for n, _ := slices.BinarySearch(ds, j); n > 0 && ds[n-1] > o; n-- {
				if slices.ContainsFunc(in.Features.Steps[ds[n-1]].Files, func(p string) bool { return slices.Contains(f.Files, p) }) {
					o = ds[n-1]
					break
				}
			}
		}
		if o >= 0 && !sameCode(in, o, k) {
			return o, k
		}
	}
	return -1, -1
}

// failsAgain reports whether a step after k reports a failure that ran
// through function fn.
func failsAgain(in *Input, fn string, k int) bool {
	for m := k + 1; m < len(in.Features.Steps); m++ {
		if slices.Contains(in.Features.Steps[m].FailedIn, fn) {
			return true
		}
	}
	return false
}

// bentTo is, for code of step o rewritten at step k after the failure
// step j reports, the step that wrote the failed test, when the rewrite
// gave a constant another value where the code had a figure the task
// states and the new one it does not (SIGMA_LIMIT = 3.0 for the task's
// "3 standard deviations", rewritten to 2.0): the code was bent to what
// the test expected, and the test asked for a figure the task never gave.
// It returns -1 and "" otherwise.
func bentTo(in *Input, o, k, j int) (int, string) {
	text := in.supportIndex().text
	old := text.Assigns(o)
	for _, name := range slices.Sorted(maps.Keys(text.Assigns(k))) {
		v := text.Assigns(k)[name]
		was, ok := old[name]
		if !ok || was == v || !taskNumber(in, was) || taskNumber(in, v) || len(extract.NumberValues(v)) != 1 {
			continue
		}
		if t := testWriter(in, j); t >= 0 {
			return t, fmt.Sprintf("its test failed at step %d on the code of step %d, which step %d then rewrote to pass it, giving %s %s in place of the task's %s", j, o, k, name, v, was)
		}
	}
	return -1, ""
}

// taskNumber reports whether v, a constant's value holding one number
// (3.0, Decimal("50")), is a number the task states (in digits or in
// words), whatever way it is written (3 as 3.0).
func taskNumber(in *Input, v string) bool {
	nums := extract.NumberValues(v)
	if len(nums) != 1 {
		return false
	}
	x, err := strconv.ParseFloat(nums[0], 64)
	if err != nil {
		return false
	}
	if taskFigures(in)[x] {
		return true
	}
	for _, c := range in.Features.Question {
		if val, _ := c.Value(); val != "" {
			if y, err := strconv.ParseFloat(val, 64); err == nil && y == x {
				return true
			}
		}
	}
	return false
}

// testWriter is the latest agent step before step j that defines a test
// step j reports failed (extract's FailedTests), or else whose code
// names the file a failed assertion is in (FailedAt), or -1.
func testWriter(in *Input, j int) int {
	f := &in.Features.Steps[j]
	for _, name := range f.FailedTests {
		if k := lastBefore(in, j, func(g *extract.Features) bool { return slices.Contains(g.Defines, name) }); k != -2 {
			return k
		}
	}
	for _, p := range f.FailedAt {
		if k := lastBefore(in, j, func(g *extract.Features) bool { return len(g.Defines) > 0 && slices.Contains(g.Files, p) }); k != -2 {
			return k
		}
	}
	return -1
}

// firstSlip is the first agent's step whose own working-out is
// contradicted by its arithmetic or by the calendar (extract's
// Miscomputes), or -1: a slip is a fault of the step's own,
// as a failed call is, whatever it read. A slip a later step calls
// wrong (a critique, or the agent's own correction) was caught, and is
// none; a slip after that critique is a fault again.
//
// A slip is caught by any agent's critique after it, so the answer is the
// first slip at or after the last such critique (one at the critique's
// own step has none after it).
func firstSlip(in *Input) int {
	last := 0
	for k := len(in.Features.Steps) - 1; k >= 0; k-- {
		if in.Features.Steps[k].Critique != nil && isAgentDecision(in, k) {
			last = k
			break
		}
	}
	for j := last; j < len(in.Features.Steps); j++ {
		f := &in.Features.Steps[j]
		if f.Miscomputes && isAgentDecision(in, j) && !f.Has(extract.KindToolResult) && len(f.Code) == 0 {
			return j
		}
	}
	return -1
}

// lastBefore is the latest step before j whose features has, when it is
// an agent's own step, -1 when the latest is not (a tool's output), and
// -2 when no step has them.
func lastBefore(in *Input, j int, has func(*extract.Features) bool) int {
	for k := j - 1; k >= 0; k-- {
		if has(&in.Features.Steps[k]) {
			if isAgentDecision(in, k) && !in.Features.Steps[k].Has(extract.KindToolResult) {
				return k
			}
			return -1
		}
	}
	return -2
}

// LocalFault is the local_fault analyzer.
var LocalFault = &Analyzer{Name: "local_fault", Run: localFault, Requires: []Fact{FactKinds, FactSignals, FactToolCalls, FactDataFlow, FactInstructs, FactClaims, FactCritiques},
	Doc: "a step whose own call or code failed, whose own arithmetic or statement of the calendar does not hold, or that reports it could not do its part; less when its input was already faulty (CHIEF local attribution)"}

// retriesFailedCall reports whether agent step j, right after the failed
// result of a call its own agent made, makes that call again, does not
// answer, and meets the same failure: the failure it tells of ("the
// search failed, I will try again") is the tool's, taken in, not a part
// it could not do.
func retriesFailedCall(in *Input, j int) bool {
	p := j - 1
	if p < 0 || !in.Features.Steps[j].Has(extract.KindToolCall) {
		return false
	}
	c, n := callerOf(in, p), j+1
	if c < 0 || c >= p || n >= len(in.Features.Steps) || callerOf(in, n) != j ||
		run.AgentKey(in.Run.Steps[c].Agent) != run.AgentKey(in.Run.Steps[j].Agent) || j == in.Graph.AnswerStep() ||
		!sameCalls(in.Features.Steps[j].Calls, in.Features.Steps[c].Calls) {
		return false
	}
	failedAs := func(r *extract.Features) string {
		if !r.Has(extract.KindToolResult) {
			return ""
		}
		for _, s := range r.Errors {
			if s.Severity >= extract.SeverityMedium {
				return s.Kind
			}
		}
		return ""
	}
	k := failedAs(&in.Features.Steps[p])
	return k != "" && failedAs(&in.Features.Steps[n]) == k
}
