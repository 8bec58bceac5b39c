package extract

import (
	"strings"

	"github.com/offattr/offattr/run"
)

// A text environment (a household, a game, a science lab) is acted on by
// plain commands, a verb and its objects on a line of their own ("go to
// countertop 1", "take mug 1 from countertop 1", "> open mailbox"), and
// answers each in its next turn. The harness shows the agent the
// commands it takes: as templates in its instructions ("go to X, take X
// from Y, put X in/on Y") or as examples of a transcript ("> go to
// cabinet 1"). A step that is such a command issues it, as a step that
// calls a tool does, and the environment's next turn is its result.

// Command bounds: a template or a command is a few words on one line.
const (
	maxCommandWords = 10
	maxCommandLen   = 120
	maxVerbLen      = 15
	minTemplates    = 3 // a list of templates holds this many at least
	// maxHarnessText bounds how much of each harness text is read for
	// its commands' templates.
	maxHarnessText = 64 << 10
)

// harnessVerbs returns the verbs of the commands the harness's texts
// show: the first word of each template of a list of them (at least
// minTemplates items in a row, two of them with a placeholder: "go to
// X", "move OBJ to OBJ"; those before the first placeholder's item are
// prose that leads into the list), and of each example line a prompt
// writes after "> ".
func harnessVerbs(texts ...string) map[string]bool {
	verbs := map[string]bool{}
	for _, text := range texts {
		text = text[:min(len(text), maxHarnessText)]
		var row []string // the current row of template-shaped items
		holes := 0       // how many of row have a placeholder
		flush := func() {
			if len(row) >= minTemplates && holes >= 2 {
				for _, v := range row {
					verbs[v] = true
				}
			}
			row, holes = row[:0], 0
		}
		for _, item := range strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(",;():\n", r) }) {
			verb, hole, ok := template(item)
			switch {
			case !ok:
				flush()
			case hole:
				row = append(row, verb)
				holes++
			case holes > 0:
				row = append(row, verb)
			}
		}
		flush()
		for _, line := range strings.Split(text, "\n") {
			if cmd, ok := strings.CutPrefix(strings.TrimSpace(line), "> "); ok {
				if w := strings.Fields(cmd); len(w) >= 2 && len(w) <= maxCommandWords && commandWord(w[0]) {
					verbs[w[0]] = true
				}
			}
		}
	}
	return verbs
}

// template reads an item of a list as a command's template: lower-case
// words, the first a verb, and placeholders in capitals ("X", "OBJ",
// "LOCATION") for its objects; hole is whether it has a placeholder.
// An item may open with "or", "and" or "e.g." and end with a full stop.
func template(item string) (verb string, hole, ok bool) {
	w := strings.Fields(strings.TrimRight(strings.TrimSpace(item), "."))
	for len(w) > 0 && (w[0] == "or" || w[0] == "and" || w[0] == "e.g.") {
		w = w[1:]
	}
	if len(w) == 0 || len(w) > 6 || !commandWord(w[0]) {
		return "", false, false
	}
	for _, x := range w[1:] {
		switch {
		case placeholder(x):
			hole = true
		case !lowerWord(x):
			return "", false, false
		}
	}
	return w[0], hole, true
}

// commandWord reports whether w can be a command's verb: lower-case
// letters, and digits after them ("wait1").
func commandWord(w string) bool {
	if w == "" || len(w) > maxVerbLen || w[0] < 'a' || w[0] > 'z' {
		return false
	}
	for i := 1; i < len(w); i++ {
		if !(w[i] >= 'a' && w[i] <= 'z' || w[i] >= '0' && w[i] <= '9') {
			return false
		}
	}
	return true
}

// lowerWord reports whether w is a template's word: lower-case letters,
// with a slash between alternatives ("in/on").
func lowerWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if !(w[i] >= 'a' && w[i] <= 'z' || w[i] == '/') {
			return false
		}
	}
	return w != ""
}

// placeholder reports whether w stands for an object in a template: a
// word in capitals ("X", "OBJ", "LOCATION"), up to 12 letters.
func placeholder(w string) bool {
	if w == "" || len(w) > 12 {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'A' || w[i] > 'Z' {
			return false
		}
	}
	return true
}

// envCommand returns the command a step's text gives a text environment:
// its one line, a verb of the harness's (verbs) and its objects, or any
// such line after a prompt's "> "; ok is false when the text is not one.
func envCommand(content string, verbs map[string]bool) (cmd string, ok bool) {
	line := strings.TrimSpace(content)
	if line == "" || len(line) > maxCommandLen || strings.ContainsAny(line, "\n\r") {
		return "", false
	}
	line, prompted := strings.CutPrefix(line, "> ")
	w := strings.Fields(line)
	if len(w) == 0 || len(w) > maxCommandWords || !commandWord(w[0]) || !prompted && !verbs[w[0]] {
		return "", false
	}
	return strings.Join(w, " "), true
}

// harnessTexts are the texts of a run that show its harness's commands:
// its instructions, its system steps, and the first step that gives the
// task (a completion prompt's examples and the task together).
func harnessTexts(r *run.Run) []string {
	out := []string{r.Instructions}
	for _, s := range r.Steps {
		if s.Kind == run.KindSystem {
			out = append(out, s.Content)
			continue
		}
		out = append(out, s.Content)
		break
	}
	return out
}

// closingActions are the page actions that end a web agent's run with
// its answer (WebArena's stop, BrowserGym's send_msg_to_user): the
// answer, read as one, not a command the page answers.
var closingActions = map[string]bool{"stop": true, "send_msg_to_user": true}

// envCalls returns the commands a step gives a text environment, each as
// a call of its verb with the command as written: the line after
// AgentBench's "ACTION:", a web agent's fenced or tagged action on a page
// (pageActionRe), or the step's one line (envCommand). A
// command lays out no work, as a tool call does not: the call is not
// code. It notes that the step gave a command, for the next step.
func (rc *runContext) envCalls(content string, t *text) []Call {
	var out []Call
	add := func(cmd string, offset int, values []string) {
		if name := cmd[:strings.IndexAny(cmd+"( \t", "( \t")]; name != "" && !closingActions[name] {
			out = append(out, Call{Name: name, Args: cmd, Values: values, Offset: offset, OnPage: true})
		}
	}
	for _, m := range t.all(envActionRe, 10) {
		a := m.Groups[0]
		for i, n := range m.Names {
			if n == "a" {
				a = m.Groups[i]
			}
		}
		cmd := strings.TrimSpace(t.named(m, "a"))
		values := entered(cmd)
		if op, v, ok := elementOperation(cmd); ok {
			// Mind2Web's action names the element, then the operation
			// and what it enters: "[textbox]  Pick-up date -> TYPE:
			// 04/21/2024".
			cmd, values = op+" "+cmd, v
		} else if entryActions[strings.ToLower(cmd)] {
			// SeeAct's answer names the action alone and gives what it
			// types or selects on a line of its own ("ACTION: TYPE",
			// "VALUE: New York").
			values = actionValue(content[a.End:])
		}
		add(cmd, a.Start, values)
	}
	for _, m := range t.all(pageActionRe, 10) {
		cmd := strings.TrimSpace(t.named(m, "a"))
		add(cmd, m.Whole().Start, entered(cmd))
	}
	if cmd, ok := envCommand(content, rc.verbs); ok {
		add(cmd, strings.Index(content, strings.Fields(cmd)[0]), nil)
	}
	rc.commanded = len(out) > 0
	return out
}

// entryActions are the page actions that put a value into an element:
// the text typed into a field (WebArena's type, BrowserGym's fill,
// SeeAct's TYPE) or the option chosen in a menu (select_option, SELECT).
var entryActions = map[string]bool{"type": true, "fill": true, "select_option": true, "select": true}

// entered returns the values a page action puts into the element it
// acts on, as written: its arguments after the element's id ("type [87]
// [blue jacket] [1]", "fill('a12', 'blue jacket')",
// "select_option('a31', ['Red', 'Blue'])"), but WebArena's closing flag
// of whether to press Enter. A value the agent types is a value its
// action acts on, as a tool call's argument is; nil for an action that
// enters none.
func entered(cmd string) []string {
	name := cmd[:strings.IndexAny(cmd+"( \t", "( \t")]
	if !entryActions[name] {
		return nil
	}
	args, bracketed := actionArgs(cmd[len(name):])
	if len(args) < 2 || !elementID(args[0]) {
		return nil
	}
	args = args[1:]
	if bracketed && len(args) == 2 && (args[1] == "0" || args[1] == "1") {
		args = args[:1]
	}
	var out []string
	for _, a := range args {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// maxValueLines bounds how far after its action a value's line is.
const maxValueLines = 3

// actionArgs returns the arguments an action's text after its verb
// gives: each bracketed one ("[87] [blue jacket] [1]"), or each quoted
// one of a call ("('a12', \"it's blue\")"); bracketed says which.
func actionArgs(rest string) (args []string, bracketed bool) {
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "[") {
		for strings.HasPrefix(rest, "[") {
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				break
			}
			args = append(args, rest[1:end])
			rest = strings.TrimSpace(rest[end+1:])
		}
		return args, true
	}
	for k := 0; k < len(rest); k++ {
		q := rest[k]
		if q != '\'' && q != '"' {
			continue
		}
		var b strings.Builder
		j := k + 1
		for ; j < len(rest) && rest[j] != q; j++ {
			if rest[j] == '\\' && j+1 < len(rest) {
				j++
			}
			b.WriteByte(rest[j])
		}
		if j >= len(rest) {
			break
		}
		args = append(args, b.String())
		k = j
	}
	return args, false
}

// actionValue returns the value on the "VALUE:" line that follows an
// action named alone, within the next few lines; nil when none does or
// it is "None".
func actionValue(after string) []string {
	lines := strings.SplitN(after, "\n", maxValueLines+1)
	for _, line := range lines[:min(len(lines), maxValueLines)] {
		line = strings.TrimLeft(strings.TrimSpace(line), "*")
		v, ok := strings.CutPrefix(line, "VALUE:")
		if !ok {
			continue
		}
		if v = strings.TrimSpace(strings.Trim(strings.TrimSpace(v), "*")); v != "" && v != "None" {
			return []string{v}
		}
		return nil
	}
	return nil
}

// elementOperation reads an action written as Mind2Web writes it, the
// element's tag in brackets and its text, then the operation and the
// value it enters ("[combobox]  From -> TYPE: New York", "[button]
// Search -> CLICK"): the operation in lower case and, for one that types
// or selects, the value. ok is false for any other text.
func elementOperation(cmd string) (op string, values []string, ok bool) {
	tag, rest, found := strings.Cut(cmd, "]")
	if !found || !strings.HasPrefix(tag, "[") || !commandWord(strings.ToLower(tag[1:])) {
		return "", nil, false
	}
	k := strings.LastIndex(rest, " -> ")
	if k < 0 {
		return "", nil, false
	}
	op, value, _ := strings.Cut(rest[k+len(" -> "):], ":")
	op = strings.ToLower(strings.TrimSpace(op))
	if !commandWord(op) {
		return "", nil, false
	}
	if v := strings.TrimSpace(value); v != "" && entryActions[op] {
		values = []string{v}
	}
	return op, values, true
}

// minDocCalls is how many lines of calls a text holds at least for them
// to document a harness's actions.
const minDocCalls = 3

// withoutActionDocs returns a task without the documentation of the
// actions a harness gives beside it (BrowserGym's action space: each
// action's signature, "fill(bid: str, value: str)", and its examples,
// "fill('237', 'example value')"): the lines that are a call alone, when
// the text holds minDocCalls of them or more. What the examples give is
// no value of the task. A text with fewer is returned whole.
func withoutActionDocs(task string) string {
	if strings.Count(task, "(") < minDocCalls {
		return task
	}
	lines := strings.Split(task, "\n")
	n := 0
	for _, l := range lines {
		if callLine(l) {
			n++
		}
	}
	if n < minDocCalls {
		return task
	}
	var b strings.Builder
	for _, l := range lines {
		if !callLine(l) {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// callLine reports whether a line is a call alone: a lower-case name
// (letters, digits, underscores and dots), its arguments in parentheses,
// and nothing after them.
func callLine(l string) bool {
	l = strings.TrimSpace(l)
	k := strings.IndexByte(l, '(')
	if k < 1 || !strings.HasSuffix(l, ")") {
		return false
	}
	for i := 0; i < k; i++ {
		if c := l[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}
