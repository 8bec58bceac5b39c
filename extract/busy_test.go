package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestBusyClashes: a call that books a slot over a time the calendar's
// answer before it lists as busy for an attendee the call books clashes,
// whether the answer lists pairs of times or objects of a start and an
// end, and whether the call gives date-times or times; a slot free for
// all, one that only touches a busy time's end, one in a time the answer
// lists as free, or one over the busy time of someone the call does not
// book (where the answer does not say its times are busy ones) is none. Shape: a scheduling
// assistant as an OpenAI chat transcript with tool calls.
func TestBusyClashes(t *testing.T) {
	pairs := `{"priya@acme.io": [["09:00", "10:30"]], "marco@acme.io": [["13:30", "15:00"]]}`
	objects := `{"busy": {"priya@acme.io": [{"start": "09:00", "end": "10:30"}], "marco@acme.io": [{"start": "13:30", "end": "15:00"}]}}`
	for _, tt := range []struct {
		name, busy, args string
		want             *BusyClash
	}{
		{"over a pair", pairs, `{"start": "2026-03-10T14:00", "end": "2026-03-10T15:00", "attendees": ["priya@acme.io", "marco@acme.io"]}`,
			&BusyClash{Result: 2, Who: "marco@acme.io", Busy: "13:30-15:00", Booked: "14:00-15:00"}},
		{"over an object", objects, `{"start_time": "10:00", "end_time": "11:00", "attendees": ["priya@acme.io"]}`,
			&BusyClash{Result: 2, Who: "priya@acme.io", Busy: "09:00-10:30", Booked: "10:00-11:00"}},
		{"free for all", pairs, `{"start": "2026-03-10T11:00", "end": "2026-03-10T12:00", "attendees": ["priya@acme.io", "marco@acme.io"]}`, nil},
		{"right after a busy time", pairs, `{"start": "15:00", "end": "16:00", "attendees": ["priya@acme.io", "marco@acme.io"]}`, nil},
		{"in a free time", `{"priya@acme.io": [{"start": "13:30", "end": "15:00", "status": "free"}], "marco@acme.io": [{"start": "13:30", "end": "15:00", "status": "free"}]}`, `{"start": "14:00", "end": "15:00", "attendees": ["priya@acme.io", "marco@acme.io"]}`, nil},
		{"over a busy time of no one it names", `{"busy": {"room-4a": [["13:30", "15:00"]]}}`, `{"start": "14:00", "end": "15:00", "room": "4A"}`,
			&BusyClash{Result: 2, Who: "room-4a", Busy: "13:30-15:00", Booked: "14:00-15:00"}},
		{"over one not booked", pairs, `{"start": "14:00", "end": "15:00", "attendees": ["priya@acme.io"]}`, nil},
	} {
		r := chat("user", "Book an hour with Priya and Marco on Tuesday.", "assistant", `get_busy({"date": "2026-03-10"})`, "tool", tt.busy, "assistant", "create_event("+tt.args+")", "tool", `{"status": "confirmed"}`)
		r.Steps[1].Kind, r.Steps[2].Kind, r.Steps[3].Kind, r.Steps[4].Kind = run.KindToolCall, run.KindToolResult, run.KindToolCall, run.KindToolResult
		r.Steps[1].Extra = &run.Extra{ToolCalls: []run.ToolCall{{Name: "get_busy", Arguments: `{"date": "2026-03-10"}`}}}
		r.Steps[3].Extra = &run.Extra{ToolCalls: []run.ToolCall{{Name: "create_event", Arguments: tt.args}}}
		r.Question = r.Steps[0].Content
		rf := Run(r)
		assert.Equal(t, tt.want, rf.Steps[3].Clash, tt.name)
	}
}

// TestMinuteOf: a time of day reads as its minute of the day whether
// its hour has one digit or two, with or without seconds, a zone or a
// date before it; an hour past the day's (24:30), or digits past the
// minutes, are no time.
func TestMinuteOf(t *testing.T) {
	tests := []struct {
		in   string
		want int
		ok   bool
	}{
		{"14:30", 14*60 + 30, true},
		{"09:05", 9*60 + 5, true},
		{"9:30", 9*60 + 30, true},
		{"1:45:30", 1*60 + 45, true},
		{"01:45:30", 1*60 + 45, true},
		{"2026-03-10T14:30:00Z", 14*60 + 30, true},
		{"2026-03-10T14:30:00.000+02:00", 14*60 + 30, true},
		{"2026-03-10 9:15", 9*60 + 15, true},
		{"2:30 pm", 14*60 + 30, true},
		{"12:15 AM", 15, true},
		{"24:00", 24 * 60, true},
		{"24:30", 0, false},
		{"25:00", 0, false},
		{"14:60", 0, false},
		{"14:305", 0, false},
		{"14:30:75", 0, false},
		{"123:45", 0, false},
		{"13:00 pm", 0, false},
		{"noon", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := minuteOf(tt.in)
			assert.Equal(t, tt.ok, ok)
			if tt.ok {
				assert.Equal(t, tt.want, got)
			}
		})
	}
}
