package extract

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/offattr/offattr/run"
)

// TestDump writes the features of the run named by OFFATTR_DUMP to the file
// named by OFFATTR_DUMP_OUT; a development aid, skipped otherwise.
func TestDump(t *testing.T) {
	path := os.Getenv("OFFATTR_DUMP")
	if path == "" {
		t.Skip("set OFFATTR_DUMP=run.json to print its features")
	}
	r, err := run.Load(path, run.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.MarshalIndent(Run(r), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(os.Getenv("OFFATTR_DUMP_OUT"), out, 0o644); err != nil {
		t.Fatal(err)
	}
}
