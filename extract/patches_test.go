package extract

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// codeAgentSteps returns makers of a CodeAgent's steps: its answering
// call handing v to final_answer, its message, and a tool's result.
func codeAgentSteps(t *testing.T) (answer, say, out func(string) run.Step) {
	answer = func(v string) run.Step {
		args, err := json.Marshal(map[string]any{"args": []string{v}})
		require.NoError(t, err)
		return run.Step{Agent: "CodeAgent", Kind: run.KindToolCall, Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: "final_answer", Arguments: string(args)}}}}
	}
	say = func(s string) run.Step {
		return run.Step{Agent: "CodeAgent", Role: "assistant", Kind: run.KindMessage, Content: s}
	}
	out = func(s string) run.Step {
		return run.Step{Agent: "CodeAgent", Role: "tool", Kind: run.KindToolResult, Content: s}
	}
	return answer, say, out
}

// TestPatchOrigin: a run that answers with a unified diff, handed to its
// answering tool, made its change where a line the diff adds was first
// written: in the agent's code, or in a result its call printed (the
// call's step then); not in the task, not from lines the patch only
// moves, and not from lines of no substance.
// A task that asks for a patch (and names git apply) answered with none
// was answered wrong by the step that chose to hand it over. A transcript
// that writes the answering call as a tool's result restating it
// ("FinalAnswerTool(<patch>) -> ", as a trace's tool span is written as
// one step) answers there, as the trace does with its call; its argument
// may be quoted. A result that restates another tool's call is no answer.
func TestPatchOrigin(t *testing.T) {
	const (
		task  = "Fix Paginator.\n<code>\n    def page(self, number):\n        return self._get_page(number)\n</code>\nReturn a patch file."
		patch = "--- a/django/core/paginator.py\n+++ b/django/core/paginator.py\n@@ -34,6 +34,10 @@ class Paginator:\n     def page(self, number):\n+\n+    def __iter__(self):\n+        for page_num in range(self.num_pages):\n+            yield self.page(page_num)\n+        return self._get_page(number)\n"
	)
	answer, say, out := codeAgentSteps(t)
	quoted := func(s string) string {
		b, err := json.Marshal(s)
		require.NoError(t, err)
		return string(b)
	}
	tests := []struct {
		name     string
		asks     bool // the task asks for a patch
		steps    []run.Step
		want     int // -1: none
		notPatch bool
	}{
		{"first written in code", true, []run.Step{
			say("Thought: look.\nCode:\n```py\nprint(1)\n```<end_code>"), out("Execution logs:\n1"),
			say("Thought: iterate from 0.\nCode:\n```py\ndef __iter__(self):\n    for page_num in range(self.num_pages):\n        yield self.page(page_num)\n```<end_code>"), out("Execution logs:\n"),
			say("Thought: patch.\nCode:\n```py\nfinal_answer(patch)\n```<end_code>"), answer(patch)}, 3, false},
		{"first printed by a call", false, []run.Step{
			say("Thought: build it.\nCode:\n```py\nprint(new.replace('x', 'for page_num in range(self.num_pages):'))\n```<end_code>"), out("Execution logs:\n        for page_num in range(self.num_pages):"),
			say("Thought: patch.\nCode:\n```py\nfinal_answer(patch)\n```<end_code>"), answer(patch)}, 1, false},
		{"no diff handed over", false, []run.Step{
			say("Thought: for page_num in range(self.num_pages):\nCode:\n```py\nfinal_answer(src)\n```<end_code>"), answer("def __iter__(self):\n    for page_num in range(self.num_pages):")}, -1, false},
		{"a function handed over where a patch was asked", true, []run.Step{
			say("Thought: iterate.\nCode:\n```py\nprint(1)\n```<end_code>"), out("Execution logs:\n1"),
			say("Thought: the function is clearer than a diff.\nCode:\n```py\nfinal_answer(src)\n```<end_code>"), answer("def __iter__(self):\n    for page_num in range(self.num_pages):")}, 3, true},
		{"a question handed over where a patch was asked", true, []run.Step{
			say("Thought: I need to know more.\nCode:\n```py\nfinal_answer(\"Should pages start at 0?\")\n```<end_code>"), answer("Should pages start at 0?")}, 1, true},
		{"a result that restates the answering call", false, []run.Step{
			say("Thought: iterate from 0.\nCode:\n```py\nfor page_num in range(self.num_pages):\n    print(page_num)\n```<end_code>"), out("Execution logs:\n0"),
			say("Thought: patch.\nCode:\n```py\nfinal_answer(patch)\n```<end_code>"), out("FinalAnswerTool(" + patch + ") -> ")}, 1, false},
		{"a result that restates it with the patch quoted", false, []run.Step{
			say("Thought: iterate from 0.\nCode:\n```py\nfor page_num in range(self.num_pages):\n    print(page_num)\n```<end_code>"), out("Execution logs:\n0"),
			say("Thought: patch.\nCode:\n```py\nfinal_answer(patch)\n```<end_code>"), out("FinalAnswerTool(" + quoted(patch) + ") -> ")}, 1, false},
		{"a result that restates another tool's call", false, []run.Step{
			say("Thought: iterate from 0.\nCode:\n```py\nfor page_num in range(self.num_pages):\n    print(page_num)\n```<end_code>"), out("python_interpreter(" + patch + ") -> ok")}, -1, false},
		{"only lines the task writes or of no substance", false, []run.Step{
			say("Thought: return self._get_page(number)\n\ndef __iter__(self):\nCode:\n```py\nfinal_answer(p)\n```<end_code>"),
			answer("--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,3 @@\n+        return self._get_page(number)\n+    )\n+def f():\n")}, -1, false},
		{"only lines the patch moves", false, []run.Step{
			say("Thought: read it.\nCode:\n```py\nprint(src)\n```<end_code>"), out("Execution logs:\n    def f(self):\n        self._cache[key] = value\n        self._validate(value)"),
			say("Thought: patch.\nCode:\n```py\nfinal_answer(p)\n```<end_code>"),
			answer("--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n     def f(self):\n+        self._validate(value)\n         self._cache[key] = value\n-        self._validate(value)\n")}, -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := task
			if tt.asks {
				q += " It must apply with git apply."
			}
			steps := append([]run.Step{{Agent: "user", Role: "user", Kind: run.KindUser, Content: q}}, tt.steps...)
			rf := Run(&run.Run{Question: q, Steps: steps})
			if tt.want < 0 {
				assert.Nil(t, rf.PatchOrigin)
				return
			}
			require.NotNil(t, rf.PatchOrigin)
			assert.Equal(t, tt.want, rf.PatchOrigin.Step)
			assert.Equal(t, tt.notPatch, rf.PatchOrigin.NotPatch)
			assert.Equal(t, len(steps)-1, rf.PatchOrigin.Answer)
		})
	}
}

// TestAsksPatch: a task asks for a patch where a sentence that says patch
// or diff asks for one; a task that shows a patch and asks a question
// about it, or names a patch of another kind, asks for none.
func TestAsksPatch(t *testing.T) {
	const shown = "\n--- a/app/config.py\n+++ b/app/config.py\n@@ -12,4 +12,4 @@\n DEFAULT_TIMEOUT = 30\n-MAX_RETRIES = 3\n+MAX_RETRIES = 5\n"
	tests := []struct {
		name string
		task string
		want bool
	}{
		{"asks for a patch git applies", "Fix the issue.\nPlease respond with a single patch file that I can apply using git apply.", true},
		{"asks by generating one", "I need you to solve the issue by generating a patch, in the format shown:" + shown, true},
		{"asks about a patch it shows", "A contributor's patch no longer applies: git apply says error: patch failed." + shown + "\nOn which line does the hunk's first context line stand now? Answer with the line number.", false},
		{"a patch of another kind", "Give the length of the patch cable I need.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, asksPatch(tt.task))
		})
	}
}

// TestPatchOriginOfAChangeAndOfLinesTheCodeLacks: a line the diff changes
// was decided where its change was first written, in the agent's own
// words or in a stand-in, though no step wrote the whole new line before
// the patch; the change is grown by tokens past what the task already
// writes. A diff whose removed or context lines, or whose file, the code
// the task shows does not have cannot apply: the step that first wrote
// that line or path decided it, even after a right change. A task that
// shows none of the diff's code holds nothing to compare against.
func TestPatchOriginOfAChangeAndOfLinesTheCodeLacks(t *testing.T) {
	const task = "Fix the stacking.\n<code>\n[start of astropy/modeling/separable.py]\n240     else:\n241         cright = np.zeros((noutp, right.shape[1]))\n242         cright[-right.shape[0]:, -right.shape[1]:] = 1\n243         return self._format_fields(fields)\n[end of astropy/modeling/separable.py]\n</code>\nReturn a patch file that applies with git apply."
	diff := func(path, removed, added string) string {
		return "--- a/" + path + "\n+++ b/" + path + "\n@@ -240,3 +240,3 @@\n     else:\n         cright = np.zeros((noutp, right.shape[1]))\n-" + removed + "\n+" + added + "\n"
	}
	const (
		sep     = "astropy/modeling/separable.py"
		oldLine = "        cright[-right.shape[0]:, -right.shape[1]:] = 1"
		newLine = "        cright[-right.shape[0]:, -right.shape[1]:] = np.eye(right.shape[1])"
	)
	answer, say, out := codeAgentSteps(t)
	tests := []struct {
		name  string
		task  string
		steps []run.Step
		want  int // -1: none
		stale bool
	}{
		{"a change first written in a thought", task, []run.Step{
			say("Thought: reproduce.\nCode:\n```py\nprint(1)\n```<end_code>"), out("Execution logs:\n1"),
			say("Thought: the block should be `np.eye(right.shape[1])`, not 1.\nCode:\n```py\nprint(2)\n```<end_code>"), out("Execution logs:\n2"),
			say("Thought: patch.\nCode:\n```py\npatch = '''" + diff(sep, oldLine, newLine) + "'''\nfinal_answer(patch)\n```<end_code>"), answer(diff(sep, oldLine, newLine))}, 3, false},
		{"a change the task writes in part is grown past it", task, []run.Step{
			say("Thought: use the other formatter.\nCode:\n```py\nprint(self._format_fields)\n```<end_code>"), out("Execution logs:\n1"),
			say("Thought: always return `self._format_docutils(self._consume_fields())`.\nCode:\n```py\nprint(2)\n```<end_code>"), out("Execution logs:\n2"),
			say("Thought: patch.\nCode:\n```py\nfinal_answer(patch)\n```<end_code>"),
			answer("--- a/" + sep + "\n+++ b/" + sep + "\n@@ -243,1 +243,1 @@\n-        return self._format_fields(fields)\n+        return self._format_docutils(self._consume_fields())\n")}, 3, false},
		{"a removed line retyped after a right change", task, []run.Step{
			say("Thought: the change.\nCode:\n```py\nprint('cright[-right.shape[0]:, -right.shape[1]:] = np.eye(right.shape[1])')\n```<end_code>"), out("Execution logs:\nok"),
			say("Thought: patch.\nCode:\n```py\npatch = '''" + diff(sep, "        cright[-right.shape[0]:, -right.shape[1]:] = 1  # ones", newLine) + "'''\n```<end_code>"), out("Execution logs:\n"),
			say("Thought: return it.\nCode:\n```py\nfinal_answer(patch)\n```<end_code>"), answer(diff(sep, "        cright[-right.shape[0]:, -right.shape[1]:] = 1  # ones", newLine))}, 3, true},
		{"a file the task does not name, chosen before the change", task, []run.Step{
			say("Thought: the stacking lives in astropy/modeling/core.py, so I patch it there.\nCode:\n```py\nprint(1)\n```<end_code>"), out("Execution logs:\n1"),
			say("Thought: the change.\nCode:\n```py\nprint('cright[-right.shape[0]:, -right.shape[1]:] = np.eye(right.shape[1])')\n```<end_code>"), out("Execution logs:\nok"),
			say("Thought: patch.\nCode:\n```py\nfinal_answer(patch)\n```<end_code>"), answer(diff("astropy/modeling/core.py", oldLine, newLine))}, 1, true},
		{"a file the task does not name, chosen after the change", task, []run.Step{
			say("Thought: the change.\nCode:\n```py\nprint('cright[-right.shape[0]:, -right.shape[1]:] = np.eye(right.shape[1])')\n```<end_code>"), out("Execution logs:\nok"),
			say("Thought: the stacking lives in astropy/modeling/core.py, so I patch it there.\nCode:\n```py\nfinal_answer(patch)\n```<end_code>"), answer(diff("astropy/modeling/core.py", oldLine, newLine))}, 1, false},
		{"a file the task does not show has no stale lines", task, []run.Step{
			say("Thought: the change.\nCode:\n```py\nprint('cright[-right.shape[0]:, -right.shape[1]:] = np.eye(right.shape[1])')\n```<end_code>"), out("Execution logs:\nok"),
			say("Thought: the stacking lives in astropy/modeling/core.py, so I patch it there.\nCode:\n```py\nfinal_answer(patch)\n```<end_code>"), answer(diff("astropy/modeling/core.py", "        cright[-right.shape[0]:, -right.shape[1]:] = 1  # ones", newLine))}, 1, false},
		{"a task that shows none of the diff's code and names no file", "Fix the stacking. Return a patch file that applies with git apply.", []run.Step{
			say("Thought: the change.\nCode:\n```py\nprint('cright[-right.shape[0]:, -right.shape[1]:] = np.eye(right.shape[1])')\n```<end_code>"), out("Execution logs:\nok"),
			say("Thought: it lives in astropy/modeling/core.py.\nCode:\n```py\nfinal_answer(patch)\n```<end_code>"), answer(diff("astropy/modeling/core.py", oldLine, newLine))}, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			steps := append([]run.Step{{Agent: "user", Role: "user", Kind: run.KindUser, Content: tt.task}}, tt.steps...)
			rf := Run(&run.Run{Question: tt.task, Steps: steps})
			if tt.want < 0 {
				assert.Nil(t, rf.PatchOrigin)
				return
			}
			require.NotNil(t, rf.PatchOrigin)
			assert.Equal(t, tt.want, rf.PatchOrigin.Step, rf.PatchOrigin.Line)
			assert.Equal(t, tt.stale, rf.PatchOrigin.Stale)
		})
	}
}

// TestPatchOriginOfRespacedLines: a diff whose kept or removed lines are
// indented with spaces where the file the task shows indents with tabs
// cannot apply; the step that first wrote them so, as diff lines, decided
// it, not the step that wrote the same code with spaces as a stand-in. A
// diff that keeps the file's tabs is traced to its change.
func TestPatchOriginOfRespacedLines(t *testing.T) {
	const task = "Fix it.\n<code>\n[start of text.py]\n114 def strip(s):\n115 \tnormalized = normalize('NFKD', s)\n116 \tif normalized == s:\n117 \t\treturn s\n[end of text.py]\n</code>\nReturn a patch file that applies with git apply."
	answer, say, out := codeAgentSteps(t)
	patch := func(indent string) string {
		return "--- a/text.py\n+++ b/text.py\n@@ -114,4 +114,2 @@\n def strip(s):\n " + indent + "normalized = normalize('NFKD', s)\n-" + indent + "if normalized == s:\n-" + indent + indent + "return s\n+" + indent + "return strip_all(normalized)\n"
	}
	tests := []struct {
		name   string
		indent string
		want   int
		stale  bool
	}{
		{"spaces where the file has tabs", "    ", 3, true},
		{"the file's tabs", "\t", 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			steps := []run.Step{{Agent: "user", Role: "user", Kind: run.KindUser, Content: task},
				say("Thought: a stand-in.\nCode:\n```py\ndef strip(s):\n    normalized = normalize('NFKD', s)\n    return strip_all(normalized)\n```<end_code>"), out("Execution logs:\nok"),
				say("Thought: the patch.\nCode:\n```py\npatch = '''" + patch(tt.indent) + "'''\n```<end_code>"), out("Execution logs:\n"),
				say("Thought: return it.\nCode:\n```py\nfinal_answer(patch)\n```<end_code>"), answer(patch(tt.indent))}
			rf := Run(&run.Run{Question: task, Steps: steps})
			require.NotNil(t, rf.PatchOrigin)
			assert.Equal(t, tt.want, rf.PatchOrigin.Step, rf.PatchOrigin.Line)
			assert.Equal(t, tt.stale, rf.PatchOrigin.Stale)
		})
	}
}
