package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestUnsupportedArgumentsOfSitePages: a web agent that goes to a page of
// the site the task names, by a path without a figure of its own (an
// admin's grid of orders) or with the task's words in its query, made
// nothing up, and the operation its browser tool is given
// ("go_to_url") is no value; the page of an order the task does not name
// is made up.
func TestUnsupportedArgumentsOfSitePages(t *testing.T) {
	task := "How many orders in the store admin at http://localhost:7780/admin have the status 'Canceled'? Look up order 154 too."
	for _, tt := range []struct {
		url  string
		want []int
	}{
		{"http://localhost:7780/admin/sales/order/", nil},
		{"http://localhost:7780/admin/sales/order/view/order_id/154/", nil},
		{"http://localhost:7780/admin/sales/order/view/order_id/145/", []int{1}},
		{"http://shop.example.com/admin/sales/order/", []int{1}},
	} {
		in := prepare(t, task, "",
			msg{agent: "user", content: task, kind: run.KindUser},
			msg{agent: "assistant", content: `browser_use({"action": "go_to_url", "url": "` + tt.url + `"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "Navigated to " + tt.url, kind: run.KindToolResult},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.url)
	}
}

// TestDataFlowOriginOfElementPick: a web agent that opens the other
// order's row of its orders page and answers that order's total is
// blamed at the click, not at the step that opened the page of orders
// (WebArena's chat: the page in the user's turn, the action fenced).
func TestDataFlowOriginOfElementPick(t *testing.T) {
	obj := "\nOBJECTIVE: What is the grand total of my order #000000178?"
	orders := "OBSERVATION:\n[1801] RootWebArea 'My Orders' focused: True\n\t[1870] table 'Orders'\n" +
		"\t\t[1880] row ''\n\t\t\t[1881] cell '000000187'\n\t\t\t[1883] cell '$64.92'\n\t\t\t\t[1886] link 'View Order'\n" +
		"\t\t[1890] row ''\n\t\t\t[1891] cell '000000178'\n\t\t\t[1893] cell '$212.35'\n\t\t\t\t[1896] link 'View Order'" + obj
	in := prepare(t, "OBSERVATION:\n[1] RootWebArea 'My Account' focused: True\n\t[210] link 'My Orders'\n\t[211] link 'Address Book'"+obj, "",
		msg{agent: "user", content: "OBSERVATION:\n[1] RootWebArea 'My Account' focused: True\n\t[210] link 'My Orders'\n\t[211] link 'Address Book'" + obj, kind: run.KindUser},
		msg{agent: "assistant", content: "The orders are under My Orders. In summary, the next action I will perform is ```click [210]```"},
		msg{agent: "user", content: orders, kind: run.KindUser},
		msg{agent: "assistant", content: "Order #000000178 is listed; I open it. In summary, the next action I will perform is ```click [1886]```"},
		msg{agent: "user", content: "OBSERVATION:\n[2401] RootWebArea 'Order # 000000187' focused: True\n\t[2497] rowheader 'Grand Total'\n\t[2498] cell '$64.92'" + obj, kind: run.KindUser},
		msg{agent: "assistant", content: "The Grand Total is $64.92. In summary, the next action I will perform is ```stop [$64.92]```"},
	)
	assert.Equal(t, []int{3}, steps(DataFlowOrigin.Run(in), true))
}

// TestUnsupportedArgumentsOfRewrittenName: a web agent that searches for
// the merge request the task names in quotes with one of its words put
// otherwise, by a word no step wrote, made that word up, though a search
// in words is otherwise prose; the task's name, or a word an earlier
// page showed, is not made up.
func TestUnsupportedArgumentsOfRewrittenName(t *testing.T) {
	task := "Who approved the merge request 'Fix contrast of the footer links'?"
	page := "OBSERVATION:\n[1] RootWebArea 'Merge requests' focused: True\n\t[130] textbox 'Search or filter results...'\n\t[140] link 'Fix contrast of the sidebar links'\n\t[141] link 'Add alt text'"
	for _, tt := range []struct {
		query string
		want  []int
	}{
		{"Fix contrast of the header links", []int{1}},
		{"Fix contrast of the footer links", nil},
		{"Fix contrast of the sidebar links", nil},
	} {
		in := prepare(t, task, "",
			msg{agent: "user", content: page + "\nOBJECTIVE: " + task, kind: run.KindUser},
			msg{agent: "assistant", content: "I search for it. In summary, the next action I will perform is ```type [130] [" + tt.query + "] [1]```"},
			msg{agent: "user", content: page + "\nOBJECTIVE: " + task, kind: run.KindUser},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.query)
	}
}

// TestUnsupportedClaimOfSitePage: the link a web agent's call opens on
// the site the task names, with the task's words in its query, is no
// value it made up, as unsupported_arguments reads it; a link to another
// site is.
func TestUnsupportedClaimOfSitePage(t *testing.T) {
	task := "What is the price of the 'Bluetooth Speaker Mini' on http://localhost:7770?"
	for _, tt := range []struct {
		url  string
		want []int
	}{
		{"http://localhost:7770/catalogsearch/result/?q=Bluetooth+Speaker", nil},
		{"http://shop.example.com/catalogsearch/result/?q=Bluetooth+Speaker", []int{1}},
	} {
		in := prepare(t, task, "",
			msg{agent: "user", content: task, kind: run.KindUser},
			msg{agent: "assistant", content: `browser_navigate({"url": "` + tt.url + `"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "- Page URL: " + tt.url + "\n- Page Title: Search results", kind: run.KindToolResult},
			msg{agent: "assistant", content: "The page " + tt.url + " lists the Bluetooth Speaker Mini at $29.99."},
		)
		assert.Equal(t, tt.want, steps(UnsupportedClaim.Run(in), true), tt.url)
	}
}

// TestDataFlowOriginOfFormEntry: a report's figure that the page shows
// after a click on the form's button is blamed on the date typed into
// the form that no step gave (2022 for the task's 2023), not on the
// click; with the task's dates typed, the click that brought the figure
// stays its origin. A tool called by name is no form.
func TestDataFlowOriginOfFormEntry(t *testing.T) {
	obj := "\nOBJECTIVE: How many orders were placed from 01/01/2023 to 03/31/2023 in the sales report?"
	form := "OBSERVATION:\n[1] RootWebArea 'Orders Report' focused: True\n\t[681] textbox 'From'\n\t[685] textbox 'To'\n\t[700] button 'Show Report'" + obj
	for _, tt := range []struct {
		from string
		want []int
	}{
		{"01/01/2022", []int{1}},
		{"01/01/2023", []int{5}},
	} {
		in := prepare(t, form, "",
			msg{agent: "user", content: form, kind: run.KindUser},
			msg{agent: "assistant", content: "I type the start date. In summary, the next action I will perform is ```type [681] [" + tt.from + "] [0]```"},
			msg{agent: "user", content: form, kind: run.KindUser},
			msg{agent: "assistant", content: "Now the end date. In summary, the next action I will perform is ```type [685] [03/31/2023] [0]```"},
			msg{agent: "user", content: form, kind: run.KindUser},
			msg{agent: "assistant", content: "I show the report. In summary, the next action I will perform is ```click [700]```"},
			msg{agent: "user", content: "OBSERVATION:\n[1] RootWebArea 'Orders Report' focused: True\n\t[800] table ''\n\t\t[810] row ''\n\t\t\t[811] cell 'Orders'\n\t\t\t[812] cell '604'" + obj, kind: run.KindUser},
			msg{agent: "assistant", content: "The report counts 604 orders. In summary, the next action I will perform is ```stop [604]```"},
		)
		assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true), tt.from)
	}
}

// TestUnsupportedArgumentsOfQuantity: a web agent that types another
// number into the quantity field than the task's count is found out,
// though a small number is otherwise no value; the task's count is not.
func TestUnsupportedArgumentsOfQuantity(t *testing.T) {
	obj := "\nOBJECTIVE: Add 3 of the 'Sport Water Bottle 32oz' to my cart."
	page := "OBSERVATION:\n[1] RootWebArea 'Sport Water Bottle 32oz' focused: True\n\t[160] spinbutton 'Qty' required: False\n\t[170] button 'Add to Cart'" + obj
	for _, tt := range []struct {
		qty  string
		want []int
	}{
		{"2", []int{1}},
		{"3", nil},
	} {
		in := prepare(t, page, "",
			msg{agent: "user", content: page, kind: run.KindUser},
			msg{agent: "assistant", content: "I set the quantity. In summary, the next action I will perform is ```type [160] [" + tt.qty + "] [0]```"},
			msg{agent: "user", content: page, kind: run.KindUser},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.qty)
	}
}

// TestUnsupportedClaimOfCallSetting: a call's bare setting (a limit of
// ten posts a day) is, as unsupported_arguments reads it, no value the
// call makes up; a limit of 250 that no one gave, which later steps
// carry, is.
func TestUnsupportedClaimOfCallSetting(t *testing.T) {
	task := "Report the sentiment on AMD for 2024-07-12."
	for _, limit := range []string{"10", "250"} {
		in := prepare(t, task, "",
			msg{agent: "user", content: task, kind: run.KindUser},
			msg{agent: "analyst", content: `get_reddit_posts({"ticker": "AMD", "curr_date": "2024-07-12", "max_limit_per_day": ` + limit + `})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "posts: " + limit + " a day, mostly positive", kind: run.KindToolResult},
			msg{agent: "analyst", content: "Sentiment on AMD is mostly positive across " + limit + " posts a day."},
		)
		var want []int
		if limit == "250" {
			want = []int{1}
		}
		assert.Equal(t, want, steps(UnsupportedClaim.Run(in), true), limit)
	}
}
