package analyzecmd

import (
	"fmt"

	"github.com/offattr/offattr/internal/escape"
	"github.com/offattr/offattr/rules"
)

// verdict is the one line that says, with a model, the rules' pick, the
// model's pick, the final answer, and why they differ; "" without one.
func verdict(a rules.Attribution) string {
	m := a.Model
	if m == nil || m.RulesPick == nil {
		return ""
	}
	pick := func(p *rules.Pick) string { return fmt.Sprintf("step %d (%s)", p.Step, escape.Line(p.Agent)) }
	final := &rules.Pick{Step: a.Step, Agent: a.Agent}
	head := fmt.Sprintf("rules' pick %s, ", pick(m.RulesPick))
	if m.ModelPick == nil {
		return head + fmt.Sprintf("model's pick none, final answer %s: no analyst's vote counted, so the rules' answer stands", pick(final))
	}
	head += fmt.Sprintf("model's pick %s, final answer %s: ", pick(m.ModelPick), pick(final))
	support := func(step int) string {
		votes, reader := 0, false
		for _, s := range m.Signals {
			if s.Step == step {
				votes, reader = len(s.Votes), s.Reader
			}
		}
		out := fmt.Sprintf("%d of %d analysts", votes, len(m.Analysts))
		if reader {
			out += " and a reader"
		}
		return out
	}
	weights := m.Weights + " model weights"
	switch {
	case m.RulesPick.Step == m.ModelPick.Step && a.Step == m.RulesPick.Step:
		return head + fmt.Sprintf("the rules and the model agree (%s)", support(a.Step))
	case a.Step == m.RulesPick.Step:
		return head + fmt.Sprintf("%s named step %d, not enough to outweigh the rules under the %s", support(m.ModelPick.Step), m.ModelPick.Step, weights)
	case a.Step == m.ModelPick.Step:
		return head + fmt.Sprintf("%s named step %d, which outweighs the rules under the %s", support(a.Step), a.Step, weights)
	default:
		return head + fmt.Sprintf("weighing the rules' probabilities with the model's signals under the %s puts step %d (%s) ahead of both", weights, a.Step, support(a.Step))
	}
}
