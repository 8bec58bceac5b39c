package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/offattr/offattr/run"
)

// longRun is a run of n steps among agents, each a short line of one of a
// few kinds (a search, code, its output, an answer, an instruction, an
// error), with numbers drawn at random so that values repeat now and then.
func longRun(n, agents int) *run.Run {
	rng := rand.New(rand.NewPCG(uint64(n), uint64(agents)))
	names := []string{"Orchestrator", "WebSurfer", "Coder", "ComputerTerminal", "FileSurfer", "Planner", "Verifier"}
	name := func(i int) string {
		if agents <= len(names) {
			return names[i%agents]
		}
		return fmt.Sprintf("agent_%06d", i%agents)
	}
	lines := []string{
		"Searching for %d near Main St, found %d.",
		"```python\nprint(%d*%d)\n```",
		"exitcode: 0\nCode output: %d %d",
		"The answer is %d. %d checked.",
		"Please call search(q=\"%d\") and report %d.",
		"Error: timeout fetching /x/%d/%d",
	}
	r := &run.Run{Source: fmt.Sprintf("long-%d", n), Question: "Find the number of stations open after 7 pm.", GroundTruth: "42"}
	r.Steps = append(r.Steps, run.Step{Index: 0, Agent: "human", Kind: run.KindMessage, Content: r.Question})
	for i := 1; i < n; i++ {
		text := fmt.Sprintf(lines[rng.IntN(len(lines))], rng.IntN(1000), rng.IntN(100000))
		r.Steps = append(r.Steps, run.Step{Index: i, Agent: name(i), Kind: run.KindMessage, Content: text})
	}
	return r
}

// BenchmarkAnalyzeLongRun analyses runs of growing length, and one of as
// many agents as steps: the cost per step (ns/step) should stay flat.
//
//	go test ./engine -run '^$' -bench BenchmarkAnalyzeLongRun -benchtime 1x
func BenchmarkAnalyzeLongRun(b *testing.B) {
	analyze, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range benchSizes {
		b.Run(fmt.Sprintf("steps=%d/agents=%d", size.steps, size.agents), func(b *testing.B) {
			r := longRun(size.steps, size.agents) // made for the sizes -bench selects only; b.Loop times what follows
			for b.Loop() {
				if _, err := analyze(context.Background(), r); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(size.steps), "ns/step")
		})
	}
}

var benchSizes = []struct{ steps, agents int }{{10_000, 7}, {100_000, 7}, {1_000_000, 7}, {100_000, 100_000}}
