package graph

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run/runtest"
)

var (
	devOnce   sync.Once
	devBuilt  map[string]*Graph
	devBuildE error
)

// devGraphs builds the graph of every dev run with extract's real features,
// once per test binary: extraction dominates (seconds), building does not.
// Graphs are keyed by the run's file.
func devGraphs(t *testing.T) map[string]*Graph {
	t.Helper()
	runs := runtest.DevRuns(t) // skips when the dev half is not here
	devOnce.Do(func() {
		devBuilt = map[string]*Graph{}
		for _, r := range runs {

			g, err := Build(r, extract.Run(r))
			if err != nil {
				devBuildE = err
				return
			}
			devBuilt[r.Source] = g
		}
	})
	require.NoError(t, devBuildE)
	return devBuilt
}

func TestDevRunInvariants(t *testing.T) {
	graphs := devGraphs(t)
	totals := map[EdgeType]int{}
	groups, trials := 0, 0
	for p, g := range graphs {
		name := runtest.Name(p)
		t.Run(name, func(t *testing.T) {
			checkInvariants(t, g)
		})
		for k, v := range g.Counts() {
			totals[k] += v
		}
		groups += len(g.LoopGroups())
		trials += len(g.Trials())
	}
	t.Logf("%d dev runs: edges %v, %d trials, %d loop groups", len(graphs), totals, trials, groups)
}

// checkInvariants holds for any run: step-to-step dependencies point
// forward in time, nothing links to itself, the next chain is whole, and
// each step has exactly one agent and one trial.
func checkInvariants(t *testing.T, g *Graph) {
	t.Helper()
	n := g.Len()
	agentOf, trialOf := make([]int, n), make([]int, n)
	for _, e := range g.Edges() {
		require.NotEqual(t, e.From, e.To, "self-loop %+v", e)
		from, _ := g.Node(e.From)
		to, _ := g.Node(e.To)
		switch e.Type {
		case Next:
			assert.Equal(t, from.Index+1, to.Index, "%+v", e)
		case Data, Instructs, Observes, Loop, Feedback:
			assert.Less(t, from.Index, to.Index, "%s edge must point forward in time: %+v", e.Type, e)
			assert.Equal(t, NodeStep, to.Kind)
		case Replans:
			assert.Equal(t, from.Index+1, to.Index)
		case Member:
			switch to.Kind {
			case NodeAgent:
				agentOf[from.Index]++
				assert.Equal(t, to.Agent, from.Agent)
			case NodeTrial:
				trialOf[from.Index]++
				assert.Equal(t, to.Index, from.Trial)
			}
		}
		if e.Type == Loop {
			assert.Equal(t, from.Agent, to.Agent, "a loop repeats one agent: %+v", e)
		}
	}
	for i := 0; i < n; i++ {
		if i+1 < n {
			assert.Equal(t, []int{i + 1}, g.Successors(i, Next), "next chain at step %d", i)
		}
		assert.Equal(t, 1, agentOf[i], "step %d agents", i)
		assert.Equal(t, 1, trialOf[i], "step %d trials", i)
		assert.True(t, g.TrialOf(i).Contains(i))
	}
	// Trials tile the run.
	ts := g.Trials()
	require.NotEmpty(t, ts)
	assert.Equal(t, 0, ts[0].Start)
	assert.Equal(t, n-1, ts[len(ts)-1].End)
	for k := 1; k < len(ts); k++ {
		assert.Equal(t, ts[k-1].End+1, ts[k].Start)
	}
	for _, lg := range g.LoopGroups() {
		for _, s := range lg.Steps {
			assert.Equal(t, lg.Trial, g.TrialOf(s).Index, "loop groups stay inside a trial")
		}
	}
	for _, cf := range g.AnswerFlow() {
		assert.Equal(t, g.AnswerStep(), cf.Path[0])
		assert.True(t, sort.IsSorted(sort.Reverse(sort.IntSlice(cf.Path))))
	}
}

// TestDevRunExports writes every dev run in each format: JSON decodes,
// Mermaid lines are well-formed, and DOT renders with Graphviz.
func TestDevRunExports(t *testing.T) {
	if testing.Short() {
		t.Skip("renders every dev run")
	}
	for p, g := range devGraphs(t) {
		var js, mm, dot bytes.Buffer
		require.NoError(t, g.WriteJSON(&js))
		require.NoError(t, g.WriteMermaid(&mm))
		require.NoError(t, g.WriteDOT(&dot))
		assert.True(t, json.Valid(js.Bytes()), p)
		for _, line := range strings.Split(strings.TrimSuffix(mm.String(), "\n"), "\n") {
			require.Regexp(t, mermaidLine, line, p)
		}
		renderDOT(t, dot.Bytes())
	}
}
