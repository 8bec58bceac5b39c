package run_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestCodingAgentSessionLogs reads the session logs that Claude Code and
// Codex CLI wrote of failed runs (testdata/traces/README.md says how):
// the task, each text, call and result, a failed command's output as an
// error, the answer; no thinking, and no record of the CLI's bookkeeping.
func TestCodingAgentSessionLogs(t *testing.T) {
	checkRealFiles(t, []realFile{
		{
			file: "claude-code-bash.jsonl", format: run.FormatClaudeCode, runs: 1,
			agents:   []string{"assistant"},
			question: "What version is the app in this directory?",
			steps: []realStep{
				{"user", run.KindUser, "What version is the app in this directory?"},
				{"assistant", run.KindMessage, "Let me read the version file."},
				{"assistant", run.KindToolCall, `Bash({"command":"cat VERSION.txt"`},
				{"assistant", run.KindToolResult, "Error: Exit code 1\ncat: VERSION.txt: No such file or directory"},
				{"assistant", run.KindToolCall, `Read({"file_path":`},
				{"assistant", run.KindToolResult, "Error: File does not exist."},
				{"assistant", run.KindMessage, "The app is at version 2.0.0."},
			},
		},
		{
			// The sub-agent's records are in
			// claude-code-subagent/subagents/agent-ID.jsonl, read where
			// the call's result names the agent; the result, its answer
			// again, is not read twice.
			file: "claude-code-subagent.jsonl", format: run.FormatClaudeCode, runs: 1,
			agents:   []string{"assistant", "general-purpose"},
			question: "Which port does the service listen on?",
			steps: []realStep{
				{"user", run.KindUser, "Which port does the service listen on?"},
				{"assistant", run.KindMessage, "I will ask a sub-agent to look this up."},
				{"assistant", run.KindToolCall, "Find the port in the service config"},
				{"general-purpose", run.KindMessage, "Searching the config for the port."},
				{"general-purpose", run.KindToolCall, "grep -rn port config/service.yaml"},
				{"general-purpose", run.KindToolResult, "Error: Exit code 2"},
				{"general-purpose", run.KindMessage, "so the port is 8080."},
				{"assistant", run.KindMessage, "The service listens on port 8080."},
			},
		},
		{
			// The Claude Agent SDK with a sub-agent of its own definition,
			// which runs in the background: the call's result says it
			// was launched, its steps are laid among the session's by
			// time (the main agent answered before it finished), and the
			// notice of its answer is not read twice.
			file: "claude-agent-sdk-async.jsonl", format: run.FormatClaudeCode, runs: 1,
			agents:   []string{"assistant", "config-reader"},
			question: "Which port does the service listen on?",
			steps: []realStep{
				{"user", run.KindUser, "Which port does the service listen on?"},
				{"assistant", run.KindMessage, "I will ask a sub-agent to look this up."},
				{"assistant", run.KindToolCall, `"subagent_type":"config-reader"`},
				{"assistant", run.KindToolResult, "Async agent launched successfully."},
				{"assistant", run.KindMessage, "The service listens on port 8080."},
				{"config-reader", run.KindMessage, "Searching the config for the port."},
				{"config-reader", run.KindToolCall, "grep -rn port config/service.yaml"},
				{"config-reader", run.KindToolResult, "Error: Exit code 2"},
				{"config-reader", run.KindMessage, "so the port is 8080."},
				{"assistant", run.KindMessage, "The service listens on port 8080."},
			},
		},
		{
			// A sub-agent's log read alone: its prompt is its task.
			file: "claude-code-subagent/subagents/agent-a6e4ca9c7525b01dd.jsonl", format: run.FormatClaudeCode, runs: 1,
			agents: []string{"general-purpose"},
			steps: []realStep{
				{"user", run.KindUser, "Find the port in the service config"},
				{"general-purpose", run.KindMessage, "Searching the config for the port."},
				{"general-purpose", run.KindToolCall, "grep -rn port config/service.yaml"},
				{"general-purpose", run.KindToolResult, "Error: Exit code 2"},
				{"general-purpose", run.KindMessage, "so the port is 8080."},
			},
		},
		{
			file: "codex-exec.jsonl", format: run.FormatCodex, runs: 1,
			agents:   []string{"assistant"},
			question: "What version is the app in this directory?",
			steps: []realStep{
				{"user", run.KindUser, "What version is the app in this directory?"},
				{"assistant", run.KindMessage, "Let me read the version file."},
				{"assistant", run.KindToolCall, `exec_command({"cmd":"cat VERSION.txt"})`},
				{"assistant", run.KindToolResult, "Error: Chunk ID"},
				{"assistant", run.KindMessage, "The app is at version 2.0.0."},
			},
		},
		{
			// A sub-agent that spawn_agent started, its rollout beside
			// the parent's: named by its nickname, its steps laid among
			// the parent's by time, its task read as the call that gave
			// it.
			file: "codex-subagent/rollout-2026-11-27T18-37-40-01a21e4c-82cd-75c2-bdb4-1c69e0b197d3.jsonl", format: run.FormatCodex, runs: 1,
			agents:   []string{"assistant", "Hilbert"},
			question: "Which port does the service listen on?",
			steps: []realStep{
				{"user", run.KindUser, "Which port does the service listen on?"},
				{"assistant", run.KindMessage, "I will ask a sub-agent to look this up."},
				{"assistant", run.KindToolCall, "spawn_agent("},
				{"assistant", run.KindToolResult, `"nickname":"Hilbert"`},
				{"assistant", run.KindToolCall, "wait_agent("},
				{"Hilbert", run.KindMessage, "Searching the config for the port."},
				{"Hilbert", run.KindToolCall, "grep -n port config/service.yaml"},
				{"Hilbert", run.KindToolResult, "Error: Chunk ID"},
				{"Hilbert", run.KindMessage, "so the port is 8080."},
				{"assistant", run.KindToolResult, `"completed":"The config file is missing`},
				{"assistant", run.KindMessage, "The service listens on port 8080."},
			},
		},
		{
			// The sub-agent's rollout read alone.
			file: "codex-subagent/rollout-2026-11-27T18-37-40-01a21e4c-8358-7140-8478-b2d8e9f7a486.jsonl", format: run.FormatCodex, runs: 1,
			agents: []string{"Hilbert"},
			steps: []realStep{
				{"user", run.KindUser, "Find the port in the service config"},
				{"Hilbert", run.KindMessage, "Searching the config for the port."},
				{"Hilbert", run.KindToolCall, "grep -n port config/service.yaml"},
				{"Hilbert", run.KindToolResult, "Error: Chunk ID"},
				{"Hilbert", run.KindMessage, "so the port is 8080."},
			},
		},
	})
}

// TestCodexSpawnTargetsSubagent: the call that spawns a sub-agent is
// addressed to it.
func TestCodexSpawnTargetsSubagent(t *testing.T) {
	r, err := run.Load(filepath.Join("..", "testdata", "traces", "codex-subagent", "rollout-2026-11-27T18-37-40-01a21e4c-82cd-75c2-bdb4-1c69e0b197d3.jsonl"), run.Options{})
	require.NoError(t, err)
	assert.Equal(t, "Hilbert", r.Steps[2].Target())
}

// TestClaudeCodeCallTargetsSubagent: the call that starts a sub-agent is
// addressed to it.
func TestClaudeCodeCallTargetsSubagent(t *testing.T) {
	r, err := run.Load(filepath.Join("..", "testdata", "traces", "claude-code-subagent.jsonl"), run.Options{})
	require.NoError(t, err)
	assert.Equal(t, "general-purpose", r.Steps[2].Target())
	require.Len(t, r.Steps[2].ToolCalls(), 1)
	assert.Equal(t, "Agent", r.Steps[2].ToolCalls()[0].Name)
	assert.Equal(t, "toolu_scripted5_Bash", r.Steps[5].ToolCallID())
}

// claudeSidechainInFile is the sub-agent run of claude-code-subagent.jsonl
// as versions of Claude Code before sub-agents' files of their own wrote
// it: the sidechain's records in the session's file, between the call and
// its result, naming no agent; the records cut to the fields read.
const claudeSidechainInFile = `{"type":"queue-operation","operation":"enqueue","sessionId":"s1","content":"Which port?"}
{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"Which port?"},"uuid":"u1","sessionId":"s1"}
{"parentUuid":"u1","isSidechain":false,"type":"assistant","message":{"role":"assistant","content":[{"type":"thinking","thinking":"Ask a sub-agent.","signature":"x"},{"type":"tool_use","id":"toolu_1","name":"Task","input":{"description":"Find port","prompt":"Find the port in config/service.yaml.","subagent_type":"general-purpose"}}]},"uuid":"a1","sessionId":"s1"}
{"parentUuid":null,"isSidechain":true,"type":"user","message":{"role":"user","content":"Find the port in config/service.yaml."},"uuid":"s-u1","sessionId":"s1"}
{"parentUuid":"s-u1","isSidechain":true,"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_2","name":"Bash","input":{"command":"grep port config/service.yaml"}}]},"uuid":"s-a1","sessionId":"s1"}
{"parentUuid":"s-a1","isSidechain":true,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_2","content":"grep: config/service.yaml: No such file or directory","is_error":true}]},"uuid":"s-u2","sessionId":"s1"}
{"parentUuid":"s-u2","isSidechain":true,"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"The port is 8080."}]},"uuid":"s-a2","sessionId":"s1"}
{"parentUuid":"a1","isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"The port is 8080."}]}]},"uuid":"u2","sessionId":"s1","toolUseResult":{"status":"completed","content":[{"type":"text","text":"The port is 8080."}]}}
{"type":"summary","summary":"Port lookup","leafUuid":"a3"}
{"parentUuid":"u2","isSidechain":false,"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Port 8080."}]},"uuid":"a3","sessionId":"s1"}
`

func TestClaudeCodeSidechainInFile(t *testing.T) {
	r, err := run.Parse("session.jsonl", []byte(claudeSidechainInFile), run.Options{})
	require.NoError(t, err)
	checkSteps(t, r, []realStep{
		{"user", run.KindUser, "Which port?"},
		{"assistant", run.KindToolCall, "Find the port in config/service.yaml."},
		{"general-purpose", run.KindToolCall, "grep port"},
		{"general-purpose", run.KindToolResult, "Error: grep: config/service.yaml"},
		{"general-purpose", run.KindMessage, "The port is 8080."},
		{"assistant", run.KindToolResult, "The port is 8080."},
		{"assistant", run.KindMessage, "Port 8080."},
	})
	assert.Equal(t, "general-purpose", r.Steps[1].Target())
}

func TestSessionLogErrors(t *testing.T) {
	tests := []struct {
		name   string
		data   string
		format run.Format
		want   string
	}{
		{"claude bad line", `{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}` + "\n" + `{"type":"assistant","uuid":"a1","message":{"role":"assistant","content":5}}` + "\n", "", "line 2: message.content"},
		{"claude bad JSON", `{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}` + "\n" + `{"type":` + "\n", "", "invalid JSON at line 2"},
		{"codex bad payload", `{"type":"session_meta","payload":{"id":"x"}}` + "\n" + `{"type":"response_item","payload":{"type":"message","role":"user","content":"hi"}}` + "\n", "", "line 2: payload"},
		{"claude named, not one", `{"role":"user","content":"hi"}` + "\n" + `{"role":"assistant","content":"ok"}` + "\n", run.FormatClaudeCode, "no record of a session"},
		{"codex named, not one", `{"role":"user","content":"hi"}` + "\n" + `{"role":"assistant","content":"ok"}` + "\n", run.FormatCodex, "no record of a session"},
		{"only bookkeeping", `{"type":"session_meta","payload":{"id":"x"}}` + "\n" + `{"type":"event_msg","payload":{"type":"task_started"}}` + "\n", "", "no record of a session"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := run.Parse("log.jsonl", []byte(tt.data), run.Options{Format: tt.format})
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), "load log.jsonl: "), err.Error())
			assert.Contains(t, err.Error(), tt.want)
			assert.NotContains(t, err.Error(), "\n")
		})
	}
}

// TestSessionLogUnknownRecords: records of types the reader does not know
// are passed over, in both formats.
func TestSessionLogUnknownRecords(t *testing.T) {
	claude := `{"type":"new-kind","whatever":[1,2]}` + "\n" + `{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}` + "\n" + `{"type":"assistant","uuid":"a1","message":{"role":"assistant","content":[{"type":"new_block","x":1},{"type":"text","text":"hello"}]}}` + "\n"
	r, err := run.Parse("c.jsonl", []byte(claude), run.Options{})
	require.NoError(t, err)
	assert.Equal(t, run.FormatClaudeCode, r.Format)
	assert.Len(t, r.Steps, 2)
	codex := `{"type":"session_meta","payload":{"id":"x"}}` + "\n" + `{"type":"new_kind","payload":{}}` + "\n" + `{"type":"response_item","payload":{"type":"web_search_call","action":{}}}` + "\n" + `{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}` + "\n"
	r, err = run.Parse("x.jsonl", []byte(codex), run.Options{})
	require.NoError(t, err)
	assert.Equal(t, run.FormatCodex, r.Format)
	assert.Len(t, r.Steps, 1)
}

// TestCodexOlderOutputs: a rollout of an earlier Codex CLI, whose shell
// tool's output is JSON text with the exit code, and whose context
// messages carry no provenance.
func TestCodexOlderOutputs(t *testing.T) {
	data := `{"timestamp":"t","type":"session_meta","payload":{"id":"x","cwd":"/w"}}
{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n<cwd>/w</cwd>\n</environment_context>"}]}}
{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Run the tests."}]}}
{"timestamp":"t","type":"response_item","payload":{"type":"local_shell_call","call_id":"c1","status":"completed","action":{"type":"exec","command":["bash","-lc","make test"]}}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"{\"output\":\"make: *** No rule to make target 'test'.\",\"metadata\":{\"exit_code\":2,\"duration_seconds\":0.1}}"}}
{"timestamp":"t","type":"response_item","payload":{"type":"custom_tool_call","call_id":"c2","name":"apply_patch","input":"*** Begin Patch"}}
{"timestamp":"t","type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"c2","output":"{\"output\":\"Done\",\"metadata\":{\"exit_code\":0}}"}}
`
	r, err := run.Parse("rollout.jsonl", []byte(data), run.Options{})
	require.NoError(t, err)
	checkSteps(t, r, []realStep{
		{"user", run.KindUser, "Run the tests."},
		{"assistant", run.KindToolCall, `local_shell({"type":"exec","command":["bash","-lc","make test"]})`},
		{"assistant", run.KindToolResult, "Error: make: *** No rule"},
		{"assistant", run.KindToolCall, "apply_patch(*** Begin Patch)"},
		{"assistant", run.KindToolResult, "Done"},
	})
}

// TestCodexWrappedTask: a harness that gives Codex its task wrapped in a
// tag (SWE-bench's <issue>...</issue>) wraps it as the CLI wraps its own
// context; with no plain user message, the last wrapped one before the
// agent spoke is the task, not the CLI's context before it.
func TestCodexWrappedTask(t *testing.T) {
	data := `{"timestamp":"t","type":"session_meta","payload":{"id":"x","cwd":"/repo"}}
{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n<cwd>/repo</cwd>\n</environment_context>"}]}}
{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<issue>\npage_count(21, 10) returns 2.\n</issue>"}]}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\": \"cat -n pager/count.py\"}","call_id":"c1"}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"1\tdef page_count(total, per_page):"}}
{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<turn_aborted>\ninterrupted\n</turn_aborted>"}]}}
`
	r, err := run.Parse("rollout.jsonl", []byte(data), run.Options{})
	require.NoError(t, err)
	assert.Equal(t, "<issue>\npage_count(21, 10) returns 2.\n</issue>", r.Question)
	checkSteps(t, r, []realStep{
		{"user", run.KindUser, "<issue>"},
		{"assistant", run.KindToolCall, `exec_command({"cmd": "cat -n pager/count.py"})`},
		{"assistant", run.KindToolResult, "1\tdef page_count"},
	})
}

// withSubagentLog writes claude-code-subagent.jsonl to a temporary
// directory with sub as its sub-agent's log beside it, and returns the
// session's path and size.
func withSubagentLog(t *testing.T, sub []byte) (string, int) {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "traces", "claude-code-subagent.jsonl"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "s.jsonl"), data, 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "s", "subagents"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "s", "subagents", "agent-a6e4ca9c7525b01dd.jsonl"), sub, 0o644))
	return filepath.Join(dir, "s.jsonl"), len(data)
}

// TestClaudeCodeSubagentLogUnreadable: a sub-agent's log beside the
// session that does not read is an error naming it.
func TestClaudeCodeSubagentLogUnreadable(t *testing.T) {
	path, _ := withSubagentLog(t, []byte("{\"type\":\n"))
	_, err := run.LoadAll(context.Background(), path, run.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "agent-a6e4ca9c7525b01dd.jsonl")
	assert.Contains(t, err.Error(), "line 2")
}

// TestSubagentLogOverLimit: a sub-agent's log beside the session's is an
// input too, held to the same --max-input.
func TestSubagentLogOverLimit(t *testing.T) {
	sub, err := os.ReadFile(filepath.Join("..", "testdata", "traces", "claude-code-subagent", "subagents", "agent-a6e4ca9c7525b01dd.jsonl"))
	require.NoError(t, err)
	pad := `{"type":"progress","data":"` + strings.Repeat("x", 30000) + `"}` + "\n"
	path, size := withSubagentLog(t, append(sub, pad...))
	limit := int64(size + 1)
	_, err = run.LoadAll(context.Background(), path, run.Options{MaxInput: limit})
	var tooLarge *run.TooLargeError
	require.ErrorAs(t, err, &tooLarge)
	assert.Equal(t, limit, tooLarge.Limit)
	assert.Contains(t, err.Error(), "agent-a6e4ca9c7525b01dd.jsonl")
	_, err = run.LoadAll(context.Background(), path, run.Options{})
	require.NoError(t, err, "without a limit the padded log reads")
}

// TestClaudeCodeWithoutSubagentLogs: a session read without the
// sub-agents' logs beside it keeps what the main agent was given of
// them: the call's result, and the notice of a background agent's answer.
func TestClaudeCodeWithoutSubagentLogs(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "traces", "claude-agent-sdk-async.jsonl"))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "session.jsonl")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	r, err := run.Load(path, run.Options{})
	require.NoError(t, err)
	checkSteps(t, r, []realStep{
		{"user", run.KindUser, "Which port does the service listen on?"},
		{"assistant", run.KindMessage, "I will ask a sub-agent to look this up."},
		{"assistant", run.KindToolCall, `"subagent_type":"config-reader"`},
		{"assistant", run.KindToolResult, "Async agent launched successfully."},
		{"assistant", run.KindMessage, "The service listens on port 8080."},
		{"assistant", run.KindToolResult, "<result>The config file is missing"},
		{"assistant", run.KindMessage, "The service listens on port 8080."},
	})
	assert.Equal(t, "toolu_scripted1_Agent", r.Steps[5].ToolCallID())
}

// TestSessionLogNamesLoseControls: the names a session log gives agents
// and tools are printed by every command and may name files: as the trace
// readers' do, they lose any control character a hostile log put in them,
// and a terminal's escape sequence whole.
func TestSessionLogNamesLoseControls(t *testing.T) {
	hostile := strings.NewReplacer(`"general-purpose"`, `"general\u001b[31m-purpose"`, `"name":"Bash"`, `"name":"Ba\u0007sh"`).Replace(claudeSidechainInFile)
	r, err := run.Parse("session.jsonl", []byte(hostile), run.Options{})
	require.NoError(t, err)
	var agents, tools []string
	for _, s := range r.Steps {
		agents = append(agents, s.Agent, s.Target())
		for _, c := range s.ToolCalls() {
			tools = append(tools, c.Name)
		}
	}
	assert.Contains(t, agents, "general-purpose")
	for _, name := range agents {
		assert.NotContains(t, name, "[31m")
	}
	assert.Contains(t, tools, "Bash")
	for _, name := range append(agents, tools...) {
		assert.NotContains(t, name, "\x1b")
		assert.NotContains(t, name, "\a")
	}
}

// TestSubagentRollouts: a rollout whose session_meta names a parent
// thread, with the parent's rollout beside it recording the spawn's result
// for this thread, is read with the parent's; any other file is not, nor
// one whose parent never recorded that result (the parent's reading would
// not read it, and screen would lose it).
func TestSubagentRollouts(t *testing.T) {
	dir := t.TempDir()
	metaOf := func(id, source string) string {
		return `{"timestamp":"2026-11-27T18:37:40Z","type":"session_meta","payload":{"id":"` + id + `","source":` + source + `}}` + "\n"
	}
	meta := func(source string) string { return metaOf("c1", source) }
	// A parent's rollout as Codex writes it: the spawn_agent call, and its
	// output naming the new thread (testdata/traces/codex-subagent).
	spawnCall := `{"timestamp":"2026-11-27T18:37:40Z","type":"response_item","payload":{"type":"function_call","name":"spawn_agent","arguments":"{\"message\":\"Find the port.\"}","call_id":"call_spawn"}}` + "\n"
	spawnOut := `{"timestamp":"2026-11-27T18:37:40Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_spawn","output":"{\"agent_id\":\"c1\",\"nickname\":\"Hilbert\"}"}}` + "\n"
	spawned := meta(`{"subagent":{"thread_spawn":{"parent_thread_id":"p1","depth":1}}}`)
	for name, content := range map[string]string{
		"rollout-2026-11-27T18-37-40-p1.jsonl":    metaOf("p1", `"exec"`) + spawnCall + spawnOut,
		"rollout-2026-11-27T18-37-39-p2.jsonl":    metaOf("p2", `"exec"`) + spawnCall,
		"rollout-2026-11-27T18-37-48-c8.jsonl":    metaOf("c8", `{"subagent":{"thread_spawn":{"parent_thread_id":"p2","depth":1}}}`),
		"rollout-2026-11-27T18-37-41-c1.jsonl":    spawned,
		"rollout-2026-11-27T18-37-42-c2.jsonl":    meta(`{"subagent":{"thread_spawn":{"parent_thread_id":"gone"}}}`),
		"rollout-2026-11-27T18-37-43-c3.jsonl":    meta(`{"subagent":{"thread_spawn":{"parent_thread_id":"*"}}}`),
		"rollout-2026-11-27T18-37-44-c4.jsonl":    `{"timestamp":"2026-11-27T18:37:44Z","type":"response_item","payload":{}}` + "\n" + spawned,
		"notes-2026-11-27T18-37-45-c5.jsonl":      spawned,
		"rollout-2026-11-27T18-37-46-c6.jsonl.gz": spawned,
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	for name, want := range map[string]bool{
		"rollout-2026-11-27T18-37-40-p1.jsonl":    false, // a rollout of its own
		"rollout-2026-11-27T18-37-41-c1.jsonl":    true,
		"rollout-2026-11-27T18-37-42-c2.jsonl":    false, // its parent's is not beside it
		"rollout-2026-11-27T18-37-43-c3.jsonl":    false, // a parent that is a pattern matches nothing
		"rollout-2026-11-27T18-37-44-c4.jsonl":    false, // it does not begin with its session_meta
		"notes-2026-11-27T18-37-45-c5.jsonl":      false, // not named as Codex names a rollout
		"rollout-2026-11-27T18-37-46-c6.jsonl.gz": false,
		"rollout-2026-11-27T18-37-47-c7.jsonl":    false, // no such file
		"rollout-2026-11-27T18-37-48-c8.jsonl":    false, // its parent never recorded the spawn's result
	} {
		assert.Equal(t, want, new(run.Rollouts).IsSubagent(filepath.Join(dir, name)), name)
	}
}
