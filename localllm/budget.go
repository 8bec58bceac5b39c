package localllm

import (
	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

// The prompt budget. Every analyst call of a run gets the same budget, so
// the panel shares one rendered context:
//
//	budget = min(clamp(runTokens/3, minCallTokens, maxCallTokens), promptLimit)
//
// A third of the run: the hierarchy compresses, and three analysts together
// then read about as much as the run once (ECHO reads it whole per analyst:
// 25.6K tokens a case on Algorithm-Generated, 53.7K on Hand-Crafted). The
// floor keeps a short run readable in full with the instructions around it;
// the ceiling keeps long runs affordable. With the defaults (3 analysts)
// this is at most 3×3,600 = 10,800 prompt tokens a case.
const (
	minCallTokens = 900
	maxCallTokens = 3600
)

// callBudget is the prompt budget of each call for a run of runTokens;
// fixed > 0 overrides the sizing, limit (from the model's context) caps it.
func callBudget(runTokens, fixed, limit int) int {
	b := fixed
	if b <= 0 {
		b = min(max(runTokens/3, minCallTokens), maxCallTokens)
	}
	return min(b, limit)
}

// promptLimit is the largest prompt (estimated) that surely fits num_ctx:
// room is left for the answer twice over (the retry of a truncated answer
// doubles num_predict), and a quarter of the rest absorbs the estimate's
// error on code and non-English text, where a token is closer to 3 bytes.
func promptLimit(numCtx, k int, think bool) int {
	return promptLimitFor(numCtx, answerTokens(k, think))
}

// promptLimitFor is promptLimit for a call whose num_predict is answer.
func promptLimitFor(numCtx, answer int) int {
	return (numCtx - 2*answer) * 3 / 4
}

// minPromptLimit is the least prompt worth sending: the instructions, the
// task and a little log. A model whose context cannot hold it is refused.
const minPromptLimit = 600

// runTokens estimates the whole run.
func runTokens(r *run.Run) int {
	n := 0
	for _, s := range r.Steps {
		n += extract.EstimateTokens(s.Content)
	}
	return n
}
