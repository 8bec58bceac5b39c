// Package runtest finds the Who&When development half that stands beside
// the repository (../shared/whowhen/dev) for tests and benchmarks, and
// skips them when it is not there. It is test infrastructure: no command
// imports it.
package runtest

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"

	"github.com/offattr/offattr/run"
)

// DevDir returns the development half's directory, or skips tb.
func DevDir(tb testing.TB) string {
	tb.Helper()
	_, file, _, _ := runtime.Caller(0)
	// This file is run/runtest/runtest.go; the module root is two up.
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "whowhen", "dev")
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("Who&When dev half not found at %s", dir)
	}
	return dir
}

// DevFiles returns every case file of the development half, sorted, or
// skips tb when there are none.
func DevFiles(tb testing.TB) []string {
	tb.Helper()
	dir := DevDir(tb)
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil || len(files) == 0 {
		tb.Skipf("no dev runs in %s", dir)
	}
	sort.Strings(files)
	return files
}

// DevRuns loads every case of the development half, labels included, in
// DevFiles order. A case that does not load fails tb.
func DevRuns(tb testing.TB) []*run.Run {
	tb.Helper()
	var out []*run.Run
	for _, f := range DevFiles(tb) {
		r, err := run.Load(f, run.Options{})
		if err != nil {
			tb.Fatalf("%v", err)
		}
		out = append(out, r)
	}
	return out
}

// Name is a case's short name, "Subset/N.json".
func Name(path string) string {
	return filepath.Join(filepath.Base(filepath.Dir(path)), filepath.Base(path))
}
