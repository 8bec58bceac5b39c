package rules

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
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

// TestUserTurnOnlyWhereAgentsCallTools: a conversation participant's turn
// is a user turn, which a fit may learn to blame, only in a run whose
// agents call tools by name, as a customer-service assistant's simulated
// customer is labelled. In a run without tools the participant is the
// person asking or the environment answering (a household's "You pick up
// the mug"), which no labelled system blames.
func TestUserTurnOnlyWhereAgentsCallTools(t *testing.T) {
	task := msg{agent: "user", content: "Book me a room.", kind: run.KindUser}
	user := msg{agent: "user", content: "Actually, make it two nights.", kind: run.KindUser}
	tests := []struct {
		name string
		msgs []msg
		want float64
	}{
		{"no tools", []msg{task, {agent: "assistant", content: "I booked one night for you."}, user}, 0},
		{"an environment's observation", []msg{task, {agent: "assistant", content: "take mug 1 from countertop 1"}, {agent: "user", content: "You pick up the mug 1 from the countertop 1.", kind: run.KindUser}}, 0},
		{"an assistant that calls tools", []msg{task, call(`book_room({"nights": 1})`), out(`{"status": "booked"}`), {agent: "assistant", content: "I booked one night for you."}, user}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, "Book me a room.", "", tt.msgs...)
			rows := StepRows(in, Registry, nil)
			col := structuralColumn(Registry, FeatUserTurn)
			last := rows[len(rows)-1]
			assert.Equal(t, len(tt.msgs)-1, last.Step)
			assert.Equal(t, tt.want, last.X[col])
		})
	}
}

// TestBriefQuotingCodeRunsNothing: a brief that restates the task may
// quote an earlier response's code beside its results. Unless a result
// answers for that code, the brief ran nothing and is no call; the same
// brief whose code an executor then runs is one.
func TestBriefQuotingCodeRunsNothing(t *testing.T) {
	task := "Which two cities are farthest apart?"
	brief := task + "\n\n## Results (including code blocks) from last response\nHonolulu and Quincy.\n```python\nprint(distance(a, b))\n```"
	verify := "Let me check.\n```python\nprint(farthest(cities))\n```"
	ran := "exitcode: 0 (execution succeeded)\nCode output: Braintree, Honolulu"
	tests := []struct {
		name string
		msgs []msg
		want float64
	}{
		{"no result answers the brief's code", []msg{{agent: "Planner", content: brief}, {agent: "Checker", content: verify}, {agent: "Terminal", content: ran}}, 0},
		{"an executor runs the brief's code", []msg{{agent: "Planner", content: brief}, {agent: "Terminal", content: ran}, {agent: "Checker", content: "Braintree, Honolulu."}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, task, "", tt.msgs...)
			require.True(t, in.Features.Steps[0].Has(extract.KindTask))
			rows := StepRows(in, Registry, nil)
			col := structuralColumn(Registry, FeatToolCall)
			assert.Equal(t, 0, rows[0].Step)
			assert.Equal(t, tt.want, rows[0].X[col])
		})
	}
}
