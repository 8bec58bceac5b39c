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
		raised    map[int]int // steps a reader named, and among how many
		wantStep  int
		wantConf  float64 // checked when the rules' answer stands unweighed
		wantNotes []string
	}{
		{
			name:     "a reader and two analysts that agree outvote the rules",
			att:      rulesAnswer,
			outs:     []outcome{analyst(0, 7, 0.9, even), analyst(1, 7, 0.8, even)},
			raised:   map[int]int{7: 10},
			wantStep: 7,
		},
		{
			name:     "two analysts alone do not overturn a clear lead",
			att:      rules.Attribution{Step: 3, Agent: "A", Confidence: 0.8, Candidates: []rules.Candidate{{Step: 3, Agent: "A", Score: 0.8}, {Step: 7, Agent: "B", Score: 0.2}}},
			outs:     []outcome{analyst(0, 7, 0.9, even), analyst(1, 7, 0.8, even)},
			wantStep: 3,
		},
		{
			name:     "one of two analysts does not",
			att:      rulesAnswer,
			outs:     []outcome{analyst(0, 7, 0.9, even), analyst(1, 3, 0.6, even)},
			wantStep: 3,
		},
		{
			name:     "one analyst alone does not",
			att:      rulesAnswer,
			outs:     []outcome{analyst(0, 7, 0.9, even)},
			wantStep: 3,
		},
		{
			name:     "analysts below delta are left out",
			att:      rulesAnswer,
			outs:     []outcome{analyst(0, 7, 0.29, even), analyst(1, 7, 0.1, even)},
			wantStep: 3, wantConf: 0.8,
			wantNotes: []string{"Every analyst was less sure than δ=0.3; the rules' answer stands.", "2 below δ=0.3 left out"},
		},
		{
			name:     "no usable answer keeps the rules' answer",
			att:      rulesAnswer,
			outs:     []outcome{{role: Roles[0], problem: "not JSON"}, {role: Roles[1], problem: "timed out"}},
			wantStep: 3, wantConf: 0.8,
			wantNotes: []string{"The model m gave no usable answer (not JSON; timed out); the rules' answer stands."},
		},
		{
			// Two of three analysts for 7 are a majority, yet the rules'
			// answer and the third analyst outweigh it.
			name:      "disagreement is reported",
			att:       rulesAnswer,
			outs:      []outcome{analyst(0, 3, 0.95, even), analyst(1, 7, 0.9, even), analyst(2, 7, 0.35, even), {role: Roles[3], problem: "timed out"}},
			wantStep:  3,
			wantNotes: []string{"Disagreement: 1 without a usable answer (timed out); 2 steps voted, confidence spread 0.60, review advised."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			review := &rules.ModelReview{}
			got := combine(tt.att, judged, tt.outs, Model{Name: "m"}, Roles[:len(tt.outs)], tt.raised, review, nil)
			assert.Equal(t, tt.wantStep, got.Step)
			assert.Equal(t, rules.ModeRulesLLM, got.Mode)
			assert.Equal(t, &rules.Pick{Step: 3, Agent: "A"}, review.RulesPick)
			for _, n := range tt.wantNotes {
				assert.Contains(t, got.Rationale, n)
			}
			if review.ModelPick == nil {
				assert.InDelta(t, tt.wantConf, got.Confidence, 1e-9, "the rules' answer stands")
				assert.Equal(t, tt.att.Candidates, got.Candidates)
				return
			}
			require.NotEmpty(t, got.Candidates)
			assert.Equal(t, got.Step, got.Candidates[0].Step)
			assert.Equal(t, got.Confidence, got.Candidates[0].Score)
			sum := 0.0
			for _, c := range got.Candidates {
				sum += c.Score
			}
			assert.InDelta(t, 1, sum, 0.002, "scores are probabilities")
		})
	}
}

func TestCombineKeepsUnjudgedCandidatesBelow(t *testing.T) {
	all := []rules.Candidate{{Step: 1, Agent: "A", Score: 3}, {Step: 2, Agent: "B", Score: 2}, {Step: 9, Agent: "C", Score: 1}}
	att := rules.Attribution{Step: 1, Agent: "A", Confidence: 1, Candidates: all}
	got := combine(att, all[:2], []outcome{analyst(0, 2, 1, map[int]float64{1: 0, 2: 1})}, Model{Name: "m"}, Roles[:1], nil, &rules.ModelReview{}, nil)
	// One analyst for 2 does not outweigh the rules' answer; 9, which no
	// one judged, keeps its place below.
	assert.Equal(t, []int{1, 2, 9}, steps(got.Candidates))
	assert.Equal(t, 1, got.Candidates[1].Votes)
}
