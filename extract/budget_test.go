package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestOverBudget: the first agent's step that states a total over the
// budget the task gives goes over it, the budget written after "budget"
// or before it; a total within it, a total set beside the budget it
// keeps, a subtotal, or a task with no budget is none. Shape: a planner
// and a checker of a trip team.
func TestOverBudget(t *testing.T) {
	for _, tt := range []struct {
		name, task, plan string
		want             *OverBudget
	}{
		{"over, after the word", "Plan a 3-day trip for 2; the budget is $1,400 in total.", "Day 1: …\nTotal for 2: flights $540 + stay $578 + meals $310 = $1,428. A little over, but worth it.",
			&OverBudget{Total: "$1,428", Budget: "$1,400"}},
		{"over, before the word", "Plan a trip to Boston on a $2,000 budget.", "Total cost: $714 + $954 + $412 = $2,080, over the $2,000 budget.",
			&OverBudget{Total: "$2,080", Budget: "$2,000"}},
		{"within", "Plan a trip with a budget of $2,000.", "Total cost: $714 + $954 + $212 = $1,880, under the $2,000 budget.", nil},
		{"a subtotal", "Plan a trip with a budget of $500.", "Subtotal of the stay: $520 before the discount; with it, $410.", nil},
		{"no budget", "Plan a trip to Boston.", "Total: $2,080.", nil},
	} {
		r := chat("user", tt.task, "planner", tt.plan, "checker", "Approved.")
		r.Question = tt.task
		assert.Equal(t, tt.want, Run(r).Steps[1].OverBudget, tt.name)
	}
}
