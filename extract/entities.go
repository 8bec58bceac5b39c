package extract

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	matching "github.com/offattr/offattr/internal/match"
	"github.com/offattr/offattr/run"
)

// commonWords are capitalised only because they start a sentence or a
// heading, or are the vocabulary of logs themselves; alone, or leading a
// run of capitalised words at the start of a sentence, they are not a name.
var commonWords = toSet(`a an the this that these those here there it its we i you he she they me my our your their
let let's please next based since after before now so then therefore thus hence however but and or if when while also
first second third finally once to in on at for from with by as of is are was were be will would should could can
step note yes no sure okay ok great thanks thank understood certainly alright agreed well what which who how why where
given using use following summary result results answer conclusion task plan output input code error warning
true false none null nan total overall final here's there's it's we'll i'll let's i'm we're you're
monday tuesday wednesday thursday friday saturday sunday january february march april may june july august
september october november december mon tue wed thu fri sat sun terminate json http https url api python
search image images page site website link links click home menu open close view details contact more login sign`)

func toSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// entities reads capitalised names. A run of capitalised words is a name;
// a single capitalised word is one only where a sentence does not start
// with it. Markdown headings are skipped: their Title Case is style.
func entities(t *text, agents *agentSet, taken func(a, b int) bool, strict bool) []Claim {
	var out []Claim
	label := labels{s: t.s}
	var buf [8]span // the words of most names, without an allocation each
	for _, m := range names(t) {
		if taken(m.Start, m.End) || label.heading(m.Start) || label.on(m.Start) || jsonKey(t.s, m.Start, m.End) {
			continue
		}
		words := appendWords(buf[:0], t.s, m.Start, m.End)
		// Drop common words from the front ("The", "Based", "Next" at a
		// sentence start) and connectors from the back.
		for len(words) > 0 && common(t.s[words[0].Start:words[0].End]) {
			words = words[1:]
		}
		for len(words) > 0 && connector(t.s[words[len(words)-1].Start:words[len(words)-1].End]) {
			words = words[:len(words)-1]
		}
		if len(words) == 0 {
			continue
		}
		start, end := words[0].Start, words[len(words)-1].End
		if len(words) == 1 && !singleName(t.s, start, t.s[start:end], strict) {
			continue
		}
		if len(words) > 1 && capitalsHeading(t.s, words) {
			continue // "FACTS TO LOOK UP": a heading in capitals, not a name
		}
		norm := entityNorm(t.s[start:end])
		if agents.has(norm) || agentSpaced(norm, agents) || len(norm) < 2 || namesAgent(t.s, words, agents) || inAgentName(t.s, start, end, agents) {
			continue
		}
		out = append(out, Claim{Kind: ClaimEntity, Text: t.s[start:end], Norm: norm, Offset: int32(start)})
	}
	return out
}

// appendWords appends to out the words of s[start:end], split at blanks.
func appendWords(out []span, s string, start, end int) []span {
	i := start
	for i < end {
		for i < end && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		j := i
		for j < end && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		if j > i {
			out = append(out, span{Start: i, End: j, OK: true})
		}
		i = j
	}
	return out
}

func connector(w string) bool {
	var buf [8]byte
	if len(w) > len(buf) && ascii(w) {
		return false // longer than any connector, and no room in buf
	}
	lower, ok := asciiLower(buf[:0], w)
	if !ok {
		return slices.Contains(connectors, strings.ToLower(w))
	}
	for _, c := range connectors {
		if string(lower) == c {
			return true
		}
	}
	return false
}

// common reports whether w in lower case is one of commonWords. Every
// capitalised word of a text is looked up; an ASCII one is lower-cased
// without a copy.
func common(w string) bool {
	var buf [16]byte
	if len(w) > len(buf) && ascii(w) {
		return false // longer than any common word, and no room in buf
	}
	if lower, ok := asciiLower(buf[:0], w); ok {
		return commonWords[string(lower)]
	}
	return commonWords[strings.ToLower(w)]
}

func ascii(w string) bool {
	for i := range len(w) {
		if w[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// asciiLower appends w in lower case to buf; ok is false, and nothing is
// appended, when w is not ASCII.
func asciiLower(buf []byte, w string) (lower []byte, ok bool) {
	if !ascii(w) {
		return buf, false
	}
	return matching.AppendLower(buf, w), true
}

// singleName accepts one capitalised word as a name (the caller has
// dropped common ones) when it is long enough not to be an initial, and (in strict reading) not at a
// sentence start, unless a list of names starts there ("Braintree,
// Massachusetts", "cities: Braintree, Honolulu"): a sentence does not open
// with a lone word and a comma before another capitalised one. A short
// answer ("Yamasaki, Sugiyura") is read leniently.
func singleName(s string, start int, w string, strict bool) bool {
	runes := utf8.RuneCountInString(w)
	if runes < 3 {
		return false
	}
	if upper(w) && runes > 6 {
		return false // SHOUTING, log levels, TERMINATE-like markers
	}
	if strings.HasSuffix(w, "Error") || strings.HasSuffix(w, "Exception") || strings.HasSuffix(w, "Warning") {
		return false // exception class names are signals, not names
	}
	return !strict || !sentenceStart(s, start) || listsNames(s[start+len(w):])
}

// listsNames reports whether rest, what follows a word, goes on as a list
// of names: a comma, then a capitalised word that is not a common one.
func listsNames(rest string) bool {
	after, ok := strings.CutPrefix(rest, ", ")
	if !ok {
		return false
	}
	end := strings.IndexFunc(after, func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		end = len(after)
	}
	next := after[:end]
	r, _ := utf8.DecodeRuneInString(next)
	return utf8.RuneCountInString(next) >= 3 && unicode.IsUpper(r) && !common(next)
}

// capitalsHeading reports a phrase, the words of s, written all in capitals
// with a word of four letters or more: a heading or a label, where a name
// in capitals is an acronym ("NASA", "US Air Force").
func capitalsHeading(s string, words []span) bool {
	long := false
	for _, w := range words {
		w := s[w.Start:w.End]
		if !upper(w) {
			return false
		}
		long = long || utf8.RuneCountInString(strings.Trim(w, ".,;:!?'’&-")) >= 4
	}
	return long
}

// namesAgent reports whether one of a name's words is an agent's name:
// "Ask WebSurfer" addresses an agent, and a run must read the same
// whatever its agents are called.
func namesAgent(s string, words []span, agents *agentSet) bool {
	for _, w := range words {
		if agentNamed(s[w.Start:w.End], agents) {
			return true
		}
	}
	return false
}

// agentNamed reports agents[agentKey(w)]. Every word of every name is
// looked up: its key is built on the stack, not copied.
func agentNamed(w string, agents *agentSet) bool {
	var buf [32]byte
	return agents.has(string(run.AppendAgentKey(buf[:0], w)))
}

// agentSpaced reports whether norm, a name of several words, is an agent
// written without its blanks: agents[strings.ReplaceAll(norm, " ", "")],
// without the copy. A name of one word is its own key, which the caller
// has looked up already.
func agentSpaced(norm string, agents *agentSet) bool {
	if strings.IndexByte(norm, ' ') < 0 {
		return false
	}
	var buf [64]byte
	key := buf[:0]
	for i := range len(norm) {
		if norm[i] != ' ' {
			key = append(key, norm[i])
		}
	}
	return agents.has(string(key))
}

func upper(w string) bool {
	for _, r := range w {
		if unicode.IsLower(r) {
			return false
		}
	}
	return true
}

// sentenceStart: only spaces, list markers or markdown stand between the
// previous sentence end (or line start) and i.
func sentenceStart(s string, i int) bool {
	j := i
	for j > 0 {
		r, w := utf8.DecodeLastRuneInString(s[:j])
		switch {
		case r == '\n' || r == '.' || r == '!' || r == '?' || r == ':':
			return true
		case r == '>' && protocolTagEnds(s[:j]):
			return true // a protocol's tag opens what follows: "<INFO> Finished"
		case unicode.IsSpace(r) || r == '*' || r == '#' || r == '>' || r == '-' || r == '"' || r == '(' || r == '[' || r == '_' || unicode.IsDigit(r):
			j -= w
		default:
			return false
		}
	}
	return true
}

// protocolTagEnds reports whether s ends with a protocol's tag in
// capitals, "<INFO>" (not HTML's "<b>"): a marker a framework writes before
// what an agent concludes.
func protocolTagEnds(s string) bool {
	open := strings.LastIndexByte(s, '<')
	if open < 0 || len(s)-open < 4 {
		return false
	}
	name := s[open+1 : len(s)-1]
	return len(name) <= 30 && strings.Trim(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == ""
}

// labels tells whether an entity stands in the label of a "Label Words:
// value" line, such as "Gather Information:" or "**Total Cost for Daily
// Tickets:**": a label whose words are mostly capitalised is Title Case
// style; or on a markdown heading. It reads each line once: entities come
// in text order, and a long line holds many.
type labels struct {
	s                  string
	lineStart, lineEnd int
	hash               int  // where the line's "#" is, if it is a heading; -1 if not
	colon              int  // where the line's first ":" is, -1 if none
	title, titleRead   bool // the text before it is Title Case, once read
}

func (l *labels) on(i int) bool {
	l.at(i)
	if l.colon < i {
		return false
	}
	if !l.titleRead {
		// Most lines hold no label before their names: their words are
		// read only when one is asked about.
		l.titleRead = true
		l.title = titleCase(l.s[l.lineStart:l.colon])
	}
	return l.title
}

// heading reports whether i stands on a markdown heading, a "#" with only
// blanks before it on the line, or on a marker line that opens with "*** "
// (a patch's envelope: *** Begin Patch, *** End Patch; markerAt): their
// Title Case is style, not a name.
func (l *labels) heading(i int) bool {
	l.at(i)
	return l.hash >= 0 && l.hash < i
}

// at reads the line that holds i, unless it was the last read.
func (l *labels) at(i int) {
	if l.lineEnd == 0 || i < l.lineStart || i >= l.lineEnd {
		l.read(i)
	}
}

func (l *labels) read(i int) {
	s := l.s
	l.lineStart, l.lineEnd = lineBounds(s, i)
	l.hash, l.colon, l.title, l.titleRead = -1, -1, false, false
	if text := l.lineStart + len(s[l.lineStart:l.lineEnd]) - len(strings.TrimLeft(s[l.lineStart:l.lineEnd], " \t")); text < l.lineEnd && s[text] == '#' {
		l.hash = text
	} else if m := markerAt(s[text:l.lineEnd]); m >= 0 {
		l.hash = text + m
	}
	if colon := strings.IndexByte(s[l.lineStart:l.lineEnd], ':'); colon >= 0 {
		l.colon = l.lineStart + colon
	}
}

// markerAt is where a marker line's "*** " begins in line (a line with
// its leading blanks trimmed): at its start, or after the opening of a
// call written in function-call notation that is given the marked text as
// its input (apply_patch(*** Begin Patch); -1 for any other line.
func markerAt(line string) int {
	if strings.HasPrefix(line, "*** ") {
		return 0
	}
	open := strings.IndexByte(line, '(')
	if open <= 0 || !strings.HasPrefix(line[open+1:], "*** ") {
		return -1
	}
	for _, r := range line[:open] {
		if r != '_' && r != '.' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return -1
		}
	}
	return open + 1
}

// titleCase reports whether label, the text before a colon, is Title
// Case: most of its words, but connectors and short ones, capitalised.
func titleCase(label string) bool {
	caps, words := 0, 0
	for w := range strings.FieldsSeq(label) {
		w = trimLabelWord(w)
		if utf8.RuneCountInString(w) < 3 || connector(w) {
			continue
		}
		words++
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsUpper(r) {
			caps++
		}
	}
	return words >= 2 && caps*10 >= words*7
}

// labelPunct is what a label's words are trimmed of: marks and numbering.
var labelPunct = asciiOf("*_#>-.()[]0123456789")

// trimLabelWord is strings.Trim(w, "*_#>-.()[]0123456789"), which built
// its set again for every word of every label.
func trimLabelWord(w string) string {
	for len(w) > 0 && labelPunct.has(rune(w[0])) {
		w = w[1:]
	}
	for len(w) > 0 && labelPunct.has(rune(w[len(w)-1])) {
		w = w[:len(w)-1]
	}
	return w
}

// jsonKey reports whether s[start:end] lies within a JSON object's key
// that labels a field of text, a list or a flag ("Anything UNCLEAR": "",
// "Product Goals": [...], "Order Status": "Processing", "Refund
// Eligible": false): the key names a field of a document every later
// document of the same form repeats; what the field holds is the claim. A
// key whose value is a number or an object is the data's own name
// ({"Paris": 2133111}, {"Alice Smith": {...}}): it says what the value is
// of.
func jsonKey(s string, start, end int) bool {
	open := strings.LastIndexAny(s[:start], "\"\n")
	if open < 0 || s[open] != '"' {
		return false
	}
	if before := strings.TrimRight(s[:open], " \t"); before != "" && !strings.HasSuffix(before, "{") && !strings.HasSuffix(before, ",") && !strings.HasSuffix(before, "\n") {
		return false
	}
	closing := strings.IndexAny(s[end:], "\"\n")
	if closing < 0 || s[end+closing] != '"' {
		return false
	}
	after, ok := strings.CutPrefix(strings.TrimLeft(s[end+closing+1:], " \t"), ":")
	if !ok {
		return false
	}
	after = strings.TrimLeft(after, " \t\r\n")
	return after == "" || after[0] == '"' || after[0] == '[' || strings.HasPrefix(after, "true") || strings.HasPrefix(after, "false") || strings.HasPrefix(after, "null")
}
