package extract

// What a step says in passing that a reader of blame needs: that an
// earlier result is wrong, and where it first uses explicit failure words.

// critiqueRe marks a message that says an earlier one was wrong: that it
// is unsupported, or that a figure or a date is the correct one in its
// place ("the correct figure is 10", "the answer should be June 16"), as
// a checker does; "the answer should be a number" asks for a format.
var critiqueRe = pattern(`\b(is|was|are|were|seems?) (incorrect|wrong|inaccurate|flawed|not correct|not accurate|irrelevant)\b|\b(there (is|was) (an? )?(error|mistake|bug|issue) in)\b|\b(does(n't| not) (match|align|answer|address))\b|\bmade an? (error|mistake)\b|`+
	`\bthe (answer|figure|value|claim|date|total|result)\b[^.;\n]{0,40}?\b(is|was) (not supported|unsupported)\b|`+
	`\bthe (correct (answer|figure|value|date|number|amount|total) is|(answer|figure|value|date|total|result) should (be|read))\s{1,3}(?=[$€£]?\d|(?:`+monthWords+`)\b)`, ci)

// failureWordsRe is the first-error baseline's whole notion of a fault:
// explicit failure words in a message, whoever wrote it and whatever it
// is about (errorRules read the same words with more care).
var failureWordsRe = pattern(`\b(exit ?code:? ?[1-9]\d*|traceback \(most recent call last\)|exception|error:|failed|cannot|can['’]t|unable to|not found|`+status404+`)\b`, ci)

// status404 is a 404 status, not an amount that writes the same digits
// ("$404", "1,404", "404.50"): no currency sign or digit group before it,
// no decimal part after.
const status404 = `(?<![$€£]\s?|\d[,.])404(?![.,]\d)`

// spanOf is where a match stands (t.first's result), or nil for none.
func spanOf(m match, ok bool) *Span {
	if !ok {
		return nil
	}
	w := m.Whole()
	return &Span{Offset: w.Start, Len: w.End - w.Start}
}
