package run

import (
	"strings"
	"unicode"
)

// questionLabel is the label a prompt template writes its question
// under, after its instructions.
const questionLabel = "Question:"

// templateQuestion reads a prompt that wraps its question in a
// template's instructions ("Answer the given question. You must reason
// inside <think> … Question: In what year …?"): the instructions before
// the last line (or sentence) that the label opens, and the question, the
// rest of that line. A template's format line ("Question: the input
// question you must answer") comes before the question it describes, and
// a few-shot template's examples before the question asked, so the last
// label is the question's. ok is false for a text with no such label,
// with nothing before it, or with a placeholder where the question goes.
func templateQuestion(text string) (instructions, question string, ok bool) {
	at := -1
	for k := strings.Index(text, questionLabel); k >= 0; {
		if labelStarts(text[:k]) {
			at = k
		}
		next := strings.Index(text[k+1:], questionLabel)
		if next < 0 {
			break
		}
		k += 1 + next
	}
	if at < 0 {
		return "", "", false
	}
	instructions = strings.TrimSpace(text[:at])
	question, _, _ = strings.Cut(strings.TrimSpace(text[at+len(questionLabel):]), "\n")
	question = strings.TrimSpace(question)
	if instructions == "" || question == "" || strings.ContainsAny(question[:1], "{<[") || !strings.ContainsFunc(question, unicode.IsLetter) {
		return "", "", false
	}
	return instructions, question, true
}

// labelStarts reports whether a label written after before opens a line
// or a sentence: before ends a line, a sentence or a closing tag.
func labelStarts(before string) bool {
	b := strings.TrimRight(before, " \t")
	if b == "" || strings.HasSuffix(b, "\n") {
		return true
	}
	return len(b) < len(before) && strings.ContainsAny(b[len(b)-1:], ".?!>")
}
