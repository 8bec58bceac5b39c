package extract

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/offattr/offattr/run"
)

// TestDump writes the features of the run named by OFFATTR_DUMP to the file
// named by OFFATTR_DUMP_OUT; a development aid, skipped otherwise. When
// OFFATTR_DUMP is a directory of subsets (the dev half), OFFATTR_DUMP_OUT is
// a directory that receives one file per run, named "Subset_N.json": diffing
// two such dumps shows what an optimisation changed, feature by feature.
func TestDump(t *testing.T) {
	path := os.Getenv("OFFATTR_DUMP")
	if path == "" {
		t.Skip("set OFFATTR_DUMP=run.json to print its features")
	}
	out := os.Getenv("OFFATTR_DUMP_OUT")
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		files, err := filepath.Glob(filepath.Join(path, "*", "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			name := filepath.Base(filepath.Dir(f)) + "_" + filepath.Base(f)
			dumpFeatures(t, f, filepath.Join(out, name))
		}
		return
	}
	dumpFeatures(t, path, out)
}

func dumpFeatures(t *testing.T, path, out string) {
	t.Helper()
	r, err := run.Load(path, run.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.MarshalIndent(Run(r), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
