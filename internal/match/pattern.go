package match

import (
	"fmt"

	"github.com/dlclark/regexp2"
)

// Options change how a pattern reads: as regexp2's options of those names.
type Options uint

const (
	IgnoreCase Options = 1 << iota // letters match in either case, as unicode.ToLower folds them
	Multiline                      // ^ and $ match at line starts and ends
	Singleline                     // . matches a newline too
)

func (o Options) regexp2() regexp2.RegexOptions {
	var out regexp2.RegexOptions
	if o&IgnoreCase != 0 {
		out |= regexp2.IgnoreCase
	}
	if o&Multiline != 0 {
		out |= regexp2.Multiline
	}
	if o&Singleline != 0 {
		out |= regexp2.Singleline
	}
	return out
}

// A Set is patterns whose literals are found in a text in one pass. Every
// pattern of a set is compiled before a text is read with it, and a set
// is not compiled into while it is read with: a pattern compiled after a
// text was made is scanned in it.
type Set struct {
	lexicon lexicon
	// numbers each distinct set of bytes a match begins with, where a
	// starter has one: patterns that begin alike share where they stand
	firstSets   map[lead]int
	firstShared []bool // by first set: more than one starter begins with it
	patterns    []*Pattern
	noLits      [][]int // a slice per starter, each empty (noHits)
}

// NewSet returns an empty set.
func NewSet() *Set { return &Set{firstSets: map[lead]int{}} }

// Patterns returns every pattern compiled in s, in order.
func (s *Set) Patterns() []*Pattern { return s.patterns }

// A Pattern is a compiled regexp2 expression and how it is searched:
// where its matches can begin, read from the expression itself
// (starts.go), so that it is tried only there.
//
// No match has a time limit: a limit makes what is read depend on how
// busy the machine is. What bounds a match's cost is the pattern's shape
// (Bounded) and the length of what it runs over.
type Pattern struct {
	expr  string
	opts  Options
	re    *regexp2.Regexp
	names []string // of the groups, as regexp2 numbers them
	bt    *backtracker
	set   *Set
	plan  plan
}

// Compile compiles expr into s. A pattern whose backtracking is not
// bounded (Bounded) is refused: no match has a time limit.
func (s *Set) Compile(expr string, opts Options) (*Pattern, error) {
	re, err := regexp2.Compile(expr, opts.regexp2())
	if err != nil {
		return nil, err
	}
	if err := Bounded(expr, opts); err != nil {
		return nil, err
	}
	p := &Pattern{expr: expr, opts: opts, re: re, names: re.GetGroupNames(), set: s}
	// A pattern with a part the backtracker does not read is run by
	// regexp2 at its candidates.
	p.bt, _ = compileBacktracker(expr, opts, re)
	if err := s.planFor(p); err != nil {
		return nil, err
	}
	s.lexicon.index()
	s.noLits = make([][]int, s.lexicon.starters)
	s.patterns = append(s.patterns, p)
	return p, nil
}

// MustCompile is Compile for the patterns a program is written with: it
// panics on an error.
func (s *Set) MustCompile(expr string, opts Options) *Pattern {
	p, err := s.Compile(expr, opts)
	if err != nil {
		panic(fmt.Sprintf("match: %q: %v", expr, err))
	}
	return p
}

// Planned reports whether p is tried only where its matches can begin;
// else regexp2 scans a text for it from every position.
func (p *Pattern) Planned() bool { return p.plan.anchored != nil }

// String returns the expression p was compiled from.
func (p *Pattern) String() string { return p.expr }

// GroupIndex returns where the group called name stands in p's matches
// (Match.Groups), or -1 when p has no such group: a reader of many
// matches looks its groups up once.
func (p *Pattern) GroupIndex(name string) int {
	for i, n := range p.names {
		if n == name {
			return i
		}
	}
	return -1
}

// Backtracks reports whether p is run at its candidates by the
// backtracker (backtrack.go) rather than by regexp2.
func (p *Pattern) Backtracks() bool { return p.bt != nil }

// Span is a match or a group in byte offsets; OK is false for a group
// that did not take part in the match.
type Span struct {
	Start, End int
	OK         bool
}

// A Match is one match: Groups[0] is the whole match, and Names[i] the
// name of Groups[i].
type Match struct {
	Groups []Span
	Names  []string
}

// Whole returns the span of the whole match, Groups[0].
func (m Match) Whole() Span { return m.Groups[0] }

// Group returns the span of the group called name, not OK when it did not
// take part.
func (m Match) Group(name string) Span {
	for i, n := range m.Names {
		if n == name {
			return m.Groups[i]
		}
	}
	return Span{}
}
