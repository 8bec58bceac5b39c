package localllm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/rules"
)

func analyst(role int, step int, conf float64, crit map[int]float64) outcome {
	a := &answer{Criteria: map[int]criteria{}, Vote: vote{Step: step, Confidence: conf, Reason: "r"}}
	for s, c := range crit {
		a.Criteria[s] = criteria{c, c, c}
	}
	return outcome{role: Roles[role], answer: a}
}

func TestCombine(t *testing.T) {
	judged := []rules.Candidate{{Step: 3, Agent: "A", Score: 0.6}, {Step: 7, Agent: "B", Score: 0.4}}
	rulesAnswer := rules.Attribution{Step: 3, Agent: "A", Confidence: 0.8, Mode: rules.ModeRules, Candidates: judged, Rationale: "R."}
	even := map[int]float64{3: 0.5, 7: 0.5}
	tests := []struct {
		name      string
		att       rules.Attribution
		outs      []outcome
		wantStep  int
		wantConf  float64
		wantMode  string
		wantNotes []string
	}{
		{
			// V = {7: 0.9+0.8}; E even; m_7 = ½·1 + ½·½ = ¾, m_3 = ¼; μ = 0.85.
			name:     "two confident analysts outvote the rules",
			att:      rulesAnswer,
			outs:     []outcome{analyst(0, 7, 0.9, even), analyst(1, 7, 0.8, even)},
			wantStep: 7, wantConf: (0.8*0.4 + 0.85*0.75) / 1.65, wantMode: rules.ModeRulesLLM,
		},
		{
			// One analyst for 7 at 0.3: μ = 0.3, m_7 = ¾; S_3 = (0.48+0.075)/1.1
			// just beats S_7 = (0.32+0.225)/1.1.
			name:     "a weak analyst does not",
			att:      rulesAnswer,
			outs:     []outcome{analyst(0, 7, 0.3, even)},
			wantStep: 3, wantConf: (0.8*0.6 + 0.3*0.25) / 1.1, wantMode: rules.ModeRulesLLM,
		},
		{
			name:     "analysts below delta are left out",
			att:      rulesAnswer,
			outs:     []outcome{analyst(0, 7, 0.29, even), analyst(1, 7, 0.1, even)},
			wantStep: 3, wantConf: 0.8, wantMode: rules.ModeRulesLLM,
			wantNotes: []string{"Every analyst was less sure than δ=0.3; the rules' answer stands.", "2 below δ=0.3 left out"},
		},
		{
			name:     "criteria decide between split votes",
			att:      rulesAnswer,
			outs:     []outcome{analyst(0, 3, 0.6, map[int]float64{3: 0.2, 7: 0.9}), analyst(1, 7, 0.6, map[int]float64{3: 0.2, 7: 0.9})},
			wantStep: 7, wantConf: (0.8*0.4 + 0.6*(0.25+0.5*0.9/1.1)) / 1.4, wantMode: rules.ModeRulesLLM,
			wantNotes: []string{"2 steps voted, confidence spread 0.00"},
		},
		{
			name:     "rules with no confidence leave it to the model",
			att:      rules.Attribution{Step: 3, Agent: "A", Confidence: 0, Candidates: judged},
			outs:     []outcome{analyst(0, 7, 0.5, even)},
			wantStep: 7, wantConf: 0.75, wantMode: rules.ModeRulesLLM,
		},
		{
			name:     "no usable answer keeps the rules' answer",
			att:      rulesAnswer,
			outs:     []outcome{{role: Roles[0], problem: "not JSON"}, {role: Roles[1], problem: "timed out"}},
			wantStep: 3, wantConf: 0.8, wantMode: rules.ModeRulesLLM,
			wantNotes: []string{"The model m gave no usable answer (not JSON; timed out); the rules' answer stands."},
		},
		{
			// V_3 = 0.95, V_7 = 1.25, μ = 2.2/3: the rules and one sure analyst
			// outweigh two analysts, one of them unsure.
			name:     "disagreement is reported",
			att:      rulesAnswer,
			outs:     []outcome{analyst(0, 3, 0.95, even), analyst(1, 7, 0.9, even), analyst(2, 7, 0.35, even), {role: Roles[3], problem: "timed out"}},
			wantStep: 3, wantConf: (0.8*0.6 + 2.2/3*(0.5*0.95/2.2+0.25)) / (0.8 + 2.2/3), wantMode: rules.ModeRulesLLM,
			wantNotes: []string{"Disagreement: 1 without a usable answer (timed out); 2 steps voted, confidence spread 0.60, review advised."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := combine(tt.att, judged, tt.outs, Model{Name: "m"}, Roles[:len(tt.outs)])
			assert.Equal(t, tt.wantStep, got.Step)
			assert.InDelta(t, tt.wantConf, got.Confidence, 1e-6)
			assert.Equal(t, tt.wantMode, got.Mode)
			for _, n := range tt.wantNotes {
				assert.Contains(t, got.Rationale, n)
			}
			if tt.wantMode == rules.ModeRulesLLM && got.Step != tt.att.Step {
				require.NotEmpty(t, got.Candidates)
				assert.Equal(t, got.Step, got.Candidates[0].Step)
				sum := 0.0
				for _, c := range got.Candidates {
					sum += c.Score
				}
				assert.InDelta(t, 1, sum, 1e-9, "scores are shares of the vote")
			}
		})
	}
}

func TestCombineKeepsUnjudgedCandidatesBelow(t *testing.T) {
	all := []rules.Candidate{{Step: 1, Agent: "A", Score: 3}, {Step: 2, Agent: "B", Score: 2}, {Step: 9, Agent: "C", Score: 1}}
	att := rules.Attribution{Step: 1, Agent: "A", Confidence: 1, Candidates: all}
	got := combine(att, all[:2], []outcome{analyst(0, 2, 1, map[int]float64{1: 0, 2: 1})}, Model{Name: "m"}, Roles[:1])
	assert.Equal(t, []int{2, 1, 9}, steps(got.Candidates))
	// S_9 = ρ·(1/5) / (ρ+μ), below both judged ones.
	assert.InDelta(t, 0.1, got.Candidates[2].Score, 1e-9)
}
