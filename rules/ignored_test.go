package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// A critique that calls a result wrong, answered by its author with the
// same result (the same code with a comment reworded, or the same figure):
// the answer that ignored it is where the run went on wrong, not the
// result the critique gave a chance to mend.
func TestIgnoredCritique(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      func(t *testing.T) *Input
		ignored int
		not     int
	}{
		{"engineer reviews its own code and keeps it", func(t *testing.T) *Input {
			return prepare(t, "Write is_adult(age): adults from 18 inclusive.", "",
				msg{agent: "Human", content: "Write is_adult(age): adults from 18 inclusive.", kind: run.KindUser},
				msg{agent: "Engineer", content: "## Code: tickets.py\n```python\ndef is_adult(age):\n    return age > 18\n```"},
				msg{agent: "Engineer", content: "## Code Review: tickets.py\n1. The comparison is wrong: adults are from 18 inclusive, so use `age >= 18`.\n\n## LGTM/LBTM\nLBTM"},
				msg{agent: "Engineer", content: "## Code: tickets.py\n```python\ndef is_adult(age):\n    # adults are older than 18\n    return age > 18\n```"},
				msg{agent: "QaEngineer", content: "is_adult(18) returns False."},
			)
		}, 3, -1},
		{"programmer keeps its code after the reviewer's comment", func(t *testing.T) *Input {
			return feeRun(t, "'''\nfees: free from the minimum\n'''\ndef fee(total):\n    if total > 50.00:")
		}, 3, 1},
		{"assistant keeps the figure the critic corrected", func(t *testing.T) *Input {
			return prepare(t, "Convert 5 miles to kilometres (1 mile = 1.609 km).", "",
				msg{agent: "User", content: "Convert 5 miles to kilometres (1 mile = 1.609 km).", kind: run.KindUser},
				msg{agent: "Assistant", content: "5 miles / 1.609 = 3.11 km."},
				msg{agent: "Critic", content: "The conversion is wrong: it multiplies, so 5 x 1.609 = 8.045 km."},
				msg{agent: "Assistant", content: "I considered the feedback. The answer is 3.11 km."},
			)
		}, 3, 1},
		{"engineer takes one point of the review and keeps the rate it rejected", func(t *testing.T) *Input {
			return prepare(t, "The code SAVE10 takes 10% off.", "",
				msg{agent: "Human", content: "The code SAVE10 takes 10% off.", kind: run.KindUser},
				msg{agent: "Engineer", content: "## Code: shop.py\n```python\nDISCOUNTS = {'SAVE10': 0.01}\n\n\ndef apply_discount(price, code):\n    return price * (1 - DISCOUNTS.get(code, 0))\n```"},
				msg{agent: "Engineer", content: "## Code Review: shop.py\n1. The rate is wrong: SAVE10 should map to 0.10, not 0.01.\n2. Round the result to cents."},
				msg{agent: "Engineer", content: "## Code: shop.py\n```python\nDISCOUNTS = {'SAVE10': 0.01}\n\n\ndef apply_discount(price, code):\n    return round(price * (1 - DISCOUNTS.get(code, 0)), 2)\n```"},
			)
		}, 3, -1},
		{"a mended result is no ignored critique", func(t *testing.T) *Input {
			return feeRun(t, "def fee(total):\n    if total >= 50.00:")
		}, -1, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := steps(feedback(tc.in(t)), true)
			if tc.ignored >= 0 {
				assert.Contains(t, got, tc.ignored)
			}
			if tc.not >= 0 {
				assert.NotContains(t, got, tc.not)
			}
		})
	}
}

// feeRun: a programmer's fee code, a reviewer's comment that its
// comparison is wrong, and the programmer's rewrite, whose code begins
// with head.
func feeRun(t *testing.T, head string) *Input {
	return prepare(t, "Orders of $50.00 or more ship free; others pay $5.99.", "",
		msg{agent: "User", content: "Orders of $50.00 or more ship free; others pay $5.99.", kind: run.KindUser},
		msg{agent: "Programmer", content: "main.py\n```python\n'''\nfees\n'''\ndef fee(total):\n    if total > 50.00:\n        return 0.0\n    return 5.99\n```"},
		msg{agent: "Code Reviewer", content: "<Comment> The comparison in fee is wrong: orders of $50.00 or more ship free, so use `total >= 50.00`."},
		msg{agent: "Programmer", content: "main.py\n```python\n" + head + "\n        return 0.0\n    return 5.99\n```"},
	)
}
