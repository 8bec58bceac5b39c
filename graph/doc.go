// Package graph builds the typed dependency graph of a run: one node per
// step, agent and trial, and edges that say how steps depend on each other
// (temporal order, instructions, tool observations, data flow, repetition,
// re-planning, error feedback, membership), each carrying its evidence. It
// decides only structure; which step is to blame is left to the rules, and
// what a step says (kinds, claims, signals) is left to extract.
//
// The graph is stored in a github.com/dominikbraun/graph directed graph,
// which holds a single edge per ordered pair of nodes. Two steps are often
// linked in several ways at once (step 4 is both next after and a data
// consumer of step 3), so the library edge between a pair carries, as its
// Data, the list of every typed Edge between them ([]Edge, in EdgeTypes
// order), and as its "types" attribute their names joined by commas. The
// library graph is thus a multigraph of typed edges folded into one edge
// per pair; queries filter that list by type.
package graph
