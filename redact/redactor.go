package redact

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Kind names what a masked value was; it is the stem of its placeholder.
type Kind string

const (
	PrivateKey Kind = "PRIVATE_KEY"
	Token      Kind = "TOKEN"
	APIKey     Kind = "API_KEY"
	Secret     Kind = "SECRET"
	Password   Kind = "PASSWORD"
	Email      Kind = "EMAIL"
	IP         Kind = "IP"
	Phone      Kind = "PHONE"
	Custom     Kind = "CUSTOM"
	// Withheld replaces a whole text that could not be checked in time.
	Withheld Kind = "WITHHELD"
)

// DefaultTimeout bounds one match attempt of one pattern. Ordinary text
// takes microseconds; only pathological input gets near it.
const DefaultTimeout = 250 * time.Millisecond

// ErrTimeout is wrapped by Redactor.Err when a pattern ran out of time.
var ErrTimeout = errors.New("redaction pattern timed out")

// Options configure a pattern set.
type Options struct {
	// PatternsFile holds extra regexp2 patterns, one per line; blank lines
	// and lines starting with # are ignored. Empty for none.
	PatternsFile string
	// Timeout bounds each match attempt; 0 means DefaultTimeout.
	Timeout time.Duration
}

// Patterns is a compiled set of built-in and user patterns. It is safe for
// concurrent use: compile it once per process and make a Redactor per run.
type Patterns struct {
	rules []*rule
}

// Compile builds the pattern set: the built-ins, then the user's file.
func Compile(opts Options) (*Patterns, error) {
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	var user []*rule
	if opts.PatternsFile != "" {
		var err error
		if user, err = loadPatterns(opts.PatternsFile, timeout); err != nil {
			return nil, err
		}
	}
	built, err := builtins(timeout)
	if err != nil {
		return nil, err
	}
	// The user's patterns run first: they know their own secrets' shapes
	// better than any built-in, and their placeholder should win.
	return &Patterns{rules: append(user, built...)}, nil
}

// New is Compile followed by NewRedactor, for a single run.
func New(opts Options) (*Redactor, error) {
	p, err := Compile(opts)
	if err != nil {
		return nil, err
	}
	return p.NewRedactor(), nil
}

// Redactor masks text for one run, numbering placeholders as it goes. It is
// not safe for concurrent use; make one per run.
type Redactor struct {
	p     *Patterns
	seen  map[string]string // kind + "\x00" + value → placeholder
	next  map[Kind]int
	known []knownSecret // longest first
	err   error
}

// knownSecret is a value already masked under a key or prefix, masked again
// wherever it reappears bare.
type knownSecret struct {
	value, placeholder string
}

// minKnownLen keeps short values ("abc") from being hunted everywhere.
const minKnownLen = 6

// NewRedactor starts a fresh numbering for one run.
func (p *Patterns) NewRedactor() *Redactor {
	return &Redactor{p: p, seen: map[string]string{}, next: map[Kind]int{}}
}

// Err reports the first pattern timeout, if any. The text concerned was
// withheld entirely, so output is still safe to write.
func (r *Redactor) Err() error { return r.err }

// Masked returns how many distinct values of each kind were masked so far.
func (r *Redactor) Masked() map[Kind]int {
	out := make(map[Kind]int, len(r.next))
	for k, n := range r.next {
		out[k] = n
	}
	return out
}

// String returns s with every secret replaced by its placeholder.
func (r *Redactor) String(s string) string {
	if s == "" {
		return s
	}
	out := s
	for _, ru := range r.p.rules {
		var err error
		out, err = r.apply(out, ru)
		if err != nil {
			if r.err == nil {
				r.err = fmt.Errorf("%w: %s: %v", ErrTimeout, ru.name, err)
			}
			return r.placeholder(Withheld, s)
		}
	}
	return r.maskKnown(out)
}

// apply runs one rule over text and replaces what it accepts.
func (r *Redactor) apply(text string, ru *rule) (string, error) {
	if !ru.mayMatch(text) {
		return text, nil
	}
	runes := []rune(text)
	m, err := ru.re.FindRunesMatch(runes)
	if err != nil || m == nil {
		return text, err
	}
	held := placeholderSpans(runes)
	var b strings.Builder
	prev, changed := 0, false
	for ; m != nil; m, err = ru.re.FindNextMatch(m) {
		start, end := m.Index, m.Index+m.Length
		if g := m.GroupByName("secret"); g != nil && len(g.Captures) > 0 {
			start, end = g.Index, g.Index+g.Length
		}
		// Never mask inside or across a placeholder: that is what keeps
		// redacting redacted text a no-op.
		if end <= start || start < prev || overlaps(held, start, end) {
			continue
		}
		value := string(runes[start:end])
		if ru.keep != nil && !ru.keep(m, value) {
			continue
		}
		b.WriteString(string(runes[prev:start]))
		b.WriteString(r.placeholder(ru.kind, value))
		prev, changed = end, true
	}
	if err != nil {
		return "", err
	}
	if !changed {
		return text, nil
	}
	b.WriteString(string(runes[prev:]))
	return b.String(), nil
}

// placeholder returns the stable placeholder of a value, numbering new ones.
func (r *Redactor) placeholder(k Kind, value string) string {
	key := string(k) + "\x00" + value
	if p, ok := r.seen[key]; ok {
		return p
	}
	r.next[k]++
	p := "[" + string(k) + "_" + strconv.Itoa(r.next[k]) + "]"
	r.seen[key] = p
	switch k {
	case Token, APIKey, Secret, Password, Custom, PrivateKey:
		if len(value) >= minKnownLen && !isPlaceholder(value) {
			r.known = append(r.known, knownSecret{value, p})
			sort.SliceStable(r.known, func(i, j int) bool { return len(r.known[i].value) > len(r.known[j].value) })
		}
	}
	return p
}

// maskKnown masks bare reappearances of secrets already seen, outside
// placeholders.
func (r *Redactor) maskKnown(s string) string {
	if len(r.known) == 0 {
		return s
	}
	hit := false
	for _, k := range r.known {
		if strings.Contains(s, k.value) {
			hit = true
			break
		}
	}
	if !hit {
		return s
	}
	return outsidePlaceholders(s, func(seg string) string {
		for _, k := range r.known {
			seg = strings.ReplaceAll(seg, k.value, k.placeholder)
		}
		return seg
	})
}
