package match

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// foldCases are texts whose lower case is at the corners: case folds that
// change byte lengths (the Kelvin sign, dotted İ), long s, invalid bytes.
var foldCases = []string{"", "a", "ÇA VA? İstanbul KELVIN K s ſ", "x\x80y http://bad\xffurl 12", "ÉTAT Über_Alles d'Artagnan", "\u212A exit code 1"}

// FuzzFoldCase holds FoldCase, which copies the runs it keeps, to its
// definition: unicode.ToLower rune by rune, aligned when every rune keeps
// its byte length.
func FuzzFoldCase(f *testing.F) {
	for _, s := range foldCases {
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

func TestAppendLower(t *testing.T) {
	for _, s := range []string{"", "Plain ASCII 42_X", "café ÉTÉ", "Kelvin", "İstanbul", "\xff\xfeA"} {
		assert.Equal(t, strings.ToLower(s), string(AppendLower([]byte("kept "), s))[len("kept "):], "%q", s)
	}
}
