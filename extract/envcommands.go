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
	add := func(cmd string, offset int) {
		if name := cmd[:strings.IndexAny(cmd+"( \t", "( \t")]; name != "" && !closingActions[name] {
			out = append(out, Call{Name: name, Args: cmd, Offset: offset})
		}
	}
	for _, m := range t.all(envActionRe, 10) {
		a := m.Groups[0]
		for i, n := range m.Names {
			if n == "a" {
				a = m.Groups[i]
			}
		}
		add(strings.TrimSpace(t.named(m, "a")), a.Start)
	}
	for _, m := range t.all(pageActionRe, 10) {
		add(strings.TrimSpace(t.named(m, "a")), m.Whole().Start)
	}
	if cmd, ok := envCommand(content, rc.verbs); ok {
		add(cmd, strings.Index(content, strings.Fields(cmd)[0]))
	}
	rc.commanded = len(out) > 0
	return out
}
