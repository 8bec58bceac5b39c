package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLettaMessages: Letta's messages, listed by its API, are read by
// their message_type: the reasoning a call's turn made is that call's
// text, a call's return answers it by id (an error's stderr its text), a
// heartbeat is no one's words, the user's words packed in JSON are read
// out of it, and the run's stop reason and usage are no steps.
func TestLettaMessages(t *testing.T) {
	r, got := loadedDump(t, "letta-agent-messages.json")
	assert.Equal(t, []string{
		"system system", "user user", "assistant tool_call", "assistant tool_result",
		"assistant tool_call", "assistant tool_result", "assistant tool_call", "assistant tool_result", "assistant message"}, got)
	assert.Equal(t, "Please remember I'm allergic to penicillin, and find what I told you about my dentist last month.", r.Question)
	assert.Equal(t, "Ines has a penicillin allergy. That belongs in core memory.", r.Steps[2].Content)
	require.Len(t, r.Steps[2].ToolCalls(), 1, "tool_calls and the tool_call beside it are one call")
	assert.Equal(t, ToolCall{ID: "call_kW3pD9sQ1mT8vX2bN5rL7yA4", Name: "core_memory_append", Arguments: `{"label":"human","content":"Allergic to penicillin.","request_heartbeat":true}`}, r.Steps[2].ToolCalls()[0])
	assert.Equal(t, "call_kW3pD9sQ1mT8vX2bN5rL7yA4", r.Steps[3].ToolCallID())
	assert.Equal(t, "Error: ValueError: day is out of range for month", r.Steps[5].Content)
	assert.Equal(t, "conversation_search", r.Steps[4].ToolCalls()[0].Name, "a call after hidden reasoning")
	assert.Equal(t, "August has 31 days. Search again without the bad end date.", r.Steps[6].Content)
}

// TestLettaResponse: a LettaResponse ({"messages", "stop_reason",
// "usage"}) is read as its messages; reasoning that no call or reply of
// its turn follows is a thought; a user's answer to an approval request
// is the user's word, and a label beside the messages is the run's.
func TestLettaResponse(t *testing.T) {
	data := []byte(`{"messages": [
		{"id": "message-1", "date": "2025-09-14T16:02:40Z", "message_type": "user_message", "content": [{"type": "text", "text": "Cancel my 3pm with Ana."}]},
		{"id": "message-2", "date": "2025-09-14T16:02:41Z", "message_type": "reasoning_message", "reasoning": "Look the meeting up first."},
		{"id": "message-3", "date": "2025-09-14T16:02:42Z", "message_type": "approval_request_message", "tool_call": {"name": "cancel_event", "arguments": "{\"event_id\": \"evt_7\"}", "tool_call_id": "call_1"}},
		{"id": "message-4", "date": "2025-09-14T16:02:50Z", "message_type": "approval_response_message", "approve": false, "reason": "That is the 4pm one."},
		{"id": "message-5", "date": "2025-09-14T16:02:52Z", "message_type": "assistant_message", "content": "Understood, I won't cancel it."}],
		"stop_reason": {"message_type": "stop_reason", "stop_reason": "end_turn"},
		"usage": {"message_type": "usage_statistics", "completion_tokens": 40, "prompt_tokens": 900, "total_tokens": 940, "step_count": 2},
		"mistake_agent": "assistant", "mistake_step": 2}`)
	c, err := ParseCase("letta.json", data, Options{})
	require.NoError(t, err)
	var got []string
	for _, s := range c.Run.Steps {
		got = append(got, s.Agent+" "+string(s.Kind)+": "+s.Content)
	}
	assert.Equal(t, []string{
		"user user: Cancel my 3pm with Ana.",
		"assistant thought: Look the meeting up first.",
		`assistant tool_call: cancel_event({"event_id":"evt_7"})`,
		"user user: Denied. That is the 4pm one.",
		"assistant message: Understood, I won't cancel it.",
	}, got)
	require.NotNil(t, c.Label)
	assert.Equal(t, 2, c.Label.Step)
}

// FuzzParseLetta reads fuzzed Letta messages, from the fixture's shapes.
func FuzzParseLetta(f *testing.F) {
	f.Add([]byte(`[{"message_type": "reasoning_message", "reasoning": "r"}, {"message_type": "tool_call_message", "tool_call": {"name": "f", "arguments": "{", "tool_call_id": "1"}}, {"message_type": "tool_return_message", "tool_return": [{"type": "text", "text": "y"}], "status": "error", "tool_call_id": "1"}]`))
	f.Add([]byte(`{"messages": [{"message_type": "user_message", "content": "{\"type\": \"system_alert\", \"message\": \"m\"}"}, {"message_type": "approval_response_message", "approvals": [{"type": "tool", "tool_call_id": "1", "status": "success", "tool_return": "y"}, {"approve": true}]}, {"message_type": "summary_message", "summary": "s"}], "stop_reason": {}}`))
	fuzzFormat(f, FormatAuto)
}
