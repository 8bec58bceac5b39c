// Package triage sorts attributions into clear, review and escalate, so that
// people read only the runs that need it and a stronger model sees only the
// hard ones. It reads an attribution's own signals; it never re-analyses.
package triage

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/offattr/offattr/rules"
)

// Class is a triage outcome.
type Class string

const (
	// Clear: confident, a clear lead over the runner-up, and the model (if
	// asked) agrees. Safe to act on without reading the run.
	Clear Class = "clear"
	// Review: plausible but not settled; a person should glance at it.
	Review Class = "review"
	// Escalate: low confidence, judges that disagree, or no decisive
	// candidate at all; worth a stronger model's tokens.
	Escalate Class = "escalate"
)

// Classes lists the outcomes in increasing order of concern.
var Classes = []Class{Clear, Review, Escalate}

// Thresholds decide the classes. Confidences and scores are in [0, 1].
type Thresholds struct {
	// Clear is the confidence at or above which a run may be clear.
	Clear float64
	// Escalate is the confidence below which a run is escalated.
	Escalate float64
	// Margin is the lead the answer needs over the runner-up's score to be
	// clear; a closer call is reviewed.
	Margin float64
	// Spread is the step model's spread (rules.Attribution.Spread) at or
	// below which a run not escalated is clear whatever its confidence,
	// unless a model moved the answer off the rules' own step: 0 clears no
	// run by its spread.
	Spread float64
}

// Override is the thresholds a user set, nil where not set: those set
// replace the weights' bands for each run, the others stay as fitted (the
// bands of a run without a ground truth differ from those of one with it).
type Override struct{ Clear, Escalate, Margin *float64 }

// Over returns t with the thresholds o sets in place of t's.
func (o Override) Over(t Thresholds) Thresholds {
	if o.Clear != nil {
		t.Clear = *o.Clear
	}
	if o.Escalate != nil {
		t.Escalate = *o.Escalate
	}
	if o.Margin != nil {
		t.Margin = *o.Margin
	}
	return t
}

// For returns the thresholds of fitted bands b, with those o sets in their
// place. A clear threshold the user sets decides alone what is clear: the
// bands' spread then clears nothing.
func (o Override) For(b rules.Bands) Thresholds {
	t := Thresholds{Clear: b.Clear, Escalate: b.Escalate, Spread: b.ClearSpread}
	if o.Clear != nil {
		t.Spread = 0
	}
	return o.Over(t)
}

// Default thresholds: a starting point, not a calibration. They are flags
// (--clear-above, --escalate-below, --margin) because confidences differ
// between corpora and between rules and rules+model; set them from
// `offattr eval --cases` on labelled runs that look like yours.
const (
	DefaultClear    = 0.75
	DefaultEscalate = 0.40
	DefaultMargin   = 0.10
)

// Defaults returns the default thresholds.
func Defaults() Thresholds {
	return Thresholds{Clear: DefaultClear, Escalate: DefaultEscalate, Margin: DefaultMargin}
}

// Validate checks 0 ≤ Escalate ≤ Clear ≤ 1, 0 ≤ Margin ≤ 1 and
// Spread ≥ 0.
func (t Thresholds) Validate() error {
	switch {
	case t.Spread < 0:
		return fmt.Errorf("triage thresholds: spread %.2f is below 0", t.Spread)
	case t.Escalate < 0 || t.Clear > 1 || t.Escalate > t.Clear:
		return fmt.Errorf("triage thresholds: need 0 ≤ escalate-below (%.2f) ≤ clear-above (%.2f) ≤ 1", t.Escalate, t.Clear)
	case t.Margin < 0 || t.Margin > 1:
		return fmt.Errorf("triage thresholds: margin %.2f is not in [0, 1]", t.Margin)
	}
	return nil
}

// Decision is a class with the reason for it, in words.
type Decision struct {
	Class  Class  `json:"triage"`
	Reason string `json:"reason"`
}

// ErrNoCandidate is why a run without a decisive candidate is escalated.
var ErrNoCandidate = errors.New("no decisive candidate")

// Decide classifies one attribution.
func Decide(a rules.Attribution, t Thresholds) Decision {
	if a.Agent == "" || a.Step < 0 {
		return Decision{Escalate, ErrNoCandidate.Error()}
	}
	if other := disagreeingVotes(a); len(other) > 0 {
		return Decision{Escalate, fmt.Sprintf("judges disagree: answer is step %d, model voted for step %s", a.Step, joinInts(other))}
	}
	if a.Confidence < t.Escalate {
		return Decision{Escalate, fmt.Sprintf("low confidence %s < %s", num(a.Confidence), num(t.Escalate))}
	}
	bySpread := t.Spread > 0 && a.Spread <= t.Spread
	// The spread is of the rules' step model: it says the evidence points
	// at the rules' own answer, and nothing of a step a model moved the
	// answer to.
	from, moved := movedFrom(a)
	if a.Confidence < t.Clear && (!bySpread || moved) {
		if t.Clear >= 1 && bySpread {
			return Decision{Review, fmt.Sprintf("confidence %s ≥ %s; the model moved the answer from step %d, where the rules' spread %s points", num(a.Confidence), num(t.Escalate), from, num(a.Spread))}
		}
		if t.Clear >= 1 && t.Spread > 0 {
			return Decision{Review, fmt.Sprintf("confidence %s ≥ %s; spread %s > %s, the most these weights clear", num(a.Confidence), num(t.Escalate), num(a.Spread), num(t.Spread))}
		}
		if t.Clear >= 1 {
			// Bands whose fit found no confidence at which runs were right
			// often enough on every held-out system clear nothing.
			return Decision{Review, fmt.Sprintf("confidence %s ≥ %s; these weights clear no run", num(a.Confidence), num(t.Escalate))}
		}
		return Decision{Review, fmt.Sprintf("confidence %s between %s and %s", num(a.Confidence), num(t.Escalate), num(t.Clear))}
	}
	if ru, ok := runnerUp(a); ok && topScore(a)-ru.Score < t.Margin {
		return Decision{Review, fmt.Sprintf("close call: step %d (%s) scores %s, within %s of the answer", ru.Step, ru.Agent, num(ru.Score), num(t.Margin))}
	}
	reason := fmt.Sprintf("confidence %s ≥ %s", num(a.Confidence), num(t.Clear))
	if a.Confidence < t.Clear {
		reason = fmt.Sprintf("the evidence points at few steps: spread %s ≤ %s", num(a.Spread), num(t.Spread))
	}
	if a.Mode == rules.ModeRulesLLM {
		reason += ", rules and model agree"
	}
	return Decision{Clear, reason}
}

// movedFrom returns the rules' answer, and true, when a model weighed
// with the rules moved the answer away from it.
func movedFrom(a rules.Attribution) (int, bool) {
	if a.Model == nil || a.Model.RulesPick == nil || a.Model.RulesPick.Step == a.Step {
		return 0, false
	}
	return a.Model.RulesPick.Step, true
}

// disagreeingVotes returns the steps model analysts voted for other than
// the answer, sorted and without repeats.
func disagreeingVotes(a rules.Attribution) []int {
	seen := map[int]bool{}
	var out []int
	for _, v := range a.Votes {
		if v.Step != a.Step && !seen[v.Step] {
			seen[v.Step] = true
			out = append(out, v.Step)
		}
	}
	sort.Ints(out)
	return out
}

// topScore is the answer's own candidate score, or its confidence.
func topScore(a rules.Attribution) float64 {
	for _, c := range a.Candidates {
		if c.Step == a.Step {
			return c.Score
		}
	}
	return a.Confidence
}

// runnerUp is the best candidate at another step.
func runnerUp(a rules.Attribution) (rules.Candidate, bool) {
	var best rules.Candidate
	found := false
	for _, c := range a.Candidates {
		if c.Step != a.Step && (!found || c.Score > best.Score) {
			best, found = c, true
		}
	}
	return best, found
}

// num prints a score with up to three decimals: enough that 0.746 does
// not read as "0.75 between 0.40 and 0.75".
func num(x float64) string {
	s := strings.TrimRight(strconv.FormatFloat(x, 'f', 3, 64), "0")
	return strings.TrimSuffix(s, ".")
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}
