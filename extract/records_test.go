package extract

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestRecords reads the records of a listing a tool's JSON output prints:
// the objects of a list that hold an id, and the objects a map holds
// under their ids, each with the words describing it (a line's number
// among them, not a date) and the figures its fields give; a single record,
// or output that is no JSON, lists none; an id is read under any key
// that names one ("plan_id", "planId"). Shapes: tau-bench retail's
// product variants and a user's payment methods, a telecom plan list and
// an account's lines.
func TestRecords(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       []Record
	}{
		{"a list of plans", `[{"plan_id": "P-UNL-BASIC", "name": "Unlimited Basic", "price": 45}, {"plan_id": "P-UNL-PLUS", "name": "Unlimited Plus", "price": 60}]`,
			[]Record{{IDs: []string{"P-UNL-BASIC"}, Words: []string{"unlimited basic"}, Numbers: []string{"45"}, Price: "45"}, {IDs: []string{"P-UNL-PLUS"}, Words: []string{"unlimited plus"}, Numbers: []string{"60"}, Price: "60"}}},
		{"variants by item id", `{"product_id": "8810", "variants": {"5512177": {"options": {"color": "red"}, "available": true}, "5512240": {"options": {"color": "blue"}, "available": true}}}`,
			[]Record{{IDs: []string{"5512177"}, Words: []string{"red"}}, {IDs: []string{"5512240"}, Words: []string{"blue"}}}},
		{"payment methods by id", `{"user_id": "ava_roy_7781", "payment_methods": {"credit_card_8812": {"source": "credit_card", "last_four": "8812"}, "gift_card_5521": {"source": "gift_card", "balance": 35.0}}}`,
			[]Record{{IDs: []string{"credit_card_8812"}, Words: []string{"credit card"}}, {IDs: []string{"gift_card_5521"}, Words: []string{"gift card"}, Numbers: []string{"35"}}}},
		{"lines by their numbers", `{"lines": [{"line_id": "L-31170", "phone": "555-0147", "activated": "2024-03-01"}, {"line_id": "L-31171", "phone": "+1 (415) 555-0182"}]}`,
			[]Record{{IDs: []string{"L-31170"}, Words: []string{"555-0147"}}, {IDs: []string{"L-31171"}, Words: []string{"+1 (415) 555-0182"}}}},
		{"one record", `{"order_id": "#W8812", "status": "delivered"}`, nil},
		{"no JSON", "Plans: Unlimited Basic, Unlimited Plus.", nil},
		{"ids under camelCase keys", `[{"planId": "basic", "name": "Unlimited Basic", "price": 45}, {"planID": "plus", "name": "Unlimited Plus", "price": 60}]`,
			[]Record{{IDs: []string{"basic"}, Words: []string{"unlimited basic"}, Numbers: []string{"45"}, Price: "45"}, {IDs: []string{"plus"}, Words: []string{"unlimited plus"}, Numbers: []string{"60"}, Price: "60"}}},
	} {
		assert.Equal(t, tt.want, records(decoded(tt.text)), tt.name)
	}
}

// TestFoundNothing reads a tool's JSON output that says it found no
// record, in the shapes lookup and search APIs write it, and not one
// that found a record with an empty list in it or says there is no
// error. Shapes: REST lookups that echo their arguments, search APIs
// with a total (Elasticsearch, GitHub's search), error objects, a code
// runner's empty list; not a page's text that opens with a bracket.
func TestFoundNothing(t *testing.T) {
	for _, tt := range []struct {
		out  string
		want bool
	}{
		{`[]`, true},
		{"exitcode: 0 (execution succeeded)\nCode output: []\n", true},
		{"Here is a screenshot of [](https://example.org/a.pdf). The viewport shows 100% of the webpage.", false},
		{`{"query": {"sku": "TR2-43"}, "results": [], "total": 0}`, true},
		{`{"sku": "TR2-43", "found": false, "warehouses": null}`, true},
		{`{"error": "No product with sku TR2-43"}`, true},
		{`{"sku": "TR2-43", "warehouses": []}`, true},
		{`{"sku": "TR2-43", "warehouses": [{"name": "Berlin", "quantity": 0}]}`, false},
		{`{"order": {"id": "ORD-4417", "status": "pending"}, "items": []}`, false},
		{`{"error": null, "ok": true, "data": [{"id": "ch_7782"}]}`, false},
		{`{"order_id": "ORD-4417", "status": "delivered"}`, false},
	} {
		v, whole, ok := toolJSON(tt.out)
		require.True(t, ok, tt.out)
		assert.Equal(t, tt.want, whole && foundNothing(v), tt.out)
	}
}

// TestPhoneDigits: a number to dial is one number however its digits are
// grouped and punctuated; two numbers that differ in a digit are two, and
// a date or a short number is none.
func TestPhoneDigits(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"(415) 555-0132", "4155550132"},
		{"415.555.0132", "4155550132"},
		{"4155550132", "4155550132"},
		{"+1 415 555 0132", "14155550132"},
		{"415-555-0187", "4155550187"},
		{"2025-03-14", ""},
		{"12345", ""},
		{"L-3091", ""},
		{"+44 (0)20 7323 8000", "442073238000"},
		{"020 7946 0958", "02079460958"},
	} {
		assert.Equal(t, tt.want, PhoneDigits(tt.in), tt.in)
	}
	assert.Equal(t, []string{"4155550132", "4155550187"}, phones(newText("My number is (415) 555-0132; the other line is 415-555-0187, not (415) 555-0132.")))
}

// TestPhonesWrittenAbroad: numbers to dial outside North America's
// pattern are read whole, after their country's code or with the trunk 0
// their country dials them with, and are not read as figures; a date, a
// price or a short code is no number to dial.
func TestPhonesWrittenAbroad(t *testing.T) {
	for _, tt := range []struct {
		text string
		want []string
	}{
		{"My number is +44 20 7946 0958, the work line.", []string{"442079460958"}},
		{"Call 020 7946 0958 or 07700 900123.", []string{"02079460958", "07700900123"}},
		{"Telephone: +44 (0)20 7323 8000. Open daily.", []string{"442073238000"}},
		{"Meine Nummer ist 0151 2345 6789 (privat), +49 30 12345678 (Büro).", []string{"015123456789", "493012345678"}},
		{"It's +91 98765 43210, or +4915123456789.", []string{"919876543210", "4915123456789"}},
		{"Paris: +33 1 42 68 53 00.", []string{"33142685300"}},
		{"On 01 2026 it cost 0.50 and ref 0123 45, about 1.200 €.", nil},
		{"Great Neck Rd, Waterford, CT 06385-3823, USA.", nil},
		{"The number is 01 42 68 53 00, or my mobile 06.12.34.56.78.", []string{"0142685300", "0612345678"}},
		{"Scores were 01 42 68-53 00 and 10 20 30 40 50.", nil},
	} {
		assert.Equal(t, tt.want, phones(newText(tt.text)), tt.text)
	}
	assert.Empty(t, slices.DeleteFunc(Claims("Telephone: +44 (0)20 7323 8000 or 020 7946 0958."), func(c Claim) bool { return c.Kind != ClaimNumber }))
}

// TestSamePhone: one line's number written with its country's code, with
// the trunk 0 its country dials it with, or with 00 for the "+", is one
// number; numbers a digit apart, or whose shared digits are too few to
// name a line, are two.
func TestSamePhone(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"4155550132", "4155550132", true},
		{"14155550132", "4155550132", true},
		{"442079460958", "02079460958", true},
		{"02079460958", "442079460958", true},
		{"00442079460958", "442079460958", true},
		{"015123456789", "4915123456789", true},
		{"919876543210", "9876543210", true},
		{"442079460958", "02079460321", false},
		{"4155550132", "4155550123", false},
		{"4155550", "14155550", false},
		{"02079460958", "2079460958", false},
		{"12079460958", "02079460958", false},
		{"", "", false},
	} {
		assert.Equal(t, tt.want, SamePhone(tt.a, tt.b), tt.a+" "+tt.b)
	}
}

// TestGrouped: an id written in groups spaced or hyphenated apart, with
// a few capitals before them or none, is read joined and in lower case;
// a word's letter before the groups, and groups of fewer than six digits
// in all, are not.
func TestGrouped(t *testing.T) {
	for _, tt := range []struct {
		text string
		want []string
	}{
		{"My order is W 123 4567, thanks.", []string{"w1234567"}},
		{"It's 4417-2209-18.", []string{"4417220918"}},
		{"Card ending 12 34, room 12-3.", nil},
		{"Order W 123 4567 and again W 123 4567.", []string{"w1234567"}},
	} {
		assert.Equal(t, tt.want, grouped(newText(tt.text)), tt.text)
	}
}

// TestTellsNone: a step that tells there is none of something ("None",
// a count of nought, "there are no …") is marked; a "no" that counts
// nothing ("no problem") and a zero of a figure ("$0", "0.5 kg") are not.
func TestTellsNone(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"None: Northwind has 0 invoices more than 60 days overdue.", true},
		{"Northwind has no overdue invoices.", true},
		{"There are no flights on that day.", true},
		{"The search returned zero results.", true},
		{"Zero orders shipped late.", true},
		{"No problem, I'll check the billing database.", false},
		{"The fee is $0 and the parcel weighs 0.5 kg.", false},
		{"Northwind has 3 invoices more than 60 days overdue.", false},
		{"Changing the flag has no effect on the invoices.", false},
		{"There is no way to cancel a shipped order.", false},
		{"I have no access to the billing database.", false},
		{"The agent had no permission to write there, and there was no need to retry.", false},
		{"I have no idea which account it is.", false},
		{"There are no more seats, and the account has no orders.", true},
	} {
		r := &run.Run{Question: "How many?", Steps: []run.Step{{Index: 0, Agent: "assistant", Kind: run.KindMessage, Content: tt.text}}}
		assert.Equal(t, tt.want, Run(r).Steps[0].TellsNone, tt.text)
	}
}
