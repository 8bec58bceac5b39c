package cmdutil

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
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
			unsetEnv(t, "GOGC")
		} else {
			t.Setenv("GOGC", c.gogc)
		}
		restore := CollectAt(37)
		assert.Equal(t, c.want, gcPercent(), "GOGC=%q", c.gogc)
		restore()
		assert.Equal(t, before, gcPercent(), "restored")
	}
}

func memoryLimit() int64 { return debug.SetMemoryLimit(-1) }

// unsetEnv unsets name for the test, and sets it back after.
func unsetEnv(t *testing.T, name string) {
	old, set := os.LookupEnv(name)
	require.NoError(t, os.Unsetenv(name))
	if set {
		t.Cleanup(func() { os.Setenv(name, old) })
	}
}

// TestLimitMemory: the limit follows the input's size unless GOMEMLIMIT is
// set or the size is unknown, and is set back after.
func TestLimitMemory(t *testing.T) {
	before := memoryLimit()
	const size = 1 << 30 // far above what the test holds: never raised
	want := int64(InputMemoryFactor*size + InputMemoryBase - outsideHeap)
	for _, c := range []struct {
		name  string
		env   string // GOMEMLIMIT; "" leaves it unset
		input int64
		want  int64
	}{
		{"from the input", "", size, want},
		{"unknown size", "", -1, before},
		{"GOMEMLIMIT set", "4GiB", size, before},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.env == "" {
				unsetEnv(t, "GOMEMLIMIT")
			} else {
				t.Setenv("GOMEMLIMIT", c.env)
			}
			restore := LimitMemory(c.input)
			assert.Equal(t, c.want, memoryLimit())
			restore()
			assert.Equal(t, before, memoryLimit(), "restored")
		})
	}
}

// TestLimitMemoryRaised: a limit the live heap nears (past keepUpTo of
// it) is raised after a collection to where the live heap fills raiseAt
// of it, so that the collector does not run without end, and is set back
// after.
func TestLimitMemoryRaised(t *testing.T) {
	unsetEnv(t, "GOMEMLIMIT")
	before := memoryLimit()
	live := make([]byte, 72<<20) // more than keepUpTo of the limit for an empty input
	restore := LimitMemory(0)
	first := memoryLimit()
	require.NotEqual(t, before, first)
	for i := 0; i < 100 && memoryLimit() == first; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	raised := memoryLimit()
	assert.Greater(t, raised, int64(float64(len(live))/raiseAt), "raised past the live heap's share")
	assert.Less(t, raised, before, "raised, not lifted")
	runtime.KeepAlive(live)
	restore()
	assert.Equal(t, before, memoryLimit(), "restored")
}

func TestInputSize(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "run.json")
	require.NoError(t, os.WriteFile(file, []byte("{}\n"), 0o600))
	for path, want := range map[string]int64{file: 3, dir: -1, "-": -1, filepath.Join(dir, "missing"): -1} {
		assert.Equal(t, want, InputSize(path), path)
	}
}

// TestLimitMemoryKept: a live heap past raiseAt of the limit but within
// keepUpTo of it does not raise the limit: the collector runs more often
// instead, and the input's promise is kept.
func TestLimitMemoryKept(t *testing.T) {
	unsetEnv(t, "GOMEMLIMIT")
	// With what the test holds already, the live heap fills
	// (raiseAt+keepUpTo)/2 of the limit for an empty input.
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	target := (raiseAt + keepUpTo) / 2 * float64(InputMemoryBase-outsideHeap)
	live := make([]byte, int(target)-int(sample[0].Value.Uint64()))
	restore := LimitMemory(0)
	defer restore()
	first := memoryLimit()
	for range 10 {
		runtime.GC()
		runtime.Gosched()
	}
	assert.Equal(t, first, memoryLimit())
	runtime.KeepAlive(live)
}
