package graph

import "github.com/offattr/offattr/extract"

// kindSet is the set of extract kinds a step has, as bits, so that the edge
// finders can test kinds without walking slices in their inner loops.
type kindSet uint32

// kindBits is built by a function, not init, so that the package-level sets
// below, which depend on it, are initialised after it.
var kindBits = func() map[extract.StepKind]kindSet {
	m := map[extract.StepKind]kindSet{}
	for i, k := range []extract.StepKind{
		extract.KindPlan, extract.KindReplan, extract.KindLedger, extract.KindInstruction,
		extract.KindThought, extract.KindToolCall, extract.KindToolResult, extract.KindAnswer,
		extract.KindFinalAnswer, extract.KindTermination, extract.KindVerification,
		extract.KindTask, extract.KindMessage,
	} {
		m[k] = 1 << i
	}
	return m
}()

func kindsOf(f *extract.Features) kindSet {
	s := kindBits[f.Kind]
	for _, k := range f.Kinds {
		s |= kindBits[k]
	}
	return s
}

func setOf(ks ...extract.StepKind) kindSet {
	var s kindSet
	for _, k := range ks {
		s |= kindBits[k]
	}
	return s
}

func (s kindSet) has(k extract.StepKind) bool { return s&kindBits[k] != 0 }
func (s kindSet) any(o kindSet) bool          { return s&o != 0 }

var (
	// planKinds are the kinds that make an agent a planner: it decides what
	// others do.
	planKinds = setOf(extract.KindPlan, extract.KindReplan, extract.KindInstruction, extract.KindLedger)
	// trialKinds open a trial.
	trialKinds = setOf(extract.KindPlan, extract.KindReplan)
	// controlKinds are the planner's own words; error signals in them are
	// restatements, not feedback it receives.
	controlKinds = setOf(extract.KindPlan, extract.KindReplan, extract.KindInstruction,
		extract.KindLedger, extract.KindThought, extract.KindTermination, extract.KindTask)
)
