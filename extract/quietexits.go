package extract

import (
	"slices"
	"strings"

	"github.com/offattr/offattr/run"
)

// quietPrograms exit with status 1 to answer, not to fail: a search that
// selected nothing (grep, rg, ag), a comparison that found a difference
// (diff, cmp).
var quietPrograms = toSet("grep egrep fgrep rg ag diff cmp")

// quietExits reads exit status 1 of a tool result as the answer it is
// when the command its caller ran ends with one of quietPrograms: "grep
// -c 'def test_' t.py" printing 0 found no line, and nothing failed. The
// exit's signal becomes a "no_match" success, and its words no failure
// words. An output holding the program's own error message ("grep: t.py:
// No such file or directory") failed whatever its status, and a line
// whose last program is uncertain (an alternation of commands, a
// subshell, a quoted separator) is left as read.
func quietExits(r *run.Run, rf *RunFeatures) {
	for i := range min(len(rf.Steps), len(r.Steps)) {
		f := &rf.Steps[i]
		c := int(f.Caller)
		if f.ExitCode == nil || *f.ExitCode != 1 || c < 0 || c >= len(rf.Steps) || c == i || len(rf.Steps[c].Calls) != 1 {
			continue
		}
		line, _ := commandOf(rf.Steps[c].Calls[0].Args)
		prog := lastProgram(line)
		if !quietPrograms[prog] || strings.Contains(r.Steps[i].Content, prog+":") {
			continue
		}
		exit := func(s Signal) bool { return s.Kind == "exit_code" }
		k := slices.IndexFunc(f.Errors, exit)
		if k < 0 {
			continue
		}
		sig := f.Errors[k]
		sig.Kind = "no_match"
		f.Errors = slices.DeleteFunc(slices.Clone(f.Errors), exit)
		f.Successes = append(slices.Clone(f.Successes), sig)
		if w := f.FailureWords; w != nil && w.Offset >= 0 && w.Offset < len(r.Steps[i].Content) &&
			strings.HasPrefix(strings.ToLower(r.Steps[i].Content[w.Offset:]), "exit") {
			f.FailureWords = nil
		}
	}
}

// lastProgram is the program the last command of a shell line runs (its
// exit status is the line's), or "" when that is uncertain: a line with
// an alternation ("||"), a subshell or a quoted separator.
func lastProgram(line string) string {
	if line == "" || strings.Contains(line, "||") || strings.ContainsAny(line, "()`$") {
		return ""
	}
	last := line[strings.LastIndexAny(line, ";|&\n")+1:]
	if strings.Count(last, "'")%2 != 0 || strings.Count(last, `"`)%2 != 0 {
		return ""
	}
	for _, w := range strings.Fields(last) {
		if strings.Contains(w, "=") || w == "sudo" {
			continue
		}
		return program(w)
	}
	return ""
}
