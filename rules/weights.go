package rules

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

// Weights is the fitted combination of the analyzers' findings: a
// conditional logit over the steps of a run (the probability of step i
// being the decisive fault is softmax(Step · x_i) over the eligible steps),
// the share that makes a step critical, a calibration of the confidence
// and the thresholds of the triage bands. `offattr fit` learns it from
// labelled runs; the default is embedded.
//
// There is no agent model: the agent is the one who answers for the
// chosen step (its speaker, or for a tool's output the agent that called
// the tool). Agent models fitted on some systems (how likely each agent is
// to be labelled, from its share of blame) lost to that rule on every
// system held out of their fit.
type Weights struct {
	Version int `json:"version"`
	// About says what the weights were fitted on and how they were
	// measured, for a person reading the file.
	About string             `json:"about,omitempty"`
	Step  map[string]float64 `json:"step"`
	// Critical makes the earliest step whose probability is at least this
	// share of the best one the answer: the decisive fault is the first
	// critical one (RAFFLES Def. 3.5). 1 takes the most probable step.
	Critical float64 `json:"critical_share"`
	// Confidence calibrates the answer's confidence: a logistic regression,
	// over CalibrationFeatureNames, of whether the answer was right, fitted
	// on out-of-fold answers. Empty, the confidence is the step model's
	// probability of the answer.
	Confidence map[string]float64 `json:"confidence,omitempty"`
	Triage     Bands              `json:"triage"`
	// TriageWithoutGroundTruth, when set, are the bands of a run without
	// a ground truth: chosen on the same out-of-fold runs read without
	// theirs, where an answer can be checked against nothing and the same
	// confidence is right less often.
	TriageWithoutGroundTruth *Bands `json:"triage_without_ground_truth,omitempty"`
	// FittedOn holds the fingerprints (run.Run.Fingerprint) of the runs
	// the weights were fitted on, sorted: a figure measured on them is
	// in-sample, and eval and fit say so.
	FittedOn []string `json:"fitted_on,omitempty"`
	// Guess, when set, names a label-free guess (one of Guesses) that
	// answers in place of the step model's pick: fit sets it only when, on
	// the runs it was fitted on and out of fold, the guess was right more
	// often than the rules by a sign test at 5% and no less often on any
	// corpus.
	// The step model still ranks the alternatives after it.
	Guess string `json:"guess,omitempty"`
	// AgentRole, when set, names the agent the weights answer with first
	// (one of AgentRoleNames, by where it stands in its run or what the
	// step model gives its steps, never by name): the step model's
	// best-ranked step of that agent is the answer, so the agent still
	// answers for the blamed step. fit sets it only when, out of fold on
	// the runs it was fitted on, it named the agent more often than the
	// rules' pick on every corpus by a sign test at 5%, with the step no
	// less often right on any corpus.
	AgentRole string `json:"agent_role,omitempty"`
	// Model, when set, weighs a local model's signals with the rules'
	// (fitted by `offattr fit --model`); without it a model is weighed by
	// localllm's defaults.
	Model *ModelWeights `json:"model,omitempty"`
}

// BandsFor returns the triage bands for r: TriageWithoutGroundTruth when r
// has no ground truth and the weights have them, else Triage.
func (w *Weights) BandsFor(r *run.Run) Bands {
	if r.GroundTruth == "" && w.TriageWithoutGroundTruth != nil {
		return *w.TriageWithoutGroundTruth
	}
	return w.Triage
}

// InSample reports whether the weights were fitted on the run with this
// fingerprint.
func (w *Weights) InSample(fingerprint string) bool {
	_, ok := slices.BinarySearch(w.FittedOn, fingerprint)
	return ok
}

// What the confidence is read from. The step model's probability alone
// ranks runs poorly by how likely their answer is right: it is spread over
// more steps in longer runs, and it does not see whether the evidence for
// the answer comes from one analyzer or from several that agree.
//
// Agreement counts on a log scale: a second analyzer that agrees says much
// more than a sixth, and long runs full of signals, where five or six
// analyzers fire together, should not read as sure.
const (
	CalBias        = "bias"
	CalLogP        = "log_p"          // log of the step model's probability of the answer
	CalLogSteps    = "log_candidates" // log(1 + the steps that could be blamed)
	CalAgreement   = "log_agreement"  // log(1 + how many analyzers implicate the answer)
	minProbability = 1e-6             // keeps log_p finite
)

// CalibrationFeatureNames lists the calibration features in vector order.
var CalibrationFeatureNames = []string{CalBias, CalLogP, CalLogSteps, CalAgreement}

// CalibrationRow is the calibration vector of an answer with step
// probability p, among candidates steps, that agreeing analyzers implicate.
func CalibrationRow(p float64, candidates, agreeing int) []float64 {
	return []float64{1, math.Log(max(p, minProbability)), math.Log1p(float64(candidates)), math.Log1p(float64(agreeing))}
}

// ConfidenceOf is the calibrated probability that an answer is right (see
// CalibrationRow for the arguments).
func (w *Weights) ConfidenceOf(p float64, candidates, agreeing int) float64 {
	if len(w.Confidence) == 0 {
		return p
	}
	z := dot(vector(w.Confidence, CalibrationFeatureNames), CalibrationRow(p, candidates, agreeing))
	return 1 / (1 + math.Exp(-z))
}

// Bands are the thresholds of the triage: at or above confidence Clear, or
// at or below spread ClearSpread (Attribution.Spread), a run needs no model
// and no person; below confidence Escalate it is worth a stronger model's
// tokens; review in between. ClearSpread 0 clears no run by its spread.
type Bands struct {
	Clear       float64 `json:"clear"`
	Escalate    float64 `json:"escalate"`
	ClearSpread float64 `json:"clear_spread,omitempty"`
}

func (b Bands) valid() bool { return 0 <= b.Escalate && b.Escalate <= b.Clear && b.Clear <= 1 }

// spreadValid reports whether ClearSpread is a spread: finite, not below 0.
func (b Bands) spreadValid() bool { return b.ClearSpread >= 0 && !math.IsInf(b.ClearSpread, 0) }

// Spread is the step model's entropy, in nats, over the run's steps (p,
// its probabilities): the log of how many steps it weighs as if equally.
// Low, the evidence points at few steps; it does not grow with the run's
// length where the evidence does not spread with it.
func Spread(p []float64) float64 {
	h := 0.0
	for _, x := range p {
		if x > 0 {
			h -= x * math.Log(x)
		}
	}
	return max(h, 0)
}

// WeightsVersion is the format of weights files this build reads.
const WeightsVersion = 2

//go:embed weights.json
var defaultWeights []byte

// DefaultWeights returns the embedded weights (a fresh copy each call).
func DefaultWeights() *Weights {
	w, err := ParseWeights(defaultWeights)
	if err != nil {
		panic("rules: embedded weights.json: " + err.Error())
	}
	return w
}

// LoadWeights reads a weights file written by `offattr fit`.
func LoadWeights(path string) (*Weights, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("weights %s: %w", path, run.PathCause(err))
	}
	w, err := ParseWeights(data)
	if err != nil {
		return nil, fmt.Errorf("weights %s: %w", path, err)
	}
	return w, nil
}

// ParseWeights decodes and checks a weights file.
func ParseWeights(data []byte) (*Weights, error) {
	var w Weights
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("not a weights file: %w", err)
	}
	switch {
	case w.Version != WeightsVersion:
		return nil, fmt.Errorf("weights version %d, this build reads version %d", w.Version, WeightsVersion)
	case len(w.Step) == 0:
		return nil, errors.New(`no "step" weights`)
	case w.Critical <= 0 || w.Critical > 1:
		return nil, fmt.Errorf("critical_share %v is not in (0, 1]", w.Critical)
	case w.Guess != "" && !slices.Contains(Guesses, w.Guess):
		return nil, fmt.Errorf("guess %q is not one of %s", w.Guess, strings.Join(Guesses, ", "))
	case w.Guess != "" && w.AgentRole != "":
		return nil, fmt.Errorf("guess %q and agent_role %q: a guess names its own agent", w.Guess, w.AgentRole)
	case w.AgentRole != "" && !slices.Contains(AgentRoleNames, w.AgentRole):
		return nil, fmt.Errorf("agent_role %q is not one of %s", w.AgentRole, strings.Join(AgentRoleNames, ", "))
	case !w.Triage.valid():
		return nil, fmt.Errorf("triage bands need 0 ≤ escalate (%v) ≤ clear (%v) ≤ 1", w.Triage.Escalate, w.Triage.Clear)
	case w.TriageWithoutGroundTruth != nil && !w.TriageWithoutGroundTruth.valid():
		return nil, fmt.Errorf("triage bands without ground truth need 0 ≤ escalate (%v) ≤ clear (%v) ≤ 1", w.TriageWithoutGroundTruth.Escalate, w.TriageWithoutGroundTruth.Clear)
	case !w.Triage.spreadValid() || w.TriageWithoutGroundTruth != nil && !w.TriageWithoutGroundTruth.spreadValid():
		return nil, errors.New("triage clear_spread must be a spread: at least 0")
	}
	slices.Sort(w.FittedOn) // InSample searches them
	if w.Model != nil {
		if err := w.Model.check(); err != nil {
			return nil, err
		}
	}
	for name, v := range w.Confidence {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("confidence weight %s is %v", name, v)
		}
		if !slices.Contains(CalibrationFeatureNames, name) {
			return nil, fmt.Errorf("confidence weight for unknown feature %q", name)
		}
	}
	if err := checkStepWeights("step", w.Step); err != nil {
		return nil, err
	}
	return &w, nil
}

// checkStepWeights checks weights over the step features: finite, and
// naming only registered rules.
func checkStepWeights(model string, m map[string]float64) error {
	for name, v := range m {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s weight %s is %v", model, name, v)
		}
		if r, ok := strings.CutPrefix(strings.TrimPrefix(name, ToolsPrefix), rulePrefix); ok {
			if _, known := Lookup(r); !known {
				return fmt.Errorf("%s weight for unknown rule %q", model, r)
			}
		}
	}
	return nil
}

// Vector returns the weights of names, in order; a missing name weighs 0.
func vector(m map[string]float64, names []string) []float64 {
	v := make([]float64, len(names))
	for i, n := range names {
		v[i] = m[n]
	}
	return v
}

// RuleWeight is the weight of an analyzer's findings.
func (w *Weights) RuleWeight(name string) float64 { return w.Step[RuleFeature(name)] }

// Combiner turns analyzers' findings into an attribution with weights.
type Combiner struct {
	Analyzers []*Analyzer
	Weights   *Weights
}

// Default is the combiner behind analyze, eval and screen: every
// registered analyzer and the embedded weights.
func Default() Combiner { return Combiner{Analyzers: Registry, Weights: DefaultWeights()} }

// Attribute runs the default combiner.
func Attribute(in *Input) Attribution {
	a, _ := Default().Attribute(in)
	return a
}

// Scored is one run read by a combiner: the step rows, their probability
// under the step model, and the order they rank in.
type Scored struct {
	Rows  []StepRow
	P     []float64 // per row
	Order []int     // row indices, the answer first
}

// Score computes the step model's probabilities and ranking for rows.
func (w *Weights) Score(as []*Analyzer, rows []StepRow) Scored {
	return w.score(StepFeatureNames(as), rows)
}

// score is Score given the feature names, which a caller that weighs rows
// by both models builds once.
func (w *Weights) score(names []string, rows []StepRow) Scored {
	p := Softmax(rows, vector(w.Step, names))
	return Scored{Rows: rows, P: p, Order: Rank(rows, p, w.Critical, slices.Index(names, FeatFlagged))}
}

// Rank orders rows, the answer first, given the step model's probabilities
// p, the critical share and the column of FeatFlagged in the rows' features
// (-1: none). Steps some rule implicates come first, most probable first;
// the others follow. A step without evidence is the answer only when no
// step has any: its probability says only where the training systems'
// labellers usually looked, which another system need not share. Among the
// first rank the earliest step whose probability is within the critical
// share of the best answers; the rest keep their order.
func Rank(rows []StepRow, p []float64, critical float64, flaggedColumn int) []int {
	flagged := func(i int) bool { return flaggedColumn >= 0 && rows[i].X[flaggedColumn] > 0 }
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		i, j := order[a], order[b]
		if flagged(i) != flagged(j) {
			return flagged(i)
		}
		return p[i] > p[j]
	})
	if len(rows) == 0 {
		return order
	}
	best, first := p[order[0]], flagged(order[0])
	for k, i := range order {
		if flagged(i) == first && p[i] >= critical*best && rows[i].Step < rows[order[0]].Step {
			copy(order[1:k+1], order[:k])
			order[0] = i
		}
	}
	return order
}

// Softmax is the step model: exp(beta·x) normalised over the rows.
func Softmax(rows []StepRow, beta []float64) []float64 {
	p := make([]float64, len(rows))
	top := math.Inf(-1)
	for i, r := range rows {
		p[i] = dot(beta, r.X)
		top = math.Max(top, p[i])
	}
	sum := 0.0
	for i := range p {
		p[i] = math.Exp(p[i] - top)
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// Attribute applies the analyzers and weighs their findings: the ranked
// candidates, the step, the agent and the confidence. It returns every
// finding too, in analyzer order, for readers who check the answer.
func (c Combiner) Attribute(in *Input) (Attribution, []Finding) {
	rows, findings := c.Read(in)
	return c.Decide(in, rows, findings), findings
}

// Read applies the analyzers: every finding, and the step rows the
// weights weigh. What Decide then reads is the run, its features, the
// rows and the findings, not the graph: a caller that holds nothing else
// may let the graph go in between.
func (c Combiner) Read(in *Input) ([]StepRow, []Finding) {
	findings := Apply(in, c.Analyzers)
	return StepRows(in, c.Analyzers, findings), findings
}

// Decide is the attribution of rows and findings that Read gave.
func (c Combiner) Decide(in *Input, rows []StepRow, findings []Finding) Attribution {
	return c.Weights.Decide(in, c.Analyzers, rows, findings)
}

// Answer is Attribute for a caller that reads the attribution alone. It
// lets go of what the answer no longer needs as it goes, so that a long
// run's stages are not all held at once: in's graph once the analyzers
// have read it (in.Graph is nil after), and the reasons and quotes of the
// findings but the answer's own and its runner-up's once those are known.
func (c Combiner) Answer(in *Input) Attribution {
	findings := Apply(in, c.Analyzers)
	in.Graph = nil
	rows := StepRows(in, c.Analyzers, findings)
	return c.Weights.decide(in, c.Analyzers, rows, findings, true)
}

// Decide weighs rows already read from a run by analyzers as (StepRows over
// their findings): fitting scores many weights on one reading.
func (w *Weights) Decide(in *Input, as []*Analyzer, rows []StepRow, findings []Finding) Attribution {
	return w.decide(in, as, rows, findings, false)
}

// decide is Decide; with forget, it clears the reasons and quotes of the
// findings it is given (the caller's to give up) once it has copied the
// ones the answer explains itself with.
func (w *Weights) decide(in *Input, as []*Analyzer, rows []StepRow, findings []Finding, forget bool) Attribution {
	a := Attribution{File: in.Run.Source, Mode: ModeRules, Step: -1, Evidence: []Evidence{}, Candidates: []Candidate{}}
	if len(rows) == 0 {
		a.Rationale = "No step can be blamed: the run holds only the task and system prompts."
		return a
	}
	names := StepFeatureNames(as)
	s := w.score(names, rows)
	var how Answered
	s.Order, how = AnswerOrder(w.Guess, w.AgentRole, in, rows, s.Order, s.P, structuralColumn(as, FeatFlagged))
	// Findings by step, as positions: a long run has a finding for most
	// of its steps, and a map of lists of them held every one twice.
	at := findingsByStep(findings, len(in.Run.Steps))
	var buf []Finding
	byStep := func(i int) []Finding {
		buf = buf[:0]
		for _, j := range at.of(i) {
			buf = append(buf, findings[j])
		}
		return buf
	}
	top := rows[s.Order[0]]
	topFindings := slices.Clone(byStep(top.Step))
	var runnerUp []Finding
	if len(s.Order) > 1 {
		runnerUp = slices.Clone(byStep(rows[s.Order[1]].Step))
	}
	if forget {
		for i := range findings {
			findings[i].Quote, findings[i].Reason, findings[i].QuoteStep = "", "", nil
		}
	}
	a.Candidates = make([]Candidate, 0, len(rows))
	for _, i := range withPrompts(in, rows, s.Order, promptedCandidates) {
		r := rows[i]
		a.Candidates = append(a.Candidates, Candidate{Step: r.Step, Agent: r.Agent, Score: round(s.P[i]), Rules: ruleNames(byStep(r.Step))})
	}
	a.Step = top.Step
	a.Confidence = round(w.ConfidenceOf(s.P[s.Order[0]], len(rows), Agreeing(topFindings, top.Step)))
	a.Spread = round(Spread(s.P))
	a.Agent = top.Agent
	for _, f := range topFindings {
		if f.Strength > 0 {
			e := Evidence{Rule: f.Rule, Step: f.Step, Quote: f.Quote}
			if f.QuoteStep != nil && *f.QuoteStep != f.Step {
				e.QuoteStep = quotedFrom(*f.QuoteStep)
			}
			a.Evidence = append(a.Evidence, e)
		}
	}
	a.Rationale = explain(in, top, topFindings, runnerUp, s, rows, how)
	if how.Change != "" {
		a.Rationale = fmt.Sprintf("Step %d (%s) is %s, though no rule found direct evidence against it: with no evidence anywhere, a session that changes files went wrong in its changes, and the first of them is where its patch first departs from the code.", top.Step, top.Agent, how.Change)
	}
	return a
}

// Answered says what put the answer's row first, when the step model's
// ranking did not: the label-free guess the weights answer with (Guess),
// a session's first change to a file (Change, described), or the agent
// the weights name first (Role, one of AgentRoleNames).
type Answered struct {
	Guess, Change, Role string
}

// AnswerOrder returns the ranked rows (order, as Rank gives them) in the
// order the engine answers with, so that fit scores what analyze will
// answer: the step the named label-free guess answers first, if the
// weights answer with one (GuessFirst); else, when no analyzer implicates
// the first row (flaggedColumn), a session's first change to a file
// (firstChangeFirst); then, if the weights name an agent first (role),
// that agent's best-ranked row (RoleFirst).
func AnswerOrder(guess, role string, in *Input, rows []StepRow, order []int, p []float64, flaggedColumn int) ([]int, Answered) {
	var how Answered
	out, guessed := GuessFirst(guess, in, rows, order)
	if how.Guess = guessed; guessed != "" || len(out) == 0 || in == nil {
		return out, how // a guess names its own agent; or no run to read
	}
	if flaggedColumn < 0 || rows[out[0]].X[flaggedColumn] == 0 {
		out, how.Change = firstChangeFirst(in, rows, out)
	}
	if named, r := RoleFirst(role, in, rows, out, p); r != "" {
		return named, Answered{Role: r}
	}
	return out, how
}

// firstChangeFirst returns order (row indices) with the row of the run's
// first change to a file moved to the front, and what the change is;
// order as it is, and "", when the run changes no file. When the run's
// last check passed and changes came after it, the first of those is
// moved instead: they are what no check saw.
//
// A change is a consequential call that writes files by name (an
// editor's, a command line that only writes files: changedFiles), other
// than the scripts a check of the run runs by itself (a reproduction it
// wrote), and one that may alter what the code does (changesBehaviour):
// a comment, a docstring or an import added first is no departure of the
// patch. A dependency installed at a version the line names (extract's
// PinsDependency) is a change too, in a session that changes no file.
//
// Read when no step is implicated: the structural weights say only where
// the labelled systems' labellers looked, and in a session that changes
// files the failed outcome is the patch its changes make.
func firstChangeFirst(in *Input, rows []StepRow, order []int) ([]int, string) {
	steps := in.Features.Steps
	var scripts []string
	for j := range steps {
		for _, c := range steps[j].Calls {
			if checkCommand([]extract.Call{c}) != "" && !c.Checks() {
				scripts = append(scripts, c.Scripts()...)
			}
		}
	}
	changes := func(c extract.Call, pins bool) bool {
		if c.PinsDependency() {
			return pins // a version installed: what the code runs against changed
		}
		files := changedFiles(c)
		return len(files) > 0 && changesBehaviour(c) && slices.ContainsFunc(files, func(f string) bool {
			return !slices.ContainsFunc(scripts, func(s string) bool { return sameFile(f, s) })
		})
	}
	// A check that passed after the changes before it saw them; changes
	// made after the run's last check, when it passed, are what no check
	// saw, and the first of them is answered instead. A line that only
	// reads checks nothing (runsCheck).
	from := 0
	for j := len(steps) - 1; j >= 0; j-- {
		if c := callerOf(in, j); steps[j].Has(extract.KindToolResult) && c >= 0 && c < j && slices.ContainsFunc(steps[c].Calls, runsCheck) {
			if _, failed := toolFailed(&steps[j]); !failed && !toldError(&steps[j]) {
				from = j
			}
			break
		}
	}
	first, what := -1, ""
	// A version installed is the change only in a session that changes
	// no file: beside file changes, it is more often the tooling the
	// session needed (its test runner at a version) than its patch.
	for _, pins := range []bool{false, true} {
		for _, start := range []int{from, 0} {
			for j := start; j < len(steps) && first < 0; j++ {
				if !slices.ContainsFunc(steps[j].Calls, func(c extract.Call) bool { return changes(c, pins) }) {
					continue
				}
				object := "a file"
				if pins {
					object = "the versions the code runs against"
				}
				first, what = j, "the first change the run's agent made to "+object
				if start > 0 {
					what = fmt.Sprintf("the first change the run's agent made to %s after its last check (step %d) passed, which no check saw", object, callerOf(in, start))
				}
			}
		}
	}
	if out, ok := stepFirst(rows, order, first); first >= 0 && ok {
		return out, what
	}
	return order, ""
}

func ruleNames(fs []Finding) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, f := range fs {
		if f.Strength > 0 && !seen[f.Rule] {
			seen[f.Rule] = true
			out = append(out, f.Rule)
		}
	}
	return out
}

// Agreeing counts the analyzers whose findings implicate step.
func Agreeing(findings []Finding, step int) int {
	var at []Finding
	for _, f := range findings {
		if f.Step == step {
			at = append(at, f)
		}
	}
	return len(ruleNames(at))
}

func round(x float64) float64 { return math.Round(x*1000) / 1000 }

// explain writes the rationale: which rules fired on the chosen step (its
// findings, found), what spoke against it, who is blamed and why, and the
// runner-up (whose findings are runnerUp); how says whether a label-free
// guess chose the step, or the agent the weights name first.
func explain(in *Input, top StepRow, found, runnerUp []Finding, s Scored, rows []StepRow, how Answered) string {
	var b strings.Builder
	// No number here: the answer's one number is its calibrated confidence.
	var pos, neg []Finding
	for _, f := range found {
		if f.Strength > 0 {
			pos = append(pos, f)
		} else {
			neg = append(neg, f)
		}
	}
	switch {
	case how.Guess != "":
		fmt.Fprintf(&b, "Step %d (%s) is %s, the guess these weights answer with: on the runs they were fitted on it was right more often than the rules' pick, by a sign test at 5%%.", top.Step, top.Agent, guessDescriptions[how.Guess])
		if len(pos) > 0 {
			b.WriteString(" Rules that implicate it:")
		}
	case how.Role == "dominant":
		fmt.Fprintf(&b, "Step %d (%s) is the most likely fault of %s, the agent these weights name first: on the runs they were fitted on, the rules' pick was not surely right more often, in the agent or the step.", top.Step, top.Agent, agentRoleDescriptions[how.Role])
		if len(pos) > 0 {
			b.WriteString(" Rules that implicate it:")
		}
	case how.Role != "":
		fmt.Fprintf(&b, "Step %d (%s) is the most likely fault of %s, the agent these weights name first: on the runs they were fitted on, naming it named the agent more often than the rules' pick on every corpus, by an exact sign test at 5%%, and the step no less often.", top.Step, top.Agent, agentRoleDescriptions[how.Role])
		if len(pos) > 0 {
			b.WriteString(" Rules that implicate it:")
		}
	case len(pos) == 0:
		fmt.Fprintf(&b, "Step %d (%s) is the most likely decisive fault, though no rule found direct evidence against it: it is where the fitted weights put most weight from what kind of step each is.", top.Step, top.Agent)
	default:
		fmt.Fprintf(&b, "Step %d (%s) is the most likely decisive fault:", top.Step, top.Agent)
	}
	for _, f := range pos {
		fmt.Fprintf(&b, " %s — %s.", f.Rule, f.Reason)
	}
	for _, f := range neg {
		fmt.Fprintf(&b, " Against it, %s: %s.", f.Rule, f.Reason)
	}
	if speaker := in.Run.Steps[top.Step].Agent; !run.SameAgent(speaker, top.Agent) {
		fmt.Fprintf(&b, " %s answers for it, not %s who reports it: the step is the output of a tool %s called.", top.Agent, speaker, top.Agent)
	}
	if len(s.Order) > 1 {
		r := rows[s.Order[1]]
		if names := ruleNames(runnerUp); len(names) > 0 {
			fmt.Fprintf(&b, " Runner-up: step %d (%s, %s).", r.Step, r.Agent, strings.Join(names, ", "))
		}
	}
	return b.String()
}

// promptedCandidates is how many of the top candidates are followed by
// the participant's turn that prompted them.
const promptedCandidates = 3

// withPrompts returns order with, after each of its first k rows, the row
// of the participant's request it carries out (requestOf), unless it is
// already listed. The answer does not change; the alternatives a person
// or a model reads next do: a wrong action often carries out a wrong
// request, and which of the two is the decisive fault takes reading them.
func withPrompts(in *Input, rows []StepRow, order []int, k int) []int {
	rowOf := make([]int32, len(in.Run.Steps)) // a step's row, or -1
	for i := range rowOf {
		rowOf[i] = -1
	}
	for i, r := range rows {
		rowOf[r.Step] = int32(i)
	}
	out := make([]int, 0, len(order))
	listed := make([]bool, len(rows))
	add := func(i int) {
		if !listed[i] {
			listed[i] = true
			out = append(out, i)
		}
	}
	for n, i := range order {
		add(i)
		if n >= k {
			continue
		}
		if p := requestOf(in, rows[i].Step); p >= 0 && rowOf[p] >= 0 {
			add(int(rowOf[p]))
		}
	}
	return out
}

// requestOf is the participant's request that step i carries out: the
// turn that prompted it (promptOf), or, when that turn only agrees to what
// was proposed ("Yes, go ahead") or picks one of the choices offered
// ("the 4 pm one, please"), the request the proposal answered.
func requestOf(in *Input, i int) int {
	p := promptOf(in, i)
	if p > 0 && (in.Features.Steps[p].Affirms || in.Features.Steps[p].Picks) {
		if q := promptOf(in, p-1); q >= 0 {
			return q
		}
	}
	return p
}

// promptOf is the conversation participant's turn that step i answers:
// the latest earlier step by someone other than its responsible agent
// that is not a tool's output, when that step is a participant's turn
// (run.KindUser); -1 otherwise. An agent's own instructions to another
// are weighed by the analyzers; a participant's later turns only here.
func promptOf(in *Input, i int) int {
	me := run.AgentKey(responsible(in, i))
	for j := i - 1; j >= 0; j-- {
		if in.Features.Steps[j].Has(extract.KindToolResult) {
			continue
		}
		if run.AgentKey(in.Run.Steps[j].Agent) != me {
			if in.Run.Steps[j].Kind == run.KindUser {
				return j
			}
			return -1
		}
	}
	return -1
}
