package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestADKSessionShapes: an ADK session as Python's pydantic writes it
// without aliases (snake case) reads as the JavaScript one does; a
// streamed partial event is passed over, an error event is its author's
// error, and an object of events that names no app is no session.
func TestADKSessionShapes(t *testing.T) {
	data := `{"id": "s1", "app_name": "trip", "user_id": "ada", "state": {}, "events": [
 {"author": "user", "invocation_id": "e-1", "content": {"role": "user", "parts": [{"text": "What should I pack for Oslo tomorrow?"}]}},
 {"author": "researcher", "invocation_id": "e-1", "partial": true, "content": {"role": "model", "parts": [{"text": "Let me"}]}},
 {"author": "researcher", "invocation_id": "e-1", "content": {"role": "model", "parts": [{"function_call": {"id": "c1", "name": "get_weather", "args": {"city": "Olso"}}}]}},
 {"author": "researcher", "invocation_id": "e-1", "content": {"role": "user", "parts": [{"function_response": {"id": "c1", "name": "get_weather", "response": {"error": "unknown city: Olso"}}}]}},
 {"author": "researcher", "invocation_id": "e-1", "error_code": "MALFORMED_FUNCTION_CALL", "error_message": "the model's call did not parse"}
]}`
	r, err := Parse("session.json", []byte(data), Options{})
	require.NoError(t, err)
	assert.Equal(t, "What should I pack for Oslo tomorrow?", r.Question)
	var got []string
	for _, s := range r.Steps {
		got = append(got, s.Agent+" "+string(s.Kind)+" "+s.Content)
	}
	assert.Equal(t, []string{
		"user user What should I pack for Oslo tomorrow?",
		`researcher tool_call get_weather({"city":"Olso"})`,
		"researcher tool_result Error: unknown city: Olso",
		"researcher message Error: MALFORMED_FUNCTION_CALL: the model's call did not parse",
	}, got)

	_, ok := adkSession([]byte(`{"events": [{"author": "user", "content": {"role": "user", "parts": [{"text": "hi"}]}}]}`))
	assert.False(t, ok, "no app named")
	_, ok = adkSession([]byte(`{"appName": "trip", "events": [{"content": {"role": "user", "parts": [{"text": "hi"}]}}]}`))
	assert.False(t, ok, "an event names no author")
}

// TestADKSessionLabel: a label beside a session's keys is the run's.
func TestADKSessionLabel(t *testing.T) {
	data := `{"id": "s1", "appName": "trip", "userId": "ada", "state": {}, "events": [
 {"author": "user", "content": {"role": "user", "parts": [{"text": "Book a train to Milan."}]}},
 {"author": "coordinator", "content": {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "transfer_to_agent", "args": {"agent_name": "flights"}}}]}},
 {"author": "flights", "content": {"role": "model", "parts": [{"text": "Booked flight U2 3521."}]}}
], "mistake_agent": "coordinator", "mistake_step": 1, "mistake_reason": "handed a train to the flights agent"}`
	c, err := ParseCase("session.json", []byte(data), Options{})
	require.NoError(t, err)
	require.NotNil(t, c.Label)
	assert.Equal(t, "coordinator", c.Label.Agent)
	assert.Equal(t, 1, c.Label.Step)
}
