package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/run"
)

// A run that answers with a patch is traced to the step that first wrote
// the change the patch makes (extract.PatchOrigin), not to the steps that
// later copied it into the patch: the code that counts pages from 0 was
// decided where it was first written. A task that asks for a patch
// answered with none (the function's source) is traced to the step that
// chose to hand it over. A patch that holds a line the code the task shows
// does not have is traced to the step that wrote the line, as one that
// cannot apply.
func TestDataFlowOriginOfAPatch(t *testing.T) {
	const (
		task  = "Add Paginator.__iter__.\n<code>\n    def page(self, number):\n        return self._get_page(number)\n</code>\nReturn a patch file that applies with git apply."
		diff  = `--- a/django/core/paginator.py\n+++ b/django/core/paginator.py\n@@ -34,6 +34,9 @@\n+    def __iter__(self):\n+        for page_num in range(self.num_pages):\n+            yield self.page(page_num)\n`
		iter0 = "def __iter__(self):\n    for page_num in range(self.num_pages):\n        yield self.page(page_num)"
	)
	tests := []struct {
		name   string
		answer string // the answering call's argument, as JSON writes it
		want   int
		reason string
	}{
		{"a patch", diff, 3, "def __iter__(self):"},
		{"a patch whose removed line the code does not have", `--- a/django/core/paginator.py\n+++ b/django/core/paginator.py\n@@ -34,3 +34,3 @@\n     def page(self, number):\n-        for page_num in range(self.num_pages):\n+        for page_num in range(1, self.num_pages + 1):\n`, 3, "which the code the task shows does not have"},
		{"a function where a patch was asked", `def __iter__(self):\n    for page_num in range(self.num_pages):`, 5, "answer with something that is none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run.Run{Source: "test.json", Question: task, Steps: []run.Step{
				{Agent: "user", Kind: run.KindUser, Content: task},
				{Agent: "CodeAgent", Kind: run.KindMessage, Content: "Thought: a stand-in first.\nCode:\n```py\nclass P:\n    num_pages = 3\n```<end_code>"},
				{Agent: "CodeAgent", Kind: run.KindToolResult, Content: "Execution logs:\nLast output from code snippet:\nNone"},
				{Agent: "CodeAgent", Kind: run.KindMessage, Content: "Thought: pages by their index.\nCode:\n```py\n" + iter0 + "\n```<end_code>"},
				{Agent: "CodeAgent", Kind: run.KindToolResult, Content: "Execution logs:\n[0, 1, 2]"},
				{Agent: "CodeAgent", Kind: run.KindMessage, Content: "Thought: hand it over.\nCode:\n```py\nfinal_answer(answer)\n```<end_code>"},
				{Agent: "CodeAgent", Kind: run.KindToolCall, Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: "final_answer", Arguments: `{"args": ["` + tt.answer + `"]}`}}}},
			}}
			for i := range r.Steps {
				r.Steps[i].Index = i
			}
			f := extract.Run(r)
			g, err := graph.Build(r, f)
			require.NoError(t, err)
			got := dataFlowOrigin(&Input{Run: r, Features: f, Graph: g})
			require.Len(t, got, 1)
			assert.Equal(t, tt.want, got[0].Step)
			assert.Contains(t, got[0].Reason, tt.reason)
		})
	}
}
