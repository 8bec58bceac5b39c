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
	"os"
	"strings"
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
	// ModelExposed is whether the model could name the labelled step;
	// absent without a model.
	ModelExposed *bool `json:"model_exposed,omitempty"`
}

// ErrNoLabel is why an unlabelled file cannot be a case; ErrNoSpanLabel
// the same for a telemetry file none of whose traces is labelled.
// ErrLabelOutside is a label that names a step the run does not have.
var (
	ErrNoLabel      = errors.New("not a labelled case (no mistake_agent / mistake_step)")
	ErrNoSpanLabel  = errors.New("no trace is labelled (mark the decisive span with offattr.mistake=true, or give --labels)")
	ErrLabelOutside = errors.New("the label names a step outside the run")
)

// Unlabelled reports whether err says a file holds no label, so that it is
// left out of a score rather than counted as wrong.
func Unlabelled(err error) bool {
	return errors.Is(err, ErrNoLabel) || errors.Is(err, ErrNoSpanLabel)
}

// LeftOut reports whether err says a file is no case and no failed one: a
// labels file kept beside the traces it labels, for --labels. It is left
// out with a note, and counted neither unlabelled nor failed.
func LeftOut(err error) bool { return errors.Is(err, run.ErrLabelsFile) }

// LabelsGiven reports whether file is the labels file opts were given
// (--labels): it sits among the files read, and is skipped without a word.
func LabelsGiven(file string, opts run.Options) bool {
	if opts.LabelsFile == "" {
		return false
	}
	a, err := os.Stat(file)
	if err != nil {
		return false
	}
	b, err := os.Stat(opts.LabelsFile)
	return err == nil && os.SameFile(a, b)
}

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
	// InSample, when set, tells the runs the weights were fitted on
	// (rules.Weights.InSample) by fingerprint; they are counted so.
	InSample func(fingerprint string) bool
	// Floors, when set, measures the label-free guesses on every case
	// that loads, beside the analyzer (Score.Floors).
	Floors bool
}

// Evaluate attributes every case of every subset: each labelled trace of a
// telemetry file is a case of its own, named FILE#TRACEID. A case that
// fails to load or to analyze, or whose label names a step outside its run,
// or that a subset holds unread (Subset.Unread), is reported on opts.Warn,
// counted as failed and as wrong, and the rest go on. A file with no label
// is not a case: it is counted as unlabelled.
func Evaluate(ctx context.Context, subsets []Subset, analyze engine.AnalyzeFunc, opts Options) (Report, error) {
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
	all := NewTally("overall")
	write := func(res CaseResult) error {
		line, err := json.Marshal(res)
		if err != nil {
			return fmt.Errorf("eval: encode case %s: %w", res.File, err)
		}
		if _, err := cases.Write(append(escape.JSON(line), '\n')); err != nil {
			return fmt.Errorf("eval: write cases: %w", err)
		}
		return nil
	}
	// failed reports a case that cannot be read, counts it as failed and
	// wrong, and records it.
	failed := func(t *Tally, subset, file string, err error) error {
		// One redactor: the file's name in the message and in the record
		// get the same placeholders. The name is masked first, as a run's
		// name is; a log's text may be quoted in the error.
		red := opts.Redact.NewRedactor()
		shown := red.String(file)
		msg := red.String(err.Error())
		fmt.Fprintf(warn, "offattr: %s\n", escape.Line(msg))
		t.Add(nil, nil)
		return write(CaseResult{File: shown, Subset: subset, Error: msg})
	}
	for _, sub := range subsets {
		t := NewTally(sub.Name)
		for _, file := range sub.Files {
			if err := ctx.Err(); err != nil {
				return rep, err
			}
			if LabelsGiven(file, opts.Load) {
				continue
			}
			fcs, err := LabelledCases(ctx, file, opts.Load, warn)
			if err != nil && ctx.Err() != nil {
				return rep, ctx.Err()
			}
			if Unlabelled(err) || LeftOut(err) {
				msg := opts.Redact.NewRedactor().String(err.Error())
				fmt.Fprintf(warn, "offattr: %s (left out)\n", escape.Line(msg))
				if Unlabelled(err) {
					t.AddUnlabelled()
				}
				continue
			}
			if err != nil {
				if err := failed(t, sub.Name, file, err); err != nil {
					return rep, err
				}
				continue
			}
			for _, c := range fcs {
				if opts.InSample != nil && opts.InSample(c.Run.Fingerprint()) {
					t.inSample++
				}
				red := opts.Redact.NewRedactor()
				if red != nil {
					masked := red.Case(*c)
					c = &masked
				}
				if opts.Floors {
					t.AddFloors(c.Label, c.Run)
				}
				res := CaseResult{File: c.Run.Source, Subset: sub.Name, Label: c.Label}
				start := time.Now()
				a, err := analyze(ctx, c.Run)
				t.seconds += time.Since(start).Seconds()
				if err != nil {
					if ctx.Err() != nil {
						return rep, ctx.Err()
					}
					res.Error = red.String(fmt.Sprintf("analyze %s: %s", c.Run.Source, err))
					fmt.Fprintf(warn, "offattr: %s\n", escape.Line(res.Error))
					t.Add(nil, nil)
				} else {
					o := t.Add(c.Label, &a.Attribution)
					res.Prediction = &Prediction{Agent: a.Attribution.Agent, Step: a.Attribution.Step, Confidence: a.Attribution.Confidence, AgentCorrect: o.AgentCorrect, StepCorrect: o.StepCorrect, ModelExposed: o.Exposed}
					res.Candidates = a.Attribution.Candidates
				}
				if err := write(res); err != nil {
					return rep, err
				}
			}
		}
		for _, u := range sub.Unread {
			if err := failed(t, sub.Name, u.Path, u.Err); err != nil {
				return rep, err
			}
		}
		all.Merge(t)
		rep.Subsets = append(rep.Subsets, t.Score())
	}
	rep.Overall = all.Score()
	rep.Calibration = all.bins
	return rep, nil
}

// LabelledCases loads the labelled cases of a file: the one case of a
// Who&When file, or every labelled trace of a telemetry file. A telemetry
// file is a user's own export, in which only some traces may be labelled:
// the rest are left out, and warn says how many.
func LabelledCases(ctx context.Context, file string, opts run.Options, warn io.Writer) ([]*run.Case, error) {
	cases, err := run.LoadAll(ctx, file, opts)
	if err != nil {
		return nil, err
	}
	var labelled []*run.Case
	for _, c := range cases {
		if c.Label == nil {
			continue
		}
		if err := checkLabel(c); err != nil {
			return nil, fmt.Errorf("eval %s: %w", c.Run.Source, err)
		}
		if w := unknownAgent(c); w != "" {
			fmt.Fprintf(warn, "offattr: %s\n", escape.Line(fmt.Sprintf("eval %s: %s", c.Run.Source, w)))
		}
		labelled = append(labelled, c)
	}
	switch {
	case len(labelled) == 0 && cases[0].Run.TraceID != "" && cases[0].Run.Format != run.FormatTranscript:
		return nil, fmt.Errorf("eval %s: %w", file, ErrNoSpanLabel)
	case len(labelled) == 0:
		return nil, fmt.Errorf("eval %s: %w", file, ErrNoLabel)
	case len(labelled) < len(cases):
		fmt.Fprintf(warn, "offattr: %s\n", escape.Line(fmt.Sprintf("eval %s: %d of %d traces are not labelled and are left out", file, len(cases)-len(labelled), len(cases))))
	}
	return labelled, nil
}

// checkLabel refuses a label whose step the run does not have: scored, a
// negative step would count as near an early answer, and one past the end
// as near a late one.
func checkLabel(c *run.Case) error {
	step, n := c.Label.Step, len(c.Run.Steps)
	switch {
	case step < 0:
		return fmt.Errorf("%w: mistake_step %d is negative (steps count from 0)", ErrLabelOutside, step)
	case step >= n:
		return fmt.Errorf("%w: mistake_step %d is past the last step, %d", ErrLabelOutside, step, n-1)
	}
	return nil
}

// unknownAgent says so when a label's agent is by no step of the run
// (agents compared as run.NamesAgent does), or when it names no agent, and
// is "" otherwise. The case
// is still scored: its step can be right, and a system's labels may name
// a party that never speaks (the environment, a tool), but its agent can
// never be, and a misspelt name is worth a look.
func unknownAgent(c *run.Case) string {
	if c.Label.Agent == "" {
		return "the label names no agent (mistake_agent is empty or missing): scored, its agent can never be right"
	}
	var agents []string
	seen := map[string]bool{}
	for _, s := range c.Run.Steps {
		if run.NamesAgent(c.Label.Agent, s.Agent) {
			return ""
		}
		if k := run.AgentKey(s.Agent); !seen[k] {
			seen[k] = true
			agents = append(agents, s.Agent)
		}
	}
	const named = 8
	list := strings.Join(agents[:min(len(agents), named)], ", ")
	if len(agents) > named {
		list += fmt.Sprintf(", and %d more", len(agents)-named)
	}
	return fmt.Sprintf("mistake_agent %q is none of its agents (%s): scored, its agent can never be right", c.Label.Agent, list)
}
