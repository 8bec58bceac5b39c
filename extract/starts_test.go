package extract

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	matching "github.com/offattr/offattr/internal/match"
	"github.com/offattr/offattr/run/runtest"
)

// startCases are hand-made texts that exercise the starters, and the seeds
// of FuzzStarts: keywords, line leads, look-behinds, case folds that change
// byte lengths (the Kelvin sign, dotted İ), long s, Unicode digits,
// spaces and joiners.
var startCases = []string{
	"", "a", "\n", "FINAL ANSWER: 42", "The final answer is 7.", "\\boxed{7}", "<answer> 5 </answer>",
	"## Plan\n1. a", "Here is the plan:\n1. x", "plan for solving this: go", "Stalled.... Replanning...",
	"\n  ### My new plan here\n", "x\n- our overall plan: do it",
	"exitcode: 1 (execution failed)\nCode output: \n", "Traceback (most recent call last):\n  File \"x\"\nValueError: bad",
	"I can't help with that. As an AI language model", "Let us assume 5 dummy values", "I'm sorry, but I am unable to provide",
	"see https://www.example.com/a?b=1 and file:///tmp/x.txt or ./a/b.py, C:\\dir\\f.txt, src/pkg/main.go",
	"On March 5, 2020 at 7:30 p.m. (2020-03-05, 3/5/20, 5th of March 2020, March 2020) call +1 (555) 123-4567",
	"$1,234.50, -3 km, US$5 million, EUR 7, 25 percent, 3.5°C, 06385, 1. item, 12 kmé, 4\u00a0kg",
	"Mr. Jean-Luc Picard of the Enterprise met Ürsula", "ÉTAT Über_Alles d'Artagnan",
	`He said "Hello World" and 'quoted text' and “curly one”`, "Next speaker: Coder", "@Coder, please run it",
	"ÇA VA? İstanbul KELVIN K s ſ", "tab\tHere is a screenshot of the page", "x\x80y http://bad\xffurl 12",
	"٣٤ ١٢:٣٠ apples", "éthe answer is 5", "zero\u200dwidth the answer is 5", "\v\u2028Action: go",
}

// valueCases are texts at the corners of the value patterns (values.go):
// each choice a backtracking engine would go back on, look-behinds and
// look-aheads on both sides, case folds, Unicode digits and spaces, long
// runs.
var valueCases = []string{
	"", "1", "-", "$", "see https://www.example.com/a?b=1 and HTTP://X.ORG, www.ab, ftp://a b, http://ab",
	"file:///tmp/x.txt file:///", "FILE:///a and xfile:///b",
	"/usr/local/bin/ ~/x/y ../a/b ./c .../d /a/ //b /a/b/ /é/ab+/c", "C:\\dir name\\f.txt D:\\ x:\\y\\z",
	"src/pkg/main.go a/b.c/d.txt x.tar.gz/y.py a/b.toolongext a/b.c9 a/b.c/ a/b.c.d", "/" + strings.Repeat("a", 150) + "/b",
	strings.Repeat("/ab", 35) + " " + strings.Repeat("a/", 35) + "b.py " + strings.Repeat("a\\", 35) + "b",
	"C:\\" + strings.Repeat("d", 120) + "\\e", "a/" + strings.Repeat("b", 101) + ".txt", "+/+/+/a.b/c.d",
	"2020-01-05 2020-1-5- 12020-01-05 2020-01-052 2020-001-05 -2020-01-05 ٢٠٢٠-٠١-٠٥",
	"12/31/2020 1/2/20/ 1/2/202 01/02/2020x 3/4/2020/ 1.2/3/4567 13/1/99", "Date: 11/24/22.",
	"March 5, 2020; Sept. 5th, 2020; SEPT 5 2020; june 31st,  2020; Mayor 5, 2020; Mar 123, 2020; Dec 5,2020",
	"5th of March, 2020; 5 March2020; 05 of  Jan. 2020; 1st  Feb 2020; 5 ofMarch 2020; 3 of of March 2020",
	"Jan 2020, JANUARY 2020, jan. 2020x, Feb.,2020, augu 2020, İ", "Aug 2020Z and Sep\u00a02020 and Oct\u20032020",
	"+1 (555) 123-4567, +44 20 7946 0958, 555.123.4567, (555)123-4567, +1555 123 4567, 555 123 45678, x555 123 4567",
	"+123-555-123-4567 +1234 555 1234 (555 123 4567 555) 123-4567 .555 123 4567", "call 555-123-4567.",
	"12:30 7:30 a.m. 11pm 23:05:10 1:2:3 12:345 3 pm. 10 a m 10 A.M 10 a. m 7:30:15pm 1:30 pmx 123pm 12::30 ,5pm",
	"5 P M, 10 am., 9:05:07:1, 10:30:4, 24:00, 1:00 amy", "٣:٤٥ pm",
	"-$5 US$ 5 \\$232.00 1,234,567.89 million 12,3456 5 km/h 3 °C 3°F 3 ° C 5 per cent 5 percents 10 kmh 2 kb 7 K 3 MB",
	"42 USD 5 usd. 12 EUROS 3 dollar 1.5bn 2 thousand 4 millions 5 k, 7K 8 kg 9 lbs 10 lb. 11 mph 12 hrs 13 h 14 s 15 sec",
	"1 kilometre 2 kilometres 3 metres 4 meter 5 m 6 ft 7 feet 8 foot 9 degrees 10 minute 11 mins 12 hours 13 days",
	"1,234,567,890,123,456,789,012 and 1,234,567,890,123,456,789 and 12,345,678,901,234,567,8901",
	"-5 -x -$x $-5 €5 £ 5 ¥12 EUR12 GBP 7 USD7 usd 7 5.5.5 .5 5. 1,2 1,234,5678 12345678901234567890123 0.1234567890123",
	"1.2.3 #5 @5 :5 /5 x5 5x _5 a-5 (5) [5] 5%, 5 %, 5  %, 5   %, 5pct 5 PCT! 3 TB 4 tb 5 gB 6 Kb 7 MM 8 mn 9 bn 10 MN",
	"٣٤ ١٢:٣٠ apples ٥ km", "x\x80y http://bad\xffurl 12", "\u212A 5 \u212Ag 5\u212A 5 \u0130", "5\u00a0kg 5\u2009km 5\u3000h",
	strings.Repeat("1,", 300), strings.Repeat("9", 30), strings.Repeat("a/", 200) + "b.c",
	"```python\nx = 1\n```\ntext ```\n``` ```` go\ny\n````", "```\t  \tsh extra words here\nls\n```",
	"```" + strings.Repeat("a", 20) + strings.Repeat("b", 41) + "\nx```", "```" + strings.Repeat("é", 25) + strings.Repeat("!", 40) + "\nx```",
	"```c++ #x.y-z_1 Ünï\n\n```", "```\n" + strings.Repeat("ü", 20000) + "```", "```\n" + strings.Repeat("ü", 20001) + "```",
	"```no newline```", "```\nunclosed", "`` `\n```\n```",
	"SEPTEMBER.\u3000 \t12th,\n\t 2020; September.   12th,    2020; 12th \t of\t\t september., \t 2020; 12th    of september, 2020",
	"September., \t 2020 September.,    2020 sept.,  ٢٠٢٠ 1st of jan ١٢٣٤٥",
}

// checkStarts compares, for every pattern, its search (tried only where
// its starters, look-behind and needs say it can begin) with regexp2's
// scan of the whole text; it stops at the first difference.
func checkStarts(t *testing.T, texts []string) {
	t.Helper()
	for _, re := range patterns.Patterns() {
		for _, s := range texts {
			tx := patterns.Text(s)
			if !assert.Equal(t, tx.Scan(re, maxMatches), tx.Find(re, maxMatches), "pattern %.60q on %.80q", re.String(), s) {
				return
			}
		}
	}
}

// TestStartsAreComplete checks that trying a pattern only where its
// starters say it can begin finds what regexp2's scan of the whole text
// finds, on hand-made cases and on dev steps and their prose: a starter
// that misses a place would silently hide matches. The scan is what
// extraction cost before starters, so a sample of the steps is checked
// (a smaller one with -short); -sweep checks them all.
func TestStartsAreComplete(t *testing.T) {
	every := sampleEvery(40, 160)
	texts := append(append([]string(nil), startCases...), valueCases...)
	names, runs := devRuns(t)
	for _, s := range sampledSteps(names, runs, every, nil) {
		texts = append(texts, s.Content)
		if prose := withoutCode(newText(s.Content)); prose != s.Content {
			texts = append(texts, prose)
		}
	}
	checkStarts(t, texts)
}

// FuzzStarts compares, on any text, every planned pattern tried at its
// candidates against regexp2's scan of the text.
func FuzzStarts(f *testing.F) {
	for _, s := range append(startCases, valueCases...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkStarts(t, []string{s})
	})
}

// TestEveryPatternIsPlanned: a pattern without starters is scanned by
// regexp2 from every position, which costs far more than extraction's
// budget; one that the walk cannot read should be written so that it can.
func TestEveryPatternIsPlanned(t *testing.T) {
	require.NotEmpty(t, patterns.Patterns())
	for _, re := range patterns.Patterns() {
		assert.True(t, re.Planned(), "pattern %.80q has no starters", re.String())
	}
}

// FuzzSub holds a text's part, which shares the text's runes, to the part
// read on its own, before and after the text is folded to lower case and
// its literals are found (a head then takes the text's hits): every
// pattern finds the same matches in both.
func FuzzSub(f *testing.F) {
	for k, s := range startCases {
		f.Add(s, uint(k), uint(k+40), k%2 == 0)
		f.Add("Step 1.\n"+s+"\nthen", uint(0), uint(len(s)+8), true) // a head, with the case in it
	}
	f.Fuzz(func(t *testing.T, s string, i, j uint, folded bool) {
		i, j = min(i, uint(len(s))), min(j, uint(len(s)))
		i, j = min(i, j), max(i, j)
		cut := func(k uint) bool { return k == uint(len(s)) || utf8.RuneStart(s[k]) }
		if !cut(i) || !cut(j) {
			return // parts are cut at rune starts
		}
		whole := newText(s)
		if folded {
			if _, aligned := whole.lowered(); aligned {
				whole.has(exitCodeRe) // finds where every starter's literals stand
			}
		}
		got, want := whole.sub(int(i), int(j)), newText(s[i:j])
		for _, re := range patterns.Patterns() {
			assert.Equal(t, want.all(re, 0), got.all(re, 0), "%.60q in %q", re.String(), s[i:j])
		}
		assert.Equal(t, want.s, got.s)
		assert.Equal(t, want.runes, got.runes)
		assert.Equal(t, want.off, got.off)
		gotLower, gotAligned := got.lowered()
		wantLower, wantAligned := want.lowered()
		assert.Equal(t, wantLower, gotLower)
		assert.Equal(t, wantAligned, gotAligned)
	})
}

// TestBacktrackerOnCorpora holds every pattern that internal/match runs
// by its backtracker to regexp2 run at the same candidates, on every step
// of the three labelled systems and its prose.
func TestBacktrackerOnCorpora(t *testing.T) {
	files := runtest.SystemFiles(t)
	if testing.Short() {
		files = files[:len(files)/8]
	}
	var ps []*matching.Pattern
	for _, p := range patterns.Patterns() {
		if p.Backtracks() {
			ps = append(ps, p)
		}
	}
	require.NotEmpty(t, ps)
	for _, c := range runtest.Cases(t, files) {
		for _, s := range c.Run.Steps {
			texts := []string{s.Content}
			if prose := withoutCode(newText(s.Content)); prose != s.Content {
				texts = append(texts, prose)
			}
			for _, x := range texts {
				tx := patterns.Text(x)
				for _, p := range ps {
					if !assert.Equal(t, tx.FindByRegexp2(p, maxMatches), tx.Find(p, maxMatches), "pattern %.60q in %s step %d", p.String(), c.Run.Source, s.Index) {
						return
					}
				}
			}
		}
	}
}
