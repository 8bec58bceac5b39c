package extract

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/offattr/offattr/run"
)

// Sources of a FinalAnswer.
const (
	SourceFinalAnswer = "final_answer"
	SourceLedger      = "ledger"
	SourceLastAnswer  = "last_answer"
	SourceAction      = "answer_action"
)

// finalAnswer finds the run's answer: the last explicit final answer; else
// the last answering action an agent took (answeringAction); else the last
// ledger that declares the request satisfied and states an answer;
// else the last answer put forward up to the first termination; else the
// answer another agent's reply to that termination puts forward; else the
// last line with a claim in the last step before termination that is not a
// tool's output; else, in a run that stops without terminating, its last
// step's answer when that is an agent's reply (see below).
func finalAnswer(rf *RunFeatures, agents *agentSet, question string) *FinalAnswer {
	fa := chooseFinal(rf, agents, question)
	if fa != nil {
		fa.Claims = withoutCitations(fa, rf.Steps[:min(max(fa.Step, 0), len(rf.Steps))])
		namedWeekdays(fa, rf, question)
		askedCount(fa, question)
		filledTemplates(fa, rf)
		printedAlone(fa, rf)
	}
	return fa
}

// printedAlone adds to the answer's Seen, for each figure of an answer
// given by an answering action that no earlier step's claims hold, the
// earlier tool outputs that print it on a line of its own ("7" under
// "The output of the OS:"): a program's bare output of a small figure is
// no claim extract reads, yet the answer carried the figure from there,
// and whatever was wrong with it was wrong before.
func printedAlone(fa *FinalAnswer, rf *RunFeatures) {
	if fa.Source != SourceAction {
		return
	}
	for _, c := range fa.Claims {
		if c.Kind != ClaimNumber || claimedBefore(rf, fa.Step, c.Norm) {
			continue
		}
		var seen []int
		for i := range min(fa.Step, len(rf.Steps), len(rf.steps)) {
			if !rf.Steps[i].Has(KindToolResult) {
				continue
			}
			for _, line := range strings.Split(rf.steps[i].Content, "\n") {
				if l := strings.TrimSpace(line); l == c.Text || l == c.Norm {
					seen = append(seen, i)
					break
				}
			}
		}
		fa.see(c.Norm, seen)
	}
}

// countedRe reads the thing a task asks the count of ("how many floors").
var countedRe = pattern(`\bhow\s{1,2}many\s{1,2}(?<n>[a-z]{2,40})\b`, ci)

// askedCount narrows an answer that states several values to the counts
// of the thing the task asks how many of ("How many floors ...?", "...
// its 136 floors above ground ..."): the figure written before that
// thing is the answer's value, and the others it states (a height, a
// city) describe it. The values the task itself states stay, as they
// were. An answer that writes no figure before the thing asked, or to a
// task that asks more than the count, is left whole.
func askedCount(fa *FinalAnswer, question string) {
	qt, q := newText(question), strings.ToLower(question)
	m, ok := qt.first(countedRe)
	if !ok || len(fa.Claims) < 2 || asksMore(q) {
		return
	}
	ofTask := func(c Claim) bool { return containsWordFold(q, strings.ToLower(c.Text)) || containsWordFold(q, c.Norm) }
	thing := Stem(strings.ToLower(qt.named(m, "n")))
	var kept []Claim
	for _, c := range fa.Claims {
		if ofTask(c) {
			kept = append(kept, c) // the task's own value, as it was
			continue
		}
		if c.Kind != ClaimNumber {
			continue
		}
		end := min(int(c.Offset)+len(c.Text), len(fa.Text))
		next := strings.FieldsFunc(strings.ToLower(fa.Text[end:min(len(fa.Text), end+60)]), func(r rune) bool { return !unicode.IsLetter(r) })
		if len(next) > 0 && Stem(next[0]) == thing {
			kept = append(kept, c)
		}
	}
	if slices.ContainsFunc(kept, func(c Claim) bool { return !ofTask(c) }) {
		fa.Claims = kept
	}
}

// asksMore reports whether the task, in lower case, asks more than one
// thing: a second question mark, or a second question word after "how
// many" ("How many charges are on my bill, and what's the total?").
func asksMore(q string) bool {
	if strings.Count(q, "?") > 1 {
		return true
	}
	_, after, _ := strings.Cut(q, "how many")
	for _, w := range []string{"what", "which", "who", "when", "where", "how much", "how long", "how many"} {
		if containsWordFold(after, w) {
			return true
		}
	}
	return false
}

// weekdayRe reads a weekday's name as a whole word.
var weekdayRe = pattern(`\b(?:`+weekdayWords+`)\b`, ci)

// namedWeekdays adds to the answer the weekdays it names that the task
// does not ("It falls on a Tuesday."), as claims: asked for a date's
// weekday, the answer's weekday is its value, though a weekday is no
// claim of a step's (a day of the week is said in passing too often).
// Without a ground truth, the earlier steps whose text names the weekday
// are where the answer's data flow finds it (a program's printed
// "Saturday", a page's "Sunday, July 20, 1969"); with one, the answer's
// weekday is checked against it, and a weekday found in a step's text,
// not its claims, is left out of the walk along which it is looked for,
// as withWords leaves the words it finds so.
func namedWeekdays(fa *FinalAnswer, rf *RunFeatures, question string) {
	t := newText(fa.Text)
	q := strings.ToLower(question)
	for _, m := range t.all(weekdayRe, 7) {
		w := t.str(m.Whole())
		c := Claim{Kind: ClaimEntity, Text: w, Norm: strings.ToLower(w), Offset: int32(m.Whole().Start)}
		if containsWordFold(q, c.Norm) || claimedAs(fa.Claims, c.Norm) {
			continue
		}
		fa.Claims = append(fa.Claims, c)
		if rf.groundTruth == "" {
			fa.see(c.Norm, stepsHolding(rf, fa.Step, c))
		}
	}
}

// see adds steps to those Seen holding the answer's value of norm.
func (fa *FinalAnswer) see(norm string, steps []int) {
	if len(steps) == 0 {
		return
	}
	if fa.Seen == nil {
		fa.Seen = map[string][]int{}
	}
	fa.Seen[norm] = append(fa.Seen[norm], steps...)
}

// claimedBefore reports whether a step before step holds a claim of norm.
func claimedBefore(rf *RunFeatures, step int, norm string) bool {
	for i := range min(step, len(rf.Steps)) {
		if slices.ContainsFunc(rf.Steps[i].Claims, func(c Claim) bool { return c.Norm == norm }) {
			return true
		}
	}
	return false
}

// filledTemplates adds to the answer's Seen, for each path it states, the
// earlier steps that wrote it as a template whose last part is a
// placeholder ("/api/v2/invoice/{invoice_id}" for "/api/v2/invoice/7",
// "/users/<id>", "/users/:id"): the path was handed on by whoever first
// wrote the template, and the answer only filled in the value. The
// template's claim is the path up to the placeholder.
func filledTemplates(fa *FinalAnswer, rf *RunFeatures) {
	for _, c := range fa.Claims {
		if c.Kind != ClaimPath {
			continue
		}
		cut := strings.LastIndexByte(strings.TrimRight(c.Text, "/"), '/')
		if cut <= 0 {
			continue
		}
		parent := c.Text[:cut+1]
		var seen []int
		for i := range min(fa.Step, len(rf.Steps), len(rf.steps)) {
			content := rf.steps[i].Content
			for _, t := range rf.Steps[i].Claims {
				if end := int(t.Offset) + len(t.Text); t.Kind == ClaimPath && t.Text == parent && end < len(content) && strings.IndexByte("{<:", content[end]) >= 0 {
					seen = append(seen, i)
					break
				}
			}
		}
		fa.see(c.Norm, seen)
	}
}

// Where an answer names its source rather than stating a value:
// "According to Wikipedia," (opening a sentence), or a parenthesis or
// bracket that closes a sentence with a name or a reference number
// ("(Wikipedia)", "(source: Britannica)", "[1]"). A parenthesis with a
// figure in it ("(2,722 ft)") is a value.
var (
	accordingPattern = pattern(`\b(?:according to|as reported by)\s{1,2}[^,.;:!?()\n]{1,60},`, ci)
	citedPattern     = pattern(`[(\[]\s{0,2}(?:(?<mark>sources?|via|see|cf\.?)\s{0,2}:?\s{0,2})?(?<src>[^()\[\]\d\n,;]{1,60}|\d{1,3})\s{0,2}[)\]](?=\s{0,3}(?:[.!?]|$))`, ci)
	citedSource      = citedPattern.GroupIndex("src")
	citedMark        = citedPattern.GroupIndex("mark")
)

// withoutCitations is the final answer's claims but those naming a source
// it cites: after "according to" opening a sentence, or in a parenthesis
// closing one after "source:", as a reference number, or as the name of a
// site whose page an earlier step read ("(Wikipedia)" after
// en.wikipedia.org). Which page a value was read from is no value of the
// answer, and tracing it leads to the search that first found that site,
// not to where the value went wrong. A closing parenthesis of anything
// else ("Fund (FEMKX)", "33037 (Key Largo, FL)") may be the value itself,
// and stays.
func withoutCitations(fa *FinalAnswer, before []Features) []Claim {
	t := newText(fa.Text)
	var cut []span
	for _, m := range t.all(accordingPattern, 0) {
		if opensSentence(fa.Text, m.Whole().Start) {
			cut = append(cut, m.Whole())
		}
	}
	var sites map[string]bool
	for _, m := range t.all(citedPattern, 0) {
		src := strings.TrimSpace(t.group(m, citedSource))
		if t.group(m, citedMark) == "" && !isDigits(src) {
			if sites == nil {
				sites = siteNames(before)
			}
			if !sites[strings.ToLower(strings.Join(strings.Fields(src), ""))] {
				continue
			}
		}
		cut = append(cut, m.Whole())
	}
	if len(cut) == 0 {
		return fa.Claims
	}
	return slices.DeleteFunc(slices.Clone(fa.Claims), func(c Claim) bool {
		return slices.ContainsFunc(cut, func(sp span) bool { return sp.Start <= int(c.Offset) && int(c.Offset) < sp.End })
	})
}

// siteNames are the labels of the hosts of the URLs the steps state, but
// for the last ("en.wikipedia.org" gives "en" and "wikipedia"): the names a
// reply cites those sites by.
func siteNames(steps []Features) map[string]bool {
	names := map[string]bool{}
	for i := range steps {
		for _, c := range steps[i].Claims {
			if c.Kind != ClaimURL {
				continue
			}
			host, _, _ := strings.Cut(c.Norm, "/")
			labels := strings.Split(strings.ToLower(host), ".")
			for _, l := range labels[:max(len(labels)-1, 0)] {
				names[l] = true
			}
		}
	}
	return names
}

// opensSentence reports whether text[at:] begins a sentence: nothing but
// space before it, or the end of one.
func opensSentence(text string, at int) bool {
	before := strings.TrimRight(text[:at], " \t\n")
	return before == "" || strings.ContainsRune(".!?", rune(before[len(before)-1]))
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// chooseFinal is finalAnswer's choice of the answer, with every claim its
// text states.
func chooseFinal(rf *RunFeatures, agents *agentSet, question string) *FinalAnswer {
	steps := rf.Steps
	for i := len(steps) - 1; i >= 0; i-- {
		if steps[i].Has(KindFinalAnswer) && steps[i].Answer != "" {
			return newFinal(int(steps[i].Index), steps[i].Answer, SourceFinalAnswer, agents, false)
		}
	}
	for i := min(len(steps), len(rf.steps)) - 1; i >= 0; i-- {
		if a := answeringAction(rf, i); a != "" {
			return newFinal(int(steps[i].Index), a, SourceAction, agents, false)
		}
	}
	for i := len(steps) - 1; i >= 0; i-- {
		if l := steps[i].Ledger; l != nil && l.RequestSatisfied.Answer && steps[i].Answer != "" {
			return newFinal(int(steps[i].Index), steps[i].Answer, SourceLedger, agents, false)
		}
	}
	end := len(steps) - 1
	for i, s := range steps {
		if s.Has(KindTermination) {
			end = i
			break
		}
	}
	for i := end; i >= 0; i-- {
		if steps[i].Answer != "" {
			return newFinal(int(steps[i].Index), steps[i].Answer, SourceLastAnswer, agents, false)
		}
	}
	if next := end + 1; next < len(steps) && next < len(rf.steps) && steps[end].Has(KindTermination) && steps[next].Answer != "" &&
		!run.SameAgent(rf.steps[end].Agent, rf.steps[next].Agent) {
		// No answer came before the closing word, and another agent's
		// reply to it puts one forward: a role-play's assistant answering
		// its instructor's <CAMEL_TASK_DONE>.
		return newFinal(int(steps[next].Index), steps[next].Answer, SourceLastAnswer, agents, false)
	}
	if c := closingCall(rf, end); c >= 0 {
		if line := claimLine(rf, c, agents, false); line != "" {
			return newFinal(int(steps[c].Index), line, SourceLastAnswer, agents, false)
		}
	}
	if end < len(steps)-1 || steps[end].Has(KindTermination) {
		return lastClaimLine(rf, end, agents)
	}
	if closesWithThanks(rf, end) {
		end--
	}
	if fa := approvedResult(rf, end, agents); fa != nil {
		return fa
	}
	// A run that stops without a word of being done answers with its last
	// step only when that is an agent's reply; a conversation with a user
	// then ends with its answer.
	if end < 0 || end >= len(rf.steps) || rf.steps[end].Kind != run.KindMessage || steps[end].Kinds.Any(unfinishedKinds) {
		return nil
	}
	if hasUser(rf.steps[:end]) {
		// A closing reply that reports an action done ("your return has
		// been processed") or refused ("I can't place new orders") after
		// the user, told a reply that asked nothing, spoke again (a new
		// request) answers that request, not the task: it is no answer,
		// as it is not when the log keeps the user's closing thanks after
		// it (a transcript does; a trace, with no model call after the
		// thanks, does not). A user's yes to a question the agent asked
		// carries the task on. A reply that tells a fact in the passive
		// ("it was completed in 1889") or says it cannot check a source,
		// after a turn that asked for no action, reports no action:
		// it answers (answersAction).
		if line := claimLine(rf, end, agents, false); line != "" && (len(steps[end].Done) == 0 && len(steps[end].Refused) == 0 || !askedAgain(rf.steps[:end]) || !answersAction(rf, end)) {
			return replyValues(newFinal(int(steps[end].Index), line, SourceLastAnswer, agents, true), rf, question)
		}
		// The reply that closes a conversation with a user is its answer
		// even when it states no value extract reads: a common noun ("The
		// element is beryllium."), a count in words, or a report that it
		// could not be found, a bare symbol ("K"). Its words are what a
		// ground truth is read against. That holds when the task is the
		// user's last turn: after the user spoke again (a thanks, a new
		// request), the closing reply answers that turn, not the task.
		// And it holds for the agent the user spoke to, the first to
		// take the turn after the user's: in a team another agent's
		// closing word ("I agree with the count above.") is no reply
		// to the user.
		if reply := clip(collapse(withoutCode(newText(rf.steps[end].Content))), 300); strings.IndexFunc(reply, isWordRune) >= 0 && userTurns(rf.steps[:end]) == 1 && repliesToUser(rf.steps[:end+1]) {
			return replyValues(newFinal(int(steps[end].Index), reply, SourceLastAnswer, agents, true), rf, question)
		}
		return nil
	}
	// Agents talking among themselves may have run out of turns mid-work:
	// their last step answers only when it ends on a value, not on an order,
	// a promise of more work or a report that it could not be done.
	if steps[end].FailureWords != nil || len(steps[end].Errors) > 0 {
		return nil
	}
	if line := claimLine(rf, end, agents, true); line != "" {
		return newFinal(int(steps[end].Index), line, SourceLastAnswer, agents, true)
	}
	return nil
}

// answeringAction is the answer step i gives by the action that ends an
// agent's run (answerActionRe: AgentBench's "Act: answer(4)", AppWorld's
// complete_task(answer=9), smolagents' final_answer, browser-use's done),
// or "". It is an answer only when an agent takes it: in a system prompt,
// a task or a tool's output it is an example or a quote. An action that
// reports the task could not be done ("I'm sorry, but I cannot ...")
// states no value, as a closing reply that does states none; nor, as
// anywhere, does an order or a sentence in capitals.
func answeringAction(rf *RunFeatures, i int) string {
	s, f := &rf.steps[i], &rf.Steps[i]
	if s.Kind == run.KindSystem || s.Kind == run.KindUser || f.Has(KindTask) || f.Has(KindToolResult) {
		return ""
	}
	a := submitted(unquoteJSON(firstAnswer(newText(s.Content), answerActionRe)))
	if a == "" {
		a = submittedByCall(s.ToolCalls())
	}
	if a != "" && (newText(a).has(failureWordsRe) || len(answerBlanks(a, ordersOrShouts(a))) > 0) {
		return ""
	}
	return a
}

// submitTools name the tools an agent hands in its answer by (Inspect's
// submit, Cybench's and CTF harnesses' submit_flag, AIOpsLab's submit),
// and those it ends its run by with its answer (ToolBench's Finish,
// smolagents' final_answer).
var submitTools = map[string]bool{"submit": true, "submit_flag": true, "submit_answer": true, "finish": true, "final_answer": true}

// answerArgs name the argument of a finishing call that holds the answer
// when the call has others beside it.
var answerArgs = map[string]bool{"answer": true, "final_answer": true}

// submittedByCall is the value a call of a submit tool hands in: its one
// argument (the answer, the flag, the list of components; not a mode
// alone, unless the argument is named as the answer), or, beside
// other arguments that are only flags (modeFlag: ToolBench's
// "return_type": "give_answer"), the one named as the answer; or "". Of
// two arguments named as the answer, neither is.
func submittedByCall(calls []run.ToolCall) string {
	for _, c := range calls {
		if !submitTools[strings.ToLower(c.Name)] {
			continue
		}
		var args map[string]json.RawMessage
		if json.Unmarshal([]byte(c.Arguments), &args) != nil || len(args) == 0 {
			return ""
		}
		if len(args) == 1 {
			for k, v := range args {
				if !answerArgs[strings.ToLower(k)] && modeFlag(v) {
					return "" // a mode alone: giving up, asking to restart
				}
				return submitted(string(v))
			}
		}
		answer, answers := "", 0
		for k, v := range args {
			switch {
			case answerArgs[strings.ToLower(k)]:
				answer, answers = submitted(string(v)), answers+1
			case !modeFlag(v):
				return ""
			}
		}
		if answers != 1 {
			return "" // two answers handed in are no one answer
		}
		return answer
	}
	return ""
}

// modeFlag reports whether a call's argument only sets how the call acts:
// a boolean, or a mode a tool's schema names, written as one identifier of
// lower-case words joined by underscores ("give_answer"). Such a value is
// no words to the user; a note or a second value beside the answer is,
// and makes the answer argument one of several things handed in.
func modeFlag(v json.RawMessage) bool {
	var b bool
	if json.Unmarshal(v, &b) == nil {
		return true
	}
	var s string
	if json.Unmarshal(v, &s) != nil || !strings.Contains(s, "_") {
		return false
	}
	for _, r := range s {
		if r != '_' && (r < 'a' || r > 'z') {
			return false
		}
	}
	return !strings.HasPrefix(s, "_") && !strings.HasSuffix(s, "_")
}

// submitted is a submission's value as written: a JSON string unquoted,
// a list of strings (components) joined, a string in single quotes
// (Python's) unquoted, any other text as it is.
func submitted(a string) string {
	var one string
	if json.Unmarshal([]byte(a), &one) == nil {
		return cleanAnswer(one)
	}
	var list []string
	if json.Unmarshal([]byte(a), &list) == nil {
		return cleanAnswer(strings.Join(list, ", "))
	}
	if len(a) > 2 && a[0] == '\'' && a[len(a)-1] == '\'' && !strings.ContainsRune(a[1:len(a)-1], '\'') {
		return cleanAnswer(a[1 : len(a)-1])
	}
	return a
}

// unquoteJSON is an answer read inside a JSON string with its escapes
// undone (`\u00e9` is "é", `\"` is a quote); text that is no JSON
// string's inside is as it was.
func unquoteJSON(a string) string {
	if !strings.ContainsRune(a, '\\') {
		return a
	}
	var u string
	if err := json.Unmarshal([]byte(`"`+a+`"`), &u); err != nil {
		return a
	}
	return cleanAnswer(u)
}

// answersAction reports whether the reply at end answers a request for
// an action: a verb of change (changeVerbs) is what it reports done or
// refused, or the user's last turn before it asked for one.
func answersAction(rf *RunFeatures, end int) bool {
	s := &rf.Steps[end]
	for _, v := range s.Done {
		if slices.ContainsFunc(VerbForms(v), func(f string) bool { return changeVerbs[f] }) {
			return true
		}
	}
	if slices.ContainsFunc(s.Refused, func(v string) bool { return changeVerbs[v] }) {
		return true
	}
	for i := end - 1; i >= 0; i-- {
		if rf.steps[i].Kind == run.KindUser {
			return len(rf.Steps[i].Asked) > 0
		}
	}
	return false
}

// hasUser reports whether a user speaks in steps.
func hasUser(steps []run.Step) bool {
	return slices.ContainsFunc(steps, func(s run.Step) bool { return s.Kind == run.KindUser })
}

// repliesToUser reports whether the last of steps answers the user: it
// is by the agent that first took the turn after the user spoke (the one
// the user addressed), or no other agent wrote a message since (an agent
// the first handed the user over to by a call).
func repliesToUser(steps []run.Step) bool {
	last := steps[len(steps)-1].Agent
	from := slices.IndexFunc(steps, func(s run.Step) bool { return s.Kind == run.KindUser })
	if from < 0 {
		return false
	}
	first, others := "", false
	for _, t := range steps[from+1:] {
		if t.Kind == run.KindUser || t.Kind == run.KindToolResult {
			continue
		}
		if first == "" {
			first = t.Agent
		}
		others = others || t.Kind == run.KindMessage && !run.SameAgent(t.Agent, last)
	}
	return run.SameAgent(first, last) || !others
}

// askedAgain reports whether the user, after the task, speaks after an
// agent's message that asks nothing (ends on no question): a new request,
// not an answer to the agent.
func askedAgain(steps []run.Step) bool {
	task := slices.IndexFunc(steps, func(s run.Step) bool { return s.Kind == run.KindUser })
	for i := task + 1; i < len(steps); i++ {
		if steps[i].Kind != run.KindUser || i == 0 || steps[i-1].Kind != run.KindMessage || steps[i-1].Agent == steps[i].Agent {
			continue
		}
		if !strings.HasSuffix(strings.TrimRight(steps[i-1].Content, " \t\n*_)\"'"), "?") {
			return true
		}
	}
	return false
}

// closesWithThanks reports whether step end, the last, is the user's
// closing word to a conversation in which no tool was called: a later
// turn of the user's that states no value and asks nothing ("Thanks!"),
// after an agent's reply. With no tool to act through, that reply is all
// the agent gave, and so its answer; where tools were called, a reply
// before the user's thanks may report an action instead (chooseFinal).
func closesWithThanks(rf *RunFeatures, end int) bool {
	if end < 2 || end >= len(rf.steps) || rf.steps[end].Kind != run.KindUser || rf.steps[end-1].Kind != run.KindMessage ||
		userTurns(rf.steps[:end]) == 0 || len(rf.Steps[end].Claims) > 0 || strings.ContainsRune(rf.steps[end].Content, '?') {
		return false
	}
	return !slices.ContainsFunc(rf.steps[:end], func(s run.Step) bool {
		return s.Kind == run.KindToolCall || s.Kind == run.KindToolResult || len(s.ToolCalls()) > 0
	})
}

// userTurns counts the steps in which the user speaks.
func userTurns(steps []run.Step) int {
	n := 0
	for _, s := range steps {
		if s.Kind == run.KindUser {
			n++
		}
	}
	return n
}

// approvedResult is the answer of a run that stops on an agent's approval
// which states no value itself (a reviewer's "Approved for publication."):
// the result it approved, the last reply before it of another agent that
// states a value and is no tool's output. A report's closing list of its
// sources is no part of its answer. It is nil when the last step is no
// such approval, and when the report tells of a failure ("3 failed"): the
// approval then let a shortfall through, and the report's figures are
// not what the run answered with.
func approvedResult(rf *RunFeatures, end int, agents *agentSet) *FinalAnswer {
	if end < 0 || end >= len(rf.steps) || rf.steps[end].Kind != run.KindMessage {
		return nil
	}
	if f := rf.Steps[end]; !f.Has(KindVerification) || len(f.Claims) > 0 || f.Kinds.Any(unfinishedKinds) || f.FailureWords != nil {
		return nil
	}
	for i := end - 1; i >= 0; i-- {
		s := &rf.steps[i]
		if s.Kind == run.KindUser || s.Kind == run.KindSystem || rf.Steps[i].Has(KindTask) {
			return nil
		}
		if s.Kind != run.KindMessage || rf.Steps[i].Has(KindToolResult) || run.SameAgent(s.Agent, rf.steps[end].Agent) {
			continue
		}
		if claimLine(rf, i, agents, false) == "" || rf.Steps[i].FailureWords != nil {
			return nil
		}
		report := clip(collapse(withoutSources(withoutCode(newText(s.Content)))), 600)
		return newFinal(int(rf.Steps[i].Index), report, SourceLastAnswer, agents, true)
	}
	return nil
}

// sourcesHeadRe reads a line that opens a report's list of its sources.
var sourcesHeadRe = pattern(`^\W{0,6}(?:sources|references|citations|bibliography)\W{0,6}$`, ci)

// sourceLineRe reads a line of a list of sources: "[2] Deutsche WindGuard".
var sourceLineRe = pattern(`^\W{0,3}\[\d{1,3}\]`, 0)

// withoutSources is prose without the list of sources that closes it:
// the lines from a heading of sources on, or the run of reference lines
// ("[1] nasa.gov") that ends it.
func withoutSources(prose string) string {
	lines := strings.Split(prose, "\n")
	end := len(lines)
	for end > 0 && (strings.TrimSpace(lines[end-1]) == "" || newText(strings.TrimSpace(lines[end-1])).has(sourceLineRe)) {
		end--
	}
	for j := range end {
		if newText(strings.TrimSpace(lines[j])).has(sourcesHeadRe) {
			end = j
			break
		}
	}
	if end == 0 {
		return prose
	}
	return strings.Join(lines[:end], "\n")
}

// unfinishedKinds are the kinds of a last step that leaves the work unfinished:
// code to run, a call, a plan or an order.
var unfinishedKinds = KindsOf(KindToolCall, KindPlan, KindReplan, KindInstruction, KindLedger, KindThought)

// lastClaimLine is the answer of a run that terminated without naming one:
// the last line that states a value, in the last step up to the termination
// that is neither a tool's output nor a ledger.
func lastClaimLine(rf *RunFeatures, end int, agents *agentSet) *FinalAnswer {
	for i := end; i >= 0; i-- {
		if line := claimLine(rf, i, agents, false); line != "" {
			return newFinal(int(rf.Steps[i].Index), line, SourceLastAnswer, agents, false)
		}
	}
	return nil
}

// closingCall returns the step before the last, end, when it writes its
// own words beside the calls it makes and the run ends with their
// result: an agent that tells its answer and closes the run with a call
// (a terminate, a finish) in one turn. -1 when there is none, and when
// the words report an action done ("the order is placed"): they answer
// a request for the action, as a closing reply that does (chooseFinal).
func closingCall(rf *RunFeatures, end int) int {
	c := end - 1
	if end != len(rf.Steps)-1 || c < 0 || end >= len(rf.steps) || !rf.Steps[end].Has(KindToolResult) || rf.steps[c].Kind != run.KindToolCall || len(rf.Steps[c].Done) > 0 {
		return -1
	}
	calls := rf.steps[c].ToolCalls()
	if len(calls) == 0 || slices.ContainsFunc(calls, func(tc run.ToolCall) bool { return writesCall(rf.steps[c].Content, tc) }) {
		return -1 // its text writes the calls out (a command in a fence): they are its words
	}
	return c
}

// writesCall reports whether text writes call tc out: its name, or a
// text its arguments give (a command run through a shell tool).
func writesCall(text string, tc run.ToolCall) bool {
	if strings.Contains(text, tc.Name) {
		return true
	}
	var args map[string]any
	if json.Unmarshal([]byte(tc.Arguments), &args) != nil {
		return strings.Contains(text, strings.TrimSpace(tc.Arguments))
	}
	for _, v := range args {
		if s, ok := v.(string); ok && strings.TrimSpace(s) != "" && strings.Contains(text, strings.TrimSpace(s)) {
			return true
		}
	}
	return false
}

// claimLine is the last line of step i's prose that states a value, when
// the step is neither a tool's output, a ledger nor a notice that the run
// reached its turn limit (whose figures are the limit's); with closing, only its
// last line, which must then state one. An order or a shout (but for a
// figure stated in capitals, answerBlanks) is not the answer, whoever
// wrote it; agent names are not values: "@Reviewer, please
// finalize" states nothing, and a run must read the same whatever its
// agents are called.
func claimLine(rf *RunFeatures, i int, agents *agentSet, closing bool) string {
	f := rf.Steps[i]
	if f.Has(KindToolResult) || f.Ledger != nil || f.TurnLimit || i >= len(rf.steps) {
		return ""
	}
	prose := withoutSources(withoutCode(newText(rf.steps[i].Content)))
	// A call and the result it gave states a value however small or
	// plain it is ("median([3, 1, 4, 2]) returns 3", "returns False").
	results := newText(prose).has(callResultRe) || newText(prose).has(namedResultRe) || newText(prose).has(constResultRe)
	if len(f.Claims) == 0 && !results {
		return ""
	}
	lines := strings.Split(prose, "\n")
	for j := len(lines) - 1; j >= 0; j-- {
		line := strings.TrimSpace(lines[j])
		if line == "" || !hasLetters(line) {
			continue
		}
		if len(answerBlanks(line, ordersOrShouts(line))) == 0 && (len(claimsOf(newText(line), agents, true)) > 0 || results && (newText(line).has(callResultRe) || newText(line).has(namedResultRe) || newText(line).has(constResultRe))) {
			return clip(line, 300)
		}
		if closing {
			return ""
		}
	}
	return ""
}

// newFinal is the answer text at step, read leniently ("Yamasaki,
// Sugiyura" is two names), or, for a sentence, as any step is: the
// capitalised word opening a closing reply ("Shipping a 10 kg parcel costs
// $25.00.") is no value of the answer.
func newFinal(step int, text, source string, agents *agentSet, sentence bool) *FinalAnswer {
	text = strings.TrimSpace(text)
	claims := claimsOf(newText(text), agents, sentence)
	if n, ok := wholeWordNumber(text); ok {
		claims = dedupe(append(claims, n))
	}
	fa := &FinalAnswer{Step: step, Text: text, Claims: claims, Source: source}
	return withConstResult(withCallResult(fa))
}

// constResultRe reads a named constant, in the upper case with
// underscores code gives constants, written with the value it is said to
// hold ("MAX_RETRIES is 3", "`SESSION_TTL` = 900", "DEFAULT_UNIT is set
// to celsius"): the name in "c", the value (a number, a word, a quoted
// string) in "v".
var constResultRe = pattern(`(?<![\w.])`+"`?"+`(?<c>[A-Z][A-Z0-9]{0,40}(?:_[A-Z0-9]{1,40}){1,8})`+"`?"+`(?:[ \t]{0,4}={1,2}|[ \t]{1,4}(?:is(?:[ \t]{1,4}(?:now|set[ \t]{1,4}to))?|equals))[ \t]{1,4}`+"`?"+`(?<v>-?\d{1,20}(?:\.\d{1,20})?(?![\w.]\w)|[A-Za-z_]\w{0,60}|"[^"\n]{1,80}"|'[^'\n]{1,80}')`, 0)

// withConstResult is the answer with the named constant whose value it
// states, when it states one and no call's result: the last such
// constant is the answer's.
func withConstResult(fa *FinalAnswer) *FinalAnswer {
	if len(fa.Calls) > 0 {
		return fa
	}
	t := newText(fa.Text)
	ms := t.all(constResultRe, 0)
	if len(ms) == 0 {
		return fa
	}
	last := ms[len(ms)-1]
	fa.Const, fa.ConstValue = t.named(last, "c"), strings.Trim(t.named(last, "v"), `"'`)
	return fa
}

// callResultRe reads a call written with its arguments and the result it
// is said to give ("can_register(18) returns False", "vat_amount(100) ==
// 19.0", "len(attention(SAMPLE)) returns 1"), the call quoted as code or
// not, the verb after an adverb of time or fact ("`parse('1h30m')` now
// returns 5400", "still returns False"): the function in "f", its
// arguments (calls among them, one deep) in "args".
var callResultRe = pattern(`(?<![\w.])(?<f>[A-Za-z_]\w{0,80})\((?<args>(?:[^()\n]|\([^()\n]{0,200}\)){0,200})\)`+"`?"+`[ \t]{0,4}(?:(?:now|still|already|correctly|actually|indeed|also|again)[ \t]{1,4})?(?:returns|returned|gives|gave|yields|yielded|evaluates[ \t]to|==|=>|->|→)(?![\w=>])`, 0)

// namedResultRe reads a function named as code without its arguments,
// with the result it is said to give ("top_player returns chen",
// "`rankPlayers` now returns Ana first"): a name with an underscore or a
// capital inside, or quoted as code, so that a plain word ("it returns",
// "the page gives") names no function.
var namedResultRe = pattern(`(?<![\w.(])(?:`+"`"+`(?<f>[A-Za-z_]\w{0,80})`+"`"+`|(?<f>[A-Za-z]\w{0,80}_\w{1,80}|[a-z]{1,40}[A-Z]\w{0,80}))[ \t]{1,4}(?:(?:now|still|already|correctly|actually|indeed|also|again)[ \t]{1,4})?(?:returns|returned|gives|gave|yields|yielded)(?![\w=>])`, 0)

// withCallResult is the answer with the functions of the call whose
// result it states, when it states one, and without the claims its
// arguments hold: "can_register(18) returns False" reports False, the
// value of a call given 18, as one fact. The last such call is the
// answer's.
func withCallResult(fa *FinalAnswer) *FinalAnswer {
	t := newText(fa.Text)
	ms := t.all(callResultRe, 0)
	if len(ms) == 0 {
		if bare := t.all(namedResultRe, 0); len(bare) > 0 {
			fa.Calls = []string{t.named(bare[len(bare)-1], "f")}
		}
		return fa
	}
	args := func(m match) span { return m.Groups[callResultRe.GroupIndex("args")] }
	last := ms[len(ms)-1]
	fa.Calls = append([]string{t.named(last, "f")}, calledIn(t.str(args(last)))...)
	fa.Claims = slices.DeleteFunc(fa.Claims, func(c Claim) bool {
		return slices.ContainsFunc(ms, func(m match) bool {
			a := args(m)
			return int(c.Offset) >= a.Start && int(c.Offset) < a.End
		})
	})
	return fa
}

// calledIn returns the names a call's arguments call ("attention" of
// "attention(SAMPLE)"), in the order written.
func calledIn(args string) []string {
	var out []string
	for i := strings.IndexByte(args, '('); i > 0; i = strings.IndexByte(args, '(') {
		j := i
		for j > 0 && (nameByte(args[j-1])) {
			j--
		}
		if j < i && !isDigit(args[j]) {
			out = appendNew(out, args[j:i])
		}
		args = args[i+1:]
	}
	return out
}

// wholeWordNumber reads an answer that is a number in words and nothing
// else ("six", "Twenty-four.") as that number: the whole answer is the
// value, however it is spelt, where in a sentence a number word may be
// an article or a pronoun.
func wholeWordNumber(text string) (Claim, bool) {
	spans := wordNumberSpans(text)
	if len(spans) != 1 {
		return Claim{}, false
	}
	n := spans[0]
	if strings.Trim(text[:n.start], " *_\x60") != "" || strings.Trim(text[n.end:], " .!*_\x60") != "" {
		return Claim{}, false
	}
	return Claim{Kind: ClaimNumber, Text: text[n.start:n.end], Norm: strconv.FormatFloat(n.value, 'f', -1, 64), Offset: int32(n.start)}, true
}

// replyValues is a reply's answer with the numbers it writes in words
// (withCounts) and, when it replies to the one question the user asked,
// the values it states in words claimsOf does not read (withWords).
func replyValues(fa *FinalAnswer, rf *RunFeatures, question string) *FinalAnswer {
	fa = withCounts(fa)
	if userTurns(rf.steps[:fa.Step]) == 1 {
		fa = withWords(fa, rf, question, rf.groundTruth)
	}
	return fa
}

// withCounts adds to a reply's answer the numbers it writes in words
// ("Mars has three moons", "fifteen players"), as number claims: a count
// told to a person is the answer's value however it is written. A lone
// "one" is left out, as often a pronoun ("the one that") as a count, and
// so is a multiplier after a figure ("5.3 million"), part of a number
// claimsOf reads. Only a reply to a user is read so: reading them in
// every final answer, where agents hand one on, read the labelled
// systems worse.
func withCounts(fa *FinalAnswer) *FinalAnswer {
	text := fa.Text
	var out []Claim
	for _, n := range wordNumberSpans(text) {
		if n.value == 1 && strings.EqualFold(text[n.start:n.end], "one") || afterDigits(text, n.start) {
			continue
		}
		out = append(out, Claim{Kind: ClaimNumber, Text: text[n.start:n.end], Norm: strconv.FormatFloat(n.value, 'f', -1, 64), Offset: int32(n.start)})
	}
	if len(out) > 0 {
		fa.Claims = dedupe(append(fa.Claims, out...))
	}
	return fa
}

// afterDigits reports whether the word at text[at:] follows a figure
// ("5.3 million"): it is part of that number, which claimsOf reads.
func afterDigits(text string, at int) bool {
	before := strings.TrimRight(text[:at], " ")
	return before != "" && isDigit(before[len(before)-1])
}

// isWordRune reports a letter or a digit.
func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
