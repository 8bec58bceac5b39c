package extract

import (
	"encoding/json"
	"slices"
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
	// the picking agent writes, in lower case.
	Passed []string `json:"passed"`
}

// Choice bounds: an offer lists at least two choices, each a short label
// on one line; an offer of more is cut to the first ones.
const (
	minChoices   = 2
	maxChoices   = 200
	maxChoiceLen = 60
)

// passOver sets PassedOver on each agent's step that picks, of the
// choices the tool result right before it offers, only ones the task does
// not name, while the task names others of the offer that no step of that
// agent writes once they were first offered: it chose past what it was
// asked for (a colour, a size, the item the task named) or moved on
// (bought) without it.
func passOver(r *run.Run, rf *RunFeatures) {
	task := strings.ToLower(r.Question)
	if task == "" {
		return
	}
	texts := make([]string, len(r.Steps)) // each agent step's text and call arguments, in lower case
	for i, s := range r.Steps {
		if agentChoosing(r, rf, i) {
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
	for j := range r.Steps {
		if rf.Steps[j].Has(KindToolResult) {
			offers[j] = offered(r.Steps[j].Content)
		}
	}
	for j := 0; j+1 < len(r.Steps); j++ {
		i := j + 1
		if texts[i] == "" {
			continue
		}
		var named, picked []string
		for _, o := range offers[j] {
			if choiceHeld(task, o) {
				named = append(named, o)
			} else if choiceHeld(texts[i], o) {
				picked = append(picked, o)
			}
		}
		if len(named) == 0 || len(picked) == 0 || slices.ContainsFunc(named, func(o string) bool { return choiceHeld(texts[i], o) }) {
			continue
		}
		me := run.AgentKey(r.Steps[i].Agent)
		var passed []string
		for _, o := range named {
			// Since the choice was first offered: a step before that
			// wrote it as a wish (a search's words), not as a pick.
			from := slices.IndexFunc(offers, func(l []string) bool { return slices.Contains(l, o) })
			if !writtenSince(texts, r, from, me, o) {
				passed = append(passed, o)
			}
		}
		if len(passed) == 0 {
			continue
		}
		rf.Steps[i] = rf.Steps[i].Clone()
		rf.Steps[i].Details.Rare.PassedOver = &Choice{Offer: j, Picked: picked, Passed: passed}
	}
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

// agentChoosing reports whether step i is an agent's own: not the user's,
// the system's, or a tool's output.
func agentChoosing(r *run.Run, rf *RunFeatures, i int) bool {
	switch r.Steps[i].Kind {
	case run.KindUser, run.KindSystem, run.KindToolResult:
		return false
	}
	return !rf.Steps[i].Has(KindToolResult)
}

// offered returns the choices a tool's output lists as JSON: a list of
// short strings, the output itself or a field of its object (a page's
// "clickables"), in lower case; the output may be the JSON alone, or
// text that ends in it ("Available Actions:" and the object). nil when
// it lists none.
func offered(content string) []string {
	v, _, ok := toolJSON(content)
	if !ok {
		k := max(strings.LastIndex(content, "\n{"), strings.LastIndex(content, "\n["))
		if k < 0 || len(content) > maxIDScan {
			return nil
		}
		dec := json.NewDecoder(strings.NewReader(content[k+1:]))
		if dec.Decode(&v) != nil {
			return nil
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
