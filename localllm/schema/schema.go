// Package schema writes the small JSON Schema subset offattr sends to Ollama
// as a structured-output format, and checks answers against it. It knows the
// keywords offattr uses (type, properties in order, required, enum, minimum,
// maximum, maxLength, additionalProperties) and nothing else.
package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Schema is one node of a JSON Schema. Properties keep their order because
// Ollama turns the schema into a grammar that makes the model write keys in
// that order, and offattr wants evidence written before verdicts.
type Schema struct {
	Type                 string     `json:"type,omitempty"`
	Properties           Properties `json:"properties,omitempty"`
	Required             []string   `json:"required,omitempty"`
	Enum                 []any      `json:"enum,omitempty"`
	Minimum              *float64   `json:"minimum,omitempty"`
	Maximum              *float64   `json:"maximum,omitempty"`
	MaxLength            *int       `json:"maxLength,omitempty"`
	AdditionalProperties *bool      `json:"additionalProperties,omitempty"`
}

// Property is one named member of an object schema.
type Property struct {
	Name   string
	Schema *Schema
}

// Properties is an ordered list of properties, written as a JSON object.
type Properties []Property

// MarshalJSON writes the properties as an object in their order.
func (ps Properties) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(p.Name)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(p.Schema)
		if err != nil {
			return nil, fmt.Errorf("property %s: %w", p.Name, err)
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads an object of schemas keeping the order of its keys.
func (ps *Properties) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("properties must be an object")
	}
	*ps = nil
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		name, _ := t.(string)
		var s Schema
		if err := dec.Decode(&s); err != nil {
			return fmt.Errorf("property %s: %w", name, err)
		}
		*ps = append(*ps, Property{Name: name, Schema: &s})
	}
	_, err := dec.Token()
	return err
}

// Get returns the schema of the named property, or nil.
func (ps Properties) Get(name string) *Schema {
	for _, p := range ps {
		if p.Name == name {
			return p.Schema
		}
	}
	return nil
}

// Raw returns the schema as the json.RawMessage api.ChatRequest.Format wants.
func (s *Schema) Raw() (json.RawMessage, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("marshal schema: %w", err)
	}
	return b, nil
}

// Object builds an object schema whose properties are all required and no
// others are allowed.
func Object(props ...Property) *Schema {
	no := false
	s := &Schema{Type: "object", Properties: props, AdditionalProperties: &no}
	for _, p := range props {
		s.Required = append(s.Required, p.Name)
	}
	return s
}

// Number builds a number schema bounded to [lo, hi].
func Number(lo, hi float64) *Schema {
	return &Schema{Type: "number", Minimum: &lo, Maximum: &hi}
}

// IntegerEnum builds an integer schema that accepts only the given values.
func IntegerEnum(values ...int) *Schema {
	s := &Schema{Type: "integer"}
	for _, v := range values {
		s.Enum = append(s.Enum, v)
	}
	return s
}

// String builds a string schema of at most maxLen characters (0: no limit).
func String(maxLen int) *Schema {
	s := &Schema{Type: "string"}
	if maxLen > 0 {
		s.MaxLength = &maxLen
	}
	return s
}
