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
	"github.com/offattr/offattr/internal/escape"
	"github.com/offattr/offattr/redact"
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
}

// ErrNoLabel is why an unlabelled file cannot be a case.
var ErrNoLabel = errors.New("not a labelled case (no mistake_agent / mistake_step)")

// Options say how Evaluate reads cases and where it reports them.
type Options struct {
	Load run.Options
	// Redact, when set, masks each case, its run and its label alike (one
	// redactor a case), before the run is analysed: the label is compared
	// with an answer in the same placeholders, and nothing written (cases,
	// warnings) holds what was masked.
	Redact *redact.Patterns
	// Cases receives one CaseResult per case as a JSON line; Warn a line
	// per case that failed. Either may be nil.
	Cases, Warn io.Writer
}

// Evaluate attributes every case of every subset. A case that fails to
// load or to analyze is reported on opts.Warn, counted as failed and as
// wrong, and the rest go on.
func Evaluate(ctx context.Context, subsets []Subset, analyze engine.Analyzer, opts Options) (Report, error) {
	rep := Report{Setting: SettingWithGroundTruth}
	if opts.Load.NoGroundTruth {
		rep.Setting = SettingWithoutGroundTruth
	}
	cases, warn := opts.Cases, opts.Warn
	if cases == nil {
		cases = io.Discard
	}
	if warn == nil {
		warn = io.Discard
	}
	all := newTally("overall")
	for _, sub := range subsets {
		t := newTally(sub.Name)
		for _, file := range sub.Files {
			if err := ctx.Err(); err != nil {
				return rep, err
			}
			res := CaseResult{File: file, Subset: sub.Name}
			start := time.Now()
			a, label, mask, err := evalCase(ctx, file, opts, analyze)
			t.seconds += time.Since(start).Seconds()
			res.Label = label
			if err != nil {
				if ctx.Err() != nil {
					return rep, ctx.Err()
				}
				res.Error = mask(err.Error())
				// A log's text may be quoted in the message.
				fmt.Fprintf(warn, "offattr: %s\n", escape.Line(res.Error))
				t.add(nil, nil)
			} else {
				o := t.add(label, &a)
				res.Prediction = &Prediction{Agent: a.Agent, Step: a.Step, Confidence: a.Confidence, AgentCorrect: o.AgentCorrect, StepCorrect: o.StepCorrect}
				res.Candidates = a.Candidates
			}
			line, err := json.Marshal(res)
			if err != nil {
				return rep, fmt.Errorf("eval: encode case %s: %w", file, err)
			}
			if _, err := cases.Write(append(escape.JSON(line), '\n')); err != nil {
				return rep, fmt.Errorf("eval: write cases: %w", err)
			}
		}
		all.merge(t)
		rep.Subsets = append(rep.Subsets, t.score())
	}
	rep.Overall = all.score()
	rep.Calibration = all.bins
	return rep, nil
}

// maskedAgent is the label's agent as the masked run names it: the name a
// step of that agent has after masking, so that the label and the answer
// compare alike whether or not the redactor masks agent names; a name no
// step has is masked as text.
func maskedAgent(orig, masked *run.Run, agent string, r *redact.Redactor) string {
	for i, s := range orig.Steps {
		if run.SameAgent(s.Agent, agent) {
			return masked.Steps[i].Agent
		}
	}
	return r.String(agent)
}

// evalCase attributes one case. mask redacts a message about it as its
// run was redacted (the same placeholders); it is the identity without
// redaction.
func evalCase(ctx context.Context, file string, opts Options, analyze engine.Analyzer) (a rules.Attribution, label *run.Label, mask func(string) string, err error) {
	mask = func(s string) string { return s }
	var r *redact.Redactor
	if opts.Redact != nil {
		r = opts.Redact.NewRedactor()
		mask = r.String
	}
	c, err := run.LoadCase(file, opts.Load)
	if err != nil {
		return rules.Attribution{}, nil, mask, err
	}
	if c.Label == nil {
		return rules.Attribution{}, nil, mask, fmt.Errorf("eval %s: %w", file, ErrNoLabel)
	}
	if r != nil {
		masked := r.Run(c.Run)
		l := *c.Label
		l.Agent, l.Reason = maskedAgent(c.Run, masked, l.Agent, r), r.String(l.Reason)
		c.Run, c.Label = masked, &l
	}
	res, err := analyze(ctx, c.Run)
	if err != nil {
		return rules.Attribution{}, c.Label, mask, fmt.Errorf("analyze %s: %w", file, err)
	}
	return res.Attribution, c.Label, mask, nil
}
