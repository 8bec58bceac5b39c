package cmdutil

import (
	"context"

	"github.com/spf13/pflag"

	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/redact"
	"github.com/offattr/offattr/triage"
)

// Analysis is what every command that analyses runs holds, in the manner
// of GitHub CLI's Factory: the flags that load, redact and analyse the
// runs, and the analyzer they build, which a test replaces with a spy. A
// command embeds it in its options.
type Analysis struct {
	Load   LoadFlags
	Model  ModelFlags
	Rules  RuleFlags
	Redact RedactFlags
	// Analyzer builds the engine once the flags are parsed:
	// SetDefaultAnalyzer's unless a test set it.
	Analyzer AnalyzerFunc
	// AnswerOnly is set by a command that reads only each run's
	// attribution (engine.Options.AnswerOnly).
	AnswerOnly bool
}

// Inputs is paths and the files the flags name that the command reads (the
// labels, the weights, the redaction patterns): what CheckNotInput must
// keep an output from.
func (a *Analysis) Inputs(paths []string) []string {
	return Inputs(paths, a.Load.Labels, a.Rules.Weights, a.Redact.Patterns)
}

// NewAnalysis returns the Analysis of a command whose "-" reads io.In.
func NewAnalysis(io *IOStreams) Analysis { return Analysis{Load: LoadFlags{In: io.In}} }

// Register adds the load, model, rule and redaction flags to fs, with
// redaction off unless asked for.
func (a *Analysis) Register(fs *pflag.FlagSet) {
	a.registerAnalysis(fs)
	a.Redact.Register(fs)
}

// RegisterRedactingByDefault is Register with redaction on by default,
// for the outputs made to leave the machine.
func (a *Analysis) RegisterRedactingByDefault(fs *pflag.FlagSet) {
	a.registerAnalysis(fs)
	a.Redact.RegisterOn(fs)
}

func (a *Analysis) registerAnalysis(fs *pflag.FlagSet) {
	a.Load.Register(fs)
	a.Model.Register(fs)
	a.Rules.Register(fs)
}

// SetDefaultAnalyzer sets Analyzer, unless a test has, to the engine the
// rule and model flags choose; bands are the triage thresholds the user
// set, over the weights' bands.
func (a *Analysis) SetDefaultAnalyzer(ctx context.Context, io *IOStreams, bands triage.Override) {
	if a.Analyzer != nil {
		return
	}
	a.Analyzer = func(p *redact.Patterns) (engine.AnalyzeFunc, error) {
		return a.newAnalyzer(ctx, io, p, bands)
	}
}

// Prepare is the common start of the commands that analyse runs: it checks
// the load flags, compiles the redaction patterns (nil when off) and builds
// the analyzer with them, so a bad flag fails before any run is read.
func (a *Analysis) Prepare() (*redact.Patterns, engine.AnalyzeFunc, error) {
	if _, err := a.Load.Options(); err != nil {
		return nil, nil, err
	}
	patterns, err := a.Redact.Compile()
	if err != nil {
		return nil, nil, err
	}
	analyze, err := a.Analyzer(patterns)
	if err != nil {
		return nil, nil, err
	}
	return patterns, analyze, nil
}

// AnalyzerFunc builds a command's engine once its flags are parsed, given
// the redaction patterns (nil without --redact). Commands hold one so that
// tests can substitute a spy.
type AnalyzerFunc func(patterns *redact.Patterns) (engine.AnalyzeFunc, error)
