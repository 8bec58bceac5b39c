package graph

import "github.com/offattr/offattr/extract"

// kindSet is the set of extract kinds a step has, so that the edge finders
// can test kinds without walking lists in their inner loops.
type kindSet = extract.KindSet

// kindsOf is f's kinds with its Kind, which features made by hand may give
// alone.
func kindsOf(f *extract.Features) kindSet {
	if f.Kind == 0 {
		return f.Kinds
	}
	return f.Kinds | extract.KindsOf(f.Kind)
}

var setOf = extract.KindsOf

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
