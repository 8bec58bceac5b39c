package graph

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	dgraph "github.com/dominikbraun/graph"
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

// devGraphs builds the graph of every development run, both subsets of the
// Who&When dev half and the tau-bench retail corpus beside it, with
// extract's real features, once per test binary: extraction dominates
// (seconds), building does not. Graphs are keyed by short name
// ("Hand-Crafted/12.json", "tau-retail/3.json").
func devGraphs(t *testing.T) map[string]*Graph {
	t.Helper()
	cases := runtest.SharedCases(t, runtest.AllFiles(t)) // skips when the corpora are not here, saying how to get them
	devOnce.Do(func() {
		devBuilt = map[string]*Graph{}
		for _, c := range cases {
			g, err := Build(c.Run, extract.Run(c.Run))
			if err != nil {
				devBuildE = err
				return
			}
			devBuilt[runtest.Name(c.Run.Source)] = g
		}
	})
	require.NoError(t, devBuildE)
	return devBuilt
}

func TestDevRunInvariants(t *testing.T) {
	graphs := devGraphs(t)
	totals := map[EdgeType]int{}
	groups, trials := 0, 0
	for name, g := range graphs {
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

// testingT is what checkInvariants needs of a test: *testing.T on the dev
// runs, *rapid.T on generated ones.
type testingT interface {
	require.TestingT
	Helper()
}

// checkInvariants holds for any run: nothing links to itself and no typed
// edge is drawn twice; step-to-step dependencies point forward in time; the
// next chain is whole; each step has exactly one agent and one trial, and
// the trials tile the run; an instruction reaches its addressee's first step
// after it, and an error signal the first planner step after it; loop edges
// join one agent's near-identical steps, and loop groups are disjoint and
// stay inside a trial; an answer's claims are traced back in time.
func checkInvariants(t testingT, g *Graph) {
	t.Helper()
	n := g.Len()
	agentOf, trialOf := make([]int, n), make([]int, n)
	seen := map[[3]string]bool{}
	for _, e := range g.Edges() {
		require.NotEqual(t, e.From, e.To, "self-loop %+v", e)
		key := [3]string{e.From, e.To, string(e.Type)}
		assert.False(t, seen[key], "edge drawn twice: %+v", e)
		seen[key] = true
		from, _ := g.Node(e.From)
		to, _ := g.Node(e.To)
		if from.Kind != NodeStep || to.Kind != NodeStep {
			assert.Contains(t, []EdgeType{Member, Replans}, e.Type, "only membership and re-planning leave the steps: %+v", e)
		}
		switch e.Type {
		case Next:
			assert.Equal(t, from.Index+1, to.Index, "%+v", e)
		case Data, Instructs, Observes, Loop, Feedback:
			assert.Less(t, from.Index, to.Index, "%s edge must point forward in time: %+v", e.Type, e)
		case Replans:
			assert.Equal(t, from.Index+1, to.Index)
		case Member:
			switch to.Kind {
			case NodeAgent:
				agentOf[from.Index]++
				assert.Equal(t, normName(to.Agent), normName(from.Agent))
			case NodeTrial:
				trialOf[from.Index]++
				assert.Equal(t, to.Index, from.Trial)
			}
		}
		switch e.Type {
		case Instructs:
			assert.NotEqual(t, normName(from.Agent), normName(to.Agent), "an agent does not instruct itself: %+v", e)
			for k := from.Index + 1; k < to.Index; k++ {
				assert.NotEqual(t, normName(to.Agent), normName(g.StepNode(k).Agent), "step %d comes first to the addressee: %+v", k, e)
			}
		case Feedback:
			assert.True(t, g.IsPlannerStep(to.Index), "feedback reaches a planner step: %+v", e)
			for k := from.Index + 1; k < to.Index; k++ {
				assert.False(t, g.IsPlannerStep(k), "planner step %d comes first: %+v", k, e)
			}
		case Loop:
			assert.Equal(t, normName(from.Agent), normName(to.Agent), "a loop repeats one agent: %+v", e)
			assert.GreaterOrEqual(t, e.Similarity, LoopInstruction, "%+v", e)
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
	// Trials tile the run, each holding its plan.
	ts := g.Trials()
	require.NotEmpty(t, ts)
	assert.Equal(t, 0, ts[0].Start)
	assert.Equal(t, n-1, ts[len(ts)-1].End)
	for k, tr := range ts {
		assert.Equal(t, k, tr.Index)
		assert.True(t, tr.Plan < 0 || tr.Contains(tr.Plan), "trial %+v holds its plan", tr)
		if k > 0 {
			assert.Equal(t, ts[k-1].End+1, tr.Start)
		}
	}
	grouped := map[int]bool{}
	for _, lg := range g.LoopGroups() {
		assert.True(t, sort.IntsAreSorted(lg.Steps))
		for _, s := range lg.Steps {
			assert.Equal(t, lg.Trial, g.TrialOf(s).Index, "loop groups stay inside a trial")
			assert.False(t, grouped[s], "step %d is in two loop groups", s)
			grouped[s] = true
		}
	}
	for _, cf := range g.AnswerFlow() {
		assert.Equal(t, g.AnswerStep(), cf.Path[0])
		assert.True(t, sort.IsSorted(sort.Reverse(sort.IntSlice(cf.Path))))
	}
	// Steps point to later steps, to their agent and trial, and trials to
	// later trials: the library graph as stored has no cycle.
	lib, err := g.Digraph()
	require.NoError(t, err)
	_, err = dgraph.TopologicalSort(lib)
	assert.NoError(t, err)
	checkAdjacency(t, g)
}

// checkAdjacency holds the graph's own adjacency, which the queries read, to
// the library graph it stores: a node's out-edges (in-edges) are the typed
// edges of the library's AdjacencyMap (PredecessorMap) at that node, sorted
// by source node, target node and type. Each library edge's attributes,
// shared among edges, name its own edges' types.
func checkAdjacency(t testingT, g *Graph) {
	t.Helper()
	lib, err := g.Digraph()
	require.NoError(t, err)
	again, err := g.Digraph()
	require.NoError(t, err)
	require.Same(t, lib, again, "the library graph is built once and kept")
	out, err := lib.AdjacencyMap()
	require.NoError(t, err)
	in, err := lib.PredecessorMap()
	require.NoError(t, err)
	for _, adj := range out {
		for _, le := range adj {
			var types []string
			for _, e := range le.Properties.Data.([]Edge) {
				types = append(types, string(e.Type))
			}
			assert.Equal(t, map[string]string{"types": strings.Join(types, ",")}, le.Properties.Attributes, "%s→%s", le.Source, le.Target)
		}
	}
	var all []Edge
	for _, nd := range g.Nodes() {
		for _, types := range [][]EdgeType{nil, {Data}, {Instructs, Loop, Member}} {
			assert.Equal(t, libraryEdges(g, out[nd.ID], types), g.OutEdges(nd.ID, types...), "out-edges of %s, types %v", nd.ID, types)
			assert.Equal(t, libraryEdges(g, in[nd.ID], types), g.InEdges(nd.ID, types...), "in-edges of %s, types %v", nd.ID, types)
		}
		all = append(all, libraryEdges(g, out[nd.ID], nil)...)
	}
	assert.Equal(t, all, g.Edges())
	counts := map[EdgeType]int{}
	for _, e := range all {
		counts[e.Type]++
	}
	assert.Equal(t, counts, g.Counts())
	assert.Nil(t, g.OutEdges("no such node"))
	assert.Nil(t, g.InEdges("no such node"))
}

// libraryEdges returns the typed edges of the library edges in adj, of the
// given types (all if none), sorted by source node, target node and type.
func libraryEdges(g *Graph, adj map[string]dgraph.Edge[string], types []EdgeType) []Edge {
	var out []Edge
	for _, le := range adj {
		for _, e := range le.Properties.Data.([]Edge) {
			if wanted(e.Type, types) {
				out = append(out, e)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.From != b.From {
			return g.mustPosition(a.From) < g.mustPosition(b.From)
		}
		if a.To != b.To {
			return g.mustPosition(a.To) < g.mustPosition(b.To)
		}
		return typeRank(a.Type) < typeRank(b.Type)
	})
	return out
}

// TestDevRunExports writes every dev run in each format: JSON decodes,
// Mermaid lines are well-formed, and DOT renders with Graphviz where it is
// installed (not with -short: that runs dot once per run). The golden
// digest pins the exports' content; this checks that they are valid.
func TestDevRunExports(t *testing.T) {
	_, err := exec.LookPath("dot")
	render := err == nil && !testing.Short()
	var all bytes.Buffer // every graph's DOT, one after another
	dots := map[string][]byte{}
	for name, g := range devGraphs(t) {
		var js, mm, dot bytes.Buffer
		require.NoError(t, g.WriteJSON(&js))
		require.NoError(t, g.WriteMermaid(&mm))
		require.NoError(t, g.WriteDOT(&dot))
		assert.True(t, json.Valid(js.Bytes()), name)
		for _, line := range strings.Split(strings.TrimSuffix(mm.String(), "\n"), "\n") {
			require.Regexp(t, mermaidLine, line, name)
		}
		all.Write(dot.Bytes())
		dots[name] = dot.Bytes()
	}
	if !render {
		return
	}
	// One Graphviz process renders every graph of its input, and costs
	// far less than a process per graph. Only when it fails is each graph
	// rendered alone, to name the one at fault.
	if validDOT(all.Bytes()) {
		return
	}
	for name, dot := range dots {
		t.Run(name, func(t *testing.T) { renderDOT(t, dot) })
	}
}

// validDOT reports whether Graphviz renders every graph in dot without a
// word on standard error.
func validDOT(dot []byte) bool {
	cmd := exec.Command("dot", "-Tsvg")
	cmd.Stdin = bytes.NewReader(dot)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	return cmd.Run() == nil && stderr.Len() == 0
}

// TestDevRunsGolden pins the graph of every development run and the answer
// of every query on it: the JSON, DOT and Mermaid exports and the queries
// the rules ask, each digested to a short hash, one line per run and
// query. A refactoring must leave the file as it is; a change in what the
// graph says shows up as the runs and queries it touched, and is accepted
// with -update.
func TestDevRunsGolden(t *testing.T) {
	graphs := devGraphs(t)
	names := make([]string, 0, len(graphs))
	for name := range graphs {
		names = append(names, name)
	}
	sort.Strings(names)
	var got bytes.Buffer
	for _, name := range names {
		for _, d := range digests(t, graphs[name]) {
			fmt.Fprintf(&got, "%s %s %s\n", name, d.query, d.sum)
		}
	}
	golden(t, filepath.Join("testdata", "golden", "dev.digest"), got.Bytes())
}

type digest struct{ query, sum string }

// digests answers every query on g and hashes each answer.
func digests(t *testing.T, g *Graph) []digest {
	t.Helper()
	var out []digest
	add := func(query string, v any) {
		b, ok := v.([]byte)
		if !ok {
			var err error
			b, err = json.Marshal(v)
			require.NoError(t, err)
		}
		sum := sha256.Sum256(b)
		out = append(out, digest{query, hex.EncodeToString(sum[:8])})
	}
	for _, f := range []struct {
		name  string
		write func(io.Writer, ...EdgeType) error
	}{{"json", g.WriteJSON}, {"dot", g.WriteDOT}, {"mermaid", g.WriteMermaid}} {
		var buf bytes.Buffer
		require.NoError(t, f.write(&buf))
		add("export-"+f.name, buf.Bytes())
	}
	add("counts", g.Counts())

	n := g.Len()
	perStep := func(query string, f func(i int) any) {
		vs := make([]any, n)
		for i := range vs {
			vs[i] = f(i)
		}
		add(query, vs)
	}
	add("trials", g.Trials())
	perStep("trial-of", func(i int) any { return g.TrialOf(i) })
	perStep("planner-step", func(i int) any { return g.IsPlannerStep(i) })
	add("answer-step", g.AnswerStep())
	add("answer-flow", g.AnswerFlow())
	add("loop-groups", g.LoopGroups())
	perStep("loop-group-of", func(i int) any {
		lg, ok := g.LoopGroupOf(i)
		return []any{lg, ok}
	})

	agents := g.Agents()
	add("agents", agents)
	add("planners", g.Planners())
	ids, steps := make([]string, len(agents)), make([][]int, len(agents))
	for k, a := range agents {
		ids[k], _ = g.AgentID(a)
		steps[k] = g.StepsOf(a)
	}
	add("agent-ids", ids)
	add("steps-of", steps)

	// The neighbourhoods and reaches the rules ask for, and those over
	// every type.
	for _, types := range [][]EdgeType{nil, {Data}, {Data, Instructs, Observes}} {
		key := "all"
		if types != nil {
			key = joinTypes(types)
		}
		perStep("out-edges "+key, func(i int) any { return g.OutEdges(StepID(i), types...) })
		perStep("in-edges "+key, func(i int) any { return g.InEdges(StepID(i), types...) })
		perStep("successors "+key, func(i int) any { return g.Successors(i, types...) })
		perStep("predecessors "+key, func(i int) any { return g.Predecessors(i, types...) })
		perStep("ancestors "+key, func(i int) any { return g.Ancestors(i, types...) })
		perStep("descendants "+key, func(i int) any { return g.Descendants(i, types...) })
	}
	return out
}
