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
		// A value the answer states in words no step's claims hold was
		// carried by the steps whose text extract found it in.
		if seen, ok := seenOf(f.FinalAnswer, c.key); ok {
			occ = withSteps(occ, seen)
		}
		given := d.given[c.key]
		if v, unit, ok := strings.Cut(c.key, " "); ok && unit != "" && number(v) {
			if k, ok := d.claimID[v]; ok {
				var bare []int
				for _, i := range d.claimOcc.of(k) {
					if !otherInUnit(f.Steps[i].Claims, v, unit) {
						bare = append(bare, int(i))
					}
				}
				occ = withSteps(occ, bare)
			}
			given = given || d.given[v] && !otherInUnit(f.Question, v, unit) && !inOtherUnit(f.Question, v, unit)
		}
		if !given && number(c.key) && !slices.ContainsFunc(occ, func(i int) bool { return i < a.step }) {
			occ = withSteps(occ, statedWithUnit(d, c.key))
		}
		if !given && !slices.ContainsFunc(occ, func(i int) bool { return i < a.step }) {
			occ = withSteps(occ, convertedIn(f, c.key, a.step))
		}
		occ = withSteps(occ, append(printedPercent(f, d, c.key), listedName(f, c.key)...))
		// A year was carried by the steps that state a date in it ("born
		// in 1961" from "born 10 November 1961"): extract reads a full
		// date as one value, whose year is the answer's. Every date in
		// the year counts when the answer is the first to write the year
		// on its own. When a step before it did, that step took the year
		// from a date it read or from nowhere: an agent that wrote a date
		// in the year before it stated the year as much, but a date a
		// tool printed (a file's timestamp, a log line) or a call was
		// given (git log --since) need not be what it read.
		if isYear(c.key) {
			first := len(occ) == 0 || occ[0] >= a.step
			var dated []int
			for _, key := range datesIn(c.key) {
				if k, ok := d.claimID[key]; ok {
					for _, i := range d.claimOcc.of(k) {
						if first || !kindsOf(&f.Steps[i]).Has(extract.KindToolResult) && len(f.Steps[i].Calls) == 0 {
							dated = append(dated, int(i))
						}
					}
				}
			}
			occ = withSteps(occ, dated)
		}
		a.stating = append(a.stating, occ)
		a.given = append(a.given, given)
	}
	return a
}

// seenOf is the steps whose text holds the answer's value of key, where
// extract looked for it there (extract.FinalAnswer.Seen).
func seenOf(fa *extract.FinalAnswer, key string) ([]int, bool) {
	if fa == nil {
		return nil, false
	}
	seen, ok := fa.Seen[key]
	return seen, ok
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

// inOtherUnit reports whether claims give the number v in a unit other
// than unit ("300 s" for an answer's "300 min"): the answer did not take
// the figure as given, it changed what it measures.
func inOtherUnit(claims []extract.Claim, v, unit string) bool {
	for _, c := range claims {
		if w, u, ok := strings.Cut(claimKey(c), " "); ok && u != unit && w == v {
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

// isYear reports whether a claim's key is a bare number that may be a
// year of a date extract reads: four digits, 1000 to 2999.
func isYear(key string) bool {
	return len(key) == 4 && key[0] >= '1' && key[0] <= '2' && number(key) && !strings.ContainsAny(key, ".-+eE")
}

// datesIn returns the keys extract writes a date in year as: the month
// ("1961-11") and each day of it ("1961-11-10").
func datesIn(year string) []string {
	keys := make([]string, 0, 12*32)
	for m := 1; m <= 12; m++ {
		month := year + "-" + pad2(m)
		keys = append(keys, month)
		for d := 1; d <= 31; d++ {
			keys = append(keys, month+"-"+pad2(d))
		}
	}
	return keys
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// withSteps is occ with the steps more adds, in order, each once.
func withSteps(occ, more []int) []int {
	if len(more) == 0 {
		return occ
	}
	occ = append(occ, more...)
	slices.Sort(occ)
	return slices.Compact(occ)
}

// statedWithUnit is, for a bare number an answer is the first to write on
// its own (key "14410", as a task that asks for just the number has it
// written), the steps that state that number with a unit ("about 14,410
// feet"): the answer dropped the unit, and the step that first stated the
// quantity (a coordinator's ledger reason or reset plan among any others)
// is where the value came from. A quantity the question gives was not
// produced by the run.
func statedWithUnit(d claimIndex, key string) []int {
	var out []int
	for k, id := range d.claimID {
		v, unit, ok := strings.Cut(k, " ")
		if !ok || v != key || unit == "" || d.given[k] {
			continue
		}
		for _, i := range d.claimOcc.of(id) {
			out = append(out, int(i))
		}
	}
	return out
}

// convertedIn is, for a number in a unit (key "88 °F") no step before
// the answer's states, the steps before it that state the same quantity
// in another unit that converts to it (extract.Claim.ConvertedFrom: "31
// °C"): the answer told that figure in the unit asked for, and the step
// that first stated it is where the value came from.
func convertedIn(f *extract.RunFeatures, key string, answer int) []int {
	c := extract.Claim{Kind: extract.ClaimNumber, Norm: key}
	if v, unit := c.Value(); unit == "" || !number(v) {
		return nil
	}
	var out []int
	for j := range min(answer, len(f.Steps)) {
		if slices.ContainsFunc(f.Steps[j].Claims, c.ConvertedFrom) {
			out = append(out, j)
		}
	}
	return out
}

// printedPercent is, for an answer's percentage (key "4.5%"), the tool
// outputs that print it bare or as the fraction it is: code prints
// round(100 * part / whole, 1) or part / whole, and the agent writes the
// sign when it reports the figure. Only a tool's output counts: in an
// agent's prose a bare number is some other figure, and an output that
// gives the number in another unit printed something else.
func printedPercent(f *extract.RunFeatures, d claimIndex, key string) []int {
	c := extract.Claim{Kind: extract.ClaimNumber, Norm: key}
	v, unit := c.Value()
	fr, ok := c.Fraction()
	if unit != "%" || !ok || !number(v) {
		return nil
	}
	var out []int
	for _, bare := range []string{v, fr.Norm} {
		k, ok := d.claimID[bare]
		if !ok {
			continue
		}
		for _, i := range d.claimOcc.of(k) {
			if kindsOf(&f.Steps[i]).Has(extract.KindToolResult) && !inOtherUnit(f.Steps[i].Claims, bare, "%") {
				out = append(out, int(i))
			}
		}
	}
	return out
}

// listedName is, for an answer's name (key), the tool outputs that list a
// record known by it or described by it (extract.Record.Names): a table's
// row label, a listing's name field. The answer that names it read it
// there, though no step's claims hold the bare name.
func listedName(f *extract.RunFeatures, key string) []int {
	if number(key) {
		return nil
	}
	var out []int
	for i := range f.Steps {
		s := &f.Steps[i]
		if len(s.Records) > 0 && kindsOf(s).Has(extract.KindToolResult) &&
			slices.ContainsFunc(s.Records, func(r extract.Record) bool { return r.Names(key) }) {
			out = append(out, i)
		}
	}
	return out
}
