package rules

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/run"
)

// Input is everything the rules read about one run. A *run.Run cannot
// carry the benchmark label (see run.Case). Its reading of the ground truth
// is made once, on first use, for every analyzer, and so are the index of
// which later results correct a failure and the index of which earlier
// steps hold a value, the last for as long as one Apply runs: Run and
// Features must not change after that, and an Input is not copied once
// read.
type Input struct {
	Run      *run.Run
	Features *extract.RunFeatures
	Graph    *graph.Graph

	truthOnce sync.Once
	truth     truth // groundTruth's

	fixesOnce sync.Once
	fixes     fixes // corrected's

	supportMu sync.Mutex
	shared    *support // supportIndex's, while Apply runs
}

// Finding is one analyzer's observation about one step. A positive
// strength implicates the step as the decisive fault, a negative one
// exonerates it; the combiner's fitted weights decide how much either
// counts.
type Finding struct {
	Rule     string  `json:"rule"`
	Step     int     `json:"step"`
	Strength float64 `json:"strength"` // in [-1, 1]
	Quote    string  `json:"quote"`
	Reason   string  `json:"reason"`
	// QuoteStep is the step Quote was taken from when that is not Step;
	// nil when it is Step's own text.
	QuoteStep *int `json:"quote_step,omitempty"`
}

// quotedFrom returns a QuoteStep for a quote taken from step j.
func quotedFrom(j int) *int { return &j }

// Fact names a kind of fact an analyzer reads. Every fact is framework
// neutral: extract or graph derive it from any log.
type Fact string

// The facts analyzers read.
const (
	FactKinds        Fact = "kinds"        // what a step is: plan, instruction, tool call or result, answer, question to the user
	FactSignals      Fact = "signals"      // error and success signals, a report that the checks passed, exit codes, a network's failure, a run stopped at its turn limit
	FactClaims       Fact = "claims"       // values a step states (numbers, dates, names, ids, paths, URLs)
	FactToolCalls    Fact = "tool_calls"   // calls with their tool names and arguments, who answers for each result, and an agent's pick among the choices a result offered (past the task's, over its price cap, a listed row whose fields break the task, a booking over a listed busy time, a total over the task's budget)
	FactVerdicts     Fact = "verdicts"     // a step's judgement of progress: satisfied, looping, no progress
	FactPolicies     Fact = "policies"     // rules the system was given: must, never, only, before
	FactFinalAnswer  Fact = "final_answer" // the run's answer and where it was given
	FactGroundTruth  Fact = "ground_truth" // the correct answer, when the run carries one, and the calls it lists
	FactCritiques    Fact = "critiques"    // where a step says an earlier result is wrong
	FactStates       Fact = "states"       // the states a tool result reports objects in
	FactRequirements Fact = "requirements" // constraints the task states (include, exclude, only, a bound, rounding, a unit, a format, must, a statistic other than the average) and the steps that take each up; the unit its question counts the answer in; whether it asks for the most or the least of something
	FactDataFlow     Fact = "data_flow"    // graph: data edges from a value's first statement to its later uses
	FactInstructs    Fact = "instructs"    // graph: instructions and the steps that carry them out
	FactTrials       Fact = "trials"       // graph: plan/re-plan trials and loop groups
)

// Analyzer is one named deterministic rule, in the manner of
// golang.org/x/tools/go/analysis: a value with a name, a one-line doc, the
// facts it reads, and a Run that returns findings. Analyzers never weigh
// their findings against each other; the combiner does.
type Analyzer struct {
	Name     string
	Doc      string
	Requires []Fact
	Run      func(in *Input) []Finding
}

// Registry lists every analyzer, in the order rationales cite them. Each
// is declared beside the function it runs.
var Registry = []*Analyzer{
	LocalFault, DataFlowOrigin, GroundTruthContradiction, PlanningControl, Feedback, Regression, EditedCheck,
	PrematureSatisfaction, UnverifiedApproval, UnsupportedClaim, UnsupportedPlanValue, Reversibility, TrialFirstFault,
	UnsupportedArguments, UnsupportedAnswer, StateConflict, UnconfirmedAction, StateOrigin, ExpectedActions,
}

// Lookup returns the registered analyzer called name.
func Lookup(name string) (*Analyzer, bool) {
	for _, a := range Registry {
		if a.Name == name {
			return a, true
		}
	}
	return nil, false
}

// Names lists the registered analyzers' names in registry order.
func Names() []string {
	out := make([]string, len(Registry))
	for i, a := range Registry {
		out[i] = a.Name
	}
	return out
}

// Select returns the analyzers to run: the named ones (all when only is
// empty), less the disabled ones, in registry order. An unknown name is an
// error that lists the known ones.
func Select(only, disable []string) ([]*Analyzer, error) {
	for _, n := range slices.Concat(only, disable) {
		if _, ok := Lookup(n); !ok {
			return nil, fmt.Errorf("unknown rule %q (known: %s)", n, strings.Join(Names(), ", "))
		}
	}
	var out []*Analyzer
	for _, a := range Registry {
		if (len(only) == 0 || slices.Contains(only, a.Name)) && !slices.Contains(disable, a.Name) {
			out = append(out, a)
		}
	}
	return out, nil
}

// Apply runs the analyzers over one run and returns their findings, each
// labelled with its analyzer's name, in analyzer order. Findings about a
// step the run does not have, or of no strength, are dropped.
func Apply(in *Input, as []*Analyzer) []Finding {
	defer in.releaseSupport()
	n := len(in.Run.Steps)
	kept := func(f Finding) bool { return 0 <= f.Step && f.Step < n && f.Strength != 0 }
	// The analyzers' findings are counted, then copied into one array of
	// their number: a long run's findings, grown by appends, were copied
	// over several times, each copy held beside the last.
	found := make([][]Finding, len(as))
	total := 0
	for k, a := range as {
		found[k] = a.Run(in)
		for _, f := range found[k] {
			if kept(f) {
				total++
			}
		}
	}
	out := make([]Finding, 0, total)
	for k, a := range as {
		for _, f := range found[k] {
			if kept(f) {
				f.Rule = a.Name
				f.Strength = max(-1, min(1, f.Strength))
				out = append(out, f)
			}
		}
		found[k] = nil
	}
	return out
}
