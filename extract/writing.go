package extract

import (
	"bytes"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	matching "github.com/offattr/offattr/internal/match"
	"github.com/offattr/offattr/run"
)

// Writing tells what a run's task, system instructions and steps write,
// read from their texts: whether one writes a value as a whole token or as
// written, an id ending in given digits, the words beside a word, a name as
// code, words in a row, the definition of a function, the task restated.
// The rules ask it whether a value was written before a step that uses
// it, rather than read the texts themselves. Each step's text is read when
// first asked about (a long run's questions read few of its steps), and
// the token index that finds the steps holding a value is made on first
// use. A Writing is not for concurrent use.
type Writing struct {
	steps        []run.Step
	question     string // the task, lower case
	instructions string // the system instructions, lower-cased when first asked about
	instructed   bool   // whether instructions is lower-cased
	// offered are the values the schemas of the run's tools offer
	// (run.Tool), lower case.
	offered map[string]bool
	// lower holds the step contents read so far, lower-cased.
	lower map[int]string
	// norm holds the step contents HoldsWords has read so far, as
	// NormWords writes them: a rule asks of one step for many words.
	norm  map[int][]byte
	index *tokenIndex
	// tails lists, for the digits an underscore is followed by in some
	// step, the steps that write them so (IDTailSteps), made on first use.
	tails map[string][]int32
	// tagged lists, for a year written right after a y, the steps that
	// write it so (TaggedYearSteps), made on first use.
	tagged map[string][]int32
	// neighbours are, for a word and a side, the words written next to
	// it and where first (NextTo), made when first asked for.
	neighbours map[string]map[string]int
	// numbered are the run's agent names that write digits, lower case
	// ("agent 11"): where a text mentions one, its digits are no number
	// the text holds (unnumbered).
	numbered []string
}

// NewWriting returns what run r writes, read on demand.
func NewWriting(r *run.Run) *Writing {
	w := &Writing{steps: withoutInstructions(r), instructions: r.Instructions, lower: map[int]string{}}
	for _, a := range r.Agents() {
		if strings.ContainsAny(a, "0123456789") {
			w.numbered = append(w.numbered, strings.ToLower(a))
		}
	}
	w.question = w.unnumbered(strings.ToLower(r.Question))
	offer := func(v string) {
		if w.offered == nil {
			w.offered = map[string]bool{}
		}
		w.offered[strings.ToLower(v)] = true
	}
	for _, t := range r.Tools {
		for _, v := range t.Offers {
			offer(v)
		}
	}
	for _, v := range InstructionOptions(r.Instructions) {
		offer(v)
	}
	return w
}

// Offered reports whether a schema of the run's tools offers v (lower
// case) as one of its values (an enum's choice, a default, a constant),
// or the run's instructions list it among the choices a reply may take
// (InstructionOptions).
func (w *Writing) Offered(v string) bool {
	return w.offered[v]
}

// withoutInstructions returns r's steps with the user's step that opens
// with the run's instructions and then states its task (a prompt
// template's, as run reads the task) written from the task on: the
// instructions are context, and the values they write (a template's
// example answer, a tool's documented example) are not the task's. The
// steps are copied only when one is so written.
func withoutInstructions(r *run.Run) []run.Step {
	if r.Instructions == "" || r.Question == "" {
		return r.Steps
	}
	for j, s := range r.Steps {
		if s.Kind != run.KindUser {
			continue
		}
		rest, ok := strings.CutPrefix(strings.TrimSpace(s.Content), r.Instructions)
		if !ok || !strings.Contains(rest, r.Question) {
			return r.Steps
		}
		steps := slices.Clone(r.Steps)
		steps[j].Content = strings.TrimSpace(rest)
		return steps
	}
	return r.Steps
}

// unnumbered returns the lower-cased text s with the digits of each
// mention of an agent's name that writes digits ("agent 11", not within
// "agent 110") written as underscores: the name is no number, and a
// value written with it ("agent 11" itself, read the same way) is still
// found. s keeps its length.
func (w *Writing) unnumbered(s string) string {
	for _, name := range w.numbered {
		if !strings.Contains(s, name) {
			continue
		}
		b := []byte(s)
		for from := 0; ; {
			k := strings.Index(s[from:], name)
			if k < 0 {
				break
			}
			k += from
			end := k + len(name)
			if (k == 0 || !asciiAlnum(s[k-1])) && (end == len(s) || !asciiAlnum(s[end])) {
				for i := k; i < end; i++ {
					if isDigit(b[i]) {
						b[i] = '_'
					}
				}
			}
			from = k + 1
		}
		s = string(b)
	}
	return s
}

// text returns step j's content in lower case, the task's for j < 0.
func (w *Writing) text(j int) string {
	if j < 0 {
		return w.question
	}
	l, ok := w.lower[j]
	if !ok {
		l = w.unnumbered(strings.ToLower(w.steps[j].Content))
		w.lower[j] = l
	}
	return l
}

// Holds reports whether step j (the task for j < 0) writes v (lower case)
// as a whole token: not as part of a longer word or number ("11" is not in
// "item 4611").
func (w *Writing) Holds(j int, v string) bool {
	return containsToken(w.text(j), w.unnumbered(v))
}

// HoldsSign reports whether step j (the task for j < 0) writes sign,
// a currency's sign, anywhere: it stands before an amount's digits, so
// it is never a whole token.
func (w *Writing) HoldsSign(j int, sign string) bool {
	return strings.Contains(w.text(j), sign)
}

// Writes reports whether step j's text has v in it as v is written, in
// its case, whole or as part of a longer word.
func (w *Writing) Writes(j int, v string) bool {
	return strings.Contains(w.steps[j].Content, v)
}

// Restates returns where step j writes the task's text whole (compared in
// lower case, without the space around it), from and to as byte offsets
// of the step's text; -1, -1 when it does not, when the task is empty, or
// when the step's text lowered is not as long as it is (its offsets would
// not be the text's).
func (w *Writing) Restates(j int) (from, to int) {
	q := strings.TrimSpace(w.question)
	if q == "" {
		return -1, -1
	}
	if lower := w.text(j); len(lower) == len(w.steps[j].Content) {
		if k := strings.Index(lower, q); k >= 0 {
			return k, k + len(q)
		}
	}
	return -1, -1
}

// Sets reports whether step j (the task for j < 0) writes, on one line,
// the name (lower case) and after it v (lower case) as the value it is
// given or said to hold, joined by an assignment or a copula
// ("max_retries = 3", "max_retries: 3", "max_retries should be 3",
// "set max_retries to 3"): not a name and a number that only stand on one
// line ("max_retries (3 by default, at most 10)"), nor one the line names
// to reject it ("do not set max_retries = 3", rejected).
func (w *Writing) Sets(j int, name, v string) bool {
	text := w.text(j)
	for k := range occurrences(text, name) {
		if tokenByte(text, k-1) || tokenByte(text, k+len(name)) || rejected(text, k) {
			continue
		}
		rest := text[k+len(name):]
		if e := strings.IndexByte(rest, '\n'); e >= 0 {
			rest = rest[:e]
		}
		rest, joined := trimSetWords(rest)
		if !joined || !strings.HasPrefix(rest, v) || tokenByte(rest, len(v)) {
			continue
		}
		if len(rest) > len(v)+1 && rest[len(v)] == '.' && isDigit(rest[len(v)+1]) {
			continue // 3 of 3.5
		}
		return true
	}
	return false
}

// Assigns returns the constants step j's text sets on a line of their
// own, as code does (MAX_RETRIES = 3, VAT_RATE: float = 0.19), by name in
// lower case, each to the value it is last given, in lower case.
func (w *Writing) Assigns(j int) map[string]string {
	out := map[string]string{}
	for line := range strings.Lines(w.steps[j].Content) {
		line = strings.TrimSpace(line)
		n := 0
		for n < len(line) && (line[n] >= 'A' && line[n] <= 'Z' || line[n] == '_' || n > 0 && isDigit(line[n])) {
			n++
		}
		if n < 2 || tokenByte(line, n) {
			continue
		}
		rest := strings.TrimLeft(line[n:], " \t")
		if typ, ok := strings.CutPrefix(rest, ":"); ok {
			// a type annotation: VAT_RATE: float = 0.19
			if k := strings.IndexByte(typ, '='); k >= 0 {
				rest = typ[k:]
			}
		}
		value, ok := strings.CutPrefix(rest, "=")
		if !ok || strings.HasPrefix(value, "=") {
			continue
		}
		value = strings.TrimSpace(value)
		if k := strings.IndexAny(value, "#;"); k >= 0 {
			value = strings.TrimSpace(value[:k])
		}
		if value = strings.Trim(value, `"'`); value != "" {
			out[strings.ToLower(line[:n])] = strings.ToLower(value)
		}
	}
	return out
}

// Comparisons returns the comparisons a line of logic, as Logic gives it,
// holds, each as "a op b" of the names or values beside the operator
// ("age > senior_age" of "senior_fare if age > senior_age else fare"): the
// part of a condition a review or a design asks for on its own.
func Comparisons(e string) []string {
	var out []string
	words := strings.Fields(e)
	for k := 1; k+1 < len(words); k++ {
		switch words[k] {
		case "<", ">", "<=", ">=", "==", "!=":
			a := strings.TrimLeft(words[k-1], "([{!")
			b := strings.TrimRight(words[k+1], ")]},:;")
			if a != "" && b != "" {
				out = append(out, a+" "+words[k]+" "+b)
			}
		}
	}
	return out
}

// setWords join a name to the value it is given or said to hold.
var setWords = []string{":=", "==", "=", ":", "is ", "are ", "should ", "must ", "be ", "to ", "now ", "set ", "equals "}

// trimSetWords returns s without the words and marks that open it and
// join a name to its value (setWords, quotes and space around them),
// and whether there were any.
func trimSetWords(s string) (string, bool) {
	joined := false
	for {
		s = strings.TrimLeft(s, " \t`'\"")
		i := slices.IndexFunc(setWords, func(p string) bool { return strings.HasPrefix(s, p) })
		if i < 0 {
			return s, joined
		}
		s, joined = s[len(setWords[i]):], true
	}
}

// InstructionsHold reports whether the run's system instructions write v
// (lower case) as a whole token.
func (w *Writing) InstructionsHold(v string) bool {
	if !w.instructed {
		w.instructions, w.instructed = w.unnumbered(strings.ToLower(w.instructions)), true
	}
	return containsToken(w.instructions, w.unnumbered(v))
}

// EndsID returns a test of whether step j (the task for j < 0) writes an
// id that ends in digits, joined to them by an underscore
// ("credit_card_7720" for "7720"): a payment method's or an account's id
// ends in the digits a person knows it by. The test is made once for the
// digits and asked of step after step.
func (w *Writing) EndsID(digits string) func(j int) bool {
	tail := "_" + digits
	return func(j int) bool {
		text := w.text(j)
		for k := range occurrences(text, tail) {
			if tokenByte(text, k-1) && !tokenByte(text, k+len(tail)) {
				return true
			}
		}
		return false
	}
}

// IDTailSteps returns, in order, the steps that may end an id in digits
// (EndsID): those whose text writes an underscore and, after it, digits
// and no more digits. Every step EndsID holds for is among them. The
// index of every step's is made on the first call: a long run's claims
// ask about steps before each of theirs, and a scan of those for each
// one costs the square of the run's length.
func (w *Writing) IDTailSteps(digits string) []int32 {
	if w.tails == nil {
		w.tails = w.indexSteps(func(text []byte, add func([]byte)) {
			for k, b := range text {
				if b == '_' {
					end := k + 1
					for end < len(text) && isDigit(text[end]) {
						end++
					}
					add(text[k+1 : end])
				}
			}
		})
	}
	return w.tails[digits]
}

// TaggedYearSteps returns, in order, the steps that may tag year y
// (TagsYear): those whose text writes a y and, right after it, y's four
// digits. Every step TagsYear holds for is among them; the index is made
// on the first call, as IDTailSteps's is.
func (w *Writing) TaggedYearSteps(y string) []int32 {
	if w.tagged == nil {
		w.tagged = w.indexSteps(func(text []byte, add func([]byte)) {
			for k, b := range text {
				if b == 'y' && k+5 <= len(text) && isDigits(string(text[k+1:k+5])) {
					add(text[k+1 : k+5])
				}
			}
		})
	}
	return w.tagged[y]
}

// indexSteps returns, for each key that scan adds from a step's lowered
// text, the steps it adds it from, in order.
func (w *Writing) indexSteps(scan func(text []byte, add func([]byte))) map[string][]int32 {
	index := map[string][]int32{}
	var text []byte
	for j := range w.steps {
		text = matching.AppendLower(text[:0], w.steps[j].Content)
		scan(text, func(key []byte) {
			if len(key) == 0 {
				return
			}
			if l := index[string(key)]; len(l) == 0 || l[len(l)-1] != int32(j) {
				index[string(key)] = append(l, int32(j))
			}
		})
	}
	return index
}

// TagsYear reports whether step j (the task for j < 0) writes the year y
// (four digits) joined after one to three letters that tag it as a kind
// of year, their last a y, as a fiscal, calendar or academic year is
// written ("FY2024", "CY2023", "AY2024"), as a token of its own: the year
// a call or a statement then writes alone ("fiscal_year": 2024) is that
// one. A code's prefix that names no year (an account's SV2023) tags
// none.
func (w *Writing) TagsYear(j int, y string) bool {
	if len(y) != 4 || !isDigits(y) {
		return false
	}
	text := w.text(j)
	for k := range occurrences(text, y) {
		p := k
		for p > 0 && k-p < 3 && 'a' <= text[p-1] && text[p-1] <= 'z' {
			p--
		}
		if p < k && text[k-1] == 'y' && !tokenByte(text, p-1) && !tokenByte(text, k+len(y)) {
			return true
		}
	}
	return false
}

// Candidates returns the steps where v's (lower case) rarest run of word
// bytes stands whole, in order, and whether v is that run alone (then
// every one of them holds v): the steps that hold v as a whole token are
// among them. A v with no word byte returns nil: every step is a
// candidate. The run's token index is made on the first call.
func (w *Writing) Candidates(v string) (steps []int32, whole bool) {
	if w.index == nil {
		w.index = newTokenIndex(w.steps)
	}
	return w.index.candidates(v)
}

// NextTo returns the words the task and the steps write next to word
// beside (lower case; after it for side 1, before it for -1), each with
// the first step that does (-1 for the task). Each word's neighbours are
// read once: a long run's calls ask for the same few.
func (w *Writing) NextTo(beside string, side int) map[string]int {
	key := fmt.Sprint(side, beside)
	if m, ok := w.neighbours[key]; ok {
		return m
	}
	m := map[string]int{}
	add := func(text string, step int) {
		ws := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '\'' })
		for k, x := range ws {
			if x == beside && k+side >= 0 && k+side < len(ws) {
				if _, ok := m[ws[k+side]]; !ok {
					m[ws[k+side]] = step
				}
			}
		}
	}
	add(w.question, -1)
	steps, _ := w.Candidates(beside)
	for _, k := range steps {
		add(w.text(int(k)), int(k))
	}
	if w.neighbours == nil {
		w.neighbours = map[string]map[string]int{}
	}
	w.neighbours[key] = m
	return m
}

// WritesName reports whether step j writes v (lower case) as a name
// (writesName): an error that quotes the name as missing or wrong reports
// what the step that wrote it put in.
func (w *Writing) WritesName(j int, v string) bool {
	return writesName(w.text(j), v)
}

// writesName reports whether a text (lower case) writes v as a name: as a
// whole token, and, for a plain word ("quantity", "price"), only where it
// is quoted, part of a dotted name, or on a line written as code or a
// signature (a call's bracket, a list's or a block's, an assignment, a
// class member's sign): prose that uses the word, with an aside in
// brackets or not, did not name it.
func writesName(s, v string) bool {
	if !containsToken(s, v) {
		return false
	}
	if !plainWord(v) {
		return true
	}
	for line := range strings.Lines(s) {
		if containsToken(line, v) && (strings.ContainsAny(line, "[]{}=+`") || opensCall(line) || dotted(line, v) || strings.Contains(line, "'"+v+"'") || strings.Contains(line, `"`+v+`"`)) {
			return true
		}
	}
	return false
}

// opensCall reports whether a line opens a bracket right after a word, as a
// call or a signature does ("stockrecord(sku, quantity"); prose opens its
// asides after a space ("INSEE (2021): Paris has").
func opensCall(line string) bool {
	for k := strings.IndexByte(line, '('); k >= 0; {
		if tokenByte(line, k-1) {
			return true
		}
		next := strings.IndexByte(line[k+1:], '(')
		if next < 0 {
			return false
		}
		k += 1 + next
	}
	return false
}

// dotted reports whether a line writes v as a part of a dotted name
// ("module Bio.PDB", "self.quantity"): a module's, an object's member.
func dotted(line, v string) bool {
	for k := range occurrences(line, v) {
		end := k + len(v)
		if !tokenByte(line, k-1) && !tokenByte(line, end) &&
			(end+1 < len(line) && line[end] == '.' && tokenByte(line, end+1) || k >= 2 && line[k-1] == '.' && tokenByte(line, k-2)) {
			return true
		}
	}
	return false
}

// plainWord reports whether v (lower case) is a word of letters alone.
func plainWord(v string) bool {
	for _, r := range v {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// Definition returns, with its runs of space squashed, the first
// definition of function fn step j writes (definition); "" when it
// writes none. Two steps that write one definition word for word hold one
// piece of code: the later copied it.
func (w *Writing) Definition(j int, fn string) string {
	return definition(w.steps[j].Content, fn)
}

// maxDefinitionLines caps the lines of a definition compared: a long one
// is told apart by its beginning.
const maxDefinitionLines = 40

// definition returns, with its runs of space squashed, the first
// definition of fn in s: the line that defines it and the lines indented
// under it; "" when s defines no fn.
func definition(s, fn string) string {
	out := definitionLines(s, fn)
	if len(out) == 1 {
		if line := strings.TrimSpace(out[0]); strings.HasSuffix(line, ":") || strings.HasSuffix(line, "{") {
			return "" // a signature without its body: every version has it
		}
	}
	return Squash(strings.Join(out, ""))
}

// definitionLines are the lines of the first definition of fn in s: the
// line that defines it and the lines indented under it, as written.
func definitionLines(s, fn string) []string {
	var out []string
	indent := -1
	numbered := false // the listing numbers its lines (cat -n, a file reader)
	for line := range strings.Lines(s) {
		if numbered {
			line = strings.TrimPrefix(line, lineNumber(line))
		} else if indent < 0 {
			if n := lineNumber(line); n != "" && definesFn(strings.TrimLeft(line[len(n):], " \t"), fn) {
				line, numbered = line[len(n):], true
			}
		}
		body := strings.TrimLeft(line, " \t")
		depth := len(line) - len(body)
		if indent < 0 {
			if definesFn(body, fn) {
				indent = depth
				out = append(out, line)
			}
			continue
		}
		if strings.TrimSpace(body) != "" && depth <= indent || len(out) == maxDefinitionLines {
			break
		}
		out = append(out, line)
	}
	return out
}

// Delegates returns the function the first definition of fn step j
// writes hands its work to: the one whose call is the whole of its body,
// returned (def tax(self): return compute_tax(self.items) hands to
// compute_tax), that function computed the value fn gives. It returns ""
// when step j defines no fn, or fn does more than return a call.
func (w *Writing) Delegates(j int, fn string) string {
	lines := definitionLines(w.steps[j].Content, fn)
	if len(lines) < 2 {
		return ""
	}
	var body []string
	for _, line := range lines[1:] {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "//") {
			body = append(body, line)
		}
	}
	if len(body) != 1 {
		return ""
	}
	call, ok := strings.CutPrefix(body[0], "return ")
	if !ok {
		return ""
	}
	call = strings.TrimLeft(call, " \t")
	end := strings.IndexByte(call, '(')
	if end <= 0 || !strings.HasSuffix(strings.TrimRight(call, " \t;"), ")") {
		return ""
	}
	name := call[:end]
	if k := strings.LastIndexByte(name, '.'); k >= 0 {
		name = name[k+1:]
	}
	for i := range len(name) {
		if c := name[i]; !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && isDigit(c)) {
			return ""
		}
	}
	if name == fn {
		return ""
	}
	return name
}

// Logic returns the logic of the first definition of function fn step j
// writes: each line under the line that defines it that holds a
// comparison, two conditions joined or a flag set ("age > min_age",
// "t.overdue and t.urgent", "reverse=true"), as logicOf writes it; nil
// when step j defines no fn, or writes only its signature. It is what a
// design that spelt out the logic the code follows would have written.
func (w *Writing) Logic(j int, fn string) []string {
	lines := definitionLines(w.steps[j].Content, fn)
	if len(lines) < 2 {
		return nil
	}
	var out []string
	for _, line := range lines[1:] {
		if e := logicOf(line); e != "" {
			out = append(out, e)
		}
	}
	return out
}

// WritesLogic reports whether step j (the task for j < 0) writes e, a
// line of logic as Logic gives it, in lower case with its runs of space
// squashed.
// A line a step names only to reject it ("use age >= senior_age, not
// age > senior_age") is not written as what it should be.
func (w *Writing) WritesLogic(j int, e string) bool {
	text := Squash(w.text(j))
	for k := range occurrences(text, e) {
		if !rejected(text, k) {
			return true
		}
	}
	return false
}

// rejected reports whether the words just before offset k of text (lower
// case) reject what is written at k: "not", "never", "avoid", "instead
// of", "rather than", a verb's "don't", perhaps before a verb that sets
// or uses it and a quote ("do not set max_retries = 3", "rather than
// `age > 65`"). A review or a design names the wrong version beside the
// right one.
func rejected(text string, k int) bool {
	before := strings.TrimRight(text[:k], " \t`'\"")
	words := strings.Fields(before[max(0, len(before)-40):])
	if n := len(words); n > 0 && slices.Contains(rejectedVerbs, words[n-1]) {
		words = words[:n-1]
	}
	n := len(words)
	if n == 0 {
		return false
	}
	last := words[n-1]
	return slices.Contains(rejecting, last) || strings.HasSuffix(last, "n't") ||
		n > 1 && slices.Contains(rejectingPairs, words[n-2]+" "+last)
}

// rejecting are the words before a version that reject it, and
// rejectingPairs those of two words; rejectedVerbs the verbs that may
// stand between them and it.
var (
	rejecting      = []string{"not", "never", "avoid", "no"}
	rejectingPairs = []string{"instead of", "rather than"}
	rejectedVerbs  = []string{"use", "set", "write", "keep", "make", "put", "change", "to"}
)

// logicOps are the operators that make a line of code logic a design
// may spell out: comparisons, conditions joined, a flag set, an order
// (a sort and its key).
var logicOps = []string{" < ", " > ", " <= ", " >= ", " == ", " != ", " and ", " or ", " && ", " || ", "=true", "=false", "sorted(", ".sort("}

// logicOf is a line of code's logic as a design would write it, lower
// case, its runs of space squashed, without a leading return or if and a
// trailing colon or semicolon; "" when it holds no operator of logicOps.
func logicOf(line string) string {
	e := strings.ToLower(Squash(line))
	for _, kw := range []string{"return ", "if ", "elif ", "while "} {
		e = strings.TrimPrefix(e, kw)
	}
	e = strings.TrimRight(e, ":;{ ")
	if len(e) < 7 || !slices.ContainsFunc(logicOps, func(op string) bool { return strings.Contains(e, op) }) {
		return ""
	}
	return e
}

// lineNumber returns the number a listing writes before a line of a file
// ("     5\t" as cat -n writes it, "     5→" as a coding agent's file
// reader does), with the spaces before it; "" when the line has none.
func lineNumber(line string) string {
	k := len(line) - len(strings.TrimLeft(line, " "))
	digits := k
	for digits < len(line) && digits-k < 7 && line[digits] >= '0' && line[digits] <= '9' {
		digits++
	}
	if digits == k {
		return ""
	}
	for _, sep := range []string{"\t", "→"} {
		if strings.HasPrefix(line[digits:], sep) {
			return line[:digits+len(sep)]
		}
	}
	return ""
}

// definesFn reports whether a line (without its indent) defines fn as
// extract reads a definition: a keyword, fn, and a bracket or a colon.
func definesFn(body, fn string) bool {
	for _, kw := range []string{"async ", "export ", "pub "} {
		body = strings.TrimLeft(strings.TrimPrefix(body, kw), " \t")
	}
	for _, kw := range []string{"def", "function", "func", "fn", "class"} {
		if rest, ok := strings.CutPrefix(body, kw); ok && rest != body && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			rest = strings.TrimLeft(rest, " \t")
			if after, ok := strings.CutPrefix(rest, fn); ok {
				after = strings.TrimLeft(after, " \t")
				return after != "" && strings.ContainsRune("(:<{", rune(after[0]))
			}
		}
	}
	return false
}

// Squash writes s's runs of white space as one space: two texts that
// differ only in their spacing (code reindented, a line wrapped) squash to
// one.
func Squash(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// HoldsWords reports whether step j writes words, a text as NormWords
// writes it, in a row (HoldsWords).
func (w *Writing) HoldsWords(j int, words string) bool {
	if w.norm == nil {
		w.norm = map[int][]byte{}
	}
	b, ok := w.norm[j]
	if !ok {
		b = appendNormWords(nil, w.steps[j].Content)
		w.norm[j] = b
	}
	return bytes.Contains(b, []byte(words)) // words are trimmed: spaces around b cannot make or break a match
}

// HoldsWords reports whether text writes words, a text as NormWords writes
// it, in a row: "The element is Lithium!" holds "is lithium".
func HoldsWords(text, words string) bool {
	// Most steps are read so, for every value looked for: their words are
	// written to a buffer that is used again, not to a new string.
	buf := wordsBuf.Get().(*[]byte)
	*buf = appendNormWords((*buf)[:0], text)
	found := bytes.Contains(*buf, []byte(words)) // words are trimmed: spaces around buf cannot make or break a match
	if cap(*buf) <= maxWordsBuf {
		wordsBuf.Put(buf)
	}
	return found
}

var wordsBuf = sync.Pool{New: func() any { return new([]byte) }}

// maxWordsBuf bounds the buffers kept for reuse, as fmt bounds its own: a
// rare long step should not hold its size in every pooled buffer.
const maxWordsBuf = 64 << 10

// NormWords returns the words of s as HoldsWords compares them: lower
// case, letters and digits (and every rune past ASCII) kept, one space
// between words.
func NormWords(s string) string {
	return string(bytes.TrimSpace(appendNormWords(nil, s)))
}

// appendNormWords appends the words of s as NormWords writes them, but for
// the trimming of spaces at either end.
func appendNormWords(b []byte, s string) []byte {
	space := true
	for _, r := range s {
		r = unicode.ToLower(r) // as strings.ToLower does, without the copy
		if ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') || r > 127 {
			b = utf8.AppendRune(b, r)
			space = false
		} else if !space {
			b = append(b, ' ')
			space = true
		}
	}
	return b
}

// tokenIndex finds the steps that hold a value as a whole token. A token
// found in a text is bounded by non-word bytes, and so is each run of word
// bytes in it: the steps that hold the token are among those where its
// rarest word run stands whole.
type tokenIndex struct {
	ids map[string]int32 // a run of word bytes → its number
	// at and steps list, for each run, the steps holding it whole, in
	// order: run k's are steps[at[k]:at[k+1]]. One array for all of them:
	// a long run's words are many, and a list for each was most of what
	// the index held.
	at, steps []int32
}

func newTokenIndex(steps []run.Step) *tokenIndex {
	x := &tokenIndex{ids: map[string]int32{}}
	// The steps are read twice: once to number the runs and count the
	// steps holding each, then to list those steps in place. Listing each
	// step's runs on the first reading, to sort them out after, held a
	// second array as large as the index.
	var (
		text []byte  // each step lowered into one buffer, not kept lowered
		last []int32 // per run, 1 + the last step counted or listed for it
		next []int32 // per run, where its next step goes in x.steps
	)
	eachRun := func(each func(j int, id int32)) {
		for j := range steps {
			text = matching.AppendLower(text[:0], steps[j].Content)
			for k, end := range wordRuns(text) {
				id, ok := x.ids[string(text[k:end])]
				if !ok {
					id = int32(len(last))
					x.ids[string(text[k:end])] = id
					last = append(last, 0)
				}
				if last[id] != int32(j+1) {
					last[id] = int32(j + 1)
					each(j, id)
				}
			}
		}
	}
	var count []int32
	eachRun(func(_ int, id int32) {
		if int(id) == len(count) {
			count = append(count, 0)
		}
		count[id]++
	})
	x.at = make([]int32, len(count)+1)
	for k, n := range count {
		x.at[k+1] = x.at[k] + n
	}
	x.steps = make([]int32, x.at[len(count)])
	next = slices.Clone(x.at[:len(count)])
	clear(last)
	eachRun(func(j int, id int32) {
		x.steps[next[id]] = int32(j)
		next[id]++
	})
	return x
}

// holding returns the steps holding the run of word bytes w whole, in
// order; nil when none does.
func (x *tokenIndex) holding(w string) []int32 {
	id, ok := x.ids[w]
	if !ok {
		return nil
	}
	return x.steps[x.at[id]:x.at[id+1]]
}

func (x *tokenIndex) candidates(v string) (steps []int32, whole bool) {
	var best []int32
	found := false
	for k, end := range wordRuns(v) {
		ps := x.holding(v[k:end])
		if !found || len(ps) < len(best) {
			best, found = ps, true
		}
		if k == 0 && end == len(v) {
			whole = true
		}
	}
	if !found {
		return nil, false
	}
	if best == nil {
		best = []int32{} // no step holds the run: none holds v
	}
	return best, whole
}

// wordRuns yields where each run of word bytes in s starts and ends.
func wordRuns[T string | []byte](s T) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for k := 0; k < len(s); {
			if !tokenByte(s, k) {
				k++
				continue
			}
			end := k + 1
			for tokenByte(s, end) {
				end++
			}
			if !yield(k, end) {
				return
			}
			k = end
		}
	}
}

// containsToken reports whether v occurs in s not as part of a longer word
// or number: "11" is not in "item 4611".
func containsToken(s, v string) bool {
	for k := range occurrences(s, v) {
		if !tokenByte(s, k-1) && !tokenByte(s, k+len(v)) {
			return true
		}
	}
	return false
}

// occurrences yields each offset at which sub is written in s, those that
// overlap an earlier one too.
func occurrences(s, sub string) iter.Seq[int] {
	return func(yield func(int) bool) {
		for from := 0; from <= len(s); {
			k := strings.Index(s[from:], sub)
			if k < 0 || !yield(from+k) {
				return
			}
			from += k + 1
		}
	}
}

// tokenByte reports whether s[i] is a byte of a word (an ASCII letter or
// digit, or an underscore); false outside s.
func tokenByte[T string | []byte](s T, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	return wordByte(s[i])
}

// Words returns the words v writes that can name a thing: its runs of
// word bytes of four or more, lower case, holding no digit, each once in
// the order written.
func Words(v string) []string {
	v = strings.ToLower(v)
	var out []string
	for k, end := range wordRuns(v) {
		w := v[k:end]
		if len(w) < 4 || strings.ContainsAny(w, "0123456789") || slices.Contains(out, w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// NewWords returns the Words of v, a value step j writes (a call's
// argument), that neither the task nor any step before j holds: the words
// step j brings into the run.
func (w *Writing) NewWords(j int, v string) []string {
	if w.index == nil {
		w.index = newTokenIndex(w.steps)
	}
	var out []string
	for _, word := range Words(v) {
		if containsToken(w.question, word) {
			continue
		}
		if at := w.index.holding(word); len(at) > 0 && int(at[0]) < j {
			continue
		}
		out = append(out, word)
	}
	return out
}
