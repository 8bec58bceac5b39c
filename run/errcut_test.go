package run_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offattr/offattr/run"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestErrorsCutTheFilesText: an error about a file not understood shows
// its keys and names cut, however long they are in the file.
func TestErrorsCutTheFilesText(t *testing.T) {
	long := strings.Repeat("k", 1<<20)
	for _, tc := range []struct{ name, data string }{
		{"object.json", `{"` + long + `": 1, "b": 2}`},
		{"list.json", `[{"` + long + `": 1, "b": 2}]`},
		{"otlp.json", `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"` + long + `","attributes":[{"key":"` + long + `","value":{"stringValue":"v"}}]}]}]}]}`},
		{"flat.jsonl", `{"trace_id": "a1", "span_id": "b1", "name": "n", "start_time": "2025-01-01T00:00:00Z", "end_time": "2025-01-01T00:00:01Z"}` + "\n" +
			`{"name": "n", "start_time": "2025-01-01T00:00:00Z", "` + long + `": 1}` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), tc.name)
			require.NoError(t, os.WriteFile(p, []byte(tc.data), 0o644))
			_, err := run.LoadAll(context.Background(), p, run.Options{})
			require.Error(t, err)
			assert.Less(t, len(err.Error()), 4096, "%.300s", err.Error())
		})
	}
}
