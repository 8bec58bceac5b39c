package extract

// passesRe is a step saying that the checks it speaks of passed: a test
// suite, the tests, CI, a build or a pipeline is green or passing, or has
// passed ("the suite is green", "all 14 tests pass", "CI is all green",
// "everything's green", "All green."), or that a run shows them so ("the
// test run shows the suite passing"; not what it is to, or would, show). A subject, or a sentence of its
// own, is needed: "green" alone is a colour ("all green corners").
// A bare present ("so the tests pass") is what an agent means to bring
// about, not a report; a copula, "all" or a past tense makes it one.
var passesRe = pattern(`\b(?:suite|tests?|CI|build|pipeline|checks?)\s{1,2}(?:(?:is|are|was|were|now|all|still|came\s{1,2}back|comes?\s{1,2}back)\s{1,2}){1,2}(?:green|passing)\b|\b(?:suite|tests?|checks?)\s{1,2}(?:(?:all|have|has|now)\s{1,2}){0,2}passed\b|\ball\s{1,2}(?:\d{1,6}\s{1,2})?(?:(?:the|of\s{1,2}the|unit|integration|e2e)\s{1,2}){0,2}(?:tests|checks)\s{1,2}(?:now\s{1,2})?pass(?:ed)?\b|\beverything(?:['’]s|\s{1,2}is)\s{1,2}(?:all\s{1,2})?green\b|\ball\s{1,2}green(?=\s{0,2}(?:[.!;]|$))|(?<!\b(?:to|will|would|could|should|must|might|may|can)\s{1,2})\bshow(?:s|ed|n)?\s{1,2}(?:that\s{1,2})?(?:(?:the|all|all\s{1,2}the)\s{1,2})?(?:\d{1,6}\s{1,2})?(?:suite|tests?|checks?|build)\s{1,2}(?:(?:all|now)\s{1,2})?(?:passing|green|pass(?:ed)?)\b`, ci)

// passesWhenRe is what, written before the words, makes them a condition
// or an aim rather than a report: "approve it only if the suite is green",
// "until the tests pass", "make sure the build is green".
var passesWhenRe = pattern(`\b(?:if|unless|until|once|when|whether|after|so\s{1,2}that|ensure|make\s{1,2}sure|to\s{1,2}see|check|verify|confirm)\b[\w\s,'’-]{0,30}$`, ci)

// passes returns where a step first says, as a report, that the checks it
// speaks of passed (passesRe), not negated, not asked as a question and
// not a condition or an aim (passesWhenRe); nil when it does not.
func passes(t *text) *Span {
	for _, m := range t.all(passesRe, 8) {
		w := m.Whole()
		before := t.s[max(0, w.Start-40):w.Start]
		for len(before) > 0 && before[0]&0xC0 == 0x80 {
			before = before[1:]
		}
		if negated(t.s, w.Start) {
			continue
		}
		if e := sentenceEnd(t.s, w.End); e < len(t.s) && t.s[e] == '?' {
			continue // a question whether they passed
		}
		if _, cond := firstIn(passesWhenRe, before); cond {
			continue
		}
		return &Span{Offset: w.Start, Len: w.End - w.Start}
	}
	return nil
}
