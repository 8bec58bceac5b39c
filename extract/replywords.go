package extract

import (
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// withWords adds to the answer of a reply to a user's one question the
// values it states that claimsOf does not read and no earlier step's text
// holds: a name written with initials
// ("C. S. Lewis"), a version ("5.1.3"), a count under ten written in
// digits when the task asks how many ("Mars has 3 moons."), and, when
// its first sentence states no value of its own beyond the task's, the
// words it closes on ("The element is beryllium.", "Scotland's national
// animal is the red deer."). A reply to the one question a user asked
// answers that question, so the value it states is the answer's whatever
// its case. Only a value no earlier step holds is added: the reply is then
// its first source (made up, or misread from what a tool printed), which
// the answer's data flow reads as it reads any value, whereas one read
// from a page is traced by the claims extract reads there, and a word or
// a digit found in a page's text says less about where it came from. A
// reply that reports a failure states no value.
func withWords(fa *FinalAnswer, rf *RunFeatures, question, groundTruth string) *FinalAnswer {
	if fa == nil || fa.Step < 0 || fa.Step >= len(rf.Steps) || rf.Steps[fa.Step].FailureWords != nil || len(rf.Steps[fa.Step].Errors) > 0 {
		return fa
	}
	q := strings.ToLower(question)
	text := fa.Text
	var add []Claim
	for _, w := range initialledNames(text) {
		add = append(add, Claim{Kind: ClaimEntity, Text: w.text, Norm: strings.ToLower(w.text), Offset: int32(w.at)})
	}
	for _, w := range versions(text) {
		add = append(add, Claim{Kind: ClaimEntity, Text: w.text, Norm: strings.TrimPrefix(strings.ToLower(w.text), "v"), Offset: int32(w.at)})
	}
	if strings.Contains(q, "how many") {
		for _, w := range smallCounts(text) {
			add = append(add, Claim{Kind: ClaimNumber, Text: w.text, Norm: w.text, Offset: int32(w.at)})
		}
	}
	if len(add) == 0 && asksWhat(q) && !statesOwnValue(fa.Claims, q) {
		// The reply rests on a page when it names a value the page gave
		// before the words it closes on: those then describe that value.
		if w, others, ok := closingWords(text, q); ok && !claimAfter(fa.Claims, w.at) && !slices.ContainsFunc(others, func(o replyWord) bool {
			return seenBefore(rf, fa.Step, Claim{Kind: ClaimEntity, Norm: strings.ToLower(o.text)})
		}) {
			add = append(add, Claim{Kind: ClaimEntity, Text: w.text, Norm: strings.ToLower(w.text), Offset: int32(w.at)})
		}
	}
	for _, c := range add {
		if containsWordFold(q, c.Norm) || claimedAs(fa.Claims, c.Norm) {
			continue
		}
		if seen := stepsHolding(rf, fa.Step, c); len(seen) > 0 && !passedOver(rf, fa.Step, c, q) {
			// Read from a page: without a ground truth the answer's data
			// flow follows it back to the page, and from there to the
			// call that fetched it. With one, the answer's words are
			// checked against it directly, and a value found in a page's
			// text, not its claims, is left out of the walk along which a
			// ground truth is looked for.
			// A digit is found in too many texts to say where a count
			// came from.
			if groundTruth != "" || c.Kind == ClaimNumber {
				continue
			}
			if fa.Seen == nil {
				fa.Seen = map[string][]int{}
			}
			fa.Seen[c.Norm] = seen
		}
		fa.Claims = append(fa.Claims, c)
	}
	return fa
}

// asksWhat reports whether the task, in lower case, asks a question whose
// answer is a thing or a name: a sentence opening with what, which, who or
// where and closing with a question mark. The words a reply to it closes
// on are that thing; a reply to a request ("Fix the failing test.")
// closes on prose about what was done.
func asksWhat(q string) bool {
	for _, line := range strings.Split(q, "\n") {
		for rest := line; rest != ""; {
			k := strings.IndexByte(rest, '?')
			if k < 0 {
				break
			}
			head := rest[:k]
			if at := strings.LastIndexAny(head, ".!:"); at >= 0 {
				head = head[at+1:]
			}
			switch first, _, _ := strings.Cut(strings.TrimSpace(head), " "); first {
			case "what", "which", "who", "where":
				return true
			}
			rest = rest[k+1:]
		}
	}
	return false
}

// seenBefore reports whether a step before the answer's states c's value.
func seenBefore(rf *RunFeatures, step int, c Claim) bool {
	return len(stepsHolding(rf, step, c)) > 0
}

// stepsHolding returns the steps before step whose text states c's value.
func stepsHolding(rf *RunFeatures, step int, c Claim) []int {
	var out []int
	for j := 0; j < step && j < len(rf.steps); j++ {
		if holdsValue(rf.steps[j].Content, c) {
			out = append(out, j)
		}
	}
	return out
}

// passedOver reports whether the tools that printed c's value before
// step printed it only beside the task's subject less than another of
// their sentences: every tool result holding it has a sentence, not
// stating the value, that holds at least two of the task's words, every
// one of those that each sentence stating the value holds, and more
// ("The skin is the largest organ of the human body. The liver is the
// largest internal organ." for "liver", asked for the largest organ of
// the human body). The reply then took its value from beside the answer
// the page gave, not from it. A value a tool printed in a sentence no
// other says more of the task than is what the page answered, whether or
// not the page was the right one; so is any value an agent's own
// message stated before.
func passedOver(rf *RunFeatures, step int, c Claim, q string) bool {
	words := taskWords(q)
	passed := false
	for j := 0; j < step && j < len(rf.steps); j++ {
		if !holdsValue(rf.steps[j].Content, c) {
			continue
		}
		if !rf.Steps[j].Has(KindToolResult) {
			return false
		}
		var with, without []uint64 // per sentence, the task's words it holds, as bits
		for _, sentence := range sentencesOf(rf.steps[j].Content) {
			set := wordBits(sentence, words)
			if holdsValue(sentence, c) {
				with = append(with, set)
			} else {
				without = append(without, set)
			}
		}
		if !slices.ContainsFunc(without, func(b uint64) bool {
			return bits.OnesCount64(b) >= 2 && !slices.ContainsFunc(with, func(a uint64) bool { return a|b != b || a == b })
		}) && !versionPassedOver(rf.steps[j].Content, c, append(choosingWords(q), words...)) {
			return false
		}
		passed = true
	}
	return passed
}

// wordBits returns which of words (the first 64) a text holds, as bits.
func wordBits(text string, words []string) uint64 {
	var set uint64
	low := strings.ToLower(text)
	for k, w := range words[:min(len(words), 64)] {
		if inQuestion(low, w) {
			set |= 1 << k
		}
	}
	return set
}

// versionPassedOver reports whether c is a version that a tool's output
// lists beside other versions, each item of the list with its own words
// ("Pelican 4.9.1 (latest) was released in 2024; Pelican 4.8.0 (LTS)
// remains supported", "v2.3 (latest) … v2.1 (LTS)", a record's
// "version": "5.1.4" beside its list of releases), and an item holding
// another version holds the task's words that every item holding c
// holds, and more: the page marked another version with what the task
// asks for ("latest"), and the reply took the one beside it. An item is
// the text between a list's separators (a comma, a semicolon, a colon, an
// ellipsis); the words that name the subject of the whole list stand
// beside every version alike and tell none apart. Which of several
// values a page's words describe only by their meaning ("silver
// (highest)" for the best conductor) is not read here.
func versionPassedOver(text string, c Claim, words []string) bool {
	norm := strings.TrimPrefix(c.Norm, "v")
	if !versionShaped(norm) {
		return false
	}
	for _, sentence := range sentencesOf(text) {
		var with, others []uint64
		for _, item := range listItems(sentence) {
			holds, other := false, false
			for _, w := range replyWordsOf(item) {
				if n := strings.TrimPrefix(strings.ToLower(w.text), "v"); versionShaped(n) {
					holds = holds || n == norm
					other = other || n != norm
				}
			}
			switch {
			case holds:
				with = append(with, wordBits(item, words))
			case other:
				others = append(others, wordBits(item, words))
			}
		}
		if len(with) > 0 && slices.ContainsFunc(others, func(b uint64) bool {
			return !slices.ContainsFunc(with, func(a uint64) bool { return a|b != b || a == b })
		}) {
			return true
		}
	}
	return false
}

// choosingWords are the words of the task, in lower case, that say which
// of several versions it asks for and that frameWords leaves out of
// taskWords ("latest", "current"): beside a version on a page they mark
// it, where in a reply they only frame the answer.
func choosingWords(q string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(q, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if versionChoosers[w] && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// versionChoosers are the frame words that choose among versions.
var versionChoosers = toSet(`latest current currently`)

// versionShaped reports whether s is numbers joined by dots, two or more
// ("2.1", "5.1.4").
func versionShaped(s string) bool {
	parts := strings.Split(s, ".")
	return len(parts) >= 2 && !slices.ContainsFunc(parts, func(p string) bool { return !isDigits(p) })
}

// listItems splits a sentence into the items of a list: at commas,
// semicolons, ellipses and colons, but for a colon after a quotation mark,
// which ends a JSON key: the key names its value, in one item with it.
func listItems(sentence string) []string {
	var out []string
	start := 0
	for k, r := range sentence {
		if r == ',' || r == ';' || r == '…' || r == ':' && (k == 0 || sentence[k-1] != '"') {
			out = append(out, sentence[start:k])
			start = k + utf8.RuneLen(r)
		}
	}
	return append(out, sentence[start:])
}

// taskWords are the words of the task, in lower case, that say what it
// asks about: not those that frame a question, nor words under three
// letters.
func taskWords(q string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(q, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) {
		if len(w) >= 3 && !frameWords[w] && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// sentencesOf splits text into sentences: at a full stop, a question or
// an exclamation mark followed by a space or the end (not a decimal
// point, an initial's stop or a version's dots), and at line ends.
func sentencesOf(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		for line = strings.TrimSpace(line); line != ""; {
			head := sentenceHead(line)
			for len(head) < len(line) && endsInitial(head) {
				head = line[:len(head)+len(sentenceHead(line[len(head):]))]
			}
			out = append(out, head)
			line = strings.TrimSpace(line[len(head):])
		}
	}
	return out
}

// endsInitial reports whether a sentence's full stop is an initial's
// ("... by J.").
func endsInitial(s string) bool {
	k := strings.LastIndexByte(strings.TrimSuffix(s, "."), ' ')
	return strings.HasSuffix(s, ".") && isInitial(s[k+1:])
}

// claimAfter reports whether one of claims stands after offset at: the
// answer then closes on that value, not on the words before it.
func claimAfter(claims []Claim, at int) bool {
	for _, c := range claims {
		if int(c.Offset) > at {
			return true
		}
	}
	return false
}

// statesOwnValue reports whether claims hold a value the question does not.
func statesOwnValue(claims []Claim, q string) bool {
	for _, c := range claims {
		if !containsWordFold(q, strings.ToLower(c.Text)) {
			return true
		}
	}
	return false
}

func claimedAs(claims []Claim, norm string) bool {
	for _, c := range claims {
		if strings.EqualFold(c.Norm, norm) {
			return true
		}
	}
	return false
}

// holdsValue reports whether text states c's value as whole words, in any
// case: a word's plural counts ("blue jays" for "blue jay"), and a count
// written in words counts for its digits.
func holdsValue(text string, c Claim) bool {
	low := strings.ToLower(text)
	if containsWordFold(low, c.Norm) || c.Kind == ClaimEntity && (containsWordFold(low, c.Norm+"s") || containsWordFold(low, c.Norm+"es")) {
		return true
	}
	if c.Kind == ClaimNumber {
		v, err := strconv.ParseFloat(c.Norm, 64)
		if err != nil {
			return false
		}
		for _, n := range wordNumberSpans(text) {
			if n.value == v {
				return true
			}
		}
	}
	return false
}

// containsWordFold reports whether needle, in lower case, occurs in the
// lower-case hay not glued to other letters or digits.
func containsWordFold(hay, needle string) bool {
	if needle == "" {
		return false
	}
	for off := 0; off < len(hay); {
		k := strings.Index(hay[off:], needle)
		if k < 0 {
			return false
		}
		start, end := off+k, off+k+len(needle)
		if !wordRuneBefore(hay, start) && !wordRuneAt(hay, end) {
			return true
		}
		off = start + 1
	}
	return false
}

func wordRuneBefore(s string, i int) bool {
	if i <= 0 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return isWordRune(r)
}

func wordRuneAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return isWordRune(r)
}

// replyWord is a value read from a reply's words, and where it starts.
type replyWord struct {
	text string
	at   int
}

// spaced is one space-separated word of a text, without the punctuation
// around it, and where it starts.
type spaced struct {
	text       string
	at         int
	endsClause bool // punctuation after it closes a clause or sentence
}

// replyWordsOf splits text at white space, trimming the punctuation around
// each word (but a name's initial keeps its full stop).
func replyWordsOf(text string) []spaced {
	var out []spaced
	for i := 0; i < len(text); {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
			i++
		}
		j := i
		for j < len(text) && text[j] != ' ' && text[j] != '\t' && text[j] != '\n' && text[j] != '\r' {
			j++
		}
		if j == i {
			break
		}
		raw := text[i:j]
		lead := len(raw) - len(strings.TrimLeftFunc(raw, isEdgePunct))
		body := strings.TrimLeftFunc(raw, isEdgePunct)
		trimmed := strings.TrimRightFunc(body, isEdgePunct)
		ends := len(trimmed) < len(body) && strings.ContainsAny(body[len(trimmed):], ".,;:!?")
		if isInitial(trimmed+".") && strings.HasPrefix(body[len(trimmed):], ".") {
			trimmed += "."
			ends = false
		}
		if trimmed != "" {
			out = append(out, spaced{text: trimmed, at: i + lead, endsClause: ends})
		}
		i = j
	}
	return out
}

func isEdgePunct(r rune) bool {
	return unicode.IsPunct(r) && r != '%' && r != '$' && r != '€' && r != '£' || unicode.IsSymbol(r) && r != '$' && r != '€' && r != '£'
}

// isInitial reports whether w is one or more initials written with full
// stops ("C.", "J.R.R.").
func isInitial(w string) bool {
	if len(w) < 2 || len(w)%2 != 0 {
		return false
	}
	for k := 0; k < len(w); k += 2 {
		if w[k] < 'A' || w[k] > 'Z' || w[k+1] != '.' {
			return false
		}
	}
	return true
}

// initialledNames returns the names a text writes with initials before a
// capitalised surname ("C. S. Lewis", "J.R.R. Tolkien", "C. C. Wei"): the
// surname alone opens no sentence after a full stop, so claimsOf does not
// read it as a name.
func initialledNames(text string) []replyWord {
	ws := replyWordsOf(text)
	var out []replyWord
	for k := 0; k < len(ws); k++ {
		if !isInitial(ws[k].text) {
			continue
		}
		j := k
		for j < len(ws) && isInitial(ws[j].text) {
			j++
		}
		if j < len(ws) && isCapitalised(ws[j].text) {
			end := ws[j].at + len(ws[j].text)
			out = append(out, replyWord{text: text[ws[k].at:end], at: ws[k].at})
		}
		k = j
	}
	return out
}

func isCapitalised(w string) bool {
	r, size := utf8.DecodeRuneInString(w)
	if !unicode.IsUpper(r) || size >= len(w) {
		return false
	}
	for _, r := range w[size:] {
		if !unicode.IsLetter(r) && r != '-' && r != '\'' {
			return false
		}
	}
	return true
}

// versions returns the versions a text states: three or more dotted
// numbers ("5.1.3", "v22.11.0"), which are no figure to compute with but a
// name, told apart from others by every part.
func versions(text string) []replyWord {
	var out []replyWord
	for _, w := range replyWordsOf(text) {
		s := strings.TrimPrefix(strings.TrimPrefix(w.text, "v"), "V")
		parts := strings.Split(s, ".")
		if len(parts) < 3 {
			continue
		}
		ok := true
		for _, p := range parts {
			ok = ok && isDigits(p)
		}
		if ok {
			out = append(out, replyWord{text: w.text, at: w.at})
		}
	}
	return out
}

// smallCounts returns the whole numbers under ten a text writes in
// digits, standing alone ("3 moons", not "3.5" or "3rd").
func smallCounts(text string) []replyWord {
	var out []replyWord
	for _, w := range replyWordsOf(text) {
		if len(w.text) == 1 && isDigit(w.text[0]) {
			out = append(out, replyWord{text: w.text, at: w.at})
		}
	}
	return out
}

// closingWords returns the words the first sentence of a reply closes
// its statement on: the last run of up to three words that are neither
// the task's nor words that only join or frame a statement ("the",
// "is", "called", "answer"). "The largest organ of the human body is the
// liver." closes on "liver", "Wimbledon is a golf tournament." on "golf
// tournament", "gallium is the metal that is liquid at room temperature"
// (the task's words after it) on "gallium". A run of more than three words
// is prose, not a value; so is a sentence about the speaker or the
// listener, and data or markup is no sentence. It returns the sentence's
// other runs too: a reply that names its value and then describes it
// ("Portuguese, the country's official tongue.") closes on the
// description.
func closingWords(text, q string) (last replyWord, others []replyWord, ok bool) {
	s := sentenceHead(strings.TrimSpace(strings.SplitN(strings.TrimSpace(text), "\n", 2)[0]))
	if strings.ContainsAny(s, "{}[]_<>") {
		return replyWord{}, nil, false // data, markup or a marker, not a sentence
	}
	ws := replyWordsOf(s)
	for _, w := range ws {
		if personWords[strings.ToLower(w.text)] {
			return replyWord{}, nil, false
		}
	}
	ws = copulaClause(ws, q)
	var runs [][]spaced
	var run []spaced
	flush := func() {
		if len(run) > 0 {
			runs = append(runs, run)
		}
		run = nil
	}
	for _, w := range ws {
		low := strings.ToLower(w.text)
		if strings.IndexFunc(w.text, unicode.IsLetter) < 0 || frameWords[low] || inQuestion(q, low) || strings.ContainsAny(w.text, "@/=") {
			flush()
			continue
		}
		run = append(run, w)
		if w.endsClause {
			flush()
		}
	}
	flush()
	if len(runs) == 0 || len(runs[len(runs)-1]) > 3 {
		return replyWord{}, nil, false
	}
	phrase := func(r []spaced) replyWord {
		from, to := r[0].at, r[len(r)-1].at+len(r[len(r)-1].text)
		return replyWord{text: s[from:to], at: from}
	}
	for _, r := range runs[:len(runs)-1] {
		others = append(others, phrase(r))
	}
	return phrase(runs[len(runs)-1]), others, true
}

// copulaClause cuts ws after the clause that says what the thing is, when
// a word of its own (neither the task's nor one that frames) follows its
// "is" there: "The main ingredient of guacamole is avocado, usually mashed
// with lime." states avocado, and the clauses after the comma describe
// it. A sentence without such a clause is left whole.
func copulaClause(ws []spaced, q string) []spaced {
	copula := false
	for k, w := range ws {
		low := strings.ToLower(w.text)
		switch {
		case copulas[low]:
			copula = true
		case copula && strings.IndexFunc(w.text, unicode.IsLetter) >= 0 && !frameWords[low] && !inQuestion(q, low):
			for j := k; j < len(ws); j++ {
				if ws[j].endsClause {
					return ws[:j+1]
				}
			}
			return ws
		}
		if w.endsClause {
			copula = false
		}
	}
	return ws
}

var copulas = toSet(`is are was were`)

// inQuestion reports whether the task states w, or a form of it ("moons"
// for "moon", "played" for "play").
func inQuestion(q, w string) bool {
	w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
	if containsWordFold(q, w) {
		return true
	}
	for _, suffix := range []string{"s", "es", "ed", "d", "ing"} {
		if stem, ok := strings.CutSuffix(w, suffix); ok && len(stem) >= 3 && containsWordFold(q, stem) {
			return true
		}
	}
	return containsWordFold(q, w+"s") || containsWordFold(q, w+"es")
}

// personWords make a sentence one about the speaker or the listener ("I
// recommend checking a weather service", "you can find it on the
// site"): it tells what to do or what was done, not a value.
var personWords = toSet(`i i'm i've i'd i'll me my we we're we've us our you you're you'll your let's`)

// frameWords join or frame a statement and are no value of it: articles,
// pronouns, auxiliaries and common verbs, prepositions, conjunctions and
// the words a reply names its answer or its source by.
var frameWords = toSet(`a an the this that these those it its it's they them their there here he she his her him we our you your i my me
is are was were be been being am has have had do does did will would can could shall should may might must
not no yes also only just about around roughly approximately nearly almost some any each every one
of in on at by for from with without to into onto as than then so and or but nor if when while which who whom whose what where why how
answer answers final result results according source sources search searched page found find shows show says said
called named known located made uses use used using played plays play hold holds held took takes take gives give given
current currently latest today now still currently based per via`)
