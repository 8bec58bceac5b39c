package run

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/offattr/offattr/run/spans"
)

// ChatDev's run log (WareHouse/PROJECT_ORG_TIME.log): records that each
// begin with a time and a level in brackets, "[2024-14-03 10:12:01 INFO]".
// A phase's chat is written as its turns, "ROLE: **[Start Chat]**" for the
// instruction the phase's user role opens it with and "ROLE: **ROLE<->OTHER
// on : PHASE, turn N**" for each answer, each after its speaker's role
// prompt in brackets; the preprocessing record gives the task as
// "**task_prompt**: …". The other records (the phase's parameters, token
// usage, a seminar's conclusion that repeats the last turn, code updates,
// software info) are no one's words.

// chatDevRecord begins a record of ChatDev's log.
var chatDevRecord = regexp.MustCompile(`(?m)^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [A-Z]+\] `)

// chatDevHeadBytes bounds what chatDevLogHead reads: a record's time,
// level and "**[Preprocessing]**" fit in it many times over.
const chatDevHeadBytes = 256

// chatDevTurn is a record's head when it is a turn: its speaker, and
// either the chat's start or the pair and phase it speaks in.
var chatDevTurn = regexp.MustCompile(`^([^:\n*]+): \*\*(?:\[Start Chat\]|[^*\n]+<->[^*\n]+ on : (\w+), turn \d+)\*\*`)

// chatDevTask is the task the preprocessing record gives.
var chatDevTask = regexp.MustCompile(`(?m)^\*\*task_prompt\*\*: (.+)$`)

// chatDevLogHead reports whether head, a file's first bytes, begins as
// ChatDev's log: a record whose text is the preprocessing's. Only its
// first chatDevHeadBytes are read: the record's head and the words that
// open it stand there, and the rest of a big file of another format is
// no one's to search.
func chatDevLogHead(head []byte) bool {
	head = head[:min(len(head), chatDevHeadBytes)]
	loc := chatDevRecord.FindIndex(head)
	return loc != nil && loc[0] == 0 && strings.HasPrefix(string(head[loc[1]:]), "**[Preprocessing]**")
}

// chatDevLog reads data as ChatDev's log; ok is false when it is none: it
// must begin with a record and hold a turn. Each turn is a step of its
// speaker, its text without the role prompt before it.
func chatDevLog(data []byte) (c *Case, ok bool) {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	starts := chatDevRecord.FindAllStringIndex(text, -1)
	if len(starts) == 0 || starts[0][0] != 0 {
		return nil, false
	}
	r := &Run{Format: FormatTranscript}
	for i, loc := range starts {
		end := len(text)
		if i+1 < len(starts) {
			end = starts[i+1][0]
		}
		rec := text[loc[1]:end]
		if m := chatDevTask.FindStringSubmatch(rec); m != nil && r.Question == "" && strings.HasPrefix(rec, "**[Preprocessing]**") {
			r.Question = strings.TrimSpace(m[1])
			continue
		}
		head := chatDevTurn.FindStringSubmatchIndex(rec)
		if head == nil {
			continue
		}
		said := strings.TrimSpace(withoutRolePrompt(strings.TrimSpace(rec[head[1]:])))
		if said == "" {
			continue
		}
		r.Steps = append(r.Steps, Step{Index: len(r.Steps), Agent: strings.TrimSpace(rec[head[2]:head[3]]), Role: "assistant", Kind: KindMessage, Content: said})
	}
	if len(r.Steps) == 0 {
		return nil, false
	}
	return &Case{Run: r}, true
}

// withoutRolePrompt drops the role prompt in brackets that ChatDev writes
// before a turn's words, "[ChatDev is a software company …]": a bracket
// that opens the text and whose own closing bracket (brackets within it
// counted) ends its paragraph. Words that open with a bracketed phrase of
// their own, "[Fixed] the sort order …", keep it.
func withoutRolePrompt(text string) string {
	if !strings.HasPrefix(text, "[") {
		return text
	}
	depth := 0
	for i, r := range text {
		switch r {
		case '[':
			depth++
		case ']':
			depth--
		}
		if depth > 0 {
			continue
		}
		rest := text[i+1:]
		if rest == "" {
			return ""
		}
		if after, ok := strings.CutPrefix(rest, "\n\n"); ok {
			return after
		}
		return text
	}
	// The brackets never close: the prompt's own text holds one open.
	if i := strings.Index(text, "]\n\n"); i >= 0 {
		return text[i+3:]
	}
	return text
}

// textLogOf reads a JSON object whose run is a text log the loaders read
// (ChatDev's, MetaGPT's), held as a string in one of its fields or a field of an
// object it holds (a dataset's record that keeps each run's log beside
// its annotation); a label beside it is the run's. ok is false when no
// field holds one.
func textLogOf(data []byte, o *fileObject) (c *Case, ok bool, err error) {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return nil, false, nil
	}
	fields := []map[string]json.RawMessage{top}
	for _, k := range slices.Sorted(maps.Keys(top)) {
		var inner map[string]json.RawMessage
		if json.Unmarshal(top[k], &inner) == nil {
			fields = append(fields, inner)
		}
	}
	for _, f := range fields {
		for _, k := range slices.Sorted(maps.Keys(f)) {
			var s string
			if json.Unmarshal(f[k], &s) != nil {
				continue
			}
			log := []byte(strings.TrimSpace(s))
			var lc *Case
			switch {
			case chatDevLogHead(log):
				lc, ok = chatDevLog(log)
			case metaGPTLogHead(log):
				var cs []*Case
				if cs, ok = metaGPTLog(log); ok && len(cs) > 1 {
					return nil, true, fmt.Errorf("the MetaGPT log under %s holds %d runs: a label beside it labels none of them; give each run an object of its own", spans.QuoteForError(k), len(cs))
				} else if ok {
					lc = cs[0]
				}
			}
			if ok {
				c, err := o.labelled(lc.Run)
				return c, true, err
			}
		}
	}
	return nil, false, nil
}
