package run

import "testing"

// FuzzParseTeamLogs reads fuzzed saved runs of the frameworks that name
// who spoke in fields of their own (teamlogs.go, mistral.go, bedrock.go,
// yamlruns.go), from the tests' shapes.
func FuzzParseTeamLogs(f *testing.F) {
	for _, s := range []string{
		`{"messages": {"object": "list", "data": [{"id": "m2", "object": "thread.message", "created_at": 30, "role": "assistant", "content": [{"type": "text", "text": {"value": "19C"}}]}, {"id": "m1", "object": "thread.message", "created_at": 10, "role": "user", "content": [{"type": "text", "text": {"value": "Weather?"}}]}]},
		  "run_steps": {"object": "list", "data": [{"id": "s2", "object": "thread.run.step", "created_at": 29, "step_details": {"type": "message_creation", "message_creation": {"message_id": "m2"}}},
		  {"id": "s1", "object": "thread.run.step", "created_at": 11, "step_details": {"type": "tool_calls", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "w", "arguments": "{}", "output": "{\"error\": \"x\"}"}}, {"id": "c2", "type": "code_interpreter", "code_interpreter": {"input": "1", "outputs": [{"logs": "1"}]}}]}}]}, "mistake_agent": "assistant", "mistake_step": 1}`,
		`{"session_id": "s", "turns": [{"input_messages": [{"role": "user", "content": "Q"}], "steps": [{"step_type": "inference", "model_response": {"role": "assistant", "content": [{"type": "text", "text": "A"}], "tool_calls": [{"call_id": "c", "tool_name": "f", "arguments": {"a": 1}}]}}, {"step_type": "tool_execution", "tool_responses": [{"call_id": "c", "tool_name": "f", "content": "r"}]}], "output_message": {"role": "assistant", "content": "A"}}]}`,
		`{"id": "conv", "rounds": [{"user_query": "Q", "post_list": [{"id": "p0", "message": "Q", "send_from": "User", "send_to": "Planner"}, {"id": "p1", "message": "do", "send_from": "Planner", "send_to": "CodeInterpreter"}, {"id": "p2", "message": "done", "send_from": "CodeInterpreter", "send_to": "Planner", "attachment_list": [{"type": "thought", "content": "t"}, {"type": "reply_type", "content": "python"}, {"type": "reply_content", "content": "1/0"}, {"type": "execution_status", "content": "FAILURE"}, {"type": "execution_result", "content": "ZeroDivisionError"}]}]}]}`,
		"id: conv\nrounds:\n  - user_query: Q\n    post_list:\n      - id: p0\n        message: Q\n        send_from: User\n        send_to: Planner\n      - id: p1\n        message: .nan\n        send_from: Planner\n        send_to: User\n        attachment_list:\n          - {type: thought, content: t, 1: one}\n",
		`{"raw": "A", "tasks_output": [{"description": "Research", "agent": "Researcher", "raw": "found"}, {"description": "Write", "agent": "Writer", "raw": "A"}]}`,
		`{"id": "c", "conversation_history": [{"role": "User", "content": "Q"}, {"role": "Analyst", "content": "A"}, {"role": "Critic", "content": "B"}]}`,
		`{"debate_topic": "T", "players": {"Affirmative side": [{"role": "system", "content": "s"}, {"role": "assistant", "content": "yes"}], "Negative side": [{"role": "user", "content": "yes"}, {"role": "assistant", "content": "no"}], "Affirmative side": [{"role": "assistant", "content": "again"}]}}`,
		`[{"supervisor": {"messages": [{"id": "1", "type": "human", "content": "Q"}]}}, {"agent": {"messages": [{"id": "1", "type": "human", "content": "Q"}, {"id": "2", "type": "ai", "content": "A"}]}}]`,
		`{"object": "conversation.history", "conversation_id": "c", "entries": [{"type": "message.input", "role": "user", "content": "Q"}, {"type": "agent.handoff", "previous_agent_id": "a1", "previous_agent_name": "router", "next_agent_id": "a2", "next_agent_name": "finance"}, {"type": "function.call", "agent_id": "a2", "tool_call_id": "t", "name": "f", "arguments": "{}"}, {"type": "function.result", "tool_call_id": "t", "result": "r"}, {"type": "tool.execution", "name": "web_search", "arguments": {"q": 1}, "info": {"x": 1}}, {"type": "message.output", "agent_id": "a2", "content": [{"type": "text", "text": "A"}]}]}`,
		`{"mistake_agent": "AG1", "mistake_step": 1, "events": [{"trace": {"agentId": "AG1", "trace": {"orchestrationTrace": {"modelInvocationInput": {"text": "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Q\"}]}]}"}}}}}, {"trace": {"agentId": "AG1", "trace": {"orchestrationTrace": {"rationale": {"text": "t"}}}}}, {"trace": {"agentId": "AG1", "trace": {"orchestrationTrace": {"invocationInput": {"traceId": "t1", "actionGroupInvocationInput": {"actionGroupName": "G", "apiPath": "/p", "verb": "post", "parameters": [{"name": "a", "value": "1"}], "requestBody": {"content": {"application/json": [{"name": "b", "value": "2"}], "text/plain": [{"name": "b", "value": "3"}]}}}}}}}}, {"trace": {"collaboratorName": "calc", "trace": {"orchestrationTrace": {"observation": {"codeInterpreterInvocationOutput": {"executionError": "E"}}}}}}, {"trace": {"trace": {"failureTrace": {"failureReason": "F"}}}}, {"chunk": {"bytes": "A"}}]}`,
	} {
		f.Add([]byte(s))
	}
	fuzzFormat(f, FormatAuto)
}

// FuzzParseBenchRuns reads fuzzed trajectories that benchmarks publish
// (benchruns.go), from the tests' shapes.
func FuzzParseBenchRuns(f *testing.F) {
	for _, s := range []string{
		"{\"index\": 3, \"output\": {\"history\": [{\"role\": \"user\", \"content\": \"Q\"}, {\"role\": \"agent\", \"content\": \"Act: answer(3)\"}], \"status\": \"completed\"}}\n{\"mistake_agent\": \"agent\", \"mistake_step\": 1}",
		`{"win": true, "answer_generation": {"query": "Q", "train_messages": [[{"role": "system", "content": "s"}, {"role": "user", "content": "Q"}], [{"role": "system", "content": "s"}, {"role": "user", "content": "Q"}, {"role": "assistant", "content": "c", "function_call": {"name": "f", "arguments": "{}"}}, {"role": "function", "name": "f", "content": "r"}]]}}`,
		`{"What is 2+3?": [[[{"role": "user", "content": "Q"}, {"role": "assistant", "content": "5"}], [{"role": "user", "content": "Q"}, {"role": "assistant", "content": "6"}]], "5"], "mistake_agent": "agent 2", "mistake_step": 2}`,
		`{"idea": "Make a game", "env": {"roles": {"Alice": {"rc": {"memory": {"storage": [{"id": "1", "role": "user", "content": "Make a game", "cause_by": "UserRequirement"}, {"id": "2", "role": "assistant", "content": "PRD", "sent_from": "Alice"}]}}}, "Bob": {"rc": {"memory": {"storage": [{"id": "2", "role": "assistant", "content": "PRD"}, {"id": "3", "role": "assistant", "content": "code", "sent_from": "Bob"}]}}}}, "history": {"storage": []}}}`,
		"{\"id\": \"multi_turn_base_0\", \"result\": [[[\"cd(folder='a')\"]]], \"inference_log\": [{\"begin_of_turn_query\": [{\"role\": \"user\", \"content\": \"Q\"}], \"step_0\": [{\"role\": \"inference_input\", \"content\": \"x\"}, {\"role\": \"inference_output\", \"content\": \"[cd(folder='a')]\"}, {\"role\": \"handler_log\", \"content\": \"ok\", \"model_response_decoded\": [\"cd(folder='a')\"]}, {\"role\": \"tool\", \"content\": \"{}\"}]}]}\n{\"id\": \"multi_turn_base_1\", \"inference_log\": [{\"step_0\": [{\"role\": \"inference_output\", \"content\": \"A\"}]}]}",
	} {
		f.Add([]byte(s))
	}
	fuzzFormat(f, FormatAuto)
}

// FuzzParseLabelledTraces reads fuzzed trace files with a label beside
// them (tracelabel.go), AgentOps' sessions, and the spans of Opik,
// HoneyHive and Logfire, from the tests' shapes.
func FuzzParseLabelledTraces(f *testing.F) {
	span := `{"name":"invoke_agent Planner","context":{"trace_id":"t1","span_id":"a"},"start_time":1,"end_time":9,"attributes":{"gen_ai.operation.name":"invoke_agent","gen_ai.agent.name":"Planner","gen_ai.input.messages":"[{\"role\":\"user\",\"content\":\"Q\"}]"}}`
	chat := `{"name":"chat","context":{"trace_id":"t1","span_id":"b"},"parent_id":"a","start_time":2,"end_time":3,"attributes":{"gen_ai.operation.name":"chat","gen_ai.output.messages":"[{\"role\":\"assistant\",\"content\":\"A\"}]"}}`
	for _, s := range []string{
		`{"mistake_agent":"Planner","mistake_step":1,"spans":[` + span + `,` + chat + `]}`,
		`{"columns":[{"name":"name"}],"mistake_agent":"Planner","mistake_step":1,"rows":[` + span + `,` + chat + `]}`,
		`{"info":{"trace_id":"t1"},"data":{"spans":[` + span + `,` + chat + `]},"mistake_step":1}`,
		span + "\n" + chat + "\n" + `{"mistake_agent":"Planner","mistake_step":1}`,
		`{"mistake_agent":"QA","mistake_step":2,"session":{"session_id":"s"},"agents":[{"id":"a1","name":"Dev"},{"id":"a2","name":"QA"}],"events":[{"id":"e3","event_type":"llms","agent_id":"a2","init_timestamp":"2024-11-29T10:00:06.4Z","prompt":[{"role":"user","content":"Verify."}],"completion":{"role":"assistant","content":"ok"}},{"id":"e1","event_type":"llms","agent_id":"a1","init_timestamp":"2024-11-29T10:00:00Z","prompt":"Fix.","completion":"Fixed."},{"id":"e4","event_type":"tools","agent_id":"a2","init_timestamp":"2024-11-29T10:00:07Z","name":"run_tests","params":{"path":"t"},"returns":"2 failed"},{"id":"e5","event_type":"errors","agent_id":"a2","init_timestamp":"2024-11-29T10:00:08Z","error_type":"E","details":"d"}]}`,
		`{"page":1,"size":2,"total":2,"content":[{"id":"s1","trace_id":"t","parent_span_id":null,"name":"shop_agent","type":"general","start_time":"2024-11-29T10:00:00Z","end_time":"2024-11-29T10:00:09Z","input":{"input":"Q"},"output":{"output":"A"}},{"id":"s2","trace_id":"t","parent_span_id":"s1","name":"get","type":"tool","start_time":"2024-11-29T10:00:01Z","end_time":"2024-11-29T10:00:05Z","input":{"id":"1"},"output":null,"error_info":{"exception_type":"TimeoutError","message":"timed out"}}]}`,
		`{"events":[{"event_id":"s","session_id":"sess","parent_id":null,"event_type":"session","event_name":"Session","inputs":{},"outputs":{},"start_time":1732890000000,"end_time":1732890009000},{"event_id":"c1","session_id":"sess","parent_id":"s","event_type":"chain","event_name":"analyst","inputs":{"data":"Q"},"outputs":{"analysis":"A"},"start_time":1732890001000,"end_time":1732890004000},{"event_id":"m1","session_id":"sess","parent_id":"c1","event_type":"model","event_name":"openai.chat","inputs":{"chat_history":[{"role":"user","content":"Q"}]},"outputs":{"role":"assistant","content":"A"},"start_time":1732890001500,"end_time":1732890003500}]}`,
		`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"0102030405060708","name":"get_weather","startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":[{"key":"honeyhive_event_type","value":{"stringValue":"tool"}},{"key":"honeyhive_inputs._params_.args.city","value":{"stringValue":"Oslo"}},{"key":"honeyhive_outputs.result.tempC","value":{"intValue":"7"}}]}]}]}]}`,
		`{"columns":[{"name":"span_id"}],"rows":[{"start_timestamp":"2024-11-29T10:00:01Z","trace_id":"t","span_id":"a1","parent_span_id":null,"kind":"span","span_name":"Agent run: {name!r}","message":"Agent run","attributes":{"logfire.msg_template":"Agent run: {name!r}","name":"router"}},{"start_timestamp":"2024-11-29T10:00:02Z","trace_id":"t","span_id":"a2","parent_span_id":"a1","kind":"span","span_name":"Responses API","message":"Responses API","attributes":{"logfire.msg_template":"Responses API","raw_input":[{"role":"user","content":"Q"}],"response":"{\"object\":\"response\",\"instructions\":\"Be brief.\",\"output\":[{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"A\"}]}]}"}},{"start_timestamp":"2024-11-29T10:00:03Z","trace_id":"t","span_id":"a3","parent_span_id":"a1","kind":"span","span_name":"chat","message":"chat","attributes":{"gen_ai.operation.name":"chat","events":[{"event.name":"gen_ai.user.message","role":"user","content":"Q"},{"event.name":"gen_ai.choice","index":0,"message":{"role":"assistant","content":"A"}}]}}]}`,
	} {
		f.Add([]byte(s))
	}
	fuzzFormat(f, FormatAuto)
}
