package extract

import (
	"strings"
	"unicode"

	matching "github.com/offattr/offattr/internal/match"
)

// maxMatches caps how many matches of one pattern are read in one step, so a
// pathological step (a page of OCR digits) cannot make extraction quadratic.
const maxMatches = 400

// patterns holds every pattern extraction reads, compiled once, at package
// initialisation, and searched as internal/match plans it: where a
// pattern's matches can begin is read from the expression, so a pattern
// is written once.
//
// No match has a time limit: a limit makes what is read depend on how
// busy the machine is. What bounds a match's cost is the pattern itself:
// repetitions are bounded, and a repetition inside another ends where
// the next part cannot begin, so a failed attempt backtracks a bounded
// number of ways (Set.Compile refuses a pattern that does not), over a
// text that run.Excerpt bounds.
var patterns = matching.NewSet()

func pattern(expr string, opts matching.Options) *matching.Pattern {
	return patterns.MustCompile(expr, opts)
}

const (
	ci = matching.IgnoreCase
	ml = matching.Multiline
)

// goWordChar is Go's word character for \b: an ASCII letter or digit,
// or '_'. regexp2's \b reads letters and marks beyond ASCII as word
// characters too.
const goWordChar = `[0-9A-Za-z_]`

// goBoundary is Go's \b: a word character on one side and not on the
// other.
const goBoundary = `(?:(?<=` + goWordChar + `)(?!` + goWordChar + `)|(?<!` + goWordChar + `)(?=` + goWordChar + `))`

// goWords is Go's (?i)\b(?:words)\b: words spelt with goCase, between
// goBoundary's. The boundary before them is written as two alternatives,
// each with the words after it, so that where a match can begin is read
// from the words (internal/match's plan): a look-behind that every
// branch of an alternation begins with is not.
func goWords(words string) string {
	w := goCase(words)
	return `(?:(?<!` + goWordChar + `)(?=` + goWordChar + `)(?:` + w + `)|(?<=` + goWordChar + `)(?!` + goWordChar + `)(?:` + w + `))` + goBoundary
}

// goCase spells the letters of expr in either case as Go's (?i) reads
// them, each as the class of its simple case folding orbit ("k" as
// "[kK\u212a]", the Kelvin sign); expr is words, spaces and groups, with
// no escapes or classes. regexp2's IgnoreCase compares lower cases
// instead, which differ: it reads the dotted İ as i, and not the long s
// as s. A pattern that must match what a Go pattern matched spells its
// words with goCase.
func goCase(expr string) string {
	var b strings.Builder
	for _, r := range expr {
		if !unicode.IsLetter(r) || unicode.SimpleFold(r) == r {
			b.WriteRune(r)
			continue
		}
		b.WriteByte('[')
		for f := r; ; {
			b.WriteRune(f)
			if f = unicode.SimpleFold(f); f == r {
				break
			}
		}
		b.WriteByte(']')
	}
	return b.String()
}

// text is a string prepared for the patterns, with what extraction reads
// of it made once: the results of find, and more readings of the whole
// text.
type text struct {
	s     string
	runes []rune
	off   []int // off[i] is the byte offset of runes[i]; off[len(runes)] == len(s)
	m     *matching.Text

	found      map[*matching.Pattern]found // results of find
	proseText  *text                       // see prose
	blocks     []codeBlock                 // see codeBlocks
	blocksDone bool
}

func newText(s string) *text { return readText(s, nil) }

// buffers hold a text's conversions for the next text to reuse. A step's
// text is the largest allocation extraction makes, and a run's steps are
// read one at a time, each text dropped when its step is read.
type buffers struct {
	m matching.Buffers
	// found is a text's cache of searches (text.found), emptied for the
	// next, rather than a map made for every step and grown to the dozens
	// of patterns searched in it.
	found map[*matching.Pattern]found
}

// readText is newText, but made in b's buffers when b is not nil: the
// text is then valid only until b is used again.
func readText(s string, b *buffers) *text {
	if b == nil {
		return wrap(patterns.Text(s))
	}
	t := wrap(patterns.ReadText(s, &b.m))
	if b.found == nil {
		b.found = map[*matching.Pattern]found{}
	}
	clear(b.found) // keeps its room
	t.found = b.found
	return t
}

func wrap(m *matching.Text) *text {
	return &text{s: m.String(), runes: m.Runes(), off: m.Offsets(), m: m}
}

// sub returns the text of t.s[i:j], read on its own (as newText would
// read it), sharing what it can of t (matching.Text.Sub).
func (t *text) sub(i, j int) *text {
	if i == 0 && j == len(t.s) {
		return t
	}
	return wrap(t.m.Sub(i, j))
}

// lowered returns the text in lower case and whether its byte offsets are
// the text's (matching.FoldCase), made once.
func (t *text) lowered() (string, bool) { return t.m.Lower() }

// span is a match or a group in byte offsets; OK is false for a group
// that did not take part.
type span = matching.Span

// match is one regex match: Groups[0] is the whole match.
type match = matching.Match

// group returns the text of group i, "" if it did not take part.
func (t *text) group(m match, i int) string {
	if i >= len(m.Groups) || !m.Groups[i].OK {
		return ""
	}
	return t.s[m.Groups[i].Start:m.Groups[i].End]
}

// named returns the text of the group called name, "" if it did not take part.
func (t *text) named(m match, name string) string {
	for i, n := range m.Names {
		if n == name {
			return t.group(m, i)
		}
	}
	return ""
}

// first returns the first match of p.
func (t *text) first(p *matching.Pattern) (match, bool) {
	ms := t.find(p, 1)
	if len(ms) == 0 {
		return match{}, false
	}
	return ms[0], true
}

// all returns up to limit matches of p (maxMatches if limit <= 0).
func (t *text) all(p *matching.Pattern, limit int) []match {
	if limit <= 0 {
		limit = maxMatches
	}
	return t.find(p, limit)
}

// find returns up to limit matches of p.
// Results are kept per text: a step reads some patterns more than once
// (a plan is detected, then its lines are read; code blocks are listed, then
// cut out of the prose twice).
func (t *text) find(p *matching.Pattern, limit int) []match {
	if c, ok := t.found[p]; ok && (limit <= len(c.ms) || len(c.ms) < c.limit) {
		return c.ms[:min(limit, len(c.ms)):min(limit, len(c.ms))]
	}
	ms := t.m.Find(p, limit)
	if t.found == nil {
		t.found = map[*matching.Pattern]found{}
	}
	t.found[p] = found{ms: ms, limit: limit}
	return ms[:len(ms):len(ms)]
}

// found is a search's result: its matches and how many were asked for
// (fewer matches than that means there are no more).
type found struct {
	ms    []match
	limit int
}

// has reports whether p matches anywhere.
func (t *text) has(p *matching.Pattern) bool {
	_, ok := t.first(p)
	return ok
}

// firstIn is first over a plain string, for short strings read once.
func firstIn(p *matching.Pattern, s string) (string, bool) {
	t := newText(s)
	m, ok := t.first(p)
	if !ok {
		return "", false
	}
	if len(m.Groups) > 1 && m.Groups[1].OK {
		return t.group(m, 1), true
	}
	return t.group(m, 0), true
}
