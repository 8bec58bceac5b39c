package extract

import (
	"strings"
	"unicode"
)

// guessed returns the numbers (claims' values) a step writes only in a
// section of its text headed as educated guesses, as a plan's fact sheet
// keeps them apart from the facts given or looked up ("4. EDUCATED
// GUESSES", "EDUCATED GUESSES OR HUNCHES**"): a figure the planner marks
// as a guess, which a later step that writes the same number need not
// have taken from it. A number the step also writes outside the section
// is a stated one.
func guessed(s string, claims []Claim) []string {
	from, to := guessSection(s)
	if from < 0 {
		return nil
	}
	in, out := map[string]bool{}, map[string]bool{}
	for _, c := range claims {
		if c.Kind != ClaimNumber {
			continue
		}
		v, _ := c.Value()
		if int(c.Offset) >= from && int(c.Offset) < to {
			in[v] = true
		} else {
			out[v] = true
		}
	}
	var got []string
	for _, c := range claims {
		if v, _ := c.Value(); c.Kind == ClaimNumber && in[v] && !out[v] {
			got = appendNew(got, v)
		}
	}
	return got
}

// guessSection returns the byte range of s's section of educated
// guesses: from the line after its heading to the first line after a
// blank one that is no item of it (not indented, no bullet), or the end;
// -1, -1 when s has no such heading.
func guessSection(s string) (int, int) {
	from, blank := -1, false
	at := 0
	for line := range strings.SplitAfterSeq(s, "\n") {
		start := at
		at += len(line)
		body := strings.TrimRight(line, "\r\n")
		if from < 0 {
			if guessHeading(body) {
				from = at
			}
			continue
		}
		if strings.TrimSpace(body) == "" {
			blank = true
			continue
		}
		if blank && !strings.HasPrefix(body, " ") && !strings.HasPrefix(body, "\t") && !strings.HasPrefix(body, "-") && !strings.HasPrefix(body, "*") && !strings.HasPrefix(body, "•") {
			return from, start
		}
		blank = false
	}
	if from < 0 {
		return -1, -1
	}
	return from, len(s)
}

// guessHeading reports whether a line is a heading of educated guesses:
// its words, numbering and markup aside, begin "educated guesses" and it
// is short.
func guessHeading(line string) bool {
	if len(line) > 60 {
		return false
	}
	words := strings.FieldsFunc(strings.ToLower(line), func(r rune) bool { return !unicode.IsLetter(r) })
	return len(words) >= 2 && words[0] == "educated" && (words[1] == "guesses" || words[1] == "guess") && len(words) <= 4
}
