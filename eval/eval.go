// Package eval measures an analyzer on labelled cases: it finds the cases
// under the paths a user gives, runs the engine on each (the label stays
// with eval, never with the run), and scores agent and step accuracy,
// accuracy within ±k steps, recall@k and accuracy per confidence band.
package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
)

// Report is eval's JSON output; its shape is a contract with tooling.
type Report struct {
	Setting string  `json:"setting"`
	Mode    string  `json:"mode"`
	Subsets []Score `json:"subsets"`
	Overall Score   `json:"overall"`
	// Calibration is accuracy per confidence band over every case; it is
	// printed with --calibration and kept out of the JSON contract.
	Calibration []Bin `json:"-"`
}

// Settings name whether the attributor saw the correct final answer.
const (
	SettingWithGroundTruth    = "with_ground_truth"
	SettingWithoutGroundTruth = "without_ground_truth"
)

// CaseResult is one line of --cases.
type CaseResult struct {
	File       string            `json:"file"`
	Subset     string            `json:"subset"`
	Label      *run.Label        `json:"label,omitempty"`
	Prediction *Prediction       `json:"prediction,omitempty"`
	Candidates []rules.Candidate `json:"candidates,omitempty"`
	Error      string            `json:"error,omitempty"`
}

// Prediction is the attribution's answer, with how it scored.
type Prediction struct {
	Agent        string  `json:"agent"`
	Step         int     `json:"step"`
	Confidence   float64 `json:"confidence"`
	AgentCorrect bool    `json:"agent_correct"`
	StepCorrect  bool    `json:"step_correct"`
	// ModelExposed is whether the model could name the labelled step;
	// absent without a model.
	ModelExposed *bool `json:"model_exposed,omitempty"`
}

// ErrNoLabel is why an unlabelled file cannot be a case.
var ErrNoLabel = errors.New("not a labelled case (no mistake_agent / mistake_step)")

// Evaluate attributes every case of every subset, loaded with opts. A case
// that fails to load or to analyze is reported on warn, counted as failed
// and as wrong, and the rest go on. One CaseResult per case is written to
// cases as a JSON line.
func Evaluate(ctx context.Context, subsets []Subset, opts run.Options, analyze engine.Analyzer, cases, warn io.Writer) (Report, error) {
	rep := Report{Setting: SettingWithGroundTruth}
	if opts.NoGroundTruth {
		rep.Setting = SettingWithoutGroundTruth
	}
	all := NewTally("overall")
	enc := json.NewEncoder(cases)
	for _, sub := range subsets {
		t := NewTally(sub.Name)
		for _, file := range sub.Files {
			if err := ctx.Err(); err != nil {
				return rep, err
			}
			res := CaseResult{File: file, Subset: sub.Name}
			start := time.Now()
			a, label, err := evalCase(ctx, file, opts, analyze)
			t.seconds += time.Since(start).Seconds()
			res.Label = label
			if err != nil {
				if ctx.Err() != nil {
					return rep, ctx.Err()
				}
				fmt.Fprintf(warn, "offattr: %s\n", err)
				res.Error = err.Error()
				t.Add(nil, nil)
			} else {
				o := t.Add(label, &a)
				res.Prediction = &Prediction{Agent: a.Agent, Step: a.Step, Confidence: a.Confidence, AgentCorrect: o.AgentCorrect, StepCorrect: o.StepCorrect, ModelExposed: o.Exposed}
				res.Candidates = a.Candidates
			}
			if err := enc.Encode(res); err != nil {
				return rep, fmt.Errorf("eval: write cases: %w", err)
			}
		}
		all.Merge(t)
		rep.Subsets = append(rep.Subsets, t.Score())
	}
	rep.Overall = all.Score()
	rep.Calibration = all.bins
	return rep, nil
}

func evalCase(ctx context.Context, file string, opts run.Options, analyze engine.Analyzer) (rules.Attribution, *run.Label, error) {
	c, err := run.LoadCase(file, opts)
	if err != nil {
		return rules.Attribution{}, nil, err
	}
	if c.Label == nil {
		return rules.Attribution{}, nil, fmt.Errorf("eval %s: %w", file, ErrNoLabel)
	}
	res, err := analyze(ctx, c.Run)
	if err != nil {
		return rules.Attribution{}, c.Label, fmt.Errorf("analyze %s: %w", file, err)
	}
	return res.Attribution, c.Label, nil
}
