package extract

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestMisroute: the handoff of the request to an agent the router's
// instructions describe in none of the task's words, while they describe
// another destination in some; read from a Swarm's transfer call (its
// result naming the agent who speaks next), a transfer call whose
// argument names the receiver (the choice is the call, not its result),
// or a message addressed to the receiver. No misroute where the receiver is described in the task's
// words, where the instructions name the agents without describing them,
// or where the work is split among several agents.
func TestMisroute(t *testing.T) {
	const (
		task   = "Where is my parcel PX-77412? Please check: the tracking page still says 'label created' after four days."
		routes = "You are the triage agent. Transfer parcel tracking and delivery questions to the Shipping Agent (transfer_to_shipping), and invoice, payment or refund questions to the Billing Agent (transfer_to_billing)."
	)
	step := func(agent string, kind run.Kind, content, target string, calls ...run.ToolCall) run.Step {
		return run.Step{Agent: agent, Kind: kind, Content: content, Extra: &run.Extra{Target: target, ToolCalls: calls}}
	}
	transfer := func(instructions, to, tool string) []run.Step {
		return []run.Step{
			step("system", run.KindSystem, instructions, ""),
			step("user", run.KindUser, task, ""),
			step("Triage Agent", run.KindToolCall, tool+"({})", "", run.ToolCall{Name: tool}),
			step("tool", run.KindToolResult, `{"assistant": "`+to+`"}`, ""),
			step(to, run.KindToolCall, `lookup({"ref": "PX-77412"})`, "", run.ToolCall{Name: "lookup"}),
			step("tool", run.KindToolResult, `{"status": "paid"}`, ""),
			step(to, run.KindMessage, "Your parcel PX-77412 is paid and on its way.", ""),
		}
	}
	split := func() []run.Step {
		return []run.Step{
			step("user", run.KindUser, task, ""),
			step("lead", run.KindMessage, "billing_desk: check the invoice of PX-77412.", "billing_desk"),
			step("billing_desk", run.KindMessage, "It is paid.", "lead"),
			step("lead", run.KindMessage, "shipping_desk: track PX-77412.", "shipping_desk"),
			step("shipping_desk", run.KindMessage, "It is still at the depot.", "lead"),
		}
	}
	for _, tt := range []struct {
		name         string
		instructions string
		steps        []run.Step
		want         *Misroute
	}{
		{"transfer call to the agent described otherwise", "", transfer(routes, "Billing Agent", "transfer_to_billing"),
			&Misroute{Step: 2, To: "Billing Agent", Receiver: "and invoice, payment or refund questions to the Billing Agent (transfer_to_billing)",
				Other: "Transfer parcel tracking and delivery questions to the Shipping Agent (transfer_to_shipping)", Shared: []string{"parcel", "tracking"}}},
		{"one transfer tool whose argument names the agent described otherwise", "", []run.Step{
			step("system", run.KindSystem, routes, ""),
			step("user", run.KindUser, task, ""),
			step("Triage Agent", run.KindToolCall, `transfer_to_agent({"agent_name": "Billing Agent"})`, "", run.ToolCall{Name: "transfer_to_agent", Arguments: `{"agent_name": "Billing Agent"}`}),
			step("Triage Agent", run.KindToolResult, `{"result": null}`, "Billing Agent"),
			step("Billing Agent", run.KindMessage, "Your parcel PX-77412 is paid.", ""),
		}, &Misroute{Step: 2, To: "Billing Agent", Receiver: "and invoice, payment or refund questions to the Billing Agent (transfer_to_billing)",
			Other: "Transfer parcel tracking and delivery questions to the Shipping Agent (transfer_to_shipping)", Shared: []string{"parcel", "tracking"}}},
		{"transfer call to the agent the task's words describe", "", transfer(routes, "Shipping Agent", "transfer_to_shipping"), nil},
		{"instructions name the agents without describing them", "", transfer("Work with the Shipping Agent (transfer_to_shipping), the Billing Agent (transfer_to_billing).", "Billing Agent", "transfer_to_billing"), nil},
		{"the work split among agents", "Send parcel tracking to shipping_desk and invoices to billing_desk.", split(), nil},
		{"a catalogue whose scopes are listed in brackets", "You are a supervisor managing these workers: parcel_desk (parcels, tracking, delivery), billing_desk (invoices, payments, refunds). Respond with the worker to act next.", split()[:3],
			&Misroute{Step: 1, To: "billing_desk", Receiver: "billing_desk (invoices, payments, refunds)", Other: "You are a supervisor managing these workers: parcel_desk (parcels, tracking, delivery)", Shared: []string{"parcel", "tracking"}}},
		{"a word every destination's scope writes speaks for none of them", "You are a supervisor managing a parcel_desk (parcels and tracking: check and chase) and a billing_desk (invoices: check and chase).", split()[:3],
			&Misroute{Step: 1, To: "billing_desk", Receiver: "and a billing_desk (invoices: check and chase)", Other: "You are a supervisor managing a parcel_desk (parcels and tracking: check and chase)", Shared: []string{"parcel", "tracking"}}},
		{"a message to the receiver, the run's instructions describing it", "Send parcel tracking to shipping_desk and invoices to billing_desk.", split()[:3], &Misroute{Step: 1, To: "billing_desk", Receiver: "and invoices to billing_desk", Other: "Send parcel tracking to shipping_desk", Shared: []string{"parcel", "tracking"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &run.Run{Question: task, Instructions: tt.instructions, Steps: tt.steps}
			assert.Equal(t, tt.want, Run(r).Misroute)
		})
	}
}

// TestMisrouteWeakOverlap: a word the task only labels the thing it asks
// about by ("order #123"), alone, or a word two destinations' clauses
// both write, decides no misroute; a word that sets one destination
// apart still does, as do two words beside an id's label. Words are
// compared by their stems: "shipped" is a word of "shipping", "returned"
// one of "returns".
func TestMisrouteWeakOverlap(t *testing.T) {
	const routes = "You are the triage agent. Send shipping status of an order to shipping_agent, and refunds or returns to refunds_agent."
	handoff := func(task, instructions string) *run.Run {
		return &run.Run{Question: task, Instructions: instructions, Steps: []run.Step{
			{Agent: "user", Kind: run.KindUser, Content: task},
			{Agent: "triage", Kind: run.KindMessage, Content: "refunds_agent: please take this one.", Extra: &run.Extra{Target: "refunds_agent"}},
			{Agent: "refunds_agent", Kind: run.KindMessage, Content: "Your refund is on its way."},
		}}
	}
	for _, tt := range []struct {
		name, task, instructions string
		shared                   []string // nil for no misroute
	}{
		{"the label of an order's id alone", "I want my money back for order #123.", routes, nil},
		{"a word both destinations write", "I want my money back for my order.", "Send the shipping status of an order to shipping_agent, an order's invoice to billing_agent, and refunds or returns to refunds_agent.", nil},
		{"a word that sets the other destination apart", "I want my money back, the shipping is late.", routes, []string{"shipping"}},
		{"a label beside another shared word", "What is the shipping status of order #123?", routes, []string{"order", "shipping", "status"}},
		{"a word the task writes in another form", "My parcel was shipped to the wrong town.", routes, []string{"shipped"}},
		{"the receiver's word in another form", "I returned the parcel but the shipping label was wrong.", routes, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := Run(handoff(tt.task, tt.instructions)).Misroute
			if tt.shared == nil {
				assert.Nil(t, m)
				return
			}
			if assert.NotNil(t, m) {
				assert.Equal(t, tt.shared, m.Shared)
			}
		})
	}
}

// TestRouteClausesReadEachPartOnce: a sentence of many parts (a
// catalogue a prompt lists by commas) is read in one pass: each part is
// asked whether it names a destination once, not the growing run of
// parts before it; the clauses are as before.
func TestRouteClausesReadEachPartOnce(t *testing.T) {
	text := "Route billing questions to billing_agent. Known products: " + strings.Repeat("widget pro, ", 5000) + "and more. Send parcel tracking, delivery and returns to shipping_agent, and invoices to billing_agent."
	read := 0
	clauses := routeClauses(text, func(c string) bool {
		read += len(c)
		return strings.Contains(c, "_agent")
	})
	assert.LessOrEqual(t, read, 2*len(text))
	assert.Equal(t, []string{"Route billing questions to billing_agent", text[strings.Index(text, "Known"):strings.Index(text, ". Send")],
		"Send parcel tracking, delivery and returns to shipping_agent", "and invoices to billing_agent"}, clauses)
}

// TestMisrouteRefused: with no instructions describing the agents, a
// handoff whose receiver's first words say it cannot take the action
// the task asks for ("I can't issue refunds" for "please refund") is a
// misroute, found at the router's transfer call; a receiver that refuses
// another action than the task's, or that refuses only after another
// agent has spoken, or that takes the action, is none.
func TestMisrouteRefused(t *testing.T) {
	const task = "I was charged twice for order #5521. Please refund the duplicate charge."
	steps := func(reply string, between ...run.Step) []run.Step {
		out := []run.Step{
			{Agent: "user", Kind: run.KindUser, Content: task},
			{Agent: "triage", Kind: run.KindToolCall, Content: "transfer_to_sales({})", Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: "transfer_to_sales"}}}},
			{Agent: "triage", Kind: run.KindToolResult, Content: "Transferred to sales."},
			{Agent: "triage", Kind: run.KindHandoff, Content: "Transferred to sales.", Extra: &run.Extra{Target: "sales"}},
			{Agent: "sales", Kind: run.KindToolCall, Content: `lookup_order({"id": "5521"})`, Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: "lookup_order"}}}},
			{Agent: "sales", Kind: run.KindToolResult, Content: `{"id": "5521", "charges": 2}`},
		}
		out = append(out, between...)
		return append(out, run.Step{Agent: "sales", Kind: run.KindMessage, Content: reply})
	}
	for _, tt := range []struct {
		name  string
		steps []run.Step
		want  *Misroute
	}{
		{"the receiver cannot take the action asked", steps("I'm on the sales team, so I can't issue refunds, but here is a discount code."),
			&Misroute{Step: 1, To: "sales", Refused: "refunds", RefusedAt: 6}},
		{"the receiver refuses another action", steps("I can't modify delivered orders, but the duplicate charge is refunded."), nil},
		{"the receiver takes the action", steps("I have refunded the duplicate charge."), nil},
		{"another agent spoke first", steps("I can't issue refunds.", run.Step{Agent: "triage", Kind: run.KindMessage, Content: "Sales, please look at this."}), nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for i := range tt.steps {
				tt.steps[i].Index = i
			}
			assert.Equal(t, tt.want, Run(&run.Run{Question: task, Steps: tt.steps}).Misroute)
		})
	}
}
