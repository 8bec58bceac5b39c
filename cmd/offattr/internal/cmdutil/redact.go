package cmdutil

import (
	"github.com/spf13/pflag"

	"github.com/offattr/offattr/redact"
)

// RedactFlags are --redact and --redact-patterns, shared by every command
// that writes run text or sends it to a model.
type RedactFlags struct {
	On       bool
	Off      bool // --no-redact, where redaction is on by default
	Patterns string

	compiled bool
	patterns *redact.Patterns
}

const redactUsage = "mask secrets and personal data (keys, tokens, passwords, e-mails, IPs, phones, cards, IBANs) in the run before anything is analysed, written or sent to a model"

// Register adds the flags to fs, redaction off unless asked for.
func (r *RedactFlags) Register(fs *pflag.FlagSet) {
	fs.BoolVar(&r.On, "redact", false, redactUsage)
	r.registerPatterns(fs)
}

// RegisterOn adds the flags to fs with redaction on by default and
// --no-redact to turn it off, for the outputs made to leave the machine.
func (r *RedactFlags) RegisterOn(fs *pflag.FlagSet) {
	fs.BoolVar(&r.On, "redact", true, redactUsage+" (on by default here)")
	fs.BoolVar(&r.Off, "no-redact", false, "write the run's text unmasked")
	r.registerPatterns(fs)
}

func (r *RedactFlags) registerPatterns(fs *pflag.FlagSet) {
	fs.StringVar(&r.Patterns, "redact-patterns", "", "extra regexp2 patterns to mask, one per line, # comments (implies --redact)")
}

// Compile returns the patterns to redact with, or nil when redaction is
// off. It compiles once; later calls return the same patterns.
func (r *RedactFlags) Compile() (*redact.Patterns, error) {
	if r.compiled {
		return r.patterns, nil
	}
	if r.Off && r.Patterns != "" {
		return nil, Usagef("--no-redact and --redact-patterns contradict each other")
	}
	if r.Off || (!r.On && r.Patterns == "") {
		r.compiled = true
		return nil, nil
	}
	p, err := redact.Compile(redact.Options{PatternsFile: r.Patterns})
	if err != nil {
		return nil, Usage(err)
	}
	r.compiled, r.patterns = true, p
	return p, nil
}

// Error masks err's message as the run's text is masked, for errors that
// may quote the run (a bad value, a parse error near some text). Its
// chain is kept for errors.Is and errors.As; without redaction err is
// returned as it is.
func (r *RedactFlags) Error(err error) error {
	if err == nil || r.patterns == nil {
		return err
	}
	return &redactedError{msg: r.patterns.NewRedactor().String(err.Error()), err: err}
}

// String masks s as Error masks a message; s itself without redaction.
func (r *RedactFlags) String(s string) string {
	if r.patterns == nil {
		return s
	}
	return r.patterns.NewRedactor().String(s)
}

type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }
