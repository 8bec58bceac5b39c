package run

// A message's content as text, whatever JSON it was written as.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// contentText accepts a string, null, or OpenAI content parts.
func contentText(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	switch raw[0] {
	case '"':
		if s, ok := unquoteString(raw); ok {
			return s, nil
		}
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	case '[':
		var parts []json.RawMessage
		if err := json.Unmarshal(raw, &parts); err != nil {
			return "", err
		}
		var texts []string
		for _, p := range parts {
			var part struct {
				Type        string          `json:"type"`
				Text        string          `json:"text"`
				Document    json.RawMessage `json:"document"`
				Source      json.RawMessage `json:"source"`
				Annotations json.RawMessage `json:"annotations"`
				Citations   json.RawMessage `json:"citations"`
			}
			if bytes.HasPrefix(bytes.TrimSpace(p), []byte(`"`)) {
				var s string
				if err := json.Unmarshal(p, &s); err != nil {
					return "", err
				}
				texts = append(texts, s)
				continue
			}
			if err := json.Unmarshal(p, &part); err != nil {
				return "", fmt.Errorf("content part: %w", err)
			}
			if part.Text != "" {
				texts = append(texts, part.Text)
				if len(part.Annotations) > 2 || len(part.Citations) > 2 {
					var pm map[string]any
					if json.Unmarshal(p, &pm) == nil {
						texts = append(texts, citedSources(pm)...)
					}
				}
			} else if doc := documentText(part.Type, part.Document, part.Source); doc != "" {
				texts = append(texts, doc)
			} else if part.Type != "" && part.Type != "text" {
				texts = append(texts, "["+part.Type+"]")
			}
		}
		return strings.Join(texts, "\n"), nil
	default:
		return "", fmt.Errorf("content is %s, want a string or a list of parts", jsonKind(raw[0]))
	}
}

// documentText is the text a document part gives a model, as a tool's
// result or a user's message holds it: Cohere's {"type": "document",
// "document": {"data": a text or an object, "id"}} (an object as its
// JSON) and Anthropic's {"type": "document", "source": {"type": "text",
// "data"}}; "" for a part of another type, or a document of another kind
// (a PDF's bytes, a file's id).
func documentText(typ string, document, source json.RawMessage) string {
	if typ != "document" {
		return ""
	}
	var doc struct {
		Type string          `json:"type"`
		Data json.RawMessage `json:"data"`
	}
	switch {
	case len(document) > 0:
		if json.Unmarshal(document, &doc) != nil {
			return ""
		}
	case len(source) > 0:
		if json.Unmarshal(source, &doc) != nil || doc.Type != "text" {
			return ""
		}
	}
	data := bytes.TrimSpace(doc.Data)
	var text string
	if len(data) > 0 && data[0] == '"' {
		if json.Unmarshal(data, &text) != nil {
			return ""
		}
		return strings.TrimSpace(text)
	}
	if len(data) > 0 && data[0] == '{' {
		return string(data)
	}
	return ""
}

// unquoteString decodes the JSON string literal raw when it holds valid UTF-8
// and no escapes but \n, \t, \r, \b, \f, \", \\ and \/, as most
// messages do; ok is false otherwise (\u escapes, invalid UTF-8, anything
// json.Unmarshal would refuse), and json.Unmarshal decodes it. A message
// was checked with the whole file, and json.Unmarshal would check it
// again, byte by byte, before reading it.
func unquoteString(raw []byte) (s string, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' || !utf8.Valid(raw) {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	// b has no buffer while body needs no decoding. Built in a Builder,
	// the text is not copied once more into a string: it is most of a
	// file's bytes.
	var b strings.Builder
	plain := 0 // body[plain:i] is text not yet written to b
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c < 0x20 || c == '"':
			return "", false
		case c != '\\':
			continue
		}
		if b.Cap() == 0 {
			b.Grow(len(body))
		}
		b.Write(body[plain:i])
		if i++; i == len(body) {
			return "", false
		}
		switch c := body[i]; c {
		case '"', '\\', '/':
			b.WriteByte(c)
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		default:
			return "", false
		}
		plain = i + 1
	}
	if b.Cap() == 0 {
		return string(body), true
	}
	b.Write(body[plain:])
	return b.String(), true
}

func jsonKind(b byte) string {
	switch b {
	case '{':
		return "an object"
	case 't', 'f':
		return "a boolean"
	default:
		return "a number"
	}
}

// scalarString renders a JSON scalar (string, number, bool) as plain text.
func scalarString(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	return string(raw)
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func firstRune(b []byte) string {
	s := string(b)
	for _, r := range s {
		return string(r)
	}
	return ""
}
