package match

import (
	"strings"
	"testing"

	"github.com/dlclark/regexp2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// btPatterns are patterns at the corners of what the backtracker reads:
// the order of choices, groups regexp2 numbers its own way, case folds,
// anchors, look-arounds and atomic groups.
var btPatterns = []struct {
	expr string
	opts Options
}{
	{`a|ab|abc`, 0},
	{`(a|ab)(c|bcd)(d*)`, 0},
	{`\d{1,3}(?:,\d{3}){1,6}|\d{1,20}`, 0},
	{`x*?y|x+`, 0},
	{`(?<y>\d{4})-(\d{1,2})-(?<d>\d{1,2})`, 0},
	{`(?<h>\d{1,2}) ?pm|(?<h>\d{1,2}):(?<min>\d{2})`, IgnoreCase},
	{`(?:(a)|b)+`, 0},
	{`(?:(\w)\s{1,2}){0,2}plan\b`, IgnoreCase},
	{`kelvin|STRASSE|i̇|ſ|[k-m]+|[^a-z]{2}`, IgnoreCase},
	{`(?i:abc)DEF|(?-i:x)Y`, IgnoreCase},
	{`a(?i)b|c`, 0},
	{`^\w+$|^$`, 0},
	{`(?m)^\w+$`, 0},
	{`\bword\b|\Bor\B`, 0},
	{`\w+\z|x$`, 0},
	{`(?s)a.{0,3}?b|a.b`, 0},
	{"(?s)```[ \\t]{0,4}(?<lang>[\\w+#.-]{0,20})[^\\n]{0,40}\\n(?<code>.{0,2000}?)```", 0},
	{`(?<![\w.])\d+(?![\w.])`, 0},
	{`(?<=\$|US\$ ?)\d+|(?<!x{1,3}y?)z`, IgnoreCase},
	{`-(?=[\d$€])\d*`, 0},
	{`(?>\\+)(?![\\"'nrt])x?`, 0},
	{`[0-9]{1,3}(?:[ -](?>[0-9]{2,8})){1,4}`, 0},
	{`[\p{L}_][\w.-]{0,6}|\p{Nd}+|[^\s<>]+`, 0},
	{`\x60é\.\t|[\]a]|[^]b]`, 0},
	{`(?<a>x)?(?<a>y)?z`, 0},
	// Alternatives passed over where they cannot begin: after optional
	// parts, look-arounds and assertions, an empty alternative, a loop's
	// next round, an atomic group that may be empty, the text's end.
	{`(?:(?=\s{0,2}[pk])(?<sp>\s{0,2})(?<u>percent\b|pct|km|k\b)|m?)(?:s|\b)`, IgnoreCase},
	{`(?:a|(?:b|)c|\bd|(?<=x)e|g$)+f?`, 0},
	{`(?>a|b?)c|(?:x*|y)z|(?:[^\d]|é)q`, 0},
	{`(?:\d{1,2}(?:st|nd)?\s{1,3}|x)(?:of\s)?(?:jan|feb)\.?|\s*$`, IgnoreCase},
}

// btTexts are texts for them: Unicode digits, letters and spaces, folds
// that change the rune (the Kelvin sign, dotted İ, long s), final newlines.
var btTexts = []string{
	"", "a", "ab abc abcd abcbcdd", "1,234,567 and 12345678901234567890123 ,5",
	"xxxy xxx y", "2020-01-05 2020-1-5- ٢٠٢٠-٠١-٠٥", "7 PM 12:30 7pm 1:2", "aab ba abab",
	"the new plan: my updated  Plan go", "KELVIN \u212Aelvin strasse İ i̇ ſ S klm KLM \u212A 12 ..",
	"abcDEF ABCdef xY XY x y", "aB AB c C", "word\n", "one\ntwo\n", "\n", "words\n\n",
	"sword word words w\u200dord", "a\nb ab axxb a\nxb", "```go\nx\n``` ```\n```", "```" + strings.Repeat("é", 30) + "\nx```",
	"1.5 x1 2, 3. 4", "$5 US$ 7 US$8 xz xxyz xxxxz yz", "-5 -$ -€3 -x", "\\\\\"x \\\\x \\\\\\x",
	"0123 45 678 9012345 0 12-34 567", "_x.y-z éa ٣٤ <a b> \u00a0x", "`é.\t ] a b ^",
	"xyz xz yz z", "\u2028x\u0085y\r\n",
	"5 KM 3 pct 4  percent 7 k 9 ks 2 \u212Am 1 ms 6 s", "abcbc dxe fcf xef acg\n ag", "bc c xxz yz éq 1q qq ",
	"1st of Jan 22nd  FEB. 3 x jan x  \n  ",
}

// TestBacktrackerAgrees holds the backtracker to regexp2 run at the same
// place, at every place of every text.
func TestBacktrackerAgrees(t *testing.T) {
	for _, p := range btPatterns {
		set := NewSet()
		pat, err := set.Compile(p.expr, p.opts)
		require.NoError(t, err, p.expr)
		require.True(t, pat.Backtracks(), "%q is read by the backtracker", p.expr)
		for _, s := range btTexts {
			agree(t, pat, s)
		}
	}
}

// agree compares the backtracker with regexp2 at every rune of s.
func agree(t *testing.T, p *Pattern, s string) {
	t.Helper()
	anchored := regexp2.MustCompile(`\G(?:`+p.expr+`)`, p.opts.regexp2())
	tx := p.set.Text(s)
	all := make([]int, len(tx.runes)+1)
	for i := range all {
		all[i] = i
	}
	for _, c := range all {
		want := tx.tryAt(anchored, []int{c}, 1)
		got := tx.backtrackAt(p, []int{c}, 1)
		if !assert.Equal(t, want, got, "%q at rune %d of %q", p.expr, c, s) {
			return
		}
	}
}

// FuzzBacktracker compares the backtracker with regexp2 on any text, for
// every pattern above.
func FuzzBacktracker(f *testing.F) {
	for _, s := range btTexts {
		f.Add(s)
	}
	set := NewSet()
	var pats []*Pattern
	for _, p := range btPatterns {
		pats = append(pats, set.MustCompile(p.expr, p.opts))
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range pats {
			agree(t, p, s)
		}
	})
}

// TestBacktrackerRefuses: a pattern with a part the backtracker does not
// read is run by regexp2, and still matches.
func TestBacktrackerRefuses(t *testing.T) {
	for _, expr := range []string{
		`(a)\1`, `(?<x>a)\k<x>`, `(?=(a))a`, `(?>(a))`, `(?:a?)+`, `(?<!a+)b`,
		`[a-z-[aeiou]]`, `a{,2}`, `\0`,
	} {
		p, err := NewSet().Compile(expr, 0)
		require.NoError(t, err, "%q", expr)
		assert.False(t, p.Backtracks(), "%q", expr)
	}
}

// TestBacktrackerDeepRounds: a repetition of a part longer than a rune
// nests a call per round; more rounds than maxDepth are left to regexp2,
// with the same matches.
func TestBacktrackerDeepRounds(t *testing.T) {
	set := NewSet()
	p := set.MustCompile(`x(?:ab|c)*y`, 0)
	require.True(t, p.Backtracks())
	for _, rounds := range []int{10, maxDepth / 4, 3 * maxDepth} {
		s := "x" + strings.Repeat("ab", rounds) + "y x" + strings.Repeat("c", rounds) + "z"
		tx := set.Text(s)
		got := tx.Find(p, -1)
		assert.Equal(t, tx.Scan(p, -1), got, "%d rounds", rounds)
		require.Len(t, got, 1)
		assert.Equal(t, 2*rounds+2, got[0].Groups[0].End)
		m := newMachine(p.bt, tx.runes)
		m.matchAt(p.bt, 0)
		assert.Equal(t, rounds > maxDepth, m.tooDeep, "%d rounds: left to regexp2", rounds)
	}
}
