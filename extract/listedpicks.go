package extract

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/offattr/offattr/run"
)

// ListedPick is an agent's pick of a row of a listing (a table a tool's
// output prints, or one an agent writes out before it chooses) that the
// row's own fields show breaks the task: a rule of the row that forbids
// what the task says it brings ("No pets" where the travellers bring
// their dog), a shortest stay longer than the task's nights, a figure
// out of a bound the task puts on it in the same unit (15 GB of data
// where it asks for at least 20 GB), or a quality of the task's that the step writes beside the
// row's name while the row's fields do not write it and another row's
// of the listing do (an "Italian" dinner at a steakhouse).
type ListedPick struct {
	// Listing is the step whose text lists the row.
	Listing int `json:"listing"`
	// Picked is the row's label as the listing writes it.
	Picked string `json:"picked"`
	// Forbids is the row's rule the task breaks ("no pets", "minimum
	// nights 3"), or its figure out of the task's bound ("15 gb"), in
	// lower case; empty for a quality the row lacks.
	Forbids string `json:"forbids,omitempty"`
	// Asked is what of the task's, in lower case, the pick breaks: what
	// the task brings that the rule forbids ("dog"), its nights ("2
	// nights"), its bound ("at least 20 gb"), or the quality the step
	// gives the row ("italian").
	Asked string `json:"asked"`
}

// listedRow is one row of a listing written as text: its label and the
// words, in lower case, of its other fields.
type listedRow struct {
	label string
	words []string
	// minNights is the fewest nights the row lets a stay be (a field
	// "min nights 2", or one under a header "minimum nights"); 0 when it
	// says none.
	minNights int
	// measures are the figures its fields give in a unit, by the unit
	// in lower case: one the field writes after its figure ("15 GB"), or
	// one its header names ("data_gb"); "unlimited" gives none.
	measures map[string]float64
}

// Listing bounds: a listing has at least two rows, each of three fields
// or more, its label short; a listing of more rows is cut to its first
// ones (a pick is read among the options a step could weigh).
const (
	minListedRows  = 2
	maxListedRows  = 50
	maxListedLabel = 60
)

// ruleFamilies are the things a listing's rule forbids ("No pets", "No
// smoking", "No parties", "No children under 10", "No visitors"), each
// word that names one in a task or a rule by the family it belongs to.
var ruleFamilies = map[string]string{
	"pet": "pets", "pets": "pets", "dog": "pets", "dogs": "pets", "cat": "pets", "cats": "pets", "puppy": "pets",
	"smoke": "smoking", "smoking": "smoking", "smoker": "smoking", "smokers": "smoking",
	"party": "parties", "parties": "parties",
	"child": "children", "children": "children", "kid": "children", "kids": "children", "toddler": "children", "baby": "children", "infant": "children",
	"visitor": "visitors", "visitors": "visitors",
}

// ruleNegators are the words before (or, "free", after) a word of a
// rule's family by which a task says it does not bring the thing ("a
// non-smoking room", "no kids", "smoke-free"); "t" is what "don't" ends in.
var ruleNegators = map[string]bool{"no": true, "non": true, "not": true, "without": true, "never": true, "t": true}

// readListedPicks sets ListedPick on the first agent's step that picks a
// row of a listing, for each row, where that row's fields show the pick
// breaks the task (ListedPick). Only the first step that writes a row's
// label after its listing picks it: later steps carry the pick on.
func readListedPicks(r *run.Run, rf *RunFeatures) {
	taskText := strings.ToLower(afterExamples(r.Question))
	task := plainWords(taskText)
	if len(task) == 0 {
		return
	}
	asked := map[string]bool{}
	for _, w := range task {
		asked[w] = true
	}
	brought := broughtFamilies(task)
	nights := stayNights(taskText)
	bounds := unitBounds(taskText)
	var texts []string
	for j := range r.Steps {
		rows := listedRows(r.Steps[j].Content)
		if len(rows) < minListedRows {
			continue
		}
		for k, row := range rows {
			if choiceHeld(taskText, strings.ToLower(row.label)) {
				continue // the task names it: no pick of the agent's
			}
			if texts == nil {
				texts = pickTexts(r, rf)
			}
			i, clause := firstPick(texts, j, row)
			if i < 0 || rf.Steps[i].ListedPick != nil {
				continue
			}
			p := brokenRule(row, brought)
			if p == nil && row.minNights > nights && nights > 0 {
				p = &ListedPick{Forbids: "minimum nights " + strconv.Itoa(row.minNights), Asked: strconv.Itoa(nights) + " night" + map[bool]string{true: "s"}[nights > 1]}
			}
			if p == nil {
				p = outOfBound(row, bounds)
			}
			if p == nil {
				p = missingQuality(rows, k, clause, asked)
			}
			if p == nil {
				continue
			}
			p.Listing, p.Picked = j, row.label
			rf.Steps[i] = rf.Steps[i].Clone()
			rf.Steps[i].Details.Rare.ListedPick = p
		}
	}
}

// smallNumbers are the counts a task writes in words.
var smallNumbers = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}

// stayNights returns the nights the task's stay lasts: its "2 nights",
// or one fewer than the days of its "3-day trip"; 0 when it says
// neither.
func stayNights(task string) int {
	words := strings.FieldsFunc(task, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	days := 0
	for k := 0; k+1 < len(words); k++ {
		n, err := strconv.Atoi(words[k])
		if err != nil {
			n = smallNumbers[words[k]]
		}
		if n <= 0 || n > 60 {
			continue
		}
		switch words[k+1] {
		case "night", "nights":
			return n
		case "day", "days":
			if days == 0 {
				days = n
			}
		}
	}
	return max(days-1, 0)
}

// minNights reads the fewest nights a row's field lets a stay be: a
// field that writes it ("min nights 2", "minimum stay 3 nights"), or a
// figure under a header that names it ("minimum nights": "3.0").
func minNights(field, header string) int {
	f := strings.ToLower(field)
	if !strings.Contains(f, "min") || !strings.Contains(f, "night") && !strings.Contains(f, "stay") {
		if h := strings.ToLower(header); !strings.Contains(h, "min") || !strings.Contains(h, "night") && !strings.Contains(h, "stay") {
			return 0
		}
	}
	for w := range strings.FieldsSeq(f) {
		if n, err := strconv.ParseFloat(w, 64); err == nil && n >= 1 && n <= 365 && n == float64(int(n)) {
			return int(n)
		}
	}
	return 0
}

// broughtFamilies returns, by rule family, the word by which the task
// says it brings a thing a rule may forbid, where no negator stands
// before it or "free" after it.
func broughtFamilies(task []string) map[string]string {
	out := map[string]string{}
	for k, w := range task {
		fam := ruleFamilies[w]
		if fam == "" || out[fam] != "" {
			continue
		}
		if k > 0 && ruleNegators[task[k-1]] || k > 1 && ruleNegators[task[k-2]] || k+1 < len(task) && task[k+1] == "free" {
			continue
		}
		out[fam] = w
	}
	return out
}

// brokenRule returns the pick's breach when the row writes a rule, "no"
// and a word of a family, whose family the task brings; nil otherwise.
func brokenRule(row listedRow, brought map[string]string) *ListedPick {
	for k := 0; k+1 < len(row.words); k++ {
		if row.words[k] != "no" {
			continue
		}
		fam := ruleFamilies[row.words[k+1]]
		if w := brought[fam]; fam != "" && w != "" {
			return &ListedPick{Forbids: "no " + row.words[k+1], Asked: w}
		}
	}
	return nil
}

// missingQuality returns the pick's breach when the clause that picks
// row k writes a word of the task that the row's fields do not write and
// another row's of the listing do: the step gives the row a quality the
// task asks for that the listing shows is another row's (a quality, not
// the thing a rule of it forbids). nil otherwise.
func missingQuality(rows []listedRow, k int, clause []string, asked map[string]bool) *ListedPick {
	for n, w := range clause {
		if len(w) < 4 || !asked[w] || slices.Contains(rows[k].words, w) || n > 0 && ruleNegators[clause[n-1]] {
			continue
		}
		// A word of a row's label may name that row, not a quality.
		if slices.ContainsFunc(rows, func(o listedRow) bool { return slices.Contains(plainWords(o.label), w) }) {
			continue
		}
		for m, o := range rows {
			if m != k && hasQuality(o.words, w) {
				return &ListedPick{Asked: w}
			}
		}
	}
	return nil
}

// hasQuality reports whether a row's words write w other than as what
// a rule forbids ("No parties" is no quality of parties).
func hasQuality(words []string, w string) bool {
	for k, x := range words {
		if x == w && (k == 0 || !ruleNegators[words[k-1]]) {
			return true
		}
	}
	return false
}

// firstPick returns the first agent's step from the listing at j on that
// writes row's label outside the rows it lists itself, with the words of
// the clause it writes it in; -1 when none does. texts holds each agent's
// step's text and call arguments, in lower case, without its own rows.
func firstPick(texts []string, j int, row listedRow) (int, []string) {
	want := strings.ToLower(row.label)
	for i := j; i < len(texts); i++ {
		text := texts[i]
		if text == "" {
			continue
		}
		for k := range occurrences(text, want) {
			if !choiceByte(text, k-1) && !choiceByte(text, k+len(want)) {
				return i, plainWords(clauseAround(text, k, k+len(want)))
			}
		}
	}
	return -1, nil
}

// pickTexts returns, for each agent's step that a harness carried out,
// its text and its calls' arguments in lower case, without the lines it
// writes as a listing's rows: where it may pick a row; "" for others.
func pickTexts(r *run.Run, rf *RunFeatures) []string {
	out := make([]string, len(r.Steps))
	for i, s := range r.Steps {
		if !agentChoosing(r, rf, i) || notCarriedOut(r, rf, i) {
			continue
		}
		var b strings.Builder
		for line := range strings.Lines(s.Content) {
			if _, _, ok := listedLine(line); !ok {
				b.WriteString(line)
				b.WriteByte('\n')
			}
		}
		for _, c := range s.ToolCalls() {
			b.WriteString(c.Arguments)
			b.WriteByte('\n')
		}
		out[i] = strings.ToLower(b.String())
	}
	return out
}

// clauseAround returns the clause of text that holds text[from:to]: up
// to the line's end, a semicolon, or a full stop that ends a sentence.
func clauseAround(text string, from, to int) string {
	end := func(k int) bool {
		switch text[k] {
		case '\n', ';':
			return true
		case '.':
			return k+1 >= len(text) || text[k+1] == ' ' || text[k+1] == '\n'
		}
		return false
	}
	a := from
	for a > 0 && !end(a-1) {
		a--
	}
	b := to
	for b < len(text) && !end(b) {
		b++
	}
	return text[a:b]
}

// listedRows returns the rows of the listing a text writes, when it
// writes two or more of as many fields, each under its own label: the
// lines listedLine reads as rows, of the count of fields most of them
// have. Rows that share a label (a SKU's lines by warehouse) are no
// choice of one.
func listedRows(content string) []listedRow {
	var rows []listedRow
	var widths []int
	var fieldsOf [][]string
	headers := map[int][]string{} // a header line's fields, by their count
	count := map[int]int{}
	for line := range strings.Lines(content) {
		row, fields, ok := listedLine(line)
		if !ok {
			if h := lineFields(line); len(h) >= 3 && !strings.ContainsFunc(line, unicode.IsDigit) && headers[len(h)] == nil {
				headers[len(h)] = h
			}
			continue
		}
		rows, widths, fieldsOf = append(rows, row), append(widths, len(fields)), append(fieldsOf, fields)
		count[len(fields)]++
		if len(rows) == maxListedRows {
			break
		}
	}
	for k := range rows {
		// A printed index has no header of its own.
		h, shift := headers[widths[k]], 0
		if h == nil && headers[widths[k]-1] != nil {
			h, shift = headers[widths[k]-1], 1
		}
		for n, f := range fieldsOf[k] {
			header := ""
			if h != nil && n-shift >= 0 {
				header = h[n-shift]
			}
			if u, v, ok := fieldMeasure(f, header); ok {
				if rows[k].measures == nil {
					rows[k].measures = map[string]float64{}
				}
				rows[k].measures[u] = v
			}
			if m := minNights(f, header); m > 0 && rows[k].minNights == 0 {
				rows[k].minNights = m
			}
		}
	}
	best := 0
	for n, c := range count {
		if c > count[best] || c == count[best] && n > best {
			best = n
		}
	}
	var out []listedRow
	for k, row := range rows {
		if widths[k] == best {
			out = append(out, row)
		}
	}
	if len(out) < minListedRows {
		return nil
	}
	labels := map[string]int{}
	for _, row := range out {
		labels[strings.ToLower(row.label)]++
	}
	return slices.DeleteFunc(out, func(row listedRow) bool { return labels[strings.ToLower(row.label)] > 1 })
}

// listedLine reads a line as a row of a listing: three fields or more,
// parted by "|" (a markdown table's, or an agent's "Name | $198/night |
// …") or by two spaces or a tab (a printed table's), one of them
// a short figure ("$198/night", "min nights 2"). Its label is its first field that is not only a
// number (a printed index), without a list's numbering; a header (no
// digit), a separator or prose (one field) is no row.
func listedLine(line string) (listedRow, []string, bool) {
	fields := lineFields(line)
	if len(fields) < 3 {
		return listedRow{}, nil, false
	}
	label := fields[0]
	if !strings.ContainsFunc(label, unicode.IsLetter) && len(fields) > 1 {
		label = fields[1] // a printed index
	}
	label = strings.TrimSpace(strings.TrimLeft(label, "0123456789.)-*• "))
	if label == "" || len(label) > maxListedLabel || !strings.ContainsFunc(label, unicode.IsLetter) {
		return listedRow{}, nil, false
	}
	k := slices.IndexFunc(fields, func(f string) bool { return strings.Contains(f, label) })
	rest := fields[k+1:]
	if !slices.ContainsFunc(rest, func(f string) bool { return strings.ContainsFunc(f, unicode.IsDigit) && len(strings.Fields(f)) <= 3 }) {
		return listedRow{}, nil, false
	}
	return listedRow{label: label, words: plainWords(strings.Join(rest, " "))}, fields, true
}

// lineFields splits a line into its fields: by "|" where it has one (a
// markdown table's, or an agent's "Name | $198/night | …"), otherwise by
// two spaces or a tab (a printed table's).
func lineFields(line string) []string {
	line = strings.TrimSpace(line)
	if !strings.Contains(line, "|") {
		return columns(line)
	}
	var fields []string
	for f := range strings.SplitSeq(strings.Trim(line, "|"), "|") {
		if f = strings.TrimSpace(f); f != "" {
			fields = append(fields, f)
		}
	}
	return fields
}

// plainWords returns the words of s, runs of letters, in lower case.
func plainWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
}
