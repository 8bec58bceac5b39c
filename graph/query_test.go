package graph

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
)

// loopRun is a planner repeating an instruction and an executor repeating
// its report, then a change of strategy.
func loopRun(t *testing.T) *Graph {
	return buildRun(t, "", nil,
		st{agent: "O", kinds: []extract.StepKind{plan}, text: "Plan: find the August 2015 picture in the archive"},
		st{agent: "O", kinds: []extract.StepKind{instr}, target: "S", text: "Please search the Astronomy Picture archive for the first week of August 2015 and identify the city"},
		st{agent: "S", text: "I searched the archive and found nothing useful on the first page of results today"},
		st{agent: "O", kinds: []extract.StepKind{instr}, target: "S", text: "Please search the Astronomy Picture archive for the first week of August 2015 and identify the city shown"},
		st{agent: "S", text: "I searched the archive and found nothing useful on the first page of results today."},
		st{agent: "O", kinds: []extract.StepKind{instr}, target: "S", text: "Open the calendar view instead and navigate directly to 2015 August 3"},
		st{agent: "S", text: "The calendar shows a photo of Marquette, Michigan with lights on the horizon"},
	)
}

func TestLoopGroups(t *testing.T) {
	g := loopRun(t)
	want := []LoopGroup{{Trial: 0, Steps: []int{1, 2, 3, 4}, Planner: []int{1, 3}, Executor: []int{2, 4}}}
	assert.Equal(t, want, g.LoopGroups())

	lg, ok := g.LoopGroupOf(4)
	require.True(t, ok)
	assert.Equal(t, want[0], lg)
	_, ok = g.LoopGroupOf(6)
	assert.False(t, ok)

	loops := g.Edges(Loop)
	require.Len(t, loops, 2)
	assert.Equal(t, "jaccard 0.91; new: shown", loops[0].Evidence)
	assert.Equal(t, 0.91, loops[0].Similarity)
	assert.Equal(t, "jaccard 1.00", loops[1].Evidence)
}

// The library's component search loses a vertex keyed by a zero value;
// step 0 must still be grouped.
func TestLoopGroupFromStepZero(t *testing.T) {
	same := "I searched the archive and found nothing useful on the first page"
	g := buildRun(t, "", nil, st{agent: "S", text: same}, st{agent: "O"}, st{agent: "S", text: same}, st{agent: "S", text: same})
	assert.Equal(t, []LoopGroup{{Trial: 0, Steps: []int{0, 2, 3}, Planner: []int{}, Executor: []int{0, 2, 3}}}, g.LoopGroups())
}

func TestLoopGroupsStopAtTrialBoundaries(t *testing.T) {
	same := "Please search the Astronomy Picture archive for the first week of August 2015"
	g := buildRun(t, "", nil,
		st{agent: "O", kinds: []extract.StepKind{plan}, text: "Plan: search the archive for the August 2015 picture"},
		st{agent: "O", kinds: []extract.StepKind{instr}, target: "S", text: same},
		st{agent: "S"},
		st{agent: "O", kinds: []extract.StepKind{replan}, text: "Plan: search the archive for the August 2015 picture again"},
		st{agent: "O", kinds: []extract.StepKind{instr}, target: "S", text: same},
		st{agent: "S"},
	)
	assert.Equal(t, []string{"s0->s3 loop", "s1->s4 loop"}, edgeStrings(g.Edges(Loop)))
	assert.Empty(t, g.LoopGroups(), "repeats across a re-plan are edges, not groups")
}

func TestAnswerFlow(t *testing.T) {
	g := buildRun(t, "What will a family of 4 pay?", []string{"4"},
		st{agent: "A", claims: []string{"20"}},
		st{agent: "B", claims: []string{"18"}},
		st{agent: "C", claims: []string{"20", "18", "38"}},
		st{agent: "D", claims: []string{"38"}},
		st{agent: "A", kinds: []extract.StepKind{final}, claims: []string{"38", "4", "99"}},
	)
	require.Equal(t, 4, g.AnswerStep())
	assert.Equal(t, []ClaimFlow{
		{Claim: "38", Text: "38", Origin: 2, Path: []int{4, 3, 2}},
		{Claim: "4", Text: "4", Origin: -1, Path: []int{4}},
		{Claim: "99", Text: "99", Origin: 4, Path: []int{4}},
	}, g.AnswerFlow())
	assert.Equal(t, []int{0, 1, 2}, g.Ancestors(4, Data))
	assert.Equal(t, []int{2, 3, 4}, g.Descendants(0, Data))
}

func TestAnswerFlowPrefersExtractsFinalAnswer(t *testing.T) {
	r, f := mkRun("", nil,
		st{agent: "A", claims: []string{"7"}},
		st{agent: "B", claims: []string{"7", "8"}},
	)
	f.FinalAnswer = &extract.FinalAnswer{Step: 1, Text: "7", Claims: []extract.Claim{{Kind: extract.ClaimNumber, Text: "7", Norm: "7"}}}
	g, err := Build(r, f)
	require.NoError(t, err)
	assert.Equal(t, []ClaimFlow{{Claim: "7", Text: "7", Origin: 0, Path: []int{1, 0}}}, g.AnswerFlow())

	g = buildRun(t, "", nil, st{agent: "A"})
	assert.Equal(t, -1, g.AnswerStep())
	assert.Nil(t, g.AnswerFlow())
}

func TestAgentsAndPlanners(t *testing.T) {
	g := loopRun(t)
	assert.Equal(t, []string{"O", "S"}, g.Agents())
	assert.Equal(t, []string{"O"}, g.Planners())
	assert.Equal(t, []int{2, 4, 6}, g.StepsOf("s"))
	assert.Nil(t, g.StepsOf("nobody"))
	id, ok := g.AgentID("O")
	require.True(t, ok)
	assert.Equal(t, "a0", id)
	assert.True(t, g.IsPlannerStep(1))
	assert.False(t, g.IsPlannerStep(2))
	assert.Equal(t, []int{1}, g.Predecessors(2, Instructs))
	assert.Equal(t, Trial{Index: 0, Plan: 0, Start: 0, End: 6}, g.TrialOf(3))
	assert.Equal(t, map[EdgeType]int{Next: 6, Instructs: 3, Loop: 2, Member: 14}, g.Counts())
}

func TestSimilarity(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want float64
	}{
		{"identical", "open the archive page for August", "Open the archive page, for August!", 1},
		{"disjoint", "open the archive page", "calendar shows Marquette lights", 0},
		{"too short to compare", "TERMINATE", "TERMINATE", 0},
		{"new argument lowers it", "exit code 0 output 67 rows", "exit code 0 output 14 rows", 4.0 / 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, Similarity(tt.a, tt.b), 1e-9)
		})
	}
}

func TestRepeatsInstruction(t *testing.T) {
	g := loopRun(t)
	tests := []struct {
		name string
		p, q int
		want bool
	}{
		{"a reworded instruction", 3, 1, true},
		{"a change of strategy", 5, 3, false},
		{"an instruction and its report", 2, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, g.RepeatsInstruction(tt.p, tt.q))
		})
	}
}

func TestParseTypes(t *testing.T) {
	ts, err := ParseTypes(" data, Instructs ,")
	require.NoError(t, err)
	assert.Equal(t, []EdgeType{Data, Instructs}, ts)
	ts, err = ParseTypes("")
	require.NoError(t, err)
	assert.Empty(t, ts)
	_, err = ParseTypes("data,flows")
	assert.ErrorContains(t, err, `unknown edge type "flows"`)
}

// TestNodeIDsAreFormatted holds the ID tables to the IDs' definition, on
// both sides of each table's end.
func TestNodeIDsAreFormatted(t *testing.T) {
	for _, i := range []int{-1, 0, 1, 9, 10, 63, 64, 65, 1023, 1024, 1025, 123456} {
		assert.Equal(t, fmt.Sprintf("s%d", i), stepID(i))
		assert.Equal(t, fmt.Sprintf("t%d", i), trialID(i))
		assert.Equal(t, fmt.Sprintf("a%d", i), agentID(i))
	}
	ids := stepIDList(1030)
	for i := range 1030 {
		assert.Equal(t, stepID(i), ids.id(i))
	}
}

// TestLSHBucketKeepsLatest holds a bucket to its definition: the latest
// lshBucketCap steps added, oldest first, whether it is held in its slot or
// spilled, and a band's other buckets are left as they were.
func TestLSHBucketKeepsLatest(t *testing.T) {
	var bk lshBucket
	band := lshBand{keys: make([]uint64, 8), refs: make([]int32, 8)}
	add := func(key uint64, j int) { band.add(band.find(key), j) } // as loopsIn adds a step
	var want []int32
	for j := range 3*lshBucketCap + 1 {
		bk.add(j)
		add(1, j)
		add(2, 100+j)
		want = append(want, int32(j))
		want = want[max(0, len(want)-lshBucketCap):]
		assert.Equal(t, want, bk.steps[:bk.n], "after adding step %d", j)
		got := band.bucket(band.find(1))
		assert.Equal(t, want, got.steps[:got.n], "in a band, after adding step %d", j)
		other := band.bucket(band.find(2))
		assert.Equal(t, int32(100+j), other.steps[other.n-1])
	}
	band.clear()
	assert.Zero(t, band.bucket(band.find(1)).n)
	assert.Empty(t, band.spills)
}
