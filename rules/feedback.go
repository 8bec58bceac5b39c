package rules

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/dlclark/regexp2"

	"github.com/offattr/offattr/extract"
)

// critique marks a message that says an earlier one was wrong.
var critique = regexp2.MustCompile(critiqueExpr, regexp2.None)

// critiqueAt is critique anchored where a search tries it (\G), so that it
// is tried only where a critique word lets a match begin.
var critiqueAt = regexp2.MustCompile(`\G(?:`+critiqueExpr+`)`, regexp2.None)

const critiqueExpr = `(?i)\b(is|was|are|were|seems?) (incorrect|wrong|inaccurate|flawed|not correct|not accurate|irrelevant)\b|\b(there (is|was) (an? )?(error|mistake|bug|issue) in)\b|\b(does(n't| not) (match|align|answer|address))\b|\bmade an? (error|mistake)\b`

// critiqueWords hold, in lower case, a piece of every alternative of
// critique: a message with none of them cannot match, and a match begins
// at most critiqueLead bytes before one ("seems" before " wrong"), or at
// it. Scanning every agent message with a case-insensitive \b pattern,
// then scanning it from the first of them on, was most of the rules' time:
// most messages say "there is" without a critique after it.
var critiqueWords = []string{" incorrect", " wrong", " inaccurate", " flawed", " not correct", " not accurate", " irrelevant",
	"there is ", "there was ", "doesn't ", "does not ", "made a"}

// critiqueLead is the most bytes a match of critique holds before its
// first critique word.
const critiqueLead = len("seems")

// critiqueWindow is how many bytes from where a try begins hold critique's
// longest match ("there was an mistake in") and the rune after it, which
// its closing \b reads, however long the runes: regexp2 matches each
// letter of the pattern to one rune.
const critiqueWindow = utf8.UTFMax * (len("there was an mistake in") + 1)

// findCritique returns where critique's first match in s is, in bytes, and
// ok false if there is none (or if the pattern timed out).
func findCritique(s string) (start, n int, ok bool) {
	words, aligned := critiqueWordsIn(s)
	if len(words) == 0 {
		return 0, 0, false
	}
	if !aligned {
		// Offsets in lower are not offsets in s: scan the whole message.
		m, _ := critique.FindStringMatch(s)
		if m == nil {
			return 0, 0, false
		}
		start, n = byteSpan(s, m)
		return start, n, true
	}
	// Offsets in lower are offsets in s, and a critique word found there
	// matched ASCII, so the lead before it is in bytes too. Trying each
	// place in order finds the match a scan would: the leftmost. Each try
	// reads only the window a match can span, from the rune before it (for
	// \b): the runes of a whole message, for every message with a word as
	// common as "there is ", were most of what the rules allocated.
	slices.Sort(words)
	var runes []rune // the window's, reused from try to try
	tried := -1
	for _, w := range words {
		for p := max(tried+1, w-critiqueLead); p <= w; p++ {
			tried = p
			if !utf8.RuneStart(s[p]) {
				continue
			}
			from, at := p, 0
			if p > 0 {
				_, size := utf8.DecodeLastRuneInString(s[:p])
				from, at = p-size, 1
			}
			to := min(len(s), p+critiqueWindow)
			for to < len(s) && !utf8.RuneStart(s[to]) {
				to++
			}
			window := s[from:to]
			runes = runes[:0]
			for _, r := range window {
				runes = append(runes, r)
			}
			m, err := critiqueAt.FindRunesMatchStartingAt(runes, at)
			if err != nil {
				return 0, 0, false
			}
			if m != nil {
				start, n = byteSpan(window, m)
				return from + start, n, true
			}
		}
	}
	return 0, 0, false
}

// critiqueWordsIn returns where critique words stand in s in lower case
// (extract.FoldCase), and whether those are offsets in s. Where they are,
// nearly always, s is read in one pass without a lower-case copy: a search
// per word stopped at every space and every "t".
func critiqueWordsIn(s string) (at []int, aligned bool) {
	text, aligned := s, true
	if !extract.FoldsInPlace(s) {
		text, aligned = extract.FoldCase(s)
	}
	for i := range len(text) {
		c := text[i]
		if c >= utf8.RuneSelf {
			continue
		}
		// A word's head is its first two bytes too: most bytes begin no
		// word's pair, and are passed over on this one look.
		pair := uint16(lowerASCII(c))<<8 | uint16(lowerASCII(byteAt(text, i+1)))
		if critiquePairs[pair>>6]&(1<<(pair&63)) == 0 {
			continue
		}
		head := head4(text, i) // the four bytes from i, in lower case
		for _, w := range critiqueByFirst[lowerASCII(c)] {
			if head == w.head && len(text)-i >= len(w.word) && strings.EqualFold(text[i:i+len(w.word)], w.word) {
				at = append(at, i)
			}
		}
	}
	return at, aligned
}

// critiquePairs is a bit set of the critique words' first two bytes.
var critiquePairs = func() (set [1 << 16 / 64]uint64) {
	for _, w := range critiqueWords {
		pair := uint16(w[0])<<8 | uint16(w[1])
		set[pair>>6] |= 1 << (pair & 63)
	}
	return set
}()

// critiqueWord is a critique word and its first four bytes: a space
// begins seven of them, and most spaces none.
type critiqueWord struct {
	head uint32
	word string
}

// critiqueByFirst holds the critique words by their first byte.
var critiqueByFirst = func() (by [utf8.RuneSelf][]critiqueWord) {
	for _, w := range critiqueWords {
		by[w[0]] = append(by[w[0]], critiqueWord{head4(w, 0), w})
	}
	return by
}()

// head4 packs the four bytes of s from i in lower case, zeros past its end.
func head4(s string, i int) uint32 {
	return uint32(lowerASCII(byteAt(s, i)))<<24 | uint32(lowerASCII(byteAt(s, i+1)))<<16 |
		uint32(lowerASCII(byteAt(s, i+2)))<<8 | uint32(lowerASCII(byteAt(s, i+3)))
}

// byteAt is s[i], or 0 past its end.
func byteAt(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// feedback reads what later steps say about earlier ones: a progress ledger
// reporting no progress or a loop implicates the executor step it judges,
// and a reviewer saying a result is wrong implicates the latest step of
// another agent before it.
func feedback(in *Input) []Finding {
	var out []Finding
	for i := range in.Features.Steps {
		f := &in.Features.Steps[i]
		if l := f.Ledger; l != nil && (!l.ProgressBeingMade.Answer || l.InLoop.Answer) {
			if j := judgedStep(in, i); j >= 0 {
				reason := l.ProgressBeingMade.Reason
				if l.InLoop.Answer {
					reason = l.InLoop.Reason
				}
				out = append(out, Finding{Step: j, Strength: 0.5, Quote: Quote(reason, 0, 0), QuoteStep: quotedFrom(i),
					Reason: fmt.Sprintf("the progress ledger at step %d judges it made no progress", i)})
			}
			continue
		}
		if !isAgentDecision(in, i) {
			continue
		}
		start, n, ok := findCritique(in.Run.Steps[i].Content)
		if !ok {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			if in.Run.Steps[j].Agent != in.Run.Steps[i].Agent && isAgentDecision(in, j) && !in.Features.Steps[j].Has(extract.KindLedger) {
				out = append(out, Finding{Step: j, Strength: 0.4, Quote: Quote(in.Run.Steps[i].Content, start, n), QuoteStep: quotedFrom(i),
					Reason: fmt.Sprintf("step %d (%s) says its result is wrong", i, in.Run.Steps[i].Agent)})
				break
			}
		}
	}
	return out
}

// judgedStep is the executor step a ledger at step l evaluates: the latest
// earlier step that is neither the planner's own nor a tool's output.
func judgedStep(in *Input, l int) int {
	for j := l - 1; j >= 0; j-- {
		if in.Graph.IsPlannerStep(j) {
			continue
		}
		if isAgentDecision(in, j) {
			return j
		}
		if in.Features.Steps[j].Has(extract.KindToolResult) {
			return callerOf(in, j)
		}
		return -1
	}
	return -1
}

// prematureSatisfaction blames the decision to stop: a progress ledger that
// declares the request satisfied in a run that failed (with the ground
// truth: whose answer is wrong) accepted evidence it should not have, and
// the step whose result it accepted shares the blame.
func prematureSatisfaction(in *Input) []Finding {
	if gt := in.Run.GroundTruth; gt != "" && answerMatches(in) {
		return nil
	}
	for i := range in.Features.Steps {
		l := in.Features.Steps[i].Ledger
		if l == nil || !l.RequestSatisfied.Answer {
			continue
		}
		out := []Finding{{Step: i, Strength: 0.6, Quote: Quote(l.RequestSatisfied.Reason, 0, 0),
			Reason: "it declares the request satisfied, but the run ended with a wrong answer"}}
		if j := judgedStep(in, i); j >= 0 {
			out = append(out, Finding{Step: j, Strength: 0.3, Quote: quoteAt(in, j, 0, 0),
				Reason: fmt.Sprintf("the ledger at step %d accepted its result as the answer", i)})
		}
		return out
	}
	return nil
}

// unverifiedApproval blames a step that declares a result verified or
// correct without checking it: no call of its own and no tool output since
// the result it approves was stated. In a failed run such an approval let
// the wrong result through.
func unverifiedApproval(in *Input) []Finding {
	if gt := in.Run.GroundTruth; gt != "" && answerMatches(in) {
		return nil
	}
	var out []Finding
	lastEvidence := -1
	for i := range in.Features.Steps {
		f := &in.Features.Steps[i]
		if f.Has(extract.KindToolResult) || f.IssuesCall() {
			lastEvidence = i
			continue
		}
		if !isAgentDecision(in, i) || f.Ledger != nil {
			continue
		}
		sig, ok := signalOf(f.Successes, "confirmed")
		if !ok || !f.Has(extract.KindVerification) {
			continue
		}
		if lastEvidence >= 0 && i-lastEvidence <= 1 {
			continue // it approves a result it has just seen checked
		}
		out = append(out, Finding{Step: i, Strength: 0.5, Quote: quoteAt(in, i, sig.Offset, len(sig.Quote)),
			Reason: "it approves a result without checking it: no call of its own and no fresh tool output"})
		break
	}
	return out
}
