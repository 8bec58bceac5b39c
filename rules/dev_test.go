package rules

import (
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/run/runtest"
)

// The corpus tests read the same runs (runtest.SharedCases), and
// extracting them is most of their time: each loaded run is extracted and
// graphed once (inputOf). Tests copy a run before they change it.
var inputs sync.Map // *run.Run → *Input, never attributed itself

// devRuns is every Who&When development run.
func devRuns(tb testing.TB) []*run.Run {
	tb.Helper()
	var out []*run.Run
	for _, c := range runtest.SharedCases(tb, runtest.DevFiles(tb)) {
		out = append(out, c.Run)
	}
	return out
}

// inputOf returns a fresh Input for r (its ground truth not yet read),
// with r's features and graph made once.
func inputOf(tb testing.TB, r *run.Run) *Input {
	tb.Helper()
	if p, ok := inputs.Load(r); ok {
		in := p.(*Input)
		return &Input{Run: r, Features: in.Features, Graph: in.Graph}
	}
	f := extract.Run(r)
	g, err := graph.Build(r, f)
	require.NoError(tb, err)
	inputs.Store(r, &Input{Run: r, Features: f, Graph: g})
	return &Input{Run: r, Features: f, Graph: g}
}

func attribute(tb testing.TB, r *run.Run) Attribution {
	tb.Helper()
	return Attribute(inputOf(tb, r))
}

// renamed returns a copy of r with every agent renamed consistently, in
// the speaker fields, the roles, the instruction targets and the text.
func renamed(r *run.Run) (*run.Run, map[string]string) {
	var to []string
	for k := range r.Agents() {
		to = append(to, "Member"+string(rune('A'+k%26))+string(rune('a'+k/26))+"x")
	}
	return renamedTo(r, to)
}

// renamedTo renames the agents of r, in the order of r.Agents(), to the
// names in to.
func renamedTo(r *run.Run, to []string) (*run.Run, map[string]string) {
	names, lower := map[string]string{}, map[string]string{}
	var alts []string
	for k, a := range r.Agents() {
		names[a] = to[k]
		lower[strings.ToLower(a)] = to[k]
		alts = append(alts, regexp.QuoteMeta(a))
	}
	sort.Slice(alts, func(i, j int) bool { return len(alts[i]) > len(alts[j]) })
	// Any case: where a name is also a word of the text ("user",
	// "manager"), a value that holds it ("User:Darwin") is renamed the
	// same way wherever it is stated, as the extractors compare values
	// without case.
	re := regexp.MustCompile(`(?i)\b(` + joinAlts(alts) + `)\b`)
	swap := func(s string) string {
		return re.ReplaceAllStringFunc(s, func(m string) string { return lower[strings.ToLower(m)] })
	}
	c := *r
	c.Question = swap(r.Question)
	c.Steps = make([]run.Step, len(r.Steps))
	for i, s := range r.Steps {
		s.Agent = names[s.Agent]
		if s.Target() != "" {
			if n, ok := names[s.Target()]; ok {
				s.Edit().Target = n
			} else {
				s.Edit().Target = swap(s.Target())
			}
		}
		s.Content = swap(s.Content)
		s.Role = swap(s.Role)
		c.Steps[i] = s
	}
	return &c, names
}

func joinAlts(alts []string) string {
	out := ""
	for i, a := range alts {
		if i > 0 {
			out += "|"
		}
		out += a
	}
	return out
}

// TestRenamingAgentsKeepsTheStep proves no rule keys on agent or role
// names: the same run with every agent and role renamed gets the same step,
// and the same agent under its new name, on every labelled system
// (runtest.SystemFiles).
func TestRenamingAgentsKeepsTheStep(t *testing.T) {
	for _, c := range runtest.SharedCases(t, runtest.SystemFiles(t)) {
		r := c.Run
		t.Run(filepath.Base(filepath.Dir(r.Source))+"/"+filepath.Base(r.Source), func(t *testing.T) {
			t.Parallel()
			before := attribute(t, r)
			rr, names := renamed(r)
			after := attribute(t, rr)
			assert.Equal(t, before.Step, after.Step)
			assert.Equal(t, names[before.Agent], after.Agent)
		})
	}
}

// TestEmbeddedWeightsKnowTheirRuns: the embedded weights were fitted on
// the three labelled systems, and list every run of them, so that eval
// says their figures there are in-sample.
func TestEmbeddedWeightsKnowTheirRuns(t *testing.T) {
	w := DefaultWeights()
	cases := runtest.SharedCases(t, runtest.SystemFiles(t))
	for _, c := range cases {
		assert.True(t, w.InSample(c.Run.Fingerprint()), "%s: fitted on, and not listed: refit with offattr fit (see the README)", c.Run.Source)
	}
	assert.Len(t, w.FittedOn, len(cases), "listed, and in no corpus")
}

// TestDevRunsAttribute checks every dev run gets a well-formed answer.
func TestDevRunsAttribute(t *testing.T) {
	for _, r := range devRuns(t) {
		a := attribute(t, r)
		require.NotEmpty(t, a.Candidates, r.Source)
		assert.True(t, a.Step >= 0 && a.Step < len(r.Steps), r.Source)
		assert.NotEmpty(t, a.Agent, r.Source)
		assert.NotEmpty(t, a.Rationale, r.Source)
		assert.Equal(t, a.Step, a.Candidates[0].Step, r.Source)
		assert.True(t, a.Confidence > 0 && a.Confidence < 1, r.Source)
	}
}

// BenchmarkAttributeDev times what analyze does after loading: extract,
// graph and the rules, on every development run (not inputOf's cache).
func BenchmarkAttributeDev(b *testing.B) {
	runs := devRuns(b)
	b.ResetTimer()
	for b.Loop() {
		for _, r := range runs {
			f := extract.Run(r)
			g, err := graph.Build(r, f)
			require.NoError(b, err)
			Attribute(&Input{Run: r, Features: f, Graph: g})
		}
	}
	b.ReportMetric(float64(len(runs)*b.N)/b.Elapsed().Seconds(), "runs/s")
}

// TestRenamingIsInvariant is the renaming test as a property: any run of
// either corpus, with its agents renamed to arbitrary distinct names (in
// any case, with separators and digits: "Agent 10" once moved a step, its
// number read as a value wherever the name was mentioned), gets the same
// step and the same agent under its new name.
func TestRenamingIsInvariant(t *testing.T) {
	cases := runtest.Cases(t, runtest.AllFiles(t))
	rapid.Check(t, func(rt *rapid.T) {
		r := rapid.SampledFrom(cases).Draw(rt, "run").Run
		agents := r.Agents()
		drawn := rapid.SliceOfNDistinct(rapid.StringMatching(`Zq[A-Za-z]{2,8}([_ -]?[A-Za-z]{1,6})?([_ -]?[0-9]{1,2})?`), len(agents), len(agents),
			func(s string) string { return run.AgentKey(s) }).Draw(rt, "names")
		before := attribute(t, r)
		rr, names := renamedTo(r, drawn)
		after := attribute(t, rr)
		if before.Step != after.Step || names[before.Agent] != after.Agent {
			rt.Fatalf("%s: step %d, agent %q before; step %d, agent %q after renaming to %v",
				r.Source, before.Step, before.Agent, after.Step, after.Agent, drawn)
		}
	})
}

// TestRenamingToANumberedName: a tool renamed "ZqAA 11" wherever the
// word "tool" stood (its policy's "tool" too) gives no source to a reply's
// 11; a draw of TestRenamingIsInvariant that once moved tau-retail's run
// 2 from step 6 to 16.
func TestRenamingToANumberedName(t *testing.T) {
	c, err := run.LoadCase(filepath.Join(runtest.TauDir(t), "2.json"), run.Options{})
	require.NoError(t, err)
	before := attribute(t, c.Run)
	rr, names := renamedTo(c.Run, []string{"ZqAB", "ZqAAAAAA", "ZqAAAA", "ZqAA 11"})
	after := attribute(t, rr)
	assert.Equal(t, before.Step, after.Step)
	assert.Equal(t, names[before.Agent], after.Agent)
}

// BenchmarkCombineCorpora times the rules stage alone, the analyzers and
// the combiner, on both corpora read and prepared once: extract and graph,
// which dominate BenchmarkAttributeDev, are left out.
func BenchmarkCombineCorpora(b *testing.B) {
	var ins []*Input
	for _, c := range runtest.SharedCases(b, runtest.AllFiles(b)) {
		ins = append(ins, inputOf(b, c.Run))
	}
	comb := Default()
	for b.Loop() {
		for _, in := range ins {
			// A fresh Input: one already read keeps its ground truth's reading.
			comb.Attribute(&Input{Run: in.Run, Features: in.Features, Graph: in.Graph})
		}
	}
	b.ReportMetric(float64(len(ins)*b.N)/b.Elapsed().Seconds(), "runs/s")
}

// zeroers remove one extracted fact from a run and its features (both
// copies the caller owns). Of the graph's facts, the data flow and the
// instructions are removed too (graphWithout); the trials stay.
var zeroers = map[Fact]func(r *run.Run, rf *extract.RunFeatures){
	FactKinds: eachStep(func(f *extract.Features) {
		f.Kind, f.Kinds, f.Target, f.Asks, f.AsksChoice, f.Affirms, f.Picks = 0, 0, "", false, false, false, false
	}),
	FactSignals: eachStep(func(f *extract.Features) {
		f.Errors, f.Successes, f.ExitCode, f.Unreachable, f.ServiceFault, f.TurnLimit, f.Refused, f.Passes = nil, nil, nil, false, false, false, nil, nil
	}),
	FactClaims: func(r *run.Run, rf *extract.RunFeatures) {
		rf.Question, rf.Renames, rf.ShowsReported, rf.TaskFiles = nil, nil, nil, nil
		eachStep(func(f *extract.Features) {
			f.Claims, f.MonthDays, f.Codes, f.Counts, f.Done, f.Asked, f.RelativeDay, f.Weekdays, f.IDFields, f.Records, f.Grouped, f.Stale = nil, nil, nil, nil, nil, nil, false, nil, nil, nil, nil, nil
			f.Image = false
		})(r, rf)
	},
	FactToolCalls: eachStep(func(f *extract.Features) {
		f.Calls, f.Code, f.CodeWrites, f.Tool, f.Caller, f.PassedOver, f.OverCap, f.ListedPick, f.Clash, f.OverBudget = nil, nil, nil, "", extract.NoCaller, nil, nil, nil, nil, nil
	}),
	FactVerdicts: eachStep(func(f *extract.Features) { f.Ledger, f.SendsLedger = nil, nil }),
	FactPolicies: func(r *run.Run, rf *extract.RunFeatures) {
		rf.Guards = nil
		eachStep(func(f *extract.Features) { f.Policies = nil })(r, rf)
	},
	FactFinalAnswer: func(r *run.Run, rf *extract.RunFeatures) {
		rf.FinalAnswer = nil
		eachStep(func(f *extract.Features) { f.Answer = "" })(r, rf)
	},
	FactGroundTruth: func(r *run.Run, rf *extract.RunFeatures) { r.GroundTruth, rf.ExpectedCalls = "", nil },
	FactCritiques:   eachStep(func(f *extract.Features) { f.Critique = nil }),
	FactStates:      eachStep(func(f *extract.Features) { f.States = nil }),
	FactRequirements: func(_ *run.Run, rf *extract.RunFeatures) {
		rf.Requirements, rf.AskedUnits, rf.AsksExtreme = nil, nil, 0
	},
}

func eachStep(zero func(*extract.Features)) func(*run.Run, *extract.RunFeatures) {
	return func(_ *run.Run, rf *extract.RunFeatures) {
		for i := range rf.Steps {
			// The steps are a copy of a run's: their details are the
			// run's until cloned.
			rf.Steps[i] = rf.Steps[i].Clone()
			zero(&rf.Steps[i])
		}
	}
}

// without returns in with every extracted fact but keep zeroed, and the
// graph's data flow and instructions unless kept: a new run, new features
// and graph.
func without(tb testing.TB, in *Input, keep []Fact) *Input {
	r := *in.Run
	rf := &extract.RunFeatures{Steps: slices.Clone(in.Features.Steps), Question: in.Features.Question,
		FinalAnswer: in.Features.FinalAnswer, ExpectedCalls: in.Features.ExpectedCalls, Requirements: in.Features.Requirements,
		QuestionWordNumbers: in.Features.QuestionWordNumbers, AsksExtreme: in.Features.AsksExtreme, Guards: in.Features.Guards}
	for fact, zero := range zeroers {
		if !slices.Contains(keep, fact) {
			zero(&r, rf)
		}
	}
	// The first-error baseline's fact: no analyzer reads it.
	eachStep(func(f *extract.Features) { f.FailureWords = nil })(&r, rf)
	return &Input{Run: &r, Features: rf, Graph: graphWithout(tb, in, keep)}
}

// graphWithout is in's graph, or, when keep lacks the data flow or the
// instructions, the graph of a run and features without what those edges
// are drawn from: data edges join the steps that state a value, so
// without the steps' claims there are none; instructs edges join a step to
// the agent it addresses, so without targets there are none. The trials
// are the full graph's.
func graphWithout(tb testing.TB, in *Input, keep []Fact) *graph.Graph {
	key := graphKey{in.Run, !slices.Contains(keep, FactDataFlow), !slices.Contains(keep, FactInstructs)}
	if !key.noData && !key.noInstructs {
		return in.Graph
	}
	if g, ok := graphs.Load(key); ok {
		return g.(*graph.Graph)
	}
	r := *in.Run
	rf := &extract.RunFeatures{Steps: slices.Clone(in.Features.Steps), Question: in.Features.Question,
		FinalAnswer: in.Features.FinalAnswer, ExpectedCalls: in.Features.ExpectedCalls}
	if key.noData {
		eachStep(func(f *extract.Features) { f.Claims = nil })(&r, rf)
	}
	if key.noInstructs {
		eachStep(func(f *extract.Features) { f.Target = "" })(&r, rf)
		r.Steps = slices.Clone(r.Steps)
		for i := range r.Steps {
			r.Steps[i].Edit().Target = ""
		}
	}
	g, err := graph.Build(&r, rf)
	require.NoError(tb, err)
	graphs.Store(key, g)
	return g
}

// graphKey names one of graphWithout's graphs.
type graphKey struct {
	run                 *run.Run
	noData, noInstructs bool
}

// graphs holds graphWithout's graphs.
var graphs sync.Map // graphKey → *graph.Graph

// TestAnalyzersReadOnlyWhatTheyRequire runs each analyzer on every run of
// the labelled systems twice, with every fact and with only the facts it
// declares in Requires: its findings must not change.
func TestAnalyzersReadOnlyWhatTheyRequire(t *testing.T) {
	for _, c := range runtest.SharedCases(t, runtest.SystemFiles(t)) {
		r := c.Run
		for _, a := range Registry {
			full := Apply(inputOf(t, r), []*Analyzer{a})
			only := Apply(without(t, inputOf(t, r), a.Requires), []*Analyzer{a})
			assert.Equal(t, full, only, "%s on %s: it reads a fact it does not require", a.Name, runtest.Name(r.Source))
		}
	}
}

// TestEveryFactCanBeZeroed: the test above removes each fact an analyzer
// may declare.
func TestEveryFactCanBeZeroed(t *testing.T) {
	for _, a := range Registry {
		for _, fact := range a.Requires {
			_, extracted := zeroers[fact]
			assert.True(t, extracted || slices.Contains([]Fact{FactDataFlow, FactInstructs, FactTrials}, fact), "%s requires %s", a.Name, fact)
		}
	}
}
