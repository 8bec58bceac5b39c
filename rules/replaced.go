package rules

import (
	"slices"
	"strings"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

// replacedFound is, for a plan or a re-plan i, a name it writes that
// neither the task nor any step before it wrote, which a later tool's
// result holds (the work went on to look it up), in place of a name an
// earlier tool's result reported, which no step from i on writes again,
// and which the agent had handed on as it now hands the new one
// (inPlaceOf): the plan put a value of its own
// in place of what a tool had found (a new plan's "born in Vienna" where
// the search had shown Salzburg, and the route then looked up from
// Vienna). It returns the new name, the name found and the result that
// found it; r is -1 when there is none.
func replacedFound(in *Input, i int) (name, found string, r int) {
	s := in.supportIndex()
	if rep, ok := s.replaced[i]; ok {
		return rep.name, rep.found, rep.r
	}
	name, found, r = readReplaced(in, s, i)
	if s.replaced == nil {
		s.replaced = map[int]replacement{}
	}
	s.replaced[i] = replacement{name, found, r}
	return name, found, r
}

// replacement is what replacedFound read of a plan.
type replacement struct {
	name, found string
	r           int
}

// readReplaced reads replacedFound's answer for plan i.
func readReplaced(in *Input, s *support, i int) (name, found string, r int) {
	f := &in.Features.Steps[i]
	if !f.Has(extract.KindPlan) && !f.Has(extract.KindReplan) {
		return "", "", -1
	}
	// A name that holds one of the task's ("TV Shows With Ted Danson")
	// describes the task's subject: no value found or put in its place.
	ofTask := func(words string) bool {
		return slices.ContainsFunc(in.Features.Question, func(q extract.Claim) bool {
			return q.Kind == extract.ClaimEntity && extract.HoldsWords(words, extract.NormWords(q.Text))
		})
	}
	ents := s.entityWords(in)
	// The names earlier results report that no step from i on writes
	// again and a step between names (inPlaceOf), whatever name of the
	// plan's stands in their place; and the plan's names a later step
	// names again.
	type cand struct {
		k    int
		c    int
		name string
	}
	var cands []cand
	for k := range i {
		if !in.Features.Steps[k].Has(extract.KindToolResult) {
			continue
		}
		for c, sw := range ents[k] {
			if sw != "" && len(s.namingIn(sw, k, i)) > 0 && s.lastWriting(sw) < i && !extract.HoldsWords(in.Run.Question, sw) && !ofTask(sw) {
				cands = append(cands, cand{k, c, sw})
			}
		}
	}
	if len(cands) == 0 {
		return "", "", -1
	}
	for _, e := range f.Claims {
		words := extract.NormWords(e.Text)
		if e.Kind != extract.ClaimEntity || words == "" || len(s.namingIn(words, i, len(in.Features.Steps))) == 0 || extract.HoldsWords(in.Run.Question, words) || ofTask(words) || s.firstWriting(words) < i || !resultHoldsAfter(in, s, i, words) {
			continue
		}
		for _, cd := range cands {
			if cd.name != words && inPlaceOf(in, s, cd.k, i, words, cd.name) {
				return e.Text, in.Features.Steps[cd.k].Claims[cd.c].Text, cd.k
			}
		}
	}
	return "", "", -1
}

// entityWords returns, for each step, the words (NormWords) of each of
// its claims that is a name, "" for its other claims; it indexes the
// steps that name each (naming).
func (s *support) entityWords(in *Input) [][]string {
	if s.entities == nil {
		s.entities = make([][]string, len(in.Features.Steps))
		s.naming = map[string][]int32{}
		for k := range in.Features.Steps {
			cs := in.Features.Steps[k].Claims
			s.entities[k] = make([]string, len(cs))
			for c := range cs {
				if cs[c].Kind == extract.ClaimEntity {
					w := extract.NormWords(cs[c].Text)
					s.entities[k][c] = w
					if at := s.naming[w]; w != "" && (len(at) == 0 || at[len(at)-1] != int32(k)) {
						s.naming[w] = append(at, int32(k))
					}
				}
			}
		}
	}
	return s.entities
}

// namingIn returns the steps after from and before to that name words
// (entityWords), in order.
func (s *support) namingIn(words string, from, to int) []int32 {
	at := s.naming[words]
	lo, _ := slices.BinarySearch(at, int32(from+1))
	hi, _ := slices.BinarySearch(at, int32(to))
	return at[lo:max(lo, hi)]
}

// stepsWriting returns the steps that write words (Writing.HoldsWords),
// in order.
func (s *support) stepsWriting(words string) []int32 {
	if at, ok := s.wordSteps[words]; ok {
		return at
	}
	var at []int32
	for j := range s.steps {
		if s.text.HoldsWords(j, words) {
			at = append(at, int32(j))
		}
	}
	if s.wordSteps == nil {
		s.wordSteps = map[string][]int32{}
	}
	s.wordSteps[words] = at
	return at
}

// firstWriting and lastWriting are the first and the last step that
// write words; len(steps) and -1 when none does.
func (s *support) firstWriting(words string) int {
	if at := s.stepsWriting(words); len(at) > 0 {
		return int(at[0])
	}
	return len(s.steps)
}

func (s *support) lastWriting(words string) int {
	if at := s.stepsWriting(words); len(at) > 0 {
		return int(at[len(at)-1])
	}
	return -1
}

// resultHoldsAfter reports whether a tool's result after step i writes
// words.
func resultHoldsAfter(in *Input, s *support, i int, words string) bool {
	return slices.ContainsFunc(s.stepsWriting(words), func(k int32) bool {
		return int(k) > i && in.Features.Steps[k].Has(extract.KindToolResult)
	})
}

// inPlaceOf reports whether the name (words) stands where found stood:
// a step of step i's agent between steps k and i, one of its own
// decisions and no tool's result, handed found on as a name, and one
// from i on hands the name on so, after the same word as found came after
// (sameLead), beside a name the earlier one wrote too, which the task
// does not ("from Salzburg to Bonn", then "from Vienna to Bonn"). Only
// the steps that name found, and words, are read (namingIn).
func inPlaceOf(in *Input, s *support, k, i int, words, found string) bool {
	handed := func(h int) bool {
		return isAgentDecision(in, h) && !in.Features.Steps[h].Has(extract.KindToolResult) && run.SameAgent(in.Run.Steps[h].Agent, in.Run.Steps[i].Agent)
	}
	text := s.text
	for _, h := range s.namingIn(found, k, i) {
		if !handed(int(h)) {
			continue
		}
		for _, h2 := range s.namingIn(words, i, len(in.Features.Steps)) {
			if !handed(int(h2)) || text.HoldsWords(int(h2), found) {
				continue
			}
			if !sameLead(text, int(h), int(h2), found, words) {
				continue
			}
			for _, w := range s.entities[h] {
				if w != "" && w != found && w != words && !extract.HoldsWords(in.Run.Question, w) && text.HoldsWords(int(h2), w) {
					return true
				}
			}
		}
	}
	return false
}

// replacedUnder is the latest plan or re-plan before step o that put a
// name of its own in place of one a tool had found (replacedFound), where
// a tool's result between them holds the plan's name: o was reached from
// what the work looked up for it. It returns -1 when there is none.
func replacedUnder(in *Input, o int) int {
	if o < 0 {
		return -1
	}
	text := in.supportIndex().text
	for p := o - 1; p >= 0; p-- {
		name, _, r := replacedFound(in, p)
		if r < 0 {
			continue
		}
		words := extract.NormWords(name)
		for k := p + 1; k <= o; k++ {
			if in.Features.Steps[k].Has(extract.KindToolResult) && text.HoldsWords(k, words) {
				return p
			}
		}
	}
	return -1
}

// sameLead reports whether step h writes found, and step h2 the name
// (words), each right after the same word: "from Salzburg", "from
// Vienna".
func sameLead(text *extract.Writing, h, h2 int, found, words string) bool {
	first, _, _ := strings.Cut(found, " ")
	for w := range text.NextTo(first, -1) {
		if text.HoldsWords(h, extract.NormWords(w+" "+found)) && text.HoldsWords(h2, extract.NormWords(w+" "+words)) {
			return true
		}
	}
	return false
}
