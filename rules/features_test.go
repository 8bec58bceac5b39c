package rules

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

func TestFindingsByStepKeepOrderWithinAStep(t *testing.T) {
	findings := []Finding{{Step: 2}, {Step: 0}, {Step: 2}, {Step: 5}, {Step: -1}, {Step: 0}, {Step: 3}}
	at := findingsByStep(findings, 4)
	tests := []struct {
		step int
		want []int32
	}{
		{0, []int32{1, 5}},
		{1, []int32{}},
		{2, []int32{0, 2}},
		{3, []int32{6}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, at.of(tt.step), "step %d", tt.step)
	}
}

func TestVectorSetSharesEqualBitsOnly(t *testing.T) {
	s := newVectorSet()
	v := []float64{0, 1, 0.5}
	a := s.intern(v)
	v[1] = 2 // the caller reuses its slice
	b := s.intern(v)
	assert.Equal(t, []float64{0, 1, 0.5}, a, "a kept vector is a copy")
	assert.Equal(t, []float64{0, 2, 0.5}, b)
	assert.Same(t, &a[0], &s.intern([]float64{0, 1, 0.5})[0], "equal vectors share")
	neg := s.intern([]float64{math.Copysign(0, -1), 1, 0.5})
	assert.NotSame(t, &a[0], &neg[0], "-0 and 0 differ in their bits")
	assert.True(t, math.Signbit(neg[0]))
}

// TestCodeIsACallWhereSomethingRunsIt: code in a message is a call only in
// a run with tools: some step calls one by name, or reports what a call or
// program printed (a code executor's output). In a team that hands its
// code on to be read, the code is a document its writer delivers.
func TestCodeIsACallWhereSomethingRunsIt(t *testing.T) {
	code := "## Code: tax.py\n```python\nTAX_RATE = 0.17\n```"
	tests := []struct {
		name string
		msgs []msg
		want float64
	}{
		{"nothing runs it", []msg{{agent: "Engineer", content: code}, {agent: "Reviewer", content: "The module is complete."}}, 0},
		{"an executor runs it", []msg{{agent: "Engineer", content: code}, {agent: "Terminal", content: "exitcode: 0 (execution succeeded)\nCode output: "}}, 1},
		{"an agent with tools writes it, its output untraced", []msg{{agent: "Engineer", content: code}, {agent: "Engineer", content: `final_answer({"answer": 234})`}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, "Apply a 7% tax.", "", tt.msgs...)
			rows := StepRows(in, Registry, nil)
			col := structuralColumn(Registry, FeatToolCall)
			assert.Equal(t, 0, rows[0].Step)
			assert.Equal(t, tt.want, rows[0].X[col])
		})
	}
}

// TestUserTurnOnlyWithTools: a user's later turn is a feature of its own
// in runs whose agents call tools, where the labelled runs show simulated
// users err; in a chat without tools it is a turn like any other.
func TestUserTurnOnlyWithTools(t *testing.T) {
	tests := []struct {
		name string
		msgs []msg
		want float64
	}{
		{"a chat without tools", []msg{
			{agent: "user", content: "Plan three vegetarian dinners, no peanuts.", kind: run.KindUser},
			{agent: "assistant", content: "Night 1: pad thai with crushed peanuts."},
			{agent: "user", content: "And a shopping list?", kind: run.KindUser},
			{agent: "assistant", content: "Rice noodles, tofu, peanuts."}}, 0},
		{"an assistant with tools", []msg{
			{agent: "user", content: "Cancel order #W123.", kind: run.KindUser},
			{agent: "assistant", content: `cancel_order({"order_id": "#W123"})`, kind: run.KindToolCall},
			{agent: "user", content: "Thanks, that's all.", kind: run.KindUser}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, tt.msgs[0].content, "", tt.msgs...)
			col := structuralColumn(Registry, FeatUserTurn)
			rows := StepRows(in, Registry, nil)
			last := rows[len(rows)-1]
			assert.Equal(t, len(tt.msgs)-1, last.Step)
			assert.Equal(t, tt.want, last.X[col])
		})
	}
}
