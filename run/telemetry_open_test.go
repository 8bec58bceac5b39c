package run

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestOpenCallsReadByAgent: whether an agent has a call open, and which
// is its oldest, are read from its own open calls, not from every call
// of the trace answered or not; the answers are as before. That a long
// trace of many calls and many turns is read in a time that grows with
// its length is BenchmarkOpenCallsReadByAgent's to show.
func TestOpenCallsReadByAgent(t *testing.T) {
	const n = 200
	b, lead, worker := answeredCalls(n)
	for range n {
		assert.Empty(t, b.caller(worker))
	}
	b.call(b.steps[n].step.ToolCalls()[0], "lead", n, 0)
	b.call(b.steps[n].step.ToolCalls()[1], "lead", n, 1)
	for range n {
		assert.Equal(t, "lead", b.caller(worker))
		assert.Nil(t, b.oldestOpen("other", func(string) bool { return true }))
	}
	assert.Equal(t, "l1", b.oldestOpen(lead.owner, func(string) bool { return true }).id)
	b.answer("l1")
	assert.Equal(t, "l2", b.oldestOpen(lead.owner, func(string) bool { return true }).id)
	b.answer("l2")
	assert.Empty(t, b.caller(worker))
	assert.Nil(t, b.oldestOpen(lead.owner, func(string) bool { return true }))
}

// BenchmarkOpenCallsReadByAgent asks, as many times as a trace has
// calls, whether a worker's lead has a call open and which is another
// agent's oldest, after 20000 calls answered.
func BenchmarkOpenCallsReadByAgent(b *testing.B) {
	const n = 20000
	for b.Loop() {
		bd, _, worker := answeredCalls(n)
		for range n {
			_ = bd.caller(worker)
		}
		bd.call(bd.steps[n].step.ToolCalls()[0], "lead", n, 0)
		bd.call(bd.steps[n].step.ToolCalls()[1], "lead", n, 1)
		for range n {
			_ = bd.caller(worker)
			_ = bd.oldestOpen("other", func(string) bool { return true })
		}
	}
}

// answeredCalls is a builder that has read n calls of an agent other,
// each answered, and a step of lead's with two calls not yet read; worker
// is lead's worker.
func answeredCalls(n int) (b *builder, lead, worker *node) {
	b = &builder{callsByID: map[string]*openCall{}, callsByName: map[string][]*openCall{}, openOf: map[string][]*openCall{}, openCount: map[string]int{}}
	for k := range n {
		b.steps = append(b.steps, pending{step: Step{Agent: "other", Extra: &Extra{ToolCalls: []ToolCall{{ID: "o" + strconv.Itoa(k), Name: "tool_" + strconv.Itoa(k), Arguments: "{}"}}}}})
		b.call(b.steps[k].step.ToolCalls()[0], "other", k, 0)
		b.answer("o" + strconv.Itoa(k))
	}
	lead = &node{owner: "lead"}
	worker = &node{owner: "worker", scope: &node{owner: "worker", parent: lead}}
	b.steps = append(b.steps, pending{step: Step{Agent: "lead", Extra: &Extra{ToolCalls: []ToolCall{{ID: "l1", Name: "ask_worker", Arguments: `{"q": "a"}`}, {ID: "l2", Name: "ask_worker", Arguments: `{"q": "b"}`}}}}})
	return b, lead, worker
}
