package extract

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestOffered: the choices a tool's output lists, as JSON alone or at
// the end of its text, each list of short labels; a list of long texts
// or of objects, or a single choice, offers none.
func TestOffered(t *testing.T) {
	for _, tt := range []struct {
		name, content string
		want          []string
	}{
		{"a page's buttons", `{"observation": "Back to Search [SEP] Buy Now", "clickables": ["Back to Search", "Buy Now"]}`, []string{"back to search", "buy now"}},
		{"after the page's text", "Observation:\nBack to Search [SEP] size [SEP] 8 [SEP] 8.5\n\nAvailable Actions:\n{\"has_search_bar\": false, \"clickables\": [\"back to search\", \"8\", \"8.5\"]}", []string{"back to search", "8", "8.5"}},
		{"a bare list", `["go north", "go south", "take lamp"]`, []string{"go north", "go south", "take lamp"}},
		{"one choice", `{"clickables": ["search"]}`, nil},
		{"records", `[{"id": "A1"}, {"id": "B2"}]`, nil},
		{"long texts", `{"results": ["` + longText + `", "` + longText + `"]}`, nil},
		{"no JSON", "The output of the OS:\n\n7", nil},
	} {
		assert.Equal(t, tt.want, offered(tt.content), tt.name)
	}
}

const longText = "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France."

// TestChoiceHeld: a choice is written whole, not inside a longer word or
// a hyphenated one.
func TestChoiceHeld(t *testing.T) {
	for _, tt := range []struct {
		text, choice string
		want         bool
	}{
		{`click({"value": "large"})`, "large", true},
		{`click({"value": "x-large"})`, "large", false},
		{"action: click[buy now]", "buy now", true},
		{"in size 8, and price lower than 70.00 dollars", "8", true},
		{"price lower than 80.00 dollars", "8", false},
		{"a largely white set", "large", false},
	} {
		assert.Equal(t, tt.want, choiceHeld(tt.text, tt.choice), tt.text)
	}
}

// TestPassOver: an agent's click on a colour other than the one the task
// names, the named one never clicked, picks past it; a task's colour the
// agent wrote in its search before the page offered it is still passed
// over when it then clicks another. The named colour clicked, a colour
// the task rules out ("not white"), or one of two it allows ("white or
// grey") is no pass. Shape: a WebShop agent as an OpenAI chat
// transcript, the shop's page in the user's turn.
func TestPassOver(t *testing.T) {
	page := "Observation:\nBack to Search [SEP] color [SEP] white [SEP] grey [SEP] size [SEP] queen [SEP] king [SEP] Buy Now\n\nAvailable Actions:\n{\"has_search_bar\": false, \"clickables\": [\"back to search\", \"white\", \"grey\", \"queen\", \"king\", \"buy now\"]}"
	for _, tt := range []struct {
		task, colour string
		want         *Choice
	}{
		{"i need a white queen size duvet cover set", "grey", &Choice{Offer: 6, Picked: []string{"grey"}, Passed: []string{"white"}}},
		{"i need a white queen size duvet cover set", "white", nil},
		{"i need a queen size duvet cover set, not white", "grey", nil},
		{"i need a queen size duvet cover set in white or grey", "grey", nil},
	} {
		r := chat(
			"user", "Observation:\nWebShop [SEP] Instruction: [SEP] "+tt.task+", and price lower than 60.00 dollars [SEP] Search",
			"assistant", "Thought:\nI think I should search.\n\nAction:\nsearch[white queen duvet cover set]",
			"user", "Observation:\nPage 1 [SEP] B07ZQ3QF6T [SEP] Bedsure Duvet Cover Set [SEP] $42.99\n\nAvailable Actions:\n{\"has_search_bar\": false, \"clickables\": [\"back to search\", \"b07zq3qf6t\", \"b08kwl2m1d\"]}",
			"assistant", "Thought:\nI think the Bedsure set fits.\n\nAction:\nclick[b07zq3qf6t]",
			"user", page,
			"assistant", "Thought:\nI think I should pick the queen size.\n\nAction:\nclick[queen]",
			"user", page,
			"assistant", "Thought:\nI think I should pick the colour.\n\nAction:\nclick["+tt.colour+"]",
			"user", page,
			"assistant", "Thought:\nI think I should buy it.\n\nAction:\nclick[buy now]",
		)
		r.Question = r.Steps[0].Content
		rf := Run(r)
		assert.Nil(t, rf.Steps[5].PassedOver, tt.task)
		assert.Equal(t, tt.want, rf.Steps[7].PassedOver, "%s: %s", tt.task, tt.colour)
		if tt.want == nil {
			assert.Nil(t, rf.Steps[9].PassedOver, "%s: buy now", tt.task)
		}
	}
}

// TestPriceCap: the most a task would pay, with a currency's sign or
// word; a bound on something else ("under 5 kg") is none.
func TestPriceCap(t *testing.T) {
	for _, tt := range []struct {
		task    string
		written string
		most    float64
	}{
		{"i need a hair extension, and price lower than 40.00 dollars", "lower than 40.00 dollars", 40},
		{"Find me a hotel in Lisbon under €150 a night.", "under €150", 150},
		{"a flight to Oslo for at most $1,200", "at most $1,200", 1200},
		{"a suitcase under 5 kg", "", 0},
		{"a hotel in Lisbon; my budget is €450 for the stay", "budget is €450", 450},
		{"a lamp under 40 bucks", "under 40 bucks", 40},
		{"a rug of no less than $40, and cheaper than $90", "cheaper than $90", 90},
		{"I paid over $200 last time; now a lamp at least $20", "", 0},
	} {
		written, most, ok := priceCap(tt.task)
		assert.Equal(t, tt.written != "", ok, tt.task)
		assert.Equal(t, tt.written, written, tt.task)
		assert.InDelta(t, tt.most, most, 1e-9, tt.task)
	}
}

// TestOverCap: a click on a product the results page lists at a price
// over the task's most is a pick over it, whichever format the page
// comes in; one within it is not, nor one the agent undid by going back
// for a cheaper one. Shape: a WebShop agent as an OpenAI chat transcript,
// the shop's page in the user's turn.
func TestOverCap(t *testing.T) {
	results := "Observation:\nPage 1 (Total results: 50) [SEP] B09QQLDJ93 [SEP] Clip in Hair Extensions 22 Inch [SEP] $45.99 [SEP] B08R6QB6Z1 [SEP] Clip in Hair Extensions 20 Inch [SEP] $29.99\n\nAvailable Actions:\n{\"has_search_bar\": false, \"clickables\": [\"back to search\", \"b09qqldj93\", \"b08r6qb6z1\"]}"
	for _, tt := range []struct {
		name  string
		picks []string
		want  map[int]*PricedPick
		kept  bool // the cap, a requirement of the task, is kept
	}{
		{"over", []string{"b09qqldj93", "buy now"}, map[int]*PricedPick{3: {Offer: 2, Picked: "b09qqldj93", Price: "$45.99", Cap: "lower than 40.00 dollars"}}, false},
		{"within", []string{"b08r6qb6z1", "buy now"}, nil, true},
		{"went back", []string{"b09qqldj93", "< prev", "b08r6qb6z1"}, nil, true},
		{"nothing picked", []string{"< prev"}, nil, false},
	} {
		pairs := []string{"user", "Observation:\nWebShop [SEP] Instruction: [SEP] i need a clip-in hair extension, and price lower than 40.00 dollars [SEP] Search",
			"assistant", "Action:\nsearch[clip-in hair extension]"}
		for _, p := range tt.picks {
			pairs = append(pairs, "user", results, "assistant", "Action:\nclick["+p+"]")
		}
		r := chat(pairs...)
		r.Question = r.Steps[0].Content
		rf := Run(r)
		for i := range rf.Steps {
			assert.Equal(t, tt.want[i], rf.Steps[i].OverCap, "%s: step %d", tt.name, i)
		}
		k := slices.IndexFunc(rf.Requirements, func(q Requirement) bool { return q.Text == "lower than 40.00 dollars" })
		if assert.GreaterOrEqual(t, k, 0, "%s: the cap is a requirement", tt.name) {
			assert.Equal(t, tt.kept, rf.Requirements[k].Kept, "%s: kept", tt.name)
		}
	}
}

// TestPricedRecords: the records of a JSON listing by their ids, each
// with the figure of its field that names a price; a record with no
// such field, or output that is no JSON, prices none.
func TestPricedRecords(t *testing.T) {
	for _, tt := range []struct {
		name, content string
		want          map[string]string
	}{
		{"flights", `{"flights": [{"flight": "TP 538", "departs": "07:10", "price_usd": 312}, {"flight": "FR 1882", "departs": "09:45", "price_usd": 189}]}`, map[string]string{"tp 538": "312", "fr 1882": "189"}},
		{"rooms by id", `[{"room_id": "R-204", "nightly_rate": 140, "total_cost": 420}, {"room_id": "R-310", "total_cost": 510}]`, map[string]string{"r-204": "420", "r-310": "510"}},
		{"no price", `[{"order_id": "W-1001", "items": 2}, {"order_id": "W-1002", "items": 1}]`, map[string]string{}},
		{"no JSON", "Page 1 [SEP] B09QQLDJ93 [SEP] $45.99", nil},
	} {
		assert.Equal(t, tt.want, pricedRecords(tt.content), tt.name)
	}
}

// TestPassOverTimes: a slot offered as a time of day is named by the
// task when it is the task's time on a 24-hour clock ("18:45" for "6:45
// pm"); the same hour before noon ("06:45") is another slot, picked past
// the one asked for. Shape: a booking assistant's tool call after the
// tool listed its free slots.
func TestPassOverTimes(t *testing.T) {
	for _, tt := range []struct {
		ask, booked string
		want        *Choice
	}{
		{"Book a haircut on 2025-02-13 at 6:45 pm.", "06:45", &Choice{Offer: 2, Picked: []string{"06:45"}, Passed: []string{"18:45"}}},
		{"Book a haircut on 2025-02-13 at a quarter to seven in the evening.", "06:45", &Choice{Offer: 2, Picked: []string{"06:45"}, Passed: []string{"18:45"}}},
		{"Book a haircut on 2025-02-13 at 6:45 pm.", "18:45", nil},
		{"Book a haircut on 2025-02-13 at 6:45 am.", "06:45", nil},
	} {
		r := &run.Run{Question: tt.ask, Steps: []run.Step{
			{Index: 0, Agent: "user", Kind: run.KindUser, Content: tt.ask},
			{Index: 1, Agent: "assistant", Kind: run.KindToolCall, Content: `get_openings({"date": "2025-02-13"})`},
			{Index: 2, Agent: "tool", Kind: run.KindToolResult, Content: `["06:45", "10:00", "15:30", "18:45"]`},
			{Index: 3, Agent: "assistant", Kind: run.KindToolCall, Content: `book_appointment({"date": "2025-02-13", "time": "` + tt.booked + `"})`},
		}}
		assert.Equal(t, tt.want, Run(r).Steps[3].PassedOver, tt.ask+" "+tt.booked)
	}
}

// TestOnlyDate: a value that is a date and nothing else reads as one
// normal form however it is written; a month and its year as "2006-01".
func TestOnlyDate(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		ok       bool
	}{
		{"2026-06", "2026-06", true},
		{"06/2026", "2026-06", true},
		{"June 2026", "2026-06", true},
		{"2026-06-30", "2026-06-30", true},
		{"2026-13", "", false},
		{"2023-24", "", false},
		{"as of June 2026", "", false},
	} {
		got, ok := OnlyDate(tt.in)
		assert.Equal(t, tt.ok, ok, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
	}
}
