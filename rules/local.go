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
	raw := map[int]Finding{}
	var order []int
	add := func(f Finding) {
		if old, ok := raw[f.Step]; !ok || f.Strength > old.Strength {
			if !ok {
				order = append(order, f.Step)
			}
			raw[f.Step] = f
		}
	}
	for j := range in.Features.Steps {
		f := &in.Features.Steps[j]
		if sig, failed := toolFailed(f); failed {
			if corrected(in, j) >= 0 {
				continue // a failure the run recovered from is not a fault that decided it (CHIEF deviation-aware)
			}
			if c := callerOf(in, j); c >= 0 {
				add(Finding{Step: c, Strength: failureWeight(sig), Quote: quoteAt(in, j, sig.Offset, len(sig.Quote)), QuoteStep: quotedFrom(j),
					Reason: fmt.Sprintf("the code or call it issued failed when run at step %d (%s)", j, sig.Kind)})
			}
			continue
		}
		if !isAgentDecision(in, j) {
			continue
		}
		if sig, ok := strongestError(f); ok && sig.Severity >= extract.SeverityMedium {
			add(Finding{Step: j, Strength: 0.5, Quote: quoteAt(in, j, sig.Offset, len(sig.Quote)),
				Reason: fmt.Sprintf("the agent reports it could not do its part (%s)", sig.Kind)})
		}
	}
	var out []Finding
	for _, i := range order {
		f := raw[i]
		for _, p := range in.Graph.Predecessors(i, graph.Data, graph.Instructs, graph.Observes) {
			if pf, ok := raw[p]; ok && p < i && pf.Strength >= f.Strength {
				f.Strength *= 0.5
				f.Reason += fmt.Sprintf("; but its input from step %d was already faulty", p)
				break
			}
		}
		out = append(out, f)
	}
	return out
}

// LocalFault is the local_fault analyzer.
var LocalFault = &Analyzer{Name: "local_fault", Run: localFault, Requires: []Fact{FactKinds, FactSignals, FactToolCalls, FactDataFlow, FactInstructs},
	Doc: "a step whose own call or code failed, or that reports it could not do its part; less when its input was already faulty (CHIEF local attribution)"}
