package spans

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ag2Log is AutoGen's runtime log as its file logger writes it: the agents
// it makes, then an event, then the model calls among them.
const ag2Log = `{"id": 1401, "agent_name": "user_proxy", "wrapper_id": "", "session_id": "5e1f", "current_time": "2025-03-01 10:00:00.000000", "agent_type": "UserProxyAgent", "args": {}, "thread_id": 7}
{"source_id": 1401, "source_name": "user_proxy", "event_name": "received_message", "agent_module": "autogen.agentchat.user_proxy_agent", "agent_class": "UserProxyAgent", "json_state": "{\"message\": \"hi\"}", "timestamp": "2025-03-01 10:00:01.000000", "thread_id": 7}
{"invocation_id": "a1", "client_id": 3, "wrapper_id": 2, "request": {"messages": [{"role": "user", "content": "hi"}]}, "response": {"choices": [{"index": 0, "message": {"role": "assistant", "content": "hello"}}]}, "is_cached": 0, "cost": 0.001, "start_time": "2025-03-01 10:00:02.000000", "end_time": "2025-03-01 10:00:03.500000", "thread_id": 7, "source_name": "assistant"}
{"invocation_id": "a2", "client_id": 3, "wrapper_id": 2, "request": {"messages": []}, "response": "RateLimitError", "error": "RateLimitError: slow down", "start_time": "2025-03-01 10:00:04.000000", "end_time": "2025-03-01 10:00:05.000000", "thread_id": 7, "source_name": "assistant"}
`

// TestCalls: a log of model calls is detected when any of its first
// records is a call; each call is a model-call span of its session, named
// by its agent; other records are not calls and are skipped.
func TestCalls(t *testing.T) {
	assert.Equal(t, Calls, Detect([]byte(ag2Log)))
	assert.Equal(t, Calls, Detect([]byte(`[{"note": "x"}, {"request": {}, "response": {}}]`)))
	assert.Equal(t, Format(""), Detect([]byte(`[{"note": "x"}, {"request": {}}]`)))
	assert.Equal(t, Format(""), Detect([]byte(`[{"content": [], "finishReason": "stop", "request": {}, "response": {}}]`)), "the Vercel AI SDK's steps are no log of calls")

	ss, err := Decode(context.Background(), []byte(ag2Log), Calls)
	require.NoError(t, err)
	require.Len(t, ss, 2)
	first := ss[0]
	assert.Equal(t, "7", first.TraceID)
	assert.Equal(t, "call-1", first.SpanID)
	assert.Equal(t, 3, first.Line)
	assert.Equal(t, int64(1740823202000000000), first.Start)
	assert.Equal(t, int64(1740823203500000000), first.End)
	assert.Equal(t, "LLM", first.Attrs.Str("openinference.span.kind"))
	assert.Equal(t, "assistant", first.Attrs.Str("agent.name"))
	assert.JSONEq(t, `{"messages": [{"role": "user", "content": "hi"}]}`, first.Attrs.Str("input"))
	assert.Equal(t, StatusUnset, first.Status.Code)
	assert.Equal(t, Status{Code: StatusError, Message: "RateLimitError: slow down"}, ss[1].Status)

	ss, err = Decode(context.Background(), []byte(`[{"request": {"messages": []}, "response": {}}]`), Calls)
	require.NoError(t, err)
	require.Len(t, ss, 1)
	assert.Equal(t, "calls", ss[0].TraceID, "a log without sessions is one run")

	_, err = Decode(context.Background(), []byte(`{"request": {}, "response": {}, "start_time": "yesterday"}`), Calls)
	assert.ErrorContains(t, err, `model call at line 1: start time "yesterday" is not a time`)
}

func FuzzCalls(f *testing.F) {
	f.Add([]byte(ag2Log))
	f.Add([]byte(`[{"request": {"messages": [{"role": "user", "content": "q"}]}, "response": {"choices": []}, "session_id": 5}]`))
	f.Add([]byte(`{"data": [{"request_body": {"messages": []}, "response_body": {}, "properties": {"Helicone-Session-Path": "/a/b"}}], "error": null}`))
	f.Add([]byte(`{"id": "f", "trace_children": [{"messages": [], "output_message": {"role": "assistant"}, "prompt": {"path": "x/y"}, "trace_children": [{"kwargs": {}, "request_response": {}}]}]}`))
	f.Add([]byte(`{"call_type": "acompletion", "messages": "[]", "response": {}, "metadata": {"requester_metadata": {"agent_name": ["x"]}}, "startTime": 1.5}`))
	f.Add([]byte(`[{"prompt_blueprint": {"prompt_template": {"messages": [{"role": "assistant", "content": [{"text": 1}]}], "tools": "x"}}, "raw_response": {"choices": [{"message": null}]}}]`))
	fuzzDecode(f, Calls)
}

// TestCallsGatewayLogs: the logs gateways and prompt platforms keep of
// model calls are read by the fields that hold each call's request and
// response, in their listings, with the session, agent, times and label
// they keep beside the pair, in their own fields or their metadata.
func TestCallsGatewayLogs(t *testing.T) {
	req := `{"model": "gpt-4o", "messages": [{"role": "user", "content": "q"}]}`
	resp := `{"choices": [{"index": 0, "message": {"role": "assistant", "content": "a"}}]}`
	tests := []struct {
		name, log             string
		session, agent, label string
		start                 int64
		input, output         string
	}{
		{
			name:    "Helicone's query API, a session in its properties",
			log:     `{"data": [{"request_id": "r1", "request_created_at": "2026-11-24T09:14:03.120Z", "request_body": ` + req + `, "response_body": ` + resp + `, "request_properties": {"Helicone-Session-Id": "s-1", "Helicone-Session-Path": "/support", "offattr.mistake": "true"}}], "error": null}`,
			session: "s-1", label: "true", start: 1795511643120000000,
			input: req, output: resp,
		},
		{
			name:    "LiteLLM's spend logs, the request its proxy was sent",
			log:     `{"request_id": "r1", "call_type": "acompletion", "session_id": "s-2", "startTime": "2026-11-24T09:14:03.120+00:00", "messages": [{"role": "user", "content": "q"}], "response": ` + resp + `, "proxy_server_request": ` + req + `, "metadata": {"user_api_key_alias": "bot", "spend_logs_metadata": {"offattr.mistake": "true"}}}`,
			session: "s-2", label: "true", start: 1795511643120000000,
			input: req, output: resp,
		},
		{
			name:    "LiteLLM's standard logging payload, the agent in its requester metadata",
			log:     `{"id": "r1", "trace_id": "t-3", "call_type": "acompletion", "startTime": 1795511643.12, "messages": [{"role": "user", "content": "q"}], "response": ` + resp + `, "model_parameters": {"tools": [{"type": "function"}]}, "metadata": {"requester_metadata": {"agent_name": "planner", "offattr.mistake": true}}}`,
			session: "t-3", agent: "planner", label: "true", start: 1795511643120000000,
			input: `{"messages": [{"role": "user", "content": "q"}], "tools": [{"type": "function"}]}`, output: resp,
		},
		{
			name:    "PromptLayer's request logs",
			log:     `[{"id": 9, "function_name": "openai.chat.completions.create", "kwargs": ` + req + `, "request_response": ` + resp + `, "request_start_time": "2026-11-24T09:14:03.120+00:00", "metadata": {"session_id": "s-4", "agent": "scheduler"}}]`,
			session: "s-4", agent: "scheduler", start: 1795511643120000000,
			input: req, output: resp,
		},
		{
			name: "PromptLayer's run() results, the response the blueprint was given back with left out of its request",
			log: `[{"request_id": 4812, "raw_response": {"id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-4o", "choices": [{"index": 0, "message": {"role": "assistant", "content": "a"}, "finish_reason": "stop"}]},
				"prompt_blueprint": {"prompt_template": {"type": "chat", "messages": [
					{"role": "system", "content": [{"type": "text", "text": "Be brief."}], "input_variables": [], "template_format": "f-string"},
					{"role": "user", "content": [{"type": "text", "text": "q"}], "input_variables": [], "template_format": "f-string"},
					{"role": "assistant", "content": [{"type": "text", "text": "a"}], "input_variables": [], "template_format": "f-string", "tool_calls": null}],
					"input_variables": [], "tools": [{"type": "function", "function": {"name": "search", "parameters": {}}}]},
				 "metadata": {"model": {"provider": "openai", "name": "gpt-4o", "parameters": {"temperature": 0}}}, "inference_client_name": null}}]`,
			session: "calls",
			input: `{"messages": [{"role": "system", "content": [{"type": "text", "text": "Be brief."}], "input_variables": [], "template_format": "f-string"},
				{"role": "user", "content": [{"type": "text", "text": "q"}], "input_variables": [], "template_format": "f-string"}],
				"tools": [{"type": "function", "function": {"name": "search", "parameters": {}}}]}`,
			output: `{"id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-4o", "choices": [{"index": 0, "message": {"role": "assistant", "content": "a"}, "finish_reason": "stop"}]}`,
		},
		{
			name:    "a Humanloop flow's log, its prompt logs the calls and its tool logs passed over",
			log:     `{"id": "log_flow", "flow": {"path": "Research/agent"}, "trace_children": [{"id": "log_p1", "prompt": {"path": "Research/answer"}, "messages": [{"role": "user", "content": "q"}], "output_message": {"role": "assistant", "content": "a"}, "finish_reason": "stop", "start_time": "2026-11-24T09:14:03.120Z"}, {"id": "log_t1", "tool": {"path": "Research/search"}, "inputs": {"query": "q"}, "output": "r"}]}`,
			session: "log_flow", start: 1795511643120000000,
			input:  `{"messages": [{"role": "user", "content": "q"}]}`,
			output: `{"choices": [{"message": {"role": "assistant", "content": "a"}, "finish_reason": "stop"}]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, Calls, Detect([]byte(tt.log)))
			ss, err := Decode(context.Background(), []byte(tt.log), Calls)
			require.NoError(t, err)
			require.Len(t, ss, 1)
			sp := ss[0]
			assert.Equal(t, tt.session, sp.TraceID)
			assert.Equal(t, tt.agent, sp.Attrs.Str("agent.name"))
			assert.Equal(t, tt.label, sp.Attrs.Str("offattr.mistake"))
			assert.Equal(t, tt.start, sp.Start)
			assert.JSONEq(t, tt.input, sp.Attrs.Str("input"))
			assert.JSONEq(t, tt.output, sp.Attrs.Str("output"))
		})
	}
}

// TestCallsSessionPath: Helicone's session path names the agents of a
// session whose calls are at more than one of its nodes; at one node it
// tells no agent from another.
func TestCallsSessionPath(t *testing.T) {
	call := func(path string) string {
		return `{"request_body": {"messages": []}, "response_body": {"choices": []}, "properties": {"Helicone-Session-Id": "s", "Helicone-Session-Path": "` + path + `"}}`
	}
	ss, err := Decode(context.Background(), []byte("["+call("/caption")+","+call("/caption/research")+"]"), Calls)
	require.NoError(t, err)
	require.Len(t, ss, 2)
	assert.Equal(t, "caption", ss[0].Attrs.Str("agent.name"))
	assert.Equal(t, "research", ss[1].Attrs.Str("agent.name"))

	ss, err = Decode(context.Background(), []byte("["+call("/support")+","+call("/support")+"]"), Calls)
	require.NoError(t, err)
	require.Len(t, ss, 2)
	assert.Empty(t, ss[0].Attrs.Str("agent.name"))

	prompt := func(path string) string {
		return `{"prompt": {"path": "` + path + `"}, "messages": [], "output_message": {"role": "assistant", "content": "a"}}`
	}
	ss, err = Decode(context.Background(), []byte(`{"id": "flow", "trace_children": [`+prompt("Ops/router")+","+prompt("Ops/billing")+`]}`), Calls)
	require.NoError(t, err)
	require.Len(t, ss, 2)
	assert.Equal(t, "router", ss[0].Attrs.Str("agent.name"), "a Humanloop flow's prompts are its agents")
	assert.Equal(t, "billing", ss[1].Attrs.Str("agent.name"))
}

// TestCallsMetadataCases: a record whose metadata writes a key in two
// cases is read the same each time, the key in its own case first.
func TestCallsMetadataCases(t *testing.T) {
	log := []byte(`[{"request": {"messages": []}, "response": {"choices": []}, "metadata": {"Agent_Name": "critic", "agent_name": "planner", "SESSION_ID": "s-2", "Session_Id": "s-1"}}]`)
	for range 50 {
		ss, err := Decode(context.Background(), log, Calls)
		require.NoError(t, err)
		require.Len(t, ss, 1)
		require.Equal(t, "planner", ss[0].Attrs.Str("agent.name"))
		require.Equal(t, "s-2", ss[0].TraceID)
	}
}
