package rules

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/run"
)

// designRun is a software team in the manner of MetaGPT: the architect's
// design names a client method that does not exist, the engineer's code
// calls it, and the tester's run fails on it. The error is written as
// pytest prints it.
func designRun(t *testing.T) *Input {
	return prepare(t, "Write a CLI tool that prints the emails of all active users, sorted.", "",
		msg{agent: "Human", content: "Write a CLI tool that prints the emails of all active users, sorted.", kind: run.KindUser},
		msg{agent: "Architect", content: "## System Design\nUse the userservice SDK: `Client(base_url)` exposes `client.fetch_users(status=\"active\")`, returning dicts with an `email` key."},
		msg{agent: "Engineer", content: "```python\nfrom userservice import Client\n\ndef get_active_emails(client):\n    return sorted(u[\"email\"] for u in client.fetch_users(status=\"active\"))\n```"},
		msg{agent: "Tester", content: "```python\nfrom userservice import Client\nfrom users import get_active_emails\nprint(get_active_emails(Client(\"http://localhost:8080\")))\n```"},
		msg{agent: "Terminal", content: "exitcode: 1 (execution failed)\nCode output: Traceback (most recent call last):\n  File \"/work/users.py\", line 4, in get_active_emails\n    return sorted(u[\"email\"] for u in client.fetch_users(status=\"active\"))\nAttributeError: 'Client' object has no attribute 'fetch_users'"},
		msg{agent: "Tester", content: "The run fails: the client has no fetch_users. I cannot finish the tests."},
	)
}

func TestErrorNameOrigin(t *testing.T) {
	in := designRun(t)
	fs := ErrorNameOrigin.Run(in)
	require.Equal(t, []int{1}, steps(fs, true), "the design first wrote the name the error quotes")
	assert.Contains(t, fs[0].Quote, "fetch_users")
	assert.Contains(t, fs[0].Reason, "step 4")

	// The tester's failed run had a faulty input, the design's name: it
	// is propagated, not its own root.
	var tester Finding
	for _, f := range LocalFault.Run(in) {
		if f.Step == 3 {
			tester = f
		}
	}
	assert.InDelta(t, 0.5, tester.Strength, 1e-9, "a crash weighs 1, halved for its faulty input")
	assert.Contains(t, tester.Reason, "step 1")

	// The trial's first fault is where the name was written.
	assert.Equal(t, []int{1}, steps(TrialFirstFault.Run(in), true))
}

// A clean run after the failure is no recovery when an agent still says
// afterwards that it could not do its part: the run did not stay valid.
func TestErrorNameOriginPastACleanRunThatDidNotHelp(t *testing.T) {
	in := prepare(t, "Count the rows of data/sales.csv.", "",
		msg{agent: "user", content: "Count the rows of data/sales.csv.", kind: run.KindUser},
		msg{agent: "Planner", content: "Read it with the rowcount_tools package."},
		msg{agent: "Coder", content: "```python\nimport rowcount_tools\nprint(rowcount_tools.count('data/sales.csv'))\n```"},
		msg{agent: "Terminal", content: "exitcode: 1 (execution failed)\nCode output: Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nModuleNotFoundError: No module named 'rowcount_tools'"},
		msg{agent: "Coder", content: "```python\nimport pkgutil\nprint(sorted(m.name for m in pkgutil.iter_modules())[:5])\n```"},
		msg{agent: "Terminal", content: "exitcode: 0 (execution succeeded)\nCode output: ['abc', 'csv', 'json']"},
		msg{agent: "Coder", content: "I could not count the rows without the package."},
	)
	assert.Equal(t, []int{1}, steps(ErrorNameOrigin.Run(in), true))
}

// A name that is a plain word is written as a name only in code or
// between quotes: prose that uses the word did not write it.
func TestErrorNameOriginOfAPlainWord(t *testing.T) {
	withPlan := func(plan string) *Input {
		return prepare(t, "What is the total of the items in cart.csv?", "",
			msg{agent: "user", content: "What is the total of the items in cart.csv?", kind: run.KindUser},
			msg{agent: "Planner", content: plan},
			msg{agent: "Coder", content: "```python\nimport pandas as pd\nprint(pd.read_csv('cart.csv')['price'].sum())\n```"},
			msg{agent: "Terminal", content: "exitcode: 1 (execution failed)\nCode output: Traceback (most recent call last):\n  File \"x.py\", line 2, in <module>\nKeyError: 'price'"},
			msg{agent: "Coder", content: "The file has no such column; I cannot compute the total."},
		)
	}
	assert.Empty(t, ErrorNameOrigin.Run(withPlan("We need the price of each item, summed.")), "prose uses the word")
	assert.Equal(t, []int{1}, steps(ErrorNameOrigin.Run(withPlan("Sum the `price` column of the file.")), true), "the plan names the column")
}

// codingRun is a coding agent with tools, as an OpenAI chat transcript
// records it: an early edit writes a misspelt import, the test run fails
// on it, and a search of the code that follows runs cleanly.
func codingRun(t *testing.T) *Input {
	call := func(id, name string, args map[string]string) run.Step {
		b, err := json.Marshal(args)
		require.NoError(t, err)
		return run.Step{Agent: "assistant", Kind: run.KindToolCall, Extra: &run.Extra{ToolCalls: []run.ToolCall{{ID: id, Name: name, Arguments: string(b)}}}}
	}
	result := func(id, content string) run.Step {
		return run.Step{Agent: "tool", Kind: run.KindToolResult, Content: content, Extra: &run.Extra{ToolCallID: id}}
	}
	withText := func(s run.Step, text string) run.Step { s.Content = text; return s }
	r := &run.Run{Source: "coding.json", Question: "Make load_settings fall back to defaults when no config file is given."}
	r.Steps = []run.Step{
		{Agent: "user", Kind: run.KindUser, Content: r.Question},
		withText(call("c1", "bash", map[string]string{"command": "cat src/app/settings.py"}), "Let me read the module."),
		result("c1", "from app.config import parse_config\n\ndef load_settings(path):\n    return parse_config(open(path).read())\n"),
		withText(call("c2", "str_replace_editor", map[string]string{"command": "create", "path": "src/app/settings.py",
			"file_text": "from app.config import parse_confg\n\nDEFAULTS = {}\n\ndef load_settings(path=None):\n    if path is None:\n        return dict(DEFAULTS)\n    return parse_confg(open(path).read())\n"}), "I'll add the fallback."),
		result("c2", "File created successfully at: src/app/settings.py"),
		withText(call("c3", "bash", map[string]string{"command": "python -m pytest -q"}), "Running the tests."),
		result("c3", "ERROR collecting tests/test_settings.py\nsrc/app/settings.py:1: in <module>\n    from app.config import parse_confg\nE   ImportError: cannot import name 'parse_confg' from 'app.config' (/repo/src/app/config.py)\n1 error in 0.21s\nexit code 2"),
		withText(call("c4", "bash", map[string]string{"command": "grep -n 'def ' src/app/config.py"}), "Let me check app.config."),
		result("c4", "3:def parse_config(text):\n12:def dump_config(cfg):"),
		{Agent: "assistant", Kind: run.KindMessage, Content: "The fallback is implemented in src/app/settings.py."},
	}
	for i := range r.Steps {
		r.Steps[i].Index = i
	}
	f := extract.Run(r)
	g, err := graph.Build(r, f)
	require.NoError(t, err)
	return &Input{Run: r, Features: f, Graph: g}
}

func TestErrorNameOriginOfAnEdit(t *testing.T) {
	in := codingRun(t)
	assert.Equal(t, []int{3}, steps(ErrorNameOrigin.Run(in), true), "the edit that wrote the misspelt name, not the test run")
}

// The rule stays silent where the name was not made up before the step
// that failed.
func TestErrorNameOriginSilent(t *testing.T) {
	terminal := func(exc string) msg {
		return msg{agent: "Terminal", content: "exitcode: 1 (execution failed)\nCode output: Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\n" + exc}
	}
	ok := msg{agent: "Terminal", content: "exitcode: 0 (execution succeeded)\nCode output: 1200"}
	cases := []struct {
		name     string
		question string
		msgs     []msg
	}{
		{"the task names it", "Print active users' emails with client.fetch_users().", []msg{
			{agent: "user", content: "Print active users' emails with client.fetch_users().", kind: run.KindUser},
			{agent: "Planner", content: "Call client.fetch_users(status='active') and print each email."},
			{agent: "Coder", content: "```python\nfor u in client.fetch_users(status='active'):\n    print(u['email'])\n```"},
			terminal("AttributeError: 'Client' object has no attribute 'fetch_users'"),
		}},
		{"the failing step wrote it", "Count the EU rows of data/sales.csv.", []msg{
			{agent: "user", content: "Count the EU rows of data/sales.csv.", kind: run.KindUser},
			{agent: "Coder", content: "```python\nimport pandas as pd\ndf = pd.read_csv('data/sales.csv')\nprint((df['Region_code'] == 'EU').sum())\n```"},
			terminal("KeyError: 'Region_code'"),
			{agent: "Coder", content: "The column Region_code is missing, so the answer is 0."},
		}},
		{"a tool's output wrote it", "Count the EU rows of data/sales.csv.", []msg{
			{agent: "user", content: "Count the EU rows of data/sales.csv.", kind: run.KindUser},
			{agent: "Coder", content: "```python\nimport pandas as pd\nprint(pd.read_csv('data/sales.csv').columns)\n```"},
			{agent: "Terminal", content: "exitcode: 0 (execution succeeded)\nCode output: Index(['Region_code', 'amount'])"},
			{agent: "Analyst", content: "```python\nimport pandas as pd\ndf = pd.read_csv('data/sales.csv', usecols=['amount'])\nprint((df['Region_code'] == 'EU').sum())\n```"},
			terminal("KeyError: 'Region_code'"),
		}},
		{"it ran before without that error", "Find the year of the IPO.", []msg{
			{agent: "user", content: "Find the year of the IPO.", kind: run.KindUser},
			{agent: "Researcher", content: "```python\nfrom functions import perform_web_search\nprint(perform_web_search('IPO year'))\n```"},
			ok,
			{agent: "Researcher", content: "```python\nprint(perform_web_search('IPO year site:nyse.com'))\n```"},
			terminal("NameError: name 'perform_web_search' is not defined"),
		}},
		{"the run recovered", "Count the rows of data/sales.csv.", []msg{
			{agent: "user", content: "Count the rows of data/sales.csv.", kind: run.KindUser},
			{agent: "Planner", content: "Read it with the rowcount_tools package."},
			{agent: "Coder", content: "```python\nimport rowcount_tools\nprint(rowcount_tools.count('data/sales.csv'))\n```"},
			terminal("ModuleNotFoundError: No module named 'rowcount_tools'"),
			{agent: "Coder", content: "```python\nprint(sum(1 for _ in open('data/sales.csv')))\n```"},
			ok,
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := prepare(t, c.question, "", c.msgs...)
			assert.Empty(t, ErrorNameOrigin.Run(in))
			assert.Empty(t, nameOrigins(in))
		})
	}

	t.Run("the system instructions name it", func(t *testing.T) {
		in := designRun(t)
		in.Run.Instructions = "The userservice SDK's Client offers fetch_users(status) and get_user(id)."
		assert.Empty(t, ErrorNameOrigin.Run(in))
	})
}

// BenchmarkNameOrigins reads a long run whose every failure quotes a name
// of its own: following each name back must not read every earlier
// step's code again.
func BenchmarkNameOrigins(b *testing.B) {
	msgs := []msg{{agent: "user", content: "Sum the columns of d.csv.", kind: run.KindUser}}
	for i := range 1500 {
		msgs = append(msgs,
			msg{agent: "Coder", content: fmt.Sprintf("```python\nimport pandas as pd\nprint(pd.read_csv('d.csv')['col_%d'].sum())\n```", i)},
			msg{agent: "Terminal", content: fmt.Sprintf("exitcode: 1 (execution failed)\nCode output: Traceback (most recent call last):\n  File \"x.py\", line 2, in <module>\nKeyError: 'col_%d'", i+1)})
	}
	in := prepare(b, "Sum the columns of d.csv.", "", msgs...)
	b.ResetTimer()
	for range b.N {
		in.releaseSupport()
		nameOrigins(in)
	}
	b.ReportMetric(float64(len(msgs))*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}
