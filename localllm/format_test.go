package localllm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func voteFormat(t *testing.T) *format {
	t.Helper()
	f, err := newFormat(object(
		property{"reason", text(20)},
		property{"step", integerEnum(3, 5)},
		property{"confidence", number(0, 1)},
	))
	require.NoError(t, err)
	return f
}

func TestFormatKeepsPropertyOrder(t *testing.T) {
	assert.Equal(t, `{"type":"object","properties":{"reason":{"type":"string","maxLength":20},`+
		`"step":{"type":"integer","enum":[3,5]},"confidence":{"type":"number","minimum":0,"maximum":1}},`+
		`"required":["reason","step","confidence"],"additionalProperties":false}`, string(voteFormat(t).raw))
}

func TestFormatCheck(t *testing.T) {
	vote := voteFormat(t)
	nested, err := newFormat(object(
		property{"step_3", object(property{"fault", number(0, 1)})},
		property{"suspects", list(object(property{"step", integerEnum(3, 5)}), 2)},
	))
	require.NoError(t, err)
	tests := []struct {
		name    string
		format  *format
		answer  string
		wantErr string // empty: valid
	}{
		{"valid", vote, `{"reason":"bad url","step":3,"confidence":0.8}`, ""},
		{"integer written as 5.0", vote, `{"reason":"","step":5.0,"confidence":1}`, ""},
		{"not JSON", vote, `The decisive step is 3.`, "not JSON"},
		{"truncated JSON", vote, `{"reason":"bad url","step":3,"conf`, "not JSON"},
		{"trailing text", vote, `{"reason":"","step":3,"confidence":0.8} done`, "text after"},
		{"missing required", vote, `{"reason":"","step":3}`, "$: missing confidence"},
		{"not in enum", vote, `{"reason":"","step":4,"confidence":0.8}`, "$.step: 4 is not one of [3 5]"},
		{"fractional integer", vote, `{"reason":"","step":3.5,"confidence":0.8}`, "$.step: 3.5 is not an integer"},
		{"string for number", vote, `{"reason":"","step":3,"confidence":"high"}`, "$.confidence: a string where the schema wants type number"},
		{"above maximum", vote, `{"reason":"","step":3,"confidence":80}`, "$.confidence: 80 is above the maximum 1"},
		{"below minimum", vote, `{"reason":"","step":3,"confidence":-0.1}`, "$.confidence: -0.1 is below the minimum 0"},
		{"string too long", vote, `{"reason":"123456789012345678901","step":3,"confidence":0.1}`, "$.reason: string longer than 20 characters"},
		{"extra property", vote, `{"reason":"","step":3,"confidence":0.1,"agent":"X"}`, `$: unexpected property "agent"`},
		{"array for object", vote, `[1,2]`, "$: an array where the schema wants type object"},
		{"nested valid", nested, `{"step_3":{"fault":0.2},"suspects":[{"step":5}]}`, ""},
		{"nested path", nested, `{"step_3":{"fault":2},"suspects":[]}`, "$.step_3.fault: 2 is above the maximum 1"},
		{"item off the enum", nested, `{"step_3":{"fault":0},"suspects":[{"step":4}]}`, "$.suspects[0].step: 4 is not one of [3 5]"},
		{"too many items", nested, `{"step_3":{"fault":0},"suspects":[{"step":3},{"step":5},{"step":3}]}`, "$.suspects: 3 items, more than 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.format.check(tt.answer)
			if tt.wantErr == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.ErrorIs(t, err, errOffSchema)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}

// TestFormatCheckIsStable: an answer with several problems gets the same
// reason every time (the reason is cached and shown in the rationale).
func TestFormatCheckIsStable(t *testing.T) {
	f, err := newFormat(answerSchema([]int{1, 2, 3, 4, 5, 6, 7, 8}))
	require.NoError(t, err)
	bad := answerJSON([]int{1, 2, 3, 4, 5, 6, 7, 8}, 9, 4, 2)
	for range 20 {
		assert.EqualError(t, f.check(bad), "answer does not follow the schema: $.step_1.fault: 9 is above the maximum 1")
	}
}
