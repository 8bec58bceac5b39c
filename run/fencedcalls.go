package run

import (
	"encoding/json"
	"strings"
)

// Harnesses that give an agent a set of Python-like functions to act
// through (AIOpsLab's exec_shell, get_logs, submit) ask it to write its
// action as one call in a code fence with no language:
//
//	```
//	exec_shell("kubectl get pods -n test-social-network")
//	```
//
// and run the call the fence holds. fencedCalls reads such a fence whose
// whole text is one call with literal arguments (strings, numbers,
// True, False, None, and lists, tuples and dicts of them): the call's
// keyword arguments by name, its one positional argument as "input",
// several as "args". A fence that names a language holds code, not a
// call, as does one with anything beside the call.

// pyValueMaxDepth bounds how deep a call's literal arguments nest.
const pyValueMaxDepth = 16

// fencedCalls returns the calls text writes each alone in a bare code
// fence, in order.
func fencedCalls(text string) []ToolCall {
	var out []ToolCall
	for _, body := range tagBodies(text, "```", "```", false) {
		if !strings.HasPrefix(body, "\n") {
			continue // a language's name, or a fence written on one line
		}
		if c, ok := pyLiteralCall(strings.TrimSpace(body)); ok {
			out = append(out, c)
		}
	}
	return out
}

// pyLiteralCall reads s, wholly NAME(ARGS) with literal arguments, as a
// call; ok is false for anything else.
func pyLiteralCall(s string) (ToolCall, bool) {
	name, rest := reprIdent(s)
	if !toolName(name) || !strings.HasPrefix(rest, "(") {
		return ToolCall{}, false
	}
	var positional []any
	keywords := map[string]any{}
	rest = rest[1:]
	for {
		rest = strings.TrimLeft(rest, " \n\t")
		if after, ok := strings.CutPrefix(rest, ")"); ok {
			rest = after
			break
		}
		key, afterKey := reprIdent(rest)
		if t := strings.TrimLeft(afterKey, " "); key != "" && strings.HasPrefix(t, "=") && !strings.HasPrefix(t, "==") {
			v, r, ok := pyValue(strings.TrimLeft(t[1:], " \n\t"), 0)
			if !ok {
				return ToolCall{}, false
			}
			keywords[key], rest = v, r
		} else {
			if len(keywords) > 0 {
				return ToolCall{}, false // a positional argument after a keyword
			}
			v, r, ok := pyValue(rest, 0)
			if !ok {
				return ToolCall{}, false
			}
			positional, rest = append(positional, v), r
		}
		rest = strings.TrimLeft(rest, " \n\t")
		switch {
		case strings.HasPrefix(rest, ","):
			rest = rest[1:]
		case strings.HasPrefix(rest, ")"):
		default:
			return ToolCall{}, false
		}
	}
	if strings.TrimSpace(rest) != "" {
		return ToolCall{}, false
	}
	args := map[string]any{}
	for k, v := range keywords {
		args[k] = v
	}
	switch len(positional) {
	case 0:
	case 1:
		args["input"] = positional[0]
	default:
		args["args"] = positional
	}
	return ToolCall{Name: name, Arguments: textOf(args)}, true
}

// PythonLiteral reads s, a Python literal and nothing else (a dict's
// repr a tool printed into a JSON string), as the value JSON gives it;
// ok is false for any other text.
func PythonLiteral(s string) (v any, ok bool) {
	v, rest, ok := pyValue(strings.TrimSpace(s), 0)
	return v, ok && strings.TrimSpace(rest) == ""
}

// pyValue reads one Python literal from the front of s as the value
// JSON gives it: a string, a number, True, False or None, or a list,
// tuple or dict of literals.
func pyValue(s string, depth int) (any, string, bool) {
	if depth > pyValueMaxDepth || s == "" {
		return nil, s, false
	}
	switch c := s[0]; {
	case c == '\'' || c == '"' || (c == 'r' || c == 'R') && len(s) > 1 && (s[1] == '\'' || s[1] == '"'):
		v, rest, ok := pyString(s)
		if !ok {
			return nil, s, false
		}
		// Adjacent literals are one string, as Python joins them: joined
		// once, so that many of them cost their length, not its square.
		var joined strings.Builder
		joined.WriteString(v)
		for {
			t := strings.TrimLeft(rest, " ")
			if t == "" || t[0] != '\'' && t[0] != '"' {
				break
			}
			more, r, ok := pyString(t)
			if !ok {
				return nil, s, false
			}
			joined.WriteString(more)
			rest = r
		}
		return joined.String(), rest, true
	case c == '[' || c == '(':
		closer := map[byte]string{'[': "]", '(': ")"}[c]
		list := []any{}
		rest := s[1:]
		for {
			rest = strings.TrimLeft(rest, " \n\t")
			if after, ok := strings.CutPrefix(rest, closer); ok {
				return list, after, true
			}
			v, r, ok := pyValue(rest, depth+1)
			if !ok {
				return nil, s, false
			}
			list = append(list, v)
			rest = strings.TrimLeft(r, " \n\t")
			if after, ok := strings.CutPrefix(rest, ","); ok {
				rest = after
			} else if !strings.HasPrefix(rest, closer) {
				return nil, s, false
			}
		}
	case c == '{':
		obj := map[string]any{}
		rest := s[1:]
		for {
			rest = strings.TrimLeft(rest, " \n\t")
			if after, ok := strings.CutPrefix(rest, "}"); ok {
				return obj, after, true
			}
			k, r, ok := pyValue(rest, depth+1)
			key, isString := k.(string)
			if !ok || !isString {
				return nil, s, false
			}
			r = strings.TrimLeft(r, " \n\t")
			if !strings.HasPrefix(r, ":") {
				return nil, s, false
			}
			v, r, ok := pyValue(strings.TrimLeft(r[1:], " \n\t"), depth+1)
			if !ok {
				return nil, s, false
			}
			obj[key] = v
			rest = strings.TrimLeft(r, " \n\t")
			if after, ok := strings.CutPrefix(rest, ","); ok {
				rest = after
			} else if !strings.HasPrefix(rest, "}") {
				return nil, s, false
			}
		}
	}
	word, rest := reprIdent(s)
	switch word {
	case "True":
		return true, rest, true
	case "False":
		return false, rest, true
	case "None":
		return nil, rest, true
	case "":
	default:
		return nil, s, false
	}
	end := 0
	for end < len(s) && strings.IndexByte("+-0123456789.eE_", s[end]) >= 0 {
		end++
	}
	num := strings.ReplaceAll(s[:end], "_", "")
	var n json.Number
	if end == 0 || json.Unmarshal([]byte(num), &n) != nil {
		return nil, s, false
	}
	return n, s[end:], true
}
