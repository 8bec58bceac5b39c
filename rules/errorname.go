package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

// namedCause is, for an agent's step that reports in its own words an
// error quoting a name as missing or wrong (a tester's account of a test
// run: "KeyError: 'temperature_c'", "has no attribute 'parse_iso'"), the
// earlier agent step that first wrote that name, and the name. The step
// that reports the error ran what others wrote; the fault is where the
// name entered the run: a design that named a wrong field, a task list
// that named a wrong API, code with the typo. It returns -1 when the
// task, the system instructions, a tool's output or a user's turn gave
// the name first (it was read, not made up), or when no earlier step
// wrote it. A tool's output quoting an error is left to its caller, as
// local_fault reads it.
func namedCause(in *Input, j int) (int, string) {
	f := &in.Features.Steps[j]
	if len(f.ErrorNames) == 0 || f.Has(extract.KindToolResult) || !isAgentDecision(in, j) {
		return -1, ""
	}
	sup := in.supportIndex()
	for _, n := range f.ErrorNames {
		v := strings.ToLower(n)
		if sup.text.Holds(-1, v) || sup.text.InstructionsHold(v) {
			// Read, not made up; but a file the task names can still be
			// dropped from the list that hands the design's files on.
			if m := listedThenOmitted(in, j, v); m >= 0 {
				return m, n
			}
			continue
		}
		for k := range sup.mayHold(v, j) {
			if !sup.text.WritesName(k, v) {
				continue
			}
			if isAgentDecision(in, k) && !in.Features.Steps[k].Has(extract.KindToolResult) && !in.Features.Steps[k].Has(extract.KindTask) {
				if m := listedThenOmitted(in, j, v); m >= 0 {
					return m, n
				}
				return k, n
			}
			break // read from the task, a tool or a user: not made up
		}
	}
	return -1, ""
}

// omittedModule is, for a step whose error quotes a name as missing (a
// tool's output too: the run of an engineer's code, "No module named
// 'ui'"), the agent step that dropped that module's file from the list
// that handed the design's files on (listedThenOmitted), and the name;
// -1 when none did. The code that imports the module was written as the
// design laid out; the list that left its file out is where it went
// missing.
func omittedModule(in *Input, j int) (int, string) {
	for _, n := range in.Features.Steps[j].ErrorNames {
		if m := listedThenOmitted(in, j, strings.ToLower(n)); m >= 0 {
			return m, n
		}
	}
	return -1, ""
}

// listedThenOmitted is omittedBy from the first agent step before j that
// lists the file named v among others (a design's file list, not a
// PRD's one mention of it), or -1: where a name went missing.
func listedThenOmitted(in *Input, j int, v string) int {
	for k := range j {
		if !isAgentDecision(in, k) || in.Features.Steps[k].Has(extract.KindToolResult) || in.Features.Steps[k].Has(extract.KindTask) {
			continue
		}
		if m := omittedBy(in, k, j, v); m >= 0 {
			return m
		}
	}
	return -1
}

// omittedBy is the first agent step between k and j that lists files
// step k lists beside the file named v (v.py for a module v) but leaves
// that one out, or -1. A design names the files; a task list that hands
// on the others and drops one is where the file went missing, and the
// error that later quotes it as missing reports that omission, not the
// design's name. A list that names the module only as what another file
// imports from ("require_token from auth") still hands on no file of it;
// a step that lists fewer of the files and names v hands it on.
func omittedBy(in *Input, k, j int, v string) int {
	var listed []string
	named := false
	for _, f := range in.Features.Steps[k].Files {
		if moduleOf(f) == v {
			named = true
		} else {
			listed = append(listed, f)
		}
	}
	if !named || len(listed) < 2 {
		return -1
	}
	sup := in.supportIndex()
	for m := k + 1; m < j; m++ {
		f := &in.Features.Steps[m]
		if !isAgentDecision(in, m) || f.Has(extract.KindToolResult) {
			continue
		}
		if slices.ContainsFunc(f.Files, func(name string) bool { return moduleOf(name) == v }) {
			return -1 // handed on: a later loss is not an omission of the list
		}
		kept := 0
		for _, name := range f.Files {
			if slices.Contains(listed, name) {
				kept++
			}
		}
		if kept >= 2 {
			return m
		}
		if sup.text.Holds(m, v) {
			return -1 // named among fewer of the files: handed on
		}
	}
	return -1
}

// moduleOf is a file's name without its extension: the module it holds
// ("importer.py" is "importer").
func moduleOf(p string) string {
	if i := strings.IndexByte(p, '.'); i > 0 {
		p = p[:i]
	}
	return p
}

// errorCause is where the failure an agent's step reports in its own words
// was caused, and why: the step that first wrote a name its error quotes
// as missing (namedCause), or else the step of another agent that last
// defined a function the failure ran through or whose value a failed
// assertion rejected (a tester posting a test run ran the engineer's
// code, which answers for it as code answers for what an executor
// printed), or, when that code computed with a figure another agent
// stated in place of one the task gives, the step that stated it. It
// returns -1 when none is known.
func errorCause(in *Input, j int) (int, string) {
	if o, name := namedCause(in, j); o >= 0 {
		return o, fmt.Sprintf("it first wrote %q, which the error step %d reports names as missing or wrong", name, j)
	}
	d, why := definerOf(in, j)
	if p := alteredInCode(in, d); p >= 0 {
		// The code computed with a figure another agent planted in place
		// of the task's, as the data flow reads it (alteredInCode).
		return p, fmt.Sprintf("it first stated a figure, in place of the task's, that the code of step %d computed with and that failed when run as step %d reports", d, j)
	}
	return d, why
}

// definerOf is, for an agent's step that reports in its own words a
// failure printed with its stack or an assertion's rejected value, the
// step of another agent that last defined a function the failure ran
// through (or the function it hands its work to), and why; -1 when there
// is none.
func definerOf(in *Input, j int) (int, string) {
	f := &in.Features.Steps[j]
	if f.Has(extract.KindToolResult) || !isAgentDecision(in, j) {
		return -1, ""
	}
	return definerFor(in, j, in.Run.Steps[j].Agent)
}

// toolDefiner is definerOf for a tool's output j that prints a failure of
// the code its caller c ran: the step of an agent other than c's that
// last defined a function the failure ran through (a tester's test run
// through the engineer's code, as the tester's own account of it is);
// -1 when the caller's own code defines it, or no step does.
func toolDefiner(in *Input, j, c int) (int, string) {
	if c < 0 || c == j {
		return -1, ""
	}
	return definerFor(in, j, in.Run.Steps[c].Agent)
}

// definerFor is definerOf's search for step j's failure, run by agent.
func definerFor(in *Input, j int, agent string) (int, string) {
	f := &in.Features.Steps[j]
	if len(f.FailedIn) == 0 {
		return -1, ""
	}
	best, fn := -1, ""
	for _, n := range f.FailedIn {
		if k := definedByOther(in, n, j, agent); k > best {
			best, fn = k, n
		}
	}
	if best < 0 {
		return -1, ""
	}
	// A function whose whole body returns another's call handed its work
	// on: the code that computed the value is that one's, as the latest
	// step before the failure defined it (Invoice.tax returning
	// compute_tax(self.items), compute_tax written in tax.py before it).
	for range maxHandOns {
		g := in.supportIndex().text.Delegates(best, fn)
		if g == "" {
			break
		}
		k := definedByOther(in, g, j, agent)
		if k < 0 {
			break
		}
		best, fn = k, g
	}
	return best, fmt.Sprintf("it defined %s, which failed when run as step %d reports", fn, j)
}

// maxHandOns bounds the functions followed that only hand their work on.
const maxHandOns = 3

// definedBy is the latest step before j that defines function fn, when
// that is an agent's step of an agent other than step j's: the code that
// ran when step j ran fn. A definition that repeats an earlier one word
// for word is that one's (quotedFrom). It returns -1 otherwise.
func definedBy(in *Input, fn string, j int) int {
	return definedByOther(in, fn, j, in.Run.Steps[j].Agent)
}

// definedByOther is definedBy with the agent the definition must not be
// of given: the one that ran the code.
func definedByOther(in *Input, fn string, j int, agent string) int {
	for k := j - 1; k >= 0; k-- {
		if !slices.Contains(in.Features.Steps[k].Defines, fn) {
			continue
		}
		k = copiedFrom(in, k, fn)
		if isAgentDecision(in, k) && !in.Features.Steps[k].Has(extract.KindToolResult) && !run.SameAgent(in.Run.Steps[k].Agent, agent) {
			return k
		}
		return -1 // the latest definition is the code that ran
	}
	return -1
}

// copiedFrom is the earliest step at or before k that writes, word for
// word, the definition of fn that step k writes: an agent that shows
// code it read (a file a tool printed, another agent's code it reviews)
// wrote none of it, and the step it read it from did. Code the task or
// the user gave is what the agent was asked to work on: the agent that
// put it forward to run answers for it. It is k when no earlier step
// holds it.
func copiedFrom(in *Input, k int, fn string) int {
	def := in.supportIndex().text.Definition(k, fn)
	if def == "" {
		return k
	}
	if m, ok := firstWriter(in)[[2]string{fn, def}]; ok && m < k {
		return m
	}
	return k
}

// firstWriter maps each function and definition of it a step writes to
// the first step, not given with the task, that writes that definition:
// read once for the run, so that following the copies of every failing
// step's functions costs what reading the run's code once does.
func firstWriter(in *Input) map[[2]string]int {
	s := in.supportIndex()
	if s.definitions != nil {
		return s.definitions
	}
	s.definitions = map[[2]string]int{}
	for m := range in.Features.Steps {
		if given(in, m) {
			continue
		}
		for _, fn := range in.Features.Steps[m].Defines {
			if def := s.text.Definition(m, fn); def != "" {
				if _, ok := s.definitions[[2]string{fn, def}]; !ok {
					s.definitions[[2]string{fn, def}] = m
				}
			}
		}
	}
	return s.definitions
}

// given reports whether step m states the task or is the user's turn.
func given(in *Input, m int) bool {
	return in.Features.Steps[m].Has(extract.KindTask) || in.Run.Steps[m].Kind == run.KindUser
}

// assertedFrom is, for an agent's step that writes a test asserting that
// a call returns the value claim (normalised), the step of another agent
// that defined the function called: a test that states what the code
// returns took the value from the code (a test that expects another
// value than the code's states no value of a wrong answer the code gave).
// A test whose check of the call a later step reports failing, before
// any step defines the function again, expected a value the code did not
// return: the value is the test's own. It returns -1 when the step
// asserts no such value.
func assertedFrom(in *Input, o int, claim string) int {
	f := &in.Features.Steps[o]
	if len(f.Asserts) == 0 || f.Has(extract.KindToolResult) || !isAgentDecision(in, o) {
		return -1
	}
	states := assertsClaim(claim)
	for _, a := range f.Asserts {
		if !slices.ContainsFunc(extract.Claims(a.Value), states) || failedBeforeRedefined(in, a.Func, o) {
			continue
		}
		if d := definedBy(in, a.Func, o); d >= 0 {
			return d
		}
	}
	return -1
}

// assertsClaim returns whether a claim a test asserts states the claim
// (its key) of an answer: the same, or the same number written bare (the
// answer's "12480 seconds" is the 12480 a test asserts).
func assertsClaim(claim string) func(extract.Claim) bool {
	value, unit := extract.Claim{Norm: claim}.Value()
	_, isNumber := numberClaim(value)
	return func(c extract.Claim) bool {
		if strings.EqualFold(c.Norm, claim) {
			return true
		}
		v, u := c.Value()
		return isNumber && c.Kind == extract.ClaimNumber && v == value && (u == "" || unit == "")
	}
}

// failedBeforeRedefined reports whether a step after o reports a failure
// that ran through function fn, or an assertion that rejected its value
// (extract's FailedIn), before any step defines fn again: the code step o
// tested did not return what step o expected of it.
func failedBeforeRedefined(in *Input, fn string, o int) bool {
	for k := o + 1; k < len(in.Features.Steps); k++ {
		f := &in.Features.Steps[k]
		if slices.Contains(f.FailedIn, fn) {
			return true
		}
		if slices.Contains(f.Defines, fn) {
			return false
		}
	}
	return false
}

// causeQuote quotes step o where it writes a name or a function that the
// failure step j reports quotes or ran through.
func causeQuote(in *Input, o, j int) string {
	c := in.Run.Steps[o].Content
	lower := strings.ToLower(c)
	f := &in.Features.Steps[j]
	for _, n := range append(slices.Clip(f.ErrorNames), f.FailedIn...) {
		if k := strings.Index(lower, strings.ToLower(n)); k >= 0 && len(lower) == len(c) {
			return Quote(c, k, len(n))
		}
	}
	return Quote(c, 0, 0)
}
