package run

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run/spans"
)

// TestHoneyHiveValues: a traced function's arguments and result, flattened
// into attributes a leaf, read back as JSON: one argument as itself, more
// as an object by their names, a string result as it is.
func TestHoneyHiveValues(t *testing.T) {
	tests := []struct {
		name         string
		attrs        spans.Attrs
		args, result string
	}{
		{"one object argument", spans.Attrs{
			{Key: "honeyhive_inputs._params_.args.city", Value: spans.String("Oslo")},
			{Key: "honeyhive_outputs.result.city", Value: spans.String("Oslo")},
			{Key: "honeyhive_outputs.result.tempC", Value: spans.Value{Kind: spans.KindInt, Int: 7}},
		}, `{"city":"Oslo"}`, `{"city":"Oslo","tempC":7}`},
		{"two arguments", spans.Attrs{
			{Key: "honeyhive_inputs._params_.city", Value: spans.String("Oslo")},
			{Key: "honeyhive_inputs._params_.days", Value: spans.Value{Kind: spans.KindInt, Int: 2}},
			{Key: "honeyhive_outputs.result", Value: spans.String("rain")},
		}, `{"city":"Oslo","days":2}`, "rain"},
		{"none", spans.Attrs{{Key: "honeyhive_event_type", Value: spans.String("tool")}}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.args, honeyhiveArguments(tt.attrs))
			assert.Equal(t, tt.result, honeyhiveResult(tt.attrs))
		})
	}
}

// TestHoneyHiveDeepKey: a leaf's key of more parts than a JSON reader
// nests is rebuilt no deeper than one nests, its last parts one key, so
// that the arguments are JSON a reader reads (and a key of a million
// parts no recursion a million deep).
func TestHoneyHiveDeepKey(t *testing.T) {
	attrs := spans.Attrs{{Key: "honeyhive_inputs._params_.q." + strings.Repeat("a.", 2*maxFlattenedDepth) + "b", Value: spans.String("Oslo")}}
	args := honeyhiveArguments(attrs)
	var v any
	assert.NoError(t, json.Unmarshal([]byte(args), &v))
	assert.LessOrEqual(t, strings.Count(args, "{"), maxFlattenedDepth, "objects nested")
	assert.Contains(t, args, `a.a.b":"Oslo"}`, "the last parts one key")
}
