package run

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTeamLogs reads frameworks' saved runs whose records name who spoke:
// each step's agent, kind and text in order, and the label beside them.
func TestTeamLogs(t *testing.T) {
	const label = `"mistake_agent": "A", "mistake_step": 1`
	tests := []struct {
		name, file, data string
		want             []string // agent|kind|text
	}{
		{
			name: "Assistants API thread, messages and run steps newest first",
			file: "thread.json",
			data: `{"messages": {"object": "list", "data": [
				{"id": "m2", "object": "thread.message", "created_at": 30, "role": "assistant", "content": [{"type": "text", "text": {"value": "It is 19°C.", "annotations": []}}]},
				{"id": "m1", "object": "thread.message", "created_at": 10, "role": "user", "content": [{"type": "text", "text": {"value": "Weather in Lisbon?", "annotations": []}}]}]},
			  "run_steps": {"object": "list", "data": [
				{"id": "s2", "object": "thread.run.step", "created_at": 29, "type": "message_creation", "step_details": {"type": "message_creation", "message_creation": {"message_id": "m2"}}},
				{"id": "s1", "object": "thread.run.step", "created_at": 11, "type": "tool_calls", "step_details": {"type": "tool_calls", "tool_calls": [
					{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Lisbon\"}", "output": "{\"error\": \"timed out\"}"}}]}}]},
			  ` + label + `}`,
			want: []string{"user|user|Weather in Lisbon?", `assistant|tool_call|get_weather({"city":"Lisbon"})`, `assistant|tool_result|Error: {"error": "timed out"}`, "assistant|message|It is 19°C."},
		},
		{
			name: "Assistants API thread, a call and the message after it made in one second",
			file: "thread.json",
			data: `{"messages": {"object": "list", "data": [
				{"id": "m2", "object": "thread.message", "created_at": 11, "role": "assistant", "content": [{"type": "text", "text": {"value": "It is 19°C.", "annotations": []}}]},
				{"id": "m1", "object": "thread.message", "created_at": 10, "role": "user", "content": [{"type": "text", "text": {"value": "Weather in Lisbon?", "annotations": []}}]}]},
			  "run_steps": {"object": "list", "data": [
				{"id": "s2", "object": "thread.run.step", "created_at": 11, "type": "message_creation", "step_details": {"type": "message_creation", "message_creation": {"message_id": "m2"}}},
				{"id": "s1", "object": "thread.run.step", "created_at": 11, "type": "tool_calls", "step_details": {"type": "tool_calls", "tool_calls": [
					{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Lisbon\"}", "output": "{\"temp\": 19}"}}]}}]},
			  ` + label + `}`,
			want: []string{"user|user|Weather in Lisbon?", `assistant|tool_call|get_weather({"city":"Lisbon"})`, `assistant|tool_result|{"temp": 19}`, "assistant|message|It is 19°C."},
		},
		{
			name: "Assistants API thread listed oldest first",
			file: "thread.json",
			data: `{"messages": {"object": "list", "data": [
				{"id": "m1", "object": "thread.message", "created_at": 10, "role": "user", "content": [{"type": "text", "text": {"value": "Weather in Lisbon?", "annotations": []}}]},
				{"id": "m2", "object": "thread.message", "created_at": 11, "role": "assistant", "content": [{"type": "text", "text": {"value": "It is 19°C.", "annotations": []}}]}]},
			  "run_steps": {"object": "list", "data": [
				{"id": "s1", "object": "thread.run.step", "created_at": 11, "type": "tool_calls", "step_details": {"type": "tool_calls", "tool_calls": [
					{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Lisbon\"}", "output": "{\"temp\": 19}"}}]}},
				{"id": "s2", "object": "thread.run.step", "created_at": 11, "type": "message_creation", "step_details": {"type": "message_creation", "message_creation": {"message_id": "m2"}}}]},
			  ` + label + `}`,
			want: []string{"user|user|Weather in Lisbon?", `assistant|tool_call|get_weather({"city":"Lisbon"})`, `assistant|tool_result|{"temp": 19}`, "assistant|message|It is 19°C."},
		},
		{
			name: "Llama Stack session, its output message said by the last inference step",
			file: "session.json",
			data: `{"session_id": "s", "session_name": "n", "turns": [{"turn_id": "t", "input_messages": [{"role": "user", "content": "When did it open?"}],
				"steps": [{"step_type": "inference", "model_response": {"role": "assistant", "content": "Let me look.", "tool_calls": [{"call_id": "c1", "tool_name": "brave_search", "arguments": {"query": "opening"}}]}},
					{"step_type": "tool_execution", "tool_calls": [], "tool_responses": [{"call_id": "c1", "tool_name": "brave_search", "content": "Opened in 1883."}]},
					{"step_type": "inference", "model_response": {"role": "assistant", "content": "1886.", "tool_calls": []}}],
				"output_message": {"role": "assistant", "content": "1886.", "tool_calls": []}}], ` + label + `}`,
			want: []string{"user|user|When did it open?", "assistant|tool_call|Let me look.", "assistant|tool_result|Opened in 1883.", "assistant|message|1886."},
		},
		{
			name: "TaskWeaver conversation, the code a role ran its call",
			file: "conv.json",
			data: `{"id": "conv", "rounds": [{"id": "r", "user_query": "Sum Q2 2023.", "state": "finished", "post_list": [
				{"id": "p1", "message": "Sum Q2 2023.", "send_from": "User", "send_to": "Planner", "attachment_list": []},
				{"id": "p2", "message": "Sum Q2 2022 of sales.csv.", "send_from": "Planner", "send_to": "CodeInterpreter", "attachment_list": [{"id": "a", "type": "plan", "content": "1. sum", "extra": null}]},
				{"id": "p3", "message": "The following python code has been executed: ...", "send_from": "CodeInterpreter", "send_to": "Planner", "attachment_list": [
					{"id": "b", "type": "thought", "content": "I sum Q2 2022.", "extra": null}, {"id": "c", "type": "reply_type", "content": "python", "extra": null},
					{"id": "d", "type": "reply_content", "content": "df.revenue.sum()", "extra": null}, {"id": "e", "type": "execution_status", "content": "SUCCESS", "extra": null},
					{"id": "f", "type": "execution_result", "content": "1843250.75", "extra": null}]},
				{"id": "p4", "message": "It is $1,843,250.75.", "send_from": "Planner", "send_to": "User", "attachment_list": []}]}], ` + label + `}`,
			want: []string{"user|user|Sum Q2 2023.", "Planner|message|Sum Q2 2022 of sales.csv.", "CodeInterpreter|tool_call|I sum Q2 2022.", "CodeInterpreter|tool_result|1843250.75", "Planner|message|It is $1,843,250.75."},
		},
		{
			name: "CrewAI crew output, each task's description and its agent's output",
			file: "crew.json",
			data: `{"raw": "Revenue $4.37bn.", "pydantic": null, "json_dict": null, "tasks_output": [
				{"description": "Find revenue.", "name": "r", "expected_output": "x", "summary": "Find", "raw": "Revenue $4.73bn.", "agent": "Researcher", "output_format": "raw"},
				{"description": "Write it up.", "name": "w", "expected_output": "x", "summary": "Write", "raw": "Revenue $4.37bn.", "agent": "Writer", "output_format": "raw"}],
				"token_usage": {"total_tokens": 1}, ` + label + `}`,
			want: []string{"user|user|Find revenue.", "Researcher|message|Revenue $4.73bn.", "user|user|Write it up.", "Writer|message|Revenue $4.37bn."},
		},
		{
			name: "a conversation whose roles are the agents' names, beside its metadata",
			file: "swarm.json",
			data: `{"metadata": {"id": "c", "name": "n"}, "conversation_history": [
				{"role": "User", "content": "Ratio of 2,665 to 1,840?", "timestamp": "t"},
				{"role": "Extractor", "content": "2,665 and 1,480.", "timestamp": "t"},
				{"role": "Analyst", "content": "1.80", "timestamp": "t"}], ` + label + `}`,
			want: []string{"user|user|Ratio of 2,665 to 1,840?", "Extractor|message|2,665 and 1,480.", "Analyst|message|1.80"},
		},
		{
			name: "a debate keeping each player's history, rounds in the players' order",
			file: "debate.json",
			data: `{"debate_topic": "Which day?", "base_answer": "10", "players": {
				"Pro": [{"role": "system", "content": "Debate."}, {"role": "user", "content": "Which day?"}, {"role": "assistant", "content": "Day 10."}, {"role": "user", "content": "Day 8."}, {"role": "assistant", "content": "Still 10."}],
				"Con": [{"role": "system", "content": "Debate."}, {"role": "user", "content": "Day 10."}, {"role": "assistant", "content": "Day 8."}],
				"Judge": [{"role": "user", "content": "Pro: Day 10. Con: Day 8."}, {"role": "assistant", "content": "10."}]}, ` + label + `}`,
			want: []string{"user|user|Which day?", "Pro|message|Day 10.", "Con|message|Day 8.", "Judge|message|10.", "Pro|message|Still 10."},
		},
		{
			name: "a debate whose players' object writes a name twice, read once as its last",
			file: "debate.json",
			data: `{"debate_topic": "Which day?", "players": {
				"Pro": [{"role": "assistant", "content": "Day 9."}],
				"Con": [{"role": "user", "content": "Day 10."}, {"role": "assistant", "content": "Day 8."}],
				"Pro": [{"role": "user", "content": "Which day?"}, {"role": "assistant", "content": "Day 10."}]}, ` + label + `}`,
			want: []string{"user|user|Which day?", "Pro|message|Day 10.", "Con|message|Day 8."},
		},
		{
			name: "LangGraph's streamed updates, a supervisor's giving again what was read",
			file: "stream.jsonl",
			data: `{"supervisor": {"messages": [{"content": "Convert 5.7 C.", "type": "human", "id": "h"}, {"content": "", "type": "ai", "name": "supervisor", "id": "a1", "tool_calls": [{"name": "transfer_to_math", "args": {}, "id": "c1", "type": "tool_call"}]}, {"content": "Transferred", "type": "tool", "name": "transfer_to_math", "tool_call_id": "c1", "id": "t1"}]}}
{"math": {"messages": [{"content": "", "type": "ai", "name": "math", "id": "a2", "tool_calls": [{"name": "multiply", "args": {"a": 7.5, "b": 1.8}, "id": "c2", "type": "tool_call"}]}, {"content": "13.5", "type": "tool", "name": "multiply", "tool_call_id": "c2", "id": "t2"}]}}
{"supervisor": {"messages": [{"content": "Convert 5.7 C.", "type": "human", "id": "h"}, {"content": "45.5 F", "type": "ai", "name": "supervisor", "id": "a3"}]}}
{` + label + `}`,
			want: []string{"user|user|Convert 5.7 C.", "supervisor|tool_call|transfer_to_math({})", "supervisor|tool_result|Transferred", `math|tool_call|multiply({"a":7.5,"b":1.8})`, "math|tool_result|13.5", "supervisor|message|45.5 F"},
		},
		{
			name: "chat messages one a line, the label a record of its own after them",
			file: "chat.jsonl",
			data: `{"role": "user", "content": "2+2?", "name": "user"}
{"role": "assistant", "content": "5", "name": "A"}
{"mistake_agent": "A", "mistake_step": 1, "mistake_reason": "wrong sum"}`,
			want: []string{"user|user|2+2?", "A|message|5"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCase(tt.file, []byte(tt.data), Options{})
			require.NoError(t, err)
			var got []string
			for _, s := range c.Run.Steps {
				got = append(got, fmt.Sprintf("%s|%s|%s", s.Agent, s.Kind, s.Content))
			}
			assert.Equal(t, tt.want, got)
			require.NotNil(t, c.Label)
			assert.Equal(t, 1, c.Label.Step)
		})
	}
}

// TestLabelBesideCall reads the label a saved model call (its request and
// response as one object) holds beside them as its run's.
func TestLabelBesideCall(t *testing.T) {
	data := `{"request": {"model": "m", "messages": [{"role": "user", "content": "12 cookies need 180 g. 30 cookies?"}]},
		"response": {"id": "r", "object": "chat.completion", "model": "m", "choices": [{"index": 0, "message": {"role": "assistant", "content": "400 g."}, "finish_reason": "stop"}]},
		"mistake_agent": "assistant", "mistake_step": 1, "mistake_reason": "read 160 g"}`
	c, err := ParseCase("call.json", []byte(data), Options{})
	require.NoError(t, err)
	require.Len(t, c.Run.Steps, 2)
	require.NotNil(t, c.Label)
	assert.Equal(t, Label{Agent: "assistant", Step: 1, Reason: "read 160 g"}, *c.Label)
}

// TestLabelRecordBesideCalls reads a log of model calls, one saved call a
// line, with a record of its own that holds only a label, as its one run
// labelled.
func TestLabelRecordBesideCalls(t *testing.T) {
	data := `{"request": {"model": "m", "messages": [{"role": "user", "content": "12 cookies need 180 g. 30 cookies?"}]}, "response": {"id": "r1", "type": "message", "role": "assistant", "model": "m", "content": [{"type": "tool_use", "id": "t1", "name": "scale", "input": {"grams": 160, "factor": 2.5}}], "stop_reason": "tool_use"}}
{"request": {"model": "m", "messages": [{"role": "user", "content": "12 cookies need 180 g. 30 cookies?"}, {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "scale", "input": {"grams": 160, "factor": 2.5}}]}, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "400"}]}]}, "response": {"id": "r2", "type": "message", "role": "assistant", "model": "m", "content": [{"type": "text", "text": "400 g."}], "stop_reason": "end_turn"}}
{"mistake_agent": "assistant", "mistake_step": 1, "mistake_reason": "read 160 g"}`
	c, err := ParseCase("calls.jsonl", []byte(data), Options{})
	require.NoError(t, err)
	require.NotNil(t, c.Label)
	assert.Equal(t, Label{Agent: "assistant", Step: 1, Reason: "read 160 g"}, *c.Label)
}
