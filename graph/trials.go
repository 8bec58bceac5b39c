package graph

import "github.com/offattr/offattr/extract"

// Trial is a plan or re-plan and the steps that carry it out (DoVer §4): a
// contiguous span of steps. Trial 0 always starts at step 0, so that the task
// and anything said before the first plan belong to it; every later plan or
// re-plan opens the next trial.
type Trial struct {
	Index int `json:"index"`
	// Plan is the step giving the trial its plan, or for a first trial
	// without one the step giving the task; -1 if neither exists.
	Plan  int `json:"plan"`
	Start int `json:"start"` // first step, inclusive
	End   int `json:"end"`   // last step, inclusive
}

// Steps lists the trial's steps in order.
func (t Trial) Steps() []int {
	out := make([]int, 0, t.End-t.Start+1)
	for i := t.Start; i <= t.End; i++ {
		out = append(out, i)
	}
	return out
}

// Contains reports whether step i is in the trial.
func (t Trial) Contains(i int) bool { return i >= t.Start && i <= t.End }

// segmentTrials cuts the run at plans and re-plans. The first plan (not
// marked a re-plan) is trial 0's own plan wherever it stands; each later plan
// and every re-plan after step 0 opens a new trial.
func (b *builder) segmentTrials() {
	b.trialOf = make([]int32, b.n)
	cur := Trial{Index: 0, Plan: -1, Start: 0}
	task := -1
	for i := 0; i < b.n; i++ {
		k := b.kinds[i]
		if task < 0 && k.Has(extract.KindTask) {
			task = i
		}
		if k.Any(trialKinds) {
			opensFirst := cur.Index == 0 && cur.Plan < 0 && (i == 0 || !k.Has(extract.KindReplan))
			if opensFirst {
				cur.Plan = i
			} else {
				cur.End = i - 1
				b.trials = append(b.trials, cur)
				cur = Trial{Index: cur.Index + 1, Plan: i, Start: i}
			}
		}
		b.trialOf[i] = int32(cur.Index)
	}
	cur.End = b.n - 1
	b.trials = append(b.trials, cur)
	if b.trials[0].Plan < 0 && task >= 0 && task <= b.trials[0].End {
		b.trials[0].Plan = task
	}
}
