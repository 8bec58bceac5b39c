package graph

import (
	"cmp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"
)

// storedAndImplied lists every edge of g as a graph that stored its next
// and member edges would: the stored edges, a next edge between each two
// consecutive steps and a member edge from each step to its agent and its
// trial, sorted by source node, target node and type.
func storedAndImplied(g *Graph) []Edge {
	var all []Edge
	for p := range g.edges {
		all = append(all, g.edgeAt(p))
	}
	for i := range g.n {
		s := g.StepNode(i)
		if i+1 < g.n {
			all = append(all, Edge{From: s.ID, To: StepID(i + 1), Type: Next})
		}
		agent, _ := g.AgentID(s.Agent)
		all = append(all, Edge{From: s.ID, To: agent, Type: Member}, Edge{From: s.ID, To: TrialID(s.Trial), Type: Member})
	}
	slices.SortStableFunc(all, func(a, b Edge) int {
		return cmp.Or(cmp.Compare(g.mustPosition(a.From), g.mustPosition(b.From)), cmp.Compare(g.mustPosition(a.To), g.mustPosition(b.To)),
			cmp.Compare(typeRank(a.Type), typeRank(b.Type)))
	})
	return all
}

func keep(edges []Edge, f func(Edge) bool) []Edge {
	var out []Edge
	for _, e := range edges {
		if f(e) {
			out = append(out, e)
		}
	}
	return out
}

func TestPropertyImpliedEdgesReadAsStored(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g, _ := genSpec(t).build(t, propAgents)
		all := storedAndImplied(g)
		types := rapid.SliceOfDistinct(rapid.SampledFrom(EdgeTypes), func(t EdgeType) EdgeType { return t }).Draw(t, "types")
		ofTypes := func(e Edge) bool { return wanted(e.Type, types) }

		assert.Equal(t, keep(all, ofTypes), g.Edges(types...), "edges of %v", types)
		for _, nd := range g.Nodes() {
			assert.Equal(t, keep(all, func(e Edge) bool { return e.From == nd.ID && ofTypes(e) }), g.OutEdges(nd.ID, types...), "out-edges of %s", nd.ID)
			assert.Equal(t, keep(all, func(e Edge) bool { return e.To == nd.ID && ofTypes(e) }), g.InEdges(nd.ID, types...), "in-edges of %s", nd.ID)
		}
		counts := map[EdgeType]int{}
		for _, e := range all {
			counts[e.Type]++
		}
		assert.Equal(t, counts, g.Counts())
	})
}

func TestNodeIDsReadAsPositions(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g, _ := genSpec(t).build(t, propAgents)
		for k, nd := range g.Nodes() {
			got, ok := g.Node(nd.ID)
			assert.True(t, ok, nd.ID)
			assert.Equal(t, nd, got)
			assert.Equal(t, k, g.mustPosition(nd.ID))
		}
	})
	g := buildRun(t, "q", nil, st{agent: "A"}, st{agent: "B"})
	for _, id := range []string{"s1", "a1", "t0"} {
		_, ok := g.Node(id)
		assert.True(t, ok, id)
	}
	for _, id := range []string{"", "s", "s01", "s-1", "s+1", "s2", "a2", "t1", "x0", "s1 ", "s99999999999999999999"} {
		_, ok := g.Node(id)
		assert.False(t, ok, "%q is no node", id)
		assert.Nil(t, g.OutEdges(id), id)
		assert.Nil(t, g.InEdges(id), id)
	}
}

// mustPosition is position for an ID the graph made itself.
func (g *Graph) mustPosition(id string) int {
	k, ok := g.position(id)
	if !ok {
		panic("graph: no node " + id)
	}
	return k
}
