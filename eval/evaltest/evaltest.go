// Package evaltest lays out small labelled corpora for the tests of eval
// and of the commands built on it.
package evaltest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// WriteCases lays out a corpus with two subsets, A (three cases) and B (one
// case and one file that is not JSON), and returns its directory. Every case
// is the same four-step run with the ground truth "the answer"; only the
// labels differ: A/1 websurfer@2, A/2 Orchestrator@1, A/10 Web_Surfer@3,
// B/1 Orchestrator@3.
func WriteCases(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(rel string, v any) {
		path := filepath.Join(dir, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		data, ok := v.(string)
		if !ok {
			b, err := json.Marshal(v)
			require.NoError(t, err)
			data = string(b)
		}
		require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
	}
	kase := func(agent, step string) map[string]any {
		return map[string]any{
			"question": "q", "ground_truth": "the answer",
			"history": []map[string]string{
				{"role": "human", "content": "q"},
				{"role": "Orchestrator (-> Web_Surfer)", "content": "look it up"},
				{"role": "WebSurfer", "content": "found it"},
				{"role": "Orchestrator (thought)", "content": "done"},
			},
			"mistake_agent": agent, "mistake_step": step,
		}
	}
	write("A/1.json", kase("websurfer", "2"))
	write("A/2.json", kase("Orchestrator", "1"))
	write("A/10.json", kase("Web_Surfer", "3"))
	write("B/1.json", kase("Orchestrator", "3"))
	write("B/9.json", "{ not json")
	return dir
}
