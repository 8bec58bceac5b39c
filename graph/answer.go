package graph

import (
	"slices"
	"strconv"
	"strings"

	"github.com/offattr/offattr/extract"
)

// answerRef is where the run's final answer stands and what it claims.
type answerRef struct {
	step   int
	claims []claimRef
	// Per claim, the steps stating it, ascending, and whether the question
	// gives it: what AnswerFlow reads of the builder's index of every
	// claim, which is not kept.
	stating [][]int
	given   []bool
}

// answerIn is answerOf(f) with each claim's steps and whether the question
// gives it, read from the builder's index of claims.
func answerIn(f *extract.RunFeatures, d claimIndex) answerRef {
	a := answerOf(f)
	for _, c := range a.claims {
		var occ []int
		if k, ok := d.claimID[c.key]; ok {
			// A copy: the index's lists are parts of one array.
			for _, i := range d.claimOcc.of(k) {
				occ = append(occ, int(i))
			}
		}
		// A number with its unit was carried by the steps that state the
		// bare number too, as extract.Claim.Matches reads them: a
		// constant in code or a figure in a table has its unit in a name
		// ("TIMEOUT_MINUTES = 50" before "50 minutes"). A text that gives
		// the quantity in that unit as another value ("a 44 km route ...
		// 18 parking stalls") counts something else with its bare number.
		given := d.given[c.key]
		if v, unit, ok := strings.Cut(c.key, " "); ok && unit != "" && number(v) {
			if k, ok := d.claimID[v]; ok {
				for _, i := range d.claimOcc.of(k) {
					if !otherInUnit(f.Steps[i].Claims, v, unit) {
						occ = append(occ, int(i))
					}
				}
				slices.Sort(occ)
				occ = slices.Compact(occ)
			}
			given = given || d.given[v] && !otherInUnit(f.Question, v, unit)
		}
		a.stating = append(a.stating, occ)
		a.given = append(a.given, given)
	}
	return a
}

// answerOf finds the final answer: extract's choice if it made one, else the
// last step marked as a final answer.
func answerOf(f *extract.RunFeatures) answerRef {
	if fa := f.FinalAnswer; fa != nil && fa.Step >= 0 && fa.Step < len(f.Steps) {
		if len(fa.Claims) > 0 {
			// The answer's own claims, not the reasoning around it.
			return answerRef{step: fa.Step, claims: distinctClaims(fa.Claims)}
		}
		return answerRef{step: fa.Step, claims: stepClaims(f, fa.Step)}
	}
	for i := len(f.Steps) - 1; i >= 0; i-- {
		if kindsOf(&f.Steps[i]).Has(extract.KindFinalAnswer) {
			return answerRef{step: i, claims: stepClaims(f, i)}
		}
	}
	return answerRef{step: -1}
}

// AnswerStep returns the step giving the run's final answer, or -1.
func (g *Graph) AnswerStep() int { return g.answer.step }

// ClaimFlow traces one claim of the final answer back to where it first
// appears (CHIEF §4.3.3).
type ClaimFlow struct {
	Claim string `json:"claim"` // normalised
	Text  string `json:"text"`  // as the answer step states it
	// Origin is the first step stating the claim (the answer step itself
	// when the answer is the first to state it, a candidate fabrication),
	// or -1 when the question already states it.
	Origin int `json:"origin"`
	// Path runs from the answer step back to the origin through every step
	// between that states the claim, latest first: the steps that carried
	// the value and where it may have been corrupted.
	Path []int `json:"path"`
}

// AnswerFlow returns the data-flow path of each claim of the final answer,
// in the order the answer states them; nil when there is no final answer.
func (g *Graph) AnswerFlow() []ClaimFlow {
	if g.answer.step < 0 {
		return nil
	}
	var out []ClaimFlow
	for i, c := range g.answer.claims {
		cf := ClaimFlow{Claim: c.key, Text: c.text, Origin: -1}
		occ := g.answer.stating[i]
		for k := len(occ) - 1; k >= 0; k-- {
			if occ[k] <= g.answer.step {
				cf.Path = append(cf.Path, occ[k])
			}
		}
		if len(cf.Path) == 0 || cf.Path[0] != g.answer.step {
			cf.Path = append([]int{g.answer.step}, cf.Path...)
		}
		if !g.answer.given[i] {
			cf.Origin = cf.Path[len(cf.Path)-1]
		}
		out = append(out, cf)
	}
	return out
}

// otherInUnit reports whether claims state a number in unit other than v.
func otherInUnit(claims []extract.Claim, v, unit string) bool {
	for _, c := range claims {
		if w, u, ok := strings.Cut(claimKey(c), " "); ok && u == unit && w != v && number(w) {
			return true
		}
	}
	return false
}

// number reports whether a claim's key is a bare number.
func number(key string) bool {
	_, err := strconv.ParseFloat(key, 64)
	return err == nil
}
