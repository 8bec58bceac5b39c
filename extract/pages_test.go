package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// ordersPage is a page of a shop's orders as WebArena's observation shows
// its accessibility tree: a table of rows, each row's View Order link
// under its cells.
const ordersPage = "OBSERVATION:\n[1801] RootWebArea 'My Orders' focused: True\n\t[1850] heading 'My Orders'\n\t[1870] table 'Orders'\n" +
	"\t\t[1880] row ''\n\t\t\t[1881] cell '000000187'\n\t\t\t[1883] cell '$64.92'\n\t\t\t[1885] cell 'View Order Reorder'\n\t\t\t\t[1886] link 'View Order'\n" +
	"\t\t[1890] row ''\n\t\t\t[1891] cell '000000178'\n\t\t\t[1893] cell '$212.35'\n\t\t\t[1895] cell 'View Order Reorder'\n\t\t\t\t[1896] link 'View Order'\n" +
	"OBJECTIVE: What is the grand total of my order #000000178?"

// TestPageActionsAreCalls: a web agent's fenced action (WebArena's
// "```click [1886]```") and its tagged one (BrowserGym's
// "<action>click('a51')</action>") are calls, and the page's next turn is
// their result; its closing action ("```stop [$64.92]```", "ACTION: stop
// [7]", "send_msg_to_user('7')") is its answer, not a call.
func TestPageActionsAreCalls(t *testing.T) {
	for _, tt := range []struct {
		name, action, args, answer string
	}{
		{"WebArena", "In summary, the next action I will perform is ```click [1886]```", "click [1886]", ""},
		{"WebArena typing", "In summary, the next action I will perform is ```type [20] [blue jacket] [1]```", "type [20] [blue jacket] [1]", ""},
		{"BrowserGym", "<think>\nOpen it.\n</think>\n\n<action>\nclick('a51')\n</action>", "click('a51')", ""},
		{"WebArena stop", "In summary, the next action I will perform is ```stop [$64.92]```", "", "$64.92"},
		{"stop after ACTION:", "The order total is $64.92.\nACTION: stop [$64.92]", "", "$64.92"},
		{"BrowserGym message", "<think>\nDone.\n</think>\n\n<action>\nsend_msg_to_user('7')\n</action>", "", "7"},
	} {
		r := chat("user", ordersPage, "assistant", tt.action, "user", "OBSERVATION:\n[2401] RootWebArea 'Order # 000000187' focused: True\n\t[2433] heading 'Order # 000000187'")
		r.Question = r.Steps[0].Content
		rf := Run(r)
		if tt.args == "" {
			assert.Empty(t, rf.Steps[1].Calls, tt.name)
			require.NotNil(t, rf.FinalAnswer, tt.name)
			assert.Equal(t, tt.answer, rf.FinalAnswer.Text, tt.name)
			continue
		}
		require.Len(t, rf.Steps[1].Calls, 1, tt.name)
		assert.Equal(t, tt.args, rf.Steps[1].Calls[0].Args, tt.name)
		assert.True(t, rf.Steps[2].Has(KindToolResult), "%s: kinds %v", tt.name, rf.Steps[2].Kinds)
	}
}

// TestPageElements: a page's tree as WebArena, BrowserGym and browser-use
// print it, each element's id, role and depth; prose with a bracket is no
// element.
func TestPageElements(t *testing.T) {
	els := pageElements("[1] RootWebArea 'Shop' focused: True\n\t[87] textbox 'Search' focused: True\n\t\t[a51] gridcell 'Antonia Racer Tank'\n[12]<a >Order #0042 />\nsee [3] below\n[x-1] link 'no'")
	require.Len(t, els, 4)
	assert.Equal(t, pageElement{id: "87", role: "textbox", text: " textbox 'search' focused: true", depth: 1}, els[1])
	assert.Equal(t, pageElement{id: "a51", role: "gridcell", text: " gridcell 'antonia racer tank'", depth: 2}, els[2])
	assert.Equal(t, pageElement{id: "12", role: "link", text: "<a >order #0042 />", depth: 0}, els[3])
	assert.Nil(t, pageElements("The answer is [1] in the list."))
}

// TestTaskTokens: what tells the task's item apart: its numbers and codes
// with a digit, and its names in quotes; not a link, a short number, or an
// apostrophe's word; not the lines of the page the task step shows.
func TestTaskTokens(t *testing.T) {
	assert.Equal(t, []string{"000000178"}, taskTokens(ordersPage))
	assert.Equal(t, []string{"antonia racer tank"}, taskTokens("How many reviews does the product 'Antonia Racer Tank' have on http://localhost:7780?"))
	assert.Equal(t, []string{"r50"}, taskTokens("Add 2 of the women's Canon EOS R50 bodies to my cart."))
}

// TestElementPicks: a click on the element of another row of the table
// than the one the task names (the other order), or of another entry of
// a flat listing (the other model), is a pick past the task's; a click in
// the task's row, in a page without the task's item, or one the agent
// follows with a pick of the task's item is not. An answer read from the
// other entry of a listing passes the task's over too.
func TestElementPicks(t *testing.T) {
	listing := "[401] RootWebArea 'Search results' focused: True\n\t[430] link 'Sony WH-1000XM4 Headphones'\n\t[431] StaticText '$278.00'\n\t[432] button 'Add to Cart'\n" +
		"\t[440] link 'Sony WH-1000XM5 Headphones'\n\t[441] StaticText '$348.00'\n\t[442] button 'Add to Cart'"
	for _, tt := range []struct {
		name, task, page string
		actions          []string
		want             *Choice
		at               int
	}{
		{"the other order", "What is the grand total of my order #000000178?", ordersPage, []string{"```click [1886]```"}, &Choice{Offer: 0, Picked: []string{"000000187"}, Passed: []string{"000000178"}}, 1},
		{"the task's order", "What is the grand total of my order #000000178?", ordersPage, []string{"```click [1896]```"}, nil, 1},
		{"an order the task does not name", "What is the grand total of my last order?", ordersPage, []string{"```click [1886]```"}, nil, 1},
		{"the other model", "Add the Sony WH-1000XM5 to my cart.", listing, []string{"```click [432]```"}, &Choice{Offer: 0, Picked: []string{"sony wh-1000xm4 headphones"}, Passed: []string{"wh-1000xm5"}}, 1},
		{"the other model, then the task's", "Add the Sony WH-1000XM5 to my cart.", listing, []string{"```click [432]```", "```click [442]```"}, nil, 1},
		{"browser-use's index", "Add the Sony WH-1000XM5 to my cart.", "[430]<a >Sony WH-1000XM4 Headphones />\n[432]<button >Add to Cart />\n[440]<a >Sony WH-1000XM5 Headphones />\n[442]<button >Add to Cart />",
			[]string{`{"action": "click_element", "index": 432}`}, &Choice{Offer: 0, Picked: []string{"sony wh-1000xm4 headphones"}, Passed: []string{"wh-1000xm5"}}, 1},
		{"an answer from the other entry", "What is the price of the 'Sony WH-1000XM5 Headphones'?", listing, []string{"The price is $278.00.\n```stop [$278.00]```"}, &Choice{Offer: 0, Picked: []string{"sony wh-1000xm4 headphones"}, Passed: []string{"sony wh-1000xm5 headphones", "wh-1000xm5"}}, 1},
		{"an answer from the task's entry", "What is the price of the 'Sony WH-1000XM5 Headphones'?", listing, []string{"The price is $348.00.\n```stop [$348.00]```"}, nil, 1},
	} {
		pairs := []string{"user", tt.page}
		for _, a := range tt.actions {
			pairs = append(pairs, "assistant", a, "user", tt.page)
		}
		r := chat(pairs...)
		for k, a := range tt.actions {
			if a[0] == '{' {
				r.Steps[1+2*k].Content, r.Steps[1+2*k].Kind = "Click it.", run.KindToolCall
				r.Steps[1+2*k].Edit().ToolCalls = []run.ToolCall{{Name: "browser_use", Arguments: a}}
			}
		}
		r.Question = tt.task
		rf := Run(r)
		assert.Equal(t, tt.want, rf.Steps[tt.at].PassedOver, tt.name)
	}
}

// TestEnteredValues: what a page action puts into an element is a value
// of its call: the text WebArena's type and BrowserGym's fill give after
// the element's id (not WebArena's flag of whether to press Enter), the
// option select_option chooses, and SeeAct's VALUE line after an action
// that types or selects; a click enters none.
func TestEnteredValues(t *testing.T) {
	for _, tt := range []struct {
		name, action string
		want         []string
	}{
		{"WebArena type", "In summary, the next action I will perform is ```type [130] [Fix contrast of the header links] [1]```", []string{"Fix contrast of the header links"}},
		{"WebArena quantity", "In summary, the next action I will perform is ```type [160] [2] [0]```", []string{"2"}},
		{"WebArena click", "In summary, the next action I will perform is ```click [1886]```", nil},
		{"BrowserGym fill", "<action>\nfill('a160', 'Antonia')\n</action>", []string{"Antonia"}},
		{"BrowserGym select", "<action>\nselect_option('a310', \"Women's Tees\")\n</action>", []string{"Women's Tees"}},
		{"SeeAct type", "The date field takes mm/dd/yyyy.\n\n(Reiteration)\nELEMENT: A\nACTION: TYPE\nVALUE: 04/28/2024", []string{"04/28/2024"}},
		{"SeeAct click", "I choose it.\n\n(Reiteration)\nELEMENT: B\nACTION: CLICK\nVALUE: None", nil},
	} {
		r := chat("user", ordersPage, "assistant", tt.action, "user", ordersPage)
		r.Question = r.Steps[0].Content
		rf := Run(r)
		require.Len(t, rf.Steps[1].Calls, 1, tt.name)
		assert.Equal(t, tt.want, rf.Steps[1].Calls[0].Values, tt.name)
	}
}

// playwrightPage is a shop's product page as Playwright's MCP server
// prints its snapshot after an action: the elements as a YAML list, each
// one an action may target with its ref.
const playwrightPage = "- Ran Playwright code:\n```js\nawait page.goto('http://localhost:7770/radiant-tee.html');\n```\n\n- Page URL: http://localhost:7770/radiant-tee.html\n- Page Title: Radiant Tee\n- Page Snapshot\n```yaml\n" +
	"- generic [ref=e2]:\n  - heading \"Radiant Tee\" [level=1] [ref=e50]\n  - text: $22.00\n  - combobox \"Size\" [ref=e52]:\n    - option \"Choose an Option...\" [selected]\n    - option \"S\"\n    - option \"M\"\n    - option \"L\"\n  - button \"Add to Cart\" [ref=e55]\n```"

// TestAriaPageElements: Playwright's snapshot is a page's tree: each
// element's role, its ref as its id (none for an element no action
// targets) and its depth; a list in prose, with no ref, is no page.
func TestAriaPageElements(t *testing.T) {
	els := pageElements(playwrightPage)
	require.Len(t, els, 9)
	assert.Equal(t, pageElement{id: "e52", role: "combobox", text: " \"size\" [ref=e52]:", depth: 1}, els[3])
	assert.Equal(t, pageElement{id: "", role: "option", text: " \"m\"", depth: 2}, els[6])
	assert.Equal(t, []string{"choose an option...", "s", "m", "l"}, pageOptions(playwrightPage))
	assert.Nil(t, pageElements("Steps:\n- open the page\n- click the link\n- read the total"))
}

// TestSelectedOptionPassedOver: selecting an option of a page's menu
// (BrowserGym's select_option, Playwright MCP's browser_select_option)
// other than the one the task names passes it over; selecting the
// task's does not, nor do the options the task step's own page lists
// count as the task's.
func TestSelectedOptionPassedOver(t *testing.T) {
	filters := "## AXTree:\nRootWebArea 'Orders', focused\n\t[a310] combobox 'Status', hasPopup='menu'\n\t\t[a312] option 'Canceled', selected=False\n\t\t[a316] option 'Pending', selected=False\n\t\t[a317] option 'Processing', selected=False\n\t[a331] button 'Apply Filters'"
	for _, tt := range []struct {
		name, task, page, action, args string
		want                           *Choice
	}{
		{"another status", "How many orders are in 'Pending' status?", filters, "<action>\nselect_option('a310', 'Processing')\n</action>", "", &Choice{Offer: 2, Picked: []string{"processing"}, Passed: []string{"pending"}}},
		{"the task's status", "How many orders are in 'Pending' status?", filters, "<action>\nselect_option('a310', 'Pending')\n</action>", "", nil},
		{"another size", "Add the 'Radiant Tee' in size L to my cart.", playwrightPage, "", `{"element": "Size combobox", "ref": "e52", "values": ["M"]}`, &Choice{Offer: 2, Picked: []string{"m"}, Passed: []string{"l"}}},
		{"the task's size", "Add the 'Radiant Tee' in size L to my cart.", playwrightPage, "", `{"element": "Size combobox", "ref": "e52", "values": ["L"]}`, nil},
	} {
		r := chat("user", tt.task+"\n"+tt.page, "assistant", "<action>\nclick('a260')\n</action>", "user", tt.page, "assistant", tt.action, "user", tt.page)
		if tt.args != "" {
			for k, c := range []run.ToolCall{{Name: "browser_click", Arguments: `{"element": "Filters", "ref": "e9"}`}, {Name: "browser_select_option", Arguments: tt.args}} {
				r.Steps[1+2*k].Kind, r.Steps[1+2*k].Content = run.KindToolCall, ""
				r.Steps[1+2*k].Edit().ToolCalls = []run.ToolCall{c}
				r.Steps[2+2*k].Kind = run.KindToolResult
			}
		}
		r.Question = r.Steps[0].Content
		rf := Run(r)
		assert.Equal(t, tt.want, rf.Steps[3].PassedOver, tt.name)
	}
}

// TestAnswerFigurePassedOver: a reply that states a figure read from
// another entry of a listing (Playwright's snapshot) than the one the
// task names, in a sentence, passes the task's over as a bare answer
// does.
func TestAnswerFigurePassedOver(t *testing.T) {
	listing := "- Page Snapshot\n```yaml\n- list [ref=e41]:\n  - listitem [ref=e42]:\n    - link \"JBL Bluetooth Speaker Max\" [ref=e43]\n    - text: $89.99\n  - listitem [ref=e45]:\n    - link \"Bluetooth Speaker Mini\" [ref=e46]\n    - text: $29.99\n```"
	r := chat("user", "What is the price of the 'Bluetooth Speaker Mini'?", "assistant", "browser_snapshot()", "tool", listing, "assistant", "The Bluetooth Speaker Mini costs $89.99.")
	r.Steps[1].Kind, r.Steps[2].Kind = run.KindToolCall, run.KindToolResult
	r.Steps[1].Edit().ToolCalls = []run.ToolCall{{Name: "browser_snapshot", Arguments: "{}"}}
	r.Question = r.Steps[0].Content
	rf := Run(r)
	require.NotNil(t, rf.Steps[3].PassedOver)
	assert.Equal(t, []string{"bluetooth speaker mini"}, rf.Steps[3].PassedOver.Passed)
	r.Steps[3].Content = "The Bluetooth Speaker Mini costs $29.99."
	assert.Nil(t, Run(r).Steps[3].PassedOver)
}

// TestRewrites: a call given a name the task quotes with one word put
// otherwise rewrites it; the name itself, a form of its word ("links"
// for "link"), a value of other words or of two words changed does not.
func TestRewrites(t *testing.T) {
	task := "Who approved the merge request 'Fix contrast of the footer links'?"
	for _, tt := range []struct {
		value string
		want  *Rewrite
	}{
		{"Fix contrast of the header links", &Rewrite{Name: "fix contrast of the footer links", Word: "header"}},
		{"Fix contrast of the footer links", nil},
		{"Fix contrast of the footer link", nil},
		{"Fix colour of the header links", nil},
		{"footer contrast", nil},
	} {
		r := chat("user", task, "assistant", "```type [130] ["+tt.value+"] [1]```", "user", ordersPage)
		r.Question = task
		rf := Run(r)
		require.Len(t, rf.Steps[1].Calls, 1, tt.value)
		assert.Equal(t, tt.want, rf.Steps[1].Calls[0].Rewrites, tt.value)
	}
}

// TestNotApplicableIsNoAnswer: WebArena's "stop [N/A]", said of a task
// done without a text answer or found impossible, states no answer.
func TestNotApplicableIsNoAnswer(t *testing.T) {
	r := chat("user", ordersPage, "assistant", "No merge request has that title, so the task cannot be done. In summary, the next action I will perform is ```stop [N/A]```")
	r.Question = r.Steps[0].Content
	rf := Run(r)
	assert.False(t, rf.Steps[1].Has(KindFinalAnswer))
	if rf.FinalAnswer != nil {
		assert.NotEqual(t, "N/A", rf.FinalAnswer.Text)
	}
}

// TestStaleErrors: a notice of failure a page shows that the page before
// the action showed too is no failure of the action; one the action
// brought is.
func TestStaleErrors(t *testing.T) {
	form := "[1] RootWebArea 'Orders Report'\n\t[681] textbox 'From'\n\t[685] textbox 'To'\n\t[700] button 'Show Report'\n\t[710] StaticText 'We couldn't find any records.'"
	fresh := "[1] RootWebArea 'Orders Report'\n\t[681] textbox 'From'\n\t[685] textbox 'To'\n\t[700] button 'Show Report'"
	for _, tt := range []struct {
		name, before string
		want         bool
	}{
		{"kept from the page before", form, false},
		{"brought by the action", fresh, true},
	} {
		r := chat("user", tt.before, "assistant", "```type [681] [01/01/2023] [0]```", "user", form)
		r.Question = "Show me the number of orders from Jan 1, 2023 to Mar 31, 2023."
		rf := Run(r)
		require.True(t, rf.Steps[2].Has(KindToolResult), tt.name)
		assert.Equal(t, tt.want, len(rf.Steps[2].Errors) > 0, tt.name)
	}
}

// TestMind2WebActions: an action written as Mind2Web writes it, the
// element and then the operation, is a call of the operation, and what
// it types or selects is its value.
func TestMind2WebActions(t *testing.T) {
	for _, tt := range []struct {
		action, name string
		want         []string
	}{
		{"ACTION: [textbox]  Pick-up date -> TYPE: 04/21/2024", "type", []string{"04/21/2024"}},
		{"ACTION: [combobox]  Party size -> SELECT: 5 people", "select", []string{"5 people"}},
		{"ACTION: [button]  Select My Car -> CLICK", "click", nil},
	} {
		r := chat("user", "Rent a car at Newark Liberty Airport from April 12 to April 15.", "WebNavigator", tt.action, "Browser", "Page: budget.com")
		r.Question = r.Steps[0].Content
		rf := Run(r)
		require.Len(t, rf.Steps[1].Calls, 1, tt.action)
		assert.Equal(t, tt.name, rf.Steps[1].Calls[0].Name, tt.action)
		assert.Equal(t, tt.want, rf.Steps[1].Calls[0].Values, tt.action)
	}
}

// TestRequantity: a number typed into a page's quantity field other than
// the one count the task states (WebArena's type, browser-use's
// input_text in its AgentOutput) is read against the task's count; the
// task's number, a field that takes no quantity, or a task that counts
// two things is not.
func TestRequantity(t *testing.T) {
	product := "[1] RootWebArea 'Sport Water Bottle 32oz' focused: True\n\t[150] StaticText '$21.64'\n\t[160] spinbutton 'Qty' required: False\n\t[165] textbox 'Gift message'\n\t[170] button 'Add to Cart'"
	for _, tt := range []struct {
		name, task, action, args string
		want                     *Count
	}{
		{"another quantity", "Add 3 of the 'Sport Water Bottle 32oz' to my cart.", "```type [160] [2] [0]```", "", &Count{Noun: "of", Value: 3}},
		{"the task's quantity", "Add 3 of the 'Sport Water Bottle 32oz' to my cart.", "```type [160] [3] [0]```", "", nil},
		{"no quantity field", "Add 3 of the 'Sport Water Bottle 32oz' to my cart.", "```type [165] [2] [0]```", "", nil},
		{"two counts", "Add 3 bottles and 2 caps to my cart.", "```type [160] [2] [0]```", "", nil},
		{"browser-use", "Order 2 boxes of the K-Cups.", "", `{"current_state": {"memory": "on the product page"}, "action": [{"input_text": {"index": 8, "text": "3"}}]}`, &Count{Noun: "boxes", Value: 2}},
	} {
		page := product
		if tt.args != "" {
			page = "[8]<input type=number name=qty value=1 />\n[9]<button title=Add to Cart>Add to Cart</button>"
		}
		r := chat("user", tt.task, "user", page, "assistant", tt.action, "user", page)
		if tt.args != "" {
			r.Steps[2].Kind, r.Steps[2].Content = run.KindToolCall, ""
			r.Steps[2].Edit().ToolCalls = []run.ToolCall{{Name: "AgentOutput", Arguments: tt.args}}
		}
		r.Question = tt.task
		rf := Run(r)
		require.Len(t, rf.Steps[2].Calls, 1, tt.name)
		assert.Equal(t, tt.want, rf.Steps[2].Calls[0].Requantity, tt.name)
	}
}
