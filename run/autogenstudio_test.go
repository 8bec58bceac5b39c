package run

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// studioMessages is an AutoGen AgentChat team's messages: the user's
// task, a coder's draft, a reviewer's test run that fails and its
// approval.
const studioMessages = `[
 {"id": "m1", "source": "user", "models_usage": null, "metadata": {}, "created_at": "2025-03-11T10:00:00Z", "content": "Write median(xs) with tests.", "type": "TextMessage"},
 {"id": "m2", "source": "coder", "models_usage": {"prompt_tokens": 2, "completion_tokens": 3}, "metadata": {}, "created_at": "2025-03-11T10:00:05Z", "content": "def median(xs): return sorted(xs)[len(xs)//2]", "type": "TextMessage"},
 {"id": "m3", "source": "reviewer", "models_usage": null, "metadata": {}, "created_at": "2025-03-11T10:00:07Z", "content": [{"id": "c1", "arguments": "{\"code\": \"assert median([4, 1, 3, 2]) == 2.5\"}", "name": "run_python"}], "type": "ToolCallRequestEvent"},
 {"id": "m4", "source": "reviewer", "models_usage": null, "metadata": {}, "created_at": "2025-03-11T10:00:08Z", "content": [{"content": "AssertionError", "name": "run_python", "call_id": "c1", "is_error": false}], "type": "ToolCallExecutionEvent"},
 {"id": "m5", "source": "reviewer", "models_usage": null, "metadata": {}, "created_at": "2025-03-11T10:00:10Z", "content": "The tests pass. APPROVE", "type": "TextMessage"}]`

// TestAutoGenStudioRuns: a run as AutoGen Studio keeps it reads the
// team's messages, each under its agent, with a label beside them; from
// its team result's task result, else, a run that has none yet, from the
// rows of its messages, each message under "config".
func TestAutoGenStudioRuns(t *testing.T) {
	rows := `[` + studioRow("m1") + `,` + studioRow("m2") + `]`
	for name, data := range map[string]string{
		"team result": `{"id": "r1", "session_id": 14, "status": "complete", "task": {"source": "user", "content": "Write median(xs) with tests.", "message_type": "text"},
 "team_result": {"task_result": {"messages": ` + studioMessages + `, "stop_reason": "Text 'APPROVE' mentioned"}, "usage": "", "duration": 10.2},
 "messages": ` + rows + `, "error_message": null, "mistake_agent": "reviewer", "mistake_step": 4}`,
		"message rows": `{"id": "r1", "session_id": 14, "status": "active", "task": {"source": "user", "content": "Write median(xs) with tests.", "message_type": "text"},
 "team_result": null, "messages": [` + studioRows() + `], "mistake_agent": "reviewer", "mistake_step": 4}`,
	} {
		t.Run(name, func(t *testing.T) {
			c, err := ParseCase("run.json", []byte(data), Options{})
			require.NoError(t, err)
			r := c.Run
			assert.Equal(t, "Write median(xs) with tests.", r.Question)
			assert.Equal(t, []string{"user user", "coder message", "reviewer tool_call", "reviewer tool_result", "reviewer message"}, agentKinds(r))
			require.NotNil(t, c.Label)
			assert.Equal(t, "reviewer", c.Label.Agent)
			assert.Equal(t, 4, c.Label.Step)
		})
	}
	_, _, ok := studioRunMessages([]byte(`{"messages": [{"config": {"temperature": 0}}], "team_result": null}`))
	assert.False(t, ok, "rows whose config holds no team message")
}

// studioRow is the row AutoGen Studio keeps for the message of
// studioMessages whose id is id.
func studioRow(id string) string {
	for _, m := range decodeList(studioMessages) {
		if m.(map[string]any)["id"] == id {
			return `{"created_at": "2025-03-11T10:00:00", "config": ` + jsonOf(m) + `, "session_id": 14, "run_id": "r1", "user_id": "guest", "message_meta": {}}`
		}
	}
	panic("no message " + id)
}

// studioRows is a row for each message of studioMessages.
func studioRows() string {
	var out string
	for i, m := range decodeList(studioMessages) {
		if i > 0 {
			out += ","
		}
		out += studioRow(m.(map[string]any)["id"].(string))
	}
	return out
}

func decodeList(s string) []any {
	var list []any
	if err := json.Unmarshal([]byte(s), &list); err != nil {
		panic(err)
	}
	return list
}

func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// FuzzParseAutoGenStudio reads fuzzed AutoGen Studio runs, from the
// test's shapes.
func FuzzParseAutoGenStudio(f *testing.F) {
	f.Add([]byte(`{"session_id": 1, "task": {"content": "t"}, "team_result": {"task_result": {"messages": ` + studioMessages + `}}, "messages": []}`))
	f.Add([]byte(`{"session_id": 1, "messages": [` + studioRows() + `], "mistake_agent": "coder", "mistake_step": 1}`))
	fuzzFormat(f, FormatAuto)
}

// agentKinds is the agent and kind of each step of r.
func agentKinds(r *Run) []string {
	out := make([]string, len(r.Steps))
	for i, s := range r.Steps {
		out[i] = s.Agent + " " + string(s.Kind)
	}
	return out
}
