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
	fuzzDecode(f, Calls)
}
