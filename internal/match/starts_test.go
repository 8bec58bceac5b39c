package match

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	ci = IgnoreCase
	ml = Multiline
)

// TestStarters pins what the walk reads from the shapes patterns take.
func TestStarters(t *testing.T) {
	tests := []struct {
		name  string
		expr  string
		opts  Options
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
			assert.False(t, ss[0].newline)
			assert.True(t, ss[0].textStart, "^ without (?m) is the text's start alone")
			assert.True(t, ss[1].newline)
			assert.False(t, ss[1].textStart)
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
			ss, ok, err := startersOf(tt.expr, tt.opts)
			require.NoError(t, err)
			require.True(t, ok)
			tt.check(t, ss)
		})
	}
	_, ok, _ := startersOf(`(?:alpha|beta)?`, 0)
	assert.False(t, ok, "a match that can be empty can begin anywhere: no starters")
	ss, ok, _ := startersOf(`\w+ plan`, 0)
	require.True(t, ok)
	require.Len(t, ss, 1)
	assert.True(t, ss[0].first['a'] && ss[0].first['_'] && ss[0].first[0xC3] && !ss[0].first[' '], "a class at the start: its bytes")
	assert.True(t, everyWord(ss[0].first, notAfterOf(`\w+ plan`, 0)), "a match may begin inside any word: scanned")
	assert.False(t, everyWord(ss[0].first, notAfterOf(`(?<![\w.])\w+ plan`, 0)), "only at a word's start: tried there")
}

// TestLookBehindAndNeeds pins what is read around a match's start: the
// runes a look-behind that every branch begins with rules out before it,
// and what every match holds near its start.
func TestLookBehindAndNeeds(t *testing.T) {
	tests := []struct {
		name        string
		expr        string
		notAfter    string // ASCII runes ruled out before a match; "-" none read
		needs       int    // 0: no need holds firstHolds
		firstReach  int
		firstHolds  byte
		firstBounds bool // the first need has a via
	}{
		{"one class", `(?<![\d:])\d{1,2}/x`, "0123456789:", 1, 2, '/', true},
		{"every branch, intersected", `(?<![\d.])\d:\d|(?<![\d,])\d am`, "0123456789", 1, 2, ':', true},
		{"a branch without one", `(?<!\d)\d:|x:`, "-", 1, 1, ':', true},
		{"an alternative of one class", `(?<![\d:]|x\])[\da-f]{1,4}:`, "0123456789:", 1, 4, ':', true},
		{"a negated class of \\s may hold the vertical tab in Go alone", `(?<![^\s])\d+/`, "-", 1, -1, '/', true},
		{"\\S too", `(?<![\S])\d+/`, "-", 1, -1, '/', true},
		{"a named class reads alike in ASCII", `(?<![\p{L}_])\d+/`, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz", 1, -1, '/', true},
		{"letters and blanks are not needs", `(?<!x)\d+ apples`, "x", 0, 0, 0, false},
		{"a back-reference has no known length", `(\d)\1/`, "-", 0, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			na := notAfterOf(tt.expr, 0)
			if tt.notAfter == "-" {
				assert.Nil(t, na)
			} else {
				require.NotNil(t, na)
				var got []byte
				for b, in := range na {
					if in {
						got = append(got, byte(b))
					}
				}
				assert.Equal(t, tt.notAfter, string(got))
			}
			ns, err := needsOf(tt.expr, 0)
			require.NoError(t, err)
			ns = slices.DeleteFunc(ns, func(nd need) bool { return !nd.set[tt.firstHolds] })
			if tt.needs == 0 {
				assert.Empty(t, ns)
			} else {
				require.NotEmpty(t, ns)
				assert.Equal(t, tt.firstReach, ns[0].reach)
				assert.Equal(t, tt.firstBounds, ns[0].via != nil)
			}
		})
	}
}

// TestStartsUnaligned: a text whose lower case changes byte lengths (the
// Kelvin sign folds to "k") is scanned, not tried at candidates.
func TestStartsUnaligned(t *testing.T) {
	set := NewSet()
	p := set.MustCompile(`\bexit ?code:? ?\d`, IgnoreCase)
	require.True(t, p.Planned())
	tx := set.Text("\u212A exit code 1")
	_, ok := tx.candidates(&p.plan, nil)
	assert.False(t, ok)
	ms := tx.Find(p, 1)
	require.Len(t, ms, 1)
	assert.Equal(t, "exit code 1", tx.String()[ms[0].Groups[0].Start:ms[0].Groups[0].End])
}

// runeIndices turns byte offsets into rune indices, whichever runes of a
// text they pick and however far apart they are.
func TestRuneIndices(t *testing.T) {
	for _, s := range []string{"", "abc", "é", "aé€😀b", "😀😀😀😀😀😀😀😀😀😀x", "xü€ab𝄞cdé"} {
		tx := NewSet().Text(s)
		var starts, runes []int // the byte offset of each rune, and its index
		for b := range s {
			starts, runes = append(starts, b), append(runes, len(runes))
		}
		starts, runes = append(starts, len(s)), append(runes, len(tx.Runes()))
		for pick := range 1 << min(len(starts), 10) {
			var bs, want []int
			for k := range starts {
				if k >= 10 || pick&(1<<k) != 0 {
					bs, want = append(bs, starts[k]), append(want, runes[k])
				}
			}
			runeIndices(bs, tx.Offsets())
			require.Equal(t, want, bs, "%q, picks %b", s, pick)
		}
	}
}

// TestTextStart: a pattern that begins at the text's start (\A, or ^
// outside multiline mode) is tried there alone, and only when its lead
// reaches one of its literals from there (which may begin within the
// lead: "#" in "# Project plan"); what it finds is what regexp2's scan
// finds.
func TestTextStart(t *testing.T) {
	set := NewSet()
	ps := []*Pattern{
		set.MustCompile(`\A[\x60'"*]{0,2}\s{0,2}[,:]\s{1,2}(?:please|go)`, IgnoreCase),
		set.MustCompile(`(?:^|\n)[ \t]{0,3}#{1,6}[ \t]{1,4}(?:[\w-]{1,20}\s{1,2}){0,2}plan\b|(?:^|\n)[ \t>*#-]{0,8}(?:(?:new|my)\s{1,2}){0,2}plan\s{0,2}:`, IgnoreCase),
		set.MustCompile(`^[ \t]{0,4}#{1,3} ?step`, 0),
		set.MustCompile(`^\s{0,3}\w{1,10}:`, 0),
	}
	for _, p := range ps {
		require.True(t, p.Planned(), p.String())
	}
	texts := []string{
		"", ",", ", please", "` : go now", "x, please", "\n, please", "  \t, go", "*** , please",
		"plan: a", "  my new plan: b", "## Plan : c", "x\nplan: d", "myplan: e", "-- -- MY  plan:", "\n\nnew plan:", "# Project plan", "  ## big project plan", "# x",
		"#step", "\t## step 1", "   # step", "x# step", "#### step", "\n# step",
		"key: v", "   value: 1", "\nkey: v", "a b: c", "é: x", "\u00a0\u00a0k:",
		strings.Repeat(" ", 300) + ", please", strings.Repeat("#", 50) + "step",
	}
	for _, p := range ps {
		for _, s := range texts {
			tx := set.Text(s)
			assert.Equal(t, tx.Scan(p, 10), tx.Find(p, 10), "pattern %q on %q", p.String(), s)
		}
	}
	var textStarts int
	for _, s := range ps[0].plan.starters {
		if s.textStart {
			textStarts++
		}
	}
	assert.Equal(t, 1, textStarts)
	tx := set.Text("ok, please go: there")
	cands, ok := tx.candidates(&ps[0].plan, nil)
	require.True(t, ok)
	assert.Empty(t, cands, "a comma later in the text is no place to try")
	assert.Empty(t, tx.hits()[ps[0].plan.starters[0].id], "nor is it recorded")
}

// TestFirstNearNeed: a pattern that may begin at any of a class's runes,
// and holds one of a few bytes near its start, is tried only up to each
// of them, within the need's reach and along its via; what it finds is
// what regexp2's scan finds, at the corners of reach and via, where the
// match begins at the needed byte, and beyond ASCII.
func TestFirstNearNeed(t *testing.T) {
	set := NewSet()
	ps := []*Pattern{
		set.MustCompile(`(?<![\w.])[\w.]{1,4}\.x`, 0),
		set.MustCompile(`(?<![\d/])\d{1,3}/\d`, 0),
		set.MustCompile(`(?<![\w-])[\w-]{1,5}(?:/[\w-]{1,5}){1,3}\.[a-z]{1,4}`, IgnoreCase),
	}
	for _, p := range ps {
		require.True(t, p.Planned(), p.String())
		require.NotNil(t, p.plan.fewNeed(), p.String())
	}
	texts := []string{
		"", ".x", "a.x", "abc.x", "abcd.x", "abcde.x", "ab..x", "a b.x", "é.x", "éé.x", "...x", "....x",
		strings.Repeat("w", 30) + " ab.x", "1/2", "123/4", "1234/5", "12 3/4", "١/2", "٢٣/4 /1 12/ 3/a",
		"src/pkg/main.go", "a/b.c d/e/f/g.txt", "abcdef/b.c", "abcde/b.c", "x/" + strings.Repeat("y", 6) + ".go",
		"ü/ö.txt é-é/b.md", strings.Repeat("ab ", 100) + "c/d.e",
	}
	for _, p := range ps {
		for _, s := range texts {
			tx := set.Text(s)
			assert.Equal(t, tx.Scan(p, 10), tx.Find(p, 10), "pattern %q on %q", p.String(), s)
		}
	}
}

// TestReadText: a text's runes are the string's, each rune's offset is
// where it begins, and the text's length comes last, whether the text is
// ASCII, turns to other runes partway, holds bytes that are no UTF-8, or
// is read into buffers a longer or shorter text used before.
func TestReadText(t *testing.T) {
	set := NewSet()
	var b Buffers
	for _, s := range []string{
		"", "plain ascii", "é", "abc é def € x😀y", "ascii then ü " + strings.Repeat("z", 40), "bad \xff byte",
		"\xe6\xe6Z", "\xc3", "ü" + strings.Repeat("a", 100) + "\x80", "short", "ÿ",
	} {
		for _, buf := range []*Buffers{nil, &b} {
			tx := set.ReadText(s, buf)
			require.Equal(t, []rune(s), tx.Runes(), "%q", s)
			var want []int
			for i := range s {
				want = append(want, i)
			}
			assert.Equal(t, append(want, len(s)), tx.Offsets(), "%q", s)
		}
	}
}

// TestWordStartByLookBehind: a literal that begins a match where a
// look-behind rules out every word character before it is looked for at
// word starts alone, as after \b; what the pattern finds is what
// regexp2's scan finds, after a word, a mark or a rune beyond ASCII.
func TestWordStartByLookBehind(t *testing.T) {
	set := NewSet()
	p := set.MustCompile(`(?<![\w.])(?:usd|eur) ?\d`, IgnoreCase)
	require.True(t, p.Planned())
	for _, s := range []string{"", "usd5", "xusd5 USD 5 .eur3 éusd4 -eur 7 _usd1 9eur2", "ſusd3\u212Aeur4", "€usd5 (eur6)"} {
		tx := set.Text(s)
		assert.Equal(t, tx.Scan(p, 10), tx.Find(p, 10), "%q", s)
	}
	tx := set.Text("xusd5 busd6 usd7")
	tx.Lower() // what the literals are looked for in
	assert.Equal(t, []int{12}, tx.hits()[p.plan.starters[0].id], "recorded at the word's start alone")
}

// TestBytesPresent: the bytes a text holds, read as bits, are its bytes in
// lower case, short texts and long, every byte value included.
func TestBytesPresent(t *testing.T) {
	set := NewSet()
	var all strings.Builder
	for b := range 256 {
		all.WriteByte(byte(b))
	}
	for _, s := range []string{"", "abc", strings.Repeat("xyz \n", 100), all.String(), strings.Repeat("Q\x80\xff", 90) + "0", "é" + strings.Repeat("a", 300)} {
		tx := set.Text(s)
		lower, _ := tx.Lower()
		var want byteBits
		for i := range len(lower) {
			want[lower[i]/64] |= 1 << (lower[i] % 64)
		}
		assert.Equal(t, want, *tx.bytesPresent(), "%q", s)
	}
}
