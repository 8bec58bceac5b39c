package graph

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	dgraph "github.com/dominikbraun/graph"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

// ErrMismatch is returned when extract's features do not describe the run
// they are built with.
var ErrMismatch = errors.New("features do not match the run")

// Build draws the dependency graph of r from extract's features f. It is
// deterministic: the same run and features give the same graph.
func Build(r *run.Run, f *extract.RunFeatures) (*Graph, error) {
	return BuildContext(context.Background(), r, f)
}

// BuildContext is Build that stops with ctx's error once ctx is done: a run
// of many thousand steps takes seconds to draw. It checks between the edge
// finders, within the longest (data, loops: every 256 steps) and between
// the parts of putting the graph together (every 1024 edges).
func BuildContext(ctx context.Context, r *run.Run, f *extract.RunFeatures) (*Graph, error) {
	switch {
	case r == nil:
		return nil, errors.New("build graph: no run")
	case f == nil:
		return nil, fmt.Errorf("build graph of %s: no features", r.Source)
	case len(f.Steps) != len(r.Steps):
		return nil, fmt.Errorf("build graph of %s: %w: %d feature steps for %d run steps", r.Source, ErrMismatch, len(f.Steps), len(r.Steps))
	}
	b := newBuilder(r, f)
	b.ctx = ctx
	for _, find := range []func(){b.segmentTrials, b.addInstructs, b.addObserves, b.addData, b.addLoops, b.addReplans, b.addFeedback} {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		find()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g, err := b.commit()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("build graph of %s: %w", r.Source, err)
	}
	return g, nil
}

// builder holds what the edge finders share while a graph is drawn.
type builder struct {
	ctx   context.Context // done: finders may stop early (BuildContext)
	r     *run.Run
	f     *extract.RunFeatures
	n     int
	kinds []kindSet
	// agentOf[i] is the position of step i's agent in agents; the graph
	// keeps it.
	agentOf []int32
	agents  []string
	// ids holds each step's node ID, made once: step nodes and the edges
	// queries return are named from it, and a run of many thousand steps
	// would otherwise format a string for each end of each edge.
	ids      idList
	agentIdx map[string]int // normalised name → position in agents
	stepsOf  [][]int32      // per agent, its steps in order
	planners map[int]bool   // agents that plan, instruct or keep a ledger

	trials  []Trial
	trialOf []int32

	edges      edgeList
	edgeClaims []int32  // the data edges' claims, by number in claimKeys (edge.claimAt)
	claimKeys  []string // each claim's key, by its number
	evidence   []string // the edges' evidence (edge.evidence)
	answer     answerRef
	state      derived
}

// derived is what the builder computes on the way that queries reuse.
type derived struct {
	loopEdges [][2]int
}

// claimIndex is what finding data edges learns of every claim that the
// final answer's flow reads.
type claimIndex struct {
	claimID  map[string]int // claim key → its number in claimOcc
	claimOcc claimSteps     // per claim, the steps stating it, ascending
	given    map[string]bool
}

func newBuilder(r *run.Run, f *extract.RunFeatures) *builder {
	b := &builder{ctx: context.Background(), r: r, f: f, n: len(r.Steps), agentIdx: map[string]int{}, planners: map[int]bool{}}
	// Next and member edges are not stored (implicit.go); the finders
	// draw the rest, about one a step.
	b.edges.first = b.n
	b.kinds = make([]kindSet, b.n)
	b.agentOf = make([]int32, b.n)
	b.ids = stepIDList(b.n)
	for i := range r.Steps {
		b.kinds[i] = kindsOf(&f.Steps[i])
		key := normName(r.Steps[i].Agent)
		a, ok := b.agentIdx[key]
		if !ok {
			a = len(b.agents)
			b.agentIdx[key] = a
			b.agents = append(b.agents, r.Steps[i].Agent)
			b.stepsOf = append(b.stepsOf, nil)
		}
		b.agentOf[i] = int32(a)
		b.stepsOf[a] = append(b.stepsOf[a], int32(i))
		if b.kinds[i].Any(planKinds) {
			b.planners[a] = true
		}
	}
	return b
}

// add stores e with its evidence, if it has any.
func (b *builder) add(e edge, evidence string) {
	if evidence != "" {
		b.evidence = append(b.evidence, evidence)
		e.evidence = int32(len(b.evidence))
	}
	b.edges.add(e)
}

// stepEdge is an edge of type t from step from to step to.
func stepEdge(from, to int, t EdgeType) edge {
	return edge{from: int32(from), to: int32(to), typ: uint8(typeRank(t))}
}

func (b *builder) addStepEdge(from, to int, t EdgeType, evidence string) {
	b.add(stepEdge(from, to, t), evidence)
}

// trialNode is trial k's position among the graph's nodes: after the
// steps and the agents.
func (b *builder) trialNode(k int) int32 { return int32(b.n + len(b.agents) + k) }

// isPlannerStep reports whether step i is the planner at work: a plan,
// re-plan, instruction or ledger, or a private thought of a planning agent.
func (b *builder) isPlannerStep(i int) bool {
	k := b.kinds[i]
	return k.Any(planKinds) || (k.Has(extract.KindThought) && b.planners[int(b.agentOf[i])])
}

// nextOf returns the first step after i spoken by agent a, or -1.
func (b *builder) nextOf(a, i int) int {
	steps := b.stepsOf[a]
	k, _ := slices.BinarySearch(steps, int32(i+1))
	if k == len(steps) {
		return -1
	}
	return int(steps[k])
}

func (b *builder) addReplans() {
	for k := 1; k < len(b.trials); k++ {
		t := b.trials[k]
		b.add(edge{from: b.trialNode(k - 1), to: b.trialNode(k), typ: uint8(typeRank(Replans))},
			fmt.Sprintf("step %d: %s", t.Plan, quote(b.r.Steps[t.Plan].Content, 80)))
	}
}

// commit makes the graph: its agent and trial nodes (a step's node is made
// when asked, from the step), and its typed edges, sorted and indexed (the
// library graph is made from them on demand, see Digraph).
func (b *builder) commit() (*Graph, error) {
	g := &Graph{
		n:        b.n,
		steps:    b.r.Steps,
		f:        b.f,
		ids:      b.ids,
		agents:   b.agents,
		agentIdx: b.agentIdx,
		stepsOf:  b.stepsOf,
		trials:   b.trials,
		trialOf:  b.trialOf,
		agentOf:  b.agentOf,
		answer:   b.answer,
	}
	g.plannerStep = make([]bool, b.n)
	for i := 0; i < b.n; i++ {
		g.plannerStep[i] = b.isPlannerStep(i)
	}
	for a := range b.agents {
		if b.planners[a] {
			g.planners = append(g.planners, b.agents[a])
		}
	}
	g.agentIDs = idListOf('a', len(b.agents))
	g.index(compact(dedupe(b.edges.sorted())))
	g.edgeClaims = compact(b.edgeClaims)
	g.claimKeys = compact(b.claimKeys)
	g.evidence = compact(b.evidence)
	b.edges, b.edgeClaims, b.claimKeys, b.evidence = edgeList{}, nil, nil, nil
	if err := b.ctx.Err(); err != nil {
		return nil, err
	}
	g.loopGroups = b.loopGroups(g)
	return g, nil
}

// edgeList holds the edges the finders draw, in chunks of edgeChunk but
// the last: a long run's edges, about two a step, were one slice grown by
// appends, and each growth copied all of them beside the old while the
// loop finder's scratch was held.
type edgeList struct {
	chunks [][]edge
	n      int
	first  int // the room the first chunk is made with, up to edgeChunk
}

const edgeChunk = 1 << 15

func (l *edgeList) add(e edge) {
	if len(l.chunks) == 0 || len(l.chunks[len(l.chunks)-1]) == edgeChunk {
		l.chunks = append(l.chunks, make([]edge, 0, min(max(l.first, 1), edgeChunk)))
		l.first = edgeChunk
	}
	last := &l.chunks[len(l.chunks)-1]
	*last = append(*last, e)
	l.n++
}

func (l *edgeList) at(i int) edge { return l.chunks[i/edgeChunk][i%edgeChunk] }

// sorted returns the edges ordered by source node, target node, then type,
// each kind of tie in the order drawn, in an array of their number. The
// order is found on packed integer keys, then the edges are copied into
// it.
func (l *edgeList) sorted() []edge {
	keys := make([]uint64, l.n)
	idx := make([]int32, l.n)
	for i := range l.n {
		e := l.at(i)
		keys[i] = uint64(e.from)<<36 | uint64(e.to)<<8 | uint64(e.typ)
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(a, b int32) int { return cmp.Compare(keys[a], keys[b]) })
	edges := make([]edge, l.n)
	for k, i := range idx {
		edges[k] = l.at(int(i))
	}
	return edges
}

// dedupe keeps the first edge of each type between each pair of nodes in
// sorted edges, in place; the finders never draw the same typed edge twice,
// but a cheap guard keeps the bundles honest.
func dedupe(edges []edge) []edge {
	return slices.CompactFunc(edges, func(a, b edge) bool { return a.from == b.from && a.to == b.to && a.typ == b.typ })
}

// compact returns s in an array of its own size when the one it was
// appended to has much room left: a long run's edges are kept while the
// rules run, and growing by appends can leave a third of it unused.
func compact[T any](s []T) []T {
	if cap(s)-len(s) <= len(s)/8 {
		return s
	}
	return slices.Clone(s)
}

// index keeps edges, sorted and deduplicated, as the graph's adjacency:
// each node's out-edges are a run of them, and its in-edges a run of
// positions in them, counted out by target. The library's AdjacencyMap and
// PredecessorMap copy its store into a map per node, a fifth of what
// building a graph allocated, and still had to be sorted on every query.
func (g *Graph) index(edges []edge) {
	g.edges = edges
	nodes := g.nodeCount()
	g.outAt = make([]int32, nodes+1)
	g.inAt = make([]int32, nodes+1)
	for _, e := range edges {
		g.outAt[e.from+1]++
		g.inAt[e.to+1]++
	}
	for k := range nodes {
		g.outAt[k+1] += g.outAt[k]
		g.inAt[k+1] += g.inAt[k]
	}
	// Edges come by source, so each node's in-edges come by source too.
	g.inEdges = make([]int32, len(edges))
	next := slices.Clone(g.inAt[:nodes])
	for i, e := range edges {
		g.inEdges[next[e.to]] = int32(i)
		next[e.to]++
	}
}

func bundleTypes(bundle []Edge) string {
	if len(bundle) == 1 { // most pairs: no list to join
		return string(bundle[0].Type)
	}
	s := make([]string, len(bundle))
	for i, e := range bundle {
		s[i] = string(e.Type)
	}
	return strings.Join(s, ",")
}

func stepLabel(i int, agent string, k extract.StepKind) string {
	if k == 0 {
		return fmt.Sprintf("%d %s", i, agent)
	}
	return fmt.Sprintf("%d %s: %s", i, agent, k)
}

func trialLabel(t Trial) string {
	if t.Plan < 0 {
		return fmt.Sprintf("trial %d", t.Index)
	}
	return fmt.Sprintf("trial %d (plan at step %d)", t.Index, t.Plan)
}

// quote returns the first n runes of s with its whitespace collapsed, for
// evidence. It stops reading once it has enough: steps can be long pages.
func quote(s string, n int) string {
	const ellipsis = "…"
	var sb strings.Builder
	// Room for n bytes and the ellipsis holds most quotes, which are ASCII:
	// growing the builder rune by rune was one in thirty of a build's
	// allocations.
	sb.Grow(min(len(s), n) + len(ellipsis))
	count, space := 0, false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = count > 0
			continue
		}
		if count == n {
			sb.WriteString(ellipsis)
			return sb.String()
		}
		if space {
			sb.WriteByte(' ')
			count++
			space = false
			if count == n {
				sb.WriteString(ellipsis)
				return sb.String()
			}
		}
		sb.WriteRune(r)
		count++
	}
	return sb.String()
}

// normName is run.AgentKey, the one identity of an agent name.
var normName = run.AgentKey

// digraph builds the library graph of Digraph: the nodes, and an edge per
// joined pair carrying its typed edges. Pairs joined by the same types
// share one attributes map (a map per library edge was a tenth of what
// building it allocated), and one option sets both: the library's
// EdgeData and EdgeAttributes would be two closures per edge.
func (g *Graph) digraph() (dgraph.Graph[string, Node], error) {
	lib := dgraph.New(func(n Node) string { return n.ID }, dgraph.Directed())
	for _, nd := range g.Nodes() {
		if err := lib.AddVertex(nd); err != nil {
			return nil, fmt.Errorf("add node %s: %w", nd.ID, err)
		}
	}
	attrs := map[string]map[string]string{}
	edges := g.Edges()
	for lo := 0; lo < len(edges); {
		hi := lo + 1
		for hi < len(edges) && edges[hi].From == edges[lo].From && edges[hi].To == edges[lo].To {
			hi++
		}
		// Capped, so that nothing appended to a bundle writes into the next.
		bundle := edges[lo:hi:hi]
		types := bundleTypes(bundle)
		attr, ok := attrs[types]
		if !ok {
			attr = map[string]string{"types": types}
			attrs[types] = attr
		}
		props := func(p *dgraph.EdgeProperties) { p.Data, p.Attributes = bundle, attr }
		if err := lib.AddEdge(bundle[0].From, bundle[0].To, props); err != nil {
			return nil, fmt.Errorf("add edge %s→%s: %w", bundle[0].From, bundle[0].To, err)
		}
		lo = hi
	}
	return lib, nil
}
