package run

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ohEvents is an OpenHands session as its events serialise (the shapes of
// OpenHands' event stream: MessageAction, CmdRunAction with the function
// the model called, CmdOutputObservation with its exit code, the state
// changes it records, FileEditAction, its observation, AgentFinishAction).
const ohEvents = `[
 {"id": 0, "timestamp": "2026-03-03T10:00:00", "source": "user", "message": "Fix median.", "action": "message", "args": {"content": "median([1, 2, 3, 4]) returns 2; it should return 2.5.", "image_urls": null, "wait_for_response": false}},
 {"id": 1, "timestamp": "2026-03-03T10:00:00", "source": "environment", "message": "", "observation": "agent_state_changed", "content": "", "extras": {"agent_state": "running"}},
 {"id": 2, "timestamp": "2026-03-03T10:00:01", "source": "agent", "message": "Running command: python -m pytest -q tests/test_median.py", "action": "run", "tool_call_metadata": {"function_name": "execute_bash", "tool_call_id": "toolu_01"}, "args": {"command": "python -m pytest -q tests/test_median.py", "is_input": false, "thought": "Run the tests first.", "blocking": false}},
 {"id": 3, "timestamp": "2026-03-03T10:00:02", "source": "agent", "message": "Command executed with exit code 1.", "cause": 2, "observation": "run", "tool_call_metadata": {"function_name": "execute_bash", "tool_call_id": "toolu_01"}, "content": "F.\nFAILED tests/test_median.py::test_even - assert 2 == 2.5\n1 failed, 1 passed in 0.03s", "extras": {"command": "python -m pytest -q tests/test_median.py", "metadata": {"exit_code": 1}}},
 {"id": 4, "timestamp": "2026-03-03T10:00:03", "source": "agent", "message": "", "action": "edit", "tool_call_metadata": {"function_name": "str_replace_editor", "tool_call_id": "toolu_02"}, "args": {"path": "/workspace/repo/tests/test_median.py", "command": "str_replace", "old_str": "== 2.5", "new_str": "== 2", "thought": ""}},
 {"id": 5, "timestamp": "2026-03-03T10:00:04", "source": "agent", "message": "I edited the file.", "cause": 4, "observation": "edit", "content": "The file /workspace/repo/tests/test_median.py has been edited.", "extras": {"path": "/workspace/repo/tests/test_median.py"}},
 {"id": 6, "timestamp": "2026-03-03T10:00:05", "source": "agent", "message": "All done!", "action": "finish", "args": {"final_thought": "The tests pass.", "outputs": {}}}
]`

// TestOpenHandsEvents: an OpenHands event stream, as a list of events or
// as the history of a record its SWE-bench evaluation writes, is read as
// the user's task, the agent's calls (the function the model called, with
// the action's arguments) and their results (a command's exit code kept),
// and its finish; the state changes it records are no steps.
func TestOpenHandsEvents(t *testing.T) {
	for name, data := range map[string]string{
		"events.json": ohEvents,
		"output.json": `{"instance_id": "stats__median-1", "instruction": "Fix median.", "history": ` + ohEvents + `, "test_result": {"git_patch": ""}}`,
	} {
		t.Run(name, func(t *testing.T) {
			r, err := Parse(name, []byte(data), Options{})
			require.NoError(t, err)
			assert.Equal(t, []Kind{KindUser, KindToolCall, KindToolResult, KindToolCall, KindToolResult, KindMessage}, stepKinds(r))
			assert.Equal(t, "median([1, 2, 3, 4]) returns 2; it should return 2.5.", r.Question)
			require.Len(t, r.Steps[1].ToolCalls(), 1)
			assert.Equal(t, "execute_bash", r.Steps[1].ToolCalls()[0].Name)
			assert.JSONEq(t, `{"command": "python -m pytest -q tests/test_median.py"}`, r.Steps[1].ToolCalls()[0].Arguments)
			assert.Equal(t, "toolu_01", r.Steps[2].ToolCallID())
			assert.Contains(t, r.Steps[2].Content, "exit code 1")
			assert.JSONEq(t, `{"command": "str_replace", "path": "/workspace/repo/tests/test_median.py", "old_str": "== 2.5", "new_str": "== 2"}`, r.Steps[3].ToolCalls()[0].Arguments)
			assert.Equal(t, "toolu_02", r.Steps[4].ToolCallID())
			assert.Equal(t, "The tests pass.", r.Steps[5].Content)
		})
	}
}

// ohPairs is an OpenHands session as its earlier evaluation output
// records it: a history of [action, observation] pairs (an action that
// caused none is paired with a "null" observation), and a command's exit
// code in the observation's extras itself, not in their metadata.
const ohPairs = `[
 [{"id": 0, "timestamp": "2024-06-01T10:00:00", "source": "user", "message": "Fix median.", "action": "message", "args": {"content": "median([1, 2, 3, 4]) returns 2; it should return 2.5.", "images_urls": null, "wait_for_response": false}},
  {"message": "No observation", "observation": "null", "content": "", "extras": {}}],
 [{"id": 1, "timestamp": "2024-06-01T10:00:01", "source": "agent", "message": "Running command: python -m pytest -q tests/test_median.py", "action": "run", "args": {"command": "python -m pytest -q tests/test_median.py", "thought": "Run the tests first.", "is_confirmed": "confirmed"}},
  {"id": 2, "timestamp": "2024-06-01T10:00:02", "source": "agent", "message": "Command ` + "`python -m pytest -q tests/test_median.py`" + ` executed with exit code 1.", "cause": 1, "observation": "run", "content": "F.\nFAILED tests/test_median.py::test_even", "extras": {"command_id": -1, "command": "python -m pytest -q tests/test_median.py", "exit_code": 1}}],
 [{"id": 3, "timestamp": "2024-06-01T10:00:03", "source": "agent", "message": "All done!", "action": "finish", "args": {"outputs": {}, "thought": "The tests pass."}},
  {"message": "No observation", "observation": "null", "content": "", "extras": {}}]
]`

// TestOpenHandsPairs: the history of [action, observation] pairs of
// OpenHands' earlier evaluation output is read as the same events one
// after another, and an exit code kept in the extras is the result's.
func TestOpenHandsPairs(t *testing.T) {
	r, err := Parse("output.json", []byte(`{"instance_id": "stats__median-1", "instruction": "Fix median.", "history": `+ohPairs+`}`), Options{})
	require.NoError(t, err)
	assert.Equal(t, []Kind{KindUser, KindToolCall, KindToolResult, KindMessage}, stepKinds(r))
	assert.Equal(t, "median([1, 2, 3, 4]) returns 2; it should return 2.5.", r.Question)
	assert.Equal(t, "event-1", r.Steps[2].ToolCallID())
	assert.Contains(t, r.Steps[2].Content, "exit code 1")
}

// TestOpenHandsEvaluationRecords: the output.jsonl of OpenHands'
// evaluation, one task's record a line, is read as one run per record,
// named FILE#INSTANCE_ID (by its line without one), each with its own
// label; a line of another shape among them is an error naming it.
func TestOpenHandsEvaluationRecords(t *testing.T) {
	compact := func(s string) string {
		var v any
		require.NoError(t, json.Unmarshal([]byte(s), &v))
		b, err := json.Marshal(v)
		require.NoError(t, err)
		return string(b)
	}
	events, pairs := compact(ohEvents), compact(ohPairs)
	data := `{"instance_id": "stats__median-1", "history": ` + events + `, "mistake_agent": "agent", "mistake_step": 3}` + "\n" +
		`{"instance_id": "stats__mode-2", "history": ` + pairs + `, "mistake_agent": "agent", "mistake_step": 1}` + "\n" +
		`{"history": ` + pairs + `}` + "\n"
	cases, err := ParseAll(context.Background(), "output.jsonl", []byte(data), Options{})
	require.NoError(t, err)
	require.Len(t, cases, 3)
	assert.Equal(t, "output.jsonl#stats__median-1", cases[0].Run.Source)
	assert.Equal(t, []Kind{KindUser, KindToolCall, KindToolResult, KindToolCall, KindToolResult, KindMessage}, stepKinds(cases[0].Run))
	assert.Equal(t, &Label{Agent: "agent", Step: 3}, cases[0].Label)
	assert.Equal(t, "output.jsonl#stats__mode-2", cases[1].Run.Source)
	assert.Equal(t, []Kind{KindUser, KindToolCall, KindToolResult, KindMessage}, stepKinds(cases[1].Run))
	assert.Equal(t, &Label{Agent: "agent", Step: 1}, cases[1].Label)
	assert.Equal(t, "output.jsonl#line-3", cases[2].Run.Source)
	assert.Nil(t, cases[2].Label)

	_, err = ParseAll(context.Background(), "output.jsonl", []byte(`{"instance_id": "a", "history": `+events+`}`+"\n"+`{"role": "user", "content": "hi"}`+"\n"), Options{})
	require.ErrorContains(t, err, "line 2: a record with no OpenHands history")
}

func FuzzParseOpenHands(f *testing.F) {
	f.Add([]byte(ohEvents))
	f.Add([]byte(`{"instance_id": "x", "history": ` + ohEvents + `}`))
	f.Add([]byte(`{"instance_id": "x", "history": ` + ohPairs + `}`))
	fuzzFormat(f, FormatAuto)
}

// TestOpenHandsSkillEdits: a cell of OpenHands' earlier CodeAct agent
// that only calls an agent skill changing a file is read as the editor's
// call it is; any other code stays a cell run.
func TestOpenHandsSkillEdits(t *testing.T) {
	for _, tt := range []struct {
		code, name, args string
	}{
		{"edit_file_by_replace(\n    '/workspace/stats/tests/test_median.py',\n    to_replace='== 2.5',\n    new_content=\"== 2\",\n)", "str_replace_editor",
			`{"command": "str_replace", "path": "/workspace/stats/tests/test_median.py", "old_str": "== 2.5", "new_str": "== 2"}`},
		{"insert_content_at_line('a.py', 3, \"\"\"x = 1\\ny = 2\"\"\")", "str_replace_editor",
			`{"command": "insert", "path": "a.py", "insert_line": "3", "new_str": "x = 1\ny = 2"}`},
		{"edit_file_by_replace('a.py', to_replace='x = 1\\n' 'y = 2', new_content=\"z = 3\")", "str_replace_editor",
			`{"command": "str_replace", "path": "a.py", "old_str": "x = 1\ny = 2", "new_str": "z = 3"}`},
		{"create_file(filename='/workspace/reproduce.py')", "str_replace_editor", `{"command": "create", "path": "/workspace/reproduce.py"}`},
		{"print(open('a.py').read())", "execute_ipython_cell", `{"code": "print(open('a.py').read())"}`},
		{"edit_file_by_replace('a.py', to_replace=old, new_content=new)", "execute_ipython_cell", `{"code": "edit_file_by_replace('a.py', to_replace=old, new_content=new)"}`},
	} {
		t.Run(tt.code, func(t *testing.T) {
			code, err := json.Marshal(tt.code)
			require.NoError(t, err)
			data := `[{"id": 0, "source": "user", "action": "message", "args": {"content": "Fix it."}},
				{"id": 1, "source": "agent", "action": "run_ipython", "args": {"code": ` + string(code) + `, "thought": ""}}]`
			r, err := Parse("events.json", []byte(data), Options{})
			require.NoError(t, err)
			require.Len(t, r.Steps[1].ToolCalls(), 1)
			assert.Equal(t, tt.name, r.Steps[1].ToolCalls()[0].Name)
			assert.JSONEq(t, tt.args, r.Steps[1].ToolCalls()[0].Arguments)
		})
	}
}

// FuzzSkillEdit: reading a cell's code as an agent skill's edit never
// fails, and an edit it reads names its file.
func FuzzSkillEdit(f *testing.F) {
	f.Add("edit_file_by_replace('a.py', to_replace='x', new_content=\"\"\"y\\n\"\"\")")
	f.Add("insert_content_at_line(r'a.py', 3, 'z')")
	f.Add("append_file('a.py', '\\\\')")
	f.Fuzz(func(t *testing.T, code string) {
		if args, ok := skillEdit(code); ok {
			assert.NotEmpty(t, args["path"])
		}
	})
}

// stepKinds lists the kinds of r's steps in order.
func stepKinds(r *Run) []Kind {
	kinds := make([]Kind, len(r.Steps))
	for i, s := range r.Steps {
		kinds[i] = s.Kind
	}
	return kinds
}

// TestOpenHandsFinishKeepsThought: a finish action's text is its message
// (final_thought) after what the model wrote before calling it (thought),
// when that says something else: a model that states its answer in its
// own words and closes with a summary handed the answer in those words.
func TestOpenHandsFinishKeepsThought(t *testing.T) {
	tests := []struct {
		name, args, want string
	}{
		{"thought and message", `{"final_thought": "I counted the rows of the table.", "thought": "The table lists 82 moons.\n\n<solution>82</solution>", "outputs": {}}`, "The table lists 82 moons.\n\n<solution>82</solution>\n\nI counted the rows of the table."},
		{"message alone", `{"final_thought": "<solution>28</solution>", "thought": "", "outputs": {}}`, "<solution>28</solution>"},
		{"thought alone", `{"thought": "The tests pass.", "outputs": {}}`, "The tests pass."},
		{"the same words", `{"final_thought": "The tests pass.", "thought": "The tests pass."}`, "The tests pass."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			history := `[{"id": 0, "source": "user", "action": "message", "args": {"content": "How many moons?"}},
 {"id": 1, "source": "agent", "message": "done", "action": "finish", "args": ` + tt.args + `}]`
			r, err := Parse("output.json", []byte(`{"instance_id": "q-1", "history": `+history+`}`), Options{})
			require.NoError(t, err)
			require.Len(t, r.Steps, 2)
			assert.Equal(t, tt.want, r.Steps[1].Content)
		})
	}
}
