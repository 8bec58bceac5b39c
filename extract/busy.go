package extract

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/offattr/offattr/run"
)

// BusyClash is an agent's call that books a slot overlapping a time an
// earlier tool result lists as busy for one whom the call books: a
// meeting set over an attendee's other meeting, read from a calendar's
// free/busy answer.
type BusyClash struct {
	// Result is the tool result that listed the busy time.
	Result int `json:"result"`
	// Who is the key the result lists the busy time under (an
	// attendee's address), as written.
	Who string `json:"who"`
	// Busy is the busy time, Booked the slot the call books, each as
	// "HH:MM-HH:MM".
	Busy   string `json:"busy"`
	Booked string `json:"booked"`
}

// slot is a time of day from one minute to another.
type slot struct{ from, to int }

func (s slot) String() string { return clock(s.from) + "-" + clock(s.to) }

func clock(m int) string { return pad2(m/60) + ":" + pad2(m%60) }

// readBusyClashes sets BusyClash on each agent's step whose call books a
// slot (its arguments' start and end) that overlaps a busy time the
// latest tool result before it that lists busy times gives for a key
// the call's arguments write (or for any key, when they write none of
// them).
func readBusyClashes(r *run.Run, rf *RunFeatures) {
	last := -1
	var busy map[string][]slot
	said := false // the result says the times are busy ones, by a key
	for i, s := range r.Steps {
		if rf.Steps[i].Has(KindToolResult) {
			if b, says := busyTimes(s.Content); len(b) > 0 {
				last, busy, said = i, b, says
			}
			continue
		}
		if last < 0 || !agentChoosing(r, rf, i) {
			continue
		}
		for _, c := range s.ToolCalls() {
			booked, ok := bookedSlot(c.Arguments)
			if !ok {
				continue
			}
			if who, b, ok := clash(busy, said, booked, c.Arguments); ok {
				rf.Steps[i] = rf.Steps[i].Clone()
				rf.Steps[i].Details.Rare.Clash = &BusyClash{Result: last, Who: who, Busy: b.String(), Booked: booked.String()}
				break
			}
		}
	}
}

// clash returns the first key, in the order of its name, whose busy
// time overlaps booked, of the keys args write (all of them, when args
// write none and the result said its times are busy ones).
func clash(busy map[string][]slot, said bool, booked slot, args string) (string, slot, bool) {
	keys := make([]string, 0, len(busy))
	for k := range busy {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	named := keys[:0:0]
	for _, k := range keys {
		if strings.Contains(args, k) {
			named = append(named, k)
		}
	}
	if len(named) == 0 && said {
		named = keys
	}
	for _, k := range named {
		for _, b := range busy[k] {
			if b.from < booked.to && booked.from < b.to {
				return k, b, true
			}
		}
	}
	return "", slot{}, false
}

// busyTimes returns the busy times a tool's JSON output lists by key (an
// attendee's): under each key of an object (or of its "busy" object), a
// list of slots, each a pair of times (["09:00", "10:30"]) or an object
// of a start and an end; and whether a key says they are busy ones (its
// "busy" object, a key "priya_busy"). An output that speaks of free,
// open or available times lists those, not busy ones, unless a key says
// so. Keys with no slot are left out.
func busyTimes(content string) (map[string][]slot, bool) {
	v, _, ok := toolJSON(content)
	if !ok {
		return nil, false
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	said := false
	if b, ok := m["busy"].(map[string]any); ok {
		m, said = b, true
	}
	out := map[string][]slot{}
	for k, x := range m {
		list, ok := x.([]any)
		if !ok {
			continue
		}
		for _, e := range list {
			if s, ok := slotOf(e); ok {
				out[k] = append(out[k], s)
				said = said || strings.Contains(strings.ToLower(k), "busy")
			}
		}
	}
	if l := strings.ToLower(content); !said && (strings.Contains(l, "free") || strings.Contains(l, "avail") || strings.Contains(l, "open") || strings.Contains(l, "slot")) {
		return nil, false
	}
	return out, said
}

// slotOf reads a busy time: a pair of times, or an object whose start
// and end (or from and to) are times.
func slotOf(e any) (slot, bool) {
	var a, b any
	switch x := e.(type) {
	case []any:
		if len(x) != 2 {
			return slot{}, false
		}
		a, b = x[0], x[1]
	case map[string]any:
		a, b = firstOf(x, "start", "from", "begin"), firstOf(x, "end", "to", "until")
	default:
		return slot{}, false
	}
	from, ok1 := minuteOf(a)
	to, ok2 := minuteOf(b)
	if !ok1 || !ok2 || to <= from {
		return slot{}, false
	}
	return slot{from, to}, true
}

// bookedSlot reads the slot a call's JSON arguments book: their start
// and end (or start_time and end_time), as times of day.
func bookedSlot(args string) (slot, bool) {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return slot{}, false
	}
	return slotOf(map[string]any{"start": firstOf(m, "start", "start_time", "starts_at"), "end": firstOf(m, "end", "end_time", "ends_at")})
}

// firstOf returns the value of the first of keys m holds, nil when it
// holds none.
func firstOf(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok {
			return v
		}
	}
	return nil
}

// minuteOf reads a time of day, bare ("14:30", "9:30", "14:30:15",
// "2:30 pm") or a date-time's ("2026-03-10T14:30", with seconds, a
// fraction or a zone after), as the minute of the day. An hour past 23
// (but 24:00, the day's end), a minute or second past 59, or more digits
// after the minutes are no time.
func minuteOf(v any) (int, bool) {
	s, ok := v.(string)
	if !ok {
		return 0, false
	}
	s = strings.TrimSpace(s)
	if k := strings.IndexAny(s, "T "); k > 0 && !strings.Contains(s[:k], ":") {
		s = s[k+1:]
	}
	h, rest, ok := clockNumber(s, 1, 2)
	if !ok || !strings.HasPrefix(rest, ":") {
		return 0, false
	}
	m, rest, ok := clockNumber(rest[1:], 2, 2)
	if !ok || m > 59 {
		return 0, false
	}
	sec := 0
	if strings.HasPrefix(rest, ":") {
		if sec, rest, ok = clockNumber(rest[1:], 2, 2); !ok || sec > 59 {
			return 0, false
		}
	}
	switch strings.ToLower(strings.ReplaceAll(strings.TrimSpace(rest), ".", "")) {
	case "am", "pm":
		if h < 1 || h > 12 {
			return 0, false
		}
		h %= 12
		if strings.Contains(strings.ToLower(rest), "p") {
			h += 12
		}
		return h*60 + m, true
	}
	if rest != "" && !strings.ContainsAny(rest[:1], ".Z+- ") {
		return 0, false
	}
	if h > 24 || h == 24 && (m > 0 || sec > 0) {
		return 0, false
	}
	return h*60 + m, true
}

// clockNumber reads the number of min to max digits s begins with,
// and what follows it.
func clockNumber(s string, min, max int) (int, string, bool) {
	n := 0
	for n < len(s) && n < max && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n < min || n < len(s) && s[n] >= '0' && s[n] <= '9' {
		return 0, s, false
	}
	v, err := strconv.Atoi(s[:n])
	return v, s[n:], err == nil
}
