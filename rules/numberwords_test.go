package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

// A figure the task writes in words ("three dozen") and a requirement first
// writes in digits was restated, not handed: code that computed the wrong
// answer with it stays the suspect. A figure that is not the task's is
// still passed on to the step that first wrote it.
func TestDataFlowOriginOfAFigureTheTaskWroteInWords(t *testing.T) {
	question := "Write order_total(n): pens cost $1.50 each, with 8% sales tax on the subtotal and a flat $5.00 shipping fee. Report the total for three dozen pens."
	team := func(pens, total string) *Input {
		return prepare(t, question, "",
			msg{agent: "Human", content: question, kind: run.KindUser},
			msg{agent: "ProductManager", content: "## Requirement Analysis\nThree dozen pens is " + pens + " pens: the report gives order_total(" + pens + ")."},
			msg{agent: "Engineer", content: "## Code: order.py\n```python\nPRICE = 1.50\nTAX = 0.08\nSHIPPING = 5.00\n\n\ndef order_total(n):\n    subtotal = n * PRICE\n    return round(subtotal + subtotal * TAX * SHIPPING, 2)\n\n\nprint(order_total(" + pens + "))\n```"},
			msg{agent: "QaEngineer", content: "## Code: test_order.py\n```python\nfrom order import order_total\n\n\ndef test_dozen():\n    assert order_total(" + pens + ") == " + total + "\n```"},
			msg{agent: "QaEngineer", content: "## Running Output\n.\n1 passed in 0.01s"},
			msg{agent: "Engineer", content: "All tests pass. The total for three dozen pens is $" + total + "."},
		)
	}
	tests := []struct {
		name, pens, total string
		want              int
	}{
		{"the task's figure restated", "36", "75.6", 2},
		{"a figure of the requirement's own", "37", "77.7", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := DataFlowOrigin.Run(team(tt.pens, tt.total))
			require.NotEmpty(t, fs)
			assert.Equal(t, tt.want, fs[0].Step)
		})
	}
}

// A number the task states as a part of a date (its year, its day) and a
// planner first writes as a number was restated, not handed.
func TestDataFlowOriginOfAFigureInTheTasksDate(t *testing.T) {
	question := "Write business_days(start, end) and report how many weekdays there are from March 1 to March 31, 2024, counting both days."
	in := prepare(t, question, "",
		msg{agent: "Human", content: question, kind: run.KindUser},
		msg{agent: "ProductManager", content: "## Requirement Analysis\nThe year 2024 is a leap year and March has 31 days; count both ends."},
		msg{agent: "Engineer", content: "## Code: days.py\n```python\nfrom datetime import date, timedelta\n\n\ndef business_days(start, end):\n    return sum(1 for i in range((end - start).days) if (start + timedelta(i)).weekday() < 5)\n\n\nprint(business_days(date(2024, 3, 1), date(2024, 3, 31)))\n```"},
		msg{agent: "QaEngineer", content: "## Code: test_days.py\n```python\nfrom datetime import date\nfrom days import business_days\n\n\ndef test_march():\n    assert business_days(date(2024, 3, 1), date(2024, 3, 31)) == 20\n```"},
		msg{agent: "QaEngineer", content: "## Running Output\n.\n1 passed in 0.01s"},
		msg{agent: "Engineer", content: "All tests pass. There are 20 weekdays."},
	)
	fs := DataFlowOrigin.Run(in)
	require.NotEmpty(t, fs)
	assert.Equal(t, 2, fs[0].Step, "the code, not the requirement that restated the date")
}

// A figure first written where an agent states the task (a manager's
// constraints that come with it) was given with the task, not handed by
// that agent.
func TestDataFlowOriginOfAFigureTheTaskStepGave(t *testing.T) {
	question := "Pens cost $1.50 each, with 8% sales tax on the subtotal and a flat $5 shipping fee. What is the total for 12 pens?"
	in := prepare(t, question, "",
		msg{agent: "Manager", content: "# General Task\n" + question + "\n## Constraints\n- Orders of 25 pens or more ship free; this order does not."},
		msg{agent: "Engineer", content: "```python\ndef order_total(n):\n    subtotal = n * 1.50\n    tax = subtotal * 0.08\n    shipping = 0 if n >= 25 else 5\n    return round(subtotal + tax * shipping, 2)\n```"},
		msg{agent: "Tester", content: "```python\nfrom order import order_total\n\n\ndef test_dozen():\n    assert order_total(12) == 25.2\n```"},
		msg{agent: "Tester", content: "## Running Output\n.\n1 passed in 0.01s"},
		msg{agent: "Engineer", content: "All tests pass. The total for 12 pens is $25.20."},
	)
	require.True(t, in.Features.Steps[0].Has(extract.KindTask))
	fs := DataFlowOrigin.Run(in)
	require.NotEmpty(t, fs)
	assert.Equal(t, 1, fs[0].Step, "the code, not the task's statement")
}

// A factor that applies the task's percentage (1.08 for 8% tax, 0.92 for
// an 8% discount) is the task's figure: a planner that first wrote it
// restated the task, and code that computed the wrong answer with it
// stays the suspect. A factor of a percentage the task did not give is
// still passed on to the step that first gave it.
func TestDataFlowOriginOfAFactorOfTheTasksPercentage(t *testing.T) {
	question := "Pens cost $1.50 each, with 8% sales tax on the subtotal and a flat $5 shipping fee. What is the total for 12 pens?"
	team := func(plan, factor, total string) *Input {
		return prepare(t, question, "",
			msg{agent: "Human", content: question, kind: run.KindUser},
			msg{agent: "Planner", content: plan},
			msg{agent: "Engineer", content: "```python\ndef order_total(n):\n    subtotal = n * 1.50\n    return round(subtotal * " + factor + " * 5, 2)\n```"},
			msg{agent: "Tester", content: "```python\nfrom order import order_total\n\n\ndef test_dozen():\n    assert order_total(12) == " + total + "\n```"},
			msg{agent: "Tester", content: "## Running Output\n.\n1 passed in 0.01s"},
			msg{agent: "Engineer", content: "All tests pass. The total for 12 pens is $" + total + "."},
		)
	}
	tests := []struct {
		name, plan, factor, total string
		want                      int
	}{
		{"the task's rate as a factor", "With 8% tax the subtotal is multiplied by 1.08, then the $5 shipping is added.", "1.08", "97.2", 2},
		{"a rate the plan changed", "With 9% tax the subtotal is multiplied by 1.09, then the $5 shipping is added.", "1.09", "98.1", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := DataFlowOrigin.Run(team(tt.plan, tt.factor, tt.total))
			require.NotEmpty(t, fs)
			assert.Equal(t, tt.want, fs[0].Step)
		})
	}
}

func TestPercents(t *testing.T) {
	assert.Equal(t, []string{"8", "92"}, percents(0.08))
	assert.Equal(t, []string{"8", "108"}, percents(1.08))
	assert.Nil(t, percents(12))
}

// A unit's conversion factor (3600 seconds in an hour) that a planner
// first wrote is what everyone knows: code that computed the wrong answer
// with it stays the suspect.
func TestDataFlowOriginOfAUnitsConversionFactor(t *testing.T) {
	question := "A batch job runs for 3.5 hours after a setup of 120 seconds. How many seconds does it take in total?"
	in := prepare(t, question, "",
		msg{agent: "Human", content: question, kind: run.KindUser},
		msg{agent: "Planner", content: "An hour has 3600 seconds, so the run is 3.5 × 3600 seconds; the setup comes on top."},
		msg{agent: "Engineer", content: "```python\ndef total_seconds(hours, setup):\n    return hours * 3600 - setup\n```"},
		msg{agent: "Tester", content: "```python\nfrom job import total_seconds\n\n\ndef test_job():\n    assert total_seconds(3.5, 120) == 12480\n```"},
		msg{agent: "Tester", content: "## Running Output\n.\n1 passed in 0.01s"},
		msg{agent: "Engineer", content: "All tests pass. The answer is 12480."},
	)
	fs := DataFlowOrigin.Run(in)
	require.NotEmpty(t, fs)
	assert.Equal(t, 2, fs[0].Step, "the code, not the planner that wrote how long an hour is")
}
