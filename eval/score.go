package eval

import (
	"slices"
	"strconv"

	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/triage"
)

// WithinK and RecallK are the tolerances and ranks reported, as in the
// papers (±k steps, recall@k).
var (
	WithinK = []int{1, 2, 3, 5}
	RecallK = []int{1, 3, 5}
)

// Score is the metrics of one subset (or of all of them).
type Score struct {
	Name   string `json:"name"`
	Cases  int    `json:"cases"`
	Failed int    `json:"failed"`
	// Unlabelled is how many files under the subset hold no label: they
	// are left out of Cases and of every figure.
	Unlabelled    int                `json:"unlabelled"`
	AgentAccuracy float64            `json:"agent_accuracy"`
	StepAccuracy  float64            `json:"step_accuracy"`
	StepWithin    map[string]float64 `json:"step_within"`
	RecallAt      map[string]float64 `json:"recall_at"`
	// ModelExposure is, when a model was asked, the share of the cases
	// whose labelled step was among the steps the model could name
	// (Attribution.Model.CandidatesSeen): the most its answers could be
	// right, however good the model. Cases the model was not asked about
	// count as not exposed.
	ModelExposure *float64 `json:"model_exposure,omitempty"`
	// ModelOnly is, when a model was asked, how its own answer
	// (Attribution.Model.ModelPick: the step most of its analysts voted
	// for) would have done without the rules, beside the combined answer
	// above. A case without one counts as wrong.
	ModelOnly *Accuracy   `json:"model_only,omitempty"`
	Usage     rules.Usage `json:"usage"`
	Seconds   float64     `json:"seconds"`
	// InSample is how many of the cases the weights were fitted on: their
	// figures are in-sample, not a measure of runs the weights never saw
	// (offattr fit cross-validates). Zero for a baseline.
	InSample int `json:"in_sample"`
	// Triage is accuracy per triage band (clear, review, escalate): clear
	// must mean no model or person is needed. Every band is there, with
	// zero cases when no run fell in it, so that readers need not guess.
	Triage map[string]BandScore `json:"triage"`
	// Floors is, when measured (Options.Floors), how each label-free guess
	// (rules.LabelFreeBaselines) does on the same cases: the rules are
	// worth running on a system only above the best of them. A case that
	// failed to load counts as wrong for them too.
	Floors map[string]Accuracy `json:"floors,omitempty"`
}

// BestFloor is the best agent and the best step accuracy among the
// floors, each on its own, and whether there are any.
func (s Score) BestFloor() (Accuracy, bool) { return BestFloor(s.Floors), len(s.Floors) > 0 }

// BestFloor is the best agent and the best step accuracy among the
// label-free guesses' figures, each on its own: a system's floor for
// either may come from a different guess.
func BestFloor(floors map[string]Accuracy) Accuracy {
	var best Accuracy
	for _, f := range floors {
		best.AgentAccuracy = max(best.AgentAccuracy, f.AgentAccuracy)
		best.StepAccuracy = max(best.StepAccuracy, f.StepAccuracy)
	}
	return best
}

// Accuracy is agent and step accuracy alone.
type Accuracy struct {
	AgentAccuracy float64 `json:"agent_accuracy"`
	StepAccuracy  float64 `json:"step_accuracy"`
}

// BandScore is how one triage band did.
type BandScore struct {
	Cases         int     `json:"cases"`
	StepAccuracy  float64 `json:"step_accuracy"`
	AgentAccuracy float64 `json:"agent_accuracy"`
}

// Tally accumulates hits before they become fractions.
type Tally struct {
	name                  string
	cases, failed         int
	unlabelled            int
	agentHits, stepHits   int
	within                map[int]int
	recall                map[int]int
	modelCases, exposed   int
	modelAgent, modelStep int // the model's own answer's hits
	inSample              int
	usage                 rules.Usage
	seconds               float64
	bins                  []Bin
	bands                 map[string]*[3]int // cases, step hits, agent hits
	floors                map[string]*Tally  // by label-free guess, of the cases loaded
}

// NewTally starts an empty tally for a subset called name.
func NewTally(name string) *Tally {
	return &Tally{name: name, within: map[int]int{}, recall: map[int]int{}, bins: newBins(), bands: map[string]*[3]int{}}
}

// Bin is one confidence band and how often attributions in it were right:
// a calibrated attributor is right about as often as it says.
type Bin struct {
	Low, High float64
	Cases     int
	StepHits  int
	AgentHits int
}

// binEdges are the confidence bands eval --calibration reports.
var binEdges = []float64{0, 0.2, 0.3, 0.4, 0.5, 0.7, 1}

// StepAccuracy is the share of the band's cases whose step was right.
func (b Bin) StepAccuracy() float64 { return frac(b.StepHits, b.Cases) }

// AgentAccuracy is the share of the band's cases whose agent was right.
func (b Bin) AgentAccuracy() float64 { return frac(b.AgentHits, b.Cases) }

func newBins() []Bin {
	var out []Bin
	for i := 0; i+1 < len(binEdges); i++ {
		out = append(out, Bin{Low: binEdges[i], High: binEdges[i+1]})
	}
	return out
}

func (t *Tally) addBin(conf float64, o Outcome) {
	for i := range t.bins {
		b := &t.bins[i]
		if conf >= b.Low && (conf < b.High || i == len(t.bins)-1) {
			b.Cases++
			if o.StepCorrect {
				b.StepHits++
			}
			if o.AgentCorrect {
				b.AgentHits++
			}
			return
		}
	}
}

// Outcome is how one case went.
type Outcome struct {
	AgentCorrect bool
	StepCorrect  bool
	// Exposed is set when a model was asked, to whether the labelled step
	// was among the steps it could name.
	Exposed *bool
}

// Add records a case. A nil attribution is a failed case: counted, and wrong.
func (t *Tally) Add(label *run.Label, a *rules.Attribution) Outcome {
	t.cases++
	if a == nil {
		t.failed++
		return Outcome{}
	}
	t.usage = t.usage.Add(a.Usage)
	o := Outcome{AgentCorrect: run.NamesAgent(label.Agent, a.Agent), StepCorrect: a.Step == label.Step}
	if o.AgentCorrect {
		t.agentHits++
	}
	if o.StepCorrect {
		t.stepHits++
	}
	if m := a.Model; m != nil {
		t.modelCases++
		seen := slices.Contains(m.CandidatesSeen, label.Step)
		if seen {
			t.exposed++
		}
		o.Exposed = &seen
		if p := m.ModelPick; p != nil {
			if run.NamesAgent(label.Agent, p.Agent) {
				t.modelAgent++
			}
			if p.Step == label.Step {
				t.modelStep++
			}
		}
	}
	t.addBin(a.Confidence, o)
	if a.Triage != "" {
		b := t.bands[a.Triage]
		if b == nil {
			b = &[3]int{}
			t.bands[a.Triage] = b
		}
		b[0]++
		if o.StepCorrect {
			b[1]++
		}
		if o.AgentCorrect {
			b[2]++
		}
	}
	for _, k := range WithinK {
		if abs(a.Step-label.Step) <= k {
			t.within[k]++
		}
	}
	for _, k := range RecallK {
		for i, c := range a.Candidates {
			if i >= k {
				break
			}
			if c.Step == label.Step {
				t.recall[k]++
				break
			}
		}
	}
	return o
}

// AddFloors records what each label-free guess answers for the run of a
// case that Add counts.
func (t *Tally) AddFloors(label *run.Label, r *run.Run) {
	in := &rules.Input{Run: r}
	for _, name := range rules.LabelFreeBaselines() {
		a := rules.Baselines[name](in)
		t.floor(name).Add(label, &a)
	}
}

// floor is the tally of the named guess's answers.
func (t *Tally) floor(name string) *Tally {
	if t.floors == nil {
		t.floors = map[string]*Tally{}
	}
	f := t.floors[name]
	if f == nil {
		f = NewTally(name)
		t.floors[name] = f
	}
	return f
}

// AddUnlabelled records a file that holds no label: it is counted apart
// and scored neither right nor wrong.
func (t *Tally) AddUnlabelled() { t.unlabelled++ }

// Merge adds another tally into t.
func (t *Tally) Merge(o *Tally) {
	t.cases += o.cases
	t.failed += o.failed
	t.unlabelled += o.unlabelled
	t.agentHits += o.agentHits
	t.stepHits += o.stepHits
	for k, v := range o.within {
		t.within[k] += v
	}
	for k, v := range o.recall {
		t.recall[k] += v
	}
	t.modelCases += o.modelCases
	t.exposed += o.exposed
	t.modelAgent += o.modelAgent
	t.modelStep += o.modelStep
	t.inSample += o.inSample
	t.usage = t.usage.Add(o.usage)
	t.seconds += o.seconds
	for k, v := range o.bands {
		b := t.bands[k]
		if b == nil {
			b = &[3]int{}
			t.bands[k] = b
		}
		for i := range b {
			b[i] += v[i]
		}
	}
	for k, v := range o.floors {
		t.floor(k).Merge(v)
	}
	for i := range t.bins {
		t.bins[i].Cases += o.bins[i].Cases
		t.bins[i].StepHits += o.bins[i].StepHits
		t.bins[i].AgentHits += o.bins[i].AgentHits
	}
}

// Score turns the tally into fractions.
func (t *Tally) Score() Score {
	s := Score{
		Name: t.name, Cases: t.cases, Failed: t.failed, Unlabelled: t.unlabelled, InSample: t.inSample, Usage: t.usage, Seconds: t.seconds,
		AgentAccuracy: frac(t.agentHits, t.cases), StepAccuracy: frac(t.stepHits, t.cases),
		StepWithin: map[string]float64{}, RecallAt: map[string]float64{}, Triage: map[string]BandScore{},
	}
	for _, c := range triage.Classes {
		s.Triage[string(c)] = BandScore{}
	}
	for k, b := range t.bands {
		s.Triage[k] = BandScore{Cases: b[0], StepAccuracy: frac(b[1], b[0]), AgentAccuracy: frac(b[2], b[0])}
	}
	if t.floors != nil {
		// Of all the cases: one that did not load is wrong for a guess too.
		s.Floors = map[string]Accuracy{}
		for k, f := range t.floors {
			s.Floors[k] = Accuracy{AgentAccuracy: frac(f.agentHits, t.cases), StepAccuracy: frac(f.stepHits, t.cases)}
		}
	}
	if t.modelCases > 0 {
		e := frac(t.exposed, t.cases)
		s.ModelExposure = &e
		s.ModelOnly = &Accuracy{AgentAccuracy: frac(t.modelAgent, t.cases), StepAccuracy: frac(t.modelStep, t.cases)}
	}
	for _, k := range WithinK {
		s.StepWithin[strconv.Itoa(k)] = frac(t.within[k], t.cases)
	}
	for _, k := range RecallK {
		s.RecallAt[strconv.Itoa(k)] = frac(t.recall[k], t.cases)
	}
	return s
}

func frac(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
