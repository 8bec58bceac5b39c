package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBrowserUseHistory: browser-use's saved agent history is read as
// the agent's calls of its actions and their results, a failed action's
// error among them; its screenshots are never read, and a task beside
// the history is the user's.
func TestBrowserUseHistory(t *testing.T) {
	shot := "iVBORw0KGgoAAAANSUhEUgAA" + strings.Repeat("q8Zr+3/Lm0Wx", 40)
	data := `{"task": "Close issue #2291 in acme/widgets.", "history": [
 {"model_output": {"current_state": {"evaluation_previous_goal": "Unknown - starting", "memory": "", "next_goal": "Open the issues"}, "action": [{"go_to_url": {"url": "https://github.com/acme/widgets/issues"}}]},
  "result": [{"is_done": false, "extracted_content": "Navigated to https://github.com/acme/widgets/issues", "error": null, "include_in_memory": true}],
  "state": {"url": "about:blank", "title": "", "tabs": [], "screenshot": "` + shot + `", "interacted_element": [null]}, "metadata": {"step_number": 1}},
 {"model_output": null, "result": [{"error": "Rate limit", "is_done": false}], "state": {"url": "https://github.com/acme/widgets/issues", "screenshot": null}},
 {"model_output": {"current_state": {"evaluation_previous_goal": "Success", "memory": "", "next_goal": "Open it"}, "action": [{"click_element_by_index": {"index": 35}}]},
  "result": [{"is_done": false, "extracted_content": null, "error": "Element with index 35 does not exist - retry or use alternative actions"}],
  "state": {"url": "https://github.com/acme/widgets/issues", "title": "Issues", "screenshot": "` + shot + `"}},
 {"model_output": {"current_state": {"evaluation_previous_goal": "Failed", "memory": "", "next_goal": "Report"}, "action": [{"done": {"text": "Could not close the issue.", "success": false}}]},
  "result": [{"is_done": true, "success": false, "extracted_content": "Could not close the issue.", "error": null}],
  "state": {"url": "https://github.com/acme/widgets/issues", "title": "Issues", "screenshot": "` + shot + `"}}
]}`
	path := filepath.Join(t.TempDir(), "history.json")
	require.NoError(t, os.WriteFile(path, []byte(data), 0o600))
	r, err := Load(path, Options{})
	require.NoError(t, err)
	assert.Equal(t, "Close issue #2291 in acme/widgets.", r.Question)
	var kinds []Kind
	for _, s := range r.Steps {
		kinds = append(kinds, s.Kind)
		assert.NotContains(t, s.Content, shot[:40])
	}
	assert.Equal(t, []Kind{KindUser, KindToolCall, KindToolResult, KindToolCall, KindToolResult, KindToolCall, KindToolResult}, kinds)
	assert.Contains(t, r.Steps[3].ToolCalls()[0].Arguments, `"click_element_by_index"`)
	assert.Equal(t, r.Steps[3].ToolCalls()[0].ID, r.Steps[4].ToolCallID())
	assert.Contains(t, r.Steps[4].Content, "Element with index 35 does not exist")
}
