package graph

// Next and member edges follow from the steps alone: step i's next edge
// goes to step i+1, and its member edges to its agent and its trial. A
// long run draws three of them a step, most of its edges, so the graph
// stores none: the queries below give them, merged into the stored edges'
// order (by source node, target node and type), as if they were stored.

// edgeKey orders the edges of one node: the node at their other end by
// position, then the type.
func edgeKey(node int, t EdgeType) uint64 { return storedKey(node, uint8(typeRank(t))) }

// storedKey is edgeKey for a type given by its place in EdgeTypes.
func storedKey(node int, typ uint8) uint64 { return uint64(node)<<8 | uint64(typ) }

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
		implicit{g.n + len(g.agents) + int(g.trialOf[k]), Member})
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
			if !f(int(i), Member) {
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
	return g.eachOutRef(k, types, func(to int, t EdgeType, stored int) bool {
		if stored >= 0 {
			return yield(g.edgeAt(stored))
		}
		return yield(Edge{From: g.nodeID(k), To: g.nodeID(to), Type: t})
	})
}

// eachIn calls yield with node k's in-edges of the given types (all if
// none), by source node and type, until yield returns false.
func (g *Graph) eachIn(k int, types []EdgeType, yield func(Edge) bool) bool {
	return g.eachInRef(k, types, func(from int, t EdgeType, stored int) bool {
		if stored >= 0 {
			return yield(g.edgeAt(stored))
		}
		return yield(Edge{From: g.nodeID(from), To: g.nodeID(k), Type: t})
	})
}

// eachOutEnd calls f with the target of each out-edge of step i of the
// given types (all if none), by target node and type; nothing for an i
// that is not a step.
func (g *Graph) eachOutEnd(i int, types []EdgeType, f func(to int)) {
	if 0 <= i && i < g.n {
		g.eachOutRef(i, types, func(to int, _ EdgeType, _ int) bool { f(to); return true })
	}
}

// eachInEnd calls f with the source of each in-edge of step i of the
// given types (all if none), by source node and type; nothing for an i
// that is not a step.
func (g *Graph) eachInEnd(i int, types []EdgeType, f func(from int)) {
	if 0 <= i && i < g.n {
		g.eachInRef(i, types, func(from int, _ EdgeType, _ int) bool { f(from); return true })
	}
}

// edgeAt is the stored edge at position p, its ends named.
func (g *Graph) edgeAt(p int) Edge {
	e := &g.edges[p]
	var claims []string
	if e.claimN > 0 {
		claims = g.appendClaims(make([]string, 0, e.claimN), e)
	}
	var ev string
	switch {
	case e.evidence > 0:
		ev = g.evidence[e.evidence-1]
	case EdgeTypes[e.typ] == Data:
		ev = g.dataEvidence(e)
	case EdgeTypes[e.typ] == Loop:
		ev = g.loopEvidence(e)
	}
	return Edge{From: g.nodeID(int(e.from)), To: g.nodeID(int(e.to)), Type: EdgeTypes[e.typ],
		Evidence: ev, Claims: claims, Similarity: float64(e.percent) / 100}
}

// eachOutRef calls yield with the target and type of each of node k's
// out-edges of the given types (all if none), by target node and type,
// until yield returns false; stored is the edge's position in edges, or -1
// for a derived edge.
func (g *Graph) eachOutRef(k int, types []EdgeType, yield func(to int, t EdgeType, stored int) bool) bool {
	var buf [3]implicit
	derived := g.implicitOut(k, &buf)
	stored, end := int(g.outAt[k]), int(g.outAt[k+1])
	emit := func(to int, t EdgeType, p int) bool { return !wanted(t, types) || yield(to, t, p) }
	for _, d := range derived {
		key := edgeKey(d.node, d.typ)
		for ; stored < end && storedKey(int(g.edges[stored].to), g.edges[stored].typ) < key; stored++ {
			if !emit(int(g.edges[stored].to), EdgeTypes[g.edges[stored].typ], stored) {
				return false
			}
		}
		if !emit(d.node, d.typ, -1) {
			return false
		}
	}
	for ; stored < end; stored++ {
		if !emit(int(g.edges[stored].to), EdgeTypes[g.edges[stored].typ], stored) {
			return false
		}
	}
	return true
}

// eachInRef calls yield with the source and type of each of node k's
// in-edges of the given types (all if none), by source node and type,
// until yield returns false; stored is the edge's position in edges, or -1
// for a derived edge.
func (g *Graph) eachInRef(k int, types []EdgeType, yield func(from int, t EdgeType, stored int) bool) bool {
	stored := g.inEdges[g.inAt[k]:g.inAt[k+1]]
	emit := func(p int32) bool {
		e := &g.edges[p]
		t := EdgeTypes[e.typ]
		return !wanted(t, types) || yield(int(e.from), t, int(p))
	}
	derived := Member
	if k < g.n {
		derived = Next
	}
	// An agent's member edges are as many as its steps: not walked for a
	// query of other types.
	ok := !wanted(derived, types) || g.implicitIn(k, func(from int, t EdgeType) bool {
		key := edgeKey(from, t)
		for ; len(stored) > 0 && storedKey(int(g.edges[stored[0]].from), g.edges[stored[0]].typ) < key; stored = stored[1:] {
			if !emit(stored[0]) {
				return false
			}
		}
		return yield(from, t, -1)
	})
	if !ok {
		return false
	}
	for _, p := range stored {
		if !emit(p) {
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
