package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestHandoffAltersTaskFigure: a supervisor's plain message hands its
// worker another figure than the task's, and the worker's calls carry it
// as handed: the handoff is where the value went wrong. A night count
// the search and booking take as handed; a budget the search runs with,
// whose listing the order then takes its record from. Where the handoff
// carries the task's figure and the worker's call departs from it by
// itself, the handoff is no origin. Shape: OpenAI chat transcripts with a
// name per agent and tool_calls.
func TestHandoffAltersTaskFigure(t *testing.T) {
	const (
		hotelTask = "Book me a double room in Lyon near Part-Dieu for 2 nights, checking in on Thursday 21 May 2026, under 140 euros a night."
		chairTask = "Order ergonomic office chairs for the new team of 8 people; the total budget is 5,000 USD. Pick the best-rated model that fits."
	)
	hotel := func(handed, nights string) []msg {
		return []msg{
			{agent: "user", content: hotelTask, kind: run.KindUser},
			{agent: "supervisor", content: "Let me hand this to the hotel desk."},
			{agent: "supervisor", content: "hotel_agent: book a double room near Lyon Part-Dieu for " + handed + " nights from 2026-05-21, under EUR 140 per night."},
			{agent: "hotel_agent", content: `search_hotels({"city": "Lyon", "near": "Part-Dieu", "check_in": "2026-05-21", "nights": ` + nights + `, "room": "double", "max_rate_eur": 140})`, kind: run.KindToolCall},
			{agent: "tool", content: `[{"hotel_id": "LYS-221", "name": "Hotel Lyon Part-Dieu Centre", "rate_eur": 118}, {"hotel_id": "LYS-307", "name": "Mercure Part-Dieu", "rate_eur": 132}]`, kind: run.KindToolResult},
			{agent: "supervisor", content: "Done: a double room at Hotel Lyon Part-Dieu Centre from 21 May, EUR 118 a night."},
		}
	}
	chairs := func(budget string) []msg {
		return []msg{
			{agent: "user", content: chairTask, kind: run.KindUser},
			{agent: "manager", content: "Routing to sourcing."},
			{agent: "manager", content: "sourcing_agent, order 8 ergonomic office chairs within a total budget of " + budget + " USD, choosing the best-rated model that fits."},
			{agent: "sourcing_agent", content: `search_catalog({"category": "ergonomic chair", "quantity": 8, "max_total_usd": 500})`, kind: run.KindToolCall},
			{agent: "tool", content: `[{"sku": "CH-ERGO-PRO", "rating": 4.8, "unit_usd": 589}, {"sku": "CH-MESH-AIR", "rating": 4.5, "unit_usd": 412}, {"sku": "CH-BASIC-2", "rating": 3.6, "unit_usd": 59}]`, kind: run.KindToolResult},
			{agent: "sourcing_agent", content: `place_order({"sku": "CH-BASIC-2", "quantity": 8})`, kind: run.KindToolCall},
			{agent: "tool", content: `{"order_id": "PO-55120", "total_usd": 472, "status": "placed"}`, kind: run.KindToolResult},
			{agent: "manager", content: "Chairs ordered: 472 USD total (PO-55120)."},
		}
	}
	for _, tt := range []struct {
		name, task string
		msgs       []msg
		want       []int
	}{
		{"night count altered in the handoff", hotelTask, hotel("3", "3"), []int{2}},
		{"night count carried, worker searches another", hotelTask, hotel("2", "3"), nil},
		{"night count carried and searched", hotelTask, hotel("2", "2"), nil},
		{"budget altered in the handoff, order from its listing", chairTask, chairs("500"), []int{2}},
		{"budget carried, worker searches another", chairTask, chairs("5,000"), nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, tt.task, "", tt.msgs...)
			assert.Equal(t, tt.want, stepsFor(dataFlowOrigin(in), "a figure other than the task's"))
		})
	}
}

// TestHandoffQualifiesTaskNameOtherwise: a triage agent's plain message
// hands its weather worker the task's city qualified by another state
// ("Portland, Maine" for the task's "Portland, Oregon"), and the worker's
// call looks up the city without the task's state: the handoff named a
// namesake of the task's subject. Where the handoff keeps the task's
// state, or the call names it, the handoff is no origin. Shape: OpenAI
// chat transcript with a name per agent and tool_calls.
func TestHandoffQualifiesTaskNameOtherwise(t *testing.T) {
	const task = "We're driving from Seattle down to Portland, Oregon on Saturday 14 March 2026. Will it rain there in the afternoon?"
	for _, tt := range []struct {
		name, handed, state string
		want                []int
	}{
		{"another state handed", "Portland, Maine", "ME", []int{2}},
		{"the task's state handed", "Portland, Oregon", "ME", nil},
		{"the call names the task's state", "Portland, Maine", "Oregon", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, task, "",
				msg{agent: "user", content: task, kind: run.KindUser},
				msg{agent: "triage_agent", content: "Routing this to the weather desk."},
				msg{agent: "triage_agent", content: "weather_agent, get the afternoon forecast for " + tt.handed + " on 2026-03-14 and say whether rain is likely."},
				msg{agent: "weather_agent", content: `get_forecast({"city": "Portland", "state": "` + tt.state + `", "date": "2026-03-14", "period": "afternoon"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: `{"date": "2026-03-14", "afternoon": {"condition": "clear", "precip_chance": 10, "high_f": 41}}`, kind: run.KindToolResult},
				msg{agent: "triage_agent", content: "Saturday afternoon in Portland looks clear, high around 41°F."},
			)
			assert.Equal(t, tt.want, stepsFor(dataFlowOrigin(in), "names a subject the task does not"))
		})
	}
}

// TestBookingActsWithOtherCount: the handoff and the search carry the
// task's ticket count and the listing is read right; the purchase then
// acts on a listed block with another count than the task's. The
// purchase is where the count went wrong, not the search that listed the
// block; a purchase with the task's count is no origin. Shape: OpenAI
// chat transcript with a name per agent and tool_calls.
func TestBookingActsWithOtherCount(t *testing.T) {
	const task = "Get 4 tickets for the Coldplay concert at Wembley Stadium on 22 August 2026, seated together, under 120 GBP each."
	for _, tt := range []struct {
		name, tickets string
		want          []int
	}{
		{"bought with another count", "3", []int{5}},
		{"bought with the task's count", "4", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, task, "",
				msg{agent: "user", content: task, kind: run.KindUser},
				msg{agent: "supervisor", content: "Passing this to the ticket desk."},
				msg{agent: "supervisor", content: "ticket_agent: buy 4 tickets for Coldplay at Wembley Stadium on 2026-08-22, seated together, under GBP 120 each."},
				msg{agent: "ticket_agent", content: `find_events({"artist": "Coldplay", "venue": "Wembley Stadium", "date": "2026-08-22", "tickets": 4, "max_price_gbp": 120})`, kind: run.KindToolCall},
				msg{agent: "tool", content: `[{"event_id": "EV-5120", "block": "Block 118", "row": "F", "price_gbp": 112}, {"event_id": "EV-5120", "block": "Block 512", "row": "B", "price_gbp": 74}]`, kind: run.KindToolResult},
				msg{agent: "ticket_agent", content: `buy_tickets({"event_id": "EV-5120", "block": "Block 118", "row": "F", "tickets": ` + tt.tickets + `})`, kind: run.KindToolCall},
				msg{agent: "tool", content: `{"order": "TM-228104", "status": "confirmed"}`, kind: run.KindToolResult},
				msg{agent: "supervisor", content: "Your Coldplay tickets are booked: Block 118, row F (order TM-228104)."},
			)
			assert.Equal(t, tt.want, stepsFor(dataFlowOrigin(in), "with another count than the task's"))
		})
	}
}

// TestMisroutedHandoff: a router hands the request to an agent its
// instructions describe in none of the task's words, while they describe
// another destination in some: the handoff is where the run went wrong,
// not the receiver doing what it is described as doing. Where the router
// hands to the destination the task's words describe, or its
// instructions describe no other, it is no origin. Shape: an OpenAI chat
// transcript with the router's system prompt, a name per agent and the
// receiver a message is addressed to.
func TestMisroutedHandoff(t *testing.T) {
	const (
		task   = "Where is my parcel P-40917? The tracking page has not moved since Tuesday."
		routes = "You triage customers. Send parcel tracking and delivery questions to shipping_desk (track_parcel), and refund or invoice questions to accounts_desk (get_invoice)."
	)
	conversation := func(instructions, to, tool, result string) []msg {
		return []msg{
			{agent: "system", content: instructions, kind: run.KindSystem},
			{agent: "user", content: task, kind: run.KindUser},
			{agent: "triage", content: to + ": please help the customer with parcel P-40917.", target: to},
			{agent: to, content: tool + `({"ref": "P-40917"})`, kind: run.KindToolCall},
			{agent: "tool", content: result, kind: run.KindToolResult},
			{agent: to, content: "Your parcel P-40917 is on its way and will arrive within 5 working days.", target: "triage"},
			{agent: "triage", content: "Your parcel P-40917 is on its way and will arrive within 5 working days."},
		}
	}
	for _, tt := range []struct {
		name string
		msgs []msg
		want []int
	}{
		{"handed to the desk described otherwise", conversation(routes, "accounts_desk", "get_invoice", `{"invoice": "INV-8812", "status": "paid"}`), []int{2}},
		{"handed to the desk the task's words describe", conversation(routes, "shipping_desk", "track_parcel", `{"status": "in transit", "eta_days": 5}`), nil},
		{"instructions describe no other destination", conversation("You triage customers. Refund or invoice questions go to accounts_desk (get_invoice).", "accounts_desk", "get_invoice", `{"invoice": "INV-8812", "status": "paid"}`), nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, task, "", tt.msgs...)
			assert.Equal(t, tt.want, stepsFor(dataFlowOrigin(in), "hands the request to"))
		})
	}
}

// TestReversedFigure: a step that carries a figure an earlier step wrote
// of the same subject with its direction turned round (a rise as a fall)
// is where the run went wrong, though the figure matches its source and
// the later steps decide on it. A figure of another subject written in the
// other direction is none. Shape: a team's chat with a ground truth.
func TestReversedFigure(t *testing.T) {
	const task = "Analyse the company for the trade date and decide BUY, HOLD or SELL."
	team := func(bear string) []msg {
		return []msg{
			{agent: "user", content: task, kind: run.KindUser},
			{agent: "news", content: "Revenue was $61.9 billion, up 17% year over year; cloud grew 31%."},
			{agent: "bull", content: "Revenue grew 17% to $61.9 billion and cloud grew 31%. Buy."},
			{agent: "bear", content: bear},
			{agent: "manager", content: "The bear is decisive: the decline and the 36x multiple leave no margin of safety. SELL."},
			{agent: "trader", content: "FINAL TRANSACTION PROPOSAL: **SELL**"},
		}
	}
	for _, tt := range []struct {
		name string
		msgs []msg
		want []int
	}{
		{"a rise carried as a fall", team("Revenue fell 17% year over year to $61.9 billion, so the growth story has stalled. Sell."), []int{3}},
		{"another subject's fall", team("The stock fell 17% in a month and trades at 36x earnings. Sell."), nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, task, "BUY", tt.msgs...)
			assert.Equal(t, tt.want, stepsFor(dataFlowOrigin(in), "the other way round"))
		})
	}
}
