package match

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBounded(t *testing.T) {
	for _, c := range []struct {
		expr string
		opts Options
		ok   bool
	}{
		{`^(a+)+$`, 0, false},
		{`(?:\w+\s?){0,5}x`, 0, false},
		{`^(?:xa|ya|x)+$`, 0, false},
		{`(a*)*b`, 0, false},
		{`(?:\w+ ){0,5}`, 0, true},
		{`(?:[ \t][^\n]{0,600}\n){0,200}`, 0, true},
		{`\b(?:is|was|are) (?:wrong|incorrect)\b`, IgnoreCase, true},
		{`(?<=x)y+z`, 0, true},
		{`(?:a+A)+`, 0, true},
		{`(?:[^\\]|\\+(?!\\))*`, 0, false}, // the look-ahead is dropped
		{`(?:[^\\]|(?>\\+)(?!\\))*`, 0, true},
		{`(?>(a+)+)`, 0, false},         // atomic outside, not within
		{`(?:a+A)+`, IgnoreCase, false}, // folded, a and A are one
	} {
		err := Bounded(c.expr, c.opts)
		assert.Equal(t, c.ok, err == nil, "%s: %v", c.expr, err)
	}
}

func TestTranslate(t *testing.T) {
	assert.Equal(t, `ab*c+`, Translate(`a(?=x)b{0,9}c{2,3}`, false))
	assert.Equal(t, `ab{0,9}c{2,3}`, Translate(`a(?=x)b{0,9}c{2,3}`, true))
	assert.Equal(t, `[(?=]x`, Translate(`[(?=]x`, false), "inside a class nothing is a group")
	assert.Equal(t, `\`, Translate(`\`, false), "a trailing backslash does not read past the end")
	assert.Equal(t, `(?<q>["'])x(?:)(?P<atomic0>a+)\\1`, Translate(`(?<q>["'])x\k<q>(?>a+)\\1`, true), "back-references match nothing, atomic groups are groups, an escaped backslash stays")
}
