package eval

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/engine"
)

var update = flag.Bool("update", false, "rewrite testdata/kinds.json with the figures measured")

// kindFigures is what the rules score on one kind of constructed run.
type kindFigures struct {
	Agent float64 `json:"agent"`
	Step  float64 `json:"step"`
}

// TestConstructedKinds scores the rules on the constructed runs of kinds
// the labelled systems do not hold (testdata/kinds): no kind may be read
// worse than testdata/kinds.json says. A change that reads one better, judged
// worth keeping on the labelled systems held out, rewrites it with
// -update.
func TestConstructedKinds(t *testing.T) {
	dir := filepath.Join("..", "testdata", "kinds")
	subsets, err := Discover([]string{dir})
	require.NoError(t, err)
	require.Len(t, subsets, 8)
	analyze, err := engine.New(engine.Options{AnswerOnly: true})
	require.NoError(t, err)
	rep, err := Evaluate(context.Background(), subsets, analyze, Options{})
	require.NoError(t, err)

	got := map[string]kindFigures{}
	for _, s := range rep.Subsets {
		require.Zero(t, s.Failed, s.Name)
		require.Zero(t, s.Unlabelled, s.Name)
		got[s.Name] = kindFigures{Agent: round3(s.AgentAccuracy), Step: round3(s.StepAccuracy)}
	}
	path := filepath.Join("testdata", "kinds.json")
	if *update {
		b, err := json.MarshalIndent(got, "", "  ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path, append(b, '\n'), 0o644))
	}
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var want map[string]kindFigures
	require.NoError(t, json.Unmarshal(b, &want))
	require.Len(t, got, len(want))
	for name, w := range want {
		assert.GreaterOrEqual(t, got[name].Agent, w.Agent, "%s: agent", name)
		assert.GreaterOrEqual(t, got[name].Step, w.Step, "%s: step", name)
	}
}

func round3(x float64) float64 { return float64(int(x*1000+0.5)) / 1000 }
