package run

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSWEAgentEdits: the actions of a SWE-agent trajectory that edit a
// file (its windowed editor's edit and insert on the file it has open, as
// its "Open file" footer and its window's header say; create; its
// str_replace_editor given as a command line) are read as the editor's
// calls that write it; its other actions (open, a test run) stay command
// lines of its shell. The shapes are SWE-agent's trajectories' history
// messages, before and after it gave its tools as command lines to
// str_replace_editor.
func TestSWEAgentEdits(t *testing.T) {
	action := func(a string) map[string]any {
		return map[string]any{"role": "assistant", "content": "DISCUSSION\n\n```\n" + a + "\n```", "action": a + "\n", "message_type": "action"}
	}
	observation := func(o string) map[string]any {
		return map[string]any{"role": "user", "content": o, "message_type": "observation"}
	}
	history := []map[string]any{
		{"role": "system", "content": "SETTING: You are an autonomous programmer.", "message_type": "system_prompt"},
		observation("ISSUE:\nmedian([1, 2, 3, 4]) returns 2; it should return 2.5."),
		action("open tests/test_median.py"),
		observation("[File: /repo/tests/test_median.py (9 lines total)]\n1:from stats.median import median\n(Open file: /repo/tests/test_median.py)\n(Current directory: /repo)\nbash-$"),
		action("edit 5:5\n    assert median([1, 2, 3, 4]) == 2\nend_of_edit"),
		observation("[File: /repo/tests/test_median.py (9 lines total)]\nFile updated.\n(Open file: /repo/tests/test_median.py)\n(Current directory: /repo)\nbash-$"),
		action("create reproduce.py"),
		observation("[File: /repo/reproduce.py (1 lines total)]\n1:"),
		action("insert 1\nprint(1)\nend_of_insert"),
		observation("[File: /repo/reproduce.py (2 lines total)]\nFile updated."),
		action("str_replace_editor str_replace /repo/stats/median.py   --old_str 'return s[n // 2]' --new_str 'return (s[n // 2 - 1] + s[n // 2]) / 2'"),
		observation("The file /repo/stats/median.py has been edited."),
		action("python -m pytest -q tests"),
		observation("..\n2 passed in 0.02s"),
	}
	data, err := json.Marshal(map[string]any{"history": history, "trajectory": []any{}})
	require.NoError(t, err)
	r, err := Parse("run.traj", data, Options{})
	require.NoError(t, err)
	calls := map[int]string{}
	for i, s := range r.Steps {
		if tc := s.ToolCalls(); len(tc) == 1 {
			calls[i] = tc[0].Name + " " + tc[0].Arguments
		}
	}
	assert.Equal(t, map[int]string{
		2:  `bash {"command":"open tests/test_median.py"}`,
		4:  `str_replace_editor {"command":"edit","new_str":"    assert median([1, 2, 3, 4]) == 2","path":"/repo/tests/test_median.py"}`,
		6:  `str_replace_editor {"command":"create","path":"reproduce.py"}`,
		8:  `str_replace_editor {"command":"insert","insert_line":"1","new_str":"print(1)","path":"/repo/reproduce.py"}`,
		10: `str_replace_editor {"command":"str_replace","new_str":"return (s[n // 2 - 1] + s[n // 2]) / 2","old_str":"return s[n // 2]","path":"/repo/stats/median.py"}`,
		12: `bash {"command":"python -m pytest -q tests"}`,
	}, calls)
	assert.Equal(t, KindToolResult, r.Steps[5].Kind)
}

// TestFencedActions: replies saved with their texts only, each ending
// with the one command it runs in a fence (bare or a shell's) after its
// discussion and answered in the user's turn, as SWE-agent's replies
// before function calling are, are read as its actions were: the command
// a call of the agent's shell (the editor's for an edit of the open
// file), the user's turn after it that command's output; a last reply
// that no turn answers runs nothing. A chat whose user answers code now
// and then, or a reply that ends with Python, stays a chat.
func TestFencedActions(t *testing.T) {
	fence := func(s string) string { return "\n```\n" + s + "\n```" }
	hist := func(msgs ...[2]string) string {
		var out []map[string]string
		for _, m := range msgs {
			out = append(out, map[string]string{"role": m[0], "name": map[string]string{"assistant": "SWE-agent"}[m[0]], "content": m[1]})
		}
		b, err := json.Marshal(map[string]any{"question": "fix it", "history": out, "mistake_agent": "SWE-agent", "mistake_step": "1"})
		require.NoError(t, err)
		return string(b)
	}
	t.Run("an agent loop", func(t *testing.T) {
		data := hist(
			[2]string{"user", "ISSUE:\nslugify drops digits."},
			[2]string{"assistant", "DISCUSSION\nOpen the module." + fence("open slugify/core.py")},
			[2]string{"user", "[File: /testbed/slugify/core.py (9 lines total)]\n1:import re\n(Open file: /testbed/slugify/core.py)\n(Current directory: /testbed)\nbash-$"},
			[2]string{"assistant", "DISCUSSION\nFix the pattern." + fence("edit 3:3\n_NON_WORD = re.compile(r\"[^a-z0-9]+\")\nend_of_edit")},
			[2]string{"user", "File updated.\n(Open file: /testbed/slugify/core.py)\nbash-$"},
			[2]string{"assistant", "```bash\npython -m pytest -q\n```"},
			[2]string{"user", "1 failed, 6 passed in 0.05s"},
			[2]string{"assistant", "DISCUSSION\nDone." + fence("submit")},
		)
		r, err := Parse("case.json", []byte(data), Options{})
		require.NoError(t, err)
		assert.Equal(t, []Kind{KindUser, KindToolCall, KindToolResult, KindToolCall, KindToolResult, KindToolCall, KindToolResult, KindMessage}, stepKinds(r))
		require.Len(t, r.Steps[1].ToolCalls(), 1)
		assert.JSONEq(t, `{"command": "open slugify/core.py"}`, r.Steps[1].ToolCalls()[0].Arguments)
		require.Len(t, r.Steps[3].ToolCalls(), 1)
		assert.Contains(t, r.Steps[3].ToolCalls()[0].Arguments, `"path":"/testbed/slugify/core.py"`)
	})
	t.Run("a chat", func(t *testing.T) {
		data := hist(
			[2]string{"user", "How do I list files?"},
			[2]string{"assistant", "Use ls:" + fence("ls -la")},
			[2]string{"user", "Thanks! And how do I count lines in Python?"},
			[2]string{"assistant", "Like this:\n```python\nprint(sum(1 for _ in open('f')))\n```"},
			[2]string{"user", "And the disk usage?"},
			[2]string{"assistant", "Use du, for example `du -sh .`, which sums the directory."},
			[2]string{"user", "Great."},
		)
		r, err := Parse("case.json", []byte(data), Options{})
		require.NoError(t, err)
		for _, s := range r.Steps {
			assert.NotEqual(t, KindToolResult, s.Kind, s.Content)
		}
	})
}
