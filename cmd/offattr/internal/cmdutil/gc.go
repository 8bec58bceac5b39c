package cmdutil

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"github.com/offattr/offattr/run"
)

// CollectAt sets the garbage collector's target to percent (GOGC's
// meaning) for a command, unless the user set GOGC, and returns what sets
// it back.
func CollectAt(percent int) (restore func()) {
	if _, set := os.LookupEnv("GOGC"); set {
		return func() {}
	}
	old := debug.SetGCPercent(percent)
	return func() { debug.SetGCPercent(old) }
}

// The memory a command analysing an input of n bytes aims to stay within:
// InputMemoryFactor times n plus InputMemoryBase, of which the runtime's
// own limit leaves outsideHeap to what the collector does not count (the
// program's code and data).
const (
	InputMemoryFactor = 8
	InputMemoryBase   = 100_000_000
	outsideHeap       = 24 << 20
)

// raiseAt is the share of a raised limit the live heap fills: nearer it,
// the collector would run after every few megabytes allocated and cost
// more than the memory it saves.
const raiseAt = 0.85

// keepUpTo is the share of the first limit (what the input's size allows)
// the live heap may fill before the limit is raised: until then the
// collector runs more often to keep within it.
const keepUpTo = 0.95

// LimitMemory sets a soft memory limit for a command that reads an input
// of inputBytes (debug.SetMemoryLimit: the collector runs more often as
// the process nears it), unless the user set GOMEMLIMIT, and returns what
// sets it back. A run's analysis keeps a multiple of its input live, and
// GOGC alone lets the heap grow by a share of that before collecting; the
// limit caps the growth instead. Whenever a collection finds the live heap
// past keepUpTo of the first limit and raiseAt of the present one, the
// limit is raised to where the live heap fills raiseAt of it: a limit
// below what is live only makes the collector run without end, and
// lifting it altogether would let the heap grow by all GOGC allows over
// the most that is ever live. Below keepUpTo of the first limit, the
// collector runs more often instead, to keep the input's promise.
// Collecting more or less often changes no result.
func LimitMemory(inputBytes int64) (restore func()) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set || inputBytes < 0 {
		return func() {}
	}
	limit := min(inputBytes, (math.MaxInt64-InputMemoryBase)/InputMemoryFactor)*InputMemoryFactor + InputMemoryBase - outsideHeap
	bound := limit
	old := debug.SetMemoryLimit(limit)
	var (
		mu   sync.Mutex
		done bool
	)
	watchCollections(func(live uint64) bool {
		mu.Lock()
		defer mu.Unlock()
		if done {
			return false
		}
		if float64(live) > raiseAt*float64(limit) && float64(live) > keepUpTo*float64(bound) {
			limit = raisedLimit(live)
			debug.SetMemoryLimit(limit)
		}
		return true
	})
	return func() {
		mu.Lock()
		defer mu.Unlock()
		if !done {
			done = true
			debug.SetMemoryLimit(old)
		}
	}
}

// raisedLimit is the limit that a live heap of live bytes fills raiseAt
// of.
func raisedLimit(live uint64) int64 {
	return int64(min(float64(live)/raiseAt, math.MaxInt64/2))
}

// watchCollections calls f with the live heap after each garbage
// collection, from the runtime's cleanup goroutine, until f returns false.
func watchCollections(f func(live uint64) bool) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var arm func()
	arm = func() {
		// A new object, unreachable at once: its cleanup runs after the
		// next collection.
		runtime.AddCleanup(new([16]byte), func(struct{}) {
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 && f(sample[0].Value.Uint64()) {
				arm()
			}
		}, struct{}{})
	}
	arm()
}

// InputSize is the size of the regular file at path, or -1 for anything
// else (standard input, a pipe, a path that cannot be read): what
// LimitMemory needs to know of an input before reading it.
func InputSize(path string) int64 {
	if path == run.Stdin {
		return -1
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return -1
	}
	return fi.Size()
}
