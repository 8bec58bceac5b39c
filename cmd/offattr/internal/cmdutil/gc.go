package cmdutil

import (
	"os"
	"runtime/debug"
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
