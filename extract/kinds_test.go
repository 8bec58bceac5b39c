package extract

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStepKindText(t *testing.T) {
	for _, k := range kindOrder {
		t.Run(k.String(), func(t *testing.T) {
			b, err := json.Marshal(k)
			require.NoError(t, err)
			var back StepKind
			require.NoError(t, json.Unmarshal(b, &back))
			assert.Equal(t, k, back)
		})
	}
	var k StepKind
	assert.Error(t, k.UnmarshalText([]byte("planning")))
	_, err := StepKind(200).MarshalText()
	assert.Error(t, err)
	b, err := json.Marshal(struct {
		K StepKind    `json:"k"`
		C ContextType `json:"c"`
	}{})
	require.NoError(t, err)
	assert.JSONEq(t, `{"k":"","c":""}`, string(b), "the zero value writes as the empty name")
}

func TestContextTypeText(t *testing.T) {
	for _, c := range []ContextType{ContextHandoff, ContextDecisionQuality, ContextErrorPropagation, ContextGeneral} {
		var back ContextType
		b, err := c.MarshalText()
		require.NoError(t, err)
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, c, back)
	}
	assert.Equal(t, "decision_quality", ContextDecisionQuality.String())
}

func TestKindSet(t *testing.T) {
	tests := []struct {
		name  string
		kinds []StepKind
		list  []StepKind
		json  string
	}{
		{"none", nil, nil, `null`},
		{"one", []StepKind{KindAnswer}, []StepKind{KindAnswer}, `["answer"]`},
		{"most specific first", []StepKind{KindMessage, KindAnswer, KindToolCall, KindTask}, []StepKind{KindTask, KindToolCall, KindAnswer, KindMessage}, `["task","tool_call","answer","message"]`},
		{"every kind", kindOrder, kindOrder, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := KindsOf(tt.kinds...)
			assert.Equal(t, tt.list, s.List())
			for _, k := range kindOrder {
				assert.Equal(t, slices.Contains(tt.kinds, k), s.Has(k), "%s", k)
			}
			if tt.json != "" {
				b, err := json.Marshal(s)
				require.NoError(t, err)
				assert.Equal(t, tt.json, string(b))
			}
		})
	}
	assert.Equal(t, "[tool_call answer]", KindsOf(KindAnswer, KindToolCall).String(), "written as fmt writes a list")
	assert.True(t, KindsOf(KindPlan, KindAnswer).Any(KindsOf(KindAnswer)))
	assert.False(t, KindsOf(KindPlan).Any(KindsOf(KindAnswer, KindReplan)))
}

func TestClaimKindText(t *testing.T) {
	for _, k := range []ClaimKind{ClaimNumber, ClaimDate, ClaimURL, ClaimPath, ClaimQuoted, ClaimEntity, ClaimTime} {
		b, err := json.Marshal(Claim{Kind: k, Norm: "1"})
		require.NoError(t, err)
		var back Claim
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Equal(t, k, back.Kind)
		assert.Equal(t, k.String()+":1", back.Key())
	}
	assert.Equal(t, `{"kind":"time","text":"7 pm","norm":"19:00","offset":3}`, mustJSON(t, Claim{Kind: ClaimTime, Text: "7 pm", Norm: "19:00", Offset: 3}))
	var k ClaimKind
	assert.Error(t, k.UnmarshalText([]byte("numbers")))
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
