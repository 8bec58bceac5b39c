package run

import (
	"regexp"
	"strings"
)

// fenceRe is a fenced code block: its info string and its body.
var fenceRe = regexp.MustCompile("(?s)```([^\\n`]*)\\n(.*?)\\n?```")

// shellFences are the info strings of a shell's code block.
var shellFences = map[string]bool{"bash": true, "sh": true, "shell": true, "console": true}

// dataFences are the info strings of a block that holds data or a
// document rather than code to run: a harness that runs its turn's block
// runs none of these, and no tool is named for them.
var dataFences = map[string]bool{
	"json": true, "jsonl": true, "json5": true, "yaml": true, "yml": true, "toml": true,
	"xml": true, "csv": true, "tsv": true, "ini": true, "text": true, "txt": true,
	"plaintext": true, "markdown": true, "md": true, "html": true, "log": true, "diff": true,
}

// fence is a fenced code block of a turn's text, the one reading of
// them for the readers of an agent whose harness runs the block its turn
// writes (fencedCommands, fencedActions, systemAnsweredBlocks). A call
// written in a fence (fencedCalls, and textCalls' JSON action) is read by
// tagBodies instead: a call may be fenced on one line (```{"action": …}```),
// which a block here, its info string ended by a newline, is not, and a
// fence quoted or run into a word is no call.
type fence struct {
	start, end int      // the block's place in the text, its fences included
	info       []string // its info string's words: the language first, then what follows (a file's path)
	body       string   // its text, trimmed
	ownLines   bool     // it opens at a line's start and closes on a line of its own
}

// fences returns the fenced code blocks of text, in order.
func fences(text string) []fence {
	var out []fence
	for _, m := range fenceRe.FindAllStringSubmatchIndex(text, -1) {
		closing := strings.TrimRight(text[:m[1]-3], " \t")
		out = append(out, fence{
			start:    m[0],
			end:      m[1],
			info:     strings.Fields(text[m[2]:m[3]]),
			body:     strings.TrimSpace(text[m[4]:m[5]]),
			ownLines: (m[0] == 0 || text[m[0]-1] == '\n') && strings.HasSuffix(closing, "\n"),
		})
	}
	return out
}

// lang is the block's language as its fence names it, lowered; "" for a
// bare fence.
func (f fence) lang() string {
	if len(f.info) == 0 {
		return ""
	}
	return strings.ToLower(f.info[0])
}

// shell reports whether the block is fenced as a shell's, the language
// alone on its fence.
func (f fence) shell() bool { return len(f.info) == 1 && shellFences[f.lang()] }
