// Package graph builds the typed dependency graph of a run: one node per
// step, agent and trial, and edges that say how steps depend on each other
// (temporal order, instructions, tool observations, data flow, repetition,
// re-planning, error feedback, membership), each carrying its evidence. It
// decides only structure; which step is to blame is left to the rules, and
// what a step says (kinds, claims, signals) is left to extract.
//
// The graph keeps its typed edges sorted by source, target and type, with
// each node's run of out- and in-edges indexed, their ends as node
// positions; an Edge, its ends named, is made when a query returns it.
// Next and member edges, which follow from the steps' order, agents and
// trials, are not stored but given by every query in their place among the
// stored ones, and a step's node is made from its step when asked. A long
// run's steps are most of its nodes and edges. Digraph gives it as a
// github.com/dominikbraun/graph directed graph, which holds a single edge
// per ordered pair of nodes. Two steps are often linked in several ways at
// once (step 4 is both next after and a data consumer of step 3), so the
// library edge between a pair carries, as its Data, the list of every
// typed Edge between them ([]Edge, in EdgeTypes order), and as its "types"
// attribute their names joined by commas: a multigraph of typed edges
// folded into one edge per pair.
//
// # Walking the graph: the library's algorithms and the package's own
//
// Edges, OutEdges, InEdges, Successors and Predecessors read the sorted
// edges and their index: the library's AdjacencyMap and PredecessorMap copy
// its store into a map per node, a fifth of what building a graph
// allocated, and a query then had to sort what it read from them (a test
// holds the two to each other). The library graph is made on the first
// call of Digraph, not with every graph: filling its store was about a
// twentieth of a screen's time, for a graph no query walks. Digraph hands
// the library graph to callers for its algorithms.
//
// Four things stay hand-written, because the library does not fit them:
//
//   - Ancestors and Descendants follow only edges of the given types, while
//     the library's BFS and DFS follow every library edge and rebuild the
//     whole adjacency map on each call. Using them would mean a filtered
//     copy of the graph per query: O(V+E) however little the query reaches,
//     and quadratic for a rule that asks about every step. The package's
//     breadth-first walk over the stored adjacency costs what it reaches.
//   - AnswerFlow's trace is not a path of edges. Data edges join a claim's
//     first statement to each later one (a star, not a chain), and
//     ubiquitous claims draw none yet are still traced, so ShortestPath
//     would return the two ends at best. The trace reads the index of the
//     steps stating each claim, kept from building.
//   - Loop groups are the connected components of the in-trial loop edges
//     and the instructs edges among their steps, found by union–find over
//     the steps. The library's StronglyConnectedComponents, over those
//     links drawn both ways, finds the same groups, but keeps a map of maps
//     of every vertex's edges, a long run's largest cost when its every step
//     repeats the one before.
//   - Step order needs no sort: every step-to-step edge points forward in
//     time (a tested invariant), so step indices are a topological order.
//     The library's TopologicalSort would recompute it, in time quadratic
//     in the nodes (v0.23 scans every vertex after each one it emits).
//
// The edge finders (instructs, observes, feedback, trials) build the graph
// rather than walk it: they scan the steps in time order with per-agent
// indexes, linear in the run.
package graph
