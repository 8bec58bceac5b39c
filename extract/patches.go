package extract

import (
	"encoding/json"
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
// decided it. A line the diff changes counts by its change too: the part
// of the added line that differs from the removed line it replaces, grown
// by whole tokens until the task does not write it ("np.eye(n)" where "=
// 1" stood), so a step that wrote the change in its own words or in a
// stand-in is found.
//
// A diff that cannot apply to the code the task shows is decided where it
// was written so: a line a hunk removes or keeps as context that the task
// does not write while it writes others of the hunk (a line retyped from
// memory) makes Step the earliest step that writes it, and Stale is set:
// the change may be right; the patch never applies. A file the diff edits
// that the task does not name where it names others (code written from
// memory) does so too, when it was written no later than the change: the
// choice of file and the change were one decision.
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
	Stale    bool   `json:"stale,omitempty"` // Line is one the task's code does not have
}

// maxPatchLines bounds the added lines looked for.
const maxPatchLines = 40

// patchOrigin reads rf's PatchOrigin; nil when the run's last answering
// call (or a result that restates one, restatedAnswer) hands over no
// diff, or no step before it writes a line it adds.
func patchOrigin(steps []run.Step, question string, rf *RunFeatures) *PatchOrigin {
	answer, diff := -1, false
	var d diffRead
	var values []string
	for i := len(rf.Steps) - 1; i >= 0 && answer < 0; i-- {
		for _, c := range rf.Steps[i].Calls {
			if w := nameWords(c.Name); len(w) == 0 || !answers(w) {
				continue
			}
			answer, values = i, c.Values
			break
		}
		if answer < 0 && rf.Steps[i].Has(KindToolResult) {
			if v, ok := restatedAnswer(steps[i].Content); ok {
				answer, values = i, []string{v}
			}
		}
	}
	for _, v := range values {
		diff = diff || isDiff(v)
		d.read(v, question)
	}
	if answer >= 0 && !diff && asksPatch(question) && slices.ContainsFunc(values, func(v string) bool { return v != "" }) {
		chose := answer
		for j := answer - 1; j >= 0 && run.SameAgent(steps[j].Agent, steps[answer].Agent); j-- {
			if !rf.Steps[j].Has(KindToolResult) {
				chose = j
				break
			}
		}
		return &PatchOrigin{Answer: answer, Step: chose, NotPatch: true}
	}
	if po := firstWriter(steps, rf, answer, Squash, d.stale); po != nil {
		po.Stale = true
		return po
	}
	if po := firstWriter(steps, rf, answer, func(s string) string { return s }, d.respaced); po != nil {
		po.Stale = true
		return po
	}
	change := firstWriter(steps, rf, answer, Squash, d.added, d.changes)
	if po := firstWriter(steps, rf, answer, Squash, d.files); po != nil && (change == nil || po.Step <= change.Step) {
		// The file and the change were one decision: whichever was
		// written first made it.
		po.Stale = true
		return po
	}
	return change
}

// restatedAnswer returns what a tool's result says an answering call
// (final_answer, FinalAnswerTool) was handed, where the result restates
// its call as "Tool(args) -> output" (as a trace's tool span is written
// as one step of a transcript): the run answered there, and the same run
// read from its trace and from its transcript holds the same answer. A
// quoted argument is read as the string it quotes.
func restatedAnswer(content string) (string, bool) {
	open := strings.IndexByte(content, '(')
	end := strings.LastIndex(content, ") -> ")
	if open <= 0 || end < open || strings.ContainsAny(content[:open], " \t\n") {
		return "", false
	}
	if w := nameWords(content[:open]); len(w) == 0 || !answers(w) {
		return "", false
	}
	arg := strings.TrimSpace(content[open+1 : end])
	var s string
	if strings.HasPrefix(arg, `"`) && json.Unmarshal([]byte(arg), &s) == nil {
		arg = s
	}
	return arg, true
}

// firstWriter returns the origin of the earliest step before answer, the
// task aside, whose content, as read reads it, writes one of the texts of
// sets (the sets are looked for in order at each step), or nil.
func firstWriter(steps []run.Step, rf *RunFeatures, answer int, read func(string) string, sets ...[]string) *PatchOrigin {
	if answer < 0 {
		return nil
	}
	for j := range answer {
		f := &rf.Steps[j]
		if f.Has(KindTask) {
			continue
		}
		text := read(steps[j].Content)
		for _, set := range sets {
			for _, l := range set {
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
	}
	return nil
}

// diffRead holds what a diff's lines say, each squashed: the lines it
// adds and the changes of the lines it changes (addedLines, changeOf), the
// lines the code the task shows does not have (stale), and the files it
// edits that the task does not name (files).
type diffRead struct {
	added, changes, stale, files []string
	// respaced are removed and context lines, as the diff writes them
	// (their mark, their spacing), that the task writes indented with
	// tabs where they are with spaces, or the other way round.
	respaced []string
}

// read reads diff, a unified diff or not, against task: a
// hunk's removed and context lines the task does not write are stale when
// the task writes others of the same hunk of a file it shows, and a file
// the diff names is one the task does not when it names other files but
// not it.
func (d *diffRead) read(diff, rawTask string) {
	if !isDiff(diff) {
		return
	}
	task := Squash(rawTask)
	d.added = append(d.added, addedLines(diff, task)...)
	var removed, missing, paths []string
	kept, shown := 0, true
	endHunk := func() {
		// A hunk's lines are held against the task's only when the task
		// shows some of them: other hunks edit code it does not show.
		if kept > 0 && shown {
			d.stale = append(d.stale, missing...)
		}
		kept, missing = 0, nil
	}
	hunk := false
	var adds []string
	flush := func() {
		for i, a := range adds {
			if i < len(removed) {
				if c := changeOf(removed[i], a, task); c != "" {
					d.changes = append(d.changes, c)
				}
			}
		}
		removed, adds = removed[:0], nil
	}
	for line := range strings.SplitSeq(diff, "\n") {
		switch {
		case strings.HasPrefix(line, "--- ") || strings.HasPrefix(line, "+++ "):
			flush()
			endHunk()
			if p := diffPath(line[4:]); p != "" {
				// A file the task does not show holds nothing its hunks'
				// lines can be held against.
				shown = strings.Contains(task, p) || !namesFiles(task, p)
				if !slices.Contains(paths, p) {
					paths = append(paths, p)
				}
			}
			hunk = false
			continue
		case strings.HasPrefix(line, "@@"):
			flush()
			endHunk()
			hunk = true
			continue
		}
		if !hunk || line == "" {
			continue
		}
		if line[0] == '+' {
			adds = append(adds, Squash(line[1:]))
			continue
		}
		if len(adds) > 0 || line[0] != '-' {
			flush()
		}
		if line[0] != '-' && line[0] != ' ' {
			continue
		}
		l := Squash(line[1:])
		if line[0] == '-' {
			removed = append(removed, l)
		}
		if !substantial(l) {
			continue
		}
		if strings.Contains(task, l) {
			kept++
			if shown && respaced(line[1:], rawTask) {
				d.respaced = append(d.respaced, strings.TrimRight(line, " \t\r"))
			}
		} else if !slices.Contains(missing, l) {
			missing = append(missing, l)
		}
	}
	flush()
	endHunk()
	for _, p := range paths {
		if !strings.Contains(task, p) && namesFiles(task, p) {
			d.files = append(d.files, p)
		}
	}
}

// respaced reports whether line, a diff's line without its mark, is
// indented with spaces where every line of task that writes its text is
// indented with tabs, or the other way round: git apply holds a hunk's
// lines to the file's bytes.
func respaced(line, task string) bool {
	body := strings.TrimLeft(line, " \t")
	indent := line[:len(line)-len(body)]
	body = strings.TrimRight(body, " \t\r")
	if indent == "" || body == "" {
		return false
	}
	seen := false
	for from := 0; ; {
		k := strings.Index(task[from:], body)
		if k < 0 {
			return seen
		}
		k += from
		from = k + len(body)
		lead := task[:k]
		ws := lead[len(strings.TrimRight(lead, " \t")):]
		if ws == "" {
			continue
		}
		if strings.Contains(ws, "\t") == strings.Contains(indent, "\t") {
			return false
		}
		seen = true
	}
}

// diffPath returns the path a diff's file header names, its "a/" or "b/"
// and any timestamp after a tab cut; "" for /dev/null.
func diffPath(h string) string {
	h, _, _ = strings.Cut(h, "\t")
	h = strings.TrimSpace(h)
	if h == "/dev/null" {
		return ""
	}
	if strings.HasPrefix(h, "a/") || strings.HasPrefix(h, "b/") {
		h = h[2:]
	}
	return h
}

// namesFiles reports whether task names a file path like p: one with a
// directory and p's extension.
func namesFiles(task, p string) bool {
	dot := strings.LastIndexByte(p, '.')
	if dot < 0 || !strings.Contains(p, "/") {
		return false
	}
	ext := p[dot:]
	for w := range strings.FieldsSeq(task) {
		w = strings.Trim(w, "[]()<>`'\",:;")
		if strings.Contains(w, "/") && strings.HasSuffix(w, ext) && len(w) > len(ext)+1 {
			return true
		}
	}
	return false
}

// substantial reports whether a squashed line says something: eight bytes
// or more, a letter among them.
func substantial(l string) bool {
	return len(l) >= 8 && strings.IndexFunc(l, unicode.IsLetter) >= 0
}

// changeOf returns the change added makes to removed (both squashed): the
// part of added between what the two share at their starts and ends,
// taken at whole tokens and grown by a token at a time (its end first)
// until task does not write it; "" when that is the whole line, says
// nothing (substantial), or task writes it still.
func changeOf(removed, added, task string) string {
	p := 0
	for p < len(removed) && p < len(added) && removed[p] == added[p] {
		p++
	}
	e := len(added)
	for r := len(removed); e > p && r > p && removed[r-1] == added[e-1]; e, r = e-1, r-1 {
	}
	for p > 0 && p < len(added) && isIdentByte(added[p-1]) && isIdentByte(added[p]) {
		p--
	}
	for e > 0 && e < len(added) && isIdentByte(added[e-1]) && isIdentByte(added[e]) {
		e++
	}
	for p < e && strings.Contains(task, strings.TrimSpace(added[p:e])) {
		if e < len(added) {
			e = nextToken(added, e)
		} else if p > 0 {
			p = prevToken(added, p)
		} else {
			break
		}
	}
	c := strings.TrimSpace(added[p:e])
	if p >= e || c == added || !substantial(c) || strings.Contains(task, c) {
		return ""
	}
	return c
}

// nextToken returns where the token of s at i ends: after a run of word
// bytes, or after the one byte at i.
func nextToken(s string, i int) int {
	if !isIdentByte(s[i]) {
		return i + 1
	}
	for i < len(s) && isIdentByte(s[i]) {
		i++
	}
	return i
}

// prevToken returns where the token of s that ends at i starts.
func prevToken(s string, i int) int {
	if !isIdentByte(s[i-1]) {
		return i - 1
	}
	for i > 0 && isIdentByte(s[i-1]) {
		i--
	}
	return i
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
		if !substantial(l) || strings.Contains(task, l) || removed[l] {
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
