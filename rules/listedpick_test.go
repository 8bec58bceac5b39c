package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/run"
)

// TestDataFlowBrokenPick: an agent picks a row of a listing whose own
// fields break the task (a stay whose house rules forbid the dog the
// travellers bring, a shortest stay longer than the trip, an "Italian"
// dinner at a steakhouse), or a planner states a total over the budget: the plan and
// the checker after it carry the pick on, and the pick is where the
// answer went wrong, though the flights' total came first. A pick that
// keeps the task moves nothing. The shape is a trip team (a flight
// agent, a hotel or restaurant agent, a planner, a budget checker) as a
// Who&When case.
func TestDataFlowBrokenPick(t *testing.T) {
	const (
		dogTask  = "Plan a 3-day trip for 2 from Denver to Phoenix, April 8th to 10th, 2022, budget $2,000. We are bringing our dog."
		catsTask = "Plan a 3-day trip for 2 from Denver to Phoenix, April 8th to 10th, 2022, budget $2,000."
		foodTask = "Plan a 3-day trip from Denver to Charlotte, budget $1,500. I'd like to try Mexican and Italian food."
	)
	stays := "AccommodationSearch[Phoenix]:\n1. Saguaro casita | $198/night | Entire home/apt | No pets & No parties\n2. Arcadia house | $236/night | Entire home/apt | No smoking\n"
	food := "RestaurantSearch[Charlotte]:\nCantina 1511 | avg $24 | Mexican, Tex-Mex\nThe Capital Grille | avg $71 | Steakhouse, American\nFiamma | avg $39 | Italian, Pizza\n"
	user := func(c string) msg { return msg{agent: "user", content: c, kind: run.KindUser} }
	say := func(agent, c string) msg { return msg{agent: agent, content: c} }
	flights := say("Flight_Agent", "FlightSearch[Denver, Phoenix, 2022-04-08]: F3920877 $121 14:05-15:52.\nFlightSearch[Phoenix, Denver, 2022-04-10]: F3951102 $139 16:30-18:10.\nFlights total $520 for two.")
	for _, tc := range []struct {
		name string
		task string
		msgs []msg
		want []int // the steps data_flow_origin names for a broken pick
	}{
		{"the stay forbids the dog", dogTask, []msg{user(dogTask), flights,
			say("Hotel_Agent", stays+"Chosen: Saguaro casita, 2 nights x $198 = $396."),
			say("Planner", "Day 1: F3920877; stay Saguaro casita.\nDay 3: F3951102."),
			say("Budget_Checker", "Flights $520 + stay $396 = $916, within $2,000. Approved.")}, []int{2}},
		{"no dog to forbid", catsTask, []msg{user(catsTask), flights,
			say("Hotel_Agent", stays+"Chosen: Saguaro casita, 2 nights x $198 = $396."),
			say("Planner", "Day 1: F3920877; stay Saguaro casita.\nDay 3: F3951102."),
			say("Budget_Checker", "Flights $520 + stay $396 = $916, within $2,000. Approved.")}, nil},
		{"the stay's shortest is longer than the trip", "Plan a 2-day trip for one from Portland to Boise, budget $500.", []msg{user("Plan a 2-day trip for one from Portland to Boise, budget $500."),
			say("Flight_Agent", "FlightSearch[Portland, Boise]: F3807719 $84, F3861240 $91. Chosen: both, $175."),
			say("Hotel_Agent", "AccommodationSearch[Boise]:\n1. North End bungalow | $97/night | Entire home/apt | minimum nights 3\n2. Downtown room | $112/night | Private room | minimum nights 1\nChosen: North End bungalow, $97."),
			say("Planner", "Day 1: fly F3807719; stay North End bungalow. Day 2: fly back on F3861240. Total $360."),
			say("Budget_Checker", "$360 is within $500. Approved.")}, []int{2}},
		{"the plan's total goes over the budget", "Plan a 3-day trip for 2 from San Diego to Portland; the budget is $1,400 in total.", []msg{user("Plan a 3-day trip for 2 from San Diego to Portland; the budget is $1,400 in total."),
			say("collector", "Flights: F2519114 $129, F2587105 $141 per person. Stays: Pearl District loft $289/night, Alberta Arts room $98/night."),
			say("planner", "Day 1: fly F2519114; stay Pearl District loft.\nDay 3: fly back on F2587105.\nTotal for 2: flights $540 + stay $578 + meals $310 = $1,428. A little over, but the loft is worth it."),
			say("checker", "All three days are covered. Approved.")}, []int{2}},
		{"a steakhouse for the Italian dinner", foodTask, []msg{user(foodTask),
			say("Restaurant_Agent", food+"Picks: Mexican - Cantina 1511; Italian - The Capital Grille."),
			say("Planner", "Day 1 dinner: Cantina 1511. Day 2 dinner: The Capital Grille."),
			say("Budget_Checker", "Meals $95, within $1,500. Approved.")}, []int{1}},
		{"the Italian dinner at an Italian place", foodTask, []msg{user(foodTask),
			say("Restaurant_Agent", food+"Picks: Mexican - Cantina 1511; Italian - Fiamma."),
			say("Planner", "Day 1 dinner: Cantina 1511. Day 2 dinner: Fiamma."),
			say("Budget_Checker", "Meals $63, within $1,500. Approved.")}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := DataFlowOrigin.Run(prepare(t, tc.task, "", tc.msgs...))
			assert.Equal(t, tc.want, append(stepsFor(fs, "row of the listing"), stepsFor(fs, "over the task's budget")...))
			if tc.want != nil && assert.NotEmpty(t, fs) {
				assert.Equal(t, tc.want[0], fs[0].Step)
			}
		})
	}
}

// TestDataFlowBusyClash: a scheduler reads the attendees' busy times and
// books a slot over one of them: the booking is where the answer went
// wrong, though the answer's end time first came with the busy list. A
// slot free for all moves nothing. Shape: a scheduling assistant as an
// OpenAI chat transcript with tool calls.
func TestDataFlowBusyClash(t *testing.T) {
	const task = "Book a 60-minute design review with Priya and Marco on Tuesday 10 March 2026."
	busy := `{"priya@acme.io": [["09:00", "10:30"]], "marco@acme.io": [["13:30", "15:00"]]}`
	for _, tc := range []struct {
		name, start, end string
		want             []int
	}{
		{"over Marco's meeting", "14:00", "15:00", []int{3}},
		{"free for both", "11:00", "12:00", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			book := `{"title": "Design review", "start": "2026-03-10T` + tc.start + `", "end": "2026-03-10T` + tc.end + `", "attendees": ["priya@acme.io", "marco@acme.io"]}`
			in := prepare(t, task, "", msg{agent: "user", content: task, kind: run.KindUser},
				call(`get_busy({"attendees": ["priya@acme.io", "marco@acme.io"], "date": "2026-03-10"})`), out(busy),
				call("create_event("+book+")"), out(`{"event_id": "evt_5521", "status": "confirmed"}`),
				msg{agent: "assistant", content: "The design review is booked for Tuesday 10 March, " + tc.start + "-" + tc.end + "."})
			in.Run.Steps[1].Extra.ToolCalls = []run.ToolCall{{Name: "get_busy", Arguments: `{"attendees": ["priya@acme.io", "marco@acme.io"], "date": "2026-03-10"}`}}
			in.Run.Steps[3].Extra.ToolCalls = []run.ToolCall{{Name: "create_event", Arguments: book}}
			f := extract.Run(in.Run)
			g, err := graph.Build(in.Run, f)
			require.NoError(t, err)
			in = &Input{Run: in.Run, Features: f, Graph: g}
			assert.Equal(t, tc.want, stepsFor(DataFlowOrigin.Run(in), "busy"))
		})
	}
}
