package extract

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.json from the current extraction")

const goldenFile = "testdata/golden.json"

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
	names, _, features := extracted(t)
	got := map[string]string{}
	for _, n := range names {
		got[n] = digest(t, features[n])
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
