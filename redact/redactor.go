package redact

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/offattr/offattr/internal/match"
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
	IBAN       Kind = "IBAN"
	Card       Kind = "CARD"
	SSN        Kind = "SSN"
	Passport   Kind = "PASSPORT"
	NationalID Kind = "NATIONAL_ID"
	Custom     Kind = "CUSTOM"
)

// Options configure a pattern set.
type Options struct {
	// PatternsFile holds extra regexp2 patterns, one per line; blank lines
	// and lines starting with # are ignored. Empty for none. A pattern
	// whose backtracking is not bounded (match.Bounded) is refused.
	PatternsFile string
}

// Patterns is a compiled set of built-in and user patterns. It is safe for
// concurrent use: compile it once per process and make a Redactor per run.
type Patterns struct {
	set   *match.Set
	rules []*rule
}

// Compile builds the pattern set: the built-ins, then the user's file.
func Compile(opts Options) (*Patterns, error) {
	set := match.NewSet()
	var user []*rule
	if opts.PatternsFile != "" {
		var err error
		if user, err = loadPatterns(set, opts.PatternsFile); err != nil {
			return nil, err
		}
	}
	built, err := builtins(set)
	if err != nil {
		return nil, err
	}
	// The user's patterns run first: they know their own secrets' shapes
	// better than any built-in, and their placeholder should win.
	return &Patterns{set: set, rules: append(user, built...)}, nil
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
//
// A nil *Redactor masks nothing: commands make one from a nil *Patterns
// when redaction is off and call it all the same.
type Redactor struct {
	p    *Patterns
	seen map[string]string // kind + "\x00" + identity → placeholder
	next map[Kind]int
	// known maps secret values to their placeholders, to mask them where
	// they reappear bare; bare replaces them all, nil until needed.
	known map[string]string
	bare  func(string) string
}

// minKnownLen keeps short values ("abc") from being hunted everywhere.
const minKnownLen = 6

// NewRedactor starts a fresh numbering for one run. It returns nil for a
// nil *Patterns, and a nil *Redactor leaves everything as it is.
func (p *Patterns) NewRedactor() *Redactor {
	if p == nil {
		return nil
	}
	return &Redactor{p: p, seen: map[string]string{}, next: map[Kind]int{}, known: map[string]string{}}
}

// Masked returns how many distinct values of each kind were masked so far.
func (r *Redactor) Masked() map[Kind]int {
	out := map[Kind]int{}
	if r == nil {
		return out
	}
	for k, n := range r.next {
		out[k] = n
	}
	return out
}

// String returns s with every secret replaced by its placeholder. After
// Run, it masks with the run's placeholders: an error message or an agent
// name printed later reads [EMAIL_1] just as the run does.
func (r *Redactor) String(s string) string {
	if r == nil {
		return s
	}
	return r.maskKnown(r.rules(s))
}

// maxPasses bounds how often rules runs the rules over a text.
const maxPasses = 4

// rules runs every rule over s, in order, and again over the result until
// nothing changes. A rule looks at what surrounds a candidate, and a
// placeholder put in by the same rule or a later one changes that, so a
// second pass may find what the first could not; redacting the output
// again would then mask more, and redaction must be idempotent. The
// patterns most exposed count a placeholder of their own kind as what it
// replaced; this loop catches the rest. Most texts have nothing to mask
// and take one pass.
func (r *Redactor) rules(s string) string {
	for range maxPasses {
		out := r.pass(s)
		if out == s {
			return out
		}
		s = out
	}
	return s
}

// pass runs every rule over s once, in order.
func (r *Redactor) pass(s string) string {
	if s == "" {
		return s
	}
	t := r.p.set.Text(s)
	for _, ru := range r.p.rules {
		if !ru.mayMatch(t) {
			continue
		}
		if next := r.apply(t, ru); next != t.String() {
			t = r.p.set.Text(next)
		}
	}
	return t.String()
}

// Error returns err with its message redacted, for printing; errors.Is and
// errors.As still see the original chain beneath. A nil err stays nil.
func (r *Redactor) Error(err error) error {
	if r == nil || err == nil {
		return err
	}
	return &redactedError{msg: r.String(err.Error()), err: err}
}

type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// hit is a span of runes to mask and whether to learn its value. A rule
// that reads decoded text gives each hit its kind and the decoded value,
// which choose its placeholder; otherwise they are the rule's kind and the
// masked text.
type hit struct {
	span
	learn bool
	kind  Kind
	value string
}

// apply runs one rule over t and replaces what it accepts.
func (r *Redactor) apply(t *match.Text, ru *rule) string {
	text := t.String()
	hits := ru.hits(t)
	if len(hits) == 0 {
		return text
	}
	runes := t.Runes()
	held := placeholderSpans(runes)
	var b strings.Builder
	prev := 0
	for _, h := range hits {
		// Never mask inside or across a placeholder: that is what keeps
		// redacting redacted text a no-op. Hits and placeholders are both
		// in order, so the placeholders before this hit are done with.
		for len(held) > 0 && held[0].end <= h.start {
			held = held[1:]
		}
		if h.end <= h.start || h.start < prev || len(held) > 0 && held[0].start < h.end {
			continue
		}
		value := string(runes[h.start:h.end])
		k, id := ru.kind, value
		if h.kind != "" {
			k, id = h.kind, h.value
		}
		p := r.placeholder(k, id)
		if h.learn {
			r.learn(k, value, p)
		}
		b.WriteString(string(runes[prev:h.start]))
		b.WriteString(p)
		prev = h.end
	}
	if prev == 0 {
		return text
	}
	b.WriteString(string(runes[prev:]))
	return b.String()
}

// hits lists what the rule would mask in t, in order, as spans of runes.
func (ru *rule) hits(t *match.Text) []hit {
	if ru.findHits != nil {
		return ru.findHits(t.Runes())
	}
	var out []hit
	if ru.find != nil {
		for _, sp := range ru.find(t.Runes()) {
			out = append(out, hit{span: sp, learn: true})
		}
		return out
	}
	runes, off := t.Runes(), t.Offsets()
	for _, m := range t.Find(ru.re, -1) {
		f := found{m: m, runes: runes, off: off}
		whole := f.runeSpan(m.Groups[0])
		start, end := whole.start, whole.end
		if g := m.Group("secret"); g.OK {
			start, end = f.runeSpan(g).start, f.runeSpan(g).end
		} else if g := m.Group("lead"); g.OK {
			start = f.runeSpan(g).start // the match goes on from a lookbehind
		}
		value := string(runes[start:end])
		if ru.cut != nil {
			value = ru.cut(f, value)
			end = start + utf8.RuneCountInString(value)
		}
		if ru.keep != nil && !ru.keep(f, value) {
			continue
		}
		out = append(out, hit{span: span{start, end}, learn: ru.learn == nil || ru.learn(f, value)})
	}
	return out
}

// placeholder returns the stable placeholder of a value, numbering new ones.
func (r *Redactor) placeholder(k Kind, value string) string {
	key := string(k) + "\x00" + identity(k, value)
	if p, ok := r.seen[key]; ok {
		return p
	}
	r.next[k]++
	p := "[" + string(k) + "_" + strconv.Itoa(r.next[k]) + "]"
	r.seen[key] = p
	return p
}

// identity is what makes two values of a kind the same: e-mail addresses
// compare without case (Bob@Example.com is bob@example.com, and agent names
// stay comparable) and however the at and dots were spelt out, card numbers, IBANs and phone numbers by their digits
// and letters alone, however they were grouped.
func identity(k Kind, value string) string {
	switch k {
	case Email:
		return deobfuscate(strings.ToLower(value))
	case Card, IBAN, Phone:
		return strings.Map(func(r rune) rune {
			switch {
			case r >= '0' && r <= '9':
				return r
			case r >= 'a' && r <= 'z':
				return r - 'a' + 'A'
			case r >= 'A' && r <= 'Z':
				return r
			}
			return -1
		}, value)
	}
	return value
}

// deobfuscate writes an obfuscated address, lower-cased, as an address:
// "jane [at] example [dot] com" is jane@example.com.
func deobfuscate(v string) string {
	if strings.Contains(v, "@") {
		return v
	}
	var b strings.Builder
	for _, w := range strings.FieldsFunc(v, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune("[](){}<>", r) }) {
		switch w {
		case "at":
			w = "@"
		case "dot":
			w = "."
		}
		b.WriteString(w)
	}
	return b.String()
}

// learn remembers a secret value of 6+ characters so that maskKnown masks
// it wherever it reappears bare. Only the kinds that are secrets by
// themselves count, identity numbers included (a passport number found
// after its label is the same number in an agent's name): an e-mail address or a phone number is found by its
// shape anywhere anyway, and masking each reappearance of an address inside
// longer ones (10.0.0.1 in 10.0.0.10) would garble them.
func (r *Redactor) learn(k Kind, value, placeholder string) {
	switch k {
	case Token, APIKey, Secret, Password, Custom, PrivateKey, Card, IBAN, SSN, Passport, NationalID:
	default:
		return
	}
	if len(value) < minKnownLen || isPlaceholder(value) {
		return
	}
	if _, ok := r.known[value]; !ok {
		r.known[value] = placeholder
		r.bare = nil
	}
}

// maskKnown masks bare reappearances of secrets already seen, outside
// placeholders.
func (r *Redactor) maskKnown(s string) string {
	if len(r.known) == 0 || s == "" {
		return s
	}
	if r.bare == nil {
		r.bare = replacer(r.known)
	}
	if r.bare(s) == s {
		return s // the common case: no secret reappears
	}
	return outsidePlaceholders(s, r.bare)
}

// replacer replaces every key of pairs by its value in one pass, the
// longest first where two start at one place. A strings.Replacer does that
// with a trie, but for a single pair it builds a Boyer-Moore table, which
// takes time quadratic in the key's length, and a key may be a whole
// private key block: strings.ReplaceAll, linear, does for one.
func replacer(pairs map[string]string) func(string) string {
	keys := make([]string, 0, len(pairs))
	for k := range pairs {
		keys = append(keys, k)
	}
	if len(keys) == 1 {
		k := keys[0]
		return func(s string) string { return strings.ReplaceAll(s, k, pairs[k]) }
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) > len(keys[j])
		}
		return keys[i] < keys[j]
	})
	args := make([]string, 0, 2*len(keys))
	for _, k := range keys {
		args = append(args, k, pairs[k])
	}
	return strings.NewReplacer(args...).Replace
}
