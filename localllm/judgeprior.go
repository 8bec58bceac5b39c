package localllm

import (
	"math"

	"gonum.org/v1/gonum/mathext"

	"github.com/offattr/offattr/rules"
)

// A judge's accuracy is not assumed: it is read from the run's own
// askings. Each asking (a reader of a window, an analyst of the final
// panel) is taken as one coin of unknown accuracy q: shown the decisive
// step among m, it names that step with chance q and each other step with
// chance (1−q)/(m−1); not shown it, it names any of its m alike. Against
// the latter, an asking's answer is q·m times as likely if a step it named
// is the decisive one, (1−q)·m/(m−1) times if it was shown the step and
// named another, and once if it was not shown it. Over every asking,
// given step s, that is C·q^k·(1−q)^j, with k askings that named s and j
// that were shown it and named another, and C the product of the m
// factors. Averaged over a Beta(A, B) prior on q,
//
//	L(s) = C · B(A+k, B+j) / B(A, B)
//
// Askings that agree on one step make a good judge likely, so that step's
// L is large; scattered answers make a poor judge likely, and no step's L
// is much above the others'. A good judge is followed and a poor one is
// mostly ignored, with no labels and on any system. log L(s) is the
// feature rules.ModelJudgeEvidence.

// JudgePrior is a Beta(A, B) prior on a judge's accuracy.
type JudgePrior struct{ A, B float64 }

// DefaultJudgePrior is the prior of the default weights, chosen with them
// by a stated rule (see DefaultModelWeights).
var DefaultJudgePrior = JudgePrior{A: 1, B: 1}

// logMean is log E[q^k (1−q)^j] under the prior.
func (p JudgePrior) logMean(k, j int) float64 {
	return mathext.Lbeta(p.A+float64(k), p.B+float64(j)) - mathext.Lbeta(p.A, p.B)
}

// JudgeEvidence is log L of each of steps (see above) under prior, from
// what review's readers and counted analysts said. A reader's choices are
// known for the steps it named; a step no reader named is taken as shown
// to one that named another among as many steps as the readers' mean.
// The analysts chose among the steps the panel judged.
func JudgeEvidence(prior JudgePrior, steps []int, review *rules.ModelReview) []float64 {
	sig := make(map[int]rules.ModelSignal, len(review.Signals))
	readerChoices, readers, judged := 0.0, 0, 0
	for _, s := range review.Signals {
		sig[s.Step] = s
		if s.Reader && s.ReaderChoices >= 2 {
			readerChoices += float64(s.ReaderChoices)
			readers++
		}
		if s.Judged {
			judged++
		}
	}
	out := make([]float64, len(steps))
	for i, step := range steps {
		s := sig[step]
		k, j, c := 0, 0, 0.0
		named := func(m float64) { k++; c += math.Log(m) }
		passed := func(m float64) { j++; c += math.Log(m / (m - 1)) }
		switch {
		case s.Reader && s.ReaderChoices >= 2:
			named(float64(s.ReaderChoices))
		case !s.Reader && readers > 0:
			passed(readerChoices / float64(readers))
		}
		if judged >= 2 && s.Judged {
			for _, a := range review.Analysts {
				if _, ok := s.Votes[a]; ok {
					named(float64(judged))
				} else {
					passed(float64(judged))
				}
			}
		}
		out[i] = c + prior.logMean(k, j)
	}
	return out
}
