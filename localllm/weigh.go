package localllm

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/offattr/offattr/rules"
)

// The model's say is weighed, not obeyed. Each candidate step c of a run
// (the rules' candidates and every step the model named or judged) gets
//
//	z_c = w · x_c
//
// over rules.ModelFeatureNames: the rules' log-probability of c, whether c
// is the rules' answer, whether a reader named c, the share of analysts
// that voted for it, whether most or all of them did, whether a reader
// and an analyst (or most analysts, or every asking) agree on c, their
// criteria score, what the readers' and analysts' namings of c say given
// how many steps each chose among, what all the askings together say of
// c read as one judge of unknown accuracy, and each analyst's own vote
// and criteria score. The answer is the step of largest z (ties keep the rules' order) and its
// confidence is softmax(z) there. `offattr fit --model` learns w for one
// model; without that, DefaultModelWeights.
//
// The defaults must serve a model of unknown worth, on systems they were
// not chosen on: one no better than the rules must not make the answer
// worse, and a good one must still decide. So they do not assume how good
// the model is; they read it from the run. Every asking, reader or
// analyst, is taken as one judge of unknown accuracy, and what they said
// of each step is weighed by Bayes' rule over the rules' probabilities
// taken as they are, averaged over a prior on that accuracy
// (judge_evidence, judgeprior.go): askings that agree on a step make a
// good judge likely and move the answer, scattered ones make a poor judge
// likely and leave it nearly where the rules put it. Naming one of many
// steps counts for more than one of a few, on any system, whatever the
// length of its runs. Only the prior, the bonus of the rules' own answer
// and the weight of that evidence are chosen, by a stated rule over
// stand-in judges of known accuracy on the labelled corpora, which fit's
// TestStandInJudgeTable applies and checks (docs/model.md says how to
// rerun it). Fitting for the model (fit --model) learns what its askings
// are worth.

// minRulesP floors the rules' probability, whose candidates' scores are
// rounded to three places, so that its log stays finite.
const minRulesP = 1e-3

// SafeJudge is the accuracy of the weakest judge the default weights must
// not let make the answer worse: right on 30% of its requests.
const SafeJudge = 0.3

// JudgeWeights are model weights that take the rules' probabilities as
// they are, add rulesPick to the rules' own answer and weigh the askings'
// evidence (rules.ModelJudgeEvidence) by evidence, and weigh every other
// feature, and every analyst's own, nothing: the panel's analysts count
// alike.
func JudgeWeights(rulesPick, evidence float64) map[string]float64 {
	return map[string]float64{
		rules.ModelRulesLogP:     1,
		rules.ModelRulesPick:     rulesPick,
		rules.ModelJudgeEvidence: evidence,
	}
}

// DefaultModelWeights are the weights used without fitted ones, with
// DefaultJudgePrior (see above).
func DefaultModelWeights() map[string]float64 {
	return JudgeWeights(2, 1.25)
}

// ModelRows are a run's candidate steps as the model's weights read them.
type ModelRows struct {
	Candidates []rules.Candidate // the rules' order, then steps only the model named
	Names      []string          // feature names: ModelFeatureNames, then per-analyst ones
	X          [][]float64       // one row per candidate
}

// Rows builds the model rows of one run from the rules' own attribution
// (before the model) and what the model said (review.Signals), reading
// judge_evidence under DefaultJudgePrior.
func Rows(att rules.Attribution, review *rules.ModelReview) ModelRows {
	return RowsUnder(DefaultJudgePrior, att, review)
}

// RowsUnder is Rows reading judge_evidence under prior.
func RowsUnder(prior JudgePrior, att rules.Attribution, review *rules.ModelReview) ModelRows {
	var m ModelRows
	m.Names = slices.Clone(rules.ModelFeatureNames)
	for _, a := range review.Analysts {
		m.Names = append(m.Names, rules.ModelVotePrefix+a, rules.ModelCriteriaPrefix+a)
	}
	sig := map[int]rules.ModelSignal{}
	for _, s := range review.Signals {
		sig[s.Step] = s
	}
	m.Candidates = slices.Clone(att.Candidates)
	if len(m.Candidates) == 0 && att.Step >= 0 {
		m.Candidates = []rules.Candidate{{Step: att.Step, Agent: att.Agent, Score: 1}}
	}
	for _, s := range review.Signals {
		if !slices.ContainsFunc(m.Candidates, func(c rules.Candidate) bool { return c.Step == s.Step }) {
			m.Candidates = append(m.Candidates, rules.Candidate{Step: s.Step, Agent: s.Agent})
		}
	}
	n := float64(len(review.Analysts))
	// The analysts chose among the steps they judged.
	judged := 0
	for _, s := range review.Signals {
		if s.Judged {
			judged++
		}
	}
	steps := make([]int, len(m.Candidates))
	for i, c := range m.Candidates {
		steps[i] = c.Step
	}
	judge := JudgeEvidence(prior, steps, review)
	for i, c := range m.Candidates {
		s := sig[c.Step]
		x := make([]float64, len(m.Names))
		x[12] = judge[i]
		x[0] = math.Log(max(c.Score, minRulesP))
		if c.Step == att.Step {
			x[1] = 1
		}
		if s.Reader {
			x[2] = 1
		}
		if n > 0 {
			share := float64(len(s.Votes)) / n
			x[3] = share
			if n >= 2 && share > 0.5 {
				x[4] = 1
			}
			if n >= 2 && len(s.Votes) == len(review.Analysts) {
				x[5] = 1
			}
			if s.Reader && len(s.Votes) > 0 {
				x[6] = 1
			}
			if s.Reader && share > 0.5 {
				x[7] = 1
			}
			if s.Judged {
				sum := 0.0
				for _, a := range review.Analysts {
					sum += s.Criteria[a]
				}
				x[8] = sum/n - 0.5
			}
			x[10] = float64(len(s.Votes)) * evidence(judged)
			if s.Reader && n >= 2 && len(s.Votes) == len(review.Analysts) {
				x[11] = 1
			}
		}
		if s.Reader {
			x[9] = evidence(s.ReaderChoices)
		}
		for k, a := range review.Analysts {
			if _, ok := s.Votes[a]; ok {
				x[len(rules.ModelFeatureNames)+2*k] = 1
			}
			if s.Judged {
				x[len(rules.ModelFeatureNames)+2*k+1] = s.Criteria[a] - 0.5
			}
		}
		m.X = append(m.X, x)
	}
	return m
}

// evidence is what naming one step among n says if the namer is right
// with chance SafeJudge and its mistakes fall alike on the other n−1: the
// log of how many times as often it names the right step as a given wrong
// one, SafeJudge(n−1)/(1−SafeJudge). Where that is below 1 the judge
// would be worse than a guess, which no judge that read the steps is; the
// naming then says nothing (0), as it does when n is not known.
func evidence(n int) float64 {
	if n < 2 {
		return 0
	}
	return max(0, math.Log(SafeJudge*float64(n-1)/(1-SafeJudge)))
}

// Beta is w over m.Names; a missing name weighs 0.
func (m ModelRows) Beta(w map[string]float64) []float64 {
	beta := make([]float64, len(m.Names))
	for i, n := range m.Names {
		beta[i] = w[n]
	}
	return beta
}

// Probabilities are softmax(w · x) over the candidates.
func (m ModelRows) Probabilities(w map[string]float64) []float64 {
	rows := make([]rules.StepRow, len(m.X))
	for i, x := range m.X {
		rows[i] = rules.StepRow{X: x}
	}
	return rules.Softmax(rows, m.Beta(w))
}

// Weigh weighs the model's signals (review) with the rules' attribution
// att, as the rules gave it, by w (nil: DefaultModelWeights) under
// DefaultJudgePrior, and returns
// the final attribution: the candidates rescored, the answer, and the
// review's picks filled in. Without a counted analyst, or under weights
// that give the model no say (Silent), the rules' answer stands. The
// rationale and votes are left to the caller.
func Weigh(att rules.Attribution, review *rules.ModelReview, w map[string]float64) rules.Attribution {
	return WeighUnder(DefaultJudgePrior, att, review, w)
}

// WeighUnder is Weigh reading judge_evidence under prior.
func WeighUnder(prior JudgePrior, att rules.Attribution, review *rules.ModelReview, w map[string]float64) rules.Attribution {
	if w == nil {
		w = DefaultModelWeights()
	}
	out := att
	review.RulesPick = &rules.Pick{Step: att.Step, Agent: att.Agent}
	review.ModelPick = modelPick(att, review)
	out.Model = review
	if review.ModelPick == nil || Silent(w) {
		return out
	}
	m := RowsUnder(prior, att, review)
	p := m.Probabilities(w)
	votes := map[int]int{}
	for _, s := range review.Signals {
		votes[s.Step] = len(s.Votes)
	}
	order := make([]int, len(p))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return p[order[a]] > p[order[b]] })
	out.Candidates = make([]rules.Candidate, len(order))
	for k, i := range order {
		c := m.Candidates[i]
		c.Score = math.Round(p[i]*1000) / 1000
		c.Votes = votes[c.Step]
		out.Candidates[k] = c
	}
	win := m.Candidates[order[0]]
	out.Confidence = math.Round(p[order[0]]*1000) / 1000
	if win.Step != att.Step {
		// The rules' agent model chose the agent of their own answer; a
		// step the model moved the answer to answers for itself.
		out.Step, out.Agent = win.Step, win.Agent
	}
	return out
}

// Silent reports whether w gives the model no say: every weight but the
// rules' own (their log-probability and their answer) is zero. Weigh then
// leaves the rules' answer and confidence as they were; `offattr fit
// --model` chooses such weights for a model that did not beat the rules
// on runs held out of its fit.
func Silent(w map[string]float64) bool {
	for name, v := range w {
		if v != 0 && !rulesOwn(name) {
			return false
		}
	}
	return true
}

// Silence zeroes every weight of w but the rules' own, so that Silent(w).
func Silence(w map[string]float64) {
	for name := range w {
		if !rulesOwn(name) {
			w[name] = 0
		}
	}
}

// rulesOwn reports whether a model-weights feature is the rules' own
// (their log-probability and their pick), not one of the model's signals.
func rulesOwn(name string) bool { return name == rules.ModelRulesLogP || name == rules.ModelRulesPick }

// modelPick is the step the analysts gave the most vote confidence, ties
// going to more voters, then the better criteria score, then the rules'
// order; nil when no analyst was counted.
func modelPick(att rules.Attribution, review *rules.ModelReview) *rules.Pick {
	if len(review.Analysts) == 0 {
		return nil
	}
	rank := func(step int) int {
		for i, c := range att.Candidates {
			if c.Step == step {
				return i
			}
		}
		return len(att.Candidates) + step
	}
	var best *rules.ModelSignal
	score := func(s *rules.ModelSignal) (float64, int, float64) {
		v, k := 0.0, 0.0
		for _, c := range s.Votes {
			v += c
		}
		for _, c := range s.Criteria {
			k += c
		}
		return v, len(s.Votes), k
	}
	for i := range review.Signals {
		s := &review.Signals[i]
		if len(s.Votes) == 0 {
			continue
		}
		if best == nil {
			best = s
			continue
		}
		v1, n1, k1 := score(s)
		v0, n0, k0 := score(best)
		switch {
		case v1 != v0:
			if v1 > v0 {
				best = s
			}
		case n1 != n0:
			if n1 > n0 {
				best = s
			}
		case k1 != k0:
			if k1 > k0 {
				best = s
			}
		case rank(s.Step) < rank(best.Step):
			best = s
		}
	}
	if best == nil {
		return nil
	}
	return &rules.Pick{Step: best.Step, Agent: best.Agent}
}

// signals are what the final panel (its counted analysts) and the readers
// (raised, with how many steps each reader chose among) said of each
// step, in step order, and the counted analysts.
func signals(judged []rules.Candidate, counted []outcome, raised map[int]int, agentOf func(int) string) ([]rules.ModelSignal, []string) {
	if len(counted) == 0 && len(raised) == 0 {
		return nil, nil
	}
	by := map[int]*rules.ModelSignal{}
	get := func(step int) *rules.ModelSignal {
		if s, ok := by[step]; ok {
			return s
		}
		s := &rules.ModelSignal{Step: step, Agent: agentOf(step)}
		by[step] = s
		return s
	}
	for step, n := range raised {
		s := get(step)
		s.Reader, s.ReaderChoices = true, n
	}
	var analysts []string
	for _, o := range counted {
		analysts = append(analysts, o.role.Name)
	}
	for _, c := range judged {
		s := get(c.Step)
		s.Agent = c.Agent
		s.Judged = true
		s.Criteria = map[string]float64{}
		for _, o := range counted {
			s.Criteria[o.role.Name] = o.answer.Criteria[c.Step].mean()
		}
	}
	for _, o := range counted {
		s := get(o.answer.Vote.Step)
		if s.Votes == nil {
			s.Votes = map[string]float64{}
		}
		s.Votes[o.role.Name] = o.answer.Vote.Confidence
	}
	out := make([]rules.ModelSignal, 0, len(by))
	for _, s := range by {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b rules.ModelSignal) int { return a.Step - b.Step })
	return out, analysts
}

// sameModel reports whether two model names are one model (":latest" is
// Ollama's default tag).
func sameModel(a, b string) bool {
	return strings.TrimSuffix(a, ":latest") == strings.TrimSuffix(b, ":latest")
}
