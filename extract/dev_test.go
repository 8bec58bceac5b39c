package extract

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"

	"github.com/offattr/offattr/run"
)

// devDir is the Who&When development half beside the module root.
func devDir(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "shared", "whowhen", "dev")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("Who&When dev half not found at %s", dir)
	}
	return dir
}

// devRuns loads every dev run, keyed "Subset/N.json", in a stable order.
func devRuns(t testing.TB) (names []string, runs map[string]*run.Run) {
	dir := devDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil || len(files) == 0 {
		t.Skipf("no dev runs in %s", dir)
	}
	sort.Strings(files)
	runs = map[string]*run.Run{}
	for _, f := range files {
		r, err := run.Load(f, run.Options{})
		if err != nil {
			t.Fatalf("load %s: %v", f, err)
		}
		name := filepath.Join(filepath.Base(filepath.Dir(f)), filepath.Base(f))
		names = append(names, name)
		runs[name] = r
	}
	return names, runs
}
