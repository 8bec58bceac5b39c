package extract

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/offattr/offattr/run"
)

// Choice is an agent's pick among the choices a tool's result offered
// it (a page's buttons, an environment's admissible actions, a menu's
// entries), where the task names other choices of the same offer.
type Choice struct {
	// Offer is the tool result that offered the choices.
	Offer int `json:"offer"`
	// Picked are the offered choices the step writes, in lower case;
	// the task names none of them.
	Picked []string `json:"picked"`
	// Passed are the offered choices the task names that no step of
	// the picking agent writes, in lower case; of things an environment
	// says are seen, those the task names that a picked one looks like
	// (lookAlikes).
	Passed []string `json:"passed"`
}

// Choice bounds: an offer lists at least two choices, each a short label
// on one line; an offer of more is cut to the first ones.
const (
	minChoices   = 2
	maxChoices   = 200
	maxChoiceLen = 60
)

// readPicks reads the agents' picks among the choices tool results offer:
// it sets PassedOver, and OverCap (overCap).
//
// PassedOver is set on each agent's step that picks, of the
// choices the tool result right before it offers, only ones the task does
// not name, while the task names others of the offer that no step of that
// agent writes once they were first offered: it chose past what it was
// asked for (a colour, a size, the item the task named) or moved on
// (bought) without it.
func readPicks(r *run.Run, rf *RunFeatures) {
	task := strings.ToLower(withoutPage(afterExamples(r.Question)))
	times := timesOf(task)
	texts := make([]string, len(r.Steps)) // each agent step's text and call arguments, in lower case
	for i, s := range r.Steps {
		if agentChoosing(r, rf, i) && !notCarriedOut(r, rf, i) {
			var b strings.Builder
			b.WriteString(s.Content)
			for _, c := range s.ToolCalls() {
				b.WriteString("\n")
				b.WriteString(c.Arguments)
			}
			texts[i] = strings.ToLower(b.String())
		}
	}
	offers := make([][]string, len(r.Steps)) // each tool result's offer
	things := make([]bool, len(r.Steps))     // whether it offers the things an environment says are seen
	for j := range r.Steps {
		if rf.Steps[j].Has(KindToolResult) {
			offers[j], things[j] = offer(r.Steps[j].Content)
		}
	}
	for j := 0; j+1 < len(r.Steps); j++ {
		i := j + 1
		if texts[i] == "" {
			continue
		}
		var named, picked []string
		for _, o := range offers[j] {
			if asksForChoice(task, times, o) {
				named = append(named, o)
			} else if choiceHeld(texts[i], o) {
				picked = append(picked, o)
			}
		}
		if len(named) == 0 && things[j] {
			named, picked = lookAlikes(task, offers[j], texts[i])
		}
		if len(named) == 0 || len(picked) == 0 || slices.ContainsFunc(named, func(o string) bool { return choiceHeld(texts[i], o) }) {
			continue
		}
		me := run.AgentKey(r.Steps[i].Agent)
		var passed []string
		for _, o := range named {
			// Since the choice was first offered: a step before that
			// wrote it as a wish (a search's words), not as a pick. A
			// look-alike the task names was not offered: since this
			// offer.
			from := slices.IndexFunc(offers, func(l []string) bool { return slices.Contains(l, o) })
			if from < 0 {
				from = j
			}
			if !writtenSince(texts, r, from, me, o) && !slices.ContainsFunc(named, func(x string) bool { return eitherOr(task, o, x) && writtenSince(texts, r, from, me, x) }) {
				passed = append(passed, o)
			}
		}
		if len(passed) == 0 {
			continue
		}
		rf.Steps[i] = rf.Steps[i].Clone()
		rf.Steps[i].Details.Rare.PassedOver = &Choice{Offer: j, Picked: picked, Passed: passed}
	}
	overCap(r, rf, texts, offers)
	readElementPicks(r, rf)
}

// withoutPage returns a task without the lines of a page's tree the
// step that gives it shows beside it (WebArena's first observation): what
// the page lists, the task does not ask for.
func withoutPage(task string) string {
	if pageElements(task) == nil {
		return task
	}
	aria := strings.Contains(task, ariaRef)
	var b strings.Builder
	for line := range strings.SplitSeq(task, "\n") {
		_, ok := elementLine(line)
		if !ok && aria {
			_, ok = ariaLine(line)
		}
		if !ok {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// afterExamples returns the task a prompt gives after its examples of
// commands and their answers ("> go to cabinet 1" and the next line),
// from the paragraph after the last one: what the examples name, the
// task does not ask for. A task without such examples is returned whole.
func afterExamples(task string) string {
	last := strings.LastIndex(task, "\n> ")
	if last < 0 {
		return task
	}
	if k := strings.Index(task[last:], "\n\n"); k >= 0 {
		return task[last+k:]
	}
	return task
}

// asksFor reports whether the task (lower case) names the choice c as
// one it wants: written whole, and not only after a word that rules it
// out ("not white", "without a hood", "any colour but red").
func asksFor(task, c string) bool {
	for k := range occurrences(task, c) {
		if choiceByte(task, k-1) || choiceByte(task, k+len(c)) {
			continue
		}
		before := strings.Fields(task[:k])
		if !slices.ContainsFunc(before[max(0, len(before)-3):], func(w string) bool { return slices.Contains(ruleOut, strings.Trim(w, ",;:")) }) {
			return true
		}
	}
	return false
}

// asksForChoice reports whether the task (lower case) names the choice
// c: a time of day by its 24-hour time, among the task's times (a slot
// "18:45" for "6:45 pm", not "06:45"), any other choice as asksFor.
func asksForChoice(task string, times []string, c string) bool {
	if t, ok := OnlyTime(c); ok {
		return slices.Contains(times, t)
	}
	return asksFor(task, c)
}

// OnlyTime is the 24-hour time of a text that is a time of day and
// nothing else ("18:45", "6:45 pm").
func OnlyTime(s string) (string, bool) {
	cs := Claims(s)
	if len(cs) != 1 || cs[0].Kind != ClaimTime || cs[0].Text != strings.TrimSpace(s) {
		return "", false
	}
	return cs[0].Norm, true
}

// OnlyDate is the normal form of a text that is a date and nothing else
// ("2026-06-30", "06/2026", "June 2026"): "2006-01-02", or "2006-01" for
// a month and its year.
func OnlyDate(s string) (string, bool) {
	// A month and its year as ISO writes them, "2026-06".
	if v := strings.TrimSpace(s); len(v) == len("2006-01") && v[4] == '-' && strings.Trim(v[:4]+v[5:], "0123456789") == "" {
		if m, _ := strconv.Atoi(v[5:]); m >= 1 && m <= 12 {
			return v, true
		}
	}
	cs := Claims(s)
	if len(cs) != 1 || cs[0].Kind != ClaimDate || cs[0].Text != strings.TrimSpace(s) {
		return "", false
	}
	return cs[0].Norm, true
}

// timesOf returns the 24-hour times of day a text writes.
func timesOf(s string) []string {
	var out []string
	for _, c := range Claims(s) {
		if c.Kind == ClaimTime && !slices.Contains(out, c.Norm) {
			out = append(out, c.Norm)
		}
	}
	return out
}

// ruleOut are the words that, just before a choice, rule it out.
var ruleOut = []string{"not", "no", "without", "except", "excluding", "but", "nor", "never"}

// eitherOr reports whether the task (lower case) names choices a and b as
// alternatives ("white or grey"): either one picked is what it asked for.
func eitherOr(task, a, b string) bool {
	return a != b && (strings.Contains(task, a+" or "+b) || strings.Contains(task, b+" or "+a))
}

// writtenSince reports whether a step of agent me after step from writes
// the choice o; texts are the agent steps' texts, by position.
func writtenSince(texts []string, r *run.Run, from int, me, o string) bool {
	for k := from + 1; k < len(texts); k++ {
		if texts[k] != "" && run.AgentKey(r.Steps[k].Agent) == me && choiceHeld(texts[k], o) {
			return true
		}
	}
	return false
}

// notCarriedOut reports whether the text environment answering step i
// says it did not carry its command out ("Nothing happens."): the step
// picked nothing.
func notCarriedOut(r *run.Run, rf *RunFeatures, i int) bool {
	return i+1 < len(r.Steps) && rf.Steps[i+1].Has(KindToolResult) && int(rf.Steps[i+1].Caller) == i && newText(r.Steps[i+1].Content).has(envRefusalRe)
}

// agentChoosing reports whether step i is an agent's own: not the user's,
// the system's, or a tool's output.
func agentChoosing(r *run.Run, rf *RunFeatures, i int) bool {
	switch r.Steps[i].Kind {
	case run.KindUser, run.KindSystem, run.KindToolResult:
		return false
	}
	return !rf.Steps[i].Has(KindToolResult)
}

// offered returns the choices a tool's output lists (offer).
func offered(content string) []string {
	o, _ := offer(content)
	return o
}

// offer returns the choices a tool's output lists as JSON: a list of
// short strings, the output itself or a field of its object (a page's
// "clickables"), in lower case; the output may be the JSON alone, or
// text that ends in it ("Available Actions:" and the object). An output
// without JSON offers the things it says are seen (seen), and the bool
// is true. nil when it lists none.
func offer(content string) ([]string, bool) {
	if o := pageOptions(content); len(o) >= minChoices {
		return o, false
	}
	v, _, ok := toolJSON(content)
	if !ok {
		k := max(strings.LastIndex(content, "\n{"), strings.LastIndex(content, "\n["))
		if k < 0 || len(content) > maxIDScan {
			return seen(content), true
		}
		dec := json.NewDecoder(strings.NewReader(content[k+1:]))
		if dec.Decode(&v) != nil {
			return nil, false
		}
	}
	lists := []any{v}
	if m, ok := v.(map[string]any); ok {
		lists = lists[:0]
		for _, k := range sortedKeys(m) {
			lists = append(lists, m[k])
		}
	}
	var out []string
	for _, l := range lists {
		if c := choices(l); len(c) >= minChoices {
			out = append(out, c...)
		}
	}
	return out[:min(len(out), maxChoices)], false
}

// minLookAlike is how many letters a look-alike's name ends in that the
// name the task gives ends in too ("spraybottle", "soapbottle").
const minLookAlike = 5

// lookAlikes returns, of the things seen (offer) that the step (text,
// lower case) writes, those whose name is a compound that ends as a
// thing's the task names does, though it is another ("peppershaker" for
// "saltshaker", "knife" for "butterknife"), and the task's names they
// look like: picked past what the task asked for. The task's name is
// none of the things seen, and the step does not write it.
func lookAlikes(task string, things []string, text string) (named, picked []string) {
	words := strings.FieldsFunc(task, func(r rune) bool { return r < 'a' || r > 'z' })
	for _, o := range things {
		if strings.Contains(o, " ") || !choiceHeld(text, o) {
			continue
		}
		for _, x := range words {
			if x == o || commonSuffix(o, x) < minLookAlike || slices.Contains(things, x) || choiceHeld(text, x) {
				continue
			}
			named = appendNew(named, x)
			picked = appendNew(picked, o)
		}
	}
	return named, picked
}

// commonSuffix is how many bytes a and b end in alike.
func commonSuffix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// seen returns the things a text environment's answer says the agent
// sees ("On the countertop 1, you see a bread 1, a mug 1, and a
// spatula 1.", "On the counter you can see a red apple, a cookbook and
// a knife."), each by its name without the number that tells like
// things apart, in lower case: the task names a thing by its kind ("a
// mug"). nil when it lists fewer than two.
func seen(content string) []string {
	content = content[:min(len(content), maxIDScan)]
	var out []string
	for _, lead := range []string{"you see ", "You see ", "you can see ", "You can see "} {
		for rest := content; ; {
			k := strings.Index(rest, lead)
			if k < 0 {
				break
			}
			rest = rest[k+len(lead):]
			list := strings.ToLower(rest[:strings.IndexFunc(rest+".", func(r rune) bool { return r == '.' || r == '\n' || r == ':' })])
			var names []string
			for _, item := range strings.Split(strings.ReplaceAll(list, " and ", ", "), ",") {
				w := strings.Fields(item)
				if len(w) == 0 {
					continue // ", and a plate 1": the and is read as a comma
				}
				if w[0] == "a" || w[0] == "an" {
					w = w[1:]
				}
				if len(w) > 0 && strings.Trim(w[len(w)-1], "0123456789") == "" {
					w = w[:len(w)-1]
				}
				if len(w) == 0 || len(w) > 4 || !slices.ContainsFunc(w, func(x string) bool { return lowerWord(x) }) {
					names = nil
					break
				}
				names = append(names, strings.Join(w, " "))
			}
			if len(names) >= minChoices {
				for _, n := range names {
					if !slices.Contains(out, n) {
						out = append(out, n)
					}
				}
			}
		}
	}
	return out[:min(len(out), maxChoices)]
}

// choices returns the labels a JSON list holds when every one of its
// items is a short label on one line; nil otherwise.
func choices(v any) []string {
	l, ok := v.([]any)
	if !ok {
		return nil
	}
	var out []string
	for _, e := range l {
		s, ok := e.(string)
		s = strings.ToLower(strings.TrimSpace(s))
		if !ok || s == "" || len(s) > maxChoiceLen || strings.ContainsAny(s, "\n\r") {
			return nil
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// choiceHeld reports whether text (lower case) writes the choice c whole:
// not within a longer word, and not as part of a hyphenated one ("large"
// is not in "x-large").
func choiceHeld(text, c string) bool {
	for k := range occurrences(text, c) {
		if !choiceByte(text, k-1) && !choiceByte(text, k+len(c)) {
			return true
		}
	}
	return false
}

// choiceByte reports whether s[i] joins a word: a word's byte or a hyphen.
func choiceByte(s string, i int) bool {
	return tokenByte(s, i) || i >= 0 && i < len(s) && s[i] == '-'
}

// PricedPick is an agent's pick of a choice a tool's result offered at a
// price over the most the task would pay.
type PricedPick struct {
	// Offer is the tool result that offered the choice and its price.
	Offer int `json:"offer"`
	// Picked is the choice, in lower case; Price its price as the result
	// writes it ("$45.99"); Cap the task's most, as the task writes it.
	Picked string `json:"picked"`
	Price  string `json:"price"`
	Cap    string `json:"cap"`
}

var (
	// A price a page gives: "$45.99", "€ 1,250".
	priceRe = pattern(`(?<price>[$€£]\s{0,2}\d{1,9}(?:,\d{3}){0,3}(?:\.\d{1,2})?)(?![\d.,]?\d)`, 0)
)

// priceCap returns the most the task would pay, as written and as a
// number: its first bound on money from above ("price lower than 40.00
// dollars", "under $30", "at most €150"); ok is false when it states
// none.
func priceCap(task string) (written string, most float64, ok bool) {
	for _, b := range taskBounds(task) {
		if b.money && !b.least {
			return task[b.whole.Start:b.whole.End], b.n, true
		}
	}
	return "", 0, false
}

// prices returns the price a tool's output gives each choice it offers,
// as written ("$45.99"):
// the first price written after the choice's first mention and before
// the next choice's (a listing's "B09QQLDJ93 [SEP] name [SEP] $45.99").
// content is the output in lower case.
func prices(content string, offers []string) map[string]string {
	type mention struct {
		at     int
		choice string
	}
	var ms []mention
	for _, o := range offers {
		for k := range occurrences(content, o) {
			if !choiceByte(content, k-1) && !choiceByte(content, k+len(o)) {
				ms = append(ms, mention{k, o})
				break
			}
		}
	}
	slices.SortFunc(ms, func(a, b mention) int { return a.at - b.at })
	out := map[string]string{}
	for k, m := range ms {
		end := len(content)
		if k+1 < len(ms) {
			end = ms[k+1].at
		}
		if p, ok := firstIn(priceRe, content[m.at+len(m.choice):end]); ok {
			out[m.choice] = p
		}
	}
	return out
}

// overCap sets OverCap on the first agent's step that picks a choice the
// tool result right before it listed at a price over the most the task
// would pay (of a listing that prices two choices or more: a page's
// buttons with their prices beside them, or records of its JSON by their
// ids, with a price field), when no later
// step picks a choice listed at a price within it (it went back for a
// cheaper one).
func overCap(r *run.Run, rf *RunFeatures, texts []string, offers [][]string) {
	written, most, ok := priceCap(r.Question)
	if !ok {
		return
	}
	type pick struct {
		step, offer int
		choice      string
		price       string
		over        bool
	}
	var picks []pick
	for j := 0; j+1 < len(r.Steps); j++ {
		i := j + 1
		if texts[i] == "" || !rf.Steps[j].Has(KindToolResult) {
			continue
		}
		ps := prices(strings.ToLower(r.Steps[j].Content), offers[j])
		listed := offers[j]
		for id, p := range pricedRecords(r.Steps[j].Content) {
			if _, ok := ps[id]; !ok {
				ps[id] = p
				listed = append(listed, id)
			}
		}
		if len(ps) < minChoices {
			continue // no listing: a page's one price is its item's, not a button's
		}
		slices.Sort(listed[len(offers[j]):])
		for _, o := range listed {
			p, priced := ps[o]
			n, err := strconv.ParseFloat(strings.Trim(strings.ReplaceAll(p, ",", ""), "$€£ "), 64)
			if priced && err == nil && choiceHeld(texts[i], o) {
				picks = append(picks, pick{i, j, o, p, n > most})
			}
		}
	}
	if len(picks) > 0 && !picks[len(picks)-1].over {
		keptCap(rf.Requirements, written)
	}
	for k, p := range picks {
		if !p.over || slices.ContainsFunc(picks[k+1:], func(q pick) bool { return !q.over }) {
			continue
		}
		rf.Steps[p.step] = rf.Steps[p.step].Clone()
		rf.Steps[p.step].Details.Rare.OverCap = &PricedPick{Offer: p.offer, Picked: p.choice, Price: p.price, Cap: written}
		return
	}
}

// keptCap marks kept the requirement that is the task's price cap,
// written: the last choice picked is priced within it, so the work kept
// it though no step need write its figure.
func keptCap(reqs []Requirement, written string) {
	for k := range reqs {
		if reqs[k].Text == written {
			reqs[k].Kept = true
		}
	}
}

// pricedRecords returns the price each record of a tool's JSON listing
// gives (Record.Price), by the record's ids in lower case: a flight, a
// room or an item a call then names by its id.
func pricedRecords(content string) map[string]string {
	v, _, ok := toolJSON(content)
	if !ok {
		return nil
	}
	out := map[string]string{}
	for _, r := range records(v) {
		for _, id := range r.IDs {
			if r.Price != "" {
				out[strings.ToLower(id)] = r.Price
			}
		}
	}
	return out
}
