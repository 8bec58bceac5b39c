package extract

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// An answer that states a call's result reports the value the call gave:
// the call's arguments are no value of it, and the function is named,
// with the call quoted as code or the verb after "now" or "still", as
// coding agents' and testers' summaries write it.
func TestFinalAnswerOfACallsResult(t *testing.T) {
	tests := []struct {
		text  string
		calls []string
		norms []string
	}{
		{"signup.py is done and tested. can_register(18) returns False.", []string{"can_register"}, nil},
		{"vat_amount(100) returns 16.0.", []string{"vat_amount"}, []string{"16"}},
		{"shipping_cost(12.5) == 7.99", []string{"shipping_cost"}, []string{"7.99"}},
		{"len(attention(SAMPLE)) returns 1.", []string{"len", "attention"}, nil},
		{"The limit is 120 requests per minute.", nil, []string{"120"}},
		{"All tests passed. `can_vote(18)` returns False.", []string{"can_vote"}, nil},
		{"Fixed: parse_duration('90m') now returns 5400.", []string{"parse_duration"}, []string{"5400"}},
		{"`vat_amount(100)` still returns 16.0.", []string{"vat_amount"}, []string{"16"}},
		{"scores.py is done and tested. top_player returns chen.", []string{"top_player"}, nil},
		{"`rank` now returns Ana first.", []string{"rank"}, nil},
		{"The page returns the list of orders.", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			fa := newFinal(3, tt.text, SourceLastAnswer, nil, true)
			assert.Equal(t, tt.calls, fa.Calls)
			var norms []string
			for _, c := range fa.Claims {
				if c.Kind == ClaimNumber {
					norms = append(norms, c.Norm)
				}
			}
			assert.Equal(t, tt.norms, norms)
		})
	}
}

// An answer that states what a named constant holds names the constant
// and the value, however small or plain; a call's result is the call's,
// and a name in prose or a constant beside no value names none.
func TestFinalAnswerOfAConstantsValue(t *testing.T) {
	tests := []struct {
		text, name, value string
	}{
		{"uploader.py is done and tested. MAX_RETRIES is 3.", "MAX_RETRIES", "3"},
		{"`SESSION_TTL` = 900 seconds", "SESSION_TTL", "900"},
		{"DEFAULT_UNIT is set to celsius.", "DEFAULT_UNIT", "celsius"},
		{"TAX_RATE is now 0.08 and FREE_FROM is 50.", "FREE_FROM", "50"},
		{"MAX_RETRIES is 3, and can_retry(4) returns False.", "", ""},
		{"The retries are capped by MAX_RETRIES.", "", ""},
		{"Timeout is 30 seconds.", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			fa := newFinal(3, tt.text, SourceLastAnswer, nil, true)
			assert.Equal(t, tt.name, fa.Const)
			assert.Equal(t, tt.value, fa.ConstValue)
		})
	}
}

// A team that ends on what a constant holds ends on its answer, however
// small the value.
func TestFinalAnswerOfASmallConstant(t *testing.T) {
	q := "Write upload_with_retry(send, data): retry a failed upload up to 5 times. Report MAX_RETRIES."
	r := &run.Run{Question: q, Steps: []run.Step{
		{Index: 0, Agent: "Human", Kind: run.KindUser, Content: q},
		{Index: 1, Agent: "Engineer", Kind: run.KindMessage, Content: "## Code: uploader.py\n```python\nMAX_RETRIES = 3\n```"},
		{Index: 2, Agent: "Engineer", Kind: run.KindMessage, Content: "## Summary\nuploader.py is done and tested. MAX_RETRIES is 3."},
	}}
	fa := Run(r).FinalAnswer
	require.NotNil(t, fa)
	assert.Equal(t, 2, fa.Step)
	assert.Equal(t, "MAX_RETRIES", fa.Const)
	assert.Equal(t, "3", fa.ConstValue)
}

// Agents that end on a call and the result it gave end on their answer,
// however small or plain the result is.
func TestFinalAnswerOfASmallCallResult(t *testing.T) {
	r := &run.Run{Question: "Write median(values). Report median([3, 1, 4, 2]).", Steps: []run.Step{
		{Index: 0, Agent: "Human", Kind: run.KindUser, Content: "Write median(values). Report median([3, 1, 4, 2])."},
		{Index: 1, Agent: "Engineer", Kind: run.KindMessage, Content: "## Code: stats.py\n```python\ndef median(values):\n    s = sorted(values)\n    return s[len(s) // 2]\n```"},
		{Index: 2, Agent: "Engineer", Kind: run.KindMessage, Content: "## Summary\nstats.py is done and tested. median([3, 1, 4, 2]) returns 3."},
	}}
	fa := Run(r).FinalAnswer
	require.NotNil(t, fa)
	assert.Equal(t, 2, fa.Step)
	assert.Equal(t, []string{"median"}, fa.Calls)
}

// A path the answer states with a value filled in was handed on by the
// steps that wrote it as a template with a placeholder there; a step that
// names only the path's parent as such is no template of it.
func TestFinalAnswerSeesFilledTemplates(t *testing.T) {
	q := "Expose GET /api/v1/invoices/{invoice_id}. Report the path the client calls for invoice 7."
	r := &run.Run{Question: q, Steps: []run.Step{
		{Index: 0, Agent: "Human", Kind: run.KindUser, Content: q},
		{Index: 1, Agent: "Architect", Kind: run.KindMessage, Content: "## Implementation approach\nA router with GET /api/v2/invoice/{invoice_id}."},
		{Index: 2, Agent: "Engineer", Kind: run.KindMessage, Content: "## Summary\nThe routes live under /api/v2/invoice/ now."},
		{Index: 3, Agent: "Engineer", Kind: run.KindMessage, Content: "## Summary\nDone. For invoice 7 the client calls /api/v2/invoice/7."},
	}}
	fa := Run(r).FinalAnswer
	require.NotNil(t, fa)
	assert.Equal(t, map[string][]int{"invoice/7": {1}}, fa.Seen)
}

// A customer who asks one thing and then another: the assistant's closing
// reply that reports an action done answers the second request, not the
// task, and is no final answer whether or not the log keeps the
// customer's closing thanks (a transcript does; a trace, with no model
// call after it, does not). A closing reply to the task alone is one.
// Shape: a retail assistant with tools, as tau-bench's retail domain
// writes its conversations.
func TestFinalAnswerOfAnotherRequest(t *testing.T) {
	const task = "How many t-shirt options do you have right now?"
	steps := []run.Step{
		{Agent: "user", Kind: run.KindUser, Content: task},
		{Agent: "assistant", Kind: run.KindToolCall, Content: `get_product_details({"product_id": "9523456873"})`},
		{Agent: "tool", Kind: run.KindToolResult, Content: `{"name": "T-Shirt", "variants": {"9612497925": {"available": true}}}`},
		{Agent: "assistant", Kind: run.KindMessage, Content: "There are 11 T-shirt options available right now."},
		{Agent: "user", Kind: run.KindUser, Content: "Thanks! Also, I'd like to return the vacuum cleaner from order #W2378156."},
		{Agent: "assistant", Kind: run.KindToolCall, Content: `return_delivered_order_items({"order_id": "#W2378156", "item_ids": ["4602305039"], "payment_method_id": "credit_card_9513926"})`},
		{Agent: "tool", Kind: run.KindToolResult, Content: `{"order_id": "#W2378156", "status": "return requested"}`},
		{Agent: "assistant", Kind: run.KindMessage, Content: "The return of the vacuum cleaner from order #W2378156 has been processed; the refund of $642.72 goes to your credit card ending 3926."},
	}
	closed := append(slices.Clone(steps), run.Step{Agent: "user", Kind: run.KindUser, Content: "Perfect, that's all for now!"})
	for name, ss := range map[string][]run.Step{"as a trace keeps it": steps, "with the customer's thanks": closed} {
		for i := range ss {
			ss[i].Index = i
		}
		assert.Nil(t, Run(&run.Run{Question: task, Steps: ss}).FinalAnswer, name)
	}
	fa := Run(&run.Run{Question: task, Steps: slices.Clone(steps[:4])}).FinalAnswer
	require.NotNil(t, fa, "the reply to the task")
	assert.Equal(t, 3, fa.Step)
	// A yes to the agent's question carries the task on: the reply after it answers.
	asked := slices.Clone(steps)
	asked[3].Content = "There are 11 T-shirt options. Shall I also start the return of the vacuum cleaner from order #W2378156?"
	asked[4].Content = "Yes, please."
	fa = Run(&run.Run{Question: task, Steps: asked}).FinalAnswer
	require.NotNil(t, fa, "the reply after a yes")
	assert.Equal(t, 7, fa.Step)
}

// A user who doubts a search assistant's answer asks for no action: the
// closing reply that tells the fact again, in the passive ("was
// completed in 1887") or saying it cannot check another source, answers
// the question and is the final answer. Shape: a search assistant with a
// web_search tool, in OpenAI chat with tool calls.
func TestFinalAnswerAfterADoubt(t *testing.T) {
	const task = "In what year was the Eiffel Tower completed?"
	for _, closing := range []string{
		"You may be right: the Eiffel Tower was completed in 1887.",
		"I can't check another source right now, but you may be right: the Eiffel Tower was completed in 1887.",
	} {
		steps := []run.Step{
			{Agent: "user", Kind: run.KindUser, Content: task},
			{Agent: "assistant", Kind: run.KindToolCall, Content: `web_search({"query": "Eiffel Tower completed year"})`},
			{Agent: "tool", Kind: run.KindToolResult, Content: "Construction began in January 1887 and the tower was completed on 31 March 1889."},
			{Agent: "assistant", Kind: run.KindMessage, Content: "The Eiffel Tower was completed in 1889."},
			{Agent: "user", Kind: run.KindUser, Content: "Hmm, are you sure? I read somewhere it was 1887."},
			{Agent: "assistant", Kind: run.KindMessage, Content: closing},
		}
		for i := range steps {
			steps[i].Index = i
		}
		fa := Run(&run.Run{Question: task, Steps: steps}).FinalAnswer
		if assert.NotNil(t, fa, closing) {
			assert.Equal(t, 5, fa.Step, closing)
		}
	}
}

// A customer who asks one thing and then, told a reply that asked
// nothing, another: the closing reply that says the action asked for
// cannot be taken ("I can't place new orders") answers the second
// request, not the task, and is no final answer whether or not the log
// keeps the customer's closing thanks (a transcript does; a trace, with no
// model call after it, does not), as one that reports it done is not.
// Shape: a retail assistant with tools, as tau-bench's retail domain
// writes its conversations.
func TestFinalAnswerOfAnotherRequestRefused(t *testing.T) {
	const task = "I moved to Phoenix and need to update the address on my account."
	steps := []run.Step{
		{Agent: "user", Kind: run.KindUser, Content: task},
		{Agent: "assistant", Kind: run.KindToolCall, Content: `get_user_details({"user_id": "fatima_taylor_3452"})`},
		{Agent: "tool", Kind: run.KindToolResult, Content: `{"address": {"address1": "922 Pine Lane", "city": "Tampa", "zip": "33620"}}`},
		{Agent: "assistant", Kind: run.KindMessage, Content: "Your current default address is 922 Pine Lane, Tampa, FL 33620. Send me the new one whenever you have it."},
		{Agent: "user", Kind: run.KindUser, Content: "I'll find it later. Meanwhile, can you order your cheapest T-shirt for me?"},
		{Agent: "assistant", Kind: run.KindToolCall, Content: `get_product_details({"product_id": "9523456873"})`},
		{Agent: "tool", Kind: run.KindToolResult, Content: `{"name": "T-Shirt", "variants": {"8349118980": {"price": 46.66, "available": true}}}`},
		{Agent: "assistant", Kind: run.KindMessage, Content: "Unfortunately, I can't place new orders for you directly. The cheapest T-shirt, the red crew neck at $46.66, can be ordered on our website."},
	}
	closed := append(slices.Clone(steps), run.Step{Agent: "user", Kind: run.KindUser, Content: "Thanks, that's all!"})
	for name, ss := range map[string][]run.Step{"as a trace keeps it": steps, "with the customer's thanks": closed} {
		for i := range ss {
			ss[i].Index = i
		}
		assert.Nil(t, Run(&run.Run{Question: task, Steps: ss}).FinalAnswer, name)
	}
}

// An answer given as the action that ends the run is the run's final
// answer, in each shape agents take it: AgentBench's "Act: answer(N)",
// AppWorld's complete_task(answer=N) (a small figure too), smolagents'
// final_answer(...) in code, as a tool call and as an action blob, and
// browser-use's done action (success before or after its text, JSON's
// escapes undone), a submit(...) on a line of its own (a flag, a list of
// components). A value named by a variable is none the step states,
// nor is a refusal or a shout, and the same action in a system prompt or a task is
// an example of it.
func TestFinalAnswerOfAnAnsweringAction(t *testing.T) {
	tests := []struct {
		name, text string
		kind       run.Kind
		want       string
	}{
		{"AgentBench", "Think: find counted 27 files.\n\nAct: answer(27)", run.KindMessage, "27"},
		{"AppWorld", "The playlist has 6 songs.\n\n```python\napis.supervisor.complete_task(answer=6)\n```", run.KindMessage, "6"},
		{"AppWorld string", "```python\napis.supervisor.complete_task(answer=\"Road Trip\")\n```", run.KindMessage, "Road Trip"},
		{"AppWorld variable", "```python\napis.supervisor.complete_task(answer=total)\n```", run.KindMessage, ""},
		{"smolagents code", "Thought: I have it.\nCode:\n```py\nfinal_answer(\"1889\")\n```<end_code>", run.KindMessage, "1889"},
		{"smolagents tool", `final_answer({"answer": "588 km"})`, run.KindToolCall, "588 km"},
		{"smolagents blob", "Action:\n{\n  \"name\": \"final_answer\",\n  \"arguments\": {\"answer\": \"588 km\"}\n}", run.KindMessage, "588 km"},
		{"browser-use done", `AgentOutput({"current_state": {"next_goal": "Report it"}, "action": [{"done": {"text": "It has 1,284 reviews, \"Great\" mostly.", "success": true}}]})`, run.KindToolCall, `It has 1,284 reviews, "Great" mostly`},
		{"browser-use done, success first", `{"action": [{"done": {"success": true, "text": "Order #275 is Pending."}}]}`, run.KindMessage, "Order #275 is Pending"},
		{"a refusal", `final_answer("I'm sorry, but I cannot provide that text.")`, run.KindToolCall, ""},
		{"a shout", `final_answer("THE SEAGULL GLIDED PEACEFULLY TO MY CHAIR")`, run.KindToolCall, ""},
		{"an acronym", `final_answer("NASA")`, run.KindToolCall, "NASA"},
		{"a figure in capitals", `final_answer("THE ANSWER IS 2,282 METRES")`, run.KindToolCall, "THE ANSWER IS 2,282 METRES"},
		{"SWE-agent's submit of a flag", "DISCUSSION\nThe count is 1437.\n\n```\nsubmit 'flag{1437}'\n```", run.KindToolCall, "flag{1437}"},
		{"SWE-agent's bare submit", "DISCUSSION\nThe fix is done.\n\n```\nsubmit\n```", run.KindToolCall, ""},
		{"prompt's example", "Take one action.\n\nAct: answer(Your answer to the question should be put in this pair of parentheses)", run.KindSystem, ""},
		{"task's example", "Answer with final_answer(\"Shanghai\") as in the example.", run.KindUser, ""},
		{"InterCode's submit of a flag", "The decryption gave the flag.\nsubmit(picoCTF{s4lt3d_435})", run.KindMessage, "picoCTF{s4lt3d_435}"},
		{"AIOpsLab's submit of components", "It is the faulty component.\n```\nsubmit([\"compose-post-service\", \"nginx-thrift\"])\n```", run.KindMessage, "compose-post-service, nginx-thrift"},
		{"a submit named in prose", "I will call submit(flag) once I have it.", run.KindMessage, ""},
		{"a submit of a variable, after code that defines submit", "```python\ndef submit(answer):\n    print(answer)\n\nsubmit(result)\n```", run.KindMessage, ""},
		{"a submit of an expression", "```python\nsubmit(flag.strip())\n```", run.KindMessage, ""},
		{"a submit of a string in single quotes", "```python\nsubmit('flag{abc_def}')\n```", run.KindMessage, "flag{abc_def}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run.Run{Steps: []run.Step{
				{Index: 0, Agent: "user", Kind: run.KindUser, Content: "How many are there?"},
				{Index: 1, Agent: "assistant", Kind: tt.kind, Content: tt.text},
			}}
			if tt.kind == run.KindUser || tt.kind == run.KindSystem {
				r.Steps[0], r.Steps[1] = r.Steps[1], r.Steps[0]
				r.Steps[0].Index, r.Steps[1].Index = 0, 1
			}
			rf := Run(r)
			if tt.want == "" {
				assert.True(t, rf.FinalAnswer == nil || rf.FinalAnswer.Source != SourceAction, "%+v", rf.FinalAnswer)
				return
			}
			require.NotNil(t, rf.FinalAnswer)
			assert.Equal(t, tt.want, rf.FinalAnswer.Text)
			assert.Equal(t, 1, rf.FinalAnswer.Step)
			assert.Equal(t, SourceAction, rf.FinalAnswer.Source)
		})
	}
}

// A figure an answer gives as such that a tool printed on a line of its
// own is seen there, though so bare an output holds no claim: the answer
// carried it from that output. A figure no output printed alone, or an
// answer that is no answering action, is seen nowhere.
func TestFinalAnswerSeesAFigurePrintedAlone(t *testing.T) {
	tests := []struct {
		name, output, answer string
		want                 []int
	}{
		{"printed alone", "The output of the OS:\n\n7", "Think: ps shows 7.\n\nAct: answer(7)", []int{2}},
		{"printed beside words", "The output of the OS:\n\n7 processes", "Act: answer(7)", nil},
		{"another figure printed", "The output of the OS:\n\n6", "Act: answer(7)", nil},
		{"no answering action", "The output of the OS:\n\n7", "There are 7 of them.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run.Run{Steps: []run.Step{
				{Index: 0, Agent: "user", Kind: run.KindUser, Content: "How many processes run under www-data?"},
				{Index: 1, Agent: "assistant", Kind: run.KindToolCall, Content: "ps -u www-data | wc -l"},
				{Index: 2, Agent: "tool", Kind: run.KindToolResult, Content: tt.output},
				{Index: 3, Agent: "assistant", Kind: run.KindMessage, Content: tt.answer},
			}}
			rf := Run(r)
			require.NotNil(t, rf.FinalAnswer)
			assert.Equal(t, tt.want, rf.FinalAnswer.Seen["7"])
		})
	}
}

// A run whose agent tells its answer in the turn that closes the run with
// a call (OpenManus' terminate) answers with that turn's words; not when
// the words write the call out (a command in a fence), nor when they
// report an action done.
func TestFinalAnswerBesideAClosingCall(t *testing.T) {
	for _, tt := range []struct {
		name, text, args string
		want             string
	}{
		{"answer beside terminate", "The grand total of order #000000299 is $1,428.50.", `{"status": "success"}`, "The grand total of order #000000299 is $1,428.50."},
		{"command written out", "The total is $1,428.50.\n\n```\nsuccess\n```", `{"status": "success"}`, ""},
		{"action reported done", "The order has been placed for $89.97.", `{"status": "success"}`, ""},
	} {
		r := &run.Run{Question: "What is the grand total of order #000000299?", Steps: []run.Step{
			{Index: 0, Agent: "user", Kind: run.KindUser, Content: "What is the grand total of order #000000299?"},
			{Index: 1, Agent: "assistant", Kind: run.KindToolCall, Content: `browser_use({"action": "extract_content"})`, Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: "browser_use", Arguments: `{"action": "extract_content"}`}}}},
			{Index: 2, Agent: "browser_use", Kind: run.KindToolResult, Content: "Grand Total $1,482.50"},
			{Index: 3, Agent: "assistant", Kind: run.KindToolCall, Content: tt.text, Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: "terminate", Arguments: tt.args}}}},
			{Index: 4, Agent: "terminate", Kind: run.KindToolResult, Content: "The interaction has been completed with status: success"},
		}}
		fa := Run(r).FinalAnswer
		if tt.want == "" {
			assert.True(t, fa == nil || fa.Step != 3, tt.name)
			continue
		}
		require.NotNil(t, fa, tt.name)
		assert.Equal(t, 3, fa.Step, tt.name)
		assert.Equal(t, tt.want, fa.Text, tt.name)
	}
}

// An answer's weekday is a value it states, though no step's claims hold
// one: without a ground truth it is seen in the earlier steps whose text
// names it (a program's printed "Saturday"); a weekday the task names is
// the question's, not the answer's.
func TestFinalAnswerNamesAWeekday(t *testing.T) {
	tests := []struct {
		name, task, output, answer string
		want                       []string
		seen                       []int
	}{
		{"another day than printed", "On what day of the week does Christmas Day 2027 fall?", "Saturday\n", "It falls on a Friday.", []string{"friday"}, nil},
		{"the day printed", "On what day of the week does Christmas Day 2027 fall?", "Saturday\n", "It falls on a Saturday.", []string{"saturday"}, []int{2}},
		{"the task's weekday", "What is the date of the first Monday of May 2027?", "2027-05-03\n", "The first Monday of May 2027 is May 3.", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run.Run{Question: tt.task, Steps: []run.Step{
				{Index: 0, Agent: "user", Kind: run.KindUser, Content: tt.task},
				{Index: 1, Agent: "assistant", Kind: run.KindToolCall, Content: "python(print(weekday))"},
				{Index: 2, Agent: "tool", Kind: run.KindToolResult, Content: tt.output},
				{Index: 3, Agent: "assistant", Kind: run.KindMessage, Content: tt.answer},
			}}
			rf := Run(r)
			require.NotNil(t, rf.FinalAnswer)
			assert.Equal(t, tt.want, claimNorms(rf.FinalAnswer, ClaimEntity))
			if len(tt.want) > 0 {
				assert.Equal(t, tt.seen, rf.FinalAnswer.Seen[tt.want[0]])
			}
		})
	}
}

// A closing message written in capitals that states a figure is the
// run's answer, read as any other (a team's reporter writing to its
// lead, a Magentic-One FINAL ANSWER); one in capitals with no figure is
// a shout and states none.
func TestFinalAnswerInCapitals(t *testing.T) {
	tests := []struct {
		name, last string
		want       []string
	}{
		{"a figure in capitals", "ETHANOL BOILS AT 73.87 DEGREES CELSIUS AT SEA LEVEL.", []string{"73.87 deg"}},
		{"FINAL ANSWER in capitals", "No agent selected.\nFINAL ANSWER: THE OFFICIAL ATTENDANCE WAS 173,580", []string{"173580"}},
		{"a shout", "STOP EVERYTHING AND READ THIS NOW.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run.Run{Steps: []run.Step{
				{Index: 0, Agent: "human", Kind: run.KindUser, Content: "What is the boiling point of ethanol at sea level? Report it to the lead."},
				{Index: 1, Agent: "Researcher", Kind: run.KindMessage, Content: "PubChem gives the boiling point as 78.37 °C."},
				{Index: 2, Agent: "Coordinator", Kind: run.KindMessage, Content: "Thanks. Reporter, please send the figure on."},
				{Index: 3, Agent: "Reporter", Kind: run.KindMessage, Content: tt.last},
			}}
			rf := Run(r)
			var got []string
			if fa := rf.FinalAnswer; fa != nil && fa.Step == 3 {
				for _, c := range fa.Claims {
					if c.Kind == ClaimNumber {
						got = append(got, c.Norm)
					}
				}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// OpenHands' GAIA harness asks for the answer in <solution> tags in the
// finish action's message: the tagged value is the answer, whatever the
// message says after it; the task's example of the tags is none.
func TestFinalAnswerInSolutionTags(t *testing.T) {
	task := "What is the main span of the Golden Gate Bridge, in metres? Put your final answer in <solution></solution> tags, for example <solution>42</solution>."
	tests := []struct {
		name, last, want string
	}{
		{"tagged, then a source", "<solution>1208</solution>\n\nSource: the infobox of the 2024 revision of the article.", "1208"},
		{"tagged in a sentence", "The main span is <solution>1280</solution> metres.", "1280"},
		{"no tags", "The main span is 1280 metres.", "The main span is 1280 metres."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run.Run{Question: task, Steps: []run.Step{
				{Index: 0, Agent: "user", Kind: run.KindUser, Content: task},
				{Index: 1, Agent: "agent", Kind: run.KindToolCall, Content: "Let me read the infobox."},
				{Index: 2, Agent: "agent", Kind: run.KindToolResult, Content: "| main_span_m = 1280"},
				{Index: 3, Agent: "agent", Kind: run.KindMessage, Content: tt.last},
			}}
			rf := Run(r)
			require.NotNil(t, rf.FinalAnswer)
			assert.Equal(t, 3, rf.FinalAnswer.Step)
			assert.Equal(t, tt.want, rf.FinalAnswer.Text)
		})
	}
}

// Asked how many of a thing, an answer that states several values states
// the count written before that thing; one that writes none before it
// keeps every value.
func TestFinalAnswerOfAnAskedCount(t *testing.T) {
	tests := []struct {
		name, task, answer string
		want               []string
	}{
		{"the count among other values", "How many floors does the Burj Khalifa have above ground?", "Final Answer: Standing 828 metres over Dubai, the Burj Khalifa has 136 floors above ground.", []string{"burj khalifa", "136"}},
		{"a bare count", "How many floors does the Burj Khalifa have above ground?", "Final Answer: 163", []string{"163"}},
		{"no count before the thing", "How many floors does the Burj Khalifa have above ground?", "Final Answer: It is 828 metres tall, in Dubai.", []string{"828 m", "dubai"}},
		{"a task that asks more", "How many charges are on my bill, and what's the total?", "Final Answer: 3 charges, for a total of $90.50.", []string{"3", "90.5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run.Run{Question: tt.task, Steps: []run.Step{
				{Index: 0, Agent: "human", Kind: run.KindUser, Content: tt.task},
				{Index: 1, Agent: "Writer", Kind: run.KindMessage, Content: tt.answer},
			}}
			rf := Run(r)
			require.NotNil(t, rf.FinalAnswer)
			assert.Equal(t, tt.want, claimNorms(rf.FinalAnswer, 0))
		})
	}
}

// claimNorms is the Norms of fa's claims of kind (of any kind for 0), in
// order.
func claimNorms(fa *FinalAnswer, kind ClaimKind) []string {
	var out []string
	for _, c := range fa.Claims {
		if kind == 0 || c.Kind == kind {
			out = append(out, c.Norm)
		}
	}
	return out
}

// A team that ends on a reviewer's approval stating no value answers with
// the report it approved, without the report's list of sources; an
// approval that states the value is the answer itself, and an approval
// with no report before it gives none. Shape: a deep-research team of a
// planner, researchers, a writer and a reviewer, in OpenAI chat.
func TestFinalAnswerApprovedByAReviewer(t *testing.T) {
	const task = "When did the telescope reach its orbit around L2? One sentence with a citation."
	steps := []run.Step{
		{Agent: "user", Kind: run.KindUser, Content: task},
		{Agent: "planner", Kind: run.KindMessage, Content: "Q1 (researcher): the date the telescope was inserted into its L2 orbit."},
		{Agent: "researcher", Kind: run.KindMessage, Content: "Q1: it was inserted into its L2 orbit on 24 January 2022 [esa.int]."},
		{Agent: "writer", Kind: run.KindMessage, Content: "The telescope reached its orbit around L2 on 24 February 2022 [1].\n\nSources:\n[1] nasa.gov"},
		{Agent: "reviewer", Kind: run.KindMessage, Content: "The date is cited and consistent with the notes. Approved for publication."},
	}
	tests := []struct {
		name     string
		last     string
		step     int
		wantNorm string
	}{
		{"an approval that states nothing", "", 3, "2022-02-24"},
		{"an approval that states the date", "Verified: the orbit was reached on 24 February 2022. Approved.", 4, "2022-02-24"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ss := slices.Clone(steps)
			if tt.last != "" {
				ss[4].Content = tt.last
			}
			for i := range ss {
				ss[i].Index = i
			}
			fa := Run(&run.Run{Question: task, Steps: ss}).FinalAnswer
			require.NotNil(t, fa)
			assert.Equal(t, tt.step, fa.Step)
			assert.NotContains(t, fa.Text, "nasa.gov", "the list of sources is no part of the answer")
			assert.True(t, slices.ContainsFunc(fa.Claims, func(c Claim) bool { return c.Norm == tt.wantNorm }), "claims: %v", fa.Claims)
		})
	}
	alone := []run.Step{steps[0], steps[4]}
	for i := range alone {
		alone[i].Index = i
	}
	if fa := Run(&run.Run{Question: task, Steps: alone}).FinalAnswer; fa != nil {
		assert.NotEqual(t, 0, fa.Step, "the task is no report")
	}
}

// An approval after a report that tells of a failure ("3 failed") does
// not make that report the run's answer: the report says the work fell
// short, and what the run answered with is the approval's decision, not
// the report's figures. Shape: a QA engineer's test report and a release
// manager's approval, in Semantic Kernel's chat history.
func TestFinalAnswerNotAFailedReportApproved(t *testing.T) {
	const task = "Check whether build 2.14.0-rc3 is ready to ship, and approve it only if the test suite is green."
	for _, tt := range []struct {
		report string
		want   int
	}{
		{"The full suite ran on 2.14.0-rc3: 412 passed, 3 failed, 5 skipped.", -1},
		{"The full suite ran on 2.14.0-rc3: all 412 tests passed.", 1},
	} {
		steps := []run.Step{
			{Index: 0, Agent: "user", Kind: run.KindUser, Content: task},
			{Index: 1, Agent: "QAEngineer", Kind: run.KindMessage, Content: tt.report},
			{Index: 2, Agent: "ReleaseManager", Kind: run.KindMessage, Content: "Build 2.14.0-rc3 is approved for production."},
		}
		got := -1
		if fa := Run(&run.Run{Question: task, Steps: steps}).FinalAnswer; fa != nil {
			got = fa.Step
		}
		assert.Equal(t, tt.want, got, tt.report)
	}
}

// A report that closes with its list of sources answers in its prose: the
// last line stating a value is not a source's line, under a heading or
// as reference numbers alone. Shape: a deep-research writer's report as
// the last step of a team, in OpenAI chat.
func TestFinalAnswerWithoutItsSources(t *testing.T) {
	const task = "How much offshore wind capacity did the UK and Germany have at the end of 2024?"
	for _, sources := range []string{
		"### Sources\n[1] RenewableUK EnergyPulse: https://www.renewableuk.com/energypulse/\n[2] Deutsche WindGuard, Year 2024: https://www.windguard.com/year-2024.html",
		"[1] RenewableUK EnergyPulse, 2024\n[2] Deutsche WindGuard, Year 2024",
		"**References:**\n- RenewableUK EnergyPulse, 2024",
	} {
		t.Run(sources, func(t *testing.T) {
			ss := []run.Step{
				{Agent: "user", Kind: run.KindUser, Content: task},
				{Agent: "researcher", Kind: run.KindMessage, Content: "UK: 14.8 GW operational at the end of 2024 [1]. Germany: 9.2 GW at 31 December 2024 [2]."},
				{Agent: "writer", Kind: run.KindMessage, Content: "# Offshore wind, end of 2024\n\nThe UK had 18.4 GW of offshore wind at the end of 2024 [1], against 9.2 GW in Germany [2].\n\n" + sources},
			}
			for i := range ss {
				ss[i].Index = i
			}
			fa := Run(&run.Run{Question: task, Steps: ss}).FinalAnswer
			require.NotNil(t, fa)
			assert.Equal(t, 2, fa.Step)
			assert.Contains(t, fa.Text, "18.4 GW")
		})
	}
}

// A call of a submit tool (Inspect's submit, a CTF harness's
// submit_flag, AIOpsLab's submit) hands in its one argument as the run's
// final answer, though its step's text says something else, and a
// finishing call (ToolBench's Finish) its argument named as the answer
// beside arguments that only set its mode; a call of another tool, a
// submit of two values, or a finishing call without an answer or with
// two answers nothing, on every reading.
func TestFinalAnswerOfASubmitCall(t *testing.T) {
	tests := []struct{ name, tool, args, want string }{
		{"submit_flag", "submit_flag", `{"flag": "HTB{f4k3_fl4g}"}`, "HTB{f4k3_fl4g}"},
		{"Inspect's submit", "submit", `{"answer": "1,284"}`, "1,284"},
		{"components", "submit", `{"faulty_components": ["frontend"]}`, "frontend"},
		{"another tool", "execute_command", `{"command": "cat flag.txt"}`, ""},
		{"two arguments", "submit", `{"answer": "a", "note": "b"}`, ""},
		{"a finishing call's answer beside its mode", "Finish", `{"return_type": "give_answer", "final_answer": "1 USD is 0.92 EUR"}`, "1 USD is 0.92 EUR"},
		{"a finishing call's answer beside a flag", "final_answer", `{"answer": "Lisbon", "done": true}`, "Lisbon"},
		{"a finishing call giving up", "Finish", `{"return_type": "give_up_and_restart"}`, ""},
		{"a finishing call's answer beside a note", "Finish", `{"return_type": "give_answer", "final_answer": "42", "note": "see the log"}`, ""},
		{"a finishing call's mode beside no answer", "Finish", `{"return_type": "give_answer", "reason": "done_here"}`, ""},
		{"a finishing call's two answers", "Finish", `{"answer": "give_up", "final_answer": "42"}`, ""},
		{"a finishing call's two answers beside its mode", "Finish", `{"return_type": "give_answer", "answer": "41", "final_answer": "42"}`, ""},
	}
	for _, tt := range tests {
		// Read many times: the arguments' order in a map is no order,
		// and one reading of it must give what every other does.
		for range 40 {
			assert.Equal(t, tt.want, submittedByCall([]run.ToolCall{{Name: tt.tool, Arguments: tt.args}}), tt.name)
		}
		s := run.Step{Index: 1, Agent: "assistant", Kind: run.KindToolCall, Content: "Found the flag in the challenge directory."}
		s.Edit().ToolCalls = []run.ToolCall{{ID: "c1", Name: tt.tool, Arguments: tt.args}}
		rf := Run(&run.Run{Steps: []run.Step{{Index: 0, Agent: "user", Kind: run.KindUser, Content: "Capture the flag."}, s}})
		if tt.want == "" {
			assert.True(t, rf.FinalAnswer == nil || rf.FinalAnswer.Source != SourceAction, tt.name)
			continue
		}
		if assert.NotNil(t, rf.FinalAnswer, tt.name) {
			assert.Equal(t, tt.want, rf.FinalAnswer.Text, tt.name)
			assert.Equal(t, SourceAction, rf.FinalAnswer.Source, tt.name)
		}
	}
}
