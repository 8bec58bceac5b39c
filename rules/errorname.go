package rules

import (
	"strings"

	"github.com/offattr/offattr/extract"
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
	instructions := strings.ToLower(in.Run.Instructions)
	for _, n := range f.ErrorNames {
		v := strings.ToLower(n)
		if containsToken(sup.question, v) || containsToken(instructions, v) {
			continue
		}
		for k := range j {
			if !writesName(sup.step(k), v) {
				continue
			}
			if isAgentDecision(in, k) && !in.Features.Steps[k].Has(extract.KindToolResult) && !in.Features.Steps[k].Has(extract.KindTask) {
				return k, n
			}
			break // read from the task, a tool or a user: not made up
		}
	}
	return -1, ""
}

// writesName reports whether a text (lower case) writes v as a name: as a
// whole token, and, for a plain word ("quantity", "price"), only where it
// is quoted or on a line written as code or a signature (with brackets,
// an assignment or a class member's sign): prose that uses the word did
// not name it.
func writesName(s, v string) bool {
	if !containsToken(s, v) {
		return false
	}
	if !plainWord(v) {
		return true
	}
	for line := range strings.Lines(s) {
		if containsToken(line, v) && (strings.ContainsAny(line, "()[]{}=+`") || strings.Contains(line, "'"+v+"'") || strings.Contains(line, `"`+v+`"`)) {
			return true
		}
	}
	return false
}

// plainWord reports whether v (lower case) is a word of letters alone.
func plainWord(v string) bool {
	for _, r := range v {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// quoteName quotes step i where it writes name (any case).
func quoteName(in *Input, i int, name string) string {
	c := in.Run.Steps[i].Content
	if k := strings.Index(strings.ToLower(c), strings.ToLower(name)); k >= 0 && len(strings.ToLower(c)) == len(c) {
		return Quote(c, k, len(name))
	}
	return Quote(c, 0, 0)
}
