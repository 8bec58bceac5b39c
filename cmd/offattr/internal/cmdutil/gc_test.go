package cmdutil

import (
	"os"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCollectAt: the target is set unless GOGC is, and set back after.
func TestCollectAt(t *testing.T) {
	gcPercent := func() int {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p
	}
	before := gcPercent()
	for _, c := range []struct {
		gogc string // "" leaves GOGC unset
		want int
	}{{"", 37}, {"100", before}} {
		if c.gogc == "" {
			old, set := os.LookupEnv("GOGC")
			require.NoError(t, os.Unsetenv("GOGC"))
			if set {
				t.Cleanup(func() { os.Setenv("GOGC", old) })
			}
		} else {
			t.Setenv("GOGC", c.gogc)
		}
		restore := CollectAt(37)
		assert.Equal(t, c.want, gcPercent(), "GOGC=%q", c.gogc)
		restore()
		assert.Equal(t, before, gcPercent(), "restored")
	}
}
