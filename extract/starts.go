package extract

import (
	"strings"
	"unicode"
)

// Where each pattern's matches can begin (see anchor.go). Every alternative
// of a pattern must be covered: a \b and a keyword give a word, a (?m)^ gives
// lines, a character class gives an at function. A start that misses a
// place hides matches, so change it together with its pattern;
// TestStartsAreComplete compares both ways of matching on the dev runs.
// Patterns without a start (those read on a few bytes, those regexp2 already
// anchors or finds by a literal prefix) are scanned as before.
func init() {
	// kinds_patterns.go
	startsAt(planRe, start{at: planLineAt, lower: true, words: []string{"here", "we are working", "plan", "approach", "strategy", "steps"}})
	startsAt(replanMarkerRe, start{words: []string{"new", "updated", "revised", "adjusted", "modified", "alternative", "different", "re-plan", "replan", "change"}})
	startsAt(codeBlockRe, start{lits: []string{"```"}})
	startsAt(actionLineRe, start{lines: true, lead: blankOrStar, lineWords: []string{"action"}})
	startsAt(functionCallRe, start{lits: []string{`"name"`, `"function"`, `"tool"`}})
	startsAt(callingToolRe, start{words: []string{"calling", "invoking", "using"}})
	startsAt(toolOutputRe, start{lines: true, lead: unicode.IsSpace, lineWords: []string{"exit", "code output", "stdout", "stderr", "observation", "tool ", "execution ", "output", "traceback"}, words: []string{"there is no code", "here is a screenshot of", "the viewport shows", "viewport position", "automatic ocr of the page", "the following"}})
	startsAt(finalAnswerRe, start{words: []string{"final", "the final answer", "my final answer", "our final answer"}, lits: []string{`\boxed{`, "<answer>"}})
	startsAt(answerRe, start{lines: true, lead: markdownLead, lineWords: []string{"answer", "result", "solution", "conclusion"},
		words: append(cross([]string{"the ", "our ", "my "}, []string{"correct ", "best ", "likely ", "most likely ", "answer ", "solution ", "result "}),
			"therefore", "thus", "hence", "in conclusion", "to conclude")})
	startsAt(terminateRe, start{lines: true, lead: blankOrStar, lineWords: []string{"terminate"}, words: []string{"terminat", "request satisfied", "max", "no agent selected", "conversation"}})
	startsAt(thoughtRe, start{lines: true, lead: markdownLead, lineWords: []string{"thought", "thinking", "reasoning", "reflection"}})
	startsAt(nextSpeakerRe, start{words: []string{"next"}})

	// signals.go
	startsAt(exitCodeRe, start{words: []string{"exit", "return"}})
	for _, r := range append(append([]signalRule{}, errorRules...), successRules...) {
		s, ok := signalStarts[r.kind]
		if !ok {
			panic("extract: no start for signal rule " + r.kind)
		}
		startsAt(r.re, s)
	}

	// otar.go
	startsAt(otarLabelRe, start{lines: true, lead: markdownLead, lineWords: []string{"observation", "thought", "thinking", "action", "result", "final answer"}})
	startsAt(observedRe, start{words: []string{"the search ", "the result", "the output ", "the error ", "the page ", "the response ", "the data ", "the file ", "i see", "i notice", "i found", "i observe", "based on"}})
	startsAt(reasonedRe, start{words: []string{"i think", "i believe", "i need to", "i should", "i must", "we need to", "we should", "we must", "to do this", "to achieve this", "to accomplish this", "it seems that", "it appears that"}})
	startsAt(intendedRe, start{words: []string{"i'll", "i will", "i am going to", "let's", "let me", "let us", "we'll", "we will"}})
	startsAt(outputRe, start{lines: true, lead: blank, lineWords: []string{"code output", "output", "stdout", "result"}})
	startsAt(pageRe, start{words: []string{"here is a screenshot of"}})

	// claims_patterns.go
	startsAt(urlRe, start{words: []string{"http://", "https://", "ftp://", "www."}})
	startsAt(fileURLRe, start{words: []string{"file://"}})
	startsAt(pathRe, start{mask: cMark, at: pathAt, more: relativePaths})
	startsAt(isoDateRe, start{mask: cDigit, at: func(t *text, i int) bool {
		p := t.prev(i)
		return !digit(p) && p != '-' && t.digitsThen(i, 4, 4, func(r rune) bool { return r == '-' })
	}})
	startsAt(slashDateRe, start{mask: cDigit, at: func(t *text, i int) bool {
		p := t.prev(i)
		return !digit(p) && p != '/' && p != '.' && p != '-' && t.digitsThen(i, 1, 2, func(r rune) bool { return r == '/' })
	}})
	months := []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}
	startsAt(mdyDateRe, start{words: months})
	startsAt(myDateRe, start{words: months})
	// "5 March", "5th of March": one or two digits, then a blank or a suffix.
	startsAt(dmyDateRe, start{mask: cDigit, at: func(t *text, i int) bool {
		return !wordChar(t.prev(i)) && t.digitsThen(i, 1, 2, func(r rune) bool {
			return unicode.IsSpace(r) || strings.ContainsRune("snrtSNRT", r)
		})
	}})
	// "+1 555...", "(555) ...", or three digits.
	startsAt(phoneRe, start{mask: cDigit | cMark, at: func(t *text, i int) bool {
		r, p := t.runes[i], t.prev(i)
		if wordChar(p) || p == '.' {
			return false
		}
		return r == '+' || r == '(' || t.digitsThen(i, 3, 3, func(rune) bool { return true })
	}})
	startsAt(timeRe, start{mask: cDigit, at: timeAt})
	startsAt(numberRe, start{mask: cDigit | cMark, at: numberAt, words: []string{"usd", "us$", "eur", "gbp"}, quick: quickNumber})
	startsAt(entityRe, start{mask: cUpper, at: entityAt, quick: quickEntity})
	startsAt(quotedRe, start{mask: cMark, at: quotedAt, quick: quickQuoted})
}

// signalStarts are the starts of errorRules and successRules, by kind.
var signalStarts = map[string]start{
	"exception": {lines: true, lineHas: []string{"error", "exception", "panic", "fatal"}},
	"error":     {lines: true, lead: markdownLead, lineWords: []string{"err", "fail"}},
	"not_found": {words: append(cross([]string{"page ", "file ", "resource ", "module ", "command ", ""}, []string{"not found"}),
		"no such file", "does not exist", "doesn't exist", "404", "no relevant ", "no matching ", "no result", "http", "status")},
	"refusal":      {words: []string{"i'm ", "i am ", "i can", "i won't", "i will not", "as an ai"}},
	"failure":      {words: []string{"unable to", "was not able to", "were not able to", "is not able to", "are not able to", "could", "can", "fail", "unsuccessful", "did not", "time", "access denied", "forbidden", "blocked"}},
	"apology":      {words: []string{"i apologi", "my apologies", "apologies", "i'm sorry", "i am sorry", "sorry for"}},
	"assumption":   {words: []string{"let's assume", "let us assume", "assum", "hypothetical", "placeholder", "dummy", "mock", "simulate", "for ", "made", "fictional", "example "}},
	"stall":        {words: []string{"stalled", "stuck", "we are in a loop", "we're in a loop", "in a loop", "re-planning", "replanning", "no further progress", "no progress", "max", "counter", "exceeded"}},
	"empty_result": {words: []string{"no code", "code ", "command ", "output", "produced no output", "returned ", "result ", "response "}},
	"confirmed": {words: append(append(cross([]string{"i "}, []string{"have ", "hereby ", "verified", "confirm", "double", "validated", "checked"}),
		cross([]string{"is ", "are ", "was ", "were ", "be "}, []string{"verified", "confirmed", "validated", "correct", "accurate"})...),
		"has been", "have been", "had been", "verification", "look", "approve", "lgtm", "all ")},
	"success": {words: []string{"execution succeeded", "successfully", "succeeded", "test", "all tests", "all checks", "request satisfied"}},
}

// Leads: what a pattern allows at a line start before its keyword.
func blank(r rune) bool        { return r == ' ' || r == '\t' }
func blankOrStar(r rune) bool  { return r == ' ' || r == '\t' || r == '*' }
func markdownLead(r rune) bool { return strings.ContainsRune(" \t*#>-", r) }

// cross returns every a followed by every b.
func cross(as, bs []string) []string {
	var out []string
	for _, a := range as {
		for _, b := range bs {
			out = append(out, a+b)
		}
	}
	return out
}

// planLineAt: planRe's first two forms begin at the text start or at a
// "\n" (which they take in), and "plan" follows within 256 bytes (58 runes
// at most, each of four bytes at most).
func planLineAt(t *text, i int) bool {
	if i > 0 && t.runes[i] != '\n' {
		return false
	}
	from := t.off[i]
	return strings.Contains(t.lower[from:min(len(t.lower), from+256)], "plan")
}
