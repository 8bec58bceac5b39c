package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
)

// The dependency graph around the blamed step is drawn by this package, not
// by Graphviz: a page must not depend on what is installed, and a layout of
// our own needs no sanitising of a tool's SVG. It is a layered layout in
// which time gives the layers: one row per shown step, in step order (every
// step-to-step edge points forward in time, so each edge runs downwards),
// and one lane per agent, as `offattr graph --format dot` draws it.

// maxGraphSteps bounds the steps drawn, so a long run's graph stays a
// figure rather than a second timeline.
const maxGraphSteps = 24

// Geometry, in SVG user units (CSS pixels at 100 %).
const (
	laneW   = 176
	nodeW   = 140
	nodeH   = 38
	rowH    = 62
	padTop  = 44
	padLeft = 12
	// padRight leaves room for the arcs that join steps of one lane.
	padRight = 64
)

// graphTypes are the edges drawn between the shown steps: the relations a
// reader follows to see how a fault travelled. next and member would only
// restate the layout.
var graphTypes = []graph.EdgeType{graph.Instructs, graph.Observes, graph.Data, graph.Feedback, graph.Loop}

// flowEdge is the type of the edges drawn from the final answer's data-flow
// trace (graph.AnswerFlow), which is not a path of graph edges.
const flowEdge = "flow"

type svgGraph struct {
	Width, Height int
	Lanes         []svgLane
	Nodes         []svgNode
	Edges         []svgEdge
	Gaps          []svgGap
	Types         []string // edge types present, for the legend
	Omitted       int      // steps left out by maxGraphSteps
}

type svgLane struct {
	X     int // centre
	Agent string
	Class string
}

type svgNode struct {
	Step   int
	X, Y   int // top left
	Agent  string
	Class  string
	Kind   string
	Blamed bool
	Answer bool
	Origin bool
	TextX  int
	TextY  int
	KindY  int
}

type svgEdge struct {
	Type  string
	Path  string // numbers and SVG path commands only
	Title string
}

type svgGap struct {
	X, Y int
	Text string
}

// layoutGraph chooses the steps around the blamed one and places them. The
// steps, in order of priority until maxGraphSteps: the blamed step, the
// final answer, every step on the answer's data-flow trace back to its
// origins, the blamed step's neighbours over the drawn edge types, and the
// next two candidates. The edges are the answer's trace and the blamed
// step's own.
func layoutGraph(g *graph.Graph, r *run.Run, agents *agentSet, blamed int, cands []rules.Candidate) svgGraph {
	n := len(r.Steps)
	chosen := map[int]bool{}
	var want []int
	add := func(is ...int) {
		for _, i := range is {
			if i >= 0 && i < n && !chosen[i] {
				want = append(want, i)
				chosen[i] = true
			}
		}
	}
	add(blamed, g.AnswerStep())
	flows := g.AnswerFlow()
	for _, f := range flows {
		add(f.Path...)
	}
	if blamed >= 0 {
		add(g.Predecessors(blamed, graphTypes...)...)
		add(g.Successors(blamed, graphTypes...)...)
	}
	for k := 1; k < len(cands) && k < 3; k++ {
		add(cands[k].Step)
	}
	var out svgGraph
	if len(want) > maxGraphSteps {
		out.Omitted = len(want) - maxGraphSteps
		want = want[:maxGraphSteps]
	}
	if len(want) == 0 {
		return out
	}
	shown := map[int]bool{}
	for _, i := range want {
		shown[i] = true
	}
	rows := append([]int(nil), want...)
	sort.Ints(rows)

	lane := map[string]int{}
	for _, i := range rows {
		k := agentKey(r.Steps[i].Agent)
		if _, ok := lane[k]; !ok {
			lane[k] = len(out.Lanes)
			out.Lanes = append(out.Lanes, svgLane{X: padLeft + len(out.Lanes)*laneW + nodeW/2,
				Agent: excerpt(clean(r.Steps[i].Agent), 20), Class: agents.class(r.Steps[i].Agent)})
		}
	}
	out.Width = padLeft + len(out.Lanes)*laneW - (laneW - nodeW) + padRight
	out.Height = padTop + len(rows)*rowH

	pos := map[int]svgNode{}
	flowOrigin := map[int]bool{}
	for _, f := range flows {
		if f.Origin >= 0 {
			flowOrigin[f.Origin] = true
		}
	}
	for row, i := range rows {
		s := r.Steps[i]
		x := padLeft + lane[agentKey(s.Agent)]*laneW
		y := padTop + row*rowH
		nd := svgNode{Step: i, X: x, Y: y, Agent: excerpt(clean(s.Agent), 16), Class: agents.class(s.Agent),
			Kind: excerpt(clean(g.StepNode(i).StepKind.String()), 18), Blamed: i == blamed,
			Answer: i == g.AnswerStep(), Origin: flowOrigin[i], TextX: x + 8, TextY: y + 16, KindY: y + 31}
		out.Nodes = append(out.Nodes, nd)
		pos[i] = nd
		if row > 0 && rows[row-1] < i-1 {
			out.Gaps = append(out.Gaps, svgGap{X: padLeft, Y: y - (rowH-nodeH)/2 + 4, Text: gapText(i - rows[row-1] - 1)})
		}
	}

	type pair struct {
		from, to int
		typ      string
	}
	titles := map[pair][]string{}
	var order []pair
	addEdge := func(p pair, title string) {
		if _, ok := titles[p]; !ok {
			order = append(order, p)
		}
		if title != "" {
			titles[p] = append(titles[p], title)
		}
	}
	for _, e := range g.Edges(graphTypes...) {
		from, ok1 := stepIndex(g, e.From)
		to, ok2 := stepIndex(g, e.To)
		// Only the blamed step's own relations are drawn besides the
		// answer's trace: among the other steps they would bury both.
		if ok1 && ok2 && shown[from] && shown[to] && from != to && (from == blamed || to == blamed) {
			addEdge(pair{from, to, string(e.Type)}, excerpt(clean(e.Evidence), 120))
		}
	}
	for _, f := range flows {
		for k := 0; k+1 < len(f.Path); k++ {
			later, earlier := f.Path[k], f.Path[k+1]
			if shown[later] && shown[earlier] && later != earlier {
				addEdge(pair{earlier, later, flowEdge}, "answer value "+excerpt(clean(f.Text), 60))
			}
		}
	}
	// Edges joining the same two steps are spread apart so that each stays
	// visible; parallel is the rank of an edge among its pair's.
	parallel := map[[2]int]int{}
	types := map[string]bool{}
	for _, p := range order {
		k := parallel[[2]int{p.from, p.to}]
		parallel[[2]int{p.from, p.to}]++
		types[p.typ] = true
		out.Edges = append(out.Edges, svgEdge{Type: p.typ, Path: edgePath(pos[p.from], pos[p.to], k),
			Title: fmt.Sprintf("%s: step %d → step %d %s", p.typ, p.from, p.to, strings.Join(titles[p], "; "))})
	}
	for _, t := range append([]string{flowEdge}, edgeTypeNames()...) {
		if types[t] {
			out.Types = append(out.Types, t)
		}
	}
	return out
}

func gapText(n int) string {
	if n == 1 {
		return "⋮ 1 step"
	}
	return fmt.Sprintf("⋮ %d steps", n)
}

func edgeTypeNames() []string {
	s := make([]string, len(graphTypes))
	for i, t := range graphTypes {
		s[i] = string(t)
	}
	return s
}

// stepIndex returns the step a node ID stands for.
func stepIndex(g *graph.Graph, id string) (int, bool) {
	nd, ok := g.Node(id)
	if !ok || nd.Kind != graph.NodeStep {
		return 0, false
	}
	return nd.Index, true
}

// edgePath draws an edge from an earlier step a down to a later step b: an
// S-curve between lanes, an arc out to the right within a lane (so that it
// passes beside the steps between, not through them), a straight drop
// between neighbours of one lane. k, the edge's rank among those joining
// the same two steps, shifts it sideways.
func edgePath(a, b svgNode, k int) string {
	shift := 6 * k
	if a.X == b.X {
		if b.Y-a.Y == rowH {
			x := a.X + nodeW/2 - 10 + shift
			return fmt.Sprintf("M%d %d L%d %d", x, a.Y+nodeH, x, b.Y)
		}
		x := a.X + nodeW
		bulge := min(18+3*(b.Y-a.Y)/rowH, padRight-8) + shift
		return fmt.Sprintf("M%d %d C%d %d %d %d %d %d", x, a.Y+nodeH/2, x+bulge, a.Y+nodeH/2, x+bulge, b.Y+nodeH/2, x, b.Y+nodeH/2)
	}
	x1, y1 := a.X+nodeW/2+shift, a.Y+nodeH
	x2, y2 := b.X+nodeW/2+shift, b.Y
	mid := (y1 + y2) / 2
	return fmt.Sprintf("M%d %d C%d %d %d %d %d %d", x1, y1, x1, mid, x2, mid, x2, y2)
}
