package localllm

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/rules"
)

func TestLogMean(t *testing.T) {
	for _, c := range []struct {
		prior JudgePrior
		k, j  int
		want  float64
	}{
		{JudgePrior{A: 1, B: 1}, 0, 0, 1},
		{JudgePrior{A: 1, B: 1}, 1, 0, 1.0 / 2},      // E[q] under the uniform
		{JudgePrior{A: 1, B: 1}, 2, 1, 1.0 / 12},     // B(3,2)/B(1,1)
		{JudgePrior{A: 2, B: 2}, 3, 0, 6.0 / 30},     // B(5,2)/B(2,2)
		{JudgePrior{A: 2, B: 2}, 0, 3, 6.0 / 30},     // symmetric
		{JudgePrior{A: 2, B: 2}, 1, 1, 6.0 * 1 / 30}, // B(3,3)/B(2,2)
	} {
		assert.InDelta(t, math.Log(c.want), c.prior.logMean(c.k, c.j), 1e-12, "%v k=%d j=%d", c.prior, c.k, c.j)
	}
}

// TestJudgeEvidence: under the one-coin reading, every asking naming one
// step says more than the same namings spread, and a step no asking was
// shown is where the evidence is 0.
func TestJudgeEvidence(t *testing.T) {
	prior := JudgePrior{A: 2, B: 2}
	// Three analysts vote among three judged steps; no reader.
	all := judging(review(nil, map[string]int{"conservative": 3, "liberal": 3, "detail-focused": 3}), 5, 8)
	got := JudgeEvidence(prior, []int{3, 5, 8, 9}, all)
	// Step 3: named three times among three, 3³·B(5,2)/B(2,2); steps 5
	// and 8: passed over three times, (3/2)³·B(2,5)/B(2,2); step 9: not
	// shown.
	assert.InDelta(t, math.Log(27*6.0/30), got[0], 1e-12)
	assert.InDelta(t, math.Log(27.0/8*6/30), got[1], 1e-12)
	assert.Equal(t, got[1], got[2])
	assert.Equal(t, 0.0, got[3])

	// A reader of ten steps and the three analysts all on step 3, against
	// the reader on step 3 and the analysts spread.
	agree := judging(review([]int{3}, map[string]int{"conservative": 3, "liberal": 3, "detail-focused": 3}), 5, 8)
	spread := judging(review([]int{3}, map[string]int{"conservative": 3, "liberal": 5, "detail-focused": 8}), 5, 8)
	a, s := JudgeEvidence(prior, []int{3, 5}, agree), JudgeEvidence(prior, []int{3, 5}, spread)
	assert.Greater(t, a[0]-a[1], 2*(s[0]-s[1]), "agreement counts for more than its share of namings")
	assert.Greater(t, s[0], s[1], "the step named twice still leads")
}

func hasSignal(r *rules.ModelReview, step int) bool {
	for _, s := range r.Signals {
		if s.Step == step {
			return true
		}
	}
	return false
}
