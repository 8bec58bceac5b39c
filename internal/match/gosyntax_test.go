package match

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goIndexes returns ms as Go's FindAllStringSubmatchIndex would.
func goIndexes(ms []Match) [][]int {
	var out [][]int
	for _, m := range ms {
		var idx []int
		for _, g := range m.Groups {
			if g.OK {
				idx = append(idx, g.Start, g.End)
			} else {
				idx = append(idx, -1, -1)
			}
		}
		out = append(out, idx)
	}
	return out
}

// TestFromGo holds each pattern, read from Go's syntax, to Go's regexp on
// texts where regexp2 reads the same expression otherwise.
func TestFromGo(t *testing.T) {
	for _, c := range []struct {
		expr  string
		texts []string
	}{
		{`\bcat\b`, []string{"écat", "caté", "a cat_", "cat"}},
		{`\Bat\B`, []string{"éatx", "batty", "at"}},
		{`\w+`, []string{"naïve_1", "٣x"}},
		{`\d{2}`, []string{"١٢34"}},
		{`a\sb`, []string{"a\vb", "a\u00a0b", "a\tb", "a b"}},
		{`(?i)sk`, []string{"SK", "ſ\u212a", "sK"}},
		{`(?i)[a-z]+`, []string{"İstanbul", "ſ\u212a", "ÉA"}},
		{`(?i)i`, []string{"İ", "ı", "I"}},
		{`ok$`, []string{"ok\n", "ok"}},
		{`^ok`, []string{"x\nok", "ok"}},
		{`(?m)^(\w+)$`, []string{"ab\ncd\n", "ab\r\n"}},
		{`[^a-c\]]+`, []string{"abxyz]é😀"}},
		{`😀+|[😀-😂]x`, []string{"😀😀😁x"}},
		{`(?s)a.b|a.c`, []string{"a\nb", "a\nc"}},
		{`a.b`, []string{"a\nb", "axb"}},
		{`(a|ab)(c|bcd)`, []string{"abcd"}},
		{`a{2,}?|b{0,3}c`, []string{"aaaa", "bbbbc"}},
		{`(?P<y>\d{4})-(?P<m>\d\d)?`, []string{"2024-", "2024-03"}},
		{`[.*+?^$()\[\]{}|\\-]`, []string{`x.*+?^$()[]{}|\-`}},
		{"\t#[\x01-\x1f]", []string{"\t#\x02"}},
	} {
		e, opts, err := FromGo(c.expr)
		require.NoError(t, err, c.expr)
		p, err := NewSet().Compile(e, opts)
		require.NoError(t, err, "%s as %s", c.expr, e)
		re := regexp.MustCompile(c.expr)
		for _, s := range c.texts {
			assert.Equal(t, re.FindAllStringSubmatchIndex(s, -1), goIndexes(p.set.Text(s).Find(p, 100)), "%s as %s on %q", c.expr, e, s)
		}
	}
}

func TestFromGoRefusesMixedGroups(t *testing.T) {
	_, _, err := FromGo(`(a)(?P<b>b)`)
	assert.Error(t, err)
	_, _, err = FromGo(`(a`)
	assert.Error(t, err)
}
