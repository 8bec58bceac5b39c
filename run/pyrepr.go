package run

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Some Python instrumentations write an item of a model's reply that is
// not text as the Python repr of the SDK object that holds it, in a text
// part: OpenTelemetry's OpenAI Agents instrumentation writes a function
// call of the Responses API as
//
//	ResponseFunctionToolCall(arguments='{"a":42}', call_id='call_1', name='multiply', type='function_call', ...)
//
// and a Chat Completions call reads, printed so, as
//
//	ChatCompletionMessageToolCall(id='call_1', function=Function(arguments='{}', name='lookup'), type='function')
//
// Such a part is the call the model made, not words it said.

// reprCall reads text that is wholly the repr of a tool or function call
// object (its class name ends in ToolCall or FunctionCall) as that call:
// its name, its arguments and its id, from the keyword arguments the
// OpenAI SDK's classes print (name, arguments, call_id or id, or a nested
// function=Function(name, arguments)). ok is false for any other text, or
// a repr that names no function.
func reprCall(text string) (call ToolCall, ok bool) {
	text = strings.TrimSpace(text)
	class, rest := reprIdent(text)
	if !strings.HasSuffix(class, "ToolCall") && !strings.HasSuffix(class, "FunctionCall") {
		return ToolCall{}, false
	}
	kw, rest, ok := reprArgs(rest, 0)
	if !ok || strings.TrimSpace(rest) != "" {
		return ToolCall{}, false
	}
	call.ID = kw.str("call_id")
	if call.ID == "" {
		call.ID = kw.str("id")
	}
	call.Name, call.Arguments = kw.str("name"), kw.str("arguments")
	if f, ok := kw["function"].(reprObject); ok && call.Name == "" {
		call.Name, call.Arguments = f.str("name"), f.str("arguments")
	}
	return call, call.Name != ""
}

// reprObject is the keyword arguments of a repr: strings, nested objects,
// or the text of any other value (None, a number, a list) as written.
type reprObject map[string]any

func (o reprObject) str(key string) string {
	s, _ := o[key].(string)
	return s
}

// reprMaxDepth bounds the nesting of objects a repr may have: the SDK's
// calls nest one deep, and a hostile text must not recurse without end.
const reprMaxDepth = 8

// reprIdent splits a Python identifier (dotted names allowed) off the
// front of s.
func reprIdent(s string) (ident, rest string) {
	i := 0
	for i < len(s) {
		c := s[i]
		if c == '_' || c == '.' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9' {
			i++
			continue
		}
		break
	}
	return s[:i], s[i:]
}

// reprArgs reads "(key=value, ...)" from the front of s.
func reprArgs(s string, depth int) (reprObject, string, bool) {
	if depth > reprMaxDepth || !strings.HasPrefix(s, "(") {
		return nil, s, false
	}
	s = s[1:]
	out := reprObject{}
	for {
		s = strings.TrimLeft(s, " \n\t")
		if strings.HasPrefix(s, ")") {
			return out, s[1:], true
		}
		key, rest := reprIdent(s)
		if key == "" || !strings.HasPrefix(rest, "=") {
			return nil, s, false
		}
		val, rest, ok := reprValue(rest[1:], depth)
		if !ok {
			return nil, s, false
		}
		out[key] = val
		s = strings.TrimLeft(rest, " \n\t")
		switch {
		case strings.HasPrefix(s, ","):
			s = s[1:]
		case strings.HasPrefix(s, ")"):
		default:
			return nil, s, false
		}
	}
}

// reprValue reads one value from the front of s: a quoted string, a
// nested object, or anything else up to the next comma or closing
// parenthesis outside brackets and quotes, kept as written.
func reprValue(s string, depth int) (any, string, bool) {
	if s != "" && (s[0] == '\'' || s[0] == '"') {
		return pyString(s)
	}
	if ident, rest := reprIdent(s); ident != "" && strings.HasPrefix(rest, "(") {
		return reprArgs(rest, depth+1)
	}
	nest := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '"':
			_, rest, ok := pyString(s[i:])
			if !ok {
				return nil, s, false
			}
			i = len(s) - len(rest) - 1
		case '(', '[', '{':
			nest++
		case ')', ']', '}':
			if nest == 0 {
				return strings.TrimSpace(s[:i]), s[i:], true
			}
			nest--
		case ',':
			if nest == 0 {
				return strings.TrimSpace(s[:i]), s[i:], true
			}
		}
	}
	return nil, s, false
}

// pyString reads a Python string literal from the front of s: quoted
// once or thrice, single or double, raw (r'…') or not, with the escapes
// repr writes (\\, \', \", \n, \r, \t, \xhh, \uhhhh, \Uhhhhhhhh; a
// backslash before a line's end continues the line; any other backslash
// stays as it is). A literal quoted once ends on its line.
func pyString(s string) (string, string, bool) {
	orig, raw := s, false
	if s != "" && (s[0] == 'r' || s[0] == 'R') {
		raw, s = true, s[1:]
	}
	if s == "" || s[0] != '\'' && s[0] != '"' {
		return "", orig, false
	}
	quote := s[:1]
	if strings.HasPrefix(s, strings.Repeat(quote, 3)) {
		quote = s[:3]
	}
	var b strings.Builder
	for i := len(quote); i < len(s); {
		c := s[i]
		switch {
		case strings.HasPrefix(s[i:], quote):
			return b.String(), s[i+len(quote):], true
		case len(quote) == 1 && c == '\n':
			return "", orig, false
		case c == '\\' && i+1 < len(s) && raw:
			b.WriteString(s[i : i+2])
			i += 2
		case c == '\\' && i+1 < len(s):
			i++
			switch e := s[i]; e {
			case '\\', '\'', '"':
				b.WriteByte(e)
				i++
			case 'n':
				b.WriteByte('\n')
				i++
			case 'r':
				b.WriteByte('\r')
				i++
			case 't':
				b.WriteByte('\t')
				i++
			case '\n':
				i++
			case 'x', 'u', 'U':
				n := 2 // hex digits: \xhh
				if e == 'u' {
					n = 4
				} else if e == 'U' {
					n = 8
				}
				if i+1+n > len(s) {
					return "", orig, false
				}
				r, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
				if err != nil || !utf8.ValidRune(rune(r)) {
					return "", orig, false
				}
				b.WriteRune(rune(r))
				i += 1 + n
			default:
				b.WriteByte('\\')
			}
		default:
			b.WriteByte(c)
			i++
		}
	}
	return "", orig, false
}
