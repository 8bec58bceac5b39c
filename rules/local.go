package rules

import (
	"fmt"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
)

// localFault is CHIEF's local attribution: a step whose own action failed
// (its code or tool call errored, or it reports that it could not do its
// job) is a fault, and its own root when the steps it read were sound. When
// an input was already faulty the fault is propagated, and scored lower.
func localFault(in *Input) []Finding {
	// Each step's strongest finding, in the order its step was first
	// found; at[step] is its position in out. A long run has a finding
	// for many of its steps: a map of them by step held each one twice.
	var out []Finding
	at := map[int]int{}
	var causes [][2]int // a failing step and the step that first wrote the name its error quotes
	add := func(f Finding) {
		k, ok := at[f.Step]
		switch {
		case !ok:
			at[f.Step] = len(out)
			out = append(out, f)
		case f.Strength > out[k].Strength:
			out[k] = f
		}
	}
	for j := range in.Features.Steps {
		f := &in.Features.Steps[j]
		if sig, failed := toolFailed(f); failed {
			if corrected(in, j) >= 0 {
				continue // a failure the run recovered from is not a fault that decided it (CHIEF deviation-aware)
			}
			if c := callerOf(in, j); c >= 0 {
				if o, n := omittedModule(in, j); o >= 0 && o < c {
					// The code imports what the design laid out; the
					// module's file went missing from the list.
					add(Finding{Step: o, Strength: failureWeight(sig), Quote: quoteAt(in, o, 0, 0),
						Reason: fmt.Sprintf("it lists the files to write without %s, which the failed run at step %d quotes as missing", n, j)})
					continue
				}
				add(Finding{Step: c, Strength: failureWeight(sig), Quote: quoteAt(in, j, sig.Offset, len(sig.Quote)), QuoteStep: quotedFrom(j),
					Reason: fmt.Sprintf("the code or call it issued failed when run at step %d (%s)", j, sig.Kind)})
			}
			continue
		}
		if !isAgentDecision(in, j) {
			continue
		}
		if sig, ok := stepError(in, j); ok && sig.Severity >= extract.SeverityMedium {
			add(Finding{Step: j, Strength: 0.5, Quote: quoteAt(in, j, sig.Offset, len(sig.Quote)),
				Reason: fmt.Sprintf("the agent reports it could not do its part (%s)", sig.Kind)})
			if o, why := errorCause(in, j); o >= 0 {
				add(Finding{Step: o, Strength: 0.5, Quote: causeQuote(in, o, j), Reason: why})
				causes = append(causes, [2]int{j, o})
			}
		}
	}
	// Which findings' input was already faulty is read off the findings as
	// found, before any is changed.
	faulty := make([]int, len(out))
	for k, f := range out {
		faulty[k] = -1
		for _, p := range in.Graph.Predecessors(f.Step, graph.Data, graph.Instructs, graph.Observes) {
			if j, ok := at[p]; ok && p < f.Step && out[j].Strength >= f.Strength {
				faulty[k] = p
				break
			}
		}
	}
	// A failure whose error names what an earlier step first wrote had a
	// faulty input too: the name it was given.
	for _, c := range causes {
		if k := at[c[0]]; faulty[k] < 0 {
			faulty[k] = c[1]
		}
	}
	for k, p := range faulty {
		if p >= 0 {
			out[k].Strength *= 0.5
			out[k].Reason += fmt.Sprintf("; but its input from step %d was already faulty", p)
		}
	}
	return out
}

// LocalFault is the local_fault analyzer.
var LocalFault = &Analyzer{Name: "local_fault", Run: localFault, Requires: []Fact{FactKinds, FactSignals, FactToolCalls, FactDataFlow, FactInstructs},
	Doc: "a step whose own call or code failed, or that reports it could not do its part; less when its input was already faulty (CHIEF local attribution)"}
