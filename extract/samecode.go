package extract

import "strings"

// SameCode reports whether two steps' code (Details.Code) is the same
// program once comments, docstrings and blank lines are set aside: a
// rewrite that only rewords its comments, so it changes nothing it runs.
// Code that is empty after that is never the same as anything.
func SameCode(a, b []string) bool {
	x, y := codeLines(a), codeLines(b)
	if len(x) == 0 || len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// codeLines are the lines of code that run, trimmed, in order: without
// blank lines, whole-line comments (#, //) and triple-quoted docstrings.
func codeLines(code []string) []string {
	var out []string
	for _, c := range code {
		doc := ""
		for _, l := range strings.Split(c, "\n") {
			l = strings.TrimSpace(l)
			if doc != "" {
				if strings.Contains(l, doc) {
					doc = ""
				}
				continue
			}
			if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "//") {
				continue
			}
			if q := docQuote(l); q != "" {
				if strings.Count(l, q) < 2 {
					doc = q
				}
				continue
			}
			out = append(out, l)
		}
	}
	return out
}

// docQuote is the triple quote a line that is only a docstring opens
// with, or "".
func docQuote(l string) string {
	for _, q := range []string{`"""`, `'''`} {
		if strings.HasPrefix(l, q) {
			return q
		}
	}
	return ""
}
