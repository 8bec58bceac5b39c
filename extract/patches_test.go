package extract

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestPatchOrigin: a run that answers with a unified diff, handed to its
// answering tool, made its change where a line the diff adds was first
// written: in the agent's code, or in a result its call printed (the
// call's step then); not in the task, not from lines the patch only
// moves, and not from lines of no substance.
// A task that asks for a patch (and names git apply) answered with none
// was answered wrong by the step that chose to hand it over.
func TestPatchOrigin(t *testing.T) {
	const (
		task  = "Fix Paginator.\n<code>\n    def page(self, number):\n        return self._get_page(number)\n</code>\nReturn a patch file."
		patch = "--- a/django/core/paginator.py\n+++ b/django/core/paginator.py\n@@ -34,6 +34,10 @@ class Paginator:\n     def page(self, number):\n+\n+    def __iter__(self):\n+        for page_num in range(self.num_pages):\n+            yield self.page(page_num)\n+        return self._get_page(number)\n"
	)
	answer := func(v string) run.Step {
		args, err := json.Marshal(map[string]any{"args": []string{v}})
		require.NoError(t, err)
		return run.Step{Agent: "CodeAgent", Kind: run.KindToolCall, Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: "final_answer", Arguments: string(args)}}}}
	}
	say := func(s string) run.Step {
		return run.Step{Agent: "CodeAgent", Role: "assistant", Kind: run.KindMessage, Content: s}
	}
	out := func(s string) run.Step {
		return run.Step{Agent: "CodeAgent", Role: "tool", Kind: run.KindToolResult, Content: s}
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
