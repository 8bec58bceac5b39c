package graph

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
)

func sig(kind string, sev extract.Severity) []extract.Signal {
	return []extract.Signal{{Kind: kind, Severity: sev, Quote: kind + " here"}}
}

func TestBuildEdges(t *testing.T) {
	tests := []struct {
		name     string
		question string
		qclaims  []string
		steps    []st
		types    []EdgeType
		want     []string
	}{
		{
			name:  "chat without a plan: next and member edges only",
			steps: []st{{agent: "A"}, {agent: "B"}, {agent: "A"}},
			want: []string{
				"s0->s1 next", "s0->a0 member", "s0->t0 member",
				"s1->s2 next", "s1->a1 member", "s1->t0 member",
				"s2->a0 member", "s2->t0 member",
			},
		},
		{
			name: "instructions reach the addressed agent's next step unless superseded",
			steps: []st{
				{agent: "human", kinds: []extract.StepKind{task}},
				{agent: "Orch", kinds: []extract.StepKind{plan}},
				{agent: "Orch", kinds: []extract.StepKind{instr}, target: "Surfer"},
				{agent: "Surfer"},
				{agent: "Orch", kinds: []extract.StepKind{instr}, target: "Surfer"}, // superseded by 6
				{agent: "Orch", kinds: []extract.StepKind{instr}, target: "coder"},  // name matched loosely
				{agent: "Orch", kinds: []extract.StepKind{instr}, target: "Surfer"},
				{agent: "Surfer"},
				{agent: "Coder"},
				{agent: "Orch", kinds: []extract.StepKind{instr}, target: "Orch"},   // to itself
				{agent: "Orch", kinds: []extract.StepKind{instr}, target: "Nobody"}, // not in the run
				{agent: "Surfer"},
			},
			types: []EdgeType{Instructs},
			want:  []string{"s2->s3 instructs", "s5->s8 instructs", "s6->s7 instructs"},
		},
		{
			name: "an instruction outranks the ledger and hand-off note around it",
			steps: []st{
				{agent: "O", kinds: []extract.StepKind{ledger, thought}, target: "S"},
				{agent: "O", kinds: []extract.StepKind{instr}, target: "S"},
				{agent: "O", kinds: []extract.StepKind{thought}, target: "S"},
				{agent: "S"},
				{agent: "O", kinds: []extract.StepKind{ledger, thought}, target: "S"},
				{agent: "O", kinds: []extract.StepKind{thought}, target: "S"}, // no instruction: the latest note
				{agent: "S"},
			},
			types: []EdgeType{Instructs},
			want:  []string{"s1->s3 instructs", "s5->s6 instructs"},
		},
		{
			name: "tool results go to the caller's next step, else the next step",
			steps: []st{
				{agent: "A", kinds: []extract.StepKind{call}, call: "c1"},
				{agent: "T", kinds: []extract.StepKind{result}, result: "c1"},
				{agent: "B"},
				{agent: "A", kinds: []extract.StepKind{call}}, // caller found as the latest call
				{agent: "T", kinds: []extract.StepKind{result}},
				{agent: "B", kinds: []extract.StepKind{call}}, // a new call before A speaks again
				{agent: "T", kinds: []extract.StepKind{result}},
				{agent: "A"},
			},
			types: []EdgeType{Observes},
			want:  []string{"s1->s3 observes", "s4->s5 observes", "s6->s7 observes"},
		},
		{
			name:     "data edges from a claim's first step, question claims skipped",
			question: "What will a family of 4 pay at the museum?",
			qclaims:  []string{"4"},
			steps: []st{
				{agent: "A", claims: []string{"4", "20"}},
				{agent: "B", claims: []string{"20", "18", "museum"}},
				{agent: "C", claims: []string{"20", "38", "18", "museum"}},
				{agent: "A", kinds: []extract.StepKind{final}, claims: []string{"38"}},
			},
			types: []EdgeType{Data},
			want:  []string{"s0->s1 data", "s0->s2 data", "s1->s2 data", "s2->s3 data"},
		},
		{
			name: "re-plans open trials and link them",
			steps: []st{
				{agent: "human", kinds: []extract.StepKind{task}},
				{agent: "O", kinds: []extract.StepKind{plan}},
				{agent: "S"},
				{agent: "O", kinds: []extract.StepKind{replan}},
				{agent: "S"},
				{agent: "O", kinds: []extract.StepKind{plan}},
			},
			types: []EdgeType{Replans},
			want:  []string{"t0->t1 replans", "t1->t2 replans"},
		},
		{
			name: "error signals feed back to the next planner step",
			steps: []st{
				{agent: "O", kinds: []extract.StepKind{plan}},
				{agent: "O", kinds: []extract.StepKind{instr}, target: "T"},
				{agent: "T", errs: sig("exception", extract.SeverityHigh)},
				{agent: "S", errs: sig("apology", extract.SeverityLow)},                                         // too weak
				{agent: "O", kinds: []extract.StepKind{ledger}, errs: sig("not_found", extract.SeverityMedium)}, // the planner's own words
				{agent: "T", errs: sig("not_found", extract.SeverityMedium)},                                    // no planner step after it
				{agent: "S"},
			},
			types: []EdgeType{Feedback},
			want:  []string{"s2->s4 feedback"},
		},
		{
			name: "repeated instructions and outcomes form loop edges",
			steps: []st{
				{agent: "O", kinds: []extract.StepKind{plan}, text: "Plan: find the August 2015 picture in the archive"},
				{agent: "O", kinds: []extract.StepKind{instr}, target: "S", text: "Please search the Astronomy Picture archive for the first week of August 2015 and identify the city"},
				{agent: "S", text: "I searched the archive and found nothing useful on the first page of results today"},
				{agent: "O", kinds: []extract.StepKind{instr}, target: "S", text: "Please search the Astronomy Picture archive for the first week of August 2015 and identify the city shown"},
				{agent: "S", text: "I searched the archive and found nothing useful on the first page of results today."},
				{agent: "O", kinds: []extract.StepKind{instr}, target: "S", text: "Open the calendar view instead and navigate directly to 2015 August 3"},
				{agent: "S", text: "The calendar shows a photo of Marquette, Michigan with lights on the horizon"},
			},
			types: []EdgeType{Loop, Instructs},
			want: []string{
				"s1->s2 instructs", "s1->s3 loop", "s2->s4 loop",
				"s3->s4 instructs", "s5->s6 instructs",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := buildRun(t, tt.question, tt.qclaims, tt.steps...)
			assert.Equal(t, tt.want, edgeStrings(g.Edges(tt.types...)))
			for _, e := range g.Edges() {
				assert.NotEqual(t, e.From, e.To, "self-loop %v", e)
			}
		})
	}
}

func TestBuildRejectsMismatch(t *testing.T) {
	r, f := mkRun("", nil, st{agent: "A"}, st{agent: "B"})
	f.Steps = f.Steps[:1]
	_, err := Build(r, f)
	require.ErrorIs(t, err, ErrMismatch)
	assert.Contains(t, err.Error(), "test")

	_, err = Build(r, nil)
	assert.Error(t, err)
	_, err = Build(nil, f)
	assert.Error(t, err)
}

func TestTwoTypesBetweenOnePairSurvive(t *testing.T) {
	g := buildRun(t, "", nil, st{agent: "A", claims: []string{"42"}}, st{agent: "B", claims: []string{"42"}})
	lib, err := g.Digraph()
	require.NoError(t, err)
	e, err := lib.Edge("s0", "s1")
	require.NoError(t, err)
	bundle, ok := e.Properties.Data.([]Edge)
	require.True(t, ok)
	assert.Equal(t, []string{"s0->s1 next", "s0->s1 data"}, edgeStrings(bundle))
	assert.Equal(t, len(bundle), cap(bundle), "appending to a bundle must not write into the next")
	assert.Equal(t, "next,data", e.Properties.Attributes["types"])
	assert.Equal(t, []string{"42"}, bundle[1].Claims)
	assert.Equal(t, []int{1}, g.Successors(0, Data))
	assert.Equal(t, []int{1}, g.Successors(0, Next))
	assert.Equal(t, []int{0}, g.Predecessors(1))
}

func TestUbiquitousClaimsDrawNoData(t *testing.T) {
	var steps []st
	for i := 0; i < 14; i++ {
		c := []string{"everywhere"}
		if i < ubiquityMin {
			c = append(c, "often")
		}
		steps = append(steps, st{agent: []string{"A", "B"}[i%2], claims: c})
	}
	g := buildRun(t, "", nil, steps...)
	data := g.Edges(Data)
	assert.Len(t, data, ubiquityMin-1)
	for _, e := range data {
		assert.Equal(t, "s0", e.From)
		assert.Equal(t, []string{"often"}, e.Claims)
	}
}

func TestTrials(t *testing.T) {
	tests := []struct {
		name  string
		steps []st
		want  []Trial
	}{
		{
			name:  "no plan, no task: one trial without a plan",
			steps: []st{{agent: "A"}, {agent: "B"}},
			want:  []Trial{{Index: 0, Plan: -1, Start: 0, End: 1}},
		},
		{
			name:  "a task alone plans the only trial",
			steps: []st{{agent: "u", kinds: []extract.StepKind{task}}, {agent: "B"}},
			want:  []Trial{{Index: 0, Plan: 0, Start: 0, End: 1}},
		},
		{
			name: "the first plan belongs to trial 0, later plans open trials",
			steps: []st{
				{agent: "u", kinds: []extract.StepKind{task}},
				{agent: "O", kinds: []extract.StepKind{plan}},
				{agent: "S"},
				{agent: "O", kinds: []extract.StepKind{replan}},
				{agent: "S"},
				{agent: "O", kinds: []extract.StepKind{plan}},
			},
			want: []Trial{
				{Index: 0, Plan: 1, Start: 0, End: 2},
				{Index: 1, Plan: 3, Start: 3, End: 4},
				{Index: 2, Plan: 5, Start: 5, End: 5},
			},
		},
		{
			name: "a re-plan before any plan still opens a trial",
			steps: []st{
				{agent: "u", kinds: []extract.StepKind{task}},
				{agent: "S"},
				{agent: "O", kinds: []extract.StepKind{replan}},
			},
			want: []Trial{{Index: 0, Plan: 0, Start: 0, End: 1}, {Index: 1, Plan: 2, Start: 2, End: 2}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := buildRun(t, "", nil, tt.steps...)
			assert.Equal(t, tt.want, g.Trials())
			for i := 0; i < g.Len(); i++ {
				assert.True(t, g.TrialOf(i).Contains(i))
			}
		})
	}
}

func TestTrivialClaimsDrawNoData(t *testing.T) {
	g := buildRun(t, "", nil,
		st{agent: "W", claims: []string{"1", "4312"}},
		st{agent: "O", claims: []string{"1"}},
		st{agent: "W", claims: []string{"4312"}},
		st{agent: "O", claims: []string{"4312", "2"}},
		st{agent: "W", claims: []string{"2"}},
	)
	assert.Equal(t, []string{"s0->s2 data", "s0->s3 data"}, edgeStrings(g.Edges(Data)))
	for _, e := range g.Edges(Data) {
		assert.Equal(t, []string{"4312"}, e.Claims, "a single digit says nothing about provenance")
	}
}

// TestDedupeKeepsOnePerType: sorted edges keep the first edge of each type
// between a pair, and edges of one type between other pairs stay.
func TestDedupeKeepsOnePerType(t *testing.T) {
	typ := func(t EdgeType) uint8 { return uint8(typeRank(t)) }
	plain := []edge{{typ: typ(Next)}, {typ: typ(Data)}, {typ: typ(Loop)}, {typ: typ(Member)}}
	assert.Equal(t, plain[:3], dedupe(slices.Clone(plain[:3])))

	repeated := []edge{{typ: typ(Next), evidence: 1}, {typ: typ(Next), evidence: 2}, {typ: typ(Data)}, {typ: typ(Data), evidence: 3}}
	assert.Equal(t, []edge{{typ: typ(Next), evidence: 1}, {typ: typ(Data)}}, dedupe(repeated))
	pairs := []edge{{from: 0, to: 1, typ: typ(Next)}, {from: 0, to: 2, typ: typ(Next)}, {from: 1, to: 2, typ: typ(Next)}}
	assert.Equal(t, pairs, dedupe(slices.Clone(pairs)))
	named := []Edge{{Type: Next}, {Type: Data}, {Type: Loop}}
	assert.Equal(t, "next", bundleTypes(named[:1]))
	assert.Equal(t, "next,data,loop", bundleTypes(named))
}

// TestEdgeListSorted holds the chunked edge list to a stable sort of the
// edges as drawn, across chunks and from a first chunk of any room.
func TestEdgeListSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 7, edgeChunk, 2*edgeChunk + 5} {
		for _, first := range []int{0, 3, edgeChunk * 2} {
			var l edgeList
			l.first = first
			drawn := []edge{}
			for i := range n {
				e := edge{from: rng.Int32N(50), to: rng.Int32N(50), typ: uint8(rng.IntN(3)), evidence: int32(i)}
				l.add(e)
				drawn = append(drawn, e)
			}
			slices.SortStableFunc(drawn, func(a, b edge) int {
				return cmp.Or(cmp.Compare(a.from, b.from), cmp.Compare(a.to, b.to), cmp.Compare(a.typ, b.typ))
			})
			got := l.sorted()
			require.Len(t, got, n, "%d edges, first chunk %d", n, first)
			assert.Equal(t, drawn, got, "%d edges, first chunk %d", n, first)
		}
	}
}

// TestAnswerFlowThroughTheBareNumber: a number of the answer with its unit
// was carried by the earlier steps that state the bare number (a constant
// whose name holds the unit), as extract.Claim.Matches reads the two; a
// question that gives the bare number gives the value.
func TestAnswerFlowThroughTheBareNumber(t *testing.T) {
	steps := []st{
		{agent: "Planner", claims: []string{"50"}},
		{agent: "Coder", claims: []string{"50"}},
		{agent: "Tester", claims: []string{"50 min"}},
		{agent: "Writer", kinds: []extract.StepKind{final}, claims: []string{"50 min", "25%"}},
	}
	g := buildRun(t, "", nil, steps...)
	assert.Equal(t, []ClaimFlow{
		{Claim: "50 min", Text: "50 min", Origin: 0, Path: []int{3, 2, 1, 0}},
		{Claim: "25%", Text: "25%", Origin: 3, Path: []int{3}},
	}, g.AnswerFlow())

	g = buildRun(t, "Expire after 50.", []string{"50"}, steps...)
	assert.Equal(t, -1, g.AnswerFlow()[0].Origin, "the question gives the value")

	// A search result that gives the length in km as another value ("a
	// 44 km route ... 18 parking stalls") counts something else with its
	// bare 18: the answer's "18 km" did not come from it, nor from a
	// question that says so.
	misread := []st{
		{agent: "assistant", claims: []string{"skyline trail"}},
		{agent: "tool", claims: []string{"44 km", "18"}},
		{agent: "assistant", kinds: []extract.StepKind{final}, claims: []string{"18 km"}},
	}
	g = buildRun(t, "", nil, misread...)
	assert.Equal(t, []ClaimFlow{{Claim: "18 km", Text: "18 km", Origin: 2, Path: []int{2}}}, g.AnswerFlow())

	g = buildRun(t, "A 44 km route has 18 stalls.", []string{"44 km", "18"}, misread[2])
	assert.Equal(t, 0, g.AnswerFlow()[0].Origin, "a question that gives the length as another value does not give the answer's")
}

// TestAnswerFlowOfABareNumberStatedWithAUnit: an answer that writes just
// the number ("14410") dropped the unit of the step that first stated the
// quantity ("14410 ft"), whatever kind of step that is: a coordinator's
// ledger reason or reset plan carries the value to the answer as any step
// does. A step before that states the bare number is where it came from,
// and a quantity the question gives was not produced by the run.
func TestAnswerFlowOfABareNumberStatedWithAUnit(t *testing.T) {
	for _, tc := range []struct {
		name     string
		question []string
		steps    []st
		origin   int
		path     []int
	}{
		{"a ledger's reason", nil, []st{
			{agent: "surfer", kinds: []extract.StepKind{result}, claims: []string{"usgs"}},
			{agent: "orchestrator", kinds: []extract.StepKind{ledger}, claims: []string{"14410 ft"}},
		}, 2, []int{3, 2}},
		{"a reset plan's guess", nil, []st{
			{agent: "surfer", kinds: []extract.StepKind{result}, claims: []string{"usgs"}},
			{agent: "orchestrator", kinds: []extract.StepKind{replan}, claims: []string{"14410 ft"}},
		}, 2, []int{3, 2}},
		{"the bare number before", nil, []st{
			{agent: "surfer", kinds: []extract.StepKind{result}, claims: []string{"14410"}},
			{agent: "orchestrator", kinds: []extract.StepKind{ledger}, claims: []string{"14410 ft"}},
		}, 1, []int{3, 1}},
		{"the question gives it", []string{"14410 ft"}, []st{
			{agent: "surfer", kinds: []extract.StepKind{result}, claims: []string{"usgs"}},
			{agent: "orchestrator", kinds: []extract.StepKind{ledger}, claims: []string{"14410 ft"}},
		}, 3, []int{3}},
		{"another number", nil, []st{
			{agent: "surfer", kinds: []extract.StepKind{result}, claims: []string{"usgs"}},
			{agent: "orchestrator", kinds: []extract.StepKind{ledger}, claims: []string{"14411 ft"}},
		}, 3, []int{3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			steps := append([]st{{agent: "orchestrator", kinds: []extract.StepKind{plan}, claims: []string{"mount rainier"}}}, tc.steps...)
			steps = append(steps, st{agent: "orchestrator", kinds: []extract.StepKind{final}, claims: []string{"14410"}})
			g := buildRun(t, "", tc.question, steps...)
			flows := g.AnswerFlow()
			require.Len(t, flows, 1)
			assert.Equal(t, tc.origin, flows[0].Origin)
			assert.Equal(t, tc.path, flows[0].Path)
		})
	}
}

// TestAnswerFlowOfAPercentThePrintedOutputGave: code prints a percentage
// bare or as the fraction it is, and the agent writes the sign: the
// answer's "4.5%" was carried by the tool's output, not first stated by the
// answer. A bare number in an agent's prose, or one an output gives in
// another unit, is some other figure.
func TestAnswerFlowOfAPercentThePrintedOutputGave(t *testing.T) {
	for _, tc := range []struct {
		name   string
		source st
		answer string
		origin int
	}{
		{"bare", st{agent: "tool", kinds: []extract.StepKind{result}, claims: []string{"2480", "4.5"}}, "4.5%", 1},
		{"fraction", st{agent: "tool", kinds: []extract.StepKind{result}, claims: []string{"0.159"}}, "15.9%", 1},
		{"prose", st{agent: "assistant", claims: []string{"4.5"}}, "4.5%", 2},
		{"other unit", st{agent: "tool", kinds: []extract.StepKind{result}, claims: []string{"4.5", "4.5 km"}}, "4.5%", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := buildRun(t, "", nil,
				st{agent: "assistant", claims: []string{"orders.csv"}},
				tc.source,
				st{agent: "assistant", kinds: []extract.StepKind{final}, claims: []string{tc.answer}})
			flows := g.AnswerFlow()
			require.Len(t, flows, 1)
			assert.Equal(t, tc.origin, flows[0].Origin)
		})
	}
}

// TestAnswerFlowOfANameAListingGives: a tool prints a listing's names
// bare (a table's row labels), which no step's claims hold: the answer's
// name was carried by the output whose records are known by it, not first
// stated by the answer. An output that lists other names did not carry it.
func TestAnswerFlowOfANameAListingGives(t *testing.T) {
	for _, tc := range []struct {
		name   string
		recs   []extract.Record
		origin int
	}{
		{"a row's label", []extract.Record{{IDs: []string{"Copiers"}, Numbers: []string{"1848.32"}}, {IDs: []string{"Machines"}, Numbers: []string{"1012.47"}}}, 1},
		{"a record's words", []extract.Record{{IDs: []string{"P-1"}, Words: []string{"copiers"}}, {IDs: []string{"P-2"}, Words: []string{"machines"}}}, 1},
		{"other names", []extract.Record{{IDs: []string{"Tables"}, Numbers: []string{"648.79"}}, {IDs: []string{"Machines"}, Numbers: []string{"1012.47"}}}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, f := mkRun("", nil,
				st{agent: "assistant", claims: []string{"orders.csv"}},
				st{agent: "tool", kinds: []extract.StepKind{result}},
				st{agent: "assistant", kinds: []extract.StepKind{final}, claims: []string{"copiers"}})
			f.Steps[1].Details = &extract.Details{Rare: &extract.Rare{Records: tc.recs}}
			g, err := Build(r, f)
			require.NoError(t, err)
			flows := g.AnswerFlow()
			require.Len(t, flows, 1)
			assert.Equal(t, tc.origin, flows[0].Origin)
		})
	}
}

// TestAnswerFlowOfTheTasksNumberInAnotherUnit: an answer that gives the
// task's number in another unit (300 minutes for 300 seconds) did not take
// it as given: the bare number came from whoever first wrote it without
// the task's unit.
func TestAnswerFlowOfTheTasksNumberInAnotherUnit(t *testing.T) {
	steps := []st{
		{agent: "ProductManager", claims: []string{"300 s"}},
		{agent: "Architect", claims: []string{"300"}},
		{agent: "Engineer", claims: []string{"300"}},
		{agent: "Engineer", kinds: []extract.StepKind{final}, claims: []string{"300 min"}},
	}
	g := buildRun(t, "Cache responses for 300 seconds.", []string{"300 s"}, steps...)
	assert.Equal(t, []ClaimFlow{{Claim: "300 min", Text: "300 min", Origin: 1, Path: []int{3, 2, 1}}}, g.AnswerFlow())
}

// TestAnswerFlowOfAFigureConvertedFromAnotherUnit: an answer that tells
// a figure in another unit ("88 °F") no step before it states was carried
// from the step that first stated the quantity in a unit that converts to
// it ("31 °C"); a figure the conversion does not give was not.
func TestAnswerFlowOfAFigureConvertedFromAnotherUnit(t *testing.T) {
	for _, tc := range []struct {
		name, stated string
		origin       int
		path         []int
	}{
		{"converted right", "31 °C", 1, []int{2, 1}},
		{"converted wrong", "29 °C", 2, []int{2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := buildRun(t, "", nil,
				st{agent: "weather", kinds: []extract.StepKind{result}, claims: []string{"22 °C"}},
				st{agent: "analyst", claims: []string{tc.stated}},
				st{agent: "reporter", kinds: []extract.StepKind{final}, claims: []string{"88 °F"}},
			)
			flows := g.AnswerFlow()
			require.Len(t, flows, 1)
			assert.Equal(t, tc.origin, flows[0].Origin)
			assert.Equal(t, tc.path, flows[0].Path)
		})
	}
}
