package graph

import (
	"fmt"

	"github.com/offattr/offattr/extract"
)

// addInstructs links each step of an addressed agent to the instruction it
// answers: among the steps addressed to that agent since it last spoke, the
// latest instruction, or when none is an instruction the latest step naming
// it as next speaker (a ledger, a "next speaker" thought). So a planner that
// writes a ledger, an instruction and a hand-off note to the same agent
// instructs from the instruction, and an instruction superseded before the
// agent speaks gets no edge. A step addressing its own speaker is not a
// hand-off.
func (b *builder) addInstructs() {
	byTarget := map[int][]int{} // agent → steps addressed to it, in order
	for i := 0; i < b.n; i++ {
		name := b.f.Steps[i].Target
		if name == "" {
			name = b.r.Steps[i].Target()
		}
		if a, ok := b.agentIdx[normName(name)]; ok && name != "" && a != int(b.agentOf[i]) {
			byTarget[a] = append(byTarget[a], i)
		}
	}
	for a, addressed := range byTarget {
		// k only moves forward, so the steps weighed for j are those since
		// the agent's previous step: no step addresses its own speaker.
		k := 0
		for _, j32 := range b.stepsOf[a] {
			j := int(j32)
			best, bestInstr := -1, false
			for ; k < len(addressed) && addressed[k] < j; k++ {
				i := addressed[k]
				isInstr := b.kinds[i].Has(extract.KindInstruction)
				if isInstr || !bestInstr {
					best, bestInstr = i, isInstr
				}
			}
			if best >= 0 {
				b.addStepEdge(best, j, Instructs, fmt.Sprintf("to %s: %s", b.agents[a], quote(b.r.Steps[best].Content, 80)))
			}
		}
	}
}

// addObserves links each tool result to the step that consumes it: the
// calling agent's next step, unless a new tool call is issued first (then
// the result was read by whoever spoke next), or, when the caller is unknown,
// the next step that is not itself a tool result. The caller is the step
// whose tool call ID the result answers, else the latest tool call since the
// previous result.
func (b *builder) addObserves() {
	// nextCall[i] / nextPlain[i]: first tool call / first non-result step ≥ i.
	nextCall, nextPlain := make([]int, b.n+1), make([]int, b.n+1)
	nextCall[b.n], nextPlain[b.n] = b.n, b.n
	for i := b.n - 1; i >= 0; i-- {
		nextCall[i], nextPlain[i] = nextCall[i+1], nextPlain[i+1]
		if b.kinds[i].Has(extract.KindToolCall) {
			nextCall[i] = i
		}
		if !b.kinds[i].Has(extract.KindToolResult) {
			nextPlain[i] = i
		}
	}
	for i := 0; i < b.n; i++ {
		if !b.kinds[i].Has(extract.KindToolResult) {
			continue
		}
		consumer, why := -1, ""
		if caller := int(b.f.Steps[i].Caller); caller >= 0 && caller != i {
			if j := b.nextOf(int(b.agentOf[caller]), i); j >= 0 && nextCall[i+1] >= j {
				consumer, why = j, fmt.Sprintf("%s reads the result of its call at step %d", b.agents[b.agentOf[caller]], caller)
			}
		}
		if consumer < 0 && nextPlain[i+1] < b.n {
			consumer, why = nextPlain[i+1], "first step after the tool result"
		}
		if consumer >= 0 {
			b.addStepEdge(i, consumer, Observes, why)
		}
	}
}

// addFeedback links each step that raises an error signal of at least medium
// severity to the first planner step after it: the planner's first chance to
// react. Signals inside the planner's own control steps are restatements and
// are skipped.
func (b *builder) addFeedback() {
	nextPlanner := make([]int, b.n+1)
	nextPlanner[b.n] = -1
	for i := b.n - 1; i >= 0; i-- {
		nextPlanner[i] = nextPlanner[i+1]
		if b.isPlannerStep(i) {
			nextPlanner[i] = i
		}
	}
	for i := 0; i < b.n; i++ {
		if b.kinds[i].Any(controlKinds) {
			continue
		}
		sig := strongest(b.f.Steps[i].Errors)
		if sig == nil {
			continue
		}
		if p := nextPlanner[i+1]; p >= 0 {
			b.addStepEdge(i, p, Feedback, fmt.Sprintf("%s: %s", sig.Kind, quote(sig.Quote, 80)))
		}
	}
}

// strongest returns the first signal of the highest severity, if it is at
// least medium: a hedge or an apology alone is not an error to react to.
func strongest(sigs []extract.Signal) *extract.Signal {
	var best *extract.Signal
	for i := range sigs {
		if sigs[i].Severity >= extract.SeverityMedium && (best == nil || sigs[i].Severity > best.Severity) {
			best = &sigs[i]
		}
	}
	return best
}
