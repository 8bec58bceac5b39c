package rules

import (
	"math"
	"slices"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

// callerOf returns the step that answers for tool result j (extract's
// Caller): j itself when the result is its speaker's own doing, -1 when j
// is not a tool result.
func callerOf(in *Input, j int) int {
	return int(in.Features.Steps[j].Caller)
}

// ownsResult reports whether tool result j answers for itself.
func ownsResult(in *Input, j int) bool {
	return in.Features.Steps[j].OwnsResult()
}

// toolFailed reports whether a tool result shows the call failed, with the
// signal to quote: an exception or non-zero exit is a failure of high
// severity (but for a search's or a comparison's exit 1 that extract
// reads as its answer, "no_match"); a call that ran but returned
// nothing, of low.
func toolFailed(f *extract.Features) (extract.Signal, bool) {
	if !f.Has(extract.KindToolResult) {
		return extract.Signal{}, false
	}
	for _, s := range f.Errors {
		if s.Severity >= extract.SeverityHigh {
			return s, true
		}
	}
	if _, quiet := signalOf(f.Successes, "no_match"); f.ExitCode != nil && *f.ExitCode != 0 && !quiet {
		return extract.Signal{Kind: "exit_code", Severity: extract.SeverityHigh}, true
	}
	if s, ok := signalOf(f.Errors, "empty_result"); ok && f.ExitCode != nil {
		return s, true
	}
	return extract.Signal{}, false
}

// serviceFailed reports whether tool result j reports a failure of the
// service its call reached (extract's ServiceFault: a timeout, a server's
// error, a rate limit, the network) for a call that ran none of its
// caller's own code (a code block, a command line, whose own run may be
// what timed out). The caller made no mistake at that call; what it does
// with the failure is read at its next steps as any act is.
func serviceFailed(in *Input, j int) bool {
	f := &in.Features.Steps[j]
	c := callerOf(in, j)
	if !f.ServiceFault || c < 0 || c >= j {
		return false
	}
	// A step's Code holds its calls written out beside its code blocks:
	// more of it than calls is a block of its own.
	cf := &in.Features.Steps[c]
	return len(cf.Calls) > 0 && len(cf.Code) <= len(cf.Calls) && !slices.ContainsFunc(cf.Calls, func(k extract.Call) bool { return k.Command() != "" })
}

// signalOf returns the first signal of a kind.
func signalOf(ss []extract.Signal, kind string) (extract.Signal, bool) {
	for _, s := range ss {
		if s.Kind == kind {
			return s, true
		}
	}
	return extract.Signal{}, false
}

// failureWeight scores a failed call: full for a crash, less for an empty
// result, which may be the code's fault or the data's.
func failureWeight(s extract.Signal) float64 {
	if s.Severity >= extract.SeverityHigh {
		return 1
	}
	return 0.6
}

// corrected returns the first later tool result in the same trial that ran
// cleanly before the failure at j happened again, or -1: the run returned
// to a valid state after it. A clean result is one with a success signal,
// or, for a retry by the agent whose call failed, one that raises no error
// at all (an API answers with data, not with "success"). The failure
// happens again when a later result fails whose call is the same (the
// same tool with the same arguments), or either is not a call by name
// (code run by a terminal, where one script cannot be told from the
// next); a different call that fails is a workaround that did not work
// yet, as an agent tries one command after another.
//
// The later results are looked up in an index of the run's results made
// once, not read again for each failure: a session of thousands of
// distinct failing checks asks it of every one.
func corrected(in *Input, j int) int {
	x := in.fixIndex()
	agent := ""
	var failing []extract.Call
	if c := callerOf(in, j); c >= 0 {
		agent = run.AgentKey(in.Run.Steps[c].Agent)
		failing = in.Features.Steps[c].Calls
	}
	again := firstAfter(x.failed, j)
	if len(failing) > 0 {
		again = firstAfter(x.blindFailed, j)
		for _, c := range failing {
			again = min(again, firstAfter(x.failedCall[callKey{c.Name, c.Command()}], j))
		}
	}
	fix := firstAfter(x.succeeded, j)
	if agent != "" {
		fix = min(fix, firstAfter(x.retried[agent], j))
	}
	if fix > in.Graph.TrialOf(j).End || again < fix {
		return -1
	}
	return fix
}

// fixes indexes a run's tool results by what corrected asks of them, each
// list in step order.
type fixes struct {
	failed      []int             // the results that show their call failed
	blindFailed []int             // of those, the ones whose call is not by name: code a terminal ran, or no caller
	failedCall  map[callKey][]int // of the others, the ones whose caller makes a call by that name and command
	succeeded   []int             // the results with a success signal
	retried     map[string][]int  // the results, neither failed nor an error, answering for a call by that agent
}

// callKey is a call as sameCalls compares calls.
type callKey struct{ name, command string }

func (in *Input) fixIndex() *fixes {
	in.fixesOnce.Do(func() {
		x := &in.fixes
		x.failedCall = map[callKey][]int{}
		x.retried = map[string][]int{}
		for k := range in.Features.Steps {
			f := &in.Features.Steps[k]
			c := callerOf(in, k)
			if _, failed := toolFailed(f); failed {
				x.failed = append(x.failed, k)
				if c < 0 || len(in.Features.Steps[c].Calls) == 0 {
					x.blindFailed = append(x.blindFailed, k)
					continue
				}
				for _, call := range in.Features.Steps[c].Calls {
					key := callKey{call.Name, call.Command()}
					if l := x.failedCall[key]; len(l) == 0 || l[len(l)-1] != k {
						x.failedCall[key] = append(l, k)
					}
				}
				continue
			}
			if toolSucceeded(f) {
				x.succeeded = append(x.succeeded, k)
			}
			if c >= 0 && c != k && !hasError(f) {
				a := run.AgentKey(in.Run.Steps[c].Agent)
				x.retried[a] = append(x.retried[a], k)
			}
		}
	})
	return &in.fixes
}

// firstAfter returns the first step of an ascending list after j, or the
// largest int when there is none.
func firstAfter(steps []int, j int) int {
	if k, _ := slices.BinarySearch(steps, j+1); k < len(steps) {
		return steps[k]
	}
	return math.MaxInt
}

// toolSucceeded reports whether a tool result shows a clean run.
func toolSucceeded(f *extract.Features) bool {
	if !f.Has(extract.KindToolResult) {
		return false
	}
	if _, failed := toolFailed(f); failed {
		return false
	}
	return (f.ExitCode != nil && *f.ExitCode == 0) || len(f.Successes) > 0
}

// isAgentDecision reports whether step i is an agent's own message, the
// only kind of step that can be a decisive fault of its own. A task
// restated by an agent (a manager's brief with its plan) is a decision; the
// user's own request is not.
func isAgentDecision(in *Input, i int) bool {
	switch in.Run.Steps[i].Kind {
	case run.KindUser, run.KindSystem:
		return false
	}
	return !in.Features.Steps[i].Has(extract.KindToolResult) || ownsResult(in, i)
}

// ownFailureKinds are the error signals in which a step reports its own
// failure. Ledger judgements (loop, no progress) are about other steps,
// harness noise (runtime_error) about no agent, and assumptions and empty
// results are weighed by other rules.
var ownFailureKinds = map[string]bool{
	"exit_code": true, "exception": true, "error": true, "not_found": true, "failure": true, "refusal": true,
}

// strongestErrorOutside returns the most severe signal in which a step
// reports its own failure, leaving out the signals that begin in
// [from, to) of the step's text (-1, -1 leaves out none).
func strongestErrorOutside(f *extract.Features, from, to int) (extract.Signal, bool) {
	if f.Ledger != nil || f.Has(extract.KindPlan) || f.Has(extract.KindReplan) {
		// Ledgers judge others; plans weigh what might go wrong.
		return extract.Signal{}, false
	}
	var best extract.Signal
	for _, s := range f.Errors {
		if ownFailureKinds[s.Kind] && s.Severity > best.Severity && (s.Offset < from || s.Offset >= to) {
			best = s
		}
	}
	return best, best.Severity > 0
}

// stepError is the strongest error step i reports of its own: not one in
// the task's words where the step restates the task (a request that
// "requests over the limit are rejected with HTTP 429" reports no
// failure of the step that carries it).
func stepError(in *Input, i int) (extract.Signal, bool) {
	from, to := -1, -1
	if in.Features.Steps[i].Has(extract.KindTask) {
		from, to = in.supportIndex().text.Restates(i)
	}
	return strongestErrorOutside(&in.Features.Steps[i], from, to)
}

// quoteAt quotes step i around a byte offset (or its start).
func quoteAt(in *Input, i, offset, n int) string {
	return Quote(in.Run.Steps[i].Content, offset, n)
}

// responsible names the agent to blame for step i: the speaker, except that
// a tool's output is blamed on the agent that called the tool.
func responsible(in *Input, i int) string {
	if c := callerOf(in, i); c >= 0 {
		return in.Run.Steps[c].Agent
	}
	return in.Run.Steps[i].Agent
}

// sameCalls reports whether two steps make a call alike: the same tool,
// and for a tool given a command to run (a shell, an editor), the same
// command. A tool by name that fails again has the same trouble (pages it
// cannot open, ids it cannot find) whatever its arguments; a shell runs a
// different program for each command.
func sameCalls(a, b []extract.Call) bool {
	for _, x := range a {
		for _, y := range b {
			if x.Name == y.Name && x.Command() == y.Command() {
				return true
			}
		}
	}
	return false
}

// writesOwnScripts are the steps whose calls write the whole text of
// files (extract's Call.Creates) that a later call of the run runs by
// itself as a script, not as a test runner's tests (Call.Scripts,
// Call.Checks): the reproduction a coding agent writes and runs. Its name
// is new and its code holds the values it tries, as any check's do; it
// states nothing of the task. An edit of a script the project has
// changes code the run checks, and is read as any change. A script whose
// run prints a value the final answer states is how the answer was
// worked out (a tool assistant computing in its sandbox), not a check:
// its code states what the answer rests on.
func writesOwnScripts(in *Input) map[int]bool {
	steps := in.Features.Steps
	answers := answeringCalls(in)
	var ran []string
	out := map[int]bool{}
	for i := len(steps) - 1; i >= 0; i-- {
		var changed []string
		writes := false
		for _, c := range steps[i].Calls {
			files := changedFiles(c)
			if len(files) == 0 && c.Consequential() || len(files) > 0 && !c.Creates() {
				writes = false // it does more than write files whole
				break
			}
			writes = writes || len(files) > 0
			changed = append(changed, files...)
		}
		if writes && !slices.ContainsFunc(changed, func(f string) bool {
			return !slices.ContainsFunc(ran, func(r string) bool { return sameFile(f, r) })
		}) {
			out[i] = true
		}
		for _, c := range steps[i].Calls {
			if !c.Checks() && !answers[i] {
				ran = append(ran, c.Scripts()...)
			}
		}
	}
	return out
}

// answeringCalls are the steps whose calls' results print a value the
// run's final answer states.
func answeringCalls(in *Input) map[int]bool {
	fa := in.Features.FinalAnswer
	if fa == nil || len(fa.Claims) == 0 {
		return nil
	}
	out := map[int]bool{}
	for j := range in.Features.Steps {
		f := &in.Features.Steps[j]
		if c := callerOf(in, j); c >= 0 && c < j && f.Has(extract.KindToolResult) && slices.ContainsFunc(f.Claims, func(r extract.Claim) bool {
			return slices.ContainsFunc(fa.Claims, r.Matches)
		}) {
			out[c] = true
		}
	}
	return out
}

// reportsFailure reports whether step i is a failure a run's runtime
// reported as a step of its own (a span's error status and exception
// events, as the telemetry readers write them): the outcome of the
// agent's own output before it, as a tool's result is of its call.
func reportsFailure(in *Input, i int) bool {
	return in.Run.Steps[i].RuntimeFailure()
}

// recoveredFrom is, for a failure reported as a step of its own (i), the
// first later result of a call by the same agent in the same trial: the
// agent's tries got past what failed (a reply the framework could not
// parse, an import it refused, then code it ran), so it is a detour, not
// the run's decisive fault, however many failures came between. What the
// result prints is the try's own matter (a reproduction prints the
// exception it reproduces). It is -1 when there is none: the failures
// went on to the trial's end.
func recoveredFrom(in *Input, i int) int {
	if !reportsFailure(in, i) {
		return -1
	}
	agent := run.AgentKey(in.Run.Steps[i].Agent)
	end := in.Graph.TrialOf(i).End
	for k := i + 1; k < len(in.Features.Steps) && k <= end; k++ {
		if c := callerOf(in, k); c >= 0 && c != k && run.AgentKey(in.Run.Steps[c].Agent) == agent {
			return k
		}
	}
	return -1
}

// echoesRecovered reports whether agent step i comes right after a failure
// the runtime reported of the same agent and that its tries got past
// (recoveredFrom): what it says it cannot do ("pytest cannot be imported
// here") is that failure taken in, not a failure of its own.
func echoesRecovered(in *Input, i int) bool {
	p := i - 1
	return p >= 0 && !reportsFailure(in, i) && reportsFailure(in, p) &&
		run.AgentKey(in.Run.Steps[p].Agent) == run.AgentKey(in.Run.Steps[i].Agent) && recoveredFrom(in, p) >= 0
}
