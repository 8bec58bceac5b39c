package graph

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

// st describes one step of a hand-built run.
type st struct {
	agent  string
	kinds  []extract.StepKind
	text   string
	target string
	claims []string
	errs   []extract.Signal
	call   string // tool call ID this step issues
	result string // tool call ID this step answers
}

const (
	plan    = extract.KindPlan
	replan  = extract.KindReplan
	ledger  = extract.KindLedger
	instr   = extract.KindInstruction
	call    = extract.KindToolCall
	result  = extract.KindToolResult
	thought = extract.KindThought
	answer  = extract.KindAnswer
	final   = extract.KindFinalAnswer
	task    = extract.KindTask
	msg     = extract.KindMessage
)

// mkRun builds a run and the features extract would give it.
func mkRun(question string, qclaims []string, steps ...st) (*run.Run, *extract.RunFeatures) {
	r := &run.Run{Source: "test", Question: question}
	f := &extract.RunFeatures{}
	for _, c := range qclaims {
		f.Question = append(f.Question, extract.Claim{Kind: extract.ClaimNumber, Text: c, Norm: c})
	}
	for i, s := range steps {
		text := s.text
		if text == "" {
			text = fmt.Sprintf("step %d by %s", i, s.agent)
		}
		rs := run.Step{Index: i, Agent: s.agent, Kind: run.KindMessage, Content: text, Extra: &run.Extra{ToolCallID: s.result}}
		if s.call != "" {
			rs.Edit().ToolCalls = []run.ToolCall{{ID: s.call, Name: "f"}}
		}
		r.Steps = append(r.Steps, rs)
		kinds := s.kinds
		if len(kinds) == 0 {
			kinds = []extract.StepKind{msg}
		}
		ft := extract.Features{Index: int32(i), Kind: kinds[0], Kinds: extract.KindsOf(kinds...), Details: &extract.Details{Rare: &extract.Rare{Target: s.target}, Errors: s.errs}}
		for _, c := range s.claims {
			ft.Claims = append(ft.Claims, extract.Claim{Kind: extract.ClaimNumber, Text: c, Norm: c})
		}
		f.Steps = append(f.Steps, ft)
	}
	extract.AssignCallers(r, f)
	return r, f
}

// buildRun builds the graph of a hand-built run.
func buildRun(t testing.TB, question string, qclaims []string, steps ...st) *Graph {
	t.Helper()
	r, f := mkRun(question, qclaims, steps...)
	return mustGraph(t, r, f)
}

// edgeStrings renders edges as "s2->s3 instructs" for exact comparison.
func edgeStrings(edges []Edge) []string {
	out := []string{}
	for _, e := range edges {
		out = append(out, fmt.Sprintf("%s->%s %s", e.From, e.To, e.Type))
	}
	return out
}

func mustGraph(t testing.TB, r *run.Run, f *extract.RunFeatures) *Graph {
	t.Helper()
	g, err := Build(r, f)
	require.NoError(t, err)
	return g
}
