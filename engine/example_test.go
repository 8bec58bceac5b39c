package engine_test

import (
	"context"
	"fmt"
	"log"

	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/run"
)

// Load a run from any supported format: here a Who&When-style log of a
// Magentic-One team.
func Example_load() {
	r, err := run.Load("../testdata/runs/magentic.json", run.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(r.Steps), "steps by", r.Agents())
	fmt.Println("step 7:", r.Steps[7].Agent, r.Steps[7].Kind)
	// Output:
	// 12 steps by [human Orchestrator WebSurfer Assistant]
	// step 7: WebSurfer message
}

// Analyse a run with the rules alone (no server, no weights to fetch) and
// read who is blamed, at which step, and how sure the rules are.
func ExampleNew() {
	analyze, err := engine.New(engine.Options{})
	if err != nil {
		log.Fatal(err)
	}
	r, err := run.Load("../testdata/runs/magentic.json", run.Options{})
	if err != nil {
		log.Fatal(err)
	}
	res, err := analyze(context.Background(), r)
	if err != nil {
		log.Fatal(err)
	}
	a := res.Attribution
	fmt.Printf("%s at step %d (%s)\n", a.Agent, a.Step, a.Mode)
	fmt.Println("triage:", a.Triage)
	// Output:
	// WebSurfer at step 7 (rules)
	// triage: review
}

// Read the evidence behind an answer: each rule that implicates the step,
// and the alternatives ranked after it.
func ExampleResult_evidence() {
	analyze, _ := engine.New(engine.Options{})
	r, _ := run.Load("../testdata/runs/magentic.json", run.Options{})
	res, err := analyze(context.Background(), r)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range res.Attribution.Evidence {
		fmt.Println(e.Rule, "at step", e.Step)
	}
	fmt.Println("runner-up: step", res.Attribution.Candidates[1].Step)
	// Output:
	// data_flow_origin at step 7
	// ground_truth_contradiction at step 7
	// premature_satisfaction at step 7
	// runner-up: step 4
}
