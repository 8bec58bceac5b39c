package extract

import (
	"testing"
	"unicode"

	"github.com/dlclark/regexp2/syntax"
	"github.com/stretchr/testify/assert"
)

// TestWordCharIsRegexp2s checks the fast \w against regexp2's own over
// every rune.
func TestWordCharIsRegexp2s(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if wordChar(r) != syntax.IsWordChar(r) {
			assert.Fail(t, "wordChar differs", "rune %U", r)
			return
		}
	}
	assert.False(t, wordChar(-1))
}
