package extract

import (
	"slices"
	"strings"
)

// SameCode reports whether two steps' code (Details.Code) is the same
// program once comments, docstrings, logging calls and blank lines are
// set aside: a rewrite that only rewords its remarks changes nothing it
// computes. Code that is empty after that is never the same as anything.
func SameCode(a, b []string) bool {
	x := codeLines(a)
	return len(x) > 0 && slices.Equal(x, codeLines(b))
}

// codeLines are the lines of code that run, trimmed, in order: without
// blank lines and the remarks remarkLines marks (comments, docstrings,
// calls that log), in any language's comment syntax.
func codeLines(code []string) []string {
	var out []string
	for _, c := range code {
		lines := strings.Split(c, "\n")
		remark := remarkLines(lines, anyComments)
		for k, l := range lines {
			if t := strings.TrimSpace(l); t != "" && !remark[k] {
				out = append(out, t)
			}
		}
	}
	return out
}
