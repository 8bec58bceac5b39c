package extract

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/offattr/offattr/run"
)

// toolErrors are the errors a tool's JSON output v returns under an error
// field ("error": "Invalid API key", "error": {"code": 401, "message":
// ...}), however deep and however quoted: a field's string that is itself
// an object, as JSON or as a Python dict's repr (ToolBench's "response":
// "{'valid': False, 'error': {...}}"), is read as the object it writes.
// An empty error field ("error": "", null, false, {}) reports none, and
// so does a tally or a code of nought under it ("errors": 0, as a test
// runner's or a linter's summary writes it). Each
// error is quoted where content writes its message, or its field.
func toolErrors(v any, content string) []Signal {
	var out []Signal
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > toolErrorDepth || len(out) >= maxPerKind {
			return
		}
		switch x := v.(type) {
		case string:
			if inner, ok := quotedObject(x); ok {
				walk(inner, depth+1)
			}
		case []any:
			for _, e := range x {
				walk(e, depth+1)
			}
		case map[string]any:
			for _, k := range sortedKeys(x) {
				f := x[k]
				str, isString := f.(string)
				if errorFields[strings.ToLower(k)] && !emptyJSON(f) && !nought(f) && (!isString || !looksQuotedObject(str)) {
					out = append(out, errorSignal(f, k, content))
					continue
				}
				walk(f, depth+1)
			}
		}
	}
	walk(v, 0)
	return out
}

// toolErrorDepth bounds how deep toolErrors looks into an output.
const toolErrorDepth = 8

// errorFields are the fields an API returns its error under.
var errorFields = map[string]bool{"error": true, "errors": true, "error_message": true}

// nought reports whether v is the number zero, as a decoder that keeps
// numbers (UseNumber) and PythonLiteral give it.
func nought(v any) bool {
	n, ok := v.(json.Number)
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(n.String(), 64)
	return err == nil && f == 0
}

// looksQuotedObject reports whether s writes an object or a list (its
// first and last characters are braces or brackets).
func looksQuotedObject(s string) bool {
	s = strings.TrimSpace(s)
	return len(s) >= 2 && (s[0] == '{' && s[len(s)-1] == '}' || s[0] == '[' && s[len(s)-1] == ']')
}

// quotedObject reads a string that writes an object or a list, as JSON or
// as a Python literal.
func quotedObject(s string) (any, bool) {
	if !looksQuotedObject(s) {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) == nil {
		return v, true
	}
	return run.PythonLiteral(s)
}

// errorSignal is the error a field f (named k) returns: its message (a
// string, or an object's "message"), quoted on content's line that
// writes it.
func errorSignal(f any, k, content string) Signal {
	msg := ""
	switch x := f.(type) {
	case string:
		msg = x
	case map[string]any:
		if m, ok := x["message"].(string); ok {
			msg = m
		}
	}
	at := -1
	if msg != "" {
		at = strings.Index(content, msg)
	}
	if at < 0 {
		at = max(strings.LastIndex(content, k), 0)
	}
	return Signal{Kind: "error", Severity: SeverityMedium, Quote: lineAround(content, at, 160), Offset: at}
}
