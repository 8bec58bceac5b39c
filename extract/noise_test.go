package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRuntimeNoise(t *testing.T) {
	s := "Here is the plan.\n" +
		"/usr/lib/python3.11/site-packages/agents/orchestrator.py:216: UserWarning: Resolved model mismatch: gpt-4o-2024-08-06 != gpt-4o-2024-05-13.\n" +
		"  ledger_response = await self._model_client.create(\n" +
		"The file /workspace/data.csv has 1200 rows.\n" +
		"Traceback (most recent call last):\n" +
		"  File \"/workspace/count.py\", line 12, in <module>\n" +
		"    rows = read(\"/workspace/data.csv\")\n" +
		"FileNotFoundError: /workspace/other.csv\n"
	var got []string
	for _, c := range claimsOf(newText(s), nil, true) {
		got = append(got, c.Key())
	}
	assert.Equal(t, []string{"path:workspace/data.csv", "number:1200", "path:workspace/other.csv"}, got,
		"the warning's path, date-like model names and line numbers, and the frame's file and line are the harness's")

	for _, line := range []string{
		"x.py:12: DeprecationWarning: old",
		"C:\\app\\run.py:7: UserWarning: careful",
	} {
		assert.True(t, pythonWarning(line), line)
	}
	for _, line := range []string{
		"see x.py:12 for details: Warning: nothing",
		"x.py:: UserWarning: no line",
		"Warning: disk almost full",
	} {
		assert.False(t, pythonWarning(line), line)
	}
	assert.Nil(t, runtimeNoise("nothing of the kind here"))
}

func TestEntitiesAreNotHeadingsOrAgents(t *testing.T) {
	agents := map[string]bool{"websurfer": true}
	s := "2. FACTS TO LOOK UP\n- Ask WebSurfer to open the page of the US Air Force and NASA, then Mission Bay."
	var got []string
	for _, c := range claimsOf(newText(s), newAgentSet(agents), true) {
		got = append(got, c.Key())
	}
	assert.Equal(t, []string{"entity:us air force", "entity:nasa", "entity:mission bay"}, got)
}

// The time a test runner says a run took is the harness's clock, not a
// value: a tester's report that ends a run answers with nothing of it,
// whether pytest's (with the clock time it adds past a minute) or
// unittest's ("Ran 1 test in 0.001s").
func TestRunDurationsAreNoClaims(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"..\n1 passed in 0.01s", nil},
		{"F.\n1 failed, 2 passed in 0.02s", nil},
		{"=== 3 passed, 1 warning in 0.12s ===", nil},
		{"=== 1 passed in 65.43s (0:01:05) ===", nil},
		{".\n----------------------------------------------------------------------\nRan 1 test in 0.001s\n\nOK", nil},
		{"Ran 3 tests in 0.004s", nil},
		{"The run took 12 minutes in 3.5s intervals.", []string{"12 min", "3.5 s"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var got []string
			for _, c := range Claims(tt.in) {
				if (c.Kind == ClaimNumber || c.Kind == ClaimTime) && c.Norm != "1" && c.Norm != "2" && c.Norm != "3" {
					got = append(got, c.Norm)
				}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// A unified diff's hunk header places a change: its line numbers are no
// figures a step states, in a patch written out or built in a string
// literal; a range written in prose is still read.
func TestHunkHeadersAreNoClaims(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"--- a/src/fields.py\n+++ b/src/fields.py\n@@ -1487,7 +1487,7 @@ class TimeDelta(Field):\n-    value = int(value)\n+    value = round(value)", nil},
		{`patch = "--- a/x.py\n+++ b/x.py\n@@ -1074,7 +1074,8 @@ def f():\n"`, nil},
		{"@@ -12 +12 @@\n-a\n+b", nil},
		{"@@ -0,0 +1,25 @@", nil},
		{"The loop runs from -1487 to 7 in 1487 steps.", []string{"-1487", "7", "1487"}},
		{"@@ -12,x +12 @@ and -40", []string{"-12", "12", "-40"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var got []string
			for _, c := range Claims(tt.in) {
				if c.Kind == ClaimNumber {
					got = append(got, c.Norm)
				}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
