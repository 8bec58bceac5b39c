package run

// OpenHands' agent skills: the file functions its earlier CodeAct agent
// called in an IPython cell to edit files, read as the editor calls they
// are.

import (
	"encoding/json"
	"strings"
)

// skillEdits are the agent skills that change a file, the editor command
// each is, and the editor arguments their parameters give, in order.
var skillEdits = map[string]struct {
	command string
	params  []string
}{
	"edit_file_by_replace":   {"str_replace", []string{"path", "old_str", "new_str"}},
	"insert_content_at_line": {"insert", []string{"path", "insert_line", "new_str"}},
	"append_file":            {"insert", []string{"path", "new_str"}},
	"create_file":            {"create", []string{"path"}},
}

// skillEdit reads a cell whose whole code is one call of a file-changing
// agent skill, its arguments literals (edit_file_by_replace('/a.py',
// to_replace='x', new_content='y')), as the editor's arguments; ok is
// false for any other code, which stays code run.
func skillEdit(code string) (args map[string]string, ok bool) {
	code = strings.TrimSpace(code)
	open := strings.IndexByte(code, '(')
	if open < 0 || !strings.HasSuffix(code, ")") {
		return nil, false
	}
	skill, known := skillEdits[strings.TrimSpace(code[:open])]
	if !known {
		return nil, false
	}
	args = map[string]string{"command": skill.command}
	rest := strings.TrimSpace(code[open+1 : len(code)-1])
	for i := 0; rest != ""; i++ {
		key := ""
		if eq := strings.IndexByte(rest, '='); eq > 0 && isIdent(strings.TrimSpace(rest[:eq])) {
			key, rest = strings.TrimSpace(rest[:eq]), strings.TrimSpace(rest[eq+1:])
		}
		value, after, lit := pyLiteral(rest)
		if !lit {
			return nil, false
		}
		switch {
		case key == "" && i < len(skill.params):
			args[skill.params[i]] = value
		case key == "file_name" || key == "filename":
			args["path"] = value
		case key == "to_replace":
			args["old_str"] = value
		case key == "new_content" || key == "content":
			args["new_str"] = value
		case key == "line_number":
			args["insert_line"] = value
		}
		rest = strings.TrimSpace(after)
		if rest != "" {
			if rest[0] != ',' {
				return nil, false
			}
			rest = strings.TrimSpace(rest[1:])
		}
	}
	return args, args["path"] != ""
}

// isIdent reports whether s is a Python identifier of ASCII letters,
// digits and underscores.
func isIdent(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// pyLiteral reads a Python string or number literal off the front of s
// (pyValue): its value as text and what follows it.
func pyLiteral(s string) (value, rest string, ok bool) {
	v, rest, ok := pyValue(s, 0)
	switch v := v.(type) {
	case string:
		return v, rest, ok
	case json.Number:
		return v.String(), rest, ok
	}
	return "", s, false
}
