package graph

import (
	"sort"
	"sync"

	dgraph "github.com/dominikbraun/graph"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

// Graph is the typed dependency graph of one run. It is read-only once
// built; all queries return fresh slices in a deterministic order.
type Graph struct {
	// lib is the graph in the library's store, built on the first call
	// of Digraph: the package's own queries read edges, below.
	lib     dgraph.Graph[string, Node]
	libErr  error
	libOnce sync.Once
	// edges holds every typed edge but the next and member edges, which
	// the steps imply (implicit.go), by source node, target node and type:
	// node k's stored out-edges are edges[outAt[k]:outAt[k+1]], and its
	// stored in-edges, by source and type, are at the positions
	// inEdges[inAt[k]:inAt[k+1]].
	edges       []edge
	edgeClaims  []int32  // the data edges' claims, by number in claimKeys, see edge
	claimKeys   []string // the key of each claim a data edge carries, by number
	evidence    []string // the other edges' evidence, see edge
	outAt, inAt []int32
	inEdges     []int32

	// The nodes are the steps, then the agents, then the trials. A node is
	// made when asked: a step's from the run's step and its features, an
	// agent's from its name, a trial's from the trial. ids and agentIDs
	// hold the steps' and agents' IDs.
	n        int
	steps    []run.Step
	f        *extract.RunFeatures
	ids      idList
	agentIDs idList
	agents   []string
	agentIdx map[string]int
	stepsOf  [][]int32
	planners []string

	plannerStep []bool
	trials      []Trial
	trialOf     []int32
	agentOf     []int32 // per step, its agent's position in agents
	loopGroups  []LoopGroup

	answer answerRef
}

// Digraph returns the graph as a dominikbraun/graph graph, for the
// library's traversal and path algorithms. Each edge's Properties.Data is
// the []Edge of typed edges between the pair; edges of the same types
// share their Attributes map. Callers must not modify it. It is built on
// the first call and kept: the package's queries read an index of their
// own, and filling the library's store on every build was about a
// twentieth of a screen's time for a graph nothing in offattr walks.
func (g *Graph) Digraph() (dgraph.Graph[string, Node], error) {
	g.libOnce.Do(func() { g.lib, g.libErr = g.digraph() })
	return g.lib, g.libErr
}

// Len returns the number of steps.
func (g *Graph) Len() int { return g.n }

// Nodes returns every node: steps in order, then agents in order of first
// appearance, then trials.
func (g *Graph) Nodes() []Node {
	out := make([]Node, 0, g.nodeCount())
	for k := range g.nodeCount() {
		out = append(out, g.node(k))
	}
	return out
}

// nodeCount is the number of nodes: steps, agents and trials.
func (g *Graph) nodeCount() int { return g.n + len(g.agents) + len(g.trials) }

// Node returns the node with the given ID.
func (g *Graph) Node(id string) (Node, bool) {
	k, ok := g.position(id)
	if !ok {
		return Node{}, false
	}
	return g.node(k), true
}

// node returns the node at position k.
func (g *Graph) node(k int) Node {
	switch {
	case k < g.n:
		return g.StepNode(k)
	case k < g.n+len(g.agents):
		a := k - g.n
		name := g.agents[a]
		return Node{ID: g.agentIDs.id(a), Kind: NodeAgent, Index: a, Agent: name, Trial: -1, Label: name}
	}
	t := g.trials[k-g.n-len(g.agents)]
	return Node{ID: trialID(t.Index), Kind: NodeTrial, Index: t.Index, Trial: t.Index, Label: trialLabel(t)}
}

// nodeID returns the ID of the node at position k.
func (g *Graph) nodeID(k int) string {
	switch {
	case k < g.n:
		return g.ids.id(k)
	case k < g.n+len(g.agents):
		return g.agentIDs.id(k - g.n)
	}
	return trialID(g.trials[k-g.n-len(g.agents)].Index)
}

// StepNode returns the node of step i (which must be in range).
func (g *Graph) StepNode(i int) Node {
	agent, kind := g.steps[i].Agent, g.f.Steps[i].Kind
	return Node{ID: g.ids.id(i), Kind: NodeStep, Index: i, Agent: agent, StepKind: kind, Trial: int(g.trialOf[i]), Label: stepLabel(i, agent, kind)}
}

// StepID and TrialID name the nodes of a step and a trial.
func StepID(i int) string  { return stepID(i) }
func TrialID(i int) string { return trialID(i) }

// AgentID returns the node ID of the named agent (matched ignoring case and
// punctuation).
func (g *Graph) AgentID(name string) (string, bool) {
	a, ok := g.agentIdx[normName(name)]
	if !ok {
		return "", false
	}
	return agentID(a), true
}

// Edges returns the typed edges of the given types (all types if none),
// ordered by source node, target node and type.
func (g *Graph) Edges(types ...EdgeType) []Edge {
	var out []Edge
	for k := range g.nodeCount() {
		g.eachOut(k, types, func(e Edge) bool { out = append(out, e); return true })
	}
	return out
}

// OutEdges returns the typed edges leaving node id, of the given types (all
// if none), ordered by target node and type.
func (g *Graph) OutEdges(id string, types ...EdgeType) []Edge {
	k, ok := g.position(id)
	if !ok {
		return nil
	}
	var out []Edge
	g.eachOut(k, types, func(e Edge) bool { out = append(out, e); return true })
	return out
}

// OutClaims returns the claims of the data edges leaving node id, edge by
// edge in OutEdges' order: what a reader of their claims alone needs,
// without the edges' names and evidence.
func (g *Graph) OutClaims(id string) []string {
	k, ok := g.position(id)
	if !ok {
		return nil
	}
	var out []string
	g.eachOutRef(k, []EdgeType{Data}, func(_ int, _ EdgeType, stored int) bool {
		if stored >= 0 {
			e := &g.edges[stored]
			out = g.appendClaims(out, e)
		}
		return true
	})
	return out
}

// InEdges returns the typed edges entering node id, ordered by source node
// and type.
func (g *Graph) InEdges(id string, types ...EdgeType) []Edge {
	k, ok := g.position(id)
	if !ok {
		return nil
	}
	var out []Edge
	g.eachIn(k, types, func(e Edge) bool { out = append(out, e); return true })
	return out
}

func wanted(t EdgeType, types []EdgeType) bool {
	if len(types) == 0 {
		return true
	}
	for _, x := range types {
		if x == t {
			return true
		}
	}
	return false
}

// Successors returns the steps that step i links to by edges of the given
// types (all if none), ascending.
func (g *Graph) Successors(i int, types ...EdgeType) []int {
	var out []int
	g.eachOutEnd(i, types, func(to int) {
		if to < g.n {
			out = append(out, to)
		}
	})
	return sortedSet(out)
}

// Predecessors returns the steps linking to step i by edges of the given
// types (all if none), ascending.
func (g *Graph) Predecessors(i int, types ...EdgeType) []int {
	var out []int
	g.eachInEnd(i, types, func(from int) {
		if from < g.n {
			out = append(out, from)
		}
	})
	return sortedSet(out)
}

// Ancestors returns every step from which step i can be reached over edges
// of the given types, ascending: with Data, the steps whose claims step i
// rests on, however indirectly.
func (g *Graph) Ancestors(i int, types ...EdgeType) []int {
	return g.reach(i, types, g.Predecessors)
}

// Descendants returns every step reachable from step i over edges of the
// given types, ascending: with Data, the steps a claim of i flows into.
func (g *Graph) Descendants(i int, types ...EdgeType) []int {
	return g.reach(i, types, g.Successors)
}

func (g *Graph) reach(i int, types []EdgeType, step func(int, ...EdgeType) []int) []int {
	seen := map[int]bool{i: true}
	queue := []int{i}
	var out []int
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, j := range step(cur, types...) {
			if !seen[j] {
				seen[j] = true
				out = append(out, j)
				queue = append(queue, j)
			}
		}
	}
	return sortedSet(out)
}

// Trials returns the run's trials in order.
func (g *Graph) Trials() []Trial { return append([]Trial(nil), g.trials...) }

// TrialOf returns the trial holding step i.
func (g *Graph) TrialOf(i int) Trial { return g.trials[g.trialOf[i]] }

// Agents returns the agents in order of first appearance.
func (g *Graph) Agents() []string { return append([]string(nil), g.agents...) }

// StepsOf returns the steps spoken by the named agent (matched ignoring
// case and punctuation), ascending.
func (g *Graph) StepsOf(agent string) []int {
	a, ok := g.agentIdx[normName(agent)]
	if !ok {
		return nil
	}
	steps := make([]int, len(g.stepsOf[a]))
	for k, i := range g.stepsOf[a] {
		steps[k] = int(i)
	}
	return steps
}

// Planners returns the agents that plan, re-plan, instruct or keep a ledger
// somewhere in the run: planners by what they do, not by name.
func (g *Graph) Planners() []string { return append([]string(nil), g.planners...) }

// IsPlannerStep reports whether step i is the planner at work: a plan,
// re-plan, instruction or ledger, or a private thought of a planning agent.
func (g *Graph) IsPlannerStep(i int) bool { return g.plannerStep[i] }

// RepeatsInstruction reports whether step p's text repeats step q's as a
// reworded instruction does: their Similarity is at or above
// LoopInstruction, the threshold the loop edges between instructions use.
func (g *Graph) RepeatsInstruction(p, q int) bool {
	return Similarity(g.steps[p].Content, g.steps[q].Content) >= LoopInstruction
}

// LoopGroups returns the repeated plan–execute cycles, ordered by first step.
func (g *Graph) LoopGroups() []LoopGroup {
	out := make([]LoopGroup, len(g.loopGroups))
	for i, lg := range g.loopGroups {
		out[i] = LoopGroup{Trial: lg.Trial,
			Steps:    append([]int(nil), lg.Steps...),
			Planner:  append([]int{}, lg.Planner...),
			Executor: append([]int{}, lg.Executor...)}
	}
	return out
}

// LoopGroupOf returns the loop group whose repeating steps include step i.
func (g *Graph) LoopGroupOf(i int) (LoopGroup, bool) {
	for _, lg := range g.LoopGroups() {
		if k := sort.SearchInts(lg.Steps, i); k < len(lg.Steps) && lg.Steps[k] == i {
			return lg, true
		}
	}
	return LoopGroup{}, false
}

// Counts returns the number of edges of each type.
func (g *Graph) Counts() map[EdgeType]int {
	c := map[EdgeType]int{}
	for _, e := range g.edges {
		c[EdgeTypes[e.typ]]++
	}
	g.implicitCounts(c)
	return c
}
