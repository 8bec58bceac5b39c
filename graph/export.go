package graph

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/offattr/offattr/internal/escape"
)

// view is the part of the graph an export shows: the edges of the chosen
// types, every step, and the agent and trial nodes those edges touch.
func (g *Graph) view(types []EdgeType) ([]Node, []Edge) {
	edges := g.Edges(types...)
	touched := map[string]bool{}
	for _, e := range edges {
		touched[e.From], touched[e.To] = true, true
	}
	nodes := make([]Node, 0, g.nodeCount())
	for k := range g.nodeCount() {
		if k < g.n || touched[g.nodeID(k)] {
			nodes = append(nodes, g.node(k))
		}
	}
	return nodes, edges
}

// WriteJSON writes {"nodes": [...], "edges": [...]} with the edges of the
// given types (all if none); each edge has from, to, type and its evidence.
func (g *Graph) WriteJSON(w io.Writer, types ...EdgeType) error {
	nodes, edges := g.view(types)
	if edges == nil {
		edges = []Edge{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(struct {
		Nodes []Node `json:"nodes"`
		Edges []Edge `json:"edges"`
	}{nodes, edges}); err != nil {
		return fmt.Errorf("write graph JSON: %w", err)
	}
	return nil
}

// edgeColor tells edge types apart in DOT.
var edgeColor = map[EdgeType]string{
	Next: "gray60", Instructs: "blue", Observes: "darkgreen", Data: "darkorange",
	Loop: "red", Replans: "purple", Feedback: "brown", Member: "gray85",
}

// Timeline geometry of WriteDOT, in points.
const (
	dotRow      = 44  // between consecutive steps
	dotColumn   = 230 // between agents' lanes
	dotZigzag   = 30  // sideways shift of steps within a lane
	dotTrialX   = 80  // the trials' lane
	dotFirstCol = 260 // the first agent's lane
)

// WriteDOT writes a Graphviz digraph with the edges of the given types (all
// if none), laid out as a timeline: one lane per agent, one row per step,
// trials in a lane of their own. Positions are pinned and edges straight
// (layout=neato, splines=line in the file), because dot's own hierarchical
// layout takes minutes on a 100-step run whose member edges converge on a
// few agents and whose data edges span the run; pinned, `dot -Tsvg` renders
// any run in well under a second. Steps zigzag within their lane so that
// edges between one agent's steps do not hide behind each other. Labels and
// tooltips are quoted and escaped.
func (g *Graph) WriteDOT(w io.Writer, types ...EdgeType) error {
	nodes, edges := g.view(types)
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "digraph run {")
	fmt.Fprintln(bw, `  graph [layout=neato, inputscale=72, splines=line, outputorder=edgesfirst, fontname="Helvetica"];`)
	fmt.Fprintln(bw, `  node [fontname="Helvetica", fontsize=10, style=filled, fillcolor=white];`)
	fmt.Fprintln(bw, `  edge [fontname="Helvetica", fontsize=7, arrowsize=0.6];`)
	for _, nd := range nodes {
		x, y := g.dotPosition(nd)
		shape := map[NodeKind]string{NodeStep: "box", NodeAgent: "ellipse", NodeTrial: "hexagon"}[nd.Kind]
		fmt.Fprintf(bw, "  %s [label=%s, shape=%s, pos=\"%d,%d!\"];\n", nd.ID, dotString(nd.Label), shape, x, y)
	}
	for _, e := range edges {
		label := string(e.Type)
		if e.Type == Member {
			label = "" // many and gray: a label on each would bury the rest
		}
		fmt.Fprintf(bw, "  %s -> %s [label=%s, color=%s, fontcolor=%s", e.From, e.To, dotString(label), edgeColor[e.Type], edgeColor[e.Type])
		if e.Evidence != "" {
			fmt.Fprintf(bw, ", tooltip=%s", dotString(e.Evidence))
		}
		if e.Type == Data || e.Type == Loop || e.Type == Feedback {
			fmt.Fprint(bw, ", style=dashed")
		}
		fmt.Fprintln(bw, "];")
	}
	fmt.Fprintln(bw, "}")
	return flush(bw, "DOT")
}

// dotPosition places a node on the timeline: agents head their lanes, steps
// go down their agent's lane, trials sit in their own lane at their first
// step.
func (g *Graph) dotPosition(nd Node) (x, y int) {
	lane := func(agent string) int { return dotFirstCol + g.agentIdx[normName(agent)]*dotColumn }
	switch nd.Kind {
	case NodeAgent:
		return lane(nd.Agent), 0
	case NodeTrial:
		return dotTrialX, -(g.trials[nd.Index].Start + 1) * dotRow
	default:
		return lane(nd.Agent) + (nd.Index%3-1)*dotZigzag, -(nd.Index + 1) * dotRow
	}
}

// dotString quotes s as a DOT string. Backslashes are doubled so that
// Graphviz's own escapes (\l, \N, \G) never fire.
func dotString(s string) string {
	return quoted(s, func(r rune) string {
		if r == '"' || r == '\\' {
			return "\\" + string(r)
		}
		return ""
	})
}

// WriteMermaid writes a Mermaid flowchart with the edges of the given types
// (all if none). Node IDs are the graph's own (s12, a0, t1), which are
// always safe; labels are quoted with Mermaid's entity codes for the
// characters that would end or break them.
func (g *Graph) WriteMermaid(w io.Writer, types ...EdgeType) error {
	nodes, edges := g.view(types)
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "flowchart TD")
	for _, nd := range nodes {
		open, closing := "[", "]"
		switch nd.Kind {
		case NodeAgent:
			open, closing = "([", "])"
		case NodeTrial:
			open, closing = "{{", "}}"
		}
		fmt.Fprintf(bw, "  %s%s%s%s\n", nd.ID, open, mermaidString(nd.Label), closing)
	}
	for _, e := range edges {
		arrow := "-->"
		switch e.Type {
		case Data, Loop, Feedback:
			arrow = "-.->"
		case Member:
			arrow = "---"
		}
		fmt.Fprintf(bw, "  %s %s|%s| %s\n", e.From, arrow, mermaidString(string(e.Type)), e.To)
	}
	return flush(bw, "Mermaid")
}

// mermaidString quotes s for a Mermaid label. Inside quotes Mermaid reads
// "#name;" as an entity, so '#' itself and the characters that could close
// the label or open markup are written as numeric entities, and so is '%':
// Mermaid reads a directive (%%{init: ...}%%, which sets the diagram's
// configuration, its CSS among it) anywhere in the text, quotes or not.
func mermaidString(s string) string {
	return quoted(s, func(r rune) string {
		switch r {
		case '"', '#', '<', '>', '&', '|', '`', '%':
			return fmt.Sprintf("#%d;", r)
		}
		return ""
	})
}

// quoted wraps s in double quotes, replacing each rune for which esc returns
// a non-empty string, and control characters (escape.Unsafe: C0, C1,
// bidirectional controls) with spaces (labels are one line, and the text
// is often read in a terminal).
func quoted(s string, esc func(rune) string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for _, r := range s {
		if e := esc(r); e != "" {
			sb.WriteString(e)
		} else if escape.Unsafe(r) {
			sb.WriteByte(' ')
		} else {
			sb.WriteRune(r)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

// flush ends a buffered export, naming the format in its error.
func flush(bw *bufio.Writer, format string) error {
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write graph %s: %w", format, err)
	}
	return nil
}
