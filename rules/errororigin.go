package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/offattr/offattr/extract"
)

// errorNameOrigin follows an error's quoted name back to where it was
// first written. An error that names what it could not find (an
// attribute, a module, a key, a file, a path, a column, an endpoint) is
// raised by the step that ran it, but the fault is the step that first
// wrote that name: a design that named the wrong API, a plan that named
// the wrong file, an earlier edit with the typo. The data-flow rules
// follow the final answer's values; this follows the error's. The error
// naming the name is as direct a piece of evidence as a crash is for
// local_fault, and weighs as much; a step that wrote several such names
// is implicated once.
func errorNameOrigin(in *Input) []Finding {
	var out []Finding
	at := map[int]bool{} // steps already implicated
	for _, no := range nameOrigins(in) {
		if at[no.origin] {
			continue
		}
		at[no.origin] = true
		out = append(out, Finding{Step: no.origin, Strength: 1, Quote: quoteName(in, no.origin, strings.ToLower(no.name)),
			Reason: fmt.Sprintf("it first writes %q, which the error at step %d names as missing or wrong", no.name, no.err)})
	}
	return out
}

// nameOrigin is where a name an error quotes was first written.
type nameOrigin struct {
	name    string
	err     int // the step that reports the error
	failing int // the step that answers for it: err, or the call behind a failed result
	origin  int // the earlier agent step that first wrote the name
}

// nameOrigins lists, for each name the run's errors quote, where it was
// first written, when that was an agent's step before the one that
// failed. A name is followed from the first error that quotes it. None is
// listed when the task or the system instructions state the name (the
// task asked for it, or the system gave it), when the
// step that failed wrote it first (local_fault reads that step), when a
// tool's output or a user's turn wrote it first (the name was read, not
// made up), when the run recovered from the failure, or when code that
// holds the name had run before without an error naming it.
func nameOrigins(in *Input) []nameOrigin {
	var out []nameOrigin
	var seen map[string]bool
	var sup *support
	var code *codeIndex
	var instructions string
	for j := range in.Features.Steps {
		f := &in.Features.Steps[j]
		if len(f.ErrorNames) == 0 {
			continue
		}
		if sup == nil {
			sup, seen, code = in.supportIndex(), map[string]bool{}, newCodeIndex(in)
			instructions = strings.ToLower(in.Run.Instructions)
		}
		failing := j
		if f.Has(extract.KindToolResult) {
			if c := callerOf(in, j); c >= 0 {
				failing = c
			}
		}
		recovered := f.Has(extract.KindToolResult) && ranLater(in, j)
		for _, n := range f.ErrorNames {
			v := strings.ToLower(n)
			if seen[v] {
				continue
			}
			seen[v] = true
			if recovered || containsToken(sup.question, v) || containsToken(instructions, v) {
				continue
			}
			o := firstWriter(sup, code, v, j)
			if o < 0 || o >= failing || !isAgentDecision(in, o) || in.Features.Steps[o].Has(extract.KindToolResult) || in.Features.Steps[o].Has(extract.KindTask) {
				continue
			}
			if ranBefore(in, code, v, o, j) {
				continue
			}
			out = append(out, nameOrigin{name: n, err: j, failing: failing, origin: o})
		}
	}
	return out
}

// ErrorNameOrigin is the error_name_origin analyzer.
var ErrorNameOrigin = &Analyzer{Name: "error_name_origin", Run: errorNameOrigin, Requires: []Fact{FactSignals, FactKinds, FactToolCalls},
	Doc: "the step that first wrote a name an error quotes as missing or wrong (an attribute, module, key, file, path, column), before the step that ran it"}

// firstWriter returns the first step before j whose text or calls hold v
// (lower case) as a whole token, or -1. A name that is a plain word
// ("price", "status") is held only where it is written as a name: in
// code or a call, or between quotes or backticks; prose that uses the
// word did not write the name.
func firstWriter(sup *support, code *codeIndex, v string, j int) int {
	word := plainWord(v)
	o := j
	switch {
	case !word && j > scanned:
		o = min(j, sup.indexed().first(sup, v, from{}))
	case !word:
		for k := range j {
			if containsToken(sup.step(k), v) {
				o = k
				break
			}
		}
	default:
		steps, _ := sup.indexed().candidates(v)
		for _, k := range steps {
			if int(k) >= j {
				break
			}
			if quotesName(sup.step(int(k)), v) {
				o = int(k)
				break
			}
		}
	}
	// A call's arguments, and code, may be kept apart from the step's text.
	o = min(o, code.first(v, 0, o))
	if o == j {
		return -1
	}
	return o
}

// codeIndex finds the first step whose code or calls (extract's Code)
// hold a name, each step's code lowered once: a long run's errors quote
// many names, and reading every earlier step's code again for each made
// the rule's cost grow with the square of the run.
type codeIndex struct {
	lower []string       // each step's code, lowered, "" for none
	runs  map[string]int // a run of word bytes → the first step whose code holds it whole
	// results lists, for each step that answers for tool results (their
	// Caller), those results in order.
	results map[int][]int
}

func newCodeIndex(in *Input) *codeIndex {
	x := &codeIndex{lower: make([]string, len(in.Features.Steps)), runs: map[string]int{}, results: map[int][]int{}}
	for k := range in.Features.Steps {
		if in.Features.Steps[k].Has(extract.KindToolResult) {
			if c := callerOf(in, k); c >= 0 && c < k {
				x.results[c] = append(x.results[c], k)
			}
		}
		c := in.Features.Steps[k].Code
		if len(c) == 0 {
			continue
		}
		x.lower[k] = strings.ToLower(strings.Join(c, "\n"))
		for a, b := range wordRuns(x.lower[k]) {
			if _, ok := x.runs[x.lower[k][a:b]]; !ok {
				x.runs[x.lower[k][a:b]] = k
			}
		}
	}
	return x
}

// first returns the first step in [from, end) whose code holds v (lower
// case) as a whole token, or end. No step before the last of the first
// holders of v's word runs can hold v.
func (x *codeIndex) first(v string, from, end int) int {
	for a, b := range wordRuns(v) {
		k, ok := x.runs[v[a:b]]
		if !ok {
			return end
		}
		from = max(from, k)
	}
	for k := from; k < end; k++ {
		if x.lower[k] != "" && containsToken(x.lower[k], v) {
			return k
		}
	}
	return end
}

// plainWord reports whether a name (lower case) is letters only: a word
// prose uses too, unlike an identifier with "_", ".", "/", "-" or digits.
func plainWord(v string) bool {
	for _, r := range v {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// quotesName reports whether a text (lower case) writes v between quotes
// or backticks, as a name is written in prose.
func quotesName(s, v string) bool {
	for _, q := range []string{"'", "\"", "`"} {
		if strings.Contains(s, q+v+q) {
			return true
		}
	}
	return false
}

// ranBefore reports whether code or a call that holds v (lower case), by
// step o or a later one (the code it ran, not its prose), was run before
// step j, the way the failing step ran it, without an error naming v: the
// name was used and found, and what failed at j is not the name but how
// it was used there (an import left out, a wrong argument). A run is the
// failing one's way when both are the same tool with the same command, or
// either is code a terminal ran, as corrected reads a retry: writing a
// file that holds a name does not use the name.
func ranBefore(in *Input, code *codeIndex, v string, o, j int) bool {
	failing := callsBehind(in, j)
	for c := code.first(v, o, j); c < j; c = code.first(v, c+1, j) {
		if !sameWay(failing, in.Features.Steps[c].Calls) {
			continue
		}
		for _, r := range code.results[c] {
			if r > o && r < j && !slices.ContainsFunc(in.Features.Steps[r].ErrorNames, func(n string) bool { return strings.EqualFold(n, v) }) {
				return true
			}
		}
	}
	return false
}

// ranLater reports whether the run recovered from the failed result j:
// a later run the way j's was run (sameWay) came back without failing,
// and no agent reported a failure of its own after it (the run returned
// to a valid state and stayed there). A different call that succeeds
// afterwards (a search of the code, a listing) does not undo the failure,
// nor does a clean run after which an agent still says it could not do
// its part.
func ranLater(in *Input, j int) bool {
	failing := callsBehind(in, j)
	from := j + 1
	for k := len(in.Features.Steps) - 1; k > j; k-- {
		if isAgentDecision(in, k) && !in.Features.Steps[k].Has(extract.KindToolResult) {
			if sig, ok := strongestError(&in.Features.Steps[k]); ok && sig.Severity >= extract.SeverityMedium {
				from = k + 1
				break
			}
		}
	}
	for r := from; r < len(in.Features.Steps); r++ {
		f := &in.Features.Steps[r]
		if _, failed := toolFailed(f); failed || !f.Has(extract.KindToolResult) || hasError(f) {
			continue
		}
		if c := callerOf(in, r); c >= 0 && c < r && sameWay(failing, in.Features.Steps[c].Calls) {
			return true
		}
	}
	return false
}

// callsBehind returns the calls of the step that answers for result j.
func callsBehind(in *Input, j int) []extract.Call {
	if c := callerOf(in, j); c >= 0 {
		return in.Features.Steps[c].Calls
	}
	return nil
}

// sameWay reports whether two steps' runs are alike: the same tool with
// the same command, or either is code a terminal ran (no call by name),
// where one script cannot be told from the next, as corrected reads them.
func sameWay(a, b []extract.Call) bool {
	return len(a) == 0 || len(b) == 0 || sameCalls(a, b)
}

// quoteName quotes step i where it writes v (lower case), or its start.
func quoteName(in *Input, i int, v string) string {
	c := in.Run.Steps[i].Content
	if k := strings.Index(strings.ToLower(c), v); k >= 0 && len(strings.ToLower(c)) == len(c) {
		return Quote(c, k, len(v))
	}
	return Quote(c, 0, 0)
}
