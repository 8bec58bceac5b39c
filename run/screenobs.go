package run

import (
	"strings"
	"unicode"
)

// taskWords are the words a label naming a run's task ends with.
var taskWords = map[string]bool{"task": true, "objective": true, "goal": true, "intent": true}

// maxObservationLabel bounds the label an observation turn opens with
// ("Accessibility tree:", "Screen text (OCR):"): a harness's heading, not
// a sentence of a request.
const maxObservationLabel = 80

// screenObservations reads the user turns a harness writes to show an
// agent its screen (an accessibility tree, a screen's text, a screenshot)
// as what they are: the results of the agent's actions. A harness writes
// every such turn under one heading, so a user turn is an observation
// when another user turn opens with the same heading and no line of it
// states the task (WebArena's "OBJECTIVE: …" restated in each turn makes
// a turn a request); one that follows
// an agent's turn is that turn's result, and the tool's. Where the first
// user turn is itself an observation and the system prompt states the
// task on a labelled line ("You are asked to complete the following
// task: …"), that line is the run's task, not the screen.
func screenObservations(r *Run) {
	labels := map[string]int{}
	for _, s := range r.Steps {
		if s.Kind == KindUser {
			if l := observationLabel(s.Content); l != "" {
				labels[l]++
			}
		}
	}
	observed := func(s Step) bool {
		return s.Kind == KindUser && labels[observationLabel(s.Content)] >= 2 && !statesTask(s.Content)
	}
	firstUser := true
	for i := range r.Steps {
		s := &r.Steps[i]
		if s.Kind != KindUser {
			continue
		}
		first := firstUser
		firstUser = false
		if !observed(*s) {
			continue
		}
		if first {
			if r.Question == "" {
				r.Question = systemTask(r)
			}
			continue
		}
		if i > 0 && actedBefore(r.Steps, i) {
			s.Kind, s.Agent = KindToolResult, "tool"
		}
	}
}

// actedBefore reports whether the step before i is an agent's action:
// a call, its output, or a turn that writes its action as a code block
// (OSWorld's pyautogui code), which the observation then answers for. A
// turn of words alone acted on nothing an observation could answer.
func actedBefore(steps []Step, i int) bool {
	p := steps[i-1]
	return p.Kind == KindToolCall || p.Kind == KindToolResult || p.Kind == KindMessage && strings.Contains(p.Content, "```")
}

// observationLabel returns the heading a turn's text opens with: its
// first line up to a colon, or the whole line when it has none and ends
// no sentence ("[Current state starts here]"; a game's reply to a command
// is a sentence, not a heading); "" when the heading is longer than one,
// holds no letter, or heads nothing (a turn of one line and no colon,
// "yes go ahead", is a user's reply, however often it is written).
func observationLabel(text string) string {
	line, below, more := strings.Cut(strings.TrimSpace(text), "\n")
	head, rest, ok := strings.Cut(line, ":")
	head = strings.TrimSpace(head)
	if !ok && strings.ContainsAny(head[max(len(head)-1, 0):], ".!?") || len(head) > maxObservationLabel || !strings.ContainsFunc(head, unicode.IsLetter) {
		return ""
	}
	if strings.TrimSpace(rest) == "" && (!more || strings.TrimSpace(below) == "") {
		return ""
	}
	return head
}

// statesTask reports whether a line of text states the task under a
// label naming it (labelledTask).
func statesTask(text string) bool {
	for line := range strings.SplitSeq(text, "\n") {
		if labelledTask(line) != "" {
			return true
		}
	}
	return false
}

// systemTask returns the task a run's system prompt (its instructions, or
// a system step's text) states on a line that a label naming the task
// opens or leads to ("Task: …", "… the following task: …"), the last such
// line; "" when it states none.
func systemTask(r *Run) string {
	texts := []string{r.Instructions}
	for _, s := range r.Steps {
		if s.Kind == KindSystem {
			texts = append(texts, s.Content)
		}
	}
	task := ""
	for _, text := range texts {
		for line := range strings.SplitSeq(text, "\n") {
			if t := labelledTask(line); t != "" {
				task = t
			}
		}
	}
	return task
}

// labelledTask returns the rest of a line after a colon that closes a
// label naming the task ("Task:", "OBJECTIVE:", "You are asked to
// complete the following task:"), "" for a line with no such label or
// nothing after it.
func labelledTask(line string) string {
	head, rest, ok := strings.Cut(line, ":")
	if !ok || len(head) > maxObservationLabel {
		return ""
	}
	words := strings.Fields(strings.ToLower(head))
	if len(words) == 0 || !taskWords[words[len(words)-1]] {
		return ""
	}
	rest = strings.TrimSpace(rest)
	if !strings.ContainsFunc(rest, unicode.IsLetter) {
		return ""
	}
	return rest
}
