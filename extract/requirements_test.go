package extract

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestRequirements: the constraints a task states, read as a requirement
// each with the words that tell of it, and the steps that take each up
// (not the task's own text a step restates); a rounding's places, and
// whether the final answer keeps them; whether it keeps a unit asked for
// (writes it, or gives its figures bare). A task's boilerplate ("you must
// make sure you find the correct answer") and a rounding to significant
// figures are no requirement read.
func TestRequirements(t *testing.T) {
	type req struct {
		Text   string
		Terms  []string
		Places int
		Unit   bool
		Kept   bool
		Stated []int32
	}
	for _, tc := range []struct {
		name  string
		task  string
		steps []string // after the task's own step
		want  []req
	}{
		{"a statistic other than the average", "What is the median order value of the card payments?",
			[]string{"Plan: load payments.csv and average order_value.", "print(card['order_value'].quantile(0.5))"},
			[]req{{"median", []string{"median", "quantil"}, -1, false, false, []int32{2}}}},
		{"a tax to include", "What is the total of 4 pens at $1.25 including 8% sales tax?",
			[]string{"Plan: add up the pens.", "4 x 1.25 = 5.00", "5.00 x 1.08 = 5.40"},
			[]req{{"including 8% sales tax", []string{"8%", "0.08", "1.08", "sale", "tax"}, -1, false, false, []int32{3}}}},
		{"a charge to add by its rate", "Write order_total(subtotal): take 15% off over $100, then add 8% sales tax. Add 2 items to the cart first.",
			[]string{"## Requirement Analysis\nOrders over $100 get 15% off.", "TAX_RATE = 0.08"},
			[]req{{"add 8% sales tax", []string{"8%", "0.08", "1.08", "sale", "tax"}, -1, false, false, []int32{2}}, {"over $100", []string{"100"}, -1, false, false, []int32{1}}}},
		{"an exclusion", "List the staff for Saturday, excluding anyone who worked last Saturday. Roster: Ana (worked last Saturday), Ben.",
			[]string{"Saturday list: Ana, Ben."},
			[]req{{"excluding anyone who worked last Saturday", []string{"exclud", "except", "omit", "remov", "without", "skip", "leav"}, -1, false, false, nil}}},
		{"a restriction and a unit", "A clinic is open only on weekdays, 6 hours a day. How long is it open over 4 weeks, in hours?",
			[]string{"Task: A clinic is open only on weekdays, 6 hours a day. How long is it open over 4 weeks, in hours?\nPlan: multiply 28 days by 6.", "168 hours."},
			[]req{{"only on weekdays", []string{"only", "weekday"}, -1, false, false, nil}, {", in hours", []string{"hour", "h", "hrs"}, -1, true, true, []int32{2}}}},
		{"a unit the answer gives another of", "A cyclist rides at 12 miles per hour for 2.5 hours. How far does she ride, in kilometres?",
			[]string{"12 x 2.5 = 30. FINAL ANSWER: 30 miles"},
			[]req{{", in kilometres", []string{"kilomet", "km"}, -1, true, false, nil}}},
		{"a unit the answer writes no other of", "What was the lowest temperature in Oslo in January 2021, in celsius?",
			[]string{"The lowest reading was -17.9 C.", "FINAL ANSWER: -17.9"},
			[]req{{", in celsius", []string{"celsius", "°c"}, -1, true, true, nil}}},
		{"a bare answer an earlier step gave in another unit", "How far is it from Paris to Berlin by straight line, in kilometres?",
			[]string{"Plan: compute the distance and report it in miles.", "The distance is 545.5 miles.", "FINAL ANSWER: 545.5"},
			[]req{{", in kilometres", []string{"kilomet", "km"}, -1, true, false, nil}}},
		{"a bare answer an earlier step gave in the unit asked", "How far is it from Paris to Berlin by straight line, in kilometres?",
			[]string{"The distance is 878 km, about 545.5 miles.", "FINAL ANSWER: 878"},
			[]req{{", in kilometres", []string{"kilomet", "km"}, -1, true, true, []int32{1}}}},
		{"a bare answer beside another figure given in another unit", "How far is it from Paris to Berlin by straight line, in kilometres?",
			[]string{"By road it is 650 miles; in a straight line 878.", "FINAL ANSWER: 878"},
			[]req{{", in kilometres", []string{"kilomet", "km"}, -1, true, true, nil}}},
		{"a bare answer beside a unit of another quantity", "What will the temperature in Oslo be tomorrow at noon, in celsius?",
			[]string{"The forecast for the next 3 hours shows light snow.", "FINAL ANSWER: 3"},
			[]req{{", in celsius", []string{"celsius", "°c"}, -1, true, true, nil}}},
		{"a bare answer beside a word a unit begins", "How long does the talk last, in minutes?",
			[]string{"The talk has 4 sections.", "FINAL ANSWER: 4"},
			[]req{{", in minutes", []string{"minute", "min", "mins"}, -1, true, true, nil}}},
		{"a bare answer beside a word a currency begins", "What does the trip cost per person, in dollars?",
			[]string{"We visit 2 european cities.", "FINAL ANSWER: 2"},
			[]req{{", in dollars", []string{"dollar", "usd", "$"}, -1, true, true, nil}}},
		{"a part of the week, which a plan drops", "Find the cheapest direct flight from Boston to Chicago departing on a weekday in the week of 2024-03-11.",
			[]string{"Plan: search flights from 2024-03-11 to 2024-03-17 and pick the cheapest.", "tool: [{\"date\": \"2024-03-16\", \"weekday\": \"Saturday\"}]", "Cheapest: 2024-03-16."},
			[]req{{"on a weekday", []string{"weekday", "monday", "friday"}, -1, false, false, nil}}},
		{"a part of the week a plan takes up by its days", "Book a table at the weekend for 4.",
			[]string{"Plan: look for a free table on Saturday or Sunday."},
			[]req{{"at the weekend", []string{"weekend", "saturday", "sunday"}, -1, false, false, []int32{1}}}},
		{"no part of the week a trip was made over", "I went to Paris over the weekend. What museum did I see?",
			[]string{"You saw the Louvre."},
			nil},
		{"no part of the week told of the past", "We were in Rome at the weekend. Which museum did we see?",
			[]string{"You saw the Vatican Museums."},
			nil},
		{"no part of the week a shop is closed on", "The shop is closed on weekends. When does it open on Monday?",
			[]string{"It opens at 9."},
			nil},
		{"no part of the week when the question asks for a weekday", "What weekday was 1 January 2020?",
			[]string{"It was a Wednesday."},
			nil},
		{"a bound and what a function must do", "Write check(name): names must be at most 20 characters, and it must ignore blanks.",
			[]string{"Requirements: check(name) returns True for a name."},
			[]req{{"at most 20", []string{"20", "limit", "maximum", "minimum", "exceed"}, -1, false, false, nil}, {"be at most 20 characters", []string{"character"}, -1, false, false, nil}, {"ignore blanks", []string{"ignor", "blank"}, -1, false, false, nil}}},
		{"a threshold, written as a figure", "Price parcels at $1.50 for every kg above 2 kg, and orders over $100 ship free.",
			[]string{"## Requirement Pool\n- P0: 1.50 per kg", "FREE_KG = 2.0", "if total >= 100.00: return 0"},
			[]req{{"above 2", []string{"2"}, -1, false, false, []int32{2}}, {"over $100", []string{"100"}, -1, false, false, []int32{3}}}},
		{"a price cap written with its currency after it", "Book me a hotel near Baixa for 2 nights, under 120 EUR per night. It should be quiet for over 4 weeks.",
			[]string{"search_hotels(city=Lisbon, max_price=120)"},
			[]req{{"under 120 EUR", []string{"120"}, -1, false, false, []int32{1}}}},
		{"a bound and a threshold every reader of bounds knows", "List the albums with more than 10 tracks, up to 5 of them, released over 4 years.",
			[]string{"Filter: tracks > 10, keep 5."},
			[]req{{"up to 5", []string{"5", "limit", "maximum", "minimum", "exceed"}, -1, false, false, []int32{1}}, {"more than 10", []string{"10"}, -1, false, false, []int32{1}}}},
		{"a rounding the answer keeps", "How many litres for 340 km at 6.5 l/100 km, rounded up to whole litres?",
			[]string{"3.4 x 6.5 = 22.1", "FINAL ANSWER: 23"},
			[]req{{"rounded up", []string{"round", "nearest", "whole", "integer", "ceil", "floor", "trunc"}, 0, false, true, nil}}},
		{"a rounding to places the answer does not keep", "Convert 5 kg to pounds, rounded to one decimal place.",
			[]string{"FINAL ANSWER: 11.0231"},
			[]req{{"rounded to one decimal place", []string{"round", "decimal", "places", "nearest"}, 1, false, false, nil}}},
		{"a format", "Give the date in YYYY-MM-DD format.", []string{"1 March 2024"},
			[]req{{"in YYYY-MM-DD format", []string{"yyyy-mm-dd", "format"}, -1, false, false, nil}}},
		{"a data format by its name", "Convert 20 C and 25 C to Fahrenheit and return them as a JSON list.",
			[]string{"Plan: convert each and return a JSON list.", "68, 77"},
			[]req{{"as a JSON", []string{"json", "format"}, -1, false, false, []int32{1}}}},
		{"a round trip asks no rounding", "The drive is 150 km each way, at 6.5 litres per 100 km. How many litres does a round trip use?",
			[]string{"Plan: double the distance, then multiply.", "300 x 6.5 / 100 = 19.5"}, nil},
		{"a rounding asked of what follows the verb", "The drive is 150 km each way, at 6.5 litres per 100 km. How many litres does it use there and back? Round your result.",
			[]string{"300 x 6.5 / 100 = 19.5", "FINAL ANSWER: 20"},
			[]req{{"Round", []string{"round", "nearest", "whole", "integer", "ceil", "floor", "trunc"}, 0, false, true, nil}}},
		{"a data format the input was given in", "Our store exported last quarter's sales as a CSV file; the rows are below.\nmonth,units\nJuly,120\n\nHow many units were sold?",
			[]string{"Plan: add the units.", "120"}, nil},
		{"a data format asked with the answer as subject", "The list of names must be returned as a JSON array.",
			[]string{"[\"Ada\"]"},
			[]req{{"as a JSON", []string{"json", "format"}, -1, false, false, nil}, {"be returned as a JSON array", []string{"return", "json", "array"}, -1, false, false, nil}}},
		{"a data format a user needs", "I need last month's orders as CSV.",
			[]string{"id,total"},
			[]req{{"as CSV", []string{"csv", "format"}, -1, false, false, nil}}},
		{"a rounding of each value", "Convert 20 C and 25 C to Fahrenheit. Round each to one decimal place.",
			[]string{"FINAL ANSWER: 68.0, 77.0"},
			[]req{{"Round each to one decimal place", []string{"round", "decimal", "places", "nearest"}, 1, false, true, nil}}},
		{"what must be done told by a hyphenated compound, and a step that writes its opposite", "Add a title search. The search must be case-insensitive and match any part of a title.",
			[]string{"## Requirement Pool\n- P0: substring match on titles, case-insensitive", "## Implementation approach\nfind() filters with query in t; case-sensitive."},
			[]req{{"be case-insensitive", []string{"insensitiv"}, -1, false, false, []int32{1}}, {"match any part of a title", []string{"match", "part"}, -1, false, false, []int32{1}}}},
		{"a file the task requires by name", "Write a to-do service. The deploy runs `uvicorn app:app`, so the entry point must be app.py.",
			[]string{"## File list\n- app.py\n- store.py", "## Code: main.py\napp = FastAPI()", "## Code Review: myapp.py"},
			[]req{{"be app.py", []string{"app.py"}, -1, false, false, []int32{1}}}},
		{"a qualifier written as a compound, which a tool's output writes but does not take up", "Book me a non-stop flight from Lisbon to Toronto on 14 September 2026, with a self-service kiosk check-in.",
			[]string{`search_flights({"origin": "LIS", "destination": "YYZ"})`, `tool: [{"flight_id": "TP259", "non_stop": true}]`, "Plan: book TP259, a non-stop flight."},
			[]req{{"non-stop", []string{"non", "stop"}, -1, false, false, []int32{3}}}},
		{"a place the thing asked for must be in", "Find a supplier of recycled boxes based in Canada that delivers to Winnipeg.",
			[]string{"Searching suppliers that deliver to Winnipeg.", "Prairie Carton Co. is in Manitoba, Canada."},
			[]req{{"based in Canada", []string{"canada"}, -1, false, false, []int32{2}}}},
		{"a property of the numbers counted, which a plan leaves out and code takes up by a remainder", "How many three-digit numbers are even and have digits that add up to 12?",
			[]string{"Plan: loop over 100 to 999 and count the numbers whose digit sum is 12.", "count = sum(1 for n in range(100, 1000) if n % 2 == 0 and sum(map(int, str(n))) == 12)"},
			[]req{{"numbers are even", []string{"even", "odd", "parit", "%"}, -1, false, false, []int32{2}}}},
		{"a property written before the numbers, and one by a divisor", "Find the sum of all prime numbers less than 50 that are not multiples of 3. Then list the integers that are divisible by 7.",
			[]string{"Use sympy.isprime on each n less than 50."},
			[]req{{"prime numbers", []string{"prime", "composit", "isprime", "primerange", "factorint", "sieve"}, -1, false, false, []int32{1}},
				{"integers that are divisible by 7", []string{"divisib", "multipl", "%", "7"}, -1, false, false, nil},
				{"less than 50", []string{"50"}, -1, false, false, []int32{1}}}},
		{"even as a word of degree is no property", "Tom has 12 apples and Ann has even more: 5 more than Tom. How many apples does Ann have?",
			[]string{"12 + 5 = 17"}, nil},
		{"boilerplate and significant figures", "You must make sure you find the correct answer. Give the mass rounded to 3 significant figures.",
			[]string{"FINAL ANSWER: 1.23"}, nil},
		{"a 24-hour time the answer writes so", "At what time does the museum open on Mondays? Give the time in 24-hour format.",
			[]string{"The page says it opens at 10:00.", "FINAL ANSWER: 10:00"},
			[]req{{"in 24-hour format", []string{"24-hour", "format"}, -1, false, true, nil}}},
		{"a 24-hour time the answer writes with a.m.", "At what time does the museum open on Mondays? Give the time in 24-hour format.",
			[]string{"FINAL ANSWER: 10:00 a.m."},
			[]req{{"in 24-hour format", []string{"24-hour", "format"}, -1, false, false, nil}}},
		{"a 12-hour time the answer writes with pm", "When does the last train leave? Answer in 12-hour format.",
			[]string{"FINAL ANSWER: 11:40 PM"},
			[]req{{"in 12-hour format", []string{"12-hour", "format"}, -1, false, true, nil}}},
		{"a thing to have none of", "I am going from Vienna to Prague with no flights (overland only). How long is the fastest trip?",
			[]string{"Brief: fastest connection from Vienna to Prague.", "Fastest is a direct flight, 1 h 05 min.", "Without flights: the train, 4 h."},
			[]req{{"with no flights", []string{"exclud", "except", "omit", "remov", "without", "skip", "leav", "avoid"}, -1, false, false, []int32{3}}}},
		{"a 24-hour time beside the word am", "At what time does the museum open on Mondays? Give the time in 24-hour format.",
			[]string{"FINAL ANSWER: I am sure it opens at 10:00"},
			[]req{{"in 24-hour format", []string{"24-hour", "format"}, -1, false, true, nil}}},
		{"a 12-hour time with no meridiem, beside the word am", "When does the last train leave? Answer in 12-hour format.",
			[]string{"FINAL ANSWER: I am told it leaves at 23:40"},
			[]req{{"in 12-hour format", []string{"12-hour", "format"}, -1, false, false, nil}}},
		{"a duration is no 24-hour time", "At what time does the museum open on Mondays? Give the time in 24-hour format.",
			[]string{"FINAL ANSWER: the tour lasts 45:30"},
			[]req{{"in 24-hour format", []string{"24-hour", "format"}, -1, false, false, nil}}},
		{"a qualifier written as one word, which a plan drops and a tool's output writes", "Book us a vegetarian restaurant in Lyon for 4 people on Friday.",
			[]string{"Plan: find restaurants in Lyon with a table for 4.", `tool: [{"name": "Culina Hortus", "cuisine": "vegetarian"}]`, "Booked Le Bouchon."},
			[]req{{"vegetarian", []string{"vegetarian"}, -1, false, false, nil}}},
		{"a nonstop flight and a halal meal", "Find me a nonstop flight to Doha with a halal meal.",
			[]string{"Searching nonstop flights with halal meals."},
			[]req{{"nonstop", []string{"nonstop"}, -1, false, false, []int32{1}}, {"halal", []string{"halal"}, -1, false, false, []int32{1}}}},
		{"a qualifier that is part of a name", "Summarize the history of the Vegan Society for our newsletter, and list the Kosher Kitchen's opening hours.",
			[]string{"Plan: search the society's history, then the opening hours."},
			nil},
		{"a qualifier in a title-cased task is no name for its capital", "Book a Vegetarian Restaurant for Friday",
			[]string{"Plan: find a restaurant for Friday."},
			[]req{{"Vegetarian", []string{"vegetarian"}, -1, false, false, nil}}},
		{"nor in a title-cased line of a longer task", "Task: Find a Halal Restaurant Near the Station.\nWe are 4 people and arrive at 7 pm.",
			[]string{"Plan: find a restaurant near the station."},
			[]req{{"Halal", []string{"halal"}, -1, false, false, nil}}},
		{"a qualifier the task denies", "I'm not vegetarian and my wife isn't vegan either, so find us a good barbecue place in Austin; it needn't be halal.",
			[]string{"Plan: search barbecue places in Austin."},
			nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &run.Run{Question: tc.task, Steps: []run.Step{{Index: 0, Agent: "user", Kind: run.KindUser, Content: tc.task}}}
			for i, s := range tc.steps {
				kind := run.KindMessage
				if out, ok := strings.CutPrefix(s, "tool: "); ok {
					s, kind = out, run.KindToolResult // a tool's output
				}
				r.Steps = append(r.Steps, run.Step{Index: i + 1, Agent: "agent", Kind: kind, Content: s})
			}
			var got []req
			for _, q := range Run(r).Requirements {
				got = append(got, req{q.Text, q.Terms, q.Places, q.Unit, q.Kept, q.Stated})
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestComputes: the figures a step works out, where an arithmetic
// expression comes to them, as its claims' values; not a figure stated
// as given ("1 EUR = 1.30 USD", an assignment in code).
func TestComputes(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"North + East = 1,520 + 1,100 = 2,620 units. Revenue = 2,620 x 4 = 10,480.", []string{"2620", "10480"}},
		{"25 x 9/5 = 45. 45 + 23 = 68.", []string{"45", "68"}},
		{"Tip = 0.15 x 240 = 36. Total = 240 + 36 = 276.", []string{"36", "276"}},
		{"For the conversion we use the current rate 1 EUR = 1.30 USD.", nil},
		{"```python\nPER_KG = 2.50\nBASE_FEE = 5.00\n```", nil},
		{"At 1.5× speed: 2.45 / 1.5 ≈ 1.633 hours, and 1.633 × 60 ≈ 98 minutes.", []string{"1.633", "98"}},
		{"A width of about 8 m ≈ 26 feet.", nil},
		{"The side is √144 = 12 cm, and 2^10 = 1,024 bytes.", []string{"12", "1024"}},
	} {
		t.Run(tc.text, func(t *testing.T) {
			r := &run.Run{Question: "q", Steps: []run.Step{{Index: 0, Agent: "agent", Kind: run.KindMessage, Content: tc.text}}}
			assert.Equal(t, tc.want, Run(r).Steps[0].Computes)
		})
	}
}

// TestStatedReadsEachStepOnce: what reading a step costs does not grow
// with the requirements the task states, so that a run of thousands of
// steps under a long task of many requirements reads in time linear in
// its steps plus its requirements, not in their product.
func TestStatedReadsEachStepOnce(t *testing.T) {
	step := run.Step{Agent: "agent", Kind: run.KindMessage, Content: "We went through the list again and wrote down each of the names with the hours they worked, 7 and 8 and 9."}
	reqsOf := func(n int) []Requirement {
		out := make([]Requirement, n)
		for i := range out {
			out[i] = Requirement{Text: "at most 20", Terms: []string{"20", "limit", "maximum", "minimum", "exceed"}, Places: -1}
		}
		return out
	}
	perStep := func(reqs int) float64 {
		one := testing.AllocsPerRun(5, func() { stated(reqsOf(reqs), "task", []run.Step{step}) })
		two := testing.AllocsPerRun(5, func() { stated(reqsOf(reqs), "task", []run.Step{step, step}) })
		return two - one
	}
	assert.Equal(t, perStep(1), perStep(40), "allocations to read one more step, under 1 and under 40 requirements")
}

// TestMiscomputes: an expression of bare numbers that does not come to
// the number after its "=" is a slip; one that does (to the places its
// result is written with), an assignment, a comparison in code, a range
// of years and figures with units between them are not.
func TestMiscomputes(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"Notebooks: 6 x 4 = 24. Pens: 10 x 1.50 = 15. Total: 24 + 15 = 38.", true},
		{"4 x 12 = 46. She paid $46.", true},
		{"North + East = 1,520 + 1,100 = 2,620 units. Revenue = 2,620 x 4 = 10,480.", false},
		{"25 x 9/5 = 45. 45 + 23 = 68.", false},
		{"5.00 + 10 x 1.50 = 20.00 dollars.", false},
		{"25 / 3 = 8.33, so about 8.", false},
		{"Total = $240 + $36 = $276.", false},
		{"```python\nRATE = 1.30\nif 2 + 2 == 5:\n    x = a + 1\n```", false},
		{"Papers from 2015-2020 = 11 in all.", false},
		{"1.5 x 60 min = 90 min; 8% of 50 = 4.", false},
		{"3 ÷ 8 × 240 = 90 muffins.", false},
		{"96 ÷ 8 = 13 bags.", true},
		{"3 · 4 = 13", true},
		{"24 mod 7 = 4, since 24 = 3 × 7 + 4.", true},
		{"25 mod 7 = 4", false},
		{"The side is √144 = 14 cm.", true},
		{"The side is √144 = 12 cm.", false},
		{"2^5 = 30", true},
		{"3 x 2^5 = 96, and 2 ^ 3 ^ 2 = 512.", false},
	} {
		t.Run(tc.text, func(t *testing.T) {
			assert.Equal(t, tc.want, miscomputes(tc.text))
		})
	}
}

// TestAskedUnits: the unit a question counts its answer in, without
// asking it as a requirement ("in minutes").
func TestAskedUnits(t *testing.T) {
	for _, tc := range []struct {
		task string
		want []string
	}{
		{"Starting empty, how many minutes until the tank is full?", []string{"minute", "min", "mins"}},
		{"How far in kilometres is it, and how long does it take?", []string{"kilomet", "km"}},
		{"How many studio albums did she release?", nil},
		{"How much money is left?", nil},
	} {
		t.Run(tc.task, func(t *testing.T) {
			r := &run.Run{Question: tc.task, Steps: []run.Step{{Index: 0, Agent: "agent", Kind: run.KindMessage, Content: "Working on it."}}}
			assert.Equal(t, tc.want, Run(r).AskedUnits)
		})
	}
}

// TestAsksExtreme: whether a question asks for the most or the least of
// something; "at most" and "at least" bound a value instead, and a
// question that asks both asks neither.
func TestAsksExtreme(t *testing.T) {
	for _, tc := range []struct {
		task string
		want int
	}{
		{"Which product category has the highest average order value?", 1},
		{"Which city has the most customers?", 1},
		{"Which month had the lowest total sales?", -1},
		{"Which team closed the fewest tickets in May?", -1},
		{"List the orders of at most 3 items placed at least twice.", 0},
		{"Which store had the highest and which the lowest revenue?", 0},
		{"How many orders were shipped to Texas?", 0},
	} {
		t.Run(tc.task, func(t *testing.T) {
			assert.Equal(t, tc.want, asksExtreme(tc.task))
		})
	}
}

// A step that writes a requirement's terms only to say it is not needed
// ("no file storage is needed") denies it; one that takes it up, or says
// something else is not needed, does not.
func TestRequirementDenied(t *testing.T) {
	task := "Write a snake game; the top 5 high scores must be saved to a CSV file so they persist between games."
	for _, tc := range []struct {
		name, step string
		denied     bool
	}{
		{"no storage needed", "Scores are kept in a list during the session; no file storage is needed, which keeps it simple.", true},
		{"not required", "Design: the CSV file is not required for the first version.", true},
		{"no need for", "There is no need to persist scores between games.", true},
		{"taken up", "Design: scores.py saves the top 5 to highscores.csv at game over.", false},
		{"another thing not needed", "Scores are saved to highscores.csv; no network access is needed.", false},
		{"no doubt it is needed", "No doubt csv is required here: scores.py saves the top 5 to highscores.csv.", false},
		{"no question it is needed", "There is no question csv output is required, so scores persist between games.", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &run.Run{Question: task, Steps: []run.Step{
				{Index: 0, Agent: "user", Kind: run.KindUser, Content: task},
				{Index: 1, Agent: "architect", Kind: run.KindMessage, Content: tc.step},
			}}
			reqs := Run(r).Requirements
			require.Len(t, reqs, 1)
			assert.Equal(t, []int32{1}, reqs[0].Stated)
			if tc.denied {
				assert.Equal(t, []int32{1}, reqs[0].Denied)
			} else {
				assert.Empty(t, reqs[0].Denied)
			}
		})
	}
}
