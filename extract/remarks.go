package extract

// What a step says in passing that a reader of blame needs: that an
// earlier result is wrong, and where it first uses explicit failure words.

import (
	"slices"
	"strings"

	"github.com/offattr/offattr/run"
)

// critiqueRe marks a message that says an earlier one was wrong: that it
// is incorrect, or that the answer is unsupported; or a self-correction,
// which takes a figure or a weekday back for another ("Wait, 3 × 25 is
// 75, not 85").
var critiqueRe = pattern(`\b(?:wait|oops|hold on|actually|correction|let me (?:re-?check|recompute|recalculate|correct)(?: that| this)?)\b[,.!:]?\s(?:[^.;\n]|\.\d){0,80}?\b(?:is|are|was|were|equals|gives|makes|comes to|should be)\s{1,3}(?:[$€£]?\d[\d,.]*|(?:a\s)?(?:`+weekdayWords+`))[^,;.\n]{0,24},?\s{1,3}not\s{1,3}(?:[$€£]?\d|(?:a\s)?(?:`+weekdayWords+`))|`+
	`\b(is|was|are|were|seems?) (incorrect|wrong|inaccurate|flawed|not correct|not accurate|irrelevant)\b|\b(there (is|was) (an? )?(error|mistake|bug|issue) in)\b|\b(does(n't| not) (match|align|answer|address))\b|\bmade an? (error|mistake)\b|`+
	`\bthe (answer|figure|value|claim|date|total|result)\b[^.;\n]{0,40}?\b(is|was) (not supported|unsupported)\b`, ci)

// correctionRe marks a message that puts a figure or a date forward as
// the correct one ("the correct figure is 10", "the answer should be June
// 16"); "the answer should be a number" asks for a format. A checker
// writes it in the place of another's answer, and an agent concluding
// its own work writes it too ("Thus, the correct answer is 2"): only the
// first is a critique (readCorrections).
var correctionRe = pattern(`\bthe (correct (answer|figure|value|date|number|amount|total) is|(answer|figure|value|date|total|result) should (be|read))\s{1,3}(?=[$€£]?\d|(?:`+monthWords+`)\b)`, ci)

// failureWordsRe is the first-error baseline's whole notion of a fault:
// explicit failure words in a message, whoever wrote it and whatever it
// is about (errorRules read the same words with more care).
var failureWordsRe = pattern(`\b(exit ?code:? ?[1-9]\d*|traceback \(most recent call last\)|exception|error:|failed|cannot|can['’]t|unable to|not found|`+status404+`)\b`, ci)

// status404 is a 404 status, not an amount that writes the same digits
// ("$404", "1,404", "404.50"): no currency sign or digit group before it,
// no decimal part after; nor the number of an item a noun numbers ("Rule
// 404", "Room 404", "Section 404"), as a page listing rules or rooms
// prints it.
const status404 = `(?<![$€£]\s?|\d[,.]|\b(?:rule|room|section|sec\.|article|art\.|chapter|clause|paragraph|suite|apt\.?|apartment|unit|route|highway|flight|gate|platform|item|form|model|part|title|volume|vol\.|exhibit|lot|episode|no\.)\s)404(?![.,]\d)`

// spanOf is where a match stands (t.first's result), or nil for none.
func spanOf(m match, ok bool) *Span {
	if !ok {
		return nil
	}
	w := m.Whole()
	return &Span{Offset: w.Start, Len: w.End - w.Start}
}

// correction is a step's correction (correctionRe): where it stands, and
// the value it puts forward, as claims and as days of a month.
type correction struct {
	step   int
	span   Span
	values []Claim
	days   []string
}

// correctionAt reads the correction m matched in t: the first figure or
// date of the rest of its sentence.
func correctionAt(t *text, m match) *correction {
	w := m.Whole()
	rest := t.s[w.End:min(len(t.s), w.End+80)]
	if k := strings.IndexAny(rest, ";\n"); k >= 0 {
		rest = rest[:k]
	}
	if k := strings.Index(rest, ". "); k >= 0 {
		rest = rest[:k]
	}
	c := &correction{span: Span{Offset: w.Start, Len: w.End - w.Start}, days: monthDays(newText(rest))}
	for _, v := range Claims(rest) {
		if v.Kind == ClaimNumber || v.Kind == ClaimDate {
			c.values = append(c.values, v)
			break
		}
	}
	return c
}

// readCorrections makes a critique of each correction that corrects
// another's answer: the latest earlier step of another agent that speaks
// for itself (no task, tool output or user turn) states a figure or a
// date the task does not, and none is the value the correction puts
// forward. An agent that concludes its own work ("Thus, the correct
// answer is 2"), alone or restating its own value, criticises no one.
func readCorrections(r *run.Run, rf *RunFeatures, cs []correction, agents *agentSet) {
	for _, c := range cs {
		if len(c.values) == 0 && len(c.days) == 0 {
			continue
		}
		j := answerBefore(r, rf, c.step)
		if j < 0 {
			continue
		}
		stated := statedValues(rf, j)
		if len(stated) == 0 || slices.ContainsFunc(stated, c.puts) || slices.ContainsFunc(rf.Steps[j].MonthDays, func(d string) bool { return slices.Contains(c.days, d) }) {
			continue
		}
		i := c.step
		rf.Steps[i] = rf.Steps[i].Clone()
		rf.Steps[i].Details.Rare.Critique = &Span{Offset: c.span.Offset, Len: c.span.Len}
		rf.Steps[i].Details.Rare.Rejected = exactly(rejectedNumbers(newText(r.Steps[i].Content), agents))
	}
}

// answerBefore is the latest step before i of another agent that speaks
// for itself: no task, system prompt, user turn or tool output; -1 for
// none.
func answerBefore(r *run.Run, rf *RunFeatures, i int) int {
	for j := i - 1; j >= 0; j-- {
		s := r.Steps[j]
		if run.SameAgent(s.Agent, r.Steps[i].Agent) || s.Kind == run.KindUser || s.Kind == run.KindSystem || rf.Steps[j].Has(KindToolResult) || rf.Steps[j].Has(KindTask) {
			continue
		}
		return j
	}
	return -1
}

// statedValues are the figures and dates step j states that the task
// does not.
func statedValues(rf *RunFeatures, j int) []Claim {
	var out []Claim
	for _, v := range rf.Steps[j].Claims {
		if (v.Kind == ClaimNumber || v.Kind == ClaimDate) && !slices.ContainsFunc(rf.Question, v.Matches) {
			out = append(out, v)
		}
	}
	return out
}

// puts reports whether the correction puts forward the value v states:
// the same figure, the same date, or the same day of a month.
func (c correction) puts(v Claim) bool {
	if slices.ContainsFunc(c.values, v.Matches) {
		return true
	}
	return v.Kind == ClaimDate && len(v.Norm) == len("2006-01-02") && slices.Contains(c.days, v.Norm[5:])
}
