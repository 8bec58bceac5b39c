package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCLIAgentSessions: the session files of Gemini CLI, Qwen Code,
// OpenCode, Copilot Chat and the UI messages of Cline's family are read
// by their shape into a transcript's steps (the model's turn with its
// calls, each call's result, the user's words), and a label beside them
// is the run's.
func TestCLIAgentSessions(t *testing.T) {
	tests := []struct {
		name, data string
		steps      []string
		contents   map[int]string
		calls      map[int]ToolCall
		label      *Label
	}{
		{"gemini cli chat recording", `{"sessionId": "s1", "projectHash": "h", "startTime": "2026-01-01T00:00:00Z", "messages": [
			{"id": "1", "type": "user", "content": "Fix refill in bucket.go."},
			{"id": "2", "type": "gemini", "content": "", "thoughts": [{"subject": "s", "description": "d"}], "toolCalls": [{"id": "c1", "name": "read_file", "args": {"absolute_path": "/p/bucket.go"},
				"result": [{"functionResponse": {"id": "c1", "name": "read_file", "response": {"output": "package bucket"}}}], "status": "success", "resultDisplay": ""}]},
			{"id": "3", "type": "info", "content": "Request cancelled."},
			{"id": "4", "type": "gemini", "content": "Done.", "toolCalls": [{"id": "c2", "name": "run_shell_command", "args": {"command": "go test ./..."}, "status": "error", "resultDisplay": "exit 1"}]},
			{"id": "5", "type": "gemini", "content": [{"text": "All tests pass."}]}], "mistake_agent": "assistant", "mistake_step": 5}`,
			[]string{"user user", "assistant tool_call", "assistant tool_result", "assistant tool_call", "assistant tool_result", "assistant message"},
			map[int]string{2: "package bucket", 4: "Error: exit 1", 5: "All tests pass."},
			map[int]ToolCall{1: {ID: "c1", Name: "read_file", Arguments: `{"absolute_path":"/p/bucket.go"}`}},
			&Label{Agent: "assistant", Step: 5}},
		{"qwen code records", `{"uuid": "u1", "parentUuid": null, "sessionId": "s", "type": "user", "message": {"role": "user", "parts": [{"text": "Fix total()."}]}}
{"uuid": "u2", "parentUuid": "u1", "sessionId": "s", "type": "assistant", "model": "qwen3-coder-plus", "message": {"role": "model", "parts": [{"text": "Reading."}, {"functionCall": {"id": "c1", "name": "read_file", "args": {"absolute_path": "/p/money.py"}}}]}}
{"uuid": "u3", "parentUuid": "u2", "sessionId": "s", "type": "tool_result", "message": {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "read_file", "response": {"output": "def total(): ..."}}}]}, "toolCallResult": {"callId": "c1", "status": "success"}}
{"uuid": "u4", "parentUuid": "u3", "sessionId": "s", "type": "system", "subtype": "chat_compression", "systemPayload": {}}
{"uuid": "u5", "parentUuid": "u4", "sessionId": "s", "type": "assistant", "message": {"role": "model", "parts": [{"text": "Fixed."}]}}
{"mistake_agent": "assistant", "mistake_step": 1}`,
			[]string{"user user", "assistant tool_call", "assistant tool_result", "assistant message"},
			map[int]string{1: "Reading.", 2: "def total(): ..."},
			map[int]ToolCall{1: {ID: "c1", Name: "read_file", Arguments: `{"absolute_path":"/p/money.py"}`}},
			&Label{Agent: "assistant", Step: 1}},
		{"opencode export", `{"info": {"id": "ses_1", "title": "t", "directory": "/p"}, "messages": [
			{"info": {"id": "m1", "role": "user"}, "parts": [{"type": "text", "text": "Add a coupon."}, {"type": "text", "text": "<file>", "synthetic": true}]},
			{"info": {"id": "m2", "role": "assistant", "mode": "build"}, "parts": [{"type": "step-start"}, {"type": "reasoning", "text": "think"}, {"type": "text", "text": "Editing."},
				{"type": "tool", "callID": "t1", "tool": "edit", "state": {"status": "completed", "input": {"filePath": "a.ts"}, "output": "ok"}},
				{"type": "tool", "callID": "t2", "tool": "bash", "state": {"status": "error", "input": {"command": "tsc"}, "error": "TS2304"}},
				{"type": "step-finish"}, {"type": "step-start"}, {"type": "text", "text": "Unrelated; done."}, {"type": "step-finish"}]},
			{"info": {"id": "m3", "role": "user"}, "parts": [{"type": "text", "text": "Why?"}]},
			{"info": {"id": "m4", "role": "assistant"}, "parts": [{"type": "text", "text": "Because."}]}]}`,
			[]string{"user user", "assistant tool_call", "assistant tool_result", "assistant tool_result", "assistant message", "user user", "assistant message"},
			map[int]string{0: "Add a coupon.", 1: "Editing.", 2: "ok", 3: "Error: TS2304", 4: "Unrelated; done.", 6: "Because."},
			map[int]ToolCall{1: {ID: "t1", Name: "edit", Arguments: `{"filePath":"a.ts"}`}},
			nil},
		{"copilot chat export", `{"requesterUsername": "u", "responderUsername": "GitHub Copilot", "requests": [{"requestId": "r1", "message": {"text": "Quote CSV fields."},
			"response": [{"value": "I'll look."}, {"kind": "toolInvocationSerialized", "toolId": "copilot_readFile", "toolCallId": "c1"}],
			"result": {"metadata": {"toolCallRounds": [{"response": "I'll look.", "toolCalls": [{"name": "copilot_readFile", "arguments": "{\"filePath\":\"csv.ts\"}", "id": "c1"}]}, {"response": "Done.", "toolCalls": []}],
				"toolCallResults": {"c1": {"$mid": 20, "content": [{"$mid": 21, "value": "export function writeCsv() {}"}]}}}}},
			{"requestId": "r2", "message": {"text": "Thanks?"}, "response": [{"value": "You're "}, {"value": "welcome."}, {"kind": "codeblockUri"}]}], "mistake_agent": "assistant", "mistake_step": 1}`,
			[]string{"user user", "assistant tool_call", "assistant tool_result", "assistant message", "user user", "assistant message"},
			map[int]string{2: "export function writeCsv() {}", 3: "Done.", 5: "You're welcome."},
			map[int]ToolCall{1: {ID: "c1", Name: "copilot_readFile", Arguments: `{"filePath":"csv.ts"}`}},
			&Label{Agent: "assistant", Step: 1}},
		{"cline ui messages", `[{"ts": 1, "type": "say", "say": "task", "text": "Fix the KeyError."},
			{"ts": 2, "type": "say", "say": "api_req_started", "text": "{\"tokensIn\": 10}"},
			{"ts": 3, "type": "say", "say": "text", "text": "Delegating."},
			{"ts": 4, "type": "ask", "ask": "tool", "text": "{\"tool\": \"newTask\", \"mode\": \"code\", \"content\": \"Fix views.py\"}"},
			{"ts": 5, "type": "say", "say": "subtask_result", "text": "Fixed views.py."},
			{"ts": 6, "type": "say", "say": "api_req_started", "text": "{}"},
			{"ts": 7, "type": "ask", "ask": "command", "text": "pytest"},
			{"ts": 8, "type": "say", "say": "command_output", "text": "1 failed"},
			{"ts": 9, "type": "ask", "ask": "command_output", "text": "11 passed"},
			{"ts": 10, "type": "say", "say": "user_feedback", "text": "Still failing."},
			{"ts": 11, "type": "say", "say": "api_req_started", "text": "{}"},
			{"ts": 12, "type": "say", "say": "completion_result", "text": "Done."}, {"ts": 13, "type": "ask", "ask": "completion_result", "text": ""}]`,
			[]string{"user user", "assistant tool_call", "code message", "assistant tool_call", "assistant tool_result", "user user", "assistant message"},
			map[int]string{1: "Delegating.", 2: "Fixed views.py.", 4: "1 failed\n11 passed", 6: "Done."},
			map[int]ToolCall{3: {ID: "ui-7-6", Name: "execute_command", Arguments: `{"command":"pytest"}`}},
			nil},
		{"ui messages, the task said before the first request", `[{"ts": 1, "type": "say", "say": "text", "text": "Fix it."},
			{"ts": 2, "type": "say", "say": "api_req_started", "text": "{}"}, {"ts": 3, "type": "say", "say": "text", "text": "On it."}]`,
			[]string{"user user", "assistant message"}, map[int]string{0: "Fix it."}, nil, nil},
		{"a label beside a list under a key of its own", `{"mistake_agent": "assistant", "mistake_step": 1, "ui_messages": [{"ts": 1, "type": "say", "say": "task", "text": "Fix it."},
			{"ts": 2, "type": "say", "say": "api_req_started", "text": "{}"}, {"ts": 3, "type": "say", "say": "text", "text": "On it."}]}`,
			[]string{"user user", "assistant message"}, nil, nil, &Label{Agent: "assistant", Step: 1}},
		{"a label beside a chat under a key of its own", `{"conversation": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}], "mistake_agent": "assistant", "mistake_step": 1}`,
			[]string{"user user", "assistant message"}, nil, nil, &Label{Agent: "assistant", Step: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCase("session.json", []byte(tt.data), Options{})
			require.NoError(t, err)
			var got []string
			for _, s := range c.Run.Steps {
				got = append(got, s.Agent+" "+string(s.Kind))
			}
			assert.Equal(t, tt.steps, got)
			for i, want := range tt.contents {
				assert.Equal(t, want, c.Run.Steps[i].Content, "step %d", i)
			}
			for i, want := range tt.calls {
				require.NotEmpty(t, c.Run.Steps[i].ToolCalls(), "step %d", i)
				assert.Equal(t, want, c.Run.Steps[i].ToolCalls()[0], "step %d", i)
			}
			assert.Equal(t, tt.label, c.Label)
		})
	}
}

// TestCLIAgentShapesLeftAlone: files near those shapes that are not
// theirs are read as before, or refused as before.
func TestCLIAgentShapesLeftAlone(t *testing.T) {
	// A Claude Code log, whose records are Qwen Code's in all but their
	// messages' content, stays Claude Code's.
	c, err := ParseCase("claude.jsonl", []byte(`{"type": "user", "uuid": "u1", "sessionId": "s", "message": {"role": "user", "content": "Fix it."}}
{"type": "assistant", "uuid": "u2", "sessionId": "s", "message": {"role": "assistant", "content": [{"type": "text", "text": "Done."}]}}`), Options{})
	require.NoError(t, err)
	assert.Equal(t, FormatClaudeCode, c.Run.Format)
	// An object holding two lists beside a label is no labelled list.
	_, err = ParseCase("two.json", []byte(`{"a": [{"role": "user", "content": "x"}], "b": [], "mistake_step": 0}`), Options{})
	assert.ErrorIs(t, err, ErrUnknownFormat)
	// A list of records that only look like UI messages in part.
	_, err = ParseCase("ui.json", []byte(`[{"ts": 1, "type": "say", "say": "task", "text": "x"}, {"ts": 2, "kind": "other"}]`), Options{})
	assert.ErrorIs(t, err, ErrUnknownFormat)
}

// TestCodingAgentResultShapes: the results coding agents' files give in
// their own shapes are read as their text: Gemini CLI's function
// responses ({"output": text}), Amp's tool results ({"toolUseID", "run":
// {"status", "result" | "error"}}), and Roo Code's result head with its
// note to the model after the quoted target; and Roo Code's nested
// parameters are read as what they hold.
func TestCodingAgentResultShapes(t *testing.T) {
	r, err := Parse("gemini.json", []byte(`{"contents": [{"role": "user", "parts": [{"text": "Run the tests."}]},
		{"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "run_shell_command", "args": {"command": "pytest"}}}]},
		{"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "run_shell_command", "response": {"output": "Stdout: 1 failed\nExit Code: 1"}}}]}]}`), Options{})
	require.NoError(t, err)
	assert.Equal(t, "Stdout: 1 failed\nExit Code: 1", r.Steps[2].Content, "the tool's text, not its JSON")

	r, err = Parse("amp.json", []byte(`{"id": "T-1", "messages": [{"role": "user", "content": [{"type": "text", "text": "Read ci.yml."}]},
		{"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Read", "input": {"path": "ci.yml"}}, {"type": "tool_use", "id": "t2", "name": "Bash", "input": {"cmd": "ls"}}]},
		{"role": "user", "content": [{"type": "tool_result", "toolUseID": "t1", "run": {"status": "error", "error": {"message": "ENOENT: ci.yml"}}},
			{"type": "tool_result", "toolUseID": "t2", "run": {"status": "done", "result": {"output": "a.txt", "exitCode": 0}}}]}]}`), Options{})
	require.NoError(t, err)
	require.Len(t, r.Steps, 4)
	assert.Equal(t, "Error: ENOENT: ci.yml", r.Steps[2].Content)
	assert.Equal(t, "t1", r.Steps[2].ToolCallID())
	assert.Contains(t, r.Steps[3].Content, `"output":"a.txt"`)
	assert.Equal(t, "t2", r.Steps[3].ToolCallID())

	r, err = Parse("roo.json", []byte(`[{"role": "user", "content": [{"type": "text", "text": "<task>\nFix pageCount.\n</task>"}]},
		{"role": "assistant", "content": [{"type": "text", "text": "<read_file>\n<args>\n  <file>\n    <path>src/a.ts</path>\n  </file>\n  <file>\n    <path>src/b.ts</path>\n  </file>\n</args>\n</read_file>"}]},
		{"role": "user", "content": [{"type": "text", "text": "[read_file for 'src/a.ts'. Reading multiple files at once is more efficient for the LLM.] Result:"}, {"type": "text", "text": "1 | export const a = 1;"}]}]`), Options{})
	require.NoError(t, err)
	assert.Equal(t, []Kind{KindUser, KindToolCall, KindToolResult}, kindsOf(r))
	assert.Equal(t, "1 | export const a = 1;", r.Steps[2].Content)

	r, err = Parse("roo.json", []byte(`[{"role": "user", "content": [{"type": "text", "text": "<task>\nFix pageCount.\n</task>"}]},
		{"role": "assistant", "content": [{"type": "text", "text": "<read_file>\n<args>\n  <file>\n    <path>src/a.ts</path>\n  </file>\n  <file>\n    <path>src/b.ts</path>\n  </file>\n</args>\n</read_file>"}]},
		{"role": "user", "content": [{"type": "text", "text": "[read_file for 'src/a.ts, src/b.ts'] Result:"}, {"type": "text", "text": "1 | export const a = 1;"}]}]`), Options{})
	require.NoError(t, err)
	require.NotEmpty(t, r.Steps[1].ToolCalls())
	assert.Equal(t, `{"args":{"file":[{"path":"src/a.ts"},{"path":"src/b.ts"}]}}`, r.Steps[1].ToolCalls()[0].Arguments, "the files a read names")
}

// FuzzParseCLISessions reads fuzzed coding agents' session files, from
// the shapes above.
func FuzzParseCLISessions(f *testing.F) {
	f.Add([]byte(`{"sessionId": "s", "messages": [{"type": "user", "content": "x"}, {"type": "gemini", "content": [{"text": "y"}], "toolCalls": [{"id": "1", "name": "f", "args": {}, "result": [{"functionResponse": {"id": "1", "response": {"output": "z"}}}], "status": "error"}]}], "mistake_step": 1}`))
	f.Add([]byte(`{"uuid": "u", "sessionId": "s", "type": "user", "message": {"role": "user", "parts": [{"text": "x"}]}}` + "\n" + `{"uuid": "v", "sessionId": "s", "type": "tool_result", "message": {"role": "user", "parts": [{"functionResponse": {"response": {"output": 1}}}]}}` + "\n" + `{"mistake_step": 0}`))
	f.Add([]byte(`{"info": {"id": "s"}, "messages": [{"info": {"role": "assistant"}, "parts": [{"type": "step-start"}, {"type": "tool", "callID": "1", "tool": "f", "state": {"status": "error", "error": {"x": 1}}}, {"type": "text", "text": "y"}]}]}`))
	f.Add([]byte(`{"requesterUsername": "u", "requests": [{"message": {"text": "x"}, "response": [{"value": "y"}], "result": {"metadata": {"toolCallRounds": [{"response": "", "toolCalls": [{"id": "1", "name": "f", "arguments": "{}"}]}], "toolCallResults": {"1": {"content": [{"value": {"a": 1}}]}}}}}]}`))
	f.Add([]byte(`[{"ts": 1, "type": "say", "say": "text", "text": "x"}, {"ts": 2, "type": "say", "say": "api_req_started"}, {"ts": 3, "type": "ask", "ask": "tool", "text": "{\"tool\": \"newTask\", \"mode\": 3}"}, {"ts": 4, "type": "ask", "ask": "followup", "text": "{\"question\": \"q\"}"}, {"ts": 5, "type": "say", "say": "command_output", "text": "o"}]`))
	f.Add([]byte(`{"mistake_agent": "a", "mistake_step": "1", "x": [{"ts": 1, "type": "say", "say": "task", "text": "x"}]}`))
	f.Add([]byte(`[{"role": "assistant", "content": "<read_file><args><file><path>a</path></file><file><path>b</path></file></args></read_file>"}, {"role": "user", "content": "[read_file for 'a'. Note.] Result: y"}]`))
	f.Add([]byte(`{"sessionId": "s", "messages": [{"type": "gemini", "content": [{"text": "y"}], "toolCalls": [{"id": "1", "name": "f", "result": [{"functionResponse": {"id": "2"}}]}, {"id": "1", "name": "f"}]}]}`))
	f.Add([]byte(`[{"ts": 1, "type": "ask", "ask": "tool", "text": "{\"tool\": \"newTask\", \"content\": \"x\"}"}, {"ts": 1, "type": "say", "say": "api_req_started", "text": "{\"request\": 3}"}, {"ts": 0, "type": "say", "say": "command_output"}]`))
	fuzzFormat(f, FormatAuto)
}
