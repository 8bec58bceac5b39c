package localllm

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/offattr/offattr/rules"
)

// The consensus is a confidence-weighted vote between two voters, the rules
// and the model's panel (ECHO §3.3, A.7, with the rules as one more voter).
// Over the judged candidates c:
//
//	r_c = score_c / Σ score              the rules' share (uniform if all ≤ 0)
//	ρ   = the rules' confidence, in [0,1]
//
// An analyst j answers σ_j (vote confidence), a voted step s_j, and for each
// candidate the RAFFLES criteria fault, first, decisive in [0,1]. Analysts
// with σ_j < δ (0.3) are left out entirely, as in ECHO. Over the others:
//
//	V_c = Σ_{j: s_j = c} σ_j             confidence-weighted votes
//	E_c = mean_j (fault+first+decisive)/3 criteria confidence
//	m_c = ½ V_c/ΣV + ½ E_c/ΣE           the model's share
//	μ   = mean_j σ_j                     the model's confidence
//
//	S_c = (ρ·r_c + μ·m_c) / (ρ + μ)
//
// The answer is the candidate with the largest S (ties keep the rules'
// order) and its confidence is S, the share of the weighted vote it won.
// Candidates the model did not judge keep ρ·r_c/(ρ+μ), which never beats a
// judged one the rules ranked higher. With no counted analyst (μ = 0) the
// rules' answer stands unchanged.

// tally is the vote on one run.
type tally struct {
	judged   []rules.Candidate // in the rules' order
	share    map[int]float64   // r_c
	rho, mu  float64
	votes    map[int]float64 // V_c
	count    map[int]int     // analysts voting c
	crit     map[int]criteria
	counted  []outcome
	filtered []outcome // valid answers below δ
	dropped  []outcome // no valid answer
	spread   float64
}

func newTally(att rules.Attribution, judged []rules.Candidate, outs []outcome) *tally {
	t := &tally{judged: judged, share: map[int]float64{}, votes: map[int]float64{}, count: map[int]int{}, crit: map[int]criteria{}}
	t.rho = clamp01(att.Confidence)
	total := 0.0
	for _, c := range judged {
		total += max(c.Score, 0)
	}
	for _, c := range judged {
		if total > 0 {
			t.share[c.Step] = max(c.Score, 0) / total
		} else {
			t.share[c.Step] = 1 / float64(len(judged))
		}
	}
	lo, hi := 1.0, 0.0
	for _, o := range outs {
		switch {
		case o.answer == nil:
			t.dropped = append(t.dropped, o)
			continue
		case o.answer.Vote.Confidence < Delta:
			t.filtered = append(t.filtered, o)
		default:
			t.counted = append(t.counted, o)
		}
		lo, hi = min(lo, o.answer.Vote.Confidence), max(hi, o.answer.Vote.Confidence)
	}
	if hi >= lo {
		t.spread = hi - lo
	}
	for _, o := range t.counted {
		v := o.answer.Vote
		t.votes[v.Step] += v.Confidence
		t.count[v.Step]++
		t.mu += v.Confidence / float64(len(t.counted))
		for _, c := range judged {
			k := o.answer.Criteria[c.Step]
			n := float64(len(t.counted))
			agg := t.crit[c.Step]
			agg.Fault += k.Fault / n
			agg.First += k.First / n
			agg.Decisive += k.Decisive / n
			t.crit[c.Step] = agg
		}
	}
	return t
}

// model is m_c.
func (t *tally) model(step int) float64 {
	sumV, sumE := 0.0, 0.0
	for _, c := range t.judged {
		sumV += t.votes[c.Step]
		sumE += t.crit[c.Step].mean()
	}
	var parts, m float64
	if sumV > 0 {
		parts++
		m += t.votes[step] / sumV
	}
	if sumE > 0 {
		parts++
		m += t.crit[step].mean() / sumE
	}
	if parts == 0 {
		return 0
	}
	return m / parts
}

// rescore returns all the rules' candidates with S as their score, best
// first.
func (t *tally) rescore(all []rules.Candidate) []rules.Candidate {
	total := 0.0
	for _, c := range t.judged {
		total += max(c.Score, 0)
	}
	isJudged := map[int]bool{}
	for _, c := range t.judged {
		isJudged[c.Step] = true
	}
	out := make([]rules.Candidate, len(all))
	for i, c := range all {
		r := t.share[c.Step]
		if !isJudged[c.Step] {
			r = 0
			if total > 0 {
				r = max(c.Score, 0) / total
			}
		}
		s := t.rho * r
		if isJudged[c.Step] {
			s += t.mu * t.model(c.Step)
		}
		c.Score = s / (t.rho + t.mu)
		c.Votes = t.count[c.Step]
		out[i] = c
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}

// review is ECHO's call for a second look: analysts far apart in
// confidence, or confident analysts voting for different steps.
func (t *tally) review() bool {
	sure := map[int]bool{}
	for _, o := range t.counted {
		if o.answer.Vote.Confidence >= 0.7 {
			sure[o.answer.Vote.Step] = true
		}
	}
	return t.spread > 0.5 || len(sure) > 1
}

// combine turns the panel's answers into the final attribution: the
// counted analysts' votes and criteria, and the steps the readers raised
// with how many steps each was chosen among (nil for the rank strategy),
// become review's signals, which Weigh weighs
// with the rules' answer by w (nil: the defaults). Without a counted
// analyst the rules' answer is returned as it was, with the model's part
// told in the rationale.
func combine(att rules.Attribution, judged []rules.Candidate, outs []outcome, m Model, panel []Role, raised map[int]int, review *rules.ModelReview, w *weighing) rules.Attribution {
	t := newTally(att, judged, outs)
	agentOf := func(step int) string {
		for _, c := range att.Candidates {
			if c.Step == step {
				return c.Agent
			}
		}
		return ""
	}
	review.Signals, review.Analysts = signals(judged, t.counted, raised, agentOf)
	review.Weights = w.label()
	out := Weigh(att, review, w.weights())
	// The mode says which pipeline ran: the model was asked, whether or
	// not it answered usably; the rationale tells which.
	out.Mode = rules.ModeRulesLLM
	out.Evidence = slices.Clone(att.Evidence)
	for _, o := range outs {
		out.Usage = out.Usage.Add(o.usage)
	}
	if len(t.counted)+len(t.filtered) == 0 {
		out.Rationale = joinSentences(att.Rationale, fmt.Sprintf("The model %s gave no usable answer (%s); the rules' answer stands.", m.Name, problems(t.dropped)))
		return out
	}
	for _, o := range t.counted {
		v := o.answer.Vote
		out.Votes = append(out.Votes, rules.Vote{Analyst: o.role.Name, Step: v.Step, Confidence: v.Confidence, Reason: v.Reason})
	}
	out.Rationale = joinSentences(att.Rationale, t.explain(att, out, m, panel))
	return out
}

// weighing is the model weights a judge uses: fitted ones for its model,
// else the defaults (nil).
type weighing struct {
	fitted *rules.ModelWeights
}

func (w *weighing) weights() map[string]float64 {
	if w == nil || w.fitted == nil {
		return nil
	}
	return w.fitted.Weights
}

func (w *weighing) label() string {
	if w == nil || w.fitted == nil {
		return "default"
	}
	return "fitted for " + w.fitted.Model
}

// explain says what the model contributed.
func (t *tally) explain(before, after rules.Attribution, m Model, panel []Role) string {
	var b strings.Builder
	names := make([]string, len(panel))
	for i, r := range panel {
		names[i] = r.Name
	}
	steps := make([]string, len(t.judged))
	for i, c := range t.judged {
		steps[i] = fmt.Sprint(c.Step)
	}
	fmt.Fprintf(&b, "Model %s (%d analysts: %s) judged steps %s.", m.Name, len(panel), strings.Join(names, ", "), strings.Join(steps, ", "))
	if len(t.counted) > 0 {
		var vs []string
		for _, c := range t.judged {
			if t.count[c.Step] > 0 {
				vs = append(vs, fmt.Sprintf("step %d ×%d (weight %.2f)", c.Step, t.count[c.Step], t.votes[c.Step]))
			}
		}
		k := t.crit[after.Step]
		fmt.Fprintf(&b, " Votes: %s; criteria for step %d: fault %.2f, first %.2f, decisive %.2f.", strings.Join(vs, ", "), after.Step, k.Fault, k.First, k.Decisive)
	}
	switch {
	case t.mu == 0:
		fmt.Fprintf(&b, " Every analyst was less sure than δ=%.1f; the rules' answer stands.", Delta)
	case after.Step != before.Step:
		fmt.Fprintf(&b, " Weighed with the rules (%s weights), the model moved the answer from step %d to step %d (%s), confidence %.2f.", after.Model.Weights, before.Step, after.Step, after.Agent, after.Confidence)
	default:
		fmt.Fprintf(&b, " Weighed with the rules (%s weights), the answer stays step %d, confidence %.2f.", after.Model.Weights, after.Step, after.Confidence)
	}
	var notes []string
	if n := len(t.filtered); n > 0 {
		notes = append(notes, fmt.Sprintf("%d below δ=%.1f left out", n, Delta))
	}
	if n := len(t.dropped); n > 0 {
		notes = append(notes, fmt.Sprintf("%d without a usable answer (%s)", n, problems(t.dropped)))
	}
	if len(t.votes) > 1 || t.spread > 0 {
		d := fmt.Sprintf("%d steps voted, confidence spread %.2f", len(t.votes), t.spread)
		if t.review() {
			d += ", review advised"
		}
		notes = append(notes, d)
	}
	if len(notes) > 0 {
		fmt.Fprintf(&b, " Disagreement: %s.", strings.Join(notes, "; "))
	}
	return b.String()
}

func problems(outs []outcome) string {
	seen := map[string]bool{}
	var ps []string
	for _, o := range outs {
		if !seen[o.problem] {
			seen[o.problem] = true
			ps = append(ps, o.problem)
		}
	}
	return strings.Join(ps, "; ")
}

func joinSentences(a, b string) string {
	a = strings.TrimSpace(a)
	if a == "" {
		return b
	}
	return a + " " + b
}

func clamp01(x float64) float64 { return min(max(x, 0), 1) }
