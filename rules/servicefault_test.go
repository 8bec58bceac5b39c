package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestServiceFailureIsNotTheCall: a call that fails because of the
// service it reached (a timeout, a 5xx, a rate limit) made no mistake of
// its own; local_fault and the trials give it no blame, and the answer the
// agent makes up after the failure is the fault. A call refused for its own
// arguments is still its caller's fault, and so is code the agent ran that
// timed out.
func TestServiceFailureIsNotTheCall(t *testing.T) {
	const task = "Is flight LH 401 from Frankfurt to New York on time today?"
	for _, tc := range []struct {
		name   string
		call   run.ToolCall
		result string
		blamed bool // local_fault and trial_first_fault name the call
	}{
		{"an upstream timeout", run.ToolCall{Name: "get_flight_status", Arguments: `{"flight_number": "LH401", "date": "2026-11-27"}`},
			"FlightDataError: upstream status service timed out after 10s", false},
		{"a server's error", run.ToolCall{Name: "get_flight_status", Arguments: `{"flight_number": "LH401", "date": "2026-11-27"}`},
			"StatusServiceError: HTTP 503 Service Unavailable", false},
		{"a rate limit", run.ToolCall{Name: "get_flight_status", Arguments: `{"flight_number": "LH401", "date": "2026-11-27"}`},
			"RateLimitError: Error code: 429 - Too Many Requests", false},
		{"a bad argument", run.ToolCall{Name: "get_flight_status", Arguments: `{"flight_number": "LH401", "date": "27/11/2026"}`},
			"ValueError: date must be written YYYY-MM-DD", true},
		{"a command the agent ran timed out", run.ToolCall{Name: "bash", Arguments: `{"command": "python status.py LH401"}`},
			"TimeoutError: request timed out after 10s", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &run.Run{Source: "test.json", Question: task, Steps: []run.Step{
				{Agent: "user", Kind: run.KindUser, Content: task},
				{Agent: "assistant", Kind: run.KindToolCall, Content: tc.call.Name + "(" + tc.call.Arguments + ")",
					Extra: &run.Extra{ToolCalls: []run.ToolCall{tc.call}}},
				{Agent: "assistant", Kind: run.KindToolResult, Content: tc.result},
				{Agent: "assistant", Kind: run.KindMessage, Content: "Good news: LH 401 is on time today and departs Frankfurt at 13:05."},
			}}
			in := inputOf(t, r)
			if tc.blamed {
				assert.Contains(t, steps(LocalFault.Run(in), true), 1)
				assert.Contains(t, steps(TrialFirstFault.Run(in), true), 1)
				return
			}
			assert.NotContains(t, steps(LocalFault.Run(in), true), 1)
			assert.NotContains(t, steps(TrialFirstFault.Run(in), true), 1)
			assert.Equal(t, 3, attribute(t, r).Step)
		})
	}
}
