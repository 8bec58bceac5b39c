package graph

// Next and member edges follow from the steps alone: step i's next edge
// goes to step i+1, and its member edges to its agent and its trial. A
// long run draws three of them a step, most of its edges, so the graph
// stores none: the queries below give them, merged into the stored edges'
// order (by source node, target node and type), as if they were stored.

// edgeKey orders the edges of one node: the node at their other end by
// position, then the type.
func edgeKey(node int, t EdgeType) uint64 { return uint64(node)<<8 | uint64(typeRank(t)) }

// implicit is one derived edge of a node: its other end, and its type.
type implicit struct {
	node int
	typ  EdgeType
}

// implicitOut returns the derived out-edges of node k, by target: a
// step's next edge and its two member edges; other nodes have none.
func (g *Graph) implicitOut(k int, buf *[3]implicit) []implicit {
	if k >= g.n {
		return nil
	}
	out := buf[:0]
	if k+1 < g.n {
		out = append(out, implicit{k + 1, Next})
	}
	return append(out,
		implicit{g.n + int(g.agentOf[k]), Member},
		implicit{g.n + len(g.agents) + g.trialOf[k], Member})
}

// implicitIn calls f with the source of each derived in-edge of node k,
// by source: a step's next edge from the step before, an agent's member
// edges from its steps, and a trial's from the steps it holds.
func (g *Graph) implicitIn(k int, f func(from int, t EdgeType) bool) bool {
	switch {
	case k < g.n:
		if k > 0 {
			return f(k-1, Next)
		}
	case k < g.n+len(g.agents):
		for _, i := range g.stepsOf[k-g.n] {
			if !f(i, Member) {
				return false
			}
		}
	default:
		t := g.trials[k-g.n-len(g.agents)]
		for i := t.Start; i <= t.End; i++ {
			if !f(i, Member) {
				return false
			}
		}
	}
	return true
}

// eachOut calls yield with node k's out-edges of the given types (all if
// none), by target node and type, until yield returns false.
func (g *Graph) eachOut(k int, types []EdgeType, yield func(Edge) bool) bool {
	var buf [3]implicit
	derived := g.implicitOut(k, &buf)
	from := g.nodes[k].ID
	stored := g.outAt[k]
	emit := func(e Edge) bool { return !wanted(e.Type, types) || yield(e) }
	for _, d := range derived {
		key := edgeKey(d.node, d.typ)
		for ; stored < g.outAt[k+1] && edgeKey(int(g.edgeTo[stored]), g.edges[stored].Type) < key; stored++ {
			if !emit(g.edges[stored]) {
				return false
			}
		}
		if !emit(Edge{From: from, To: g.nodes[d.node].ID, Type: d.typ}) {
			return false
		}
	}
	for ; stored < g.outAt[k+1]; stored++ {
		if !emit(g.edges[stored]) {
			return false
		}
	}
	return true
}

// eachIn calls yield with node k's in-edges of the given types (all if
// none), by source node and type, until yield returns false.
func (g *Graph) eachIn(k int, types []EdgeType, yield func(Edge) bool) bool {
	to := g.nodes[k].ID
	stored := g.inEdges[g.inAt[k]:g.inAt[k+1]]
	emit := func(e Edge) bool { return !wanted(e.Type, types) || yield(e) }
	derived := Member
	if k < g.n {
		derived = Next
	}
	// An agent's member edges are as many as its steps: not walked for a
	// query of other types.
	ok := !wanted(derived, types) || g.implicitIn(k, func(from int, t EdgeType) bool {
		key := edgeKey(from, t)
		for ; len(stored) > 0 && edgeKey(int(g.edgeFrom[stored[0]]), g.edges[stored[0]].Type) < key; stored = stored[1:] {
			if !emit(g.edges[stored[0]]) {
				return false
			}
		}
		return emit(Edge{From: g.nodes[from].ID, To: to, Type: t})
	})
	if !ok {
		return false
	}
	for _, p := range stored {
		if !emit(g.edges[p]) {
			return false
		}
	}
	return true
}

// implicitCounts adds the derived edges to counts of edges by type.
func (g *Graph) implicitCounts(c map[EdgeType]int) {
	if g.n > 1 {
		c[Next] += g.n - 1
	}
	if g.n > 0 {
		c[Member] += 2 * g.n
	}
}
