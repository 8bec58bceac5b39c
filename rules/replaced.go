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
	f := &in.Features.Steps[i]
	if !f.Has(extract.KindPlan) && !f.Has(extract.KindReplan) {
		return "", "", -1
	}
	text := in.supportIndex().text
	// A name that holds one of the task's ("TV Shows With Ted Danson")
	// describes the task's subject: no value found or put in its place.
	ofTask := func(words string) bool {
		return slices.ContainsFunc(in.Features.Question, func(q extract.Claim) bool {
			return q.Kind == extract.ClaimEntity && extract.HoldsWords(words, extract.NormWords(q.Text))
		})
	}
	for _, e := range f.Claims {
		words := extract.NormWords(e.Text)
		if e.Kind != extract.ClaimEntity || words == "" || extract.HoldsWords(in.Run.Question, words) || ofTask(words) || heldBefore(text, i, words) || !resultHoldsAfter(in, text, i, words) {
			continue
		}
		for k := range i {
			if !in.Features.Steps[k].Has(extract.KindToolResult) {
				continue
			}
			for _, s := range in.Features.Steps[k].Claims {
				sw := extract.NormWords(s.Text)
				if s.Kind == extract.ClaimEntity && sw != "" && sw != words && !extract.HoldsWords(in.Run.Question, sw) && !ofTask(sw) &&
					!heldFrom(in, text, i, sw) && inPlaceOf(in, text, k, i, words, sw) {
					return e.Text, s.Text, k
				}
			}
		}
	}
	return "", "", -1
}

// resultHoldsAfter reports whether a tool's result after step i writes
// words.
func resultHoldsAfter(in *Input, text *extract.Writing, i int, words string) bool {
	for k := i + 1; k < len(in.Features.Steps); k++ {
		if in.Features.Steps[k].Has(extract.KindToolResult) && text.HoldsWords(k, words) {
			return true
		}
	}
	return false
}

// inPlaceOf reports whether the name (words) stands where found stood:
// a step of step i's agent between steps k and i, one of its own
// decisions and no tool's result, handed found on as a name, and one
// from i on hands the name on so, after the same word as found came after
// (sameLead), beside a name the earlier one wrote too, which the task
// does not ("from Salzburg to Bonn", then "from Vienna to Bonn").
func inPlaceOf(in *Input, text *extract.Writing, k, i int, words, found string) bool {
	handed := func(h int) bool {
		return isAgentDecision(in, h) && !in.Features.Steps[h].Has(extract.KindToolResult) && run.SameAgent(in.Run.Steps[h].Agent, in.Run.Steps[i].Agent)
	}
	names := func(h int, words string) bool {
		return slices.ContainsFunc(in.Features.Steps[h].Claims, func(c extract.Claim) bool {
			return c.Kind == extract.ClaimEntity && extract.NormWords(c.Text) == words
		})
	}
	for h := k + 1; h < i; h++ {
		if !handed(h) || !names(h, found) {
			continue
		}
		for h2 := i + 1; h2 < len(in.Features.Steps); h2++ {
			if !handed(h2) || !names(h2, words) || text.HoldsWords(h2, found) {
				continue
			}
			if !sameLead(text, h, h2, found, words) {
				continue
			}
			for _, c := range in.Features.Steps[h].Claims {
				w := extract.NormWords(c.Text)
				if c.Kind == extract.ClaimEntity && w != "" && w != found && w != words && !extract.HoldsWords(in.Run.Question, w) && text.HoldsWords(h2, w) {
					return true
				}
			}
		}
	}
	return false
}

// heldFrom reports whether any step from i on writes words.
func heldFrom(in *Input, text *extract.Writing, i int, words string) bool {
	for j := i; j < len(in.Features.Steps); j++ {
		if text.HoldsWords(j, words) {
			return true
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
