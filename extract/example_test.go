package extract_test

import (
	"fmt"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

// Read the facts of a run's steps: what each step is, and where a later
// step says an earlier result is wrong.
func ExampleRun() {
	r := &run.Run{Question: "What is 2+2?", Steps: []run.Step{
		{Index: 0, Agent: "user", Kind: run.KindUser, Content: "What is 2+2?"},
		{Index: 1, Agent: "Solver", Content: "The answer is 5."},
		{Index: 2, Agent: "Checker", Content: "That is wrong: 2+2 is 4."},
	}}
	rf := extract.Run(r)
	for i, f := range rf.Steps {
		fmt.Println(f.Index, r.Steps[i].Agent, f.Kinds)
	}
	c := rf.Steps[2].Critique
	fmt.Printf("critique: %q\n", r.Steps[2].Content[c.Offset:c.Offset+c.Len])
	fmt.Println("final answer:", rf.FinalAnswer.Text, "at step", rf.FinalAnswer.Step)
	// Output:
	// 0 user [task]
	// 1 Solver [answer]
	// 2 Checker [message]
	// critique: "is wrong"
	// final answer: 5 at step 1
}
