package cmdutil

import (
	"github.com/spf13/pflag"

	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/redact"
)

// RedactFlags are --redact and --redact-patterns, shared by every command
// that writes run text or sends it to a model.
type RedactFlags struct {
	On       bool
	Patterns string
}

// Register adds the flags to fs.
func (r *RedactFlags) Register(fs *pflag.FlagSet) {
	fs.BoolVar(&r.On, "redact", false, "mask secrets and personal data (keys, tokens, passwords, e-mails, IPs, phones) before anything is written or sent to a model")
	fs.StringVar(&r.Patterns, "redact-patterns", "", "extra regexp2 patterns to mask, one per line, # comments (implies --redact)")
}

// Compile returns the patterns to redact with, or nil when redaction is off.
func (r *RedactFlags) Compile() (*redact.Patterns, error) {
	if !r.On && r.Patterns == "" {
		return nil, nil
	}
	return redact.Compile(redact.Options{PatternsFile: r.Patterns})
}

// Prepare is the common start of the commands that analyse runs: it checks
// the load flags, compiles the redaction patterns (nil when off) and builds
// the analyzer with them, so a bad flag fails before any run is read.
func Prepare(load LoadFlags, red RedactFlags, analyzer AnalyzerFunc) (*redact.Patterns, engine.Analyzer, error) {
	if _, err := load.Options(); err != nil {
		return nil, nil, err
	}
	patterns, err := red.Compile()
	if err != nil {
		return nil, nil, err
	}
	analyze, err := analyzer(patterns)
	if err != nil {
		return nil, nil, err
	}
	return patterns, analyze, nil
}

// AnalyzerFunc builds a command's engine once its flags are parsed, given
// the redaction patterns (nil without --redact). Commands hold one so that
// tests can substitute a spy.
type AnalyzerFunc func(patterns *redact.Patterns) (engine.Analyzer, error)
