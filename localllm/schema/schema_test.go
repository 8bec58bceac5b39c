package schema

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func voteSchema() *Schema {
	return Object(
		Property{"reason", String(20)},
		Property{"step", IntegerEnum(3, 5)},
		Property{"confidence", Number(0, 1)},
	)
}

func TestMarshalKeepsPropertyOrder(t *testing.T) {
	raw, err := voteSchema().Raw()
	require.NoError(t, err)
	assert.Equal(t, `{"type":"object","properties":{"reason":{"type":"string","maxLength":20},`+
		`"step":{"type":"integer","enum":[3,5]},"confidence":{"type":"number","minimum":0,"maximum":1}},`+
		`"required":["reason","step","confidence"],"additionalProperties":false}`, string(raw))

	var back Schema
	require.NoError(t, json.Unmarshal(raw, &back))
	names := []string{}
	for _, p := range back.Properties {
		names = append(names, p.Name)
	}
	assert.Equal(t, []string{"reason", "step", "confidence"}, names)
	// The decoded schema (enum values now float64) validates the same way.
	assert.NoError(t, back.Validate([]byte(`{"reason":"x","step":5,"confidence":0.5}`)))
	assert.Error(t, back.Validate([]byte(`{"reason":"x","step":4,"confidence":0.5}`)))
}

func TestValidate(t *testing.T) {
	nested := Object(
		Property{"step_3", Object(Property{"fault", Number(0, 1)})},
		Property{"vote", voteSchema()},
	)
	tests := []struct {
		name    string
		schema  *Schema
		answer  string
		wantErr string // empty: valid
	}{
		{"valid", voteSchema(), `{"reason":"bad url","step":3,"confidence":0.8}`, ""},
		{"integer written as 5.0", voteSchema(), `{"reason":"","step":5.0,"confidence":1}`, ""},
		{"not JSON", voteSchema(), `The decisive step is 3.`, "not JSON"},
		{"truncated JSON", voteSchema(), `{"reason":"bad url","step":3,"conf`, "not JSON"},
		{"trailing text", voteSchema(), `{"reason":"","step":3,"confidence":0.8} done`, "text after"},
		{"missing required", voteSchema(), `{"reason":"","step":3}`, `$: missing required property "confidence"`},
		{"not in enum", voteSchema(), `{"reason":"","step":4,"confidence":0.8}`, "$.step: 4 is not one of [3 5]"},
		{"fractional integer", voteSchema(), `{"reason":"","step":3.5,"confidence":0.8}`, "$.step: 3.5 is not of type integer"},
		{"string for number", voteSchema(), `{"reason":"","step":3,"confidence":"high"}`, `$.confidence: "high" is not of type number`},
		{"above maximum", voteSchema(), `{"reason":"","step":3,"confidence":80}`, "$.confidence: 80 is above the maximum 1"},
		{"below minimum", voteSchema(), `{"reason":"","step":3,"confidence":-0.1}`, "$.confidence: -0.1 is below the minimum 0"},
		{"string too long", voteSchema(), `{"reason":"123456789012345678901","step":3,"confidence":0.1}`, "$.reason: string longer than 20"},
		{"extra property", voteSchema(), `{"reason":"","step":3,"confidence":0.1,"agent":"X"}`, `unexpected property "agent"`},
		{"array for object", voteSchema(), `[1,2]`, "$: [1,2] is not of type object"},
		{"nested valid", nested, `{"step_3":{"fault":0.2},"vote":{"reason":"","step":3,"confidence":0.9}}`, ""},
		{"nested path", nested, `{"step_3":{"fault":2},"vote":{"reason":"","step":3,"confidence":0.9}}`, "$.step_3.fault: 2 is above"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.schema.Validate([]byte(tt.answer))
			if tt.wantErr == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInvalid)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}
