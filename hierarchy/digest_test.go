package hierarchy

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/run/runtest"
)

// digestBudgets are the budgets the digest fits every context to: 0 (no
// limit), a budget too small for some runs, budgets small enough to reach the neighbours' and the target's
// truncation, and budgets at which only far steps degrade.
var digestBudgets = []int{0, 60, 100, 150, 250, 400, 1000, 2000, 4000, 16000}

// TestDevDigest pins the fitted contexts of every run of both dev corpora
// (Who&When's dev half and tau-retail) to a golden file, so a change to
// fitting that alters any byte a model would be shown shows up as a diff.
// For the first, middle and last step it records the tokens at each budget
// and a digest of the contexts (JSON and rendering); a last line per run
// digests the contexts of every step at every budget.
func TestDevDigest(t *testing.T) {
	var b strings.Builder
	for _, path := range corpusFiles(t) {
		r, err := run.Load(path, run.Options{})
		require.NoError(t, err)
		f := extract.Run(r)
		name := runtest.Name(path)
		every := sha256.New()
		for target := range r.Steps {
			h := sha256.New()
			tokens := digestContexts(t, h, r, f, target)
			every.Write(h.Sum(nil))
			if pinned(target, len(r.Steps)) {
				fmt.Fprintf(&b, "%s step %d:%s %x\n", name, target, tokens, h.Sum(nil)[:8])
			}
		}
		fmt.Fprintf(&b, "%s every step: %x\n", name, every.Sum(nil)[:8])
	}
	checkGolden(t, filepath.Join("testdata", "golden", "dev_digest.txt"), b.String())
}

// corpusFiles lists the runs of Who&When's dev half and of tau-retail,
// which stands beside it in ../shared.
func corpusFiles(t *testing.T) []string {
	t.Helper()
	files := runtest.DevFiles(t)
	tau, err := filepath.Glob(filepath.Join(runtest.DevDir(t), "..", "..", "tau-retail", "*.json"))
	require.NoError(t, err)
	if len(tau) == 0 {
		t.Skip("tau-retail not found beside the Who&When dev half")
	}
	sort.Strings(tau)
	return append(files, tau...)
}

// pinned reports whether the golden file has a line of its own for target:
// the first, middle and last step.
func pinned(target, steps int) bool {
	return target == 0 || target == steps/2 || target == steps-1
}

// digestContexts writes the context of target at every digest budget to h,
// as JSON and as rendered, and returns the tokens each took (" 150:149"),
// "small" where the budget was too small.
func digestContexts(t *testing.T, h hash.Hash, r *run.Run, f *extract.RunFeatures, target int) string {
	t.Helper()
	var tokens strings.Builder
	for _, budget := range digestBudgets {
		c, err := BuildWithin(r, f, target, budget)
		if errors.Is(err, ErrBudgetTooSmall) {
			fmt.Fprintf(&tokens, " %d:small", budget)
			fmt.Fprintf(h, "budget %d: too small\n", budget)
			continue
		}
		require.NoError(t, err)
		fmt.Fprintf(&tokens, " %d:%d", budget, c.Tokens)
		fmt.Fprintf(h, "budget %d:\n", budget)
		require.NoError(t, json.NewEncoder(h).Encode(c))
		h.Write([]byte(c.Render()))
	}
	return tokens.String()
}

// checkGolden compares got with the golden file at path, rewriting it first
// under -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update to create the golden file")
	require.Equal(t, string(want), got)
}
