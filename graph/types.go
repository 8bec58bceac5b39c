package graph

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/offattr/offattr/extract"
)

// EdgeType names the relation an edge records.
type EdgeType string

const (
	// Next links each step to the one after it.
	Next EdgeType = "next"
	// Instructs links an instruction to the addressed agent's following step.
	Instructs EdgeType = "instructs"
	// Observes links a tool result to the step that consumes it.
	Observes EdgeType = "observes"
	// Data links the step where a claim first appears to a later step using it.
	Data EdgeType = "data"
	// Loop links a step to a later step by the same agent that repeats it
	// with near-identical text (see Similarity).
	Loop EdgeType = "loop"
	// Replans links a trial to the trial that re-plans after it.
	Replans EdgeType = "replans"
	// Feedback links a step raising an error signal to the planner step that
	// next has the chance to react to it.
	Feedback EdgeType = "feedback"
	// Member links a step to its agent and to its trial.
	Member EdgeType = "member"
)

// EdgeTypes lists every edge type in a fixed order, used for sorting and
// output.
var EdgeTypes = []EdgeType{Next, Instructs, Observes, Data, Loop, Replans, Feedback, Member}

// typeRank orders edge types as EdgeTypes does.
func typeRank(t EdgeType) int {
	for i, x := range EdgeTypes {
		if x == t {
			return i
		}
	}
	return len(EdgeTypes)
}

// ParseTypes reads a comma-separated list of edge types ("data,instructs");
// an empty string means every type.
func ParseTypes(s string) ([]EdgeType, error) {
	var out []EdgeType
	for _, part := range strings.Split(s, ",") {
		part = strings.ToLower(strings.TrimSpace(part))
		if part == "" {
			continue
		}
		t := EdgeType(part)
		if typeRank(t) == len(EdgeTypes) {
			return nil, fmt.Errorf("unknown edge type %q (want some of %s)", part, joinTypes(EdgeTypes))
		}
		out = append(out, t)
	}
	return out, nil
}

func joinTypes(ts []EdgeType) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}

// NodeKind says what a node stands for.
type NodeKind string

const (
	NodeStep  NodeKind = "step"
	NodeAgent NodeKind = "agent"
	NodeTrial NodeKind = "trial"
)

// Node is a vertex of the graph. IDs are short and safe in DOT, Mermaid and
// JSON alike: "s12" is step 12, "t1" trial 1, "a0" the first agent to speak.
type Node struct {
	ID   string   `json:"id"`
	Kind NodeKind `json:"kind"`
	// Index is the step index for a step, the trial index for a trial and
	// the order of first appearance for an agent.
	Index int    `json:"index"`
	Agent string `json:"agent,omitempty"` // speaker of a step, name of an agent
	// StepKind is extract's kind of a step.
	StepKind extract.StepKind `json:"step_kind,omitempty"`
	// Trial is the trial a step belongs to, a trial's own index, and -1
	// for an agent (agents act across trials).
	Trial int    `json:"trial"`
	Label string `json:"label"`
}

// Edge is one typed relation between two nodes, with the evidence that made
// the builder draw it.
type Edge struct {
	From     string   `json:"from"`
	To       string   `json:"to"`
	Type     EdgeType `json:"type"`
	Evidence string   `json:"evidence,omitempty"`
	// Claims holds the normalised claims a data edge carries.
	Claims []string `json:"claims,omitempty"`
	// Similarity is the Jaccard similarity of a loop edge's two steps.
	Similarity float64 `json:"similarity,omitempty"`
}

// edge is an edge as the graph stores it: its ends as positions in the
// graph's nodes and its type as its place in EdgeTypes. A long run stores
// about two a step; Edge, with its ends named, is made from it when a query
// asks.
type edge struct {
	from, to int32
	// A data edge's claims are claimN of the graph's edgeClaims, from
	// claimAt on.
	claimAt, claimN int32
	typ             uint8
	// percent is a loop edge's similarity in hundredths, as it is
	// reported.
	percent uint8
	// evidence is 1 + the position of the edge's evidence in the graph's
	// evidence, 0 when it has none there: a data edge's is made from its
	// claims when asked for (dataEvidence), a loop edge's from its steps'
	// texts (loopEvidence), and a string in every edge would be two
	// fifths of it.
	evidence int32
}

func stepID(i int) string  { return nodeID(stepIDs, "s", i) }
func trialID(i int) string { return nodeID(trialIDs, "t", i) }
func agentID(i int) string { return nodeID(agentIDs, "a", i) }

// The IDs of the first steps, trials and agents are formatted once: every
// edge names both its ends, and formatting them for each edge was a tenth
// of building a graph.
var (
	stepIDs  = idTable("s", 1024)
	trialIDs = idTable("t", 64)
	agentIDs = idTable("a", 64)
)

func idTable(prefix string, n int) []string {
	t := make([]string, n)
	for i := range t {
		t[i] = prefix + strconv.Itoa(i)
	}
	return t
}

// idList holds the IDs of a run's steps in one string, each ID a part of
// it: a long run's steps would each hold a string of their own, and its
// header, several times the ID's bytes.
type idList struct {
	text string
	at   []int32 // step i's ID is text[at[i]:at[i+1]]
}

// stepIDList formats the IDs of n steps, as stepID does.
func stepIDList(n int) idList { return idListOf('s', n) }

// idListOf formats the IDs of n nodes of the kind prefix names, as nodeID
// does.
func idListOf(prefix byte, n int) idList {
	var b strings.Builder
	at := make([]int32, n+1)
	var num []byte
	for i := range n {
		b.WriteByte(prefix)
		num = strconv.AppendInt(num[:0], int64(i), 10)
		b.Write(num)
		at[i+1] = int32(b.Len())
	}
	return idList{text: b.String(), at: at}
}

// id returns step i's ID.
func (l idList) id(i int) string { return l.text[l.at[i]:l.at[i+1]] }

// nodeID returns prefix followed by i in decimal, from table if it is there.
func nodeID(table []string, prefix string, i int) string {
	if 0 <= i && i < len(table) {
		return table[i]
	}
	return prefix + strconv.Itoa(i)
}

// position returns where the node named id stands in the graph's nodes,
// read from the ID itself: steps first ("s12" is the thirteenth node),
// then agents ("a0" follows the last step), then trials. A long run's
// nodes are too many to keep a map from ID to position. Only the IDs the
// graph formats are read: a prefix and a decimal index without sign or
// leading zero, within range.
func (g *Graph) position(id string) (int, bool) {
	if len(id) < 2 || len(id) > 12 || id[1] == '0' && len(id) > 2 {
		return 0, false
	}
	i := 0
	for _, c := range []byte(id[1:]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		i = 10*i + int(c-'0')
	}
	var first, count int
	switch id[0] {
	case 's':
		first, count = 0, g.n
	case 'a':
		first, count = g.n, len(g.agents)
	case 't':
		first, count = g.n+len(g.agents), len(g.trials)
	default:
		return 0, false
	}
	if i >= count {
		return 0, false
	}
	return first + i, true
}
