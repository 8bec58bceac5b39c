package hierarchy

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/offattr/offattr/run"
)

// TestDump prints the context of OFFATTR_STEP in OFFATTR_DUMP within
// OFFATTR_BUDGET tokens; a development aid, skipped otherwise.
func TestDump(t *testing.T) {
	path := os.Getenv("OFFATTR_DUMP")
	if path == "" {
		t.Skip("set OFFATTR_DUMP, OFFATTR_STEP and OFFATTR_BUDGET")
	}
	r, err := run.Load(path, run.Options{})
	if err != nil {
		t.Fatal(err)
	}
	step, _ := strconv.Atoi(os.Getenv("OFFATTR_STEP"))
	budget, _ := strconv.Atoi(os.Getenv("OFFATTR_BUDGET"))
	s, err := RenderWithin(r, nil, step, budget)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Print(s)
}
