package extract

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offattr/offattr/run"
)

// TestDump writes the features of the run named by OFFATTR_DUMP to the file
// named by OFFATTR_DUMP_OUT; a development aid, skipped otherwise. When
// OFFATTR_DUMP is a directory (the dev half, the tau-retail runs),
// OFFATTR_DUMP_OUT is a directory that receives one file per run found
// below it, named by its relative path ("Subset_N.json"): diffing two such
// dumps shows what an optimisation changed, feature by feature.
func TestDump(t *testing.T) {
	path := os.Getenv("OFFATTR_DUMP")
	if path == "" {
		t.Skip("set OFFATTR_DUMP=run.json to print its features")
	}
	out := os.Getenv("OFFATTR_DUMP_OUT")
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
		err := filepath.WalkDir(path, func(f string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(f) != ".json" {
				return err
			}
			rel, err := filepath.Rel(path, f)
			if err != nil {
				return err
			}
			dumpFeatures(t, f, filepath.Join(out, strings.ReplaceAll(rel, string(filepath.Separator), "_")))
			return nil
		})
		if err != nil {
			t.Fatal(err)
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
