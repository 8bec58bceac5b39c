package extract

import (
	"slices"
	"strings"
)

// Redoes reports whether step f does again what step g did: f makes a
// call or runs code, every call it makes g made with the same name and
// arguments, and every line of its code is a line of g's code (an agent
// that logged in and listed, then lists again, redoes the listing).
func (f *Features) Redoes(g *Features) bool {
	if len(f.Calls) == 0 && len(f.Code) == 0 {
		return false
	}
	for _, c := range f.Calls {
		if !slices.ContainsFunc(g.Calls, func(d Call) bool { return d.Name == c.Name && d.Args == c.Args }) {
			return false
		}
	}
	if len(f.Code) == 0 {
		return true
	}
	had := map[string]bool{}
	for _, code := range g.Code {
		for line := range strings.SplitSeq(code, "\n") {
			had[strings.TrimSpace(line)] = true
		}
	}
	for _, code := range f.Code {
		for line := range strings.SplitSeq(code, "\n") {
			if l := strings.TrimSpace(line); l != "" && !had[l] {
				return false
			}
		}
	}
	return true
}
