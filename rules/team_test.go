package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// metaGPTRun is a software team's run in MetaGPT's shapes: a design names the
// classes and functions the code will have, the engineer writes them, the
// tester's run of its tests fails on a value the code gives (pytest shows
// the failed line and no "where" for it), and the engineer edits the
// test's expectation instead; the summary names the design's classes.
func metaGPTRun(t *testing.T) *Input {
	return prepare(t, "Write a 2048 game: equal tiles merge into their sum, each tile at most once per move.", "",
		msg{agent: "Human", content: "Write a 2048 game: equal tiles merge into their sum, each tile at most once per move.", kind: run.KindUser},
		msg{agent: "Architect", content: "## Implementation approach\nPure logic in board.py: class Board with merge_row(row) and move(direction); the loop in game.py with class Game.\n\n## File list\n- board.py\n- game.py"},
		msg{agent: "Engineer", content: "## Code: board.py\n```python\ndef merge_row(row):\n    tiles = [v for v in row if v]\n    merged = True\n    while merged:\n        merged = False\n        for i in range(len(tiles) - 1):\n            if tiles[i] == tiles[i + 1]:\n                tiles[i] *= 2\n                del tiles[i + 1]\n                merged = True\n                break\n    return tiles + [0] * (4 - len(tiles))\n\n\nclass Board:\n    def __init__(self):\n        self.cells = [[0] * 4 for _ in range(4)]\n```"},
		msg{agent: "Engineer", content: "## Code: game.py\n```python\nfrom board import Board\n\n\nclass Game:\n    def __init__(self):\n        self.board = Board()\n        self.score = 0\n```"},
		msg{agent: "QaEngineer", content: "## Code: test_board.py\n```python\nfrom board import merge_row\n\n\ndef test_merge_once():\n    result = merge_row([2, 2, 4, 0])\n    assert result == [4, 4, 0, 0]\n```"},
		msg{agent: "QaEngineer", content: "## Running Command\npython -m pytest test_board.py -q\n## Running Output\nF\n=================================== FAILURES ===================================\n_______________________________ test_merge_once ________________________________\n    def test_merge_once():\n        result = merge_row([2, 2, 4, 0])\n>       assert result == [4, 4, 0, 0]\nE       assert [8, 0, 0, 0] == [4, 4, 0, 0]\ntest_board.py:6: AssertionError\n1 failed in 0.02s\n## Status:\nFAIL"},
		msg{agent: "Engineer", content: "## Code: test_board.py\nMerges cascade along the row, so the expectation is corrected.\n```python\nfrom board import merge_row\n\n\ndef test_merge_once():\n    result = merge_row([2, 2, 4, 0])\n    assert result == [8, 0, 0, 0]\n```"},
		msg{agent: "QaEngineer", content: "## Running Command\npython -m pytest test_board.py -q\n## Running Output\n.\n1 passed in 0.01s\n## Status:\nPASS"},
		msg{agent: "Engineer", content: "The game is complete: board.py with Board and game.py with Game. All tests pass."},
	)
}

// The names of a team's own classes and functions are no values a design
// could have got wrong, nor values of its answer to trace; and a failed
// test run is the code's failure that its test calls, not the tester's.
func TestTeamCodeNamesAndFailedTests(t *testing.T) {
	in := metaGPTRun(t)
	assert.NotContains(t, steps(unsupportedPlanValue(in), true), 1, "the design only names the classes the code defines")
	assert.NotContains(t, steps(dataFlowOrigin(in), true), 1, "the summary's Board and Game are the code's names, not the design's values")
	local := localFault(in)
	assert.Equal(t, []int{2}, stepsFor(local, "which failed when run as step 5"), "the failed line's value came from merge_row, step 2's code")
	for _, f := range local {
		if f.Step == 5 {
			assert.Less(t, f.Strength, 0.5, "the tester's run reports a failure of code it was given")
		}
	}
}

// invoiceRun: a task list hands the engineer the tax rate and the cents
// amounts are rounded to; tax.py codes another rate, invoice.py's
// Invoice.tax only returns compute_tax's value, and the tester's test of
// Invoice.tax fails.
func invoiceRun(t *testing.T) *Input {
	return prepare(t, "Build an invoicing tool: charge 8% sales tax on taxable items, rounded to cents.", "",
		msg{agent: "Human", content: "Build an invoicing tool: charge 8% sales tax on taxable items, rounded to cents.", kind: run.KindUser},
		msg{agent: "ProjectManager", content: "## Logic Analysis\n- tax.py: TAX_RATE = Decimal('0.08'); compute_tax(items) applies it to the taxable amounts\n- invoice.py: Invoice with tax()\n\n## Shared Knowledge\nCENTS = Decimal('0.01'); amounts are quantized to CENTS."},
		msg{agent: "Engineer", content: "## Code: tax.py\n```python\nfrom decimal import Decimal\n\nTAX_RATE = Decimal('0.06')\nCENTS = Decimal('0.01')\n\n\ndef compute_tax(items):\n    taxable = sum((i.amount() for i in items if i.taxable), Decimal('0'))\n    return (taxable * TAX_RATE).quantize(CENTS)\n```"},
		msg{agent: "Engineer", content: "## Code: invoice.py\n```python\nfrom tax import compute_tax\n\n\nclass Invoice:\n    def __init__(self, items):\n        self.items = items\n\n    def tax(self):\n        return compute_tax(self.items)\n```"},
		msg{agent: "QaEngineer", content: "## Code: test_invoice.py\n```python\nfrom invoice import Invoice\n\n\ndef test_tax():\n    assert Invoice(make_items()).tax() == Decimal('32.00')\n```"},
		msg{agent: "QaEngineer", content: "## Running Command\npython -m pytest test_invoice.py -q\n## Running Output\nF\n=================================== FAILURES ===================================\n___________________________________ test_tax ___________________________________\n    def test_tax():\n>       assert Invoice(make_items()).tax() == Decimal('32.00')\nE       AssertionError: assert Decimal('24.00') == Decimal('32.00')\ntest_invoice.py:5: AssertionError\n1 failed in 0.02s\n## Status:\nFAIL"},
	)
}

// The code a failed test's call ran is the function that computed its
// value: one that only returns another's call handed the work to it; and
// the hundredth amounts are rounded to is no rate a task list altered.
func TestFailedCallHandedOn(t *testing.T) {
	in := invoiceRun(t)
	d, why := definerOf(in, 5)
	assert.Equal(t, 2, d, "Invoice.tax returns compute_tax's value: tax.py's code computed it")
	assert.Contains(t, why, "compute_tax")
	assert.Equal(t, []int{2}, stepsFor(localFault(in), "which failed when run as step 5"), "no figure the task list handed tax.py is the task's altered: its 0.01 is a cent")
}

// A plan's factors between units (an hour's 3600 seconds) and offsets
// between scales of temperature (273.15) are everyone's: no figure it made
// up, however much the code builds on them; a figure of its own is.
func TestPlanUnitNumbers(t *testing.T) {
	tests := []struct {
		name, design string
		want         []int
	}{
		{"a unit's factor and offset", "## Implementation approach\nlimiter.py with WINDOW_SECONDS = 3600; convert.py with kelvin_to_celsius(k) = k - 273.15.", nil},
		{"a figure of its own", "## Implementation approach\nlimiter.py with WINDOW_SECONDS = 3600 and BURST = 37; convert.py with kelvin_to_celsius(k) = k - 273.15.", []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, "Limit each key to 100 requests per hour, and print temperatures the API gives in kelvins in Celsius.", "",
				msg{agent: "Human", content: "Limit each key to 100 requests per hour, and print temperatures the API gives in kelvins in Celsius.", kind: run.KindUser},
				msg{agent: "Architect", content: tt.design},
				msg{agent: "Engineer", content: "## Code: limiter.py\n```python\nWINDOW_SECONDS = 3600\nBURST = 37\n\n\ndef kelvin_to_celsius(k):\n    return k - 273.15\n```"},
			)
			assert.Equal(t, tt.want, steps(unsupportedPlanValue(in), true))
		})
	}
}

// A plan that counts what the task counts with another value ("retry up
// to 3 times" where the task says 5), which the code then sets as a
// constant, put a figure of its own in place of the task's. Code that
// sets the task's count carries nothing of the plan's, and a count of
// something the task does not count is no recount.
func TestPlanRecountsTheTask(t *testing.T) {
	task := "Download the daily rates file, retrying a failed download up to 5 times."
	tests := []struct {
		name, plan, code string
		want             []int
	}{
		{"carried into a constant", "## Logic Analysis\n- fetch.py: retry the GET up to 3 times, then give up", "MAX_RETRIES = 3", []int{1}},
		{"the code keeps the task's count", "## Logic Analysis\n- fetch.py: retry the GET up to 3 times, then give up", "MAX_RETRIES = 5", nil},
		{"a count the task does not make", "## Logic Analysis\n- fetch.py: log at most 3 lines a failure, then give up", "MAX_LINES = 3", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, task, "",
				msg{agent: "Human", content: task, kind: run.KindUser},
				msg{agent: "ProjectManager", content: tt.plan},
				msg{agent: "Engineer", content: "## Code: fetch.py\n```python\n" + tt.code + "\n\n\ndef download(url):\n    return url\n```"},
			)
			assert.Equal(t, tt.want, stepsFor(append(unsupportedPlanValue(in), unsupportedClaim(in)...), "where the task counts"))
		})
	}
}

// A review that asks code holding the task's figure to hold another,
// which a rewrite then gives it, put its own figure in place of the
// task's. A review that asks for the task's figure in place of another,
// or one the rewrite does not follow, did not.
func TestReviewAsksOffTheTask(t *testing.T) {
	task := "Paginate GET /notes: 25 notes per page, newest first."
	code := func(size string) string {
		return "## Code: paging.py\n```python\nPAGE_SIZE = " + size + "\n\n\ndef page_of(items, page):\n    return items[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]\n```"
	}
	tests := []struct {
		name, first, asked, rewrite string
		want                        []int
	}{
		{"the task's figure given up", "25", "50", "50", []int{2}},
		{"the task's figure asked for", "10", "25", "25", nil},
		{"the request not followed", "25", "50", "25", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, task, "",
				msg{agent: "Human", content: task, kind: run.KindUser},
				msg{agent: "Engineer", content: code(tt.first)},
				msg{agent: "Engineer", content: "## Code Review: paging.py\n## Actions\n1. Set PAGE_SIZE = " + tt.asked + " for consistency with the other endpoints.\n## Code Review Result\nLBTM"},
				msg{agent: "Engineer", content: code(tt.rewrite)},
			)
			assert.Equal(t, tt.want, stepsFor(append(unsupportedPlanValue(in), unsupportedClaim(in)...), "where the code of step"))
		})
	}
}

// The inputs a test gives another's code are the cases it tries: later
// steps that repeat them build on no value the tester put forward. The
// value it expects a call to return is one.
func TestTestInputsAreNoUnsupportedClaims(t *testing.T) {
	task := "Book meeting rooms: book(room, start, end) answers True, or False when the room is taken then."
	msgs := []msg{
		{agent: "Human", content: task, kind: run.KindUser},
		{agent: "Engineer", content: "## Code: rooms.py\n```python\nTAKEN = {}\n\n\ndef book(room, start, end):\n    return TAKEN.setdefault(room, (start, end)) == (start, end)\n```"},
		{agent: "QaEngineer", content: "## Code: test_rooms.py\n```python\nfrom rooms import book\n\n\ndef test_taken():\n    assert book(\"Hopper\", 9, 10) == True\n    assert book(\"Hopper\", 9, 11) == \"Refused by Lovelace\"\n```"},
	}
	team := func(summary string) *Input {
		return prepare(t, task, "", append(msgs, msg{agent: "Engineer", content: summary})...)
	}
	assert.Empty(t, steps(unsupportedClaim(team("## Summary\nrooms.py is done; the tests book Hopper twice.")), true), "an input repeated")
	assert.Equal(t, []int{2}, steps(unsupportedClaim(team("## Summary\nrooms.py is done; a second booking is Refused by Lovelace.")), true), "an expected value repeated")
}

// A value a test gives the code as its input, which the summary names as
// its example, is no value the tester put forward; a value a test expects
// a call to return is still followed, to the code that returned it.
func TestTestInputs(t *testing.T) {
	tests := []struct {
		name, summary string
		want          []int
	}{
		{"the example a test checks", "The checker is done: python cli.py 'Str0ng!Passw0rd' prints OK.", nil},
		{"the value a test expects", "The checker is done: the score of a strong password is 47.", []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, "Write a password checker: at least 12 characters.", "",
				msg{agent: "Human", content: "Write a password checker: at least 12 characters.", kind: run.KindUser},
				msg{agent: "Engineer", content: "## Code: checker.py\n```python\ndef check(p):\n    return len(p) > 12\n\n\ndef score(p):\n    return len(p) * 3 + 2\n```"},
				msg{agent: "QaEngineer", content: "## Code: test_checker.py\n```python\nfrom checker import check, score\n\n\ndef test_strong():\n    assert check('Str0ng!Passw0rd')\n\n\ndef test_score():\n    assert score('Str0ng!Passw0rd') == 47\n```"},
				msg{agent: "QaEngineer", content: "## Running Command\npython -m pytest test_checker.py -q\n## Running Output\n..\n2 passed in 0.01s\n## Status:\nPASS"},
				msg{agent: "Engineer", content: tt.summary},
			)
			assert.Equal(t, tt.want, steps(dataFlowOrigin(in), true))
		})
	}
}
