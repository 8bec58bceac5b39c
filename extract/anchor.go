package extract

import (
	"slices"
	"strings"
	"time"

	"github.com/dlclark/regexp2"
)

// A pattern whose starters are known (starts.go) is compiled a second time
// behind \G, which pins it to the position it is tried at, and is tried only
// where a starter says a match can begin, in order: its matches are those
// of regexp2's scan as long as the starters miss no such place.

// plan is how a pattern is searched.
type plan struct {
	opts     regexp2.RegexOptions
	starters []starter
	anchored *regexp2.Regexp // \G(?:pattern); nil: scan the text
}

// plans holds the plan of every pattern.
var plans = map[*regexp2.Regexp]*plan{}

func planFor(expr string, opts regexp2.RegexOptions) *plan {
	ss, ok := startersOf(expr, opts)
	if !ok {
		return &plan{opts: opts}
	}
	anchored := regexp2.MustCompile(`\G(?:`+expr+`)`, opts)
	anchored.MatchTimeout = MatchTimeout
	return &plan{opts: opts, starters: ss, anchored: anchored}
}

var newlines = newRuneSet([]rune{'\n', '\n'})

// candidates returns, in order, the rune positions where a match of one of
// ss can begin; ok is false when they cannot be told (a text whose lower
// case does not keep every rune's byte length) and the pattern must be
// scanned.
func (t *text) candidates(ss []starter) (c []int, ok bool) {
	lower, aligned := t.lowered()
	for _, s := range ss {
		if !aligned && (s.lits != nil || s.need != nil) {
			return nil, false
		}
		if s.need != nil && !containsAny(lower, s.need) {
			continue
		}
		var at []int
		switch {
		case s.lits != nil && s.begin == anywhere && (s.first == nil || s.first.has('a')):
			at = t.literalStarts(s)
		case s.begin == textStart:
			at = []int{0}
		case s.begin == newline:
			at = t.positions(newlines)
		case s.begin == lineStart:
			at = []int{0}
			for _, p := range t.positions(newlines) {
				at = append(at, p+1)
			}
		case s.first != nil:
			at = t.positions(s.first)
		default:
			at = t.positions(s.class)
		}
		var run leadRun
		for _, p := range at {
			if t.startsAt(s, p, &run) {
				c = append(c, p)
			}
		}
	}
	slices.Sort(c)
	return slices.Compact(c), true
}

// literalStarts returns where a match of s, which begins anywhere, can
// begin for its literals to stand where they do: at the literal, or where
// the run of the lead's runes before it begins (the literal's own first
// rune is not the lead's). A lead that holds letters holds most of a text,
// so its runs are found from the literals back.
func (t *text) literalStarts(s starter) []int {
	var bytes, at []int
	for _, l := range s.lits {
		if s.notAfterWord && asciiAlnum(l[0]) {
			bytes = t.wordStarts(bytes, l)
		} else {
			bytes = t.occurrences(bytes, l)
		}
	}
	for _, b := range bytes {
		q := t.runeIndex(b)
		if s.first == nil {
			at = append(at, q)
			continue
		}
		for p := q - 1; p >= 0 && inAny(s.lead, t.runes[p]); p-- {
			at = append(at, p)
		}
	}
	return at
}

// leadRun remembers the last run of a lead's runes, [from, to), so that
// the runs of neighbouring candidates (lines of blanks, a word read from
// its end) are not walked again and again.
type leadRun struct{ from, to int }

// startsAt reports whether a match of s can begin at rune p.
func (t *text) startsAt(s starter, p int, run *leadRun) bool {
	if p > 0 && (s.notAfterWord && wordChar(t.runes[p-1]) || inAny(s.notAfter, t.runes[p-1])) {
		return false
	}
	q := p
	if s.begin == newline {
		q++ // past the "\n"
	}
	if s.first != nil && (q == len(t.runes) || !s.first.has(t.runes[q])) {
		return false
	}
	if s.lits == nil && s.class == nil {
		return true // anything may follow the lead: no need to find its end
	}
	from := q
	if q >= run.from && q < run.to {
		q = run.to
	}
	for q < len(t.runes) && inAny(s.lead, t.runes[q]) {
		if q++; q == run.from {
			q = run.to
		}
	}
	*run = leadRun{from, q}
	if s.lits != nil {
		rest := t.lower[t.off[q]:]
		return slices.ContainsFunc(s.lits, func(l string) bool { return strings.HasPrefix(rest, l) })
	}
	return q < len(t.runes) && s.class.has(t.runes[q])
}

// inAny reports whether r is in one of sets.
func inAny(sets []*runeSet, r rune) bool {
	for _, s := range sets {
		if s.has(r) {
			return true
		}
	}
	return false
}

func containsAny(s string, subs []string) bool {
	return slices.ContainsFunc(subs, func(sub string) bool { return strings.Contains(s, sub) })
}

// tryAt runs the anchored pattern at each candidate in turn, skipping
// those inside the previous match, as regexp2's own scan would. A scan
// between two matches is bounded by the pattern's timeout as a single
// regexp2 call is; running out of it, like a timed-out attempt, ends the
// scan with what was found.
func (t *text) tryAt(anchored *regexp2.Regexp, cands []int, limit int) []match {
	var out []match
	next := 0
	timed := anchored.MatchTimeout < time.Hour // not regexp2's "forever"
	deadline := time.Now().Add(anchored.MatchTimeout)
	for n, c := range cands {
		if c < next {
			continue
		}
		if timed && n%64 == 63 && time.Now().After(deadline) {
			break
		}
		rm, err := anchored.FindRunesMatchStartingAt(t.runes, c)
		if err != nil {
			break
		}
		if rm == nil {
			continue
		}
		out = append(out, t.convert(rm))
		if len(out) == limit {
			break
		}
		next = max(rm.Index+rm.Length, c+1)
		deadline = time.Now().Add(anchored.MatchTimeout)
	}
	return out
}
