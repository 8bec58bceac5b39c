package extract

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// FuzzNextPlace holds nextPlace to looking in each window afresh, from
// every position on, in order, as ParseLedger asks.
func FuzzNextPlace(f *testing.F) {
	f.Add(`{"is_in_loop": 1} {{ "is_" x "next_speaker"`, `"is_`, uint8(6))
	f.Add("aaaa", "aa", uint8(1))
	f.Add("", "a", uint8(0))
	f.Fuzz(func(t *testing.T, s, key string, window uint8) {
		if key == "" {
			return
		}
		p := nextAt(s, key)
		for i := 0; i < len(s); i++ {
			j := i + int(window)
			assert.Equal(t, strings.Contains(s[i:min(len(s), j)], key), p.within(i, j), "%q %q at %d", s, key, i)
		}
	})
}
