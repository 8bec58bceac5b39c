package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAgentFrameworkDumps: the Microsoft Agent Framework's messages are
// read by their contents, in each shape it saves them: a thread's store
// (Python's to_dict, the role an object; a call's exception an error; its
// reasoning and usage no step), a workflow run's events (an agent's
// streamed updates joined into its messages, each named for its executor;
// the workflow's output, which repeats the last message, no step), and
// .NET's messages (authorName, contents by $type).
func TestAgentFrameworkDumps(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		data  string
		steps []string
	}{
		{name: "python thread", file: "agent-framework-thread.json", steps: []string{
			"system system: You answer questions about library opening hours.",
			"user user: Is the Central Library open on Sunday 6 December?",
			`hours_agent tool_call: get_hours({"branch": "Central", "date": "2026-12-06"})`,
			"hours_agent tool_result: Error: TimeoutError: hours service did not answer in 10 s",
			`hours_agent tool_call: get_hours({"branch":"Central","date":"2026-12-06"})`,
			`hours_agent tool_result: {"branch": "Central", "open": "13:00", "close": "17:00"}`,
			"hours_agent message: Yes: the Central Library opens 13:00 to 17:00 on Sunday 6 December.",
		}},
		{name: "workflow events", file: "agent-framework-workflow-events.json", steps: []string{
			`researcher tool_call: search({"q": "Danube length"})`,
			"researcher tool_result: The Danube is 2,850 km long.",
			"researcher message: The Danube is 2,850 km long.",
			"writer message: At 2,850 km, the Danube is Europe's second-longest river.",
		}},
		{name: "streamed output", data: `[{"type": "AgentRunUpdateEvent", "executor_id": "a", "data": {"role": "assistant", "message_id": "m", "contents": [{"type": "text", "text": "Refund "}]}},
			{"type": "AgentRunUpdateEvent", "executor_id": "a", "data": {"role": "assistant", "message_id": "m", "contents": [{"type": "text", "text": "issued."}]}},
			{"type": "WorkflowOutputEvent", "source_executor_id": "a", "data": "Refund issued."}]`, steps: []string{
			"a message: Refund issued.",
		}},
		{name: "dotnet messages", data: `{"messages": [
			{"role": "user", "contents": [{"$type": "text", "text": "Book a table for 4 at 19:30."}]},
			{"role": "assistant", "authorName": "Host", "contents": [{"$type": "functionCall", "callId": "c9", "name": "book_table", "arguments": {"party": 4, "time": "19:30"}}]},
			{"role": "tool", "contents": [{"$type": "functionResult", "callId": "c9", "result": "booked T12"}]},
			{"role": "assistant", "authorName": "Host", "contents": [{"$type": "text", "text": "Booked table T12."}, {"$type": "usage", "details": {}}]}]}`, steps: []string{
			"user user: Book a table for 4 at 19:30.",
			`Host tool_call: book_table({"party":4,"time":"19:30"})`,
			"Host tool_result: booked T12",
			"Host message: Booked table T12.",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r *Run
			if tt.file != "" {
				r, _ = loadedDump(t, tt.file)
			} else {
				c, err := ParseCase("af.json", []byte(tt.data), Options{})
				require.NoError(t, err)
				r = c.Run
			}
			var got []string
			for _, s := range r.Steps {
				got = append(got, s.Agent+" "+string(s.Kind)+": "+s.Content)
			}
			assert.Equal(t, tt.steps, got)
		})
	}
}

// TestAgentFrameworkLabel: a label beside a thread's store or a
// workflow's events is the run's.
func TestAgentFrameworkLabel(t *testing.T) {
	for _, data := range []string{
		`{"chat_message_store_state": {"messages": [{"role": {"type": "role", "value": "user"}, "contents": [{"type": "text", "text": "x"}]}, {"role": "assistant", "author_name": "a", "contents": [{"type": "text", "text": "y"}]}]}, "mistake_agent": "a", "mistake_step": 1}`,
		`{"events": [{"type": "AgentRunEvent", "executor_id": "a", "data": {"messages": [{"role": "assistant", "contents": [{"type": "text", "text": "y"}]}]}}, {"type": "WorkflowOutputEvent", "data": "z"}], "mistake_agent": "a", "mistake_step": 1}`,
	} {
		c, err := ParseCase("af.json", []byte(data), Options{})
		require.NoError(t, err)
		require.NotNil(t, c.Label)
		assert.Equal(t, 1, c.Label.Step)
		assert.Equal(t, "a", c.Run.Steps[1].Agent)
	}
}

// FuzzParseAgentFramework reads fuzzed Agent Framework threads and
// workflow events, from the fixtures' shapes.
func FuzzParseAgentFramework(f *testing.F) {
	f.Add([]byte(`{"chat_message_store_state": {"messages": [{"role": {"type": "role", "value": "assistant"}, "author_name": "a", "contents": [{"type": "function_call", "call_id": "1", "name": "f", "arguments": "{"}]}, {"role": "tool", "contents": [{"type": "function_result", "call_id": "1", "exception": "e"}, {"type": "error", "message": "m"}]}]}}`))
	f.Add([]byte(`[{"type": "AgentRunUpdateEvent", "executor_id": "a", "data": {"message_id": "1", "contents": [{"type": "text", "text": "x"}]}}, {"type": "AgentRunUpdateEvent", "executor_id": "a", "data": {"message_id": "1", "contents": [{"type": "text", "text": "y"}]}}, {"type": "WorkflowOutputEvent", "data": "xy"}]`))
	f.Add([]byte(`{"messages": [{"role": "assistant", "authorName": "a", "contents": [{"$type": "functionCall", "callId": "1", "name": "f", "arguments": {}}]}]}`))
	fuzzFormat(f, FormatAuto)
}
