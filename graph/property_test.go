package graph

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/offattr/offattr/extract"
)

// A generated run is drawn as a spec that names its agents by position, so
// that the same run can be written out under other names. Its world is
// small on purpose, so that what the builder looks for happens often:
// agents whose names differ only in case and punctuation, a name that is
// addressed but never speaks, steps that repeat one another's text, claims
// that recur, tool calls and results paired by ID.
type spec struct {
	qclaims []string
	steps   []specStep
	final   *specFinal // extract's choice of final answer, if any
}

type specStep struct {
	agent, agentStyle   int
	target, targetStyle int // target -1 addresses no one
	kinds               []extract.StepKind
	text                string
	claims              []string
	errs                []extract.Signal
	call, result        string
}

type specFinal struct {
	step   int
	claims []string
}

// propAgents are the names a spec's agents have unless renamed; the last
// never speaks.
var propAgents = []string{"orchestrator", "websurfer", "coder", "terminal", "nobody"}

var (
	propKinds = []extract.StepKind{plan, replan, ledger, instr, thought, call, result, answer,
		final, task, msg, extract.KindTermination, extract.KindVerification}
	propTexts = []string{
		"Please search the Astronomy Picture archive for the first week of August 2015 and identify the city",
		"Please search the Astronomy Picture archive for the first week of August 2015 and identify the city shown",
		"Open the calendar view instead and navigate directly to 2015 August 3",
		"I searched the archive and found nothing useful on the first page of results today",
		"exitcode: 1 (execution failed) NameError: name prices is not defined",
		"exitcode: 0 (execution succeeded) Code output: 1250",
		"TERMINATE",
	}
	propClaims   = []string{"12", "7", "3.5", "1250", "4", "marquette"}
	propQuestion = "How much do 4 plans at 1250 GB cost?"
	// propQuestionStates are the claims propQuestion states in its text.
	propQuestionStates = []string{"4", "1250"}
	propCallIDs        = []string{"", "c1", "c2"}
)

// style writes an agent's normalised name as a log might: as is, in capitals,
// capitalised, or wrapped in punctuation. normName undoes every style.
func style(name string, s int) string {
	switch s {
	case 1:
		return strings.ToUpper(name)
	case 2:
		return strings.ToUpper(name[:1]) + name[1:]
	case 3:
		return "_" + name + " (!)"
	}
	return name
}

func genSpec(t *rapid.T) spec {
	subset := func(label string, pool []string) []string {
		return rapid.SliceOfNDistinct(rapid.SampledFrom(pool), 0, 3, rapid.ID[string]).Draw(t, label)
	}
	var s spec
	s.qclaims = subset("qclaims", propClaims[4:])
	speakers := len(propAgents) - 1
	n := rapid.IntRange(1, 40).Draw(t, "steps")
	for i := 0; i < n; i++ {
		st := specStep{
			agent:       rapid.IntRange(0, speakers-1).Draw(t, "agent"),
			agentStyle:  rapid.IntRange(0, 3).Draw(t, "agentStyle"),
			target:      rapid.IntRange(-1, len(propAgents)-1).Draw(t, "target"),
			targetStyle: rapid.IntRange(0, 3).Draw(t, "targetStyle"),
			kinds:       rapid.SliceOfNDistinct(rapid.SampledFrom(propKinds), 1, 2, rapid.ID[extract.StepKind]).Draw(t, "kinds"),
			text:        rapid.SampledFrom(propTexts).Draw(t, "text"),
			claims:      subset("claims", propClaims),
			call:        rapid.SampledFrom(propCallIDs).Draw(t, "call"),
			result:      rapid.SampledFrom(propCallIDs).Draw(t, "result"),
		}
		if sev := rapid.IntRange(-1, int(extract.SeverityHigh)).Draw(t, "severity"); sev >= 0 {
			st.errs = []extract.Signal{{Kind: "error", Severity: extract.Severity(sev), Quote: "it failed"}}
		}
		s.steps = append(s.steps, st)
	}
	if rapid.Bool().Draw(t, "final") {
		s.final = &specFinal{step: rapid.IntRange(-1, n).Draw(t, "finalStep"), claims: subset("finalClaims", propClaims)}
	}
	return s
}

// build writes the spec out with the given agent names and builds its graph.
func (s spec) build(t testingT, names []string) (*Graph, *extract.RunFeatures) {
	t.Helper()
	steps := make([]st, len(s.steps))
	for i, ss := range s.steps {
		steps[i] = st{agent: style(names[ss.agent], ss.agentStyle), kinds: ss.kinds, text: ss.text,
			claims: ss.claims, errs: ss.errs, call: ss.call, result: ss.result}
		if ss.target >= 0 {
			steps[i].target = style(names[ss.target], ss.targetStyle)
		}
	}
	r, f := mkRun(propQuestion, s.qclaims, steps...)
	if s.final != nil {
		f.FinalAnswer = &extract.FinalAnswer{Step: s.final.step}
		for _, c := range s.final.claims {
			f.FinalAnswer.Claims = append(f.FinalAnswer.Claims, extract.Claim{Kind: extract.ClaimNumber, Text: c, Norm: c})
		}
	}
	g, err := Build(r, f)
	require.NoError(t, err)
	return g, f
}

// states reports whether step i states claim c: among its claims, or among
// the final answer's when extract chose it as the final answer.
func (s spec) states(i int, c string) bool {
	return slices.Contains(s.steps[i].claims, c) || s.final != nil && s.final.step == i && slices.Contains(s.final.claims, c)
}

func TestPropertyInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genSpec(t)
		g, f := s.build(t, propAgents)
		checkInvariants(t, g)

		for _, e := range g.Edges(Instructs) {
			from, to := g.StepNode(stepIndex(g, e.From)), g.StepNode(stepIndex(g, e.To))
			assert.Equal(t, normName(to.Agent), normName(f.Steps[from.Index].Target), "an instruction reaches its addressee: %+v", e)
		}
		for _, e := range g.Edges(Observes) {
			assert.Contains(t, s.steps[stepIndex(g, e.From)].kinds, result, "only a tool result is observed: %+v", e)
		}
		for _, e := range g.Edges(Feedback) {
			sig := strongest(s.steps[stepIndex(g, e.From)].errs)
			assert.NotNil(t, sig, "feedback carries an error of at least medium severity: %+v", e)
		}
		assert.Len(t, g.Edges(Replans), len(g.Trials())-1, "each trial but the first re-plans the one before")
		checkData(t, s, g)
		checkAnswerFlow(t, s, g)
	})
}

// given reports whether the question already states claim c.
func (s spec) given(c string) bool {
	return slices.Contains(s.qclaims, c) || slices.Contains(propQuestionStates, c)
}

// checkAnswerFlow checks the trace of the final answer against the spec:
// the answer is extract's choice when it made one, else the last step
// marked final; each of its claims runs back from it through every earlier
// step stating the claim, and originates at the first of them unless the
// question gave it.
func checkAnswerFlow(t *rapid.T, s spec, g *Graph) {
	answer, claims := -1, []string(nil)
	if f := s.final; f != nil && f.step >= 0 && f.step < len(s.steps) {
		answer, claims = f.step, f.claims
		if len(claims) == 0 {
			claims = s.steps[answer].claims
		}
	} else {
		for i := len(s.steps) - 1; i >= 0 && answer < 0; i-- {
			if slices.Contains(s.steps[i].kinds, final) {
				answer, claims = i, s.steps[i].claims
			}
		}
	}
	require.Equal(t, answer, g.AnswerStep())
	flows := g.AnswerFlow()
	if answer < 0 {
		assert.Nil(t, flows)
		return
	}
	traced := []string{}
	for _, cf := range flows {
		traced = append(traced, cf.Claim)
		path := []int{answer}
		for i := answer - 1; i >= 0; i-- {
			if s.states(i, cf.Claim) {
				path = append(path, i)
			}
		}
		origin := path[len(path)-1]
		if s.given(cf.Claim) {
			origin = -1
		}
		assert.Equal(t, ClaimFlow{Claim: cf.Claim, Text: cf.Claim, Origin: origin, Path: path}, cf)
	}
	assert.Equal(t, append([]string{}, claims...), traced)
}

// checkData checks the data edges against the spec: each links the first
// step stating a claim to a later step stating it, and every later
// statement of a claim the run produced (not given in the question, not a
// single digit, not ubiquitous) gets one.
func checkData(t *rapid.T, s spec, g *Graph) {
	want := map[[2]int][]string{}
	limit := max(ubiquityMin, int(ubiquityShare*float64(len(s.steps))))
	for _, c := range propClaims {
		var at []int
		for i := range s.steps {
			if s.states(i, c) {
				at = append(at, i)
			}
		}
		if len(at) > limit || len(c) == 1 || s.given(c) {
			continue
		}
		for _, j := range at[min(1, len(at)):] {
			want[[2]int{at[0], j}] = append(want[[2]int{at[0], j}], c)
		}
	}
	got := map[[2]int][]string{}
	for _, e := range g.Edges(Data) {
		got[[2]int{stepIndex(g, e.From), stepIndex(g, e.To)}] = slices.Sorted(slices.Values(e.Claims))
	}
	assert.Equal(t, want, got)
	// OutClaims reads what OutEdges' data edges carry, edge by edge.
	for i := range s.steps {
		var claims []string
		for _, e := range g.OutEdges(StepID(i), Data) {
			claims = append(claims, e.Claims...)
		}
		assert.Equal(t, claims, g.OutClaims(StepID(i)), "step %d", i)
	}
}

// stepIndex returns the index of a step node.
func stepIndex(g *Graph, id string) int {
	nd, ok := g.Node(id)
	if !ok || nd.Kind != NodeStep {
		panic("not a step: " + id)
	}
	return nd.Index
}

func TestPropertyBuildIsDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genSpec(t)
		var exports [2]bytes.Buffer
		for k := range exports {
			g, _ := s.build(t, propAgents)
			require.NoError(t, g.WriteJSON(&exports[k]))
		}
		assert.Equal(t, exports[0].String(), exports[1].String())
	})
}

// TestPropertyRenamingAgents renames every agent consistently: the graph
// must be the same up to names. Nothing the builder decides may hang on
// what an agent is called.
func TestPropertyRenamingAgents(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genSpec(t)
		names := rapid.SliceOfNDistinct(rapid.StringMatching(`[a-z][a-z0-9]{2,7}`), len(propAgents), len(propAgents), rapid.ID[string]).Draw(t, "names")
		g, _ := s.build(t, propAgents)
		h, _ := s.build(t, names)
		assert.Equal(t, nameless(g), nameless(h))
	})
}

// nameless is what a graph says, one line per node, edge, trial, loop
// group and traced claim, with the agents' names replaced by their node IDs
// and the evidence that quotes names left out.
func nameless(g *Graph) []string {
	var out []string
	for _, nd := range g.Nodes() {
		nd.Agent, _ = g.AgentID(nd.Agent)
		nd.Label = ""
		out = append(out, fmt.Sprintf("%+v", nd))
	}
	for _, e := range g.Edges() {
		if e.Type == Instructs || e.Type == Observes {
			e.Evidence = ""
		}
		out = append(out, fmt.Sprintf("%+v", e))
	}
	for _, p := range g.Planners() {
		id, _ := g.AgentID(p)
		out = append(out, "planner "+id)
	}
	for _, v := range []any{g.Trials(), g.LoopGroups(), g.AnswerFlow()} {
		out = append(out, fmt.Sprintf("%+v", v))
	}
	return out
}

// The generator must reach what the properties are about, or they hold
// vacuously.
func TestPropertyGeneratorReachesEveryEdgeType(t *testing.T) {
	seen := map[EdgeType]bool{}
	groups := false
	rapid.Check(t, func(t *rapid.T) {
		g, _ := genSpec(t).build(t, propAgents)
		for typ := range g.Counts() {
			seen[typ] = true
		}
		groups = groups || len(g.LoopGroups()) > 0
	})
	for _, typ := range EdgeTypes {
		assert.True(t, seen[typ], "no generated run has a %s edge", typ)
	}
	assert.True(t, groups, "no generated run has a loop group")
}

// TestDistinctClaimsKeepsFirstOfEachKey holds distinctClaims to its
// definition: the first claim of
// each non-empty key, in order; appended to other claims, which it leaves
// alone and which do not count as kept.
func TestDistinctClaimsKeepsFirstOfEachKey(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		claims := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) extract.Claim {
			return extract.Claim{
				Text: rapid.StringMatching(`[A-Ca-c ]{0,2}`).Draw(t, "text"),
				Norm: rapid.StringMatching(`([a-zA-Z0-9]{1,2})?`).Draw(t, "norm"),
			}
		}), 0, 48).Draw(t, "claims")
		var want []claimRef
		seen := map[string]bool{}
		for _, c := range claims {
			if k := claimKey(c); k != "" && !seen[k] {
				seen[k] = true
				want = append(want, claimRef{key: k, text: c.Text})
			}
		}
		assert.Equal(t, want, distinctClaims(claims))
		before := []claimRef{{key: "a", text: "A"}, {key: "1", text: "1"}}
		assert.Equal(t, append(slices.Clone(before), want...), appendDistinctClaims(slices.Clone(before), claims))
	})
}
