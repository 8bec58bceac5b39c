package extract

import (
	matching "github.com/offattr/offattr/internal/match"
)

// goPatterns holds the patterns written in Go's regexp syntax, compiled
// through internal/match to match as Go's regexp does (matching.FromGo):
// its ASCII \b, \w, \d and \s, its case folding. A set of their own, so
// that a short string read with one of them is indexed for these few.
var goPatterns = matching.NewSet()

// goRe is a pattern written in Go's regexp syntax, read as Go's Regexp
// methods of the same names read it. Every match of these patterns holds
// at least one character, so their matches follow one another as Go's do.
type goRe struct {
	expr string // as Go's regexp reads it
	p    *matching.Pattern
}

// goRes are every goRe compiled, for the tests that hold them to Go's
// regexp.
var goRes []*goRe

func goPattern(expr string) *goRe {
	e, opts, err := matching.FromGo(expr)
	if err != nil {
		panic(err)
	}
	r := &goRe{expr, goPatterns.MustCompile(e, opts)}
	goRes = append(goRes, r)
	return r
}

// find returns up to n matches of r in s, every match when n < 0.
func (r *goRe) find(s string, n int) []match {
	if n < 0 {
		n = len(s) + 1 // more than the non-empty matches s can hold
	}
	return goPatterns.Text(s).Find(r.p, n)
}

func (r *goRe) MatchString(s string) bool { return len(r.find(s, 1)) > 0 }

// indexes returns m's groups as Go's Regexp index methods do: a pair of
// byte offsets for each, -1 -1 for a group that did not take part.
func indexes(m match) []int {
	out := make([]int, 0, 2*len(m.Groups))
	for _, g := range m.Groups {
		if g.OK {
			out = append(out, g.Start, g.End)
		} else {
			out = append(out, -1, -1)
		}
	}
	return out
}

// strs returns m's groups' texts in s, "" for one that did not take part.
func strs(m match, s string) []string {
	out := make([]string, len(m.Groups))
	for i, g := range m.Groups {
		if g.OK {
			out[i] = s[g.Start:g.End]
		}
	}
	return out
}

func (r *goRe) FindAllStringIndex(s string, n int) [][]int {
	var out [][]int
	for _, m := range r.find(s, n) {
		out = append(out, []int{m.Whole().Start, m.Whole().End})
	}
	return out
}

func (r *goRe) FindAllStringSubmatchIndex(s string, n int) [][]int {
	var out [][]int
	for _, m := range r.find(s, n) {
		out = append(out, indexes(m))
	}
	return out
}

func (r *goRe) FindAllStringSubmatch(s string, n int) [][]string {
	var out [][]string
	for _, m := range r.find(s, n) {
		out = append(out, strs(m, s))
	}
	return out
}

func (r *goRe) FindStringSubmatchIndex(s string) []int {
	ms := r.find(s, 1)
	if len(ms) == 0 {
		return nil
	}
	return indexes(ms[0])
}

func (r *goRe) FindStringSubmatch(s string) []string {
	ms := r.find(s, 1)
	if len(ms) == 0 {
		return nil
	}
	return strs(ms[0], s)
}

// allNamed returns each match of r in s as its named groups.
func (r *goRe) allNamed(s string) []map[string]string {
	var out []map[string]string
	for _, m := range r.find(s, -1) {
		named := map[string]string{}
		for i, name := range m.Names {
			if i > 0 && !groupNumber(name) {
				named[name] = ""
				if m.Groups[i].OK {
					named[name] = s[m.Groups[i].Start:m.Groups[i].End]
				}
			}
		}
		out = append(out, named)
	}
	return out
}

// groupNumber reports whether a group's name is its number: regexp2 names a
// group without a name so.
func groupNumber(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
