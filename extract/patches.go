package extract

import (
	"slices"
	"strings"
	"unicode"

	"github.com/offattr/offattr/run"
)

// PatchOrigin is, for a run that answers by handing a unified diff to a
// tool that gives the final answer (final_answer, submit_answer), where the
// change the diff makes was first written: the earliest step after the
// task that writes a line the diff adds, the task's own lines aside. A
// tool result that prints such a line stands for the step whose call
// printed it. The answer is that change; the step that first wrote it
// decided it.
//
// For a task that asks for a patch (it says patch or diff, and shows one
// or names git apply) whose answering call hands over none (a function's
// source, a question to the user), NotPatch is set and Step is the step
// that chose to hand it over: the agent's last step before the call that
// is not a tool's result, or the call's own.
type PatchOrigin struct {
	Answer   int    `json:"answer"` // the step of the answering call
	Step     int    `json:"step"`
	Line     string `json:"line,omitempty"` // the added line that step writes first, its spacing squashed
	NotPatch bool   `json:"not_patch,omitempty"`
}

// maxPatchLines bounds the added lines looked for.
const maxPatchLines = 40

// patchOrigin reads rf's PatchOrigin; nil when the run's last answering
// call hands over no diff, or no step before it writes a line it adds.
func patchOrigin(steps []run.Step, question string, rf *RunFeatures) *PatchOrigin {
	answer, diff, lines := -1, false, []string(nil)
	for i := len(rf.Steps) - 1; i >= 0 && answer < 0; i-- {
		for _, c := range rf.Steps[i].Calls {
			if w := nameWords(c.Name); len(w) == 0 || !answers(w) {
				continue
			}
			answer = i
			for _, v := range c.Values {
				diff = diff || isDiff(v)
				lines = append(lines, addedLines(v, Squash(question))...)
			}
			break
		}
	}
	if answer >= 0 && !diff && asksPatch(question) && slices.ContainsFunc(rf.Steps[answer].Calls, func(c Call) bool { return len(c.Values) > 0 }) {
		chose := answer
		for j := answer - 1; j >= 0 && run.SameAgent(steps[j].Agent, steps[answer].Agent); j-- {
			if !rf.Steps[j].Has(KindToolResult) {
				chose = j
				break
			}
		}
		return &PatchOrigin{Answer: answer, Step: chose, NotPatch: true}
	}
	if len(lines) == 0 {
		return nil
	}
	for j := range answer {
		f := &rf.Steps[j]
		if f.Has(KindTask) {
			continue
		}
		text := Squash(steps[j].Content)
		for _, l := range lines {
			if !strings.Contains(text, l) {
				continue
			}
			at := j
			if c := int(f.Caller); f.Has(KindToolResult) && c >= 0 && c < j {
				at = c
			}
			return &PatchOrigin{Answer: answer, Step: at, Line: l}
		}
	}
	return nil
}

// addedLines returns the lines diff, a unified diff, adds, each squashed,
// that the task (task, squashed) does not write, that the diff does not
// also remove (a line moved is code the file held, written by no step),
// and that say something (eight bytes or more, a letter among them); nil
// when diff is none.
func addedLines(diff, task string) []string {
	if !isDiff(diff) {
		return nil
	}
	removed := map[string]bool{}
	for line := range strings.SplitSeq(diff, "\n") {
		if strings.HasPrefix(line, "-") && !strings.HasPrefix(line, "---") {
			removed[Squash(line[1:])] = true
		}
	}
	var out []string
	for line := range strings.SplitSeq(diff, "\n") {
		if !strings.HasPrefix(line, "+") || strings.HasPrefix(line, "+++") {
			continue
		}
		l := Squash(line[1:])
		if len(l) < 8 || strings.IndexFunc(l, unicode.IsLetter) < 0 || strings.Contains(task, l) || removed[l] {
			continue
		}
		out = append(out, l)
		if len(out) == maxPatchLines {
			break
		}
	}
	return out
}

// isDiff reports whether s is a unified diff: a file header's "+++" line
// and a hunk.
func isDiff(s string) bool {
	return strings.Contains(s, "\n+++ ") && strings.Contains(s, "\n@@ ")
}

// asksPatch reports whether a task asks for a patch: a sentence of it
// that says patch or diff asks for one (a verb of handing over or making
// stands in it: "respond with a single patch file", "generate a diff"),
// and it shows one (its file headers) or names the command that applies
// one. A task that only shows a patch, and asks a question about it, asks
// for none.
func asksPatch(task string) bool {
	t := strings.ToLower(task)
	if !slices.ContainsFunc(sentencesOf(t), func(s string) bool {
		return (containsToken(s, "patch") || containsToken(s, "diff")) && slices.ContainsFunc(patchRequests, func(v string) bool { return containsToken(s, v) })
	}) {
		return false
	}
	return strings.Contains(t, "--- a/") && strings.Contains(t, "+++ b/") || strings.Contains(t, "git apply") || strings.Contains(t, "unified diff")
}

// patchRequests are the verbs by which a task asks for a patch.
var patchRequests = []string{"generate", "generating", "write", "writing", "produce", "producing", "respond", "return", "returning", "give", "provide", "providing", "create", "creating", "submit", "output", "send"}
