package spans

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestErrorsCutValues: an error quotes a value from the file (a span's
// name, a time, a duration) cut short, so that a value of a megabyte
// gives an error of one short line.
func TestErrorsCutValues(t *testing.T) {
	long := strings.Repeat("A", 1<<20)
	for name, tc := range map[string]struct {
		data   string
		format Format
		want   string
	}{
		"a flat span's name and start time": {`[{"trace_id":"t","span_id":"s","name":"` + long + `","start_time":"2026-11-27T14:02:00Z` + long + `"}]`, OpenInference, "is not a time"},
		"a flat span with no ids":           {`[{"name":"` + long + `","start_time":1}]`, OpenInference, "has no trace id or span id"},
		"a flat span's duration":            {`[{"trace_id":"t","span_id":"s","name":"n","start_time":1,"duration":"` + long + `"}]`, OpenInference, "is not a duration"},
		"a time as a list":                  {`[{"trace_id":"t","span_id":"s","name":"n","start_time":[` + strings.Repeat("1,", 1<<18) + `1]}]`, OpenInference, "is not a time"},
		"a Jaeger span with no ids":         {`{"data":[{"traceID":"t","spans":[{"operationName":"` + long + `"}]}]}`, Jaeger, "has no traceID or spanID"},
		"a LangSmith run's start time":      {`[{"id":"r","trace_id":"t","name":"` + long + `","start_time":"` + long + `"}]`, LangSmith, "start_time"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Decode(context.Background(), []byte(tc.data), tc.format)
			require.Error(t, err)
			msg := err.Error()
			require.Less(t, len(msg), 400, "an error of %d bytes: %.200s", len(msg), msg)
			assert.Contains(t, msg, tc.want)
			assert.Contains(t, msg, "…")
		})
	}
}
