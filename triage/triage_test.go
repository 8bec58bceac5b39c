package triage

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/rules"
)

func att(step int, conf float64, cands ...rules.Candidate) rules.Attribution {
	return rules.Attribution{Agent: "Coder", Step: step, Confidence: conf, Mode: rules.ModeRules, Candidates: cands}
}

func TestDecide(t *testing.T) {
	llm := func(a rules.Attribution, steps ...int) rules.Attribution {
		a.Mode = rules.ModeRulesLLM
		for _, s := range steps {
			a.Votes = append(a.Votes, rules.Vote{Analyst: "skeptical", Step: s, Confidence: 0.8})
		}
		return a
	}
	tests := []struct {
		name   string
		in     rules.Attribution
		class  Class
		reason string
	}{
		{"confident with a lead", att(3, 0.9, rules.Candidate{Step: 3, Score: 0.9}, rules.Candidate{Step: 5, Score: 0.4}),
			Clear, "confidence 0.9 ≥ 0.75"},
		{"confident and model agrees", llm(att(3, 0.8), 3, 3), Clear, "confidence 0.8 ≥ 0.75, rules and model agree"},
		{"at the clear threshold", att(1, 0.75), Clear, "confidence 0.75 ≥ 0.75"},
		{"close runner-up", att(3, 0.9, rules.Candidate{Step: 3, Score: 0.9}, rules.Candidate{Step: 4, Agent: "Web", Score: 0.85}),
			Review, "close call: step 4 (Web) scores 0.85, within 0.1 of the answer"},
		{"middling confidence", att(3, 0.6), Review, "confidence 0.6 between 0.4 and 0.75"},
		{"low confidence", att(3, 0.2), Escalate, "low confidence 0.2 < 0.4"},
		{"model disagrees", llm(att(3, 0.95), 3, 7, 5, 7), Escalate, "judges disagree: answer is step 3, model voted for step 5, 7"},
		{"no candidate", rules.Attribution{Step: -1}, Escalate, "no decisive candidate"},
		{"no agent", rules.Attribution{Step: 2, Confidence: 0.9}, Escalate, "no decisive candidate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Decide(tt.in, Defaults())
			assert.Equal(t, tt.class, d.Class)
			assert.Equal(t, tt.reason, d.Reason)
		})
	}
}

// TestDecideBySpread: bands that clear by spread clear a run whose step
// model weighs few steps, whatever its confidence, unless it is escalated.
func TestDecideBySpread(t *testing.T) {
	spread := func(a rules.Attribution, s float64) rules.Attribution { a.Spread = s; return a }
	// moved is a as a model weighed with the rules answers it, the rules
	// having picked step from.
	moved := func(a rules.Attribution, from int) rules.Attribution {
		a.Mode = rules.ModeRulesLLM
		a.Votes = []rules.Vote{{Analyst: "skeptical", Step: a.Step, Confidence: 0.8}}
		a.Model = &rules.ModelReview{RulesPick: &rules.Pick{Step: from, Agent: "Coder"}}
		return a
	}
	bands := Thresholds{Clear: 1, Escalate: 0.4, Spread: 0.9}
	for _, tt := range []struct {
		name   string
		in     rules.Attribution
		t      Thresholds
		class  Class
		reason string
	}{
		{"narrow", spread(att(3, 0.5), 0.6), bands, Clear, "the evidence points at few steps: spread 0.6 ≤ 0.9"},
		{"at the bar", spread(att(3, 0.5), 0.9), bands, Clear, "the evidence points at few steps: spread 0.9 ≤ 0.9"},
		{"wide", spread(att(3, 0.5), 1.4), bands, Review, "confidence 0.5 ≥ 0.4; spread 1.4 > 0.9, the most these weights clear"},
		{"narrow but unsure", spread(att(3, 0.3), 0.2), bands, Escalate, "low confidence 0.3 < 0.4"},
		{"no spread band", spread(att(3, 0.5), 0.2), Thresholds{Clear: 1, Escalate: 0.4}, Review, "confidence 0.5 ≥ 0.4; these weights clear no run"},
		{"confident and wide", spread(att(3, 0.95), 2), Thresholds{Clear: 0.9, Escalate: 0.4, Spread: 0.9}, Clear, "confidence 0.95 ≥ 0.9"},
		{"narrow, the model agreeing", moved(spread(att(3, 0.5), 0.6), 3), bands, Clear, "the evidence points at few steps: spread 0.6 ≤ 0.9, rules and model agree"},
		{"narrow on a step the model moved from", moved(spread(att(3, 0.5), 0.6), 5), bands, Review, "confidence 0.5 ≥ 0.4; the model moved the answer from step 5, where the rules' spread 0.6 points"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := Decide(tt.in, tt.t)
			assert.Equal(t, tt.class, d.Class)
			assert.Equal(t, tt.reason, d.Reason)
		})
	}
}

// TestOverrideForSpread: the fitted spread band stays unless the user sets
// what is clear.
func TestOverrideForSpread(t *testing.T) {
	b := rules.Bands{Clear: 1, Escalate: 0.4, ClearSpread: 0.9}
	x, y := 0.8, 0.2
	assert.Equal(t, Thresholds{Clear: 1, Escalate: 0.4, Spread: 0.9}, Override{}.For(b))
	assert.Equal(t, Thresholds{Clear: 1, Escalate: 0.2, Spread: 0.9}, Override{Escalate: &y}.For(b))
	assert.Equal(t, Thresholds{Clear: 0.8, Escalate: 0.4}, Override{Clear: &x}.For(b))
}

func TestThresholdsAreConfigurable(t *testing.T) {
	strict := Thresholds{Clear: 0.95, Escalate: 0.7, Margin: 0}
	assert.Equal(t, Escalate, Decide(att(1, 0.6), strict).Class)
	assert.Equal(t, Review, Decide(att(1, 0.9), strict).Class)
	assert.Equal(t, Clear, Decide(att(1, 0.96), strict).Class)
}

func TestReasonKeepsThresholdsApart(t *testing.T) {
	assert.Equal(t, "confidence 0.746 between 0.4 and 0.75", Decide(att(1, 0.7462), Defaults()).Reason)
	assert.Equal(t, "confidence 0 ≥ 0; these weights clear no run", Decide(att(1, 0), Thresholds{Clear: 1}).Reason)
}

func TestValidate(t *testing.T) {
	assert.NoError(t, Defaults().Validate())
	assert.ErrorContains(t, Thresholds{Clear: 0.3, Escalate: 0.5}.Validate(), "escalate-below (0.50) ≤ clear-above (0.30)")
	assert.ErrorContains(t, Thresholds{Clear: 1.2}.Validate(), "≤ 1")
	assert.ErrorContains(t, Thresholds{Clear: 0.8, Margin: -1}.Validate(), "margin")
	assert.ErrorContains(t, Thresholds{Clear: 0.8, Spread: -1}.Validate(), "spread")
}

func TestOverride(t *testing.T) {
	fitted := Thresholds{Clear: 0.6, Escalate: 0.4}
	x, y, z := 0.9, 0.1, 0.2
	for _, tt := range []struct {
		name string
		o    Override
		want Thresholds
	}{
		{"none", Override{}, fitted},
		{"clear", Override{Clear: &x}, Thresholds{Clear: 0.9, Escalate: 0.4}},
		{"escalate", Override{Escalate: &y}, Thresholds{Clear: 0.6, Escalate: 0.1}},
		{"margin", Override{Margin: &z}, Thresholds{Clear: 0.6, Escalate: 0.4, Margin: 0.2}},
		{"all", Override{Clear: &x, Escalate: &y, Margin: &z}, Thresholds{Clear: 0.9, Escalate: 0.1, Margin: 0.2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.o.Over(fitted))
		})
	}
}
