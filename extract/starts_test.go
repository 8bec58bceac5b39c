package extract

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// untimed returns re, a pattern or the anchored twin of one, compiled
// again without the match timeout: the scan that starters are held to must
// not give up on a busy machine, nor the tries they are compared with.
var untimedRes = map[*regexp2.Regexp]*regexp2.Regexp{}

func untimed(re *regexp2.Regexp, opts regexp2.RegexOptions) *regexp2.Regexp {
	u, ok := untimedRes[re]
	if !ok {
		u = regexp2.MustCompile(re.String(), opts)
		untimedRes[re] = u
	}
	return u
}

// checkStarts compares, for every planned pattern, the matches tried at
// its candidates with regexp2's scan of the whole text; it stops at the
// first difference.
func checkStarts(t *testing.T, texts []string) {
	t.Helper()
	for re, p := range plans {
		if p.anchored == nil {
			continue
		}
		for _, s := range texts {
			tx := newText(s)
			cands, ok := tx.candidates(p.starters)
			if !ok {
				continue
			}
			want := tx.scan(untimed(re, p.opts), maxMatches)
			if !assert.Equal(t, want, tx.tryAt(untimed(p.anchored, p.opts), cands, maxMatches), "pattern %.60q on %.80q", re.String(), s) {
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
	texts := append([]string(nil), startCases...)
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
	for _, s := range startCases {
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
	require.NotEmpty(t, allPatterns)
	for _, re := range allPatterns {
		if re.String() == `^(a+)+$` {
			continue // TestTimeoutIsNoMatch's own pattern
		}
		assert.NotNil(t, plans[re].anchored, "pattern %.80q has no starters", re.String())
	}
}

// TestStarters pins what the walk reads from the shapes patterns take.
func TestStarters(t *testing.T) {
	tests := []struct {
		name  string
		expr  string
		opts  regexp2.RegexOptions
		check func(t *testing.T, ss []starter)
	}{
		{"keywords after \\b, read on while literal, options included", `\b(?:calling|invoking) (?:the )?tool\s`, ci, func(t *testing.T, ss []starter) {
			require.Len(t, ss, 1)
			assert.ElementsMatch(t, []string{"calling ", "invoking"}, ss[0].lits, "eight bytes are enough")
			assert.True(t, ss[0].word)
			assert.Nil(t, ss[0].lead, "anywhere")
		}},
		{"a line start, its lead, its keyword", `(?m)^[ \t*]{0,4}Action\s{0,2}:`, 0, func(t *testing.T, ss []starter) {
			require.Len(t, ss, 1)
			require.NotNil(t, ss[0].lead, "at a line start")
			assert.False(t, ss[0].newline)
			assert.True(t, ss[0].lead[' '] && ss[0].lead['\v'] && ss[0].lead['*'] && !ss[0].lead['a'] && ss[0].lead[0xA0], "a space may be any space")
			assert.ElementsMatch(t, []string{"action", "action:"}, ss[0].lits, "\\s may be empty, or not")
		}},
		{"optional parts before: skipped or taken; alternations the parser factors", `(?:the )?final answer|I(?:'m| am) sorry`, ci, func(t *testing.T, ss []starter) {
			require.Len(t, ss, 1)
			assert.ElementsMatch(t, []string{"the final answer", "final answer", "i'm sorry", "i am sorry"}, ss[0].lits)
		}},
		{"a newline the match takes in, a lead of several classes", `(?:^|\n)[ \t]{0,3}#{1,6}\s{1,4}plan\b`, ci, func(t *testing.T, ss []starter) {
			require.Len(t, ss, 2)
			assert.False(t, ss[0].newline, "^ without (?m) is read as any line start: more places, none fewer")
			assert.True(t, ss[1].newline)
			assert.Equal(t, []string{"#"}, ss[1].lits)
		}},
		{"a class where the literal would be: the lead takes it in, up to a literal", `(?m)^[ \t]{0,8}(?:[\w.]{0,80}\.)?(?:[A-Z]\w{0,60}(?:Error|Exception)|panic)`, 0, func(t *testing.T, ss []starter) {
			require.Len(t, ss, 1)
			assert.ElementsMatch(t, []string{"rror", "xception", "panic"}, ss[0].lits, "the parser reads Error|Exception as E(?:rror|xception), and the lead already holds E")
			assert.True(t, ss[0].lead['.'] && ss[0].lead['e'] && ss[0].lead[0xC3], "\\w holds é")
		}},
		{"a lead that holds more than ASCII", `(?m)^\s{0,8}File "`, 0, func(t *testing.T, ss []starter) {
			require.Len(t, ss, 1)
			assert.True(t, ss[0].lead[0x85] && ss[0].lead['\n'] && ss[0].lead['\v'])
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ss, ok := startersOf(tt.expr, tt.opts)
			require.True(t, ok)
			tt.check(t, ss)
		})
	}
	_, ok := startersOf(`(?:alpha|beta)?`, 0)
	assert.False(t, ok, "a match that can be empty can begin anywhere: no starters")
	_, ok = startersOf(`\w+ plan`, 0)
	assert.False(t, ok, "a class at the start of a match found anywhere: no starters")
}

// TestStartsUnaligned: a text whose lower case changes byte lengths (the
// Kelvin sign folds to "k") is scanned, not tried at candidates.
func TestStartsUnaligned(t *testing.T) {
	tx := newText("\u212A exit code 1")
	_, ok := tx.candidates(plans[exitCodeRe].starters)
	assert.False(t, ok)
	m, found := tx.first(exitCodeRe)
	assert.True(t, found)
	assert.Equal(t, "exit code 1", strings.TrimSpace(tx.s[m.start():m.end()]))
}

// FuzzFoldCase holds FoldCase, which copies the runs it keeps, to its
// definition: unicode.ToLower rune by rune, aligned when every rune keeps
// its byte length.
func FuzzFoldCase(f *testing.F) {
	for _, s := range startCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		aligned := true
		for i, r := range s {
			_, w := utf8.DecodeRuneInString(s[i:])
			aligned = aligned && utf8.RuneLen(unicode.ToLower(r)) == w
		}
		lower, ok := FoldCase(s)
		assert.Equal(t, strings.Map(unicode.ToLower, s), lower, "%q", s)
		assert.Equal(t, aligned, ok, "%q", s)
		assert.Equal(t, aligned, FoldsInPlace(s), "%q", s)
	})
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
				whole.hits()
			}
		}
		got, want := whole.sub(int(i), int(j)), newText(s[i:j])
		for re := range plans {
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
