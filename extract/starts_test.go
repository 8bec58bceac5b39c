package extract

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// startCases are hand-made texts that exercise every start, and the seeds
// of FuzzStarts.
var startCases = []string{
	"", "a", "\n", "FINAL ANSWER: 42", "The final answer is 7.", "\\boxed{7}", "<answer> 5 </answer>",
	"## Plan\n1. a", "Here is the plan:\n1. x", "plan for solving this: go", "Stalled.... Replanning...",
	"exitcode: 1 (execution failed)\nCode output: \n", "Traceback (most recent call last):\n  File \"x\"\nValueError: bad",
	"I can't help with that. As an AI language model", "Let us assume 5 dummy values", "I'm sorry, but I am unable to provide",
	"see https://www.example.com/a?b=1 and file:///tmp/x.txt or ./a/b.py, C:\\dir\\f.txt, src/pkg/main.go",
	"On March 5, 2020 at 7:30 p.m. (2020-03-05, 3/5/20, 5th of March 2020, March 2020) call +1 (555) 123-4567",
	"$1,234.50, -3 km, US$5 million, EUR 7, 25 percent, 3.5°C, 06385, 1. item", "Mr. Jean-Luc Picard of the Enterprise met Ürsula",
	`He said "Hello World" and 'quoted text' and “curly one”`, "Next speaker: Coder", "@Coder, please run it",
	"ÇA VA? İstanbul KELVIN K s ſ", "tab\tHere is a screenshot of the page", "x\x80y http://bad\xffurl 12",
}

// TestStartsAreComplete checks that trying a pattern only where its start
// says it can begin finds what regexp2's scan of the whole text finds, on
// every dev step and on hand-made cases: a start that misses a place would
// silently hide matches. It costs what extraction cost before starts.
func TestStartsAreComplete(t *testing.T) {
	if testing.Short() {
		t.Skip("scans every dev step with every pattern the slow way; skipped with -short")
	}
	texts := append([]string(nil), startCases...)
	names, runs := devRuns(t)
	for _, n := range names {
		for _, s := range runs[n].Steps {
			texts = append(texts, s.Content)
			if prose := withoutCode(newText(s.Content)); prose != s.Content {
				texts = append(texts, prose)
			}
		}
	}
	for re, st := range starts {
		for _, s := range texts {
			tx := newText(s)
			want := tx.scan(re, maxMatches)
			cands, ok := tx.candidates(st)
			if !ok {
				continue
			}
			got := tx.tryAt(st, cands, maxMatches)
			if !assert.Equal(t, want, got, "pattern %.60q on %.80q", re.String(), s) {
				return
			}
		}
	}
}

// TestStartsUnaligned: a text whose lower case changes byte lengths (the
// Kelvin sign folds to "k") is scanned, not tried at candidates.
func TestStartsUnaligned(t *testing.T) {
	tx := newText("\u212A exit code 1")
	_, ok := tx.candidates(starts[exitCodeRe])
	assert.False(t, ok)
	m, found := tx.first(exitCodeRe)
	assert.True(t, found)
	assert.Equal(t, "exit code 1", strings.TrimSpace(tx.s[m.start():m.end()]))
}

// FuzzStarts compares, on any text, every started pattern tried at its
// candidates (with its quick matcher) against regexp2's scan of the text.
func FuzzStarts(f *testing.F) {
	for _, s := range startCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for re, st := range starts {
			tx := newText(s)
			cands, ok := tx.candidates(st)
			if !ok {
				continue
			}
			if !assert.Equal(t, tx.scan(re, maxMatches), tx.tryAt(st, cands, maxMatches), "pattern %.60q", re.String()) {
				return
			}
		}
	})
}
