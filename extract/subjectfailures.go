package extract

import (
	"slices"
	"strings"
	"unicode"

	"github.com/offattr/offattr/run"
)

// taskSubjectFailures drops the failure words a step writes where they
// name what the task asks about, not a failure: the task counts "failed
// password attempts", and a step's "the failed attempts", a log's
// "Failed password for root" and an answer's "1473 failed password
// attempts" tell of those. "Failed" or "failing" is the task's subject
// when it and the word after it stand in the task so, side by side or
// with one word between ("failed attempts" for "failed password
// attempts"). The task's own step is left as read.
func taskSubjectFailures(r *run.Run, rf *RunFeatures) {
	task := taskWordsList(r.Question)
	if len(task) < 2 {
		return
	}
	subject := func(content string, at int) bool {
		w, next := wordAndNext(content, at)
		return subjectWords[w] && next != "" && pairedIn(task, w, next)
	}
	for i := range min(len(rf.Steps), len(r.Steps)) {
		f := &rf.Steps[i]
		if f.Has(KindTask) || (len(f.Errors) == 0 && f.FailureWords == nil) {
			continue
		}
		content := r.Steps[i].Content
		if slices.ContainsFunc(f.Errors, func(s Signal) bool { return s.Kind == "failure" && subject(content, s.Offset) }) {
			f.Errors = slices.DeleteFunc(slices.Clone(f.Errors), func(s Signal) bool { return s.Kind == "failure" && subject(content, s.Offset) })
		}
		if w := f.FailureWords; w != nil && subject(content, w.Offset) {
			f.FailureWords = nil
			t := newText(content)
			for _, m := range t.all(failureWordsRe, 8) {
				if !subject(content, m.Whole().Start) {
					f.FailureWords = spanOf(m, true)
					break
				}
			}
		}
	}
}

// subjectWords are the failure words that qualify a noun ("failed
// logins", "failing jobs"): a task may count or list those things. Other
// failure words name a failure or a function ("timeout()") however the
// task writes them.
var subjectWords = toSet("failed failing")

// taskWordsList is the task's words in lower case, in order.
func taskWordsList(task string) []string {
	return strings.FieldsFunc(strings.ToLower(task), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// wordAndNext returns, in lower case, the word of letters at content[at:]
// and the word after it, or "" for either that is not there.
func wordAndNext(content string, at int) (string, string) {
	if at < 0 || at >= len(content) {
		return "", ""
	}
	words := strings.FieldsFunc(strings.ToLower(content[at:min(len(content), at+80)]), func(r rune) bool { return !unicode.IsLetter(r) })
	if len(words) < 2 {
		return "", ""
	}
	return words[0], words[1]
}

// pairedIn reports whether w stands in words followed by next, side by
// side or with one word between.
func pairedIn(words []string, w, next string) bool {
	for i, x := range words {
		if x != w {
			continue
		}
		if i+1 < len(words) && words[i+1] == next || i+2 < len(words) && words[i+2] == next {
			return true
		}
	}
	return false
}
