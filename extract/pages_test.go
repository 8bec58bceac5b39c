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
