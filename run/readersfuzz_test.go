package run

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

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

// FuzzParseNewReaders reads fuzzed runs of the readers of coding agents'
// trajectories (codingruns.go; a Moatless state's retry), CAMEL
// Workforce logs of one task or several (workforce.go), MetaGPT's console
// log of one run or several alone and as a string in a labelled object
// (metagptlog.go), Agency Swarm threads and bare smolagents steps
// (dumps.go), single assistants' provider shapes (AI SDK steps, Responses
// call logs, Cohere tool plans, cited sources), Lunary's API runs and
// GenAI events with one JSON body, and teams' results as they are
// returned (teamresults.go), the Agents SDK's input list under a key of
// its own (dumps.go) and a log coloured with the 8-bit controls
// (terminal.go), from the tests' shapes.
func FuzzParseNewReaders(f *testing.F) {
	event := func(name, content string) string {
		return `{"name":"` + name + `","timeUnixNano":"2","attributes":[{"key":"gen_ai.event.content","value":{"stringValue":` + strconv.Quote(content) + `}}]}`
	}
	for _, s := range []string{
		`{"input": "TLS fails.", "new_items": [{"type": "handoff_call_item", "agent": "Triage", "raw_item": {"type": "function_call", "name": "transfer_to_billing", "arguments": "{}", "call_id": "c1"}}, {"type": "handoff_output_item", "source_agent": {"name": "Triage"}, "raw_item": {"type": "function_call_output", "call_id": "c1", "output": "{\"assistant\": \"Billing\"}"}}], "mistake_agent": "Triage", "mistake_step": 1}`,
		`{"task": "Build it.", "node_history": [{"node_id": "a"}, "b"], "results": {"a": {"result": {"message": {"role": "assistant", "content": [{"text": "x"}]}}}, "b": {"status": "FAILED", "error": "e"}}}`,
		`{"task_status": {"0": "completed"}, "task_results": {"0": {"description": "d", "raw": "r", "agent": "A"}, "x": {"description": "d2", "raw": "r2", "agent": {"name": "B"}}}}`,
		`{"task": "t", "chats": [{"chat_history": [{"content": "a", "role": "assistant", "name": "p"}, {"content": "b", "role": "user", "name": "q"}], "summary": "b", "cost": {}}]}`,
		"{\"source\": \"UserProxy\", \"message\": \"Q?\", \"type\": \"OrchestrationEvent\"}\n{\"prompt_tokens\": 1, \"type\": \"LLMCallEvent\"}\n{\"source\": \"Orchestrator (-> Coder)\", \"message\": \"Do it.\", \"type\": \"OrchestrationEvent\"}",
		"{\"type\": \"routing-agent-end\", \"payload\": {\"task\": \"t\", \"primitiveId\": \"a\", \"prompt\": \"p\"}}\n{\"type\": \"agent-execution-event-tool-call\", \"payload\": {\"toolCallId\": \"c\", \"toolName\": \"f\", \"args\": {}}}\n{\"type\": \"agent-execution-event-tool-result\", \"payload\": {\"toolCallId\": \"c\", \"result\": \"ok\"}}\n{\"type\": \"agent-execution-end\", \"payload\": {\"agentId\": \"a\", \"result\": \"r\"}}",
		`{"name": "MoatlessTools", "initial_message": "bulk_create drops IDs", "transitions": [{"id": 0, "state": {"name": "Pending"}, "actions": []}, {"id": 1, "state": {"name": "SearchCode", "model": "m"}, "actions": [{"request": {"scratch_pad": "Look at bulk_create.", "search_requests": [{"function_names": ["bulk_create"]}]}, "response": {"trigger": "did_search", "output": {"ranked_spans": [{"file_path": "query.py"}]}}}]}, {"id": 2, "state": {"name": "PlanToCode"}, "actions": [{"request": {"scratch_pad": "Allow IGNORE.", "action": "modify", "file_path": "query.py"}, "response": {"trigger": "edit_code", "output": {}}}]}], "info": {"instance_id": "django__django-17051"}, "mistake_agent": "PlanToCode", "mistake_step": 3}`,
		"{\"instance_id\": \"a-1\", \"found_files\": [\"python.py\"], \"file_traj\": {\"prompt\": \"Which files? issue\", \"response\": \"python.py\", \"usage\": {}}, \"related_loc_traj\": {\"prompt\": \"Which functions?\", \"response\": [\"function: setup\", \"function: other\"]}}\n{\"instance_id\": \"a-2\", \"found_files\": [], \"file_traj\": {\"prompt\": \"Which files? other\", \"response\": \"x.py\"}}",
		"{\"instance_id\": \"a-1\", \"found_files\": [\"python.py\"], \"file_traj\": {\"prompt\": \"Which files? issue\", \"response\": \"python.py\"}}\n{\"mistake_agent\": \"assistant\", \"mistake_step\": 1, \"mistake_reason\": \"r\"}",
		`[{"event_type": "worker_created", "worker_id": "w1", "role": "Planner: drafts"}, {"event_type": "task_created", "task_id": "0", "description": "Plan it."}, {"event_type": "task_assigned", "task_id": "0.1", "worker_id": "w1"}, {"event_type": "task_created", "task_id": "0.1", "parent_task_id": "0", "description": "Draft."}, {"event_type": "task_completed", "task_id": "0.1", "worker_id": "w1", "result": "Drafted."}, {"event_type": "task_failed", "task_id": "0.2", "worker_id": "w2", "error_message": "timed out"}]`,
		`{"mistake_agent": "Alex", "mistake_step": 1, "log": "2025-01-20 14:03:10.115 | INFO     | metagpt.roles.role:_act:403 - Alice(Product Manager): to do WritePRD(WritePRD)\n[CONTENT]\n{\"Original Requirements\": \"Split a bill.\"}\n[/CONTENT]\n2025-01-20 14:03:20.115 | INFO     | metagpt.roles.role:_act:403 - Alex(Engineer): to do WriteCode(WriteCode)\nWriting main.py..\n"}`,
		`{"prompt": "Ferry?", "steps": [{"stepType": "initial", "text": "", "toolCalls": [{"type": "tool-call", "toolCallId": "c1", "toolName": "searchWeb", "args": {"query": "ferry"}}], "toolResults": [{"type": "tool-result", "toolCallId": "c1", "toolName": "searchWeb", "args": {"query": "ferry"}, "result": {"results": []}}], "finishReason": "tool-calls", "request": {}, "response": {"id": "r1"}}, {"stepType": "tool-result", "text": "No ferry found.", "toolCalls": [], "toolResults": [], "finishReason": "stop", "request": {}, "response": {"id": "r2"}}], "text": "No ferry found.", "mistake_agent": "assistant", "mistake_step": 1}`,
		`{"request": {"model": "gpt-4.1", "input": "Busiest day?"}, "response": {"object": "response", "status": "completed", "output": [{"id": "ws_1", "type": "web_search_call", "status": "failed", "action": {"type": "search", "query": "busiest day"}}, {"id": "ws_2", "type": "web_search_call", "status": "completed", "action": {"type": "search", "query": "q", "sources": [{"type": "url", "url": "https://a.example/a", "title": "A"}]}}, {"id": "msg_1", "type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "23 June.", "annotations": [{"type": "url_citation", "start_index": 0, "end_index": 4, "title": "A", "url": "https://a.example/a"}]}]}]}, "mistake_agent": "assistant", "mistake_step": 3}`,
		`{"messages": [{"role": "user", "content": "When did Oodi open?"}, {"role": "assistant", "tool_plan": "I will search.", "tool_calls": [{"id": "s1", "type": "function", "function": {"name": "web_search", "arguments": "{\"query\": \"Oodi\"}"}}]}, {"role": "tool", "tool_call_id": "s1", "content": [{"type": "document", "document": {"data": "{\"snippet\": \"5 December 2018.\"}"}}]}, {"role": "assistant", "content": [{"type": "text", "text": "1998."}]}]}`,
		`{"messages": [{"role": "user", "content": [{"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "The summit is 1,141 m."}}, {"type": "text", "text": "How high?"}]}, {"role": "assistant", "content": [{"type": "text", "text": "1,411 m.", "citations": [{"type": "char_location", "cited_text": "The summit is 1,141 m.", "document_index": 0}]}]}]}`,
		`{"initial_message": "x", "transitions": [{"id": 1, "state": {"name": "PlanToCode"}, "actions": [{"request": {"scratch_pad": "Edit.", "action": "modify", "file_path": "m.py"}, "response": {"trigger": "retry", "retry_message": "File m.py is not found."}}]}]}`,
		`[{"event_type": "worker_created", "worker_id": "w1", "role": "Planner: drafts"}, {"event_type": "task_created", "task_id": "0", "description": "Plan it."}, {"event_type": "task_created", "task_id": "0.0", "parent_task_id": "0", "description": "Draft."}, {"event_type": "task_assigned", "task_id": "0.0", "worker_id": "w1"}, {"event_type": "task_completed", "task_id": "0.0", "worker_id": "w1", "result_summary": "Drafted."}, {"event_type": "task_created", "task_id": "1", "description": "Plan more."}, {"event_type": "task_created", "task_id": "1.0", "parent_task_id": "1", "description": "Draft more."}, {"event_type": "task_failed", "task_id": "1.0", "worker_id": "w1", "error_message": "timed out"}]`,
		"2025-01-20 14:03:10.100 | INFO     | metagpt.team:invest:93 - Investment: $3.0.\n2025-01-20 14:03:10.115 | INFO     | metagpt.roles.role:_act:403 - Alice(Product Manager): to do WritePRD(WritePRD)\nPRD one\n2025-01-20 15:00:00.000 | INFO     | metagpt.team:invest:93 - Investment: $3.0.\n2025-01-20 15:00:00.100 | INFO     | metagpt.roles.role:_act:403 - Alex(Engineer): to do WriteCode(WriteCode)\ncode\n",
		`{"total":2,"page":0,"limit":50,"data":[{"id":"r2","type":"tool","name":"lookup","createdAt":"2026-11-27T09:15:01.900Z","endedAt":"2026-11-27T09:15:06.100Z","input":{"id":7},"output":null,"status":"error","error":{"message":"upstream timed out","stack":"Traceback"},"parentRunId":"r1","traceId":"t1"},{"id":"r1","type":"agent","name":"helper","createdAt":"2026-11-27T09:15:00.000Z","endedAt":"2026-11-27T09:15:08.200Z","input":"hi","output":"done","status":"success","error":null,"parentRunId":null,"traceId":"t1"}]}`,
		`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"0102030405060708","name":"chat gpt-4o","startTimeUnixNano":"1","endTimeUnixNano":"3","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}}],"events":[` +
			event("gen_ai.system.message", `{"content": "Be brief."}`) + `,` + event("gen_ai.user.message", `{"content": "Capital?"}`) + `,` +
			event("gen_ai.assistant.message", `{"tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": "{\"city\": \"Paris\"}"}}]}`) + `,` +
			event("gen_ai.tool.message", `{"content": "2.1 million", "id": "call_1"}`) + `,` +
			event("gen_ai.choice", `{"message": {"content": "Paris."}, "finish_reason": "stop", "index": 0}`) + `]}]}]}]}`,
		`{"run_id": "r1", "items": [{"type": "message", "role": "user", "content": "Weather?"}, {"type": "function_call", "call_id": "c1", "name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}, {"type": "function_call_output", "call_id": "c1", "output": "Rain"}, {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Sunny."}]}]}`,
		"\u009d0;metagpt\u009c2025-01-20 14:03:10.115 | INFO     | metagpt.roles.role:_act:403 - \u009b36mAlice\u009b0m(Product Manager): to do WritePRD(WritePRD)\nPRD\u0085one\n2025-01-20 14:03:20.115 | INFO     | metagpt.roles.role:_act:403 - [36mAlex[0m(Engineer): to do WriteCode(WriteCode)\ncode\n",
	} {
		f.Add([]byte(s))
	}
	fuzzFormat(f, FormatAuto)
}

// seedFiles adds the files under testdata named by path, relative to the
// repository, to the fuzzer's seeds.
func seedFiles(f *testing.F, paths ...string) {
	f.Helper()
	for _, p := range paths {
		data, err := os.ReadFile(filepath.Join("..", p))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// FuzzParseLlamaEvents reads fuzzed LlamaIndex workflow events
// (llamaevents.go), from the tests' stream and the kinds' file.
func FuzzParseLlamaEvents(f *testing.F) {
	stream, err := json.Marshal(llamaStream())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(stream)
	var lines []byte
	for _, e := range llamaStream() {
		b, err := json.Marshal(e)
		if err != nil {
			f.Fatal(err)
		}
		lines = append(append(lines, b...), '\n')
	}
	f.Add(lines)
	seedFiles(f, "testdata/kinds/tool-reasoner/pb211_llamaindex-workflow-events.jsonl")
	f.Fuzz(func(t *testing.T, data []byte) { checkParsed(t, data, FormatAuto) })
}

// FuzzParseLabelNames reads fuzzed spans whose attribute names lost their
// dots (labelnames.go), as Elastic APM keeps them, and OpenLIT's spans,
// from the kinds' and traces' files.
func FuzzParseLabelNames(f *testing.F) {
	f.Add([]byte(`{"_index":".ds-traces-apm-default-2026.11.19-000001","_id":"a","_source":{"@timestamp":"2026-11-19T10:00:00.000Z","processor":{"event":"transaction"},"trace":{"id":"4bf92f3577b34da6a3ce929d0e0e4736"},"timestamp":{"us":1795600000000000},"transaction":{"id":"a3f1c2d4e5b60718","name":"invoke_agent","duration":{"us":5000000}},"event":{"outcome":"success"},"service":{"name":"desk"},"labels":{"gen_ai_operation_name":"invoke_agent","gen_ai_agent_name":"Hotel Agent","input_value":"Book a room","output_value":"Booked.","llm_input_messages_0_message_content":"Q","offattr_mistake":"true"}}}`))
	seedFiles(f, "testdata/kinds/trace-team/elastic239_elastic-apm-hotel-agent-searches-wrong-checkin.json",
		"testdata/kinds/trace-team/probe210_openlit-crew-writer-swaps-growth.jsonl",
		"testdata/traces/openlit-langgraph-js.jsonl")
	f.Fuzz(func(t *testing.T, data []byte) { checkParsed(t, data, FormatAuto) })
}

// FuzzParseFencedActions reads fuzzed chats whose replies end with a
// fenced command answered by the user's turn (sweagent.go's fenced
// actions), from the tests' shape and the kinds' file.
func FuzzParseFencedActions(f *testing.F) {
	f.Add([]byte(`{"question": "fix it", "history": [{"role": "user", "content": "ISSUE:\nslugify drops digits."}, {"role": "assistant", "name": "SWE-agent", "content": "DISCUSSION\nOpen it.\n` + "```" + `\nopen slugify/core.py\n` + "```" + `"}, {"role": "user", "content": "[File: /testbed/slugify/core.py (9 lines total)]\n1:import re\n(Open file: /testbed/slugify/core.py)\nbash-$"}, {"role": "assistant", "name": "SWE-agent", "content": "DISCUSSION\nFix.\n` + "```" + `\nedit 3:3\nx = 1\nend_of_edit\n` + "```" + `"}, {"role": "user", "content": "File updated."}, {"role": "assistant", "name": "SWE-agent", "content": "` + "```" + `\nsubmit\n` + "```" + `"}], "mistake_agent": "SWE-agent", "mistake_step": "1"}`))
	seedFiles(f, "testdata/kinds/coding-agent/at235_ca3_premature_submit.json")
	f.Fuzz(func(t *testing.T, data []byte) { checkParsed(t, data, FormatAuto) })
}
