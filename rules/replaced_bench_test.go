package rules

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/run"
)

// placeName is a made-up name of a place, one for each n.
func placeName(n int) string {
	syl := []string{"var", "mel", "dor", "ast", "quin", "bel", "tor", "sel", "vin", "rak"}
	var b strings.Builder
	for k := 0; k < 3 || n > 0; k++ {
		b.WriteString(syl[n%len(syl)])
		n /= len(syl)
	}
	s := b.String()
	return strings.ToUpper(s[:1]) + s[1:]
}

// replanRun is a team's run of rounds re-plans, each naming names places
// no step before it named, which the round's search then finds beside
// names of its own: every re-plan is one replacedFound reads in full.
func replanRun(b *testing.B, rounds, names int) *Input {
	b.Helper()
	q := "What is the driving distance between the birthplaces of the two composers?"
	r := &run.Run{Source: "bench.json", Question: q}
	add := func(agent, content string, kind run.Kind, target string) {
		r.Steps = append(r.Steps, run.Step{Index: len(r.Steps), Agent: agent, Kind: kind, Content: content, Extra: &run.Extra{Target: target}})
	}
	add("human", q, run.KindUser, "")
	for k := range rounds {
		var planned, found []string
		for j := range names {
			planned = append(planned, placeName(k*2*names+j))
			found = append(found, placeName(k*2*names+names+j))
		}
		add("Orchestrator", "New plan:\n\n1. GIVEN OR VERIFIED FACTS\n- The composer was born in "+strings.Join(planned, ", in ")+".\n\nHere is the plan:\n- WebSurfer gets the distance from "+planned[0]+" to "+found[0]+".", run.KindThought, "")
		add("Orchestrator", "Please get the driving distance from "+found[0]+" to "+planned[0]+".", run.KindInstruction, "WebSurfer")
		add("WebSurfer", "I typed '"+planned[0]+" route'.\n\nResults: "+strings.Join(found, ", ")+" and "+strings.Join(planned, ", ")+".", run.KindToolResult, "")
		add("Orchestrator", "Please get the driving distance from "+found[0]+" to "+found[1]+".", run.KindInstruction, "WebSurfer")
	}
	add("Orchestrator", "FINAL ANSWER: 922", run.KindMessage, "")
	f := extract.Run(r)
	g, err := graph.Build(r, f)
	require.NoError(b, err)
	return &Input{Run: r, Features: f, Graph: g}
}

// BenchmarkReplacedFound reads every step of long runs of re-plans as
// the claims rule does, and the data flow's look back from the answer.
func BenchmarkReplacedFound(b *testing.B) {
	for _, size := range []struct {
		name          string
		rounds, names int
	}{{"rounds=100", 100, 10}, {"rounds=200", 200, 10}, {"rounds=400", 400, 10}} {
		b.Run(size.name, func(b *testing.B) {
			in := replanRun(b, size.rounds, size.names)
			for b.Loop() {
				in.releaseSupport()
				for i := range in.Features.Steps {
					replacedFound(in, i)
				}
				replacedUnder(in, len(in.Features.Steps)-1)
			}
		})
	}
}
