package extract

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/run/runtest"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.json from the current extraction")

const goldenFile = "testdata/golden.json"

// corpusRuns loads every run of the two development corpora, the Who&When
// dev half and the tau-bench retail runs, keyed by a stable name.
func corpusRuns(t testing.TB) (names []string, runs map[string]*run.Run) {
	names, runs = devRuns(t)
	for i, n := range names {
		names[i] = "whowhen/" + n
		runs[names[i]] = runs[n]
		delete(runs, n)
	}
	tau := filepath.Join(filepath.Dir(filepath.Dir(runtest.DevDir(t))), "tau-retail")
	files, err := filepath.Glob(filepath.Join(tau, "*.json"))
	require.NoError(t, err)
	for _, f := range files {
		r, err := run.Load(f, run.Options{})
		require.NoError(t, err)
		name := "tau-retail/" + filepath.Base(f)
		names = append(names, name)
		runs[name] = r
	}
	sort.Strings(names)
	return names, runs
}

// digest is the SHA-256 of the features' JSON: any change to any feature
// of any step changes it.
func digest(t testing.TB, rf *RunFeatures) string {
	data, err := json.Marshal(rf)
	require.NoError(t, err)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// TestGolden pins what extraction reads from every development run. A
// change to the patterns or to how they are matched must leave every
// digest as it was, or be a deliberate change recorded with -update (the
// diff of testdata/golden.json names the runs it touched; TestDump shows
// how their features moved).
func TestGolden(t *testing.T) {
	names, runs := corpusRuns(t)
	got := map[string]string{}
	for _, n := range names {
		got[n] = digest(t, Run(runs[n]))
	}
	if *update {
		data, err := json.MarshalIndent(got, "", "  ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(goldenFile, append(data, '\n'), 0o644))
		return
	}
	data, err := os.ReadFile(goldenFile)
	require.NoError(t, err, "run go test ./extract -run TestGolden -update to create it")
	var want map[string]string
	require.NoError(t, json.Unmarshal(data, &want))
	require.Len(t, got, len(want), "the corpora changed: rerun with -update")
	for _, n := range names {
		assert.Equal(t, want[n], got[n], "features of %s changed", n)
	}
}
