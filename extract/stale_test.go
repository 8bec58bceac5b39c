package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestStale: a value a tool's output gave under a field that a later
// output, after a call that changes things, gives otherwise is stale in
// a step that writes it without the new one; a read-only call between
// the outputs, an output of another record, or a field a listing prints
// for each of its records, makes nothing stale.
func TestStale(t *testing.T) {
	before := `{"order_id": "W2041", "address": "12 Oak Street, Leeds"}`
	after := `{"order_id": "W2041", "address": "9 Elm Road, York"}`
	listing := `{"orders": [{"address": "12 Oak Street, Leeds"}, {"address": "4 Mill Lane, Hull"}]}`
	for _, tt := range []struct {
		name, first, call, second, told string
		want                            []Stale
	}{
		{"changed", before, `modify_order_address({"order_id": "W2041", "address": "9 Elm Road, York"})`, after, "It ships to 12 Oak Street, Leeds.",
			[]Stale{{Key: "address", Old: "12 Oak Street, Leeds", New: "9 Elm Road, York", At: 4}}},
		{"the new value told", before, `modify_order_address({"order_id": "W2041", "address": "9 Elm Road, York"})`, after, "It ships to 9 Elm Road, York.", nil},
		{"only read again", before, `get_order_details({"order_id": "W2041"})`, after, "It ships to 12 Oak Street, Leeds.", nil},
		{"another record", before, `modify_order_address({"order_id": "W2041", "address": "9 Elm Road, York"})`, `{"order_id": "W3377", "address": "9 Elm Road, York"}`, "It ships to 12 Oak Street, Leeds.", nil},
		{"a stamp the update wrote", `{"order_id": "W2041", "updated_at": "2026-11-01T10:00:00Z", "address": "9 Elm Road, York"}`, `modify_order_items({"order_id": "W2041", "item": "lamp"})`, `{"order_id": "W2041", "updated_at": "2026-11-29T12:00:00Z", "address": "9 Elm Road, York"}`, "Changed; it was last updated 2026-11-01T10:00:00Z.", nil},
		{"a stamp in camel case", `{"order_id": "W2041", "lastModified": "Sun 1 Nov 10:00"}`, `modify_order_items({"order_id": "W2041", "item": "lamp"})`, `{"order_id": "W2041", "lastModified": "Sun 29 Nov 12:00"}`, "Changed; it was Sun 1 Nov 10:00 before.", nil},
		{"a value inside a longer one", `{"order_id": "W2041", "room": "Suite 12"}`, `modify_order_room({"order_id": "W2041", "room": "Suite 7"})`, `{"order_id": "W2041", "room": "Suite 7"}`, "You are now in Suite 120 of the annex.", nil},
		{"a value as a whole token", `{"order_id": "W2041", "room": "Suite 12"}`, `modify_order_room({"order_id": "W2041", "room": "Suite 7"})`, `{"order_id": "W2041", "room": "Suite 7"}`, "You are now in Suite 12, annex.",
			[]Stale{{Key: "room", Old: "Suite 12", New: "Suite 7", At: 4}}},
		{"a listing", listing, `modify_order_address({"order_id": "W2041", "address": "9 Elm Road, York"})`, after, "It ships to 12 Oak Street, Leeds.", nil},
	} {
		r := chat("user", "Send W2041 to 9 Elm Road, York.", "assistant", `get_order_details({"order_id": "W2041"})`, "tool", tt.first,
			"assistant", tt.call, "tool", tt.second, "assistant", tt.told)
		r.Steps[1].Kind, r.Steps[2].Kind, r.Steps[3].Kind, r.Steps[4].Kind = run.KindToolCall, run.KindToolResult, run.KindToolCall, run.KindToolResult
		assert.Equal(t, tt.want, Run(r).Steps[5].Stale, tt.name)
	}
}
