package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestOtherPrice: a refund call that gives another item's price, or the
// order's total, where the order's listing prices the one item the task
// names, moves another figure than that item's; the item's own price, an
// amount the listing does not give, a figure under a name that only
// holds a word of money (feedback, consumed), and a task that names two
// items or none are none. Shape:
// a support assistant that looks an order up and refunds.
func TestOtherPrice(t *testing.T) {
	order := `{"order_id": "4471", "items": [{"sku": "HC-MUG-BLU", "name": "Blue ceramic mug", "qty": 1, "price": 18.5}, {"sku": "HC-BWL-SET", "name": "Stoneware bowl set (4)", "qty": 1, "price": 64.0}], "total": 82.5}`
	mug := "Order 4471 came with the blue ceramic mug cracked. Please refund just the mug."
	for _, tt := range []struct {
		name, task, args string
		want             *OtherPrice
	}{
		{"another item's price", mug, `{"order_id": "4471", "amount": 64.0}`, &OtherPrice{Listing: 2, Item: "Blue ceramic mug", Price: "18.5", Given: "64.0"}},
		{"the total", mug, `{"order_id": "4471", "amount": "$82.50"}`, &OtherPrice{Listing: 2, Item: "Blue ceramic mug", Price: "18.5", Given: "$82.50"}},
		{"the item's price", mug, `{"order_id": "4471", "amount": 18.5}`, nil},
		{"a figure the listing does not give", mug, `{"order_id": "4471", "amount": 20}`, nil},
		{"two items named", "Please refund the blue ceramic mug and the stoneware bowl set from order 4471.", `{"order_id": "4471", "amount": 82.5}`, nil},
		{"no item named", "Please refund order 4471.", `{"order_id": "4471", "amount": 82.5}`, nil},
		{"a rating under a name that holds fee", mug, `{"order_id": "4471", "feedback_score": 64}`, nil},
		{"a count under a name that holds sum", mug, `{"order_id": "4471", "consumed_units": 64}`, nil},
		{"an amount in camel case", mug, `{"order_id": "4471", "refundAmount": 64}`, &OtherPrice{Listing: 2, Item: "Blue ceramic mug", Price: "18.5", Given: "64"}},
	} {
		r := chat("user", tt.task, "assistant", `get_order({"order_id": "4471"})`, "tool", order, "assistant", "refund("+tt.args+")", "tool", `{"status": "issued"}`)
		r.Steps[1].Kind, r.Steps[2].Kind, r.Steps[3].Kind, r.Steps[4].Kind = run.KindToolCall, run.KindToolResult, run.KindToolCall, run.KindToolResult
		r.Steps[1].Extra = &run.Extra{ToolCalls: []run.ToolCall{{Name: "get_order", Arguments: `{"order_id": "4471"}`}}}
		r.Steps[3].Extra = &run.Extra{ToolCalls: []run.ToolCall{{Name: "refund", Arguments: tt.args}}}
		r.Question = r.Steps[0].Content
		assert.Equal(t, tt.want, Run(r).Steps[3].OtherPrice, tt.name)
	}
}

// TestOtherPriceReadsEachCallOnce: a long run that looks the same order
// up again and again, and never gives an amount, is read in one pass:
// each call is read once, not once per listing before it. What the
// reading allocates is counted, not timed: twice the run, at most about
// twice the allocations (a scan per listing would make it four times).
func TestOtherPriceReadsEachCallOnce(t *testing.T) {
	allocs := func(n int) float64 {
		r := lookedUpAgain(n)
		rf := Run(r)
		return testing.AllocsPerRun(2, func() { readOtherPrices(r, rf) })
	}
	small, big := allocs(200), allocs(400)
	require.Positive(t, small, "each call's arguments are read")
	assert.Less(t, big, 2.5*small, "allocations grow with the run's length, not its square")
}

// BenchmarkOtherPriceLongRun reads the amounts of a long run that looks
// the same order up again and again.
func BenchmarkOtherPriceLongRun(b *testing.B) {
	r := lookedUpAgain(2000)
	rf := Run(r)
	for b.Loop() {
		readOtherPrices(r, rf)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(r.Steps)), "ns/step")
}

// lookedUpAgain is a run that looks order 4471 up n times and never
// gives an amount.
func lookedUpAgain(n int) *run.Run {
	order := `{"order_id": "4471", "items": [{"sku": "HC-MUG-BLU", "name": "Blue ceramic mug", "qty": 1, "price": 18.5}, {"sku": "HC-BWL-SET", "name": "Stoneware bowl set (4)", "qty": 1, "price": 64.0}], "total": 82.5}`
	steps := []run.Step{{Agent: "user", Kind: run.KindUser, Content: "Order 4471 came with the blue ceramic mug cracked. Please refund just the mug."}}
	for range n {
		steps = append(steps, run.Step{Agent: "assistant", Kind: run.KindToolCall, Content: `get_order({"order_id": "4471"})`, Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: "get_order", Arguments: `{"order_id": "4471", "note": "looked up again as the customer asked"}`}}}},
			run.Step{Agent: "tool", Kind: run.KindToolResult, Content: order})
	}
	for i := range steps {
		steps[i].Index = i
	}
	return &run.Run{Question: steps[0].Content, Steps: steps}
}
