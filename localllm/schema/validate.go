package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"unicode/utf8"
)

// ErrInvalid is wrapped by every error Validate returns, so a caller can tell
// a bad answer from its own mistakes.
var ErrInvalid = errors.New("answer does not follow the schema")

// Validate checks that data is one JSON value that follows s. The error names
// the JSON path of the first problem ("$.vote.step: 7 is not one of [3 5]").
func (s *Schema) Validate(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("%w: not JSON: %v", ErrInvalid, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%w: text after the JSON value", ErrInvalid)
	}
	if err := s.check("$", v); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	return nil
}

func (s *Schema) check(path string, v any) error {
	if err := s.checkType(path, v); err != nil {
		return err
	}
	if len(s.Enum) > 0 && !inEnum(s.Enum, v) {
		return fmt.Errorf("%s: %s is not one of %v", path, show(v), s.Enum)
	}
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		if s.Minimum != nil && f < *s.Minimum {
			return fmt.Errorf("%s: %s is below the minimum %g", path, x, *s.Minimum)
		}
		if s.Maximum != nil && f > *s.Maximum {
			return fmt.Errorf("%s: %s is above the maximum %g", path, x, *s.Maximum)
		}
	case string:
		if s.MaxLength != nil && utf8.RuneCountInString(x) > *s.MaxLength {
			return fmt.Errorf("%s: string longer than %d characters", path, *s.MaxLength)
		}
	case map[string]any:
		return s.checkObject(path, x)
	}
	return nil
}

func (s *Schema) checkType(path string, v any) error {
	if s.Type == "" {
		return nil
	}
	ok := false
	switch s.Type {
	case "object":
		_, ok = v.(map[string]any)
	case "array":
		_, ok = v.([]any)
	case "string":
		_, ok = v.(string)
	case "boolean":
		_, ok = v.(bool)
	case "null":
		ok = v == nil
	case "number":
		_, ok = v.(json.Number)
	case "integer":
		if n, isNum := v.(json.Number); isNum {
			f, err := n.Float64()
			ok = err == nil && f == math.Trunc(f)
		}
	default:
		return fmt.Errorf("%s: schema type %q is not supported", path, s.Type)
	}
	if !ok {
		return fmt.Errorf("%s: %s is not of type %s", path, show(v), s.Type)
	}
	return nil
}

func (s *Schema) checkObject(path string, obj map[string]any) error {
	for _, name := range s.Required {
		if _, ok := obj[name]; !ok {
			return fmt.Errorf("%s: missing required property %q", path, name)
		}
	}
	// Check properties in schema order so the first problem reported is
	// stable, then any extra keys.
	for _, p := range s.Properties {
		if v, ok := obj[p.Name]; ok {
			if err := p.Schema.check(path+"."+p.Name, v); err != nil {
				return err
			}
		}
	}
	if s.AdditionalProperties != nil && !*s.AdditionalProperties {
		for _, k := range sortedKeys(obj) {
			if s.Properties.Get(k) == nil {
				return fmt.Errorf("%s: unexpected property %q", path, k)
			}
		}
	}
	return nil
}

func inEnum(enum []any, v any) bool {
	for _, e := range enum {
		if equal(e, v) {
			return true
		}
	}
	return false
}

// equal compares a schema enum value (Go int, float64, string, bool) with a
// decoded answer value (json.Number for numbers).
func equal(e, v any) bool {
	if n, ok := v.(json.Number); ok {
		f, err := n.Float64()
		if err != nil {
			return false
		}
		switch x := e.(type) {
		case int:
			return f == float64(x)
		case float64:
			return f == x
		case json.Number:
			g, err := x.Float64()
			return err == nil && f == g
		}
		return false
	}
	return e == v
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil || len(b) > 40 {
		return fmt.Sprintf("%T", v)
	}
	return string(b)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
