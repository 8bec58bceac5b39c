package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestListedPicks: an agent's pick of a listed row whose own fields break
// the task is read where it is first written, whether the listing is a
// tool's printed table or the agent's own rows: a rule of the row that
// forbids what the task brings ("No pets" for a dog), a shortest stay
// (a column "minimum nights", a field "min nights 3") longer than the
// task's nights, or a quality the
// task asks that the step gives the row and only another row has. A
// rule the task does not break ("No smoking" for a non-smoker), a
// quality the row has, a row the task itself names, and rows that share
// one label are none. A figure of the row out of a bound the task puts on
// it in the same unit ("at least 20 GB", under a header "data_gb" or
// written "15 GB") breaks it; one within it, or a bound in another
// unit, does not. Shape: a trip team as a Who&When case, and a
// travel agent's tool results as TravelPlanner prints them.
func TestListedPicks(t *testing.T) {
	stays := "NAME              price  room type        house_rules            minimum nights\n" +
		"Saguaro casita    198    Entire home/apt  No pets & No parties   1.0\n" +
		"Arcadia house     236    Entire home/apt  No smoking             2.0\n"
	food := "Name                Average Cost  Cuisines              City\n" +
		"Cantina 1511        24            Mexican, Tex-Mex      Charlotte\n" +
		"The Capital Grille  71            Steakhouse, American  Charlotte\n" +
		"Fiamma              39            Italian, Pizza        Charlotte\n"
	plans := "plan_id | name | data_gb | price_usd\nP-10 | Basic 10 | 10 | 25\nP-15 | Flex 15 | 15 | 30\nP-25 | Plus 25 | 25 | 38\nP-UL | Unlimited | unlimited | 55\n"
	plans2 := "Basic | 10 GB | $25\nFlex | 15 GB | $30\nPlus | 25 GB | $38\n"
	for _, tt := range []struct {
		name, task, listing, pick string
		step                      int
		want                      *ListedPick
	}{
		{"a rule the task breaks", "Plan a trip to Phoenix for 2; we are bringing our dog.", stays, "Chosen: Saguaro casita, the cheapest entire home.", 3,
			&ListedPick{Listing: 2, Picked: "Saguaro casita", Forbids: "no pets", Asked: "dog"}},
		{"a rule the task keeps", "Plan a trip to Phoenix for 2; we need a non-smoking place.", stays, "Chosen: Arcadia house.", 3, nil},
		{"a shortest stay longer than the trip", "Plan a 2-day trip to Phoenix for 2.", stays, "Chosen: Arcadia house for the night.", 3,
			&ListedPick{Listing: 2, Picked: "Arcadia house", Forbids: "minimum nights 2", Asked: "1 night"}},
		{"a shortest stay the trip keeps", "Plan a trip to Phoenix for 2 nights.", stays, "Chosen: Arcadia house.", 3, nil},
		{"a rule of another row", "Plan a trip to Phoenix for 2 with our dog.", stays, "Chosen: Arcadia house.", 3, nil},
		{"a quality of another row", "A trip to Charlotte; I'd like Mexican and Italian food.", food, "Mexican - Cantina 1511; Italian - The Capital Grille.", 3,
			&ListedPick{Listing: 2, Picked: "The Capital Grille", Asked: "italian"}},
		{"a quality the row has", "A trip to Charlotte; I'd like Mexican and Italian food.", food, "Mexican - Cantina 1511; Italian - Fiamma.", 3, nil},
		{"a quality no other row has but as a rule", "A trip to Phoenix for 4; we're throwing a party, so it must allow parties.", stays, "Chosen: Arcadia house, which allows parties.", 3, nil},
		{"a row the task names", "A trip to Charlotte; dinner at The Capital Grille, and Italian food once.", food, "Italian - The Capital Grille.", 3, nil},
		{"rows of one label", "How many units of HX-330 are in Leeds?", "sku     warehouse  on_hand\nHX-330  Bristol    1208\nHX-330  Leeds      1732\n", "HX-330 has 1372 units in Leeds.", 3, nil},
		{"a figure below the task's bound", "Switch me to the cheapest plan with at least 20 GB of data.", plans, "Switching you to P-15.", 3,
			&ListedPick{Listing: 2, Picked: "P-15", Forbids: "15 gb", Asked: "at least 20 gb"}},
		{"a figure over the task's bound, written with its unit", "A plan with no more than 12GB, please.", plans2, "Switching you to Flex.", 3,
			&ListedPick{Listing: 2, Picked: "Flex", Forbids: "15 gb", Asked: "no more than 12 gb"}},
		{"a figure out of a bound written as a threshold", "Switch me to a plan with data above 20 GB.", plans, "Switching you to P-15.", 3,
			&ListedPick{Listing: 2, Picked: "P-15", Forbids: "15 gb", Asked: "above 20 gb"}},
		{"a figure within the task's bound", "Switch me to the cheapest plan with at least 20 GB of data.", plans, "Switching you to P-25.", 3, nil},
		{"a bound in another unit", "Switch me to a plan with at least 20 minutes of calls.", plans, "Switching you to P-15.", 3, nil},
		{"a figure the task tells of the past, no bound", "I've been with you for over 5 years and used more than 30 GB some months. Switch me to the cheapest plan with at least 20 GB of data.",
			"plan_id | name | data_gb | contract_years | price_usd\nP-15 | Flex 15 | 15 | 1 | 30\nP-25 | Plus 25 | 25 | 2 | 38\nP-40 | Max 40 | 40 | 2 | 45\n", "Switching you to P-25.", 3, nil},
	} {
		r := chat("user", tt.task, "searcher", "AccommodationSearch[Phoenix]", "tool", tt.listing, "picker", tt.pick, "planner", "Day 1: "+tt.pick)
		r.Steps[1].Kind, r.Steps[2].Kind = run.KindToolCall, run.KindToolResult
		r.Question = tt.task
		rf := Run(r)
		assert.Equal(t, tt.want, rf.Steps[tt.step].ListedPick, tt.name)
		assert.Nil(t, rf.Steps[4].ListedPick, "%s: the planner carries the pick on", tt.name)
	}
	// The agent's own rows, then its pick, in one message.
	own := "AccommodationSearch[Phoenix]:\n1. Saguaro casita | $198/night | Entire home/apt | house_rules: No pets & No parties\n2. Arcadia house | $236/night | Entire home/apt | house_rules: No smoking\nChosen: Saguaro casita, 2 nights."
	r := chat("user", "Plan a trip to Phoenix; we travel with our dog.", "hotel_agent", own, "planner", "Stay: Saguaro casita.")
	r.Question = r.Steps[0].Content
	rf := Run(r)
	assert.Equal(t, &ListedPick{Listing: 1, Picked: "Saguaro casita", Forbids: "no pets", Asked: "dog"}, rf.Steps[1].ListedPick)
}
