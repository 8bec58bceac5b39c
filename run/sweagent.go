package run

// SWE-agent's own tools: the commands its trajectories' actions run that
// edit files (its windowed editor's edit, insert and append on the file
// it has open, create, and its str_replace_editor given as a command
// line), read as the editor's calls they are.

import (
	"regexp"
	"strings"

	"github.com/offattr/offattr/internal/shellword"
	"mvdan.cc/sh/v3/syntax"
)

var (
	// sweOpenFooterRe is the state SWE-agent prints after each action's
	// output: the file its windowed editor has open.
	sweOpenFooterRe = regexp.MustCompile(`\(Open file: ([^)\n]{1,300})\)`)
	// sweFileHeaderRe is the header of the window its editor prints of a
	// file it opened or changed.
	sweFileHeaderRe = regexp.MustCompile(`(?m)^\[File: ([^\n(]{1,300}?) \(\d{1,7} lines total\)\]`)
	// sweEditRe is an edit of the open file's lines N to M, or an insert
	// after line N, its text up to the terminator (end_of_edit,
	// end_of_insert); and an append at its end.
	sweEditRe = regexp.MustCompile(`^(edit|insert|append)[ \t]*([0-9]+(?::[0-9]+)?)?[ \t]*\n((?s:.*?))\n?end_of_(?:edit|insert|append)[ \t]*$`)
)

// sweAgentTools reads the actions of a SWE-agent trajectory that edit a
// file as calls of an editor that writes it: the file an edit, insert or
// append changes is the one open when it runs (the last "Open file" its
// output showed, or the last file opened or created), create names it,
// and str_replace_editor's command line gives its verb, path and options.
// Any other action stays a command line run in the agent's shell.
func sweAgentTools(msgs []message, steps []Step) {
	open := ""
	for i := 0; i < len(msgs) && i < len(steps); i++ {
		m := msgs[i]
		action := strings.TrimSpace(m.Action)
		if steps[i].Kind == KindToolCall && action != "" && len(m.ToolCalls) == 0 && m.FunctionCall == nil {
			if c, ok := sweEditCall(action, open); ok {
				e := steps[i].Edit()
				e.ToolCalls = []ToolCall{c}
			}
			if w := strings.Fields(action); len(w) == 2 && (w[0] == "open" || w[0] == "create") {
				open = strings.Trim(w[1], `"'`)
			}
			continue
		}
		text := m.Content.text
		if f := sweOpenFooterRe.FindAllStringSubmatch(text, -1); len(f) > 0 {
			if p := strings.TrimSpace(f[len(f)-1][1]); p != "n/a" && p != "" {
				open = p
			}
		} else if f := sweFileHeaderRe.FindStringSubmatch(text); f != nil {
			open = strings.TrimSpace(f[1])
		}
	}
}

// sweEditCall is the editor's call an action that edits a file makes,
// given the file open when it runs; false for any other action.
func sweEditCall(action, open string) (ToolCall, bool) {
	args := map[string]string{}
	if m := sweEditRe.FindStringSubmatch(action); m != nil && open != "" {
		args["command"], args["path"], args["new_str"] = m[1], open, m[3]
		if m[1] == "insert" {
			args["insert_line"] = m[2] // as the editor's insert takes it
		}
	} else if w, ok := shellWords(action); ok && len(w) == 2 && w[0] == "create" {
		args["command"], args["path"] = "create", w[1]
	} else if ok && len(w) >= 3 && w[0] == "str_replace_editor" {
		args["command"], args["path"] = w[1], w[2]
		for k := 3; k+1 < len(w); k += 2 {
			if !strings.HasPrefix(w[k], "--") {
				return ToolCall{}, false
			}
			args[strings.TrimPrefix(w[k], "--")] = w[k+1]
		}
	} else {
		return ToolCall{}, false
	}
	return ToolCall{Name: "str_replace_editor", Arguments: textOf(args)}, true
}

// shellWords splits a one-command line into its words as the shell
// would, quotes and quoting backslashes removed; false for a line of
// several commands, or any word with an expansion.
func shellWords(line string) ([]string, bool) {
	f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	c, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(f.Stmts[0].Redirs) > 0 {
		return nil, false
	}
	var out []string
	for _, a := range c.Args {
		w, ok := shellword.Literal(a)
		if !ok {
			return nil, false
		}
		out = append(out, w)
	}
	return out, len(out) > 0
}

// fencedActions reads the actions of an agent that ends each reply with
// the one command it runs, in a code fence after its discussion, and is
// answered by what the command printed in the user's turn: SWE-agent's
// replies before function calling (its parser takes the reply's last
// fenced block as the action), saved with their texts only, and agents
// prompted the same way. Such a reply's command is its action, as
// SWE-agent's own trajectories record it. A reply counts when its text
// ends with a block fenced bare or as a shell's, and a user's turn comes
// next; the run is read so only when at least two replies are, and more
// than half of the assistant's replies that a user's turn follows: a
// chat whose user answers an assistant's code now and then is a chat.
// A reply with several blocks, or that no user's turn answers, shows
// code rather than runs it; messages that make their calls otherwise are
// left as they are.
func fencedActions(msgs []message) {
	var at []int
	var cmds []string
	answered := 0
	for i := 0; i+1 < len(msgs); i++ {
		m := msgs[i]
		if !strings.EqualFold(strings.TrimSpace(m.Role), "assistant") || !isUserRole(strings.TrimSpace(msgs[i+1].Role)) {
			continue
		}
		answered++
		if m.Action != "" || len(m.ToolCalls) > 0 || m.FunctionCall != nil {
			continue
		}
		if cmd, ok := endingCommand(m.Content.text); ok {
			at, cmds = append(at, i), append(cmds, cmd)
		}
	}
	if len(at) < 2 || 2*len(at) <= answered {
		return
	}
	for k, i := range at {
		msgs[i].Action = cmds[k]
	}
}

// endingCommand returns the body of the code block text ends with, when
// it is the text's one block and its fence names no language or a
// shell's; false for a text that ends otherwise, with an empty block, or
// with one of several.
func endingCommand(text string) (string, bool) {
	t := strings.TrimRight(text, " \t\r\n")
	blocks := fences(t)
	if len(blocks) != 1 {
		return "", false
	}
	b := blocks[0]
	if b.end != len(t) || !b.ownLines || strings.Contains(t[:b.start], "```") {
		return "", false
	}
	if len(b.info) > 0 && !b.shell() {
		return "", false
	}
	return b.body, b.body != ""
}
