package rules

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestDataFlowDroppedRequirement: a planner lays out a task's work without
// a requirement the task states (a tax to include, a rounding), the
// executor carries the plan out faithfully and the answer misses the
// requirement: the answer's value is the plan's, not the executor's who
// computed it. A requirement the plan carries, that a later step takes up,
// or that the answer keeps (a whole number for a rounding to one) moves
// nothing; nor does one when an executor slipped in its own arithmetic
// after the plan (a requirement met in other words, or one the answer
// needs nothing for, beside a wrong sum), nor a unit asked for that the
// answer gives no other unit than (a reading's "C" for "celsius"), nor
// a plan an agent carries out itself (a single assistant's). A re-plan
// that drops a requirement the first plan kept is the plan, also for the
// values of the first plan it carries on (the bounds of a range). The shape is a planner, executor and summariser team without
// tools, as AutoGen's group chats and MetaGPT-like pipelines write it.
func TestDataFlowDroppedRequirement(t *testing.T) {
	const (
		taxTask   = "A bookshop order: 4 notebooks at $3.50 each and 2 pens at $1.25 each. What is the total including 8% sales tax?"
		shipTask  = "Write shipping_cost(weight_kg) for our web shop: a base fee of $5.00 plus $1.50 for every kg above 2 kg. Report the cost of shipping a 10 kg parcel."
		roundTask = "A car uses 6.5 litres of fuel per 100 km. How many litres does it need for a 340 km trip, rounded up to whole litres?"
		wrapTask  = "A shop sells notebooks at $4 each and pens at $1.50 each. Ana buys 6 notebooks and 10 pens. How much does she pay in total, not counting the gift wrapping?"
		roadTask  = "How far is it by road from Lyon to Geneva, in kilometres, rounded to the nearest whole number?"
		tempTask  = "What was the lowest temperature recorded in Oslo in January 2021, in celsius?"
		primeTask = "List the prime numbers between 10 and 40, excluding those that end in the digit 3."
		medTask   = "What is the median value of the 5 card orders: $12, $15, $40, $90 and $95?"
		gymTask   = "The gym charges $12 per class. Lena attended classes on Mon, Tue, Sat, Wed, Sun and Fri last week. How much did she pay, given that she is charged only on weekdays?"
	)
	user := func(c string) msg { return msg{agent: "user", content: c, kind: run.KindUser} }
	say := func(agent, c string) msg { return msg{agent: agent, content: c} }
	taxPlan := say("planner", "Plan:\n1. Multiply the notebooks by their unit price.\n2. Multiply the pens by theirs.\n3. Add the two subtotals.")
	taxWork := say("executor", "4 x 3.50 = 14.00. 2 x 1.25 = 2.50. 14.00 + 2.50 = 16.50.")
	for _, tc := range []struct {
		name  string
		task  string
		msgs  []msg
		first int // the step data_flow_origin names first
	}{
		{"the plan drops the tax", taxTask, []msg{user(taxTask), taxPlan, taxWork, say("summariser", "The total is $16.50.")}, 1},
		{"the plan averages where the median is asked", medTask, []msg{user(medTask),
			say("planner", "Plan:\n1. Add up the five order values.\n2. Divide by 5."),
			say("executor", "12 + 15 + 40 + 90 + 95 = 252. 252 / 5 = 50.40."), say("summariser", "The answer is $50.40.")}, 1},
		{"the plan carries the median, the executor averages", medTask, []msg{user(medTask),
			say("planner", "Plan:\n1. Sort the five order values.\n2. Take the median, the middle one."),
			say("executor", "12 + 15 + 40 + 90 + 95 = 252. 252 / 5 = 50.40."), say("summariser", "The answer is $50.40.")}, 2},
		{"the plan carries the tax, the executor drops it", taxTask, []msg{user(taxTask),
			say("planner", "Plan:\n1. Multiply the notebooks by their unit price.\n2. Multiply the pens by theirs.\n3. Add the subtotals and add the 8% sales tax."),
			taxWork, say("summariser", "The total is $16.50.")}, 2},
		{"a later step takes the tax up", taxTask, []msg{user(taxTask), taxPlan, taxWork, say("summariser", "The total is $16.50; the tax is already in the unit prices.")}, 2},
		{"a product manager's spec drops the threshold", shipTask, []msg{user(shipTask),
			say("ProductManager", "## Original Requirements\nshipping_cost(weight_kg) for the web shop.\n\n## Requirement Pool\n- P0: a base fee of 5.00 plus 1.50 per kg"),
			say("Architect", "## Implementation approach\nshipping.py with BASE_FEE = 5.00 and PER_KG = 1.50."),
			say("Engineer", "## Code: shipping.py\n```python\nBASE_FEE = 5.00\nPER_KG = 1.50\n\ndef shipping_cost(weight_kg):\n    return BASE_FEE + weight_kg * PER_KG\n```"),
			say("Engineer", "Shipping a 10 kg parcel costs 5.00 + 10 x 1.50 = 20.00 dollars.")}, 1},
		{"the plan drops the rounding", roundTask, []msg{user(roundTask),
			say("planner", "Plan:\n1. Divide the distance by 100.\n2. Multiply by the consumption."),
			say("executor", "340 / 100 = 3.4. 3.4 x 6.5 = 22.1 litres."), say("summariser", "The trip needs 22.1 litres of fuel.")}, 1},
		{"the answer keeps the rounding", roundTask, []msg{user(roundTask),
			say("planner", "Plan:\n1. Divide the distance by 100.\n2. Multiply by the consumption."),
			say("executor", "340 / 100 = 3.4. 3.4 x 6.5 = 22.1, so 21 litres."), say("summariser", "The trip needs 21 litres of fuel.")}, 2},
		{"the executor slips in its own sum under a plan that drops a clause", wrapTask, []msg{user(wrapTask),
			say("planner", "Plan:\n1. Work out the cost of the notebooks and of the pens.\n2. Add them up."),
			say("executor", "Notebooks: 6 x 4 = 24. Pens: 10 x 1.50 = 15. Total: 24 + 15 = 38."),
			say("checker", "Agreed: the notebooks cost $24 and the pens $15, so the total is $38.")}, 2},
		{"the executor slips in its product under a plan that restates the restriction in other words", gymTask, []msg{user(gymTask),
			say("planner", "Plan:\n1. Pick the Monday-to-Friday classes from the list.\n2. Multiply their number by the price."),
			say("executor", "Monday-to-Friday classes: Mon, Tue, Wed, Fri, that is 4 classes. 4 x 12 = 46. She paid $46."),
			say("checker", "Checked: 4 classes at $12 make $46.")}, 2},
		{"the answer gives no other unit than the one asked", tempTask, []msg{user(tempTask),
			say("orchestrator", "Here is the plan to follow as best as possible:\n- The surfer finds the January 2021 records of Oslo's stations.\n- Report the lowest one."),
			say("surfer", "The Blindern table shows a lowest reading of -17.9 C on 16 January 2021."),
			say("orchestrator", "FINAL ANSWER: -17.9")}, 2},
		{"a re-plan drops the exclusion and carries the first plan's bounds", primeTask, []msg{user(primeTask),
			say("planner", "Plan:\n1. List the integers from 11 to 39.\n2. Keep the primes.\n3. Remove every prime that ends in the digit 3."),
			say("critic", "Step 1 is wasteful: test only odd numbers."),
			say("planner", "Revised plan:\n1. List the odd integers from 11 to 39.\n2. Keep the primes and report them."),
			say("executor", "Primes: 11, 13, 17, 19, 23, 29, 31, 37"),
			say("executor", "Final answer: 11, 13, 17, 19, 23, 29, 31, 37")}, 3},
		{"one agent carries out its own plan that drops the rounding", roadTask, []msg{user(roadTask),
			say("assistant", "Plan: find the road distance between the two cities, then report it."),
			say("assistant", "By the A40 the road distance from Lyon to Geneva comes to 150.7 km."),
			say("assistant", "The road distance from Lyon to Geneva is 150.7 km.")}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := DataFlowOrigin.Run(prepare(t, tc.task, "", tc.msgs...))
			if assert.NotEmpty(t, fs) {
				assert.Equal(t, tc.first, fs[0].Step)
			}
		})
	}
}

// TestDataFlowHandedOperand: a step works out the answer in prose with a
// figure another agent stated earlier in place of the task's (a rate, a
// count of the task's table written otherwise): that statement is where
// the value came from. A subtotal another agent worked out, a figure of
// the method the task gives no figure of the kind of, a figure derived
// from the task's with the factor written beside it ("over four quarters
// comes to $6,000" for "$1,500 per quarter"), and the task's own figures
// move nothing. The shape is a team without tools, as AutoGen's
// group chats write it.
func TestDataFlowHandedOperand(t *testing.T) {
	const (
		rateTask  = "A trip costs 450 EUR. Using an exchange rate of 1 EUR = 1.10 USD, how much is it in USD?"
		roomsTask = "Room A holds 14 shelves of 25 boxes and room B holds 6 shelves of 30 boxes. How many boxes in total?"
		angleTask = "What is the sum of the interior angles of a convex heptagon, in degrees?"
		rentTask  = "The office rent is $1,500 per quarter. Next year the rent goes up by 3%. What will the annual rent be next year?"
		salesTask = "A bakery sells 240 loaves a day at $3.50 each. It raises the price by 20% and expects sales to fall by 15%. What is its daily revenue then?"
	)
	user := func(c string) msg { return msg{agent: "user", content: c, kind: run.KindUser} }
	say := func(agent, c string) msg { return msg{agent: agent, content: c} }
	for _, tc := range []struct {
		name   string
		task   string
		msgs   []msg
		blamed []int // the steps data_flow_origin names
	}{
		{"a rate stated in place of the task's", rateTask, []msg{user(rateTask), say("analyst", "For the conversion we use the current rate 1 EUR = 1.30 USD."),
			say("calculator", "450 x 1.30 = 585 USD."), say("writer", "The trip costs 585 USD.")}, []int{1}},
		{"the task's rate", rateTask, []msg{user(rateTask), say("analyst", "For the conversion we use the rate the task gives."),
			say("calculator", "450 x 1.10 = 485 USD."), say("writer", "The trip costs 485 USD.")}, []int{2}},
		{"a subtotal another agent worked out", roomsTask, []msg{user(roomsTask), say("worker1", "Room A: 14 x 25 = 350 boxes."),
			say("worker2", "Room B: 6 x 30 = 160 boxes."), say("aggregator", "Total = 350 + 160 = 510 boxes.")}, []int{1, 2, 3}},
		{"a figure of the method", angleTask, []msg{user(angleTask), say("affirmative", "The sum is (n - 2) x 180 degrees, so 5 x 180 = 900 degrees."),
			say("negative", "No: (n - 1) x 180 degrees, so 6 x 180 = 1080 degrees."), say("judge", "The sum is 1080 degrees.")}, []int{2}},
		{"a figure derived from the task's with the factor written", rentTask, []msg{user(rentTask), say("finance", "This year the rent over four quarters comes to $6,000 a year."),
			say("math", "Applying the increase: 6,000 x 1.3 = 7,800. Next year's annual rent is $7,800."), say("checker", "Confirmed: $7,800.")}, []int{2}},
		{"a figure handed to an agent that worked the answer out over its own steps", salesTask, []msg{user(salesTask),
			say("owner", "Instruction: Compute the new price.\nInput: $3.50 and a 20% rise."), say("analyst", "Solution: $3.50 x 1.20 = $4.20. Next request."),
			say("owner", "Instruction: Compute the daily sales after the change.\nInput: 240 loaves, and sales fall by 25%."),
			say("analyst", "Solution: A 25% fall leaves 240 x 0.75 = 180 loaves. Next request."),
			say("analyst", "Revenue = 180 x $4.20 = $756.00.")}, []int{2, 3}},
		{"the same work from the task's own figure, one of whose steps slips", salesTask, []msg{user(salesTask),
			say("owner", "Instruction: Compute the new price.\nInput: $3.50 and a 20% rise."), say("analyst", "Solution: $3.50 x 1.20 = $4.20. Next request."),
			say("owner", "Instruction: Compute the daily sales after the change.\nInput: 240 loaves, and sales fall by 15%."),
			say("analyst", "Solution: A 15% fall leaves 240 x 0.85 = 194 loaves. Next request."),
			say("analyst", "Revenue = 194 x $4.20 = $814.80.")}, []int{2, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := DataFlowOrigin.Run(prepare(t, tc.task, "", tc.msgs...))
			got := steps(fs, true)
			slices.Sort(got)
			assert.Equal(t, tc.blamed, got)
		})
	}
}

// TestDataFlowAnswerInTheAskedUnit: a ground truth given as a bare number
// ("48.27") for a task that asks the answer in a unit ("in kilometres") is
// reached by the step that states the number in that unit ("48.27 km"):
// the summary that then reports an intermediate figure ("30 miles")
// dropped it. The number in another unit is another quantity.
func TestDataFlowAnswerInTheAskedUnit(t *testing.T) {
	const task = "A cyclist rides at 12 miles per hour for 2.5 hours. How far does she ride, in kilometres? Use 1 mile = 1.609 km."
	user := msg{agent: "user", content: task, kind: run.KindUser}
	plan := msg{agent: "planner", content: "Plan:\n1. Distance in miles = 12 x 2.5.\n2. Convert it to kilometres."}
	for _, tc := range []struct {
		name, solver string
		blamed       []int
	}{
		{"reached in the asked unit", "12 x 2.5 = 30 miles. 30 x 1.609 = 48.27 km.", []int{3}},
		{"the number in another unit", "12 x 2.5 = 30 miles. That is 48.27 mi in all.", []int{2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := DataFlowOrigin.Run(prepare(t, task, "48.27", user, plan, msg{agent: "solver", content: tc.solver}, msg{agent: "summarizer", content: "She rides 30 miles."}))
			assert.Equal(t, tc.blamed, steps(fs, true))
		})
	}
}

// TestDataFlowAlteredInCode: the code a value of the answer came from
// holds a figure that alters one the task gives (a limit of 120 where the
// task allows 100), first written by another agent's design: the design
// is where the value came from, though the code holds a figure of its own
// too (a logging interval). Code that first writes the altered figure
// itself, or a design whose only other figure is a unit's factor (60
// seconds in the task's minute), moves nothing. The shape is MetaGPT's
// architect, engineer and QA engineer.
func TestDataFlowAlteredInCode(t *testing.T) {
	const task = "Add a rate limiter to our API: each client may make 100 requests per minute. If one client sends 250 requests within one minute, how many are rejected?"
	user := msg{agent: "Human", content: task, kind: run.KindUser}
	design := func(limit string) msg {
		return msg{agent: "Architect", content: "## Implementation approach\nlimiter.py keeps a fixed window per client: WINDOW_SECONDS = 60 and MAX_REQUESTS = " + limit + "."}
	}
	code := msg{agent: "Engineer", content: "## Code: limiter.py\n```python\nMAX_REQUESTS = 120\nWINDOW_SECONDS = 60\nLOG_EVERY = 500\n\ndef rejected(sent):\n    return max(0, sent - MAX_REQUESTS)\n```"}
	test := msg{agent: "QaEngineer", content: "## Code: test_limiter.py\n```python\nfrom limiter import rejected\n\ndef test_burst():\n    assert rejected(250) == 130\n```"}
	final := msg{agent: "Engineer", content: "All tests pass. Of 250 requests in one minute, 130 are rejected."}
	for _, tc := range []struct {
		name   string
		design msg
		blamed []int
	}{
		{"the design alters the limit", design("120"), []int{1}},
		{"the engineer alters it", design("100"), []int{2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := DataFlowOrigin.Run(prepare(t, task, "", user, tc.design, code, test, final))
			assert.Equal(t, tc.blamed, steps(fs, true))
		})
	}
}

// TestDataFlowReportedFromOwnCode: an engineer writes code with a design's
// altered figure and reports what it computes, with no run printed: the
// value came from the code, and so from the design. A report after
// another agent spoke is no report of the code.
func TestDataFlowReportedFromOwnCode(t *testing.T) {
	const task = "Write sales_tax(amount) for our shop: the tax rate is 5%. What is the tax on a $200 order?"
	user := msg{agent: "Human", content: task, kind: run.KindUser}
	design := msg{agent: "Architect", content: "## Implementation approach\ntax.py with TAX_RATE = 0.07 and sales_tax(amount) = amount * TAX_RATE."}
	code := msg{agent: "Engineer", content: "## Code: tax.py\n```python\nTAX_RATE = 0.07\n\ndef sales_tax(amount):\n    return round(amount * TAX_RATE, 2)\n```"}
	review := msg{agent: "Reviewer", content: "LGTM."}
	final := msg{agent: "Engineer", content: "The tax on a $200 order is $14.00."}
	for _, tc := range []struct {
		name   string
		msgs   []msg
		blamed []int
	}{
		{"reported right after the code", []msg{user, design, code, final}, []int{1}},
		{"another agent between", []msg{user, design, code, review, final}, []int{4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := DataFlowOrigin.Run(prepare(t, task, "", tc.msgs...))
			assert.Equal(t, tc.blamed, steps(fs, true))
		})
	}
}

// TestDataFlowFilesActedOn: a coding agent's closing summary names the
// files it changed and the tests it ran; a file a call of the run names is
// what the work acted on, not a value the answer worked out, and the step
// that first printed it (a test run's output) is not where the answer
// went wrong. A value the summary states that no call names still is.
// The shapes are SWE-agent's tools in function-call notation.
func TestDataFlowFilesActedOn(t *testing.T) {
	const task = "slugify('Hello  World') returns 'hello--world'; repeated spaces should give one dash."
	user := msg{agent: "user", content: task, kind: run.KindUser}
	msgs := []msg{user,
		call(`bash({"command": "python -m pytest -q tests"})`),
		out("FAILED tests/test_slug.py::test_spaces - assert 'hello--world' == 'hello-world'\n1 failed, 4 passed in 0.21s"),
		call(`str_replace_editor({"command": "str_replace", "path": "/repo/text/slug.py", "old_str": "r'\\s'", "new_str": "r'\\s+'"})`),
		out("The file /repo/text/slug.py has been edited."),
		call(`bash({"command": "python -m pytest -q tests/test_slug.py"})`),
		out("..\n2 passed in 0.19s"),
	}
	for _, tc := range []struct {
		name, summary string
		blamed        []int
	}{
		{"the files it changed and ran", "slugify now collapses runs of whitespace; tests/test_slug.py passes.", nil},
		{"a value no call names", "slugify now collapses runs of whitespace; see docs/slugs.md.", []int{7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := DataFlowOrigin.Run(prepare(t, task, "", append(slices.Clone(msgs), msg{agent: "assistant", content: tc.summary})...))
			assert.Equal(t, tc.blamed, steps(fs, true))
		})
	}
}

// A team that closes in words, with no value to trace, did what the plan
// that dropped the task's requirement laid out: that plan is the suspect.
// A ground truth, or a plan that keeps the requirement, leaves it alone.
func TestDataFlowDroppedRequirementWithoutAnAnswer(t *testing.T) {
	q := "User passwords at Acme Corp must use bcrypt (cost 12) in our signup flow."
	const md5, bcrypt = "hashlib.md5(pw.encode()).hexdigest()", "bcrypt.hashpw(pw, bcrypt.gensalt(12))"
	const words, named = "auth.py is done. Passwords are hashed with md5.", "auth.py is done for Acme Corp."
	tests := []struct {
		name, how, summary, gt string
		want                   []int
	}{
		{"dropped", md5, words, "", []int{2}},
		{"dropped, the answer naming what the task gave", md5, named, "", []int{2}},
		{"kept", bcrypt, words, "", nil},
		{"with a ground truth", md5, words, "bcrypt", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, q, tt.gt,
				msg{agent: "Human", content: q, kind: run.KindUser},
				msg{agent: "ProductManager", content: "## Requirement Pool\n- P0: bcrypt at cost 12 for passwords"},
				msg{agent: "Architect", content: "## Implementation approach\nauth.py: hash_password(pw) returns " + tt.how + "; verify compares digests.\n\n## File list\n- auth.py"},
				msg{agent: "Engineer", content: "## Code: auth.py\n```python\ndef hash_password(pw):\n    return " + tt.how + "\n```"},
				msg{agent: "Engineer", content: "## Summary\n" + tt.summary},
			)
			assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true))
		})
	}
}

// An engineer whose code leaves out what the task required, after the
// design had taken it up, dropped it there: without an answer to trace,
// that code is the suspect, as a plan that drops a requirement is.
func TestDataFlowRequirementDroppedInCodeWithoutAnAnswer(t *testing.T) {
	q := "Build a leaderboard page. Players must be listed by score, highest first. Report who is listed first for Ana 90, Ben 75, Cy 82."
	in := prepare(t, q, "",
		msg{agent: "Human", content: q, kind: run.KindUser},
		msg{agent: "Architect", content: "## Implementation approach\nleaderboard.py sorts the players by score, highest first, with reverse=True."},
		msg{agent: "Engineer", content: "## Code: leaderboard.py\n```python\ndef ranking(players):\n    return sorted(players, key=lambda p: p.score)\n```"},
		msg{agent: "QaEngineer", content: "## Code: test_leaderboard.py\n```python\nfrom leaderboard import ranking\n\n\ndef test_first(players):\n    assert ranking(players)[0].name == 'Ben'\n```"},
		msg{agent: "Engineer", content: "## Summary\nThe leaderboard is done. For Ana 90, Ben 75, Cy 82 the first listed is Ben."},
	)
	assert.Equal(t, []int{2}, steps(DataFlowOrigin.Run(in), true))
}

// A coding agent's shell command (a grep, a test run) lays out no work:
// a session that closes in words is not laid at the first command it ran
// because the command did not take up the task's requirement.
func TestDataFlowDroppedRequirementNotAtACommand(t *testing.T) {
	q := "normalize() keeps a trailing slash: join('a', 'b/') returns 'a/b/'; paths should come back without one (except the root '/')."
	r := &run.Run{Source: "test.json", Question: q, Steps: []run.Step{
		{Index: 0, Agent: "user", Kind: run.KindUser, Content: q},
		{Index: 1, Agent: "agent", Kind: run.KindToolCall, Content: `execute_bash({"command":"grep -rn 'normalize' pathkit"})`,
			Extra: &run.Extra{ToolCalls: []run.ToolCall{{ID: "c1", Name: "execute_bash", Arguments: `{"command":"grep -rn 'normalize' pathkit"}`}}}},
		{Index: 2, Agent: "agent", Kind: run.KindToolResult, Content: "pathkit/core.py:12:def normalize(p):", Extra: &run.Extra{ToolCallID: "c1"}},
		{Index: 3, Agent: "agent", Kind: run.KindMessage, Content: "normalize strips a trailing slash now."},
	}}
	assert.Empty(t, steps(DataFlowOrigin.Run(inputOf(t, r)), true))
}

// TestDataFlowDroppedRequirementInADelegation: a manager whose delegation
// call hands the booker the work without the task's price cap laid the
// work out without it, and the booker booked what it was given; a
// delegation that carries the cap leaves the booker's choice its own.
// Shape: a CrewAI hierarchical crew, its manager's "Delegate work to
// coworker" as an OpenInference trace addresses it to the coworker.
func TestDataFlowDroppedRequirementInADelegation(t *testing.T) {
	const task = "Book me a hotel near Baixa in Lisbon for 2 nights from 12 May 2026, under 120 EUR per night."
	for _, tt := range []struct {
		deleg string
		want  []int
	}{
		{`{"task": "Book a hotel near Baixa in Lisbon for 2 nights, check-in 2026-05-12.", "coworker": "Travel Booker"}`, []int{1}},
		{`{"task": "Book a hotel near Baixa in Lisbon for 2 nights, check-in 2026-05-12, under 120 EUR per night.", "coworker": "Travel Booker"}`, nil},
	} {
		in := prepare(t, task, "",
			msg{agent: "user", content: task, kind: run.KindUser},
			msg{agent: "Crew Manager", content: "Delegate work to coworker(" + tt.deleg + ")", kind: run.KindToolCall, target: "Travel Booker"},
			msg{agent: "Travel Booker", content: `search_hotels({"city": "Lisbon", "area": "Baixa", "check_in": "2026-05-12", "nights": 2})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `[{"hotel_id": "H-3301", "name": "Avenida Palace", "price_per_night_eur": 185}, {"hotel_id": "H-3317", "name": "Baixa House", "price_per_night_eur": 112}]`, kind: run.KindToolResult},
			msg{agent: "Travel Booker", content: `book_hotel({"hotel_id": "H-3301", "check_in": "2026-05-12", "nights": 2})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"status": "confirmed", "confirmation": "LX-88210", "hotel": "Avenida Palace", "total_eur": 370}`, kind: run.KindToolResult},
			msg{agent: "Crew Manager", content: "You're booked at Avenida Palace for 12-14 May 2026 (confirmation LX-88210), 370 EUR in total."},
		)
		assert.Equal(t, tt.want, stepsFor(DataFlowOrigin.Run(in), "without the task's requirement"), tt.deleg)
	}
}

// TestDataFlowDroppedRequirementInAHandoffThatNamesTheAgent: a triage
// agent whose log records no addressee hands the booker the work by a
// "transfer_to_…" call or by a message that opens by addressing it; when
// the handoff leaves out the task's "pet-friendly", the handoff is where
// the work went wrong, though the search's output writes "pet_friendly"
// (a tool listing what was asked takes nothing up). A handoff that
// carries it, and a report that only names the booker further on, lay
// out no work without it.
func TestDataFlowDroppedRequirementInAHandoffThatNamesTheAgent(t *testing.T) {
	const task = "I'm travelling with my dog. Book a pet-friendly hotel in Porto for 2 nights from 8 August 2026."
	for _, tt := range []struct {
		handoff string
		kind    run.Kind
		want    []int
	}{
		{`transfer_to_booking_agent({"task_description": "Book a hotel in Porto for 2 nights, check-in 2026-08-08."})`, run.KindToolCall, []int{1}},
		{`transfer_to_booking_agent({"task_description": "Book a pet-friendly hotel in Porto for 2 nights, check-in 2026-08-08."})`, run.KindToolCall, nil},
		{"booking_agent: book a hotel in Porto for 2 nights, check-in 2026-08-08.", run.KindMessage, []int{1}},
		{"Checked the dates: 2026-08-08 for 2 nights in Porto.\nSend To: booking_agent", run.KindMessage, nil},
	} {
		in := prepare(t, task, "",
			msg{agent: "user", content: task, kind: run.KindUser},
			msg{agent: "triage_agent", content: tt.handoff, kind: tt.kind},
			msg{agent: "booking_agent", content: `search_hotels({"city": "Porto", "check_in": "2026-08-08", "nights": 2})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `[{"hotel_id": "POR-12", "name": "Hotel Infante Sagres", "pet_friendly": false, "price_per_night_eur": 164}, {"hotel_id": "POR-31", "name": "Moov Hotel", "pet_friendly": true, "price_per_night_eur": 92}]`, kind: run.KindToolResult},
			msg{agent: "booking_agent", content: `book_room({"hotel_id": "POR-12", "check_in": "2026-08-08", "nights": 2})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"status": "confirmed", "confirmation": "OPO-33019", "hotel": "Hotel Infante Sagres", "total_eur": 328}`, kind: run.KindToolResult},
			msg{agent: "triage_agent", content: "You're booked at Hotel Infante Sagres in Porto, 8-10 August 2026, 328 EUR in total (OPO-33019)."},
		)
		assert.Equal(t, tt.want, stepsFor(DataFlowOrigin.Run(in), "without the task's requirement"), tt.handoff)
	}
}

// A design that writes the task's requirement only to say it is not
// needed ("no file storage is needed") dropped it there, though its words
// name the requirement's terms: the later plan that only leaves it out
// carried out what the design gave. A design that takes it up leaves the
// drop to that later plan.
func TestDataFlowRequirementDeniedWithoutAnAnswer(t *testing.T) {
	q := "Write a command-line snake game in Python; the top 5 high scores must be saved to a CSV file so they persist between games."
	tests := []struct {
		name, design string
		want         []int
	}{
		{"denied", "## Implementation approach\nHigh scores are kept in a list during the session; no file storage is needed.\n\n## File list\n- game.py\n- scores.py", []int{2}},
		{"taken up", "## Implementation approach\nscores.py saves the top 5 scores to highscores.csv and loads them at start.\n\n## File list\n- game.py\n- scores.py", []int{3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, q, "",
				msg{agent: "Human", content: q, kind: run.KindUser},
				msg{agent: "ProductManager", content: "## Requirement Pool\n- P0: save the top 5 scores to highscores.csv and load them at start"},
				msg{agent: "Architect", content: tt.design},
				msg{agent: "ProjectManager", content: "## Task list\n- scores.py: a ScoreBoard with add() and top()\n- game.py: the game loop"},
				msg{agent: "Engineer", content: "## Summary\nThe game is done; the scoreboard shows the top 5."},
			)
			assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true))
		})
	}
}
