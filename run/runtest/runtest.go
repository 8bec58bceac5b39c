// Package runtest finds the labelled corpora that stand beside the
// repository (../shared/whowhen/dev and ../shared/tau-retail) for tests and
// benchmarks, and skips them, saying where the data is expected and how to
// get it, when they are not there. It is test infrastructure: no command
// imports it.
package runtest

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"testing"

	"github.com/offattr/offattr/run"
)

// SharedHint is how a developer gets the corpora a skipped test needs.
const SharedHint = "the labelled corpora live in the shared/ folder that sits beside the repository (../shared: whowhen/dev, tau-retail, trail-gaia); clone or copy it there to run this test"

// SharedDir returns ../shared/<rel> from the module root, or skips tb:
// the labelled corpora have their own helpers below; ../shared/traces
// holds real trace exports from other projects, with no labels.
func SharedDir(tb testing.TB, rel ...string) string {
	tb.Helper()
	_, file, _, _ := runtime.Caller(0)
	// This file is run/runtest/runtest.go; the module root is two up.
	dir := filepath.Join(append([]string{filepath.Dir(file), "..", "..", "..", "shared"}, rel...)...)
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("%s not found: %s", dir, SharedHint)
	}
	return dir
}

// DevDir returns the Who&When development half's directory, or skips tb.
func DevDir(tb testing.TB) string {
	tb.Helper()
	return SharedDir(tb, "whowhen", "dev")
}

// TauDir returns the tau-bench retail corpus's directory, or skips tb.
func TauDir(tb testing.TB) string {
	tb.Helper()
	return SharedDir(tb, "tau-retail")
}

// DevFiles returns every case file of the development half, sorted, or
// skips tb when there are none.
func DevFiles(tb testing.TB) []string {
	tb.Helper()
	return glob(tb, filepath.Join(DevDir(tb), "*", "*.json"))
}

// TauFiles returns every case file of the tau-bench retail corpus, sorted.
func TauFiles(tb testing.TB) []string {
	tb.Helper()
	return glob(tb, filepath.Join(TauDir(tb), "*.json"))
}

// TrailDir returns the directory of TRAIL GAIA's runs in Who&When's shape,
// or skips tb.
func TrailDir(tb testing.TB) string {
	tb.Helper()
	return SharedDir(tb, "trail-gaia", "cases")
}

// TrailFiles returns every case file of TRAIL GAIA in Who&When's shape,
// sorted.
func TrailFiles(tb testing.TB) []string {
	tb.Helper()
	return glob(tb, filepath.Join(TrailDir(tb), "*.json"))
}

// AllFiles is every labelled case of Who&When's development half, then
// tau-retail: the corpora the golden files and benchmarks are written on.
func AllFiles(tb testing.TB) []string {
	tb.Helper()
	return append(DevFiles(tb), TauFiles(tb)...)
}

// SystemFiles is every labelled case of the three labelled systems:
// Who&When's development half, tau-retail, then TRAIL GAIA. Mechanisms
// that must hold on any system are checked on all of them.
func SystemFiles(tb testing.TB) []string {
	tb.Helper()
	return append(AllFiles(tb), TrailFiles(tb)...)
}

func glob(tb testing.TB, pattern string) []string {
	tb.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		tb.Skipf("no runs match %s: %s", pattern, SharedHint)
	}
	sort.Strings(files)
	return files
}

// DevRuns loads every case of the development half, without labels, in
// DevFiles order. A case that does not load fails tb.
func DevRuns(tb testing.TB) []*run.Run {
	tb.Helper()
	var out []*run.Run
	for _, c := range Cases(tb, DevFiles(tb)) {
		out = append(out, c.Run)
	}
	return out
}

// Cases loads files with their labels. A file that does not load fails tb.
func Cases(tb testing.TB, files []string) []*run.Case {
	tb.Helper()
	out := make([]*run.Case, 0, len(files))
	for _, f := range files {
		c, err := run.LoadCase(f, run.Options{})
		if err != nil {
			tb.Fatalf("%v", err)
		}
		out = append(out, c)
	}
	return out
}

// loaded holds every case SharedCases has loaded, by path.
var loaded sync.Map // string → *run.Case

// SharedCases is Cases, but each file is loaded once for the whole test
// binary: the corpus tests of a package read the same runs. The cases are
// shared, so a test copies a run before it changes it.
func SharedCases(tb testing.TB, files []string) []*run.Case {
	tb.Helper()
	out := make([]*run.Case, 0, len(files))
	for _, f := range files {
		if c, ok := loaded.Load(f); ok {
			out = append(out, c.(*run.Case))
			continue
		}
		c, err := run.LoadCase(f, run.Options{})
		if err != nil {
			tb.Fatalf("%v", err)
		}
		c2, _ := loaded.LoadOrStore(f, c)
		out = append(out, c2.(*run.Case))
	}
	return out
}

// Name is a case's short name, "Subset/N.json".
func Name(path string) string {
	return filepath.Join(filepath.Base(filepath.Dir(path)), filepath.Base(path))
}
