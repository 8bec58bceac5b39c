package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestRetryOfAFailedCall: an agent that tells of the failed result before
// it and makes the call again, meeting the same failure, takes in the
// tool's failure; it is no part it could not do, and the answer it makes
// up after is the fault. One whose call then runs, or that answers, still
// reports its own failure.
func TestRetryOfAFailedCall(t *testing.T) {
	const task = "What was the winning time of the 2023 Stockholm Marathon men's race?"
	call := func(q string) run.Step {
		args := `{"query": "` + q + `"}`
		return run.Step{Agent: "assistant", Kind: run.KindToolCall, Content: "Action: search\nAction Input: " + args,
			Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: "search", Arguments: args}}}}
	}
	failed := run.Step{Agent: "assistant", Kind: run.KindToolResult, Content: "HTTPError('432 Client Error: Usage limit exceeded for url: https://api.example.com/search')"}
	for _, tc := range []struct {
		name      string
		second    string // the retry's result
		blamed    bool   // local_fault names the retry
		attribute int
	}{
		{"the retry meets the same failure", failed.Content, false, 5},
		{"the retry runs", "Stockholm Marathon 2023: men's winner in 2:16:51.", true, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			retry := call("Stockholm Marathon 2023 results")
			retry.Content = "Thought: The search failed, I will try again with a shorter query.\n" + retry.Content
			r := &run.Run{Source: "test.json", Question: task, GroundTruth: "2:16:51", Steps: []run.Step{
				{Agent: "user", Kind: run.KindUser, Content: task},
				call("2023 Stockholm Marathon men's winner time"),
				failed,
				retry,
				{Agent: "assistant", Kind: run.KindToolResult, Content: tc.second},
				{Agent: "assistant", Kind: run.KindMessage, Content: "The men's race was won in 2:14:37."},
			}}
			in := inputOf(t, r)
			if tc.blamed {
				assert.Contains(t, steps(LocalFault.Run(in), true), 3)
				return
			}
			assert.NotContains(t, steps(LocalFault.Run(in), true), 3)
			assert.NotContains(t, steps(TrialFirstFault.Run(in), true), 3)
			assert.Equal(t, tc.attribute, attribute(t, r).Step)
		})
	}
}
