package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestExecutorRunsTheLatestCode: a code executor answers to the latest code
// written since it last spoke, past a planner's ledger and its instruction
// to run the code; a result after its own earlier turn, with no code
// between, is its own; and a result right after the call keeps that call.
func TestExecutorRunsTheLatestCode(t *testing.T) {
	r := steps(
		"user", "How many pitchers are there?",
		"Coder", "```python\nprint(len(pitchers))\n```",
		"Planner", "The code is written. Next, the terminal should run it.",
		"Planner -> Terminal", "Please run the script above.",
		"Terminal", "The script ran, then exited with Unix exit code: 0\nIts output was:\n12",
		"Planner -> Terminal", "Run it again.",
		"Terminal", "The script ran, then exited with Unix exit code: 0\nIts output was:\n12",
		"Coder", "```python\nprint(13)\n```",
		"Terminal", "exitcode: 0 (execution succeeded)\nCode output: 13",
	)
	rf := Run(r)
	for _, c := range []struct{ step, caller int }{{4, 1}, {6, 6}, {8, 7}} {
		assert.True(t, rf.Steps[c.step].Has(KindToolResult), "step %d is an executor's output", c.step)
		assert.Equal(t, c.caller, int(rf.Steps[c.step].Caller), "step %d", c.step)
	}
}

// TestUserTurnAnswersAction: where an environment answers each action in
// the user's turn (a shell, a database), the user turn right after a step
// that ran code is that code's result, answered for by the step; a user
// turn after a message that runs nothing, and the turn that gives the
// task (after a system prompt's example of code too), stay the user's own.
func TestUserTurnAnswersAction(t *testing.T) {
	for _, c := range []struct {
		name   string
		r      *run.Run
		step   int
		result bool
		caller int
	}{
		{"a shell's output", chat("user", "How many processes run under www-data?", "assistant", "Act: bash\n\n```bash\nps -u www-data | wc -l\n```", "user", "The output of the OS:\n\n7"), 2, true, 1},
		{"a database's error", chat("user", "What is the average price?", "assistant", "Action: Operation\n```sql\nSELECT AVG(price) FROM products;\n```", "user", "1054 (42S22): Unknown column 'price' in 'field list'"), 2, true, 1},
		{"after a message that runs nothing", chat("user", "Hi, I need help with my order.", "assistant", "Sure, what is the order number?", "user", "It is 4411."), 2, false, NoCaller},
		{"the task", chat("user", "```bash\nls\n```\nWhat does this list?"), 0, false, NoCaller},
		{"the task after a system prompt's example", system("Answer in this form:\n```bash\nls -l\n```", "user", "How many files are in /tmp?"), 1, false, NoCaller},
	} {
		t.Run(c.name, func(t *testing.T) {
			rf := Run(c.r)
			assert.Equal(t, c.result, rf.Steps[c.step].Has(KindToolResult))
			assert.Equal(t, c.caller, int(rf.Steps[c.step].Caller))
		})
	}
}

// system is chat after a system prompt.
func system(prompt string, pairs ...string) *run.Run {
	r := chat(pairs...)
	r.Steps = append([]run.Step{{Agent: "system", Kind: run.KindSystem, Content: prompt}}, r.Steps...)
	for i := range r.Steps {
		r.Steps[i].Index = i
	}
	return r
}

// TestBareOutputAnswersCode: an executor that answers code with its bare
// output, no words of its own (AG2's MathUserProxyAgent), reports a
// result; another agent's words after the code, or a figure it states in
// a sentence, are not one.
func TestBareOutputAnswersCode(t *testing.T) {
	for _, tc := range []struct {
		name, reply string
		result      bool
	}{
		{"figures alone", "1354.5/10 135.45", true},
		{"a list and a boolean", "[2, 3, 5, 7]\nTrue", true},
		{"a radical", "sqrt(2)/2", true},
		{"a sentence", "The total is 135.45.", false},
		{"words without figures", "Looks right to me.", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := chat(
				"user", "What do 2 adult and 3 child fares at $37.80 cost, a child's half the adult's?",
				"assistant", "```python\nadult = 37.80\nprint(2 * adult + 3 * adult / 2)\n```",
				"proxy", tc.reply,
			)
			rf := Run(r)
			assert.Equal(t, tc.result, rf.Steps[2].Has(KindToolResult))
		})
	}
}

// A system prompt or a user's turn that shows code or an action (the
// harness's example of the format, the task's snippet) issues no call;
// an agent's turn that writes it does.
func TestPromptExampleIsNoCall(t *testing.T) {
	prompt := "Take one action each turn. If you should run bash code, print like this:\n\nAct: bash\n\n```bash\n# put your bash code here\n```"
	for _, kind := range []run.Kind{run.KindSystem, run.KindUser} {
		r := &run.Run{Steps: []run.Step{
			{Index: 0, Agent: "user", Kind: kind, Content: prompt},
			{Index: 1, Agent: "assistant", Kind: run.KindMessage, Content: "Think: count them.\n\nAct: bash\n\n```bash\nls | wc -l\n```"},
		}}
		rf := Run(r)
		assert.False(t, rf.Steps[0].IssuesCall(), "%v", kind)
		assert.False(t, rf.Steps[0].Has(KindToolCall), "%v", kind)
		assert.True(t, rf.Steps[1].IssuesCall(), "%v", kind)
	}
}

// TestPrintedOutputAnswersCode: an executor that answers code with what
// the code prints, its labels and figures (AutoGen's CodeExecutorAgent,
// as its own message), reports a result the code's writer answers for;
// a sentence with words the code does not print (the names it calls
// among them), or words with no figure, are another agent's own.
func TestPrintedOutputAnswersCode(t *testing.T) {
	code := "```python\nimport pandas as pd\ndf = pd.read_csv('sales.csv')\nq3 = df[(df.region == 'EMEA') & (df.quarter == 3)]\nprint(f\"EMEA Q3 revenue: {q3.revenue_eur.sum():,.2f}\")\n```"
	for _, tc := range []struct {
		name, reply string
		result      bool
	}{
		{"the code's label and its figure", "EMEA Q3 revenue: 1,184,300.00\n", true},
		{"a sentence of the reader's own", "The EMEA revenue was 1,184,300.00 in Q3.", false},
		{"the code's words with no figure", "EMEA revenue", false},
		{"names the code calls, which it does not print", "read csv 1184300", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := chat(
				"user", "What was EMEA's revenue in Q3?",
				"coder", code,
				"executor", tc.reply,
			)
			rf := Run(r)
			assert.Equal(t, tc.result, rf.Steps[2].Has(KindToolResult))
			if tc.result {
				assert.Equal(t, 1, int(rf.Steps[2].Caller))
			}
		})
	}
}
