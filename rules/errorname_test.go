package rules

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/run"
)

// teamRun is a software team in the manner of MetaGPT, whose roles post
// their documents as messages and whose tester posts the test run's
// output in its own message (MetaGPT's RunCode result: "## Running
// Command", "## Running Output"). The error is written as pytest prints
// it. design is the architect's message, code the engineer's.
func teamRun(t *testing.T, question, design, code string) *Input {
	return prepare(t, question, "",
		msg{agent: "Human", content: question, kind: run.KindUser},
		msg{agent: "ProductManager", content: "## Requirement Analysis\nAverage each sensor's readings in Fahrenheit; skip rows with an empty reading.\n\n## Requirement Pool\n- P0: average Fahrenheit per sensor_id"},
		msg{agent: "Architect", content: design},
		msg{agent: "Engineer", content: "## Code: report.py\n```python\n" + code + "\n```"},
		msg{agent: "QaEngineer", content: "## Running Command\npython -m pytest test_report.py -q\n## Running Output\nstandard output:\nF\n=================================== FAILURES ===================================\n" +
			"report.py:9: in averages\nE   KeyError: 'temperature_c'\n=========================== short test summary info ============================\nFAILED test_report.py::test_averages\n1 failed in 0.05s"},
		msg{agent: "Engineer", content: "I could not make the tests pass within the allowed rounds."},
	)
}

const (
	csvQuestion = "Write a script that reads readings.csv (columns: sensor_id, timestamp, temp_c) and reports each sensor's average temperature in Fahrenheit."
	badCode     = "import csv\n\ndef averages(path):\n    out = {}\n    with open(path) as fh:\n        for row in csv.DictReader(fh):\n            out.setdefault(row['sensor_id'], []).append(float(row['temperature_c']) * 9 / 5 + 32)\n    return {k: sum(v) / len(v) for k, v in out.items()}"
)

// A tester's account of a failed test run that quotes a name as missing
// is blamed where the name was first written: the design that named the
// wrong field, not the tester who ran the code, nor the engineer who
// followed the design.
func TestLocalFaultFollowsANamedErrorToItsWriter(t *testing.T) {
	in := teamRun(t, csvQuestion,
		"## Implementation approach\nreport.py reads rows with csv.DictReader; each row['temperature_c'] is converted and averaged per sensor_id.",
		badCode)
	fs := LocalFault.Run(in)
	require.Contains(t, steps(fs, true), 2, "the design first wrote the name")
	for _, f := range fs {
		switch f.Step {
		case 2:
			assert.Contains(t, f.Quote, "temperature_c")
			assert.Contains(t, f.Reason, "step 4")
		case 4:
			assert.InDelta(t, 0.25, f.Strength, 1e-9, "the tester's failure is halved for its faulty input")
		}
	}
	assert.Equal(t, []int{2}, steps(TrialFirstFault.Run(in), true), "the trial's first fault is where the name was written")
}

// The name is followed only to a step that made it up; a name the task
// gave leaves the code the failure ran through, the engineer's.
func TestLocalFaultKeepsANamedErrorItCannotTrace(t *testing.T) {
	tests := []struct {
		name, question, design string
		want                   int
	}{
		{"the engineer wrote it first", csvQuestion,
			"## Implementation approach\nreport.py reads rows with csv.DictReader and averages the Celsius column per sensor_id.", 3},
		{"the task gave it", "Write a script that reads readings.csv (columns: sensor_id, timestamp, temperature_c) and reports each sensor's average temperature in Fahrenheit.",
			"## Implementation approach\nreport.py reads rows with csv.DictReader; each row['temperature_c'] is averaged per sensor_id.", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := teamRun(t, tt.question, tt.design, badCode)
			assert.Equal(t, []int{tt.want}, steps(TrialFirstFault.Run(in), true))
			assert.NotContains(t, steps(LocalFault.Run(in), true), 2)
		})
	}
}

// A module the error quotes as missing, which the design listed among its
// files and the task list after it dropped while handing on the others,
// went missing at the task list, whether or not the task or the PRD named
// it first and the list names it as what a file imports from; a task list
// that keeps it, or names it nowhere among fewer of the design's files,
// leaves the design's name.
func TestLocalFaultFollowsAMissingModuleToTheListThatDroppedIt(t *testing.T) {
	const design = "## File list\n- main.py\n- importer.py\n- report.py\n- test_report.py\n\n## Implementation approach\nmain.py calls importer.read_csv and report.monthly_totals."
	const prd = "## Requirement Pool\n- P0: totals per month and category"
	const dropped = "## Task list\n1. report.py\n2. main.py\n3. test_report.py"
	tests := []struct {
		name, task, prd, tasks string
		want                   int
	}{
		{"dropped", "", prd, dropped, 3},
		{"dropped, the task naming it", " Keep the CSV reading in importer.py.", prd, dropped, 3},
		{"dropped, the PRD naming it alone first", "", prd + "\n- P1: importer.py reads the bank's CSV", dropped, 3},
		{"dropped, named as an import", "", prd, "## Logic Analysis\n- main.py: uses read_csv from importer\n\n" + dropped, 3},
		{"kept", "", prd, "## Task list\n1. importer.py\n2. report.py\n3. main.py", 2},
		{"no list", "", prd, "## Shared Knowledge\nAmounts are Decimal.", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := "Build a CLI that imports bank transactions from a CSV file and prints monthly totals per category." + tt.task
			in := prepare(t, q, "",
				msg{agent: "Human", content: q, kind: run.KindUser},
				msg{agent: "ProductManager", content: tt.prd},
				msg{agent: "Architect", content: design},
				msg{agent: "ProjectManager", content: tt.tasks},
				msg{agent: "Engineer", content: "## Code: main.py\n```python\nfrom importer import read_csv\nfrom report import monthly_totals\n```"},
				msg{agent: "QaEngineer", content: "## Running Command\npython -m pytest test_report.py -q\n## Running Output\nImportError while importing test module 'test_report.py'.\nmain.py:1: in <module>\n    from importer import read_csv\nE   ModuleNotFoundError: No module named 'importer'\n## Status:\nFAIL"},
			)
			assert.Contains(t, steps(LocalFault.Run(in), true), tt.want)
			assert.Equal(t, []int{tt.want}, steps(TrialFirstFault.Run(in), true))
		})
	}
}

// When the engineer's code is run and its output quotes the module as
// missing, the code imported what the design laid out: the task list that
// dropped the module's file is blamed, not the code that called it.
func TestLocalFaultFollowsAToolsMissingModuleToTheListThatDroppedIt(t *testing.T) {
	q := "Build a terminal todo app: main.py runs it, ui.py draws the list, store.py saves it to todo.json."
	tests := []struct {
		name, tasks string
		want        int
	}{
		{"dropped", "## Task list\n1. store.py\n2. main.py\n3. test_store.py", 3},
		{"kept", "## Task list\n1. store.py\n2. ui.py\n3. main.py", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, q, "",
				msg{agent: "Human", content: q, kind: run.KindUser},
				msg{agent: "ProductManager", content: "## Requirement Pool\n- P0: add, list and complete todos"},
				msg{agent: "Architect", content: "## File list\n- main.py\n- ui.py\n- store.py\n- test_store.py"},
				msg{agent: "ProjectManager", content: tt.tasks},
				msg{agent: "Engineer", content: "## Code: main.py\n```python\nfrom store import load\nfrom ui import render\n\nrender(load())\n```"},
				msg{agent: "QaEngineer", content: "## Running Command\npython main.py\n## Running Output\nTraceback (most recent call last):\n  File \"main.py\", line 2, in <module>\n    from ui import render\nModuleNotFoundError: No module named 'ui'\n## Status:\nFAIL"},
			)
			require.True(t, in.Features.Steps[5].Has(extract.KindToolResult), "the run is read as the code's output")
			assert.Equal(t, []int{tt.want}, steps(LocalFault.Run(in), true))
			assert.Equal(t, []int{tt.want}, steps(TrialFirstFault.Run(in), true))
		})
	}
}

// A tester that posts a failed assertion ran the engineer's code: pytest
// names the call whose value it rejected, and the step that defined that
// function answers for it. A test the tester wrote and ran itself, whose
// failure runs only through its own code, stays its own.
func TestLocalFaultFollowsAFailedAssertionToTheCodeItRan(t *testing.T) {
	report := "## Running Command\npython -m pytest test_shipping.py -q\n## Running Output\nstandard output:\nF..\n" +
		"    def test_heavy_parcel():\n>       assert shipping_cost(10) == 17.00\nE       assert 25.0 == 17.0\nE        +  where 25.0 = shipping_cost(10)\n\n" +
		"test_shipping.py:12: AssertionError\nFAILED test_shipping.py::test_heavy_parcel\n1 failed, 2 passed in 0.05s"
	question := "Write shipping_cost(weight_kg): a base fee of $5.00 plus $1.50 for every kg above 2 kg."
	code := "## Code: shipping.py\n```python\nBASE_FEE = 5.00\nPER_KG = 2.50\n\n\ndef shipping_cost(weight_kg: float) -> float:\n    return BASE_FEE + max(0, weight_kg - 2) * PER_KG\n```"
	tests := []struct {
		name, coder string
		want        int
	}{
		{"another agent's code", "Engineer", 2},
		{"the tester's own code", "QaEngineer", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, question, "",
				msg{agent: "Human", content: question, kind: run.KindUser},
				msg{agent: "Architect", content: "## Implementation approach\nshipping.py holds BASE_FEE and PER_KG and one function."},
				msg{agent: tt.coder, content: code},
				msg{agent: "QaEngineer", content: "## Code: test_shipping.py\n```python\nfrom shipping import shipping_cost\n\n\ndef test_heavy_parcel():\n    assert shipping_cost(10) == 17.00\n```"},
				msg{agent: "QaEngineer", content: report},
				msg{agent: "Engineer", content: "The tests still fail."},
			)
			assert.Equal(t, []int{tt.want}, steps(TrialFirstFault.Run(in), true))
			if tt.want == 2 {
				assert.Contains(t, steps(LocalFault.Run(in), true), 2)
			}
		})
	}
}

// A value of the answer first printed by a failed test run was computed
// by the code the run ran: data_flow_origin blames the step that defined
// it, as it blames the caller of a tool whose output gave a value.
func TestDataFlowOriginOfAValueAFailedRunPrinted(t *testing.T) {
	question := "Write shipping_cost(weight_kg): a base fee of $5.00 plus $1.50 for every kg above 2 kg. Report the cost of shipping a 10 kg parcel."
	in := prepare(t, question, "",
		msg{agent: "Human", content: question, kind: run.KindUser},
		msg{agent: "Architect", content: "## Implementation approach\nshipping.py holds BASE_FEE and PER_KG and one function."},
		msg{agent: "Engineer", content: "## Code: shipping.py\n```python\nBASE_FEE = 5.00\nPER_KG = 2.50\n\n\ndef shipping_cost(weight_kg: float) -> float:\n    return BASE_FEE + max(0, weight_kg - 2) * PER_KG\n```"},
		msg{agent: "QaEngineer", content: "## Code: test_shipping.py\n```python\nfrom shipping import shipping_cost\n\n\ndef test_heavy_parcel():\n    assert shipping_cost(10) == 17.00\n```"},
		msg{agent: "QaEngineer", content: "## Running Output\n>       assert shipping_cost(10) == 17.00\nE       assert 25.0 == 17.0\nE        +  where 25.0 = shipping_cost(10)\n1 failed in 0.05s"},
		msg{agent: "Engineer", content: "The expectation in the test is off; shipping a 10 kg parcel costs $25.0."},
	)
	fs := DataFlowOrigin.Run(in)
	require.NotEmpty(t, fs)
	assert.Equal(t, 2, fs[0].Step, "the code that computed the value")
}

// A test that asserts what another agent's function returns took the
// value from the code: when the answer's value is first written there,
// data_flow_origin blames the code. A test that expects another value
// than the answer's states none of it.
func TestDataFlowOriginOfAValueATestAsserts(t *testing.T) {
	question := "Write shipping_cost(weight_kg): a base fee of $5.00 plus $1.50 for every kg above 2 kg. Report the cost of shipping a 10 kg parcel."
	team := func(expected string) *Input {
		return prepare(t, question, "",
			msg{agent: "Human", content: question, kind: run.KindUser},
			msg{agent: "Engineer", content: "## Code: shipping.py\n```python\nBASE_FEE = 5.00\nPER_KG = 2.50\n\n\ndef shipping_cost(weight_kg: float) -> float:\n    return BASE_FEE + max(0, weight_kg - 2) * PER_KG\n```"},
			msg{agent: "QaEngineer", content: "## Code: test_shipping.py\n```python\nfrom shipping import shipping_cost\n\n\ndef test_heavy_parcel():\n    assert shipping_cost(10) == " + expected + "\n```"},
			msg{agent: "QaEngineer", content: "## Running Output\n.\n1 passed in 0.01s"},
			msg{agent: "Engineer", content: "All tests pass. Shipping a 10 kg parcel costs $25.00."},
		)
	}
	fs := DataFlowOrigin.Run(team("25.00"))
	require.NotEmpty(t, fs)
	assert.Equal(t, 1, fs[0].Step, "the test asserted what the code returns")
	for _, f := range DataFlowOrigin.Run(team("26.00")) {
		assert.NotEqual(t, 2, f.Step, "a test expecting another value states none of the answer")
	}
}

// A test whose check of the code then fails expected a value the code did
// not return: when the engineer rewrites the code to match it and the
// answer carries that value, the value is the test's own, and
// data_flow_origin blames the test, not the code it checked.
func TestDataFlowOriginOfAValueAFailedTestExpected(t *testing.T) {
	question := "Write shipping_cost(weight_kg): a base fee of $5.00 plus $1.50 for every kg above 2 kg. Report the cost of shipping a 10 kg parcel."
	code := func(perKg string) string {
		return "## Code: shipping.py\n```python\nBASE_FEE = 5.00\nPER_KG = " + perKg + "\n\n\ndef shipping_cost(weight_kg: float) -> float:\n    return BASE_FEE + max(0, weight_kg - 2) * PER_KG\n```"
	}
	in := prepare(t, question, "",
		msg{agent: "Human", content: question, kind: run.KindUser},
		msg{agent: "Engineer", content: code("1.50")},
		msg{agent: "QaEngineer", content: "## Code: test_shipping.py\n```python\nfrom shipping import shipping_cost\n\n\ndef test_heavy_parcel():\n    assert shipping_cost(10) == 25.00\n```"},
		msg{agent: "QaEngineer", content: "## Running Output\n>       assert shipping_cost(10) == 25.00\nE       assert 17.0 == 25.0\nE        +  where 17.0 = shipping_cost(10)\n1 failed in 0.05s"},
		msg{agent: "Engineer", content: "The test expects 25.00, so the code is changed to match it.\n" + code("2.50")},
		msg{agent: "QaEngineer", content: "## Running Output\n.\n1 passed in 0.01s"},
		msg{agent: "Engineer", content: "All tests pass. Shipping a 10 kg parcel costs $25.00."},
	)
	fs := DataFlowOrigin.Run(in)
	require.NotEmpty(t, fs)
	assert.Equal(t, 2, fs[0].Step, "the test that expected the value")
}

// Code that computed the answer's value with a figure another agent first
// wrote, which the task did not give, was handed it: data_flow_origin goes
// on to that step (a requirement's wrong rate, carried into the code). A
// fraction is the percentage the task wrote; code that writes a figure of
// its own stays the suspect.
func TestDataFlowOriginOfAFigureHandedToCode(t *testing.T) {
	question := "Write shipping_cost(weight_kg): a base fee of $5.00 plus $1.50 for every kg above 2 kg, with 8% tax. Report the cost of shipping a 10 kg parcel."
	team := func(prd, constants string) *Input {
		return prepare(t, question, "",
			msg{agent: "Human", content: question, kind: run.KindUser},
			msg{agent: "ProductManager", content: "## Requirement Analysis\n" + prd},
			msg{agent: "Engineer", content: "## Code: shipping.py\n```python\n" + constants + "\n\n\ndef shipping_cost(weight_kg: float) -> float:\n    return round((BASE_FEE + max(0, weight_kg - 2) * PER_KG) * (1 + TAX), 2)\n```"},
			msg{agent: "QaEngineer", content: "## Code: test_shipping.py\n```python\nfrom shipping import shipping_cost\n\n\ndef test_heavy_parcel():\n    assert shipping_cost(10) == 27.0\n```"},
			msg{agent: "QaEngineer", content: "## Running Output\n.\n1 passed in 0.01s"},
			msg{agent: "Engineer", content: "All tests pass. Shipping a 10 kg parcel costs $27.0."},
		)
	}
	tests := []struct {
		name, prd, constants string
		want                 int
	}{
		{"a rate the requirement changed", "A base fee of $5.00 plus $2.50 per kg above 2 kg, and 8% tax.", "BASE_FEE = 5.00\nPER_KG = 2.50\nTAX = 0.08", 1},
		{"the code's own rate", "A base fee of $5.00 plus $1.50 per kg above 2 kg, and 8% tax.", "BASE_FEE = 5.00\nPER_KG = 2.50\nTAX = 0.08", 2},
		{"the task's percentage as a fraction", "A base fee of $5.00 plus $1.50 per kg above 2 kg, and 8% tax.", "BASE_FEE = 5.00\nPER_KG = 1.50\nTAX = 0.08", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := DataFlowOrigin.Run(team(tt.prd, tt.constants))
			require.NotEmpty(t, fs)
			assert.Equal(t, tt.want, fs[0].Step)
		})
	}
}

// A step that restates the task (Who&When's first message carries it)
// reports no failure in the task's own words: a request that says what
// to reject describes behaviour. Its own words still count.
func TestLocalFaultNotInTheTasksWords(t *testing.T) {
	question := "Add a rate limiter to our API: each client may make 100 requests per minute; requests over the limit are rejected with HTTP 429."
	team := func(first string) *Input {
		return prepare(t, question, "",
			msg{agent: "Human", content: first},
			msg{agent: "Engineer", content: "## Code: limiter.py\n```python\nMAX_REQUESTS = 100\n```"},
			msg{agent: "Engineer", content: "Done."},
		)
	}
	assert.NotContains(t, steps(LocalFault.Run(team(question)), true), 0, "the task's words")
	assert.Contains(t, steps(LocalFault.Run(team(question+"\nI could not open the design document, so I am guessing the window.")), true), 0, "its own words")
}

// With the correct answer known, a failed run whose report prints the
// code's wrong value puts no answer forward of its own: the code gave it,
// and the code computed with what it was handed.
func TestGroundTruthContradictionOfAValueAFailedRunPrinted(t *testing.T) {
	question := "Write shipping_cost(weight_kg): a base fee of $5.00 plus $1.50 for every kg above 2 kg. Report the cost of shipping a 10 kg parcel."
	team := func(prd, perKg string) *Input {
		return prepare(t, question, "17",
			msg{agent: "Human", content: question, kind: run.KindUser},
			msg{agent: "ProductManager", content: "## Requirement Analysis\n" + prd},
			msg{agent: "Engineer", content: "## Code: shipping.py\n```python\nBASE_FEE = 5.00\nPER_KG = " + perKg + "\n\n\ndef shipping_cost(weight_kg: float) -> float:\n    return BASE_FEE + max(0, weight_kg - 2) * PER_KG\n```"},
			msg{agent: "QaEngineer", content: "## Code: test_shipping.py\n```python\nfrom shipping import shipping_cost\n\n\ndef test_heavy_parcel():\n    assert shipping_cost(10) == 17.00\n```"},
			msg{agent: "QaEngineer", content: "## Running Output\n>       assert shipping_cost(10) == 17.00\nE       assert 25.0 == 17.0\nE        +  where 25.0 = shipping_cost(10)\n1 failed in 0.05s"},
			msg{agent: "Engineer", content: "Done. Shipping a 10 kg parcel costs $25.00."},
		)
	}
	tests := []struct {
		name, prd, perKg string
		want             int
	}{
		{"the requirement handed the figure", "A base fee of $5.00 plus $2.50 per kg above 2 kg.", "2.50", 1},
		{"the code's own figure", "A base fee of $5.00 plus $1.50 per kg above 2 kg.", "2.50", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := GroundTruthContradiction.Run(team(tt.prd, tt.perKg))
			require.Len(t, fs, 1)
			assert.Equal(t, tt.want, fs[0].Step)
		})
	}
}

// longTeamRun is a team run of n steps in which a design first writes the
// field a tester's error later quotes as missing, between chat that never
// names it: the shape of a long session.
func longTeamRun(tb testing.TB, n int) *run.Run {
	r := &run.Run{Source: "long.json", Question: csvQuestion}
	add := func(agent, content string) {
		r.Steps = append(r.Steps, run.Step{Index: len(r.Steps), Agent: agent, Kind: run.KindMessage, Content: content, Extra: &run.Extra{}})
	}
	add("Architect", "## Implementation approach\nreport.py reads rows with csv.DictReader; each row['temperature_c'] is converted and averaged per sensor_id.")
	for len(r.Steps) < n-1 {
		add("Engineer", fmt.Sprintf("Revision %d of report.py keeps the per-sensor averages.", len(r.Steps)))
	}
	add("QaEngineer", "## Running Output\nreport.py:9: in averages\nE   KeyError: 'temperature_c'\n1 failed in 0.05s")
	return r
}

// In a long run the writer of a name an error quotes is looked for among
// the steps that hold the name, not in every earlier step: the answer is
// the same, and asking it of every failing step of a session of
// thousands of steps costs what reading the session once does.
func TestNamedCauseInALongRun(t *testing.T) {
	r := longTeamRun(t, 3*scanned)
	f := extract.Run(r)
	g, err := graph.Build(r, f)
	require.NoError(t, err)
	in := &Input{Run: r, Features: f, Graph: g}
	o, name := namedCause(in, len(r.Steps)-1)
	assert.Equal(t, 0, o, "the design first wrote the name")
	assert.Equal(t, "temperature_c", name)
	assert.Equal(t, []int{0}, slices.Collect(in.supportIndex().mayHold("temperature_c", len(r.Steps)-1)), "only the step that holds it is read")
	assert.Len(t, slices.Collect(in.supportIndex().mayHold("temperature_c", scanned)), scanned, "a short run's steps are each read")
}

func BenchmarkNamedCauseInALongRun(b *testing.B) {
	r := longTeamRun(b, 20000)
	f := extract.Run(r)
	g, err := graph.Build(r, f)
	require.NoError(b, err)
	for b.Loop() {
		in := &Input{Run: r, Features: f, Graph: g}
		for j := range r.Steps {
			namedCause(in, j)
		}
	}
}

// A definition shown word for word as an earlier step wrote it is that
// step's: a reviewer quoting the engineer's code wrote none of it, and an
// agent showing a function a tool read from the repository wrote none of
// it either. Code that changes the function is a definition of its own.
func TestDefinedByFollowsACopiedDefinition(t *testing.T) {
	question := "Fix shipping_cost(weight_kg): a base fee of $5.00 plus $1.50 for every kg above 2 kg."
	def := "def shipping_cost(weight_kg):\n    return BASE_FEE + max(0, weight_kg - 2) * PER_KG\n"
	report := msg{agent: "Tester", content: "The tests fail:\n```\n>       assert shipping_cost(10) == 17.0\nE       assert 25.0 == 17.0\nE        +  where 25.0 = shipping_cost(10)\n```"}
	tests := []struct {
		name  string
		first msg
		shown string
		want  int
	}{
		{"a reviewer quotes the engineer's code", msg{agent: "Engineer", content: "```python\nPER_KG = 2.50\n\n\n" + def + "```"},
			"Looks good to me:\n```python\n  " + def + "```", 1},
		{"an explorer shows what a tool read", msg{agent: "tool", content: "PER_KG = 2.50\n\n\n" + def, kind: run.KindToolResult},
			"shipping_cost is in shipping.py:\n```python\n" + def + "```", -1},
		{"an explorer shows what a file reader listed", msg{agent: "tool", content: "     1→PER_KG = 2.50\n     2→\n     3→def shipping_cost(weight_kg):\n     4→    return BASE_FEE + max(0, weight_kg - 2) * PER_KG\n", kind: run.KindToolResult},
			"shipping_cost is in shipping.py:\n```python\n" + def + "```", -1},
		{"an agent runs the code the task gave", msg{agent: "Human", content: "Fix this:\n```python\nPER_KG = 2.50\n\n\n" + def + "```", kind: run.KindUser},
			"Running it as given:\n```python\n" + def + "```", 2},
		{"a reviewer rewrites the function", msg{agent: "Engineer", content: "```python\nPER_KG = 2.50\n\n\n" + def + "```"},
			"Use this instead:\n```python\ndef shipping_cost(weight_kg):\n    return BASE_FEE + max(0, weight_kg - 1) * PER_KG\n```", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, question, "",
				msg{agent: "Human", content: question, kind: run.KindUser},
				tt.first,
				msg{agent: "Reviewer", content: tt.shown},
				report,
			)
			assert.Equal(t, tt.want, definedBy(in, "shipping_cost", 3))
		})
	}
}

// BenchmarkDefinedByInALongRun is a team that rewrites a function and
// fails its test, round after round, for 20,000 steps: every failure's
// definer is followed to the first step that wrote its definition.
func BenchmarkDefinedByInALongRun(b *testing.B) {
	r := &run.Run{Source: "long.json", Question: "Write total(rows)."}
	for i := 0; len(r.Steps) < 20000; i++ {
		r.Steps = append(r.Steps,
			run.Step{Index: len(r.Steps), Agent: "Engineer", Kind: run.KindMessage, Content: fmt.Sprintf("```python\ndef total(rows):\n    return sum(r * %d for r in rows)\n```", i), Extra: &run.Extra{}},
			run.Step{Index: len(r.Steps) + 1, Agent: "Tester", Kind: run.KindMessage, Content: fmt.Sprintf("```\nE       assert %d == 3\nE        +  where %d = total([1, 2])\n1 failed\n```", 3*i, 3*i), Extra: &run.Extra{}})
	}
	f := extract.Run(r)
	g, err := graph.Build(r, f)
	require.NoError(b, err)
	for b.Loop() {
		in := &Input{Run: r, Features: f, Graph: g}
		for j := 1; j < len(r.Steps); j += 2 {
			definedBy(in, "total", j)
		}
	}
}

// A test writes the value it asserts as a bare number; the answer that
// carries it may name its unit ("12480 seconds"). The asserted value is
// still the answer's, and the code that returned it is where it came
// from.
func TestDataFlowOriginOfAValueATestAssertsWithoutItsUnit(t *testing.T) {
	question := "A batch job runs for 3.5 hours after a setup of 120 seconds. How many seconds does it take in total?"
	team := func(answer string) *Input {
		return prepare(t, question, "",
			msg{agent: "Human", content: question, kind: run.KindUser},
			msg{agent: "Engineer", content: "```python\ndef total_seconds(hours, setup):\n    return hours * 3600 - setup\n```"},
			msg{agent: "Tester", content: "```python\nfrom job import total_seconds\n\n\ndef test_job():\n    assert total_seconds(3.5, 120) == 12480\n```"},
			msg{agent: "Tester", content: "## Running Output\n.\n1 passed in 0.01s"},
			msg{agent: "Engineer", content: "All tests pass. " + answer},
		)
	}
	fs := DataFlowOrigin.Run(team("The job takes 12480 seconds in total."))
	require.NotEmpty(t, fs)
	assert.Equal(t, 1, fs[0].Step, "the code returned the value the test asserts")
}

// A wrong answer that states what a function returns was given by the
// function's code; when a design spelt out the logic the code followed
// word for word, the design is where it went wrong.
func TestGroundTruthContradictionOfAFunctionsResult(t *testing.T) {
	q := "Write is_free_shipping(total): orders of 50 euros or more ship free. Report what is_free_shipping(50) returns."
	tests := []struct {
		name, design string
		want         int
	}{
		{"the engineer's own logic", "## Implementation approach\nshipping.py holds FREE_FROM = 50; is_free_shipping compares the total with it.", 3},
		{"the design's logic", "## Implementation approach\nshipping.py holds FREE_FROM = 50; is_free_shipping returns total > FREE_FROM.", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, q, "True",
				msg{agent: "Human", content: q, kind: run.KindUser},
				msg{agent: "ProductManager", content: "## Requirement Pool\n- P0: orders of 50 euros or more ship free"},
				msg{agent: "Architect", content: tt.design},
				msg{agent: "Engineer", content: "## Code: shipping.py\n```python\nFREE_FROM = 50\n\n\ndef is_free_shipping(total) -> bool:\n    return total > FREE_FROM\n```"},
				msg{agent: "QaEngineer", content: "## Running Command\npython -m pytest test_shipping.py -q\n## Running Output\n..\n2 passed in 0.01s\n## Status:\nPASS"},
				msg{agent: "Engineer", content: "## Summary\nshipping.py is done and tested. is_free_shipping(50) returns False."},
			)
			assert.Equal(t, []int{tt.want}, steps(GroundTruthContradiction.Run(in), true))
		})
	}
}

// A constant's value that a tool's output gave first (the code a read of
// the repository showed) was not given by the agent that then restated
// it; one the agent wrote otherwise than the tool showed was. Shape: a
// coding agent's OpenAI chat with tool calls.
func TestDataFlowOriginOfAConstantsValueATookRead(t *testing.T) {
	const task = "Uploads give up too early: our backup client must retry a failed upload 5 times before giving up. Fix uploader.py and report MAX_RETRIES."
	for _, tt := range []struct {
		name, file string
		want       []int
	}{
		{"the repository's value", "MAX_RETRIES = 3", nil},
		{"a value of the agent's own", "MAX_RETRIES = 4", []int{3}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, task, "5",
				msg{agent: "user", content: task, kind: run.KindUser},
				msg{agent: "assistant", content: `read_file({"path": "uploader.py"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: tt.file + "\n\n\ndef upload_with_retry(send, data):\n    for attempt in range(MAX_RETRIES - 1):\n        pass\n", kind: run.KindToolResult},
				msg{agent: "assistant", content: "The file sets MAX_RETRIES = 3, and the loop runs one attempt short. I'll fix the loop."},
				msg{agent: "assistant", content: "Fixed the off-by-one in upload_with_retry; tests pass. MAX_RETRIES is 3."},
			)
			assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true))
		})
	}
}

// An answer that restates the task's data and names one of its values
// was worked out by the code that implements the function the design
// laid out, or by the design when it spelt out the code's logic; code of
// the answering agent's own making, which no one laid out, is not traced.
func TestDataFlowOriginOfAnAnswerFromTheTasksData(t *testing.T) {
	const q = "Add a leaderboard that lists players by finishing time, fastest (lowest time) first. Report which player comes first for times ana=31.2, ben=28.9, cy=35.0."
	tests := []struct {
		name, design, fn string
		want             []int
	}{
		{"the engineer's logic", "board.py: ranking(times) sorts the players by time.", "ranking", []int{2}},
		{"the design's logic", "board.py: ranking(times) returns sorted(times.items(), key=lambda kv: kv[1], reverse=True).", "ranking", []int{1}},
		{"code no one laid out", "board.py sorts the players by time.", "order", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, q, "",
				msg{agent: "Human", content: q, kind: run.KindUser},
				msg{agent: "Architect", content: "## Implementation approach\n" + tt.design},
				msg{agent: "Engineer", content: "## Code: board.py\n```python\ndef " + tt.fn + "(times):\n    return sorted(times.items(), key=lambda kv: kv[1], reverse=True)\n```"},
				msg{agent: "Engineer", content: "## Summary\nboard.py is done. For ana=31.2, ben=28.9, cy=35.0 the first player is cy."},
			)
			assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true))
		})
	}
}

// A wrong answer that states a function's result, given by code that
// writes no condition of its own under a plan that left out what the
// task requires, is the plan's; code that writes its own condition chose
// it.
func TestGroundTruthContradictionOfCodeUnderADroppedRequirement(t *testing.T) {
	const q = "Write count_active(users) for our admin page: it must exclude users whose status is \"disabled\". How many users does it count in [{\"status\": \"active\"}, {\"status\": \"disabled\"}, {\"status\": \"active\"}]?"
	tests := []struct {
		name, body string
		want       int
	}{
		{"no condition", "return len(users)", 1},
		{"its own condition", "return len([u for u in users if u['status'] == 'active' or u['status'] == 'disabled'])", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, q, "2",
				msg{agent: "User", content: q, kind: run.KindUser},
				msg{agent: "ProductManager", content: "## Requirement Pool\n- P0: count_active(users) returns the number of users in the list\n- P1: an empty list gives 0"},
				msg{agent: "Architect", content: "## Implementation approach\nusers.py with count_active(users)."},
				msg{agent: "Engineer", content: "## Code: users.py\n```python\ndef count_active(users):\n    " + tt.body + "\n```"},
				msg{agent: "Engineer", content: "Done. For the example list count_active returns 3."},
			)
			assert.Equal(t, []int{tt.want}, steps(GroundTruthContradiction.Run(in), true))
		})
	}
}

// With the correct answer, a constant given the task's number in another
// unit (10 minutes as CACHE_TTL_SECONDS = 10) is traced to the step that
// first gave it that value; without it, the task's number traces nothing.
func TestGroundTruthContradictionOfAConstantInAnotherUnit(t *testing.T) {
	const q = "Cache the exchange rates: entries expire after 10 minutes. Report CACHE_TTL_SECONDS."
	for _, gt := range []string{"600", ""} {
		in := prepare(t, q, gt,
			msg{agent: "Human", content: q, kind: run.KindUser},
			msg{agent: "ProductManager", content: "## Requirement Pool\n- P0: expire cached rates after 10 minutes"},
			msg{agent: "Architect", content: "## Implementation approach\nrates_cache.py keeps CACHE_TTL_SECONDS = 10."},
			msg{agent: "Engineer", content: "## Code: rates_cache.py\n```python\nCACHE_TTL_SECONDS = 10\n```"},
			msg{agent: "Engineer", content: "## Summary\nrates_cache.py is done. CACHE_TTL_SECONDS is 10."},
		)
		if gt != "" {
			assert.Equal(t, []int{2}, steps(GroundTruthContradiction.Run(in), true))
		} else {
			assert.Empty(t, steps(DataFlowOrigin.Run(in), true))
		}
	}
}

// An answer that states what a named constant holds is traced to the
// step that first gave the constant that value, or to a step of another
// agent before it that counted what the task counts with it; a value the
// task gives traces nothing.
func TestDataFlowOriginOfAConstantsValue(t *testing.T) {
	const task = "Write fetch_with_retry(get, url) for our sync client: retry a failed request up to 5 times, then raise. Report MAX_RETRIES."
	tests := []struct {
		name, task, prd, design, review string
		want                            []int
	}{
		{"a design's constant", task, "retried up to 5 times", "MAX_RETRIES = 3", "LGTM", []int{2}},
		{"a PRD's count the design coded", task, "retried up to 3 times", "MAX_RETRIES = 3", "LGTM", []int{1}},
		{"a review's demand", task, "retried up to 5 times", "MAX_RETRIES = 5", "The limit is too high: MAX_RETRIES should be 3.\n\n## Code Review Result\nLBTM", []int{4}},
		{"the task's value", "Write fetch_with_retry(get, url): retry a failed request up to 3 times. Report MAX_RETRIES.", "retried up to 3 times", "MAX_RETRIES = 3", "LGTM", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, tt.task, "",
				msg{agent: "Human", content: tt.task, kind: run.KindUser},
				msg{agent: "ProductManager", content: "## Requirement Analysis\nA failed request is " + tt.prd + "; then the client raises."},
				msg{agent: "Architect", content: "## Implementation approach\nsync_client.py with " + tt.design + " and fetch_with_retry(get, url)."},
				msg{agent: "Engineer", content: "## Code: sync_client.py\n```python\n" + tt.design + "\n```"},
				msg{agent: "Engineer", content: "## Code Review: sync_client.py\n" + tt.review},
				msg{agent: "Engineer", content: "## Code: sync_client.py\n```python\nMAX_RETRIES = 3\n```"},
				msg{agent: "Engineer", content: "## Summary\nsync_client.py is done and tested. MAX_RETRIES is 3."},
			)
			assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true))
		})
	}
}

// A wrong answer given by code rewritten with a figure a review asked for
// is the review's; a rewrite that changes only a constant beside the
// function is the code that ran, not the first version it keeps.
func TestDataFlowOriginOfARewriteAReviewAskedFor(t *testing.T) {
	q := "Write vat_amount(net) for our invoices: VAT is 19 percent of the net amount. Report vat_amount(100)."
	code := func(rate string) string {
		return "## Code: invoice.py\n```python\nVAT_RATE = " + rate + "\n\n\ndef vat_amount(net):\n    return round(net * VAT_RATE, 2)\n```"
	}
	tests := []struct {
		name, review string
		want         int
	}{
		{"asked for", "## Code Review: invoice.py\nThe rate is wrong. Use 0.16 not 0.19.\n\n## Code Review Result\nLBTM", 3},
		{"changed unasked", "## Code Review: invoice.py\nName the constant clearly.\n\n## Code Review Result\nLBTM", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, q, "19",
				msg{agent: "Human", content: q, kind: run.KindUser},
				msg{agent: "Architect", content: "## Implementation approach\ninvoice.py holds VAT_RATE = 0.19."},
				msg{agent: "Engineer", content: code("0.19")},
				msg{agent: "Engineer", content: tt.review},
				msg{agent: "Engineer", content: code("0.16")},
				msg{agent: "Engineer", content: "## Summary\ninvoice.py is done after review. vat_amount(100) returns 16.0."},
			)
			assert.Equal(t, []int{tt.want}, steps(DataFlowOrigin.Run(in), true))
		})
	}
}

// A rewrite that makes a function return what a test asserted, against
// the task, did what the test asked: the test is where the value came
// from, though the task itself states it.
func TestGroundTruthContradictionOfARewriteATestAskedFor(t *testing.T) {
	q := "Parcels up to 2 kg ship for 4.99 euros, heavier ones for 7.99 euros. Write shipping_cost(weight_kg) and report shipping_cost(2)."
	in := prepare(t, q, "4.99",
		msg{agent: "Human", content: q, kind: run.KindUser},
		msg{agent: "Engineer", content: "## Code: shipping.py\n```python\ndef shipping_cost(weight_kg):\n    return 4.99 if weight_kg <= 2 else 7.99\n```"},
		msg{agent: "QaEngineer", content: "## Code: test_shipping.py\n```python\nfrom shipping import shipping_cost\n\n\ndef test_two_kg():\n    assert shipping_cost(2) == 7.99\n```"},
		msg{agent: "QaEngineer", content: "## Running Output\nE       assert 4.99 == 7.99\n1 failed in 0.02s\n## Status:\nFAIL"},
		msg{agent: "Engineer", content: "## Code: shipping.py\n```python\ndef shipping_cost(weight_kg):\n    return 4.99 if weight_kg < 2 else 7.99\n```"},
		msg{agent: "Engineer", content: "## Summary\nshipping.py passes its tests. shipping_cost(2) returns 7.99."},
	)
	assert.Equal(t, []int{2}, steps(GroundTruthContradiction.Run(in), true))
}

// Code that fails its test because it computes with a figure another
// agent stated in place of the task's is that agent's fault: the test
// run's failure leads past the code to the figure it was handed.
func TestLocalFaultFollowsAFailedRunToAPlantedFigure(t *testing.T) {
	q := "Add pagination: 20 products per page. Write page_count(total_items). How many pages does a catalogue of 95 products have?"
	tests := []struct {
		name, prd string
		want      int
	}{
		{"the figure planted", "## Requirement Analysis\nEach page holds 25 products.", 1},
		{"the task's figure kept", "## Requirement Analysis\nEach page holds 20 products.", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			size := "25"
			if tt.want == 2 {
				size = "30" // the engineer's own slip
			}
			in := prepare(t, q, "",
				msg{agent: "Human", content: q, kind: run.KindUser},
				msg{agent: "ProductManager", content: tt.prd},
				msg{agent: "Engineer", content: "## Code: pagination.py\n```python\nPAGE_SIZE = " + size + "\n\n\ndef page_count(total_items: int) -> int:\n    return -(-total_items // PAGE_SIZE)\n```"},
				msg{agent: "QaEngineer", content: "## Running Output\nF\n    def test_catalogue():\n>       assert page_count(95) == 5\nE       assert 4 == 5\nE        +  where 4 = page_count(95)\n\ntest_pagination.py:12: AssertionError\n1 failed in 0.02s"},
			)
			assert.Contains(t, steps(LocalFault.Run(in), true), tt.want)
		})
	}
}

// The figures a design writes that the task gave with their unit ($5 as
// 5.0), or that are nothing (0.0), hand the code no figure of the
// design's: a rewrite a tester's wrong expectation asked for is the
// tester's.
func TestGroundTruthContradictionOfARewriteAWrongExpectationAskedFor(t *testing.T) {
	q := "Write shipping_fee(total) for our store: orders of $75 or more ship free, others pay $5. Report shipping_fee(75)."
	code := func(op string) string {
		return "## Code: shipping.py\n```python\nFREE_FROM = 75\nFEE = 5.0\n\n\ndef shipping_fee(total: float) -> float:\n    return 0.0 if total " + op + " FREE_FROM else FEE\n```"
	}
	in := prepare(t, q, "0.0",
		msg{agent: "Human", content: q, kind: run.KindUser},
		msg{agent: "Architect", content: "## Implementation approach\nshipping.py holds FREE_FROM = 75 and FEE = 5.0; shipping_fee(total) returns 0.0 from FREE_FROM on."},
		msg{agent: "Engineer", content: code(">=")},
		msg{agent: "QaEngineer", content: "## Code: test_shipping.py\n```python\nfrom shipping import shipping_fee\n\n\ndef test_threshold():\n    assert shipping_fee(75) == 5.0\n```"},
		msg{agent: "QaEngineer", content: "## Running Command\npython -m pytest test_shipping.py -q\n## Running Output\nF\nE       assert 0.0 == 5.0\n1 failed in 0.03s\n## Status:\nFAIL"},
		msg{agent: "Engineer", content: code(">")},
		msg{agent: "Engineer", content: "## Summary\nshipping.py is done and all tests pass. shipping_fee(75) returns 5.0."},
	)
	assert.Equal(t, []int{3}, steps(GroundTruthContradiction.Run(in), true))
}

// A rewrite's new constant, however small, or its new comparison, which a
// review between the two versions wrote as what it should be, was the
// review's demand; a rewrite no step asked for is the code's own.
func TestGroundTruthContradictionOfARewriteAReviewDemanded(t *testing.T) {
	tests := []struct {
		name, q, gt, first, second, review, answer string
		want                                       int
	}{
		{"a constant", "Write is_valid(password): a password is valid with at least 8 characters. Report is_valid('abcdefg').", "False",
			"MIN_LENGTH = 8\n\n\ndef is_valid(password):\n    return len(password) >= MIN_LENGTH", "MIN_LENGTH = 6\n\n\ndef is_valid(password):\n    return len(password) >= MIN_LENGTH",
			"MIN_LENGTH = 8 annoys users on phones; set MIN_LENGTH = 6.", "is_valid('abcdefg') returns True.", 2},
		{"a comparison", "Write fare(age): riders aged 65 or older pay 1.20, others 2.50. Report fare(65).", "1.2",
			"def fare(age):\n    return 1.20 if age >= SENIOR_AGE else 2.50", "def fare(age):\n    return 1.20 if age > SENIOR_AGE else 2.50",
			"A rider of exactly 65 is not a senior: use age > SENIOR_AGE.", "fare(65) returns 2.5.", 2},
		// What a review names only to reject it ("not age > SENIOR_AGE",
		// "do not set MIN_LENGTH = 6") it did not ask for.
		{"a comparison the review rejects", "Write fare(age): riders aged 65 or older pay 1.20, others 2.50. Report fare(65).", "1.2",
			"def fare(age):\n    return 1.20 if age == SENIOR_AGE else 2.50", "def fare(age):\n    return 1.20 if age > SENIOR_AGE else 2.50",
			"Only a rider of exactly 65 gets the senior fare. Use age >= SENIOR_AGE, not age > SENIOR_AGE.", "fare(65) returns 2.5.", 3},
		{"a constant the review rejects", "Write is_valid(password): a password is valid with at least 8 characters. Report is_valid('abcdefg').", "False",
			"MIN_LENGTH = 8\n\n\ndef is_valid(password):\n    return len(password) > MIN_LENGTH", "MIN_LENGTH = 6\n\n\ndef is_valid(password):\n    return len(password) >= MIN_LENGTH",
			"Use >= so that 8 characters pass; keep MIN_LENGTH = 8 rather than MIN_LENGTH = 6.", "is_valid('abcdefg') returns True.", 3},
		{"unasked", "Write fare(age): riders aged 65 or older pay 1.20, others 2.50. Report fare(65).", "1.2",
			"def fare(age):\n    return 1.20 if age >= SENIOR_AGE else 2.50", "def fare(age):\n    return 1.20 if age > SENIOR_AGE else 2.50",
			"Name the constant clearly.", "fare(65) returns 2.5.", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, tt.q, tt.gt,
				msg{agent: "Human", content: tt.q, kind: run.KindUser},
				msg{agent: "Programmer", content: "main.py\n```python\n" + tt.first + "\n```"},
				msg{agent: "Code Reviewer", content: "<Comment> " + tt.review},
				msg{agent: "Programmer", content: "main.py\n```python\n" + tt.second + "\n```"},
				msg{agent: "Programmer", content: "# Manual\n\n" + tt.answer},
			)
			assert.Equal(t, []int{tt.want}, steps(GroundTruthContradiction.Run(in), true))
		})
	}
}

// A failure that the code it ran through was rewritten to pass was
// repaired where it arose: local_fault and trial_first_fault leave the
// code and the report alone. A rewrite that gives up the task's figure
// for the one the failed test expected was bent to the test, which
// asked for a figure the task never gave: local_fault blames the test.
// A team that edits the failing test instead leaves the code, and the
// failure, as they were.
func TestLocalFaultOfARepairedFailure(t *testing.T) {
	question := "Write shipping_cost(weight_kg): a base fee of $5.00 plus $1.50 for every kg above 2 kg."
	code := func(perKg string) string {
		return "## Code: shipping.py\n```python\nBASE_FEE = 5.00\nPER_KG = " + perKg + "\n\n\ndef shipping_cost(weight_kg: float) -> float:\n    return BASE_FEE + max(0, weight_kg - 2) * PER_KG\n```"
	}
	test := func(expected string) string {
		return "## Code: test_shipping.py\n```python\nfrom shipping import shipping_cost\n\n\ndef test_heavy_parcel():\n    assert shipping_cost(10) == " + expected + "\n```"
	}
	failed := func(got, expected string) string {
		return "## Running Command\npython -m pytest test_shipping.py -q\n## Running Output\nF\n    def test_heavy_parcel():\n>       assert shipping_cost(10) == " + expected + "\nE       assert " + got + " == " + expected + "\nE        +  where " + got + " = shipping_cost(10)\n\n" +
			"test_shipping.py:6: AssertionError\nFAILED test_shipping.py::test_heavy_parcel\n1 failed in 0.05s"
	}
	tests := []struct {
		name              string
		perKg, expected   string
		got, fix          string
		fixAgent          string
		wantLocal, wantDo []int
	}{
		{"the code bent to the test's figure", "1.50", "25.00", "17.0", code("2.50"), "Engineer", []int{2}, nil},
		{"the code repaired to the task's figure", "2.50", "17.00", "25.0", code("1.50"), "Engineer", nil, nil},
		{"the test edited instead", "2.50", "17.00", "25.0", test("25.00"), "Engineer", []int{3, 1}, []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, question, "",
				msg{agent: "Human", content: question, kind: run.KindUser},
				msg{agent: "Engineer", content: code(tt.perKg)},
				msg{agent: "QaEngineer", content: test(tt.expected)},
				msg{agent: "QaEngineer", content: failed(tt.got, tt.expected)},
				msg{agent: tt.fixAgent, content: "Changed to pass the test.\n" + tt.fix},
				msg{agent: "QaEngineer", content: "## Running Output\n.\n1 passed in 0.01s"},
				msg{agent: "Engineer", content: "## Summary\nshipping.py is done; all tests pass."},
			)
			assert.Equal(t, tt.wantLocal, steps(LocalFault.Run(in), true))
			assert.Equal(t, tt.wantDo, steps(TrialFirstFault.Run(in), true))
		})
	}
}

// A test run read as the output of the tester's code (a traceback at its
// top) that failed through a function another agent defined ran that
// agent's code: local_fault and trial_first_fault blame the code, as they
// do for the tester's account of it, not the test that called it. When
// the code was then rewritten from the task's figure to the one the
// failed test expected, local_fault blames the test (unittest names it
// in its FAIL: header).
func TestLocalFaultFollowsAFailedRunsOutputToTheCodeItRan(t *testing.T) {
	question := "Write shipping_for(subtotal): shipping costs $4.99, and is free for orders of $50 or more."
	code := func(minimum string) string {
		return "## Code: checkout.py\n```python\nFREE_SHIPPING_MIN = " + minimum + "\n\n\ndef shipping_for(subtotal):\n    return 0 if subtotal >= FREE_SHIPPING_MIN else 4.99\n```"
	}
	test := "## Code: test_checkout.py\n```python\nimport unittest\n\nfrom checkout import shipping_for\n\n\nclass TestShipping(unittest.TestCase):\n    def test_free_from_forty(self):\n        self.assertEqual(shipping_for(40), 0)\n```"
	output := "Traceback (most recent call last):\n  File \"test_checkout.py\", line 8, in test_free_from_forty\n    self.assertEqual(shipping_for(40), 0)\nAssertionError: 4.99 != 0\n\n" +
		"======================================================================\nFAIL: test_free_from_forty (test_checkout.TestShipping)\n----------------------------------------------------------------------\n\nFAILED (failures=1)"
	tests := []struct {
		name         string
		after        []msg
		local, dover []int
	}{
		{"the failure left on the code", []msg{{agent: "Engineer", content: "## Summary\nDone."}}, []int{1}, []int{1}},
		{"the code bent to the test", []msg{
			{agent: "Engineer", content: "Lowered the minimum as the test requires.\n" + code("40")},
			{agent: "QaEngineer", content: "## Running Output\nRan 1 test in 0.001s\n\nOK"},
		}, []int{2}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, question, "", append([]msg{
				{agent: "Human", content: question, kind: run.KindUser},
				{agent: "Engineer", content: code("50")},
				{agent: "QaEngineer", content: test},
				{agent: "QaEngineer", content: output},
			}, tt.after...)...)
			require.True(t, in.Features.Steps[3].Has(extract.KindToolResult), "the run is read as the test code's output")
			assert.Equal(t, tt.local, steps(LocalFault.Run(in), true))
			assert.Equal(t, tt.dover, steps(TrialFirstFault.Run(in), true))
		})
	}
}

// A failed test whose output names no function of the code (it called it
// through a client) still had the code bent to it when the team then
// rewrote that code's file from the task's figure to another: local_fault
// and trial_first_fault blame the test, found by the file the failed
// assertion is in. A rewrite that keeps the task's figure leaves the
// tester's report as it was read.
func TestLocalFaultOfCodeBentToATestThroughAClient(t *testing.T) {
	question := "Serve GET /todos, 20 todos per page."
	code := func(size string) string {
		return "## Code: storage.py\n```python\n## storage.py\nPAGE_SIZE = " + size + "\n\n\ndef page(items, number):\n    return items[(number - 1) * PAGE_SIZE : number * PAGE_SIZE]\n```"
	}
	report := "## Running Command\npython -m pytest test_app.py -q\n## Running Output\nF\n    def test_first_page():\n>       assert len(client.get(\"/todos\").get_json()) == 10\nE       assert 20 == 10\ntest_app.py:6: AssertionError\n1 failed in 0.05s\n## Status:\nFAIL"
	tests := []struct {
		name, rewrite string
		local, dover  []int
	}{
		{"rewritten to the test's figure", "10", []int{2}, []int{2}},
		{"rewritten keeping the task's", "20", []int{3}, []int{3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, question, "",
				msg{agent: "Human", content: question, kind: run.KindUser},
				msg{agent: "Engineer", content: code("20")},
				msg{agent: "QaEngineer", content: "## Code: test_app.py\n```python\n## test_app.py\nfrom app import client\n\n\ndef test_first_page():\n    assert len(client.get(\"/todos\").get_json()) == 10\n```"},
				msg{agent: "QaEngineer", content: report},
				msg{agent: "Engineer", content: "The tests expect pages of 10.\n" + code(tt.rewrite)},
			)
			assert.Equal(t, tt.local, steps(LocalFault.Run(in), true))
			assert.Equal(t, tt.dover, steps(TrialFirstFault.Run(in), true))
		})
	}
}

// A name of the ground truth that a tool's printed table gives as a row's
// label was reached there, though a step's reading keeps no bare name: an
// answer that then names another row's label and figure took them, and
// data_flow_origin blames it, not the call whose output listed both.
func TestDataFlowOriginOfAnotherRowOfAPrintedTable(t *testing.T) {
	question := "Which city has the most customers in customers.csv?"
	in := prepare(t, question, "Manchester",
		msg{agent: "user", content: question, kind: run.KindUser},
		call(`python({"code": "import pandas as pd\nc = pd.read_csv('customers.csv')\nprint(c['city'].value_counts().head(3))"})`),
		out("city\nManchester    412\nBirmingham    397\nLeeds         288\nName: count, dtype: int64"),
		msg{agent: "assistant", content: "Birmingham has the most customers, with 397."},
	)
	fs := DataFlowOrigin.Run(in)
	require.NotEmpty(t, fs)
	assert.Equal(t, 3, fs[0].Step, "the answer that took another row")
}

// Without the correct answer, an answer that takes the highest row of a
// listing its tool printed, for a task that asks for the highest, chose
// as the task asked: what the listing holds (grouped by another column)
// is what can be wrong, and data_flow_origin blames the call. For a task
// that asks for the lowest, taking the highest row was the answer's own
// choice.
func TestDataFlowOriginOfTheExtremeOfAListing(t *testing.T) {
	for _, tc := range []struct {
		question string
		want     int
	}{
		{"Which product category has the highest average order value?", 1},
		{"Which product category has the lowest average order value?", 3},
	} {
		t.Run(tc.question, func(t *testing.T) {
			in := prepare(t, tc.question, "",
				msg{agent: "user", content: tc.question, kind: run.KindUser},
				call(`python({"code": "df.groupby('sub_category')['order_value'].mean().sort_values(ascending=False).head(4)"})`),
				out("sub_category\nCopiers     1848.32\nMachines    1012.47\nTables       648.79\nChairs       532.25\nName: order_value, dtype: float64"),
				msg{agent: "assistant", content: "Final Answer: the category is Copiers, at about 1,848.32 per order."},
			)
			fs := DataFlowOrigin.Run(in)
			require.NotEmpty(t, fs)
			assert.Equal(t, tc.want, fs[0].Step)
		})
	}
}

// A final answer that states what a function returns was given by the
// code that defines it, unless a later call threw that code away (git
// checkout -- .) or the edit that wrote it failed: the run ended without
// it, and the answer's result is no code's the run kept. Shape: a coding agent's chat with tool calls.
func TestDataFlowOriginOfCodeThrownAway(t *testing.T) {
	const task = "page_count(25, 10) returns 2, should be 3. Fix utils/paging.py."
	edit := `edit_existing_file({"filepath": "utils/paging.py", "changes": "def page_count(total, per_page):\n    return -(-total // per_page)\n"})`
	for _, tt := range []struct {
		name, after string
		want        []int
	}{
		{"the code kept", `run_terminal_command({"command": "git status --short"})`, []int{3}},
		{"the code thrown away", `run_terminal_command({"command": "git checkout -- . && rm -rf .continue"})`, nil},
		{"the code never written", "", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			applied := "Edit applied to utils/paging.py"
			if tt.after == "" {
				// The editor refused the edit: its code never reached the file.
				applied, tt.after = "Error: the edit could not be applied, utils/paging.py has changed since it was read.", `run_terminal_command({"command": "git status --short"})`
			}
			in := prepare(t, task, "",
				msg{agent: "user", content: task, kind: run.KindUser},
				msg{agent: "assistant", content: `read_file({"filepath": "utils/paging.py"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: "def page_count(total, per_page):\n    return total // per_page\n", kind: run.KindToolResult},
				msg{agent: "assistant", content: edit, kind: run.KindToolCall},
				msg{agent: "tool", content: applied, kind: run.KindToolResult},
				msg{agent: "assistant", content: tt.after, kind: run.KindToolCall},
				msg{agent: "tool", content: "", kind: run.KindToolResult},
				msg{agent: "assistant", content: "page_count now rounds up, so page_count(25, 10) returns 3."},
			)
			assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true))
		})
	}
}

// A figure a coding agent's answer takes from a check's output (the
// tests a suite ran) is the check's report of the work, not a value the
// work gave; one a script printed is. Shape: a coding agent's chat with
// tool calls.
func TestDataFlowOriginOfACheckTally(t *testing.T) {
	const task = "German reports must print dates as DD.MM.YYYY. Fix reportgen/fmt.py."
	for _, tt := range []struct {
		name, call, output string
		want               []int
	}{
		{"a test suite's tally", `bash({"command": "pytest -q"})`, "..............                                                           [100%]\n14 passed in 0.31s", nil},
		{"what a script printed", `bash({"command": "python scripts/count_locales.py"})`, "14\n", []int{3}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, task, "",
				msg{agent: "user", content: task, kind: run.KindUser},
				msg{agent: "assistant", content: `str_replace_editor({"command": "str_replace", "path": "/repo/reportgen/fmt.py", "old_str": "\"en\": \"%Y-%m-%d\"}", "new_str": "\"en\": \"%Y-%m-%d\", \"de\": \"%d.%m.%Y\"}"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: "The file /repo/reportgen/fmt.py has been edited.", kind: run.KindToolResult},
				msg{agent: "assistant", content: tt.call, kind: run.KindToolCall},
				msg{agent: "tool", content: tt.output, kind: run.KindToolResult},
				msg{agent: "assistant", content: "German dates now print as DD.MM.YYYY; 14 passed."},
			)
			assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true))
		})
	}
}

// A tool result whose exit 1 extract reads as a search's or a
// comparison's answer ("no_match") is no failed call; the same exit
// without it is.
func TestQuietExitIsNoFailure(t *testing.T) {
	one := 1
	f := &extract.Features{Kinds: extract.KindsOf(extract.KindToolResult), Details: &extract.Details{ExitCode: &one}}
	_, failed := toolFailed(f)
	assert.True(t, failed)
	f.Details.Successes = []extract.Signal{{Kind: "no_match", Severity: extract.SeverityHigh}}
	_, failed = toolFailed(f)
	assert.False(t, failed)
}

// A failure the runtime reports as a step of its own (a span's error
// status, read as role "error") that the agent's next try got past (its
// code ran, whatever the code printed) is a detour: neither local_fault
// nor trial_first_fault blames it, nor the agent's next step for saying
// what failed. Failures that go on to the trial's end stay faults; and
// the task, which quotes the traceback its issue reports, is no trial's
// first fault.
func TestReportedFailuresTheAgentGotPast(t *testing.T) {
	task := "Fix this issue:\nTraceback (most recent call last):\n  File \"radsimp.py\", line 1032, in _split_gcd\n    g = a[0]\nIndexError: tuple index out of range"
	code := func(body string) string {
		return "Thought: I will check it.\nCode:\n```py\n" + body + "\n```<end_code>"
	}
	failed := "smolagents.utils.AgentExecutionError: Code execution failed at line 'import pytest' due to: InterpreterError: Import of pytest is not allowed."
	logs := "Execution logs:\n(1, [], [])\nLast output from code snippet:\nNone"
	type step struct {
		role, content string
		kind          run.Kind
	}
	tests := []struct {
		name           string
		steps          []step
		notLocal       []int
		wantLocal      []int
		notTrial       []int
		wantTrialFirst int
	}{
		{"an import refused, then code that runs", []step{
			{"user", task, run.KindUser},
			{"assistant", code("import pytest"), run.KindMessage},
			{"error", failed, run.KindMessage},
			{"assistant", "Thought: pytest cannot be imported here, so I could not run it. I will check the guard by hand.\nCode:\n```py\nprint((1, [], []))\n```<end_code>", run.KindMessage},
			{"tool", logs, run.KindToolResult},
			{"assistant", code("final_answer('patch')"), run.KindMessage},
		}, []int{2, 3}, nil, []int{0, 2, 3}, -1},
		{"failures to the end", []step{
			{"user", task, run.KindUser},
			{"assistant", code("import pytest"), run.KindMessage},
			{"error", failed, run.KindMessage},
			{"assistant", code("import pytest"), run.KindMessage},
			{"error", failed, run.KindMessage},
		}, nil, []int{2, 4}, []int{0}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run.Run{Source: "test.json", Question: task}
			for i, s := range tt.steps {
				agent := "CodeAgent"
				if s.kind == run.KindUser {
					agent = "user"
				}
				r.Steps = append(r.Steps, run.Step{Index: i, Agent: agent, Role: s.role, Kind: s.kind, Content: s.content})
			}
			f := extract.Run(r)
			g, err := graph.Build(r, f)
			require.NoError(t, err)
			in := &Input{Run: r, Features: f, Graph: g}
			local := steps(LocalFault.Run(in), true)
			for _, s := range tt.notLocal {
				assert.NotContains(t, local, s, "local_fault")
			}
			for _, s := range tt.wantLocal {
				assert.Contains(t, local, s, "local_fault")
			}
			trial := steps(TrialFirstFault.Run(in), true)
			for _, s := range tt.notTrial {
				assert.NotContains(t, trial, s, "trial_first_fault")
			}
			if tt.wantTrialFirst >= 0 {
				require.NotEmpty(t, trial)
				assert.Equal(t, tt.wantTrialFirst, trial[0], "trial_first_fault")
			}
		})
	}
}
