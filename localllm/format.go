package localllm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// A format is the JSON schema a call sends as its structured-output format
// and checks the answer against: the same schema, built once, sent as
// json.RawMessage and resolved by the library for validation, so what is
// checked is what was asked for.
type format struct {
	schema   *jsonschema.Schema
	raw      json.RawMessage
	resolved *jsonschema.Resolved
}

// errOffSchema is wrapped by every error format.check returns for an
// answer, so a caller can tell a bad answer from its own mistakes.
var errOffSchema = errors.New("answer does not follow the schema")

func newFormat(s *jsonschema.Schema) (*format, error) {
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("marshal schema: %w", err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("resolve schema: %w", err)
	}
	return &format{schema: s, raw: raw, resolved: rs}, nil
}

// check validates content as one JSON value that follows the schema. The
// library decides; the error then names the first problem in the order the
// schema lists its properties ("$.vote.step: 5 is not one of [2 4 6]"),
// because the library reports whichever problem its map iteration met
// first, and the reason is cached and shown in the rationale, which must
// be the same on every run.
func (f *format) check(content string) error {
	dec := json.NewDecoder(strings.NewReader(content))
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("%w: not JSON: %v", errOffSchema, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%w: text after the JSON value", errOffSchema)
	}
	if err := f.resolved.Validate(v); err != nil {
		return fmt.Errorf("%w: %s", errOffSchema, explain(f.schema, "$", v, err))
	}
	return nil
}

// explain finds the first problem of v under s, depth first in property
// order; outer is the library's verdict on v, used when no part of v is at
// fault (a missing or an extra property).
func explain(s *jsonschema.Schema, path string, v any, outer error) string {
	switch x := v.(type) {
	case map[string]any:
		if s.Type != "object" {
			break
		}
		var missing []string
		for _, name := range s.PropertyOrder {
			sub, ok := x[name]
			if !ok {
				missing = append(missing, name)
				continue
			}
			if err := validate(s.Properties[name], sub); err != nil {
				return explain(s.Properties[name], path+"."+name, sub, err)
			}
		}
		if len(missing) > 0 {
			return fmt.Sprintf("%s: missing %s", path, strings.Join(missing, ", "))
		}
		for _, name := range slices.Sorted(maps.Keys(x)) {
			if _, ok := s.Properties[name]; !ok {
				return fmt.Sprintf("%s: unexpected property %q", path, name)
			}
		}
	case []any:
		if s.Type != "array" {
			break
		}
		if s.MaxItems != nil && len(x) > *s.MaxItems {
			return fmt.Sprintf("%s: %d items, more than %d", path, len(x), *s.MaxItems)
		}
		for i, item := range x {
			if err := validate(s.Items, item); err != nil {
				return explain(s.Items, fmt.Sprintf("%s[%d]", path, i), item, err)
			}
		}
	case float64:
		switch {
		case s.Type == "integer" && x != math.Trunc(x):
			return fmt.Sprintf("%s: %g is not an integer", path, x)
		case len(s.Enum) > 0:
			return fmt.Sprintf("%s: %g is not one of %v", path, x, s.Enum)
		case s.Minimum != nil && x < *s.Minimum:
			return fmt.Sprintf("%s: %g is below the minimum %g", path, x, *s.Minimum)
		case s.Maximum != nil && x > *s.Maximum:
			return fmt.Sprintf("%s: %g is above the maximum %g", path, x, *s.Maximum)
		}
	case string:
		if s.MaxLength != nil && utf8.RuneCountInString(x) > *s.MaxLength {
			return fmt.Sprintf("%s: string longer than %d characters", path, *s.MaxLength)
		}
	}
	if s.Type != "" {
		if got := jsonType(v); got != "a "+s.Type && got != "an "+s.Type {
			return fmt.Sprintf("%s: %s where the schema wants type %s", path, got, s.Type)
		}
	}
	return path + ": " + innermost(outer.Error())
}

// validate checks v against a part of a format's schema. The parts
// offattr builds have no references, so each resolves on its own.
func validate(s *jsonschema.Schema, v any) error {
	rs, err := s.Resolve(nil)
	if err != nil {
		return err
	}
	return rs.Validate(v)
}

func jsonType(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "null"
}

// innermost drops the library's chain of "validating /properties/x:"
// prefixes, keeping the reason.
func innermost(msg string) string {
	const prefix = "validating "
	for strings.HasPrefix(msg, prefix) {
		_, tail, ok := strings.Cut(msg[len(prefix):], ": ")
		if !ok {
			break
		}
		msg = tail
	}
	return msg
}

// Builders for the few shapes offattr asks for. Objects list their
// properties in order because Ollama turns the schema into a grammar that
// makes the model write keys in that order, and offattr wants evidence
// written before verdicts.

type property struct {
	name   string
	schema *jsonschema.Schema
}

// object requires every property and allows no other.
func object(props ...property) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
	for _, p := range props {
		s.Properties[p.name] = p.schema
		s.Required = append(s.Required, p.name)
		s.PropertyOrder = append(s.PropertyOrder, p.name)
	}
	return s
}

// number is a number in [lo, hi].
func number(lo, hi float64) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "number", Minimum: &lo, Maximum: &hi}
}

// integerEnum is an integer that must be one of values.
func integerEnum(values ...int) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "integer"}
	for _, v := range values {
		s.Enum = append(s.Enum, v)
	}
	return s
}

// text is a string of at most maxLen characters.
func text(maxLen int) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", MaxLength: &maxLen}
}

// list is an array of at most maxItems items.
func list(items *jsonschema.Schema, maxItems int) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "array", Items: items, MaxItems: &maxItems}
}
