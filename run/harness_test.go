package run

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stepLines are the agent, kind and calls of each step, as a test reads
// a run.
func stepLines(r *Run) []string {
	out := make([]string, len(r.Steps))
	for i, s := range r.Steps {
		out[i] = s.Agent + " " + string(s.Kind)
		for _, c := range s.ToolCalls() {
			out[i] += " " + c.Name + c.Arguments
		}
	}
	return out
}

// TestHarnessRecords: a harness's results holding several runs are read
// as one run per record, named by its task, each with its own label: an
// Inspect AI eval log's samples (a call names its function beside its
// arguments, a failed call's error is its result's text, the input is
// the task and the target the answer), tau2-bench's simulations (calls
// with their name and arguments beside their id) and tau-bench's results
// (their trajectory under "traj").
func TestHarnessRecords(t *testing.T) {
	tests := []struct {
		name      string
		data      string
		runs      []string
		steps     [][]string
		question  string
		truth     string
		labelStep int
	}{
		{
			name: "inspect eval log",
			data: `{"version": 2, "status": "success", "eval": {"task": "qa", "model": "openai/gpt-4o"}, "plan": {"steps": []},
				"samples": [
				{"id": "a", "epoch": 1, "input": "When did the bridge open?", "target": ["1964", "in 1964"], "messages": [
					{"role": "system", "content": "Use the tools."},
					{"role": "user", "content": "When did the bridge open?", "source": "input"},
					{"role": "assistant", "content": [{"type": "text", "text": "Searching."}], "tool_calls": [{"id": "c1", "function": "web_search", "arguments": {"query": "bridge opened"}, "type": "function"}]},
					{"role": "tool", "content": "", "tool_call_id": "c1", "function": "web_search", "error": {"type": "timeout", "message": "Command timed out."}},
					{"role": "assistant", "content": "It opened in 1959."}],
				 "scores": {"match": {"value": "I"}}, "mistake_agent": "assistant", "mistake_step": 4},
				{"id": 7, "epoch": 1, "input": "Say hi.", "target": "hi", "messages": [{"role": "user", "content": "Say hi."}, {"role": "assistant", "content": "hello"}]}]}`,
			runs: []string{"a", "7"},
			steps: [][]string{
				{"system system", "user user", `assistant tool_call web_search{"query":"bridge opened"}`, "assistant tool_result", "assistant message"},
				{"user user", "assistant message"},
			},
			question: "When did the bridge open?", truth: "1964", labelStep: 4,
		},
		{
			name: "tau2-bench simulations",
			data: `{"timestamp": "t", "info": {}, "tasks": [], "simulations": [
				{"id": "u1", "task_id": "12", "trial": 0, "reward_info": {"reward": 0.0}, "messages": [
					{"role": "assistant", "content": "Hi! How can I help you today?", "turn_idx": 0},
					{"role": "user", "content": "Cancel HKEG34.", "turn_idx": 1},
					{"role": "assistant", "content": null, "tool_calls": [{"id": "k", "name": "cancel_reservation", "arguments": {"reservation_id": "AIXC49"}, "requestor": "assistant"}], "turn_idx": 2},
					{"role": "tool", "id": "k", "content": "{\"status\": \"cancelled\"}", "requestor": "assistant", "error": false, "turn_idx": 3}],
				 "mistake_agent": "assistant", "mistake_step": 2},
				{"id": "u2", "task_id": "12", "trial": 1, "messages": [{"role": "user", "content": "Cancel HKEG34."}, {"role": "tool", "id": "k", "content": "no such reservation", "error": true}]}]}`,
			runs: []string{"12-1", "12-2"},
			steps: [][]string{
				{"assistant message", "user user", `assistant tool_call cancel_reservation{"reservation_id":"AIXC49"}`, "assistant tool_result"},
				{"user user", "tool tool_result"},
			},
			question: "Cancel HKEG34.", labelStep: 2,
		},
		{
			name: "tau-bench results",
			data: `[{"task_id": 41, "reward": 0.0, "info": {"task": {"user_id": "y"}}, "trial": 0, "traj": [
				{"role": "system", "content": "# Retail agent policy"},
				{"role": "user", "content": "Exchange my shirt."},
				{"role": "assistant", "content": null, "tool_calls": [{"id": "c", "type": "function", "function": {"name": "get_order_details", "arguments": "{\"order_id\": \"#W1\"}"}}]},
				{"role": "tool", "tool_call_id": "c", "name": "get_order_details", "content": "{}"}],
				"mistake_agent": "assistant", "mistake_step": 2}]`,
			runs:      []string{"41"},
			steps:     [][]string{{"system system", "user user", `assistant tool_call get_order_details{"order_id": "#W1"}`, "assistant tool_result"}},
			question:  "Exchange my shirt.",
			labelStep: 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cases, err := ParseAll(context.Background(), "results.json", []byte(tt.data), Options{})
			require.NoError(t, err)
			require.Len(t, cases, len(tt.runs))
			for i, c := range cases {
				assert.Equal(t, tt.runs[i], c.Run.TraceID)
				assert.Equal(t, tt.steps[i], stepLines(c.Run), "run %s", tt.runs[i])
			}
			first := cases[0]
			assert.Equal(t, tt.question, first.Run.Question)
			assert.Equal(t, tt.truth, first.Run.GroundTruth)
			require.NotNil(t, first.Label)
			assert.Equal(t, Label{Agent: "assistant", Step: tt.labelStep}, *first.Label)
			if len(cases) > 1 {
				assert.Nil(t, cases[1].Label, "a label is its own record's")
			}
		})
	}
}

// TestHarnessToolErrors: a failed call's result says so, whether the
// harness writes its error as Inspect AI does (an object saying what
// failed) or flags it as tau2-bench does.
func TestHarnessToolErrors(t *testing.T) {
	cases, err := ParseAll(context.Background(), "log.json", []byte(`{"samples": [{"id": "a", "messages": [
		{"role": "user", "content": "q"},
		{"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "function": "bash", "arguments": {"cmd": "curl x"}}]},
		{"role": "tool", "content": "", "tool_call_id": "c1", "function": "bash", "error": {"type": "timeout", "message": "Command timed out."}},
		{"role": "tool", "content": "partial", "tool_call_id": "c1", "error": true}]}]}`), Options{})
	require.NoError(t, err)
	require.Len(t, cases, 1)
	steps := cases[0].Run.Steps
	require.Len(t, steps, 4)
	assert.Equal(t, "Error: Command timed out.", steps[2].Content)
	assert.Equal(t, "Error: partial", steps[3].Content)
}

// TestNotHarnessRecords: a list or an object whose records hold no
// messages with roles is no harness's results, and is refused as before.
func TestNotHarnessRecords(t *testing.T) {
	for _, data := range []string{
		`{"samples": [{"id": 1, "input": "q"}]}`,
		`[{"task_id": 1, "traj": [{"step": 1}]}]`,
		`{"simulations": []}`,
	} {
		_, err := ParseAll(context.Background(), "x.json", []byte(data), Options{})
		assert.ErrorIs(t, err, ErrUnknownFormat, data)
	}
}

// TestATIFTrajectory: an ATIF trajectory (Harbor's agents') is one run:
// the agent's steps are its turns under its name, with their calls, and
// each observation's results answer those calls.
func TestATIFTrajectory(t *testing.T) {
	data := `{"schema_version": "ATIF-v1.2", "session_id": "s", "agent": {"name": "terminus-2", "version": "2.0.0", "model_name": "openai/gpt-5"},
		"steps": [
		{"step_id": 1, "source": "system", "message": "Task Description: write the checksum to /app/answer.txt."},
		{"step_id": 2, "source": "agent", "message": "Fetch it.", "tool_calls": [{"tool_call_id": "call_2_1", "function_name": "bash_command", "arguments": {"keystrokes": "curl -fsSL https://x/SUMS\n"}}],
		 "observation": {"results": [{"source_call_id": "call_2_1", "content": "curl: (6) Could not resolve host: x"}]}},
		{"step_id": 3, "source": "agent", "message": "Done.", "metrics": {"prompt_tokens": 10}}],
		"final_metrics": {"total_steps": 3}, "mistake_agent": "terminus-2", "mistake_step": 1}`
	cases, err := ParseAll(context.Background(), "trajectory.json", []byte(data), Options{})
	require.NoError(t, err)
	require.Len(t, cases, 1)
	r := cases[0].Run
	assert.Equal(t, []string{"system system", `terminus-2 tool_call bash_command{"keystrokes":"curl -fsSL https://x/SUMS\n"}`, "terminus-2 tool_result", "terminus-2 message"}, stepLines(r))
	assert.Equal(t, "call_2_1", r.Steps[2].ToolCallID())
	require.NotNil(t, cases[0].Label)
	assert.Equal(t, Label{Agent: "terminus-2", Step: 1}, *cases[0].Label)
}

// TestDesktopTrajectory: a desktop agent's step records (OSWorld's
// traj.jsonl), alone or beside the instruction they carried out, are one
// run: each record's response is the agent's turn, the action it ran its
// call; the action that ends the task is no call.
func TestDesktopTrajectory(t *testing.T) {
	lines := `{"step_num": 1, "action_timestamp": "20261124@093001", "action": "import pyautogui; pyautogui.click(612, 418)", "response": "Click the Summary tab.", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_1.png"}
{"step_num": 2, "action_timestamp": "20261124@093009", "action": "DONE", "response": "The task is complete.", "reward": 0, "done": true, "info": {"done": true}, "screenshot_file": "step_2.png"}`
	want := []string{`assistant tool_call computer{"code":"import pyautogui; pyautogui.click(612, 418)"}`, "assistant message"}
	cases, err := ParseAll(context.Background(), "traj.jsonl", []byte(lines), Options{})
	require.NoError(t, err)
	require.Len(t, cases, 1)
	assert.Equal(t, want, stepLines(cases[0].Run))

	wrapped := `{"instruction": "Copy F14 into B2.", "traj": [` + "\n" + `{"step_num": 1, "action": {"action_type": "CLICK", "x": 1, "y": 2}, "response": "Click."}], "mistake_agent": "assistant", "mistake_step": 1}`
	cases, err = ParseAll(context.Background(), "run.json", []byte(wrapped), Options{})
	require.NoError(t, err)
	require.Len(t, cases, 1)
	assert.Equal(t, []string{"user user", `assistant tool_call computer{"action_type":"CLICK","x":1,"y":2}`}, stepLines(cases[0].Run))
	assert.Equal(t, "Copy F14 into B2.", cases[0].Run.Question)
	require.NotNil(t, cases[0].Label)
	assert.Equal(t, 1, cases[0].Label.Step)
}

// TestFencedCommands: an agent that writes its command as its turn's one
// shell code block, answered by its output (mini-swe-agent), calls its
// shell with it; a block shown in a chat that no result answers, or one
// of two, runs nothing.
func TestFencedCommands(t *testing.T) {
	data := `{"info": {"exit_status": "Submitted", "submission": "diff"}, "trajectory_format": "mini-swe-agent-1", "messages": [
		{"role": "system", "content": "You can interact with a computer shell."},
		{"role": "user", "content": "<pr_description>page_count(30, 10) gives 2</pr_description>"},
		{"role": "assistant", "content": "THOUGHT: Find it.\n\n` + "```bash\\ngrep -rn \\\"def page_count\\\" .\\n```" + `"},
		{"role": "user", "content": "<returncode>0</returncode>\n<output>\n./core.py:14:def page_count(total, per_page):\n</output>"},
		{"role": "assistant", "content": "THOUGHT: Two options.\n\n` + "```bash\\nls\\n```\\n\\n```bash\\npwd\\n```" + `"},
		{"role": "user", "content": "<returncode>0</returncode>\n<output>\ncore.py\n</output>"},
		{"role": "assistant", "content": "Run this yourself:\n\n` + "```bash\\npytest\\n```" + `"}]}`
	r, err := Parse("run.traj.json", []byte(data), Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"system system", "user user", `assistant tool_call bash{"command":"grep -rn \"def page_count\" ."}`, "tool tool_result", "assistant message", "tool tool_result", "assistant message"}, stepLines(r))
}

// TestSystemAnsweredBlocks: a harness that runs the one code block of an
// assistant's turn and answers in a system turn (gptme's conversation
// log) makes that turn a call, of a shell for a shell's block and else
// of the tool its fence names, with the path written after the name, and
// the system turn its result; the system prompt before the task, a turn
// of two blocks, a block of data (JSON, YAML) and a block no system turn
// answers stay messages.
func TestSystemAnsweredBlocks(t *testing.T) {
	fence := "```"
	line := func(role, content string) string {
		b, err := json.Marshal(map[string]any{"role": role, "content": content, "timestamp": "2026-11-28T10:02:11.402113", "files": []string{}})
		require.NoError(t, err)
		return string(b)
	}
	data := strings.Join([]string{
		line("system", "You are gptme. Run shell commands in "+fence+"shell blocks."),
		line("user", "Set retries in prod.yaml to 5."),
		line("assistant", "Looking.\n\n"+fence+"shell\ngrep -n retries config/*.yaml\n"+fence),
		line("system", "Ran command: `grep -n retries config/*.yaml`\n\n"+fence+"stdout\nconfig/prod.yaml:14:  retries: 3\n"+fence),
		line("assistant", "Changing it.\n\n"+fence+"patch config/prod.yaml\n<<<<<<< ORIGINAL\n  retries: 3\n=======\n  retries: 5\n>>>>>>> UPDATED\n"+fence),
		line("system", "Patch applied"),
		line("assistant", "Either:\n\n"+fence+"shell\nls\n"+fence+"\n\n"+fence+"shell\npwd\n"+fence),
		line("system", "Ran command: `ls`"),
		line("assistant", "The settings now:\n\n"+fence+"json\n{\"retries\": 5}\n"+fence),
		line("system", "Warning: no tool call found in the last message."),
		line("assistant", "As YAML:\n\n"+fence+"yaml config/prod.yaml\nretries: 5\n"+fence),
		line("system", "Warning: no tool call found in the last message."),
		line("assistant", "Run this yourself:\n\n"+fence+"shell\npytest\n"+fence),
		line("user", "ok"),
	}, "\n")
	r, err := Parse("conversation.jsonl", []byte(data), Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"system system", "user user",
		`assistant tool_call bash{"command":"grep -n retries config/*.yaml"}`, "tool tool_result",
		`assistant tool_call patch{"content":"<<<<<<< ORIGINAL\n  retries: 3\n=======\n  retries: 5\n>>>>>>> UPDATED","path":"config/prod.yaml"}`, "tool tool_result",
		"assistant message", "system system", "assistant message", "system system", "assistant message", "system system",
		"assistant message", "user user"}, stepLines(r))
}

// FuzzSystemAnsweredBlocks reads fuzzed conversations whose code blocks
// a system turn answers.
func FuzzSystemAnsweredBlocks(f *testing.F) {
	fence := "```"
	f.Add([]byte(`{"role": "user", "content": "q"}
{"role": "assistant", "content": "` + fence + `shell\nls\n` + fence + `"}
{"role": "system", "content": "Ran command: ls"}`))
	f.Add([]byte(`[{"role": "assistant", "content": "` + fence + `patch a.yaml\nx\n` + fence + `"}, {"role": "system", "content": "Patch applied"},
		{"role": "assistant", "content": "` + fence + ` \n\n` + fence + `"}, {"role": "system", "content": ""}]`))
	f.Fuzz(func(t *testing.T, data []byte) { checkParsed(t, data, FormatAuto) })
}

// FuzzParseHarness reads fuzzed harness logs, from the tests' shapes.
func FuzzParseHarness(f *testing.F) {
	f.Add([]byte(`{"samples": [{"id": "a", "input": "q", "target": ["x"], "messages": [{"role": "assistant", "tool_calls": [{"id": "c", "function": "f", "arguments": {}}]}, {"role": "tool", "tool_call_id": "c", "error": {"message": "m"}}]}]}`))
	f.Add([]byte(`{"simulations": [{"task_id": "1", "messages": [{"role": "assistant", "tool_calls": [{"id": "k", "name": "n", "arguments": {"a": 1}}]}, {"role": "tool", "id": "k", "error": true}]}]}`))
	f.Add([]byte(`[{"task_id": 1, "traj": [{"role": "user", "content": "q"}], "mistake_step": 0}]`))
	f.Add([]byte(`{"agent": {"name": "a"}, "steps": [{"step_id": 1, "source": "agent", "message": "m", "tool_calls": [{"tool_call_id": "c", "function_name": "f", "arguments": {}}], "observation": {"results": [{"source_call_id": "c", "content": "r"}]}}]}`))
	f.Add([]byte("{\"step_num\": 1, \"action\": \"DONE\", \"response\": \"r\"}\n{\"step_num\": 2, \"action\": \"x\"}"))
	f.Add([]byte(`{"instruction": "i", "traj": [{"step_num": 1, "action": {"a": 1}}]}`))
	f.Add([]byte(`{"samples": [{"id": 1, "messages": [{"role": "tool", "tool_call_id": "c", "content": [{"type": "text"}]}, {"role": "assistant", "tool_calls": [{"id": "c"}, {"id": "c"}]}], "scores": {"s": {"value": "I"}}}], "eval": {"task": 3}}`))
	f.Add([]byte(`{"schema_version": "ATIF-v1.2", "steps": [{"step_id": 2, "source": "user"}, {"step_id": 1, "source": "agent", "observation": {"results": [{"source_call_id": "x"}]}}]}`))
	f.Add([]byte(`{"messages": [{"role": "assistant", "content": "` + "```bash\\nls\\n```" + `"}, {"role": "user", "content": "<returncode>0</returncode>"}, {"role": "user", "content": "<returncode>1</returncode>"}]}`))
	fuzzFormat(f, FormatAuto)
}
