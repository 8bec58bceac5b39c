package run

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
)

// Aider's chat history (.aider.chat.history.md): Markdown that aider
// appends each session to, under "# aider chat started at …". What the
// user typed is on lines headed "#### ", what aider itself printed (an
// edit applied, a commit, a command's output, its start-up banner, the
// tokens a reply cost) on lines headed "> ", and the model's replies are
// the lines between, their edits as SEARCH/REPLACE blocks under the
// file's name.

// aiderStart heads each session of an aider chat history.
const aiderStart = "# aider chat started at "

// aiderNoiseRe are the lines aider prints of itself rather than of the
// run: its banner at start-up, and what a reply cost.
var aiderNoiseRe = regexp.MustCompile(`^(Aider v|Main model:|Weak model:|Editor model:|Git repo:|Repo-map:|Added .* to the chat\.?$|Tokens: |Cost: |Use /help|https://aider\.chat|/\S*aider\b|Model:|Warning: )`)

// aiderEditRe is a SEARCH/REPLACE block under its file's name, in or out
// of a code fence.
var aiderEditRe = regexp.MustCompile("(?ms)^([^\\n`<>=]+?)[ \\t]*\\n(?:```[^\\n]*\\n)?<<<<<<< SEARCH\\n(.*?)^=======[ \\t]*\\n(.*?)^>>>>>>> REPLACE[ \\t]*\\n?(?:```[ \\t]*\\n?)?")

// aiderFormat reports whether data is an aider chat history.
func aiderFormat(data []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte(aiderStart))
}

// aider reads an aider chat history's last session as a run: the one a
// history that aider has appended to for days ends with. The user's
// first message is the task; a reply's SEARCH/REPLACE blocks are calls of
// an editor that writes the file (old_str and new_str, as SWE-agent's
// str_replace_editor takes them); what aider printed after is their
// result, or the output of a command the user ran.
func aider(data []byte) (*Case, error) {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	at := strings.LastIndex(text, aiderStart)
	if at < 0 {
		return nil, errors.New("no session: no line starts with \"" + strings.TrimSpace(aiderStart) + "\"")
	}
	session := text[at:]
	if nl := strings.IndexByte(session, '\n'); nl >= 0 {
		session = session[nl+1:]
	} else {
		session = ""
	}
	r := &Run{Format: FormatAider}
	var kind string // "user", "aider" or "model": the block being read
	var block []string
	flush := func() {
		body := strings.TrimSpace(strings.Join(block, "\n"))
		block = block[:0]
		if body == "" {
			return
		}
		s := Step{Index: len(r.Steps), Content: body}
		switch kind {
		case "user":
			s.Agent, s.Role, s.Kind = "user", "user", KindMessage
			if r.Question == "" {
				s.Kind = KindUser
				r.Question = body
			}
		case "aider":
			s.Agent, s.Role, s.Kind = "tool", "tool", KindToolResult
		default:
			s.Agent, s.Role, s.Kind = "assistant", "assistant", KindMessage
			if said, calls := aiderEdits(body); len(calls) > 0 {
				s.Kind, s.Content = KindToolCall, said
				s.Edit().ToolCalls = calls
				if said == "" {
					s.Content = callText(calls)
				}
			}
		}
		r.Steps = append(r.Steps, s)
	}
	// Within a reply's code fence or edit block, a line is the reply's
	// whatever it starts with (a REPLACE marker, a quoted line of code).
	inFence, inEdit := false, false
	for _, line := range strings.Split(session, "\n") {
		k, body := "model", line
		trimmed := strings.TrimSpace(line)
		inside := kind == "model" && (inFence || inEdit)
		switch {
		case inside:
			switch {
			case strings.HasPrefix(trimmed, ">>>>>>> REPLACE"):
				inEdit = false
			case !inEdit && strings.HasPrefix(trimmed, "```"):
				inFence = false
			}
		case strings.HasPrefix(line, "####"):
			k, body = "user", strings.TrimPrefix(strings.TrimPrefix(line, "####"), " ")
		case strings.HasPrefix(line, ">"):
			k, body = "aider", strings.TrimPrefix(strings.TrimPrefix(line, ">"), " ")
			if aiderNoiseRe.MatchString(strings.TrimSpace(body)) {
				continue
			}
		}
		body = strings.TrimRight(body, " ")
		if k != kind && (k != "model" || strings.TrimSpace(body) != "") {
			flush()
			kind = k
		}
		if k == "model" && !inside {
			inEdit = strings.HasPrefix(trimmed, "<<<<<<< SEARCH")
			inFence = strings.HasPrefix(trimmed, "```")
		}
		block = append(block, body)
	}
	flush()
	if len(r.Steps) == 0 {
		return nil, errors.New("the last session holds no message")
	}
	return &Case{Run: r}, nil
}

// aiderEdits returns a reply's text without its SEARCH/REPLACE blocks,
// and the editor's calls the blocks make, in order.
func aiderEdits(body string) (said string, calls []ToolCall) {
	for _, m := range aiderEditRe.FindAllStringSubmatch(body+"\n", -1) {
		calls = append(calls, ToolCall{Name: "str_replace_editor", Arguments: textOf(map[string]any{
			"command": "str_replace", "path": strings.TrimSpace(m[1]), "old_str": strings.TrimSuffix(m[2], "\n"), "new_str": strings.TrimSuffix(m[3], "\n")})})
	}
	return strings.TrimSpace(aiderEditRe.ReplaceAllString(body+"\n", "")), calls
}
