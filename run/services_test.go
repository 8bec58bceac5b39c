package run_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// svcSpan is a span of one service in an OTLP/JSON file of several.
type svcSpan struct {
	service, id, parent, name string
	start                     int
	attrs                     map[string]string
}

// writeServices writes spans as OTLP/JSON, each under its service's
// resource, all of one trace.
func writeServices(t *testing.T, ss ...svcSpan) string {
	t.Helper()
	var rs []map[string]any
	for _, s := range ss {
		var attrs []map[string]any
		for k, v := range s.attrs {
			attrs = append(attrs, map[string]any{"key": k, "value": map[string]any{"stringValue": v}})
		}
		sp := map[string]any{"traceId": "5b8efff798038103d269b633813fc60c", "spanId": s.id, "parentSpanId": s.parent, "name": s.name,
			"startTimeUnixNano": s.start * 1000, "endTimeUnixNano": s.start*1000 + 500, "attributes": attrs}
		rs = append(rs, map[string]any{
			"resource":   map[string]any{"attributes": []map[string]any{{"key": "service.name", "value": map[string]any{"stringValue": s.service}}}},
			"scopeSpans": []map[string]any{{"scope": map[string]any{"name": "app"}, "spans": []any{sp}}},
		})
	}
	b, err := json.Marshal(map[string]any{"resourceSpans": rs})
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "trace.otlp.json")
	require.NoError(t, os.WriteFile(path, b, 0o644))
	return path
}

// TestRemoteServiceAgents: agents that run as services of their own (A2A,
// agents behind HTTP) and whose spans name no agent are each their
// service, as the one agent of a trace of one service is. A service that
// makes no model call (a tool's server) is a tool of its caller, and one
// reached by a model call (a model gateway) is that call, read once.
func TestRemoteServiceAgents(t *testing.T) {
	chat := func(user, reply string) map[string]string {
		return map[string]string{"gen_ai.operation.name": "chat", "gen_ai.system": "openai",
			"gen_ai.input.messages":  `[{"role":"user","parts":[{"type":"text","content":"` + user + `"}]}]`,
			"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"` + reply + `"}]}]`}
	}
	tool := func(name, result string) map[string]string {
		return map[string]string{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.call.result": result}
	}
	for _, tt := range []struct {
		name  string
		spans []svcSpan
		want  []string
	}{
		{"a remote agent reached over HTTP", []svcSpan{
			{"concierge", "0000000000000001", "", "POST /chat", 1, nil},
			{"concierge", "0000000000000002", "0000000000000001", "chat", 2, chat("Weather on Saturday?", "Asking the weather agent.")},
			{"concierge", "0000000000000003", "0000000000000001", "POST", 3, nil},
			{"weather", "0000000000000004", "0000000000000003", "POST /", 4, nil},
			{"weather", "0000000000000005", "0000000000000004", "chat", 5, chat("Forecast for Saturday.", "Saturday: rain.")},
		}, []string{"user user: Weather on Saturday?", "concierge message: Asking the weather agent.", "weather message: Saturday: rain."}},
		{"a tool's server makes no model call", []svcSpan{
			{"concierge", "0000000000000001", "", "POST /chat", 1, nil},
			{"concierge", "0000000000000002", "0000000000000001", "chat", 2, chat("Weather on Saturday?", "Looking it up.")},
			{"concierge", "0000000000000003", "0000000000000001", "POST", 3, nil},
			{"forecast-api", "0000000000000004", "0000000000000003", "get_forecast", 4, tool("get_forecast", "rain")},
		}, []string{"user user: Weather on Saturday?", "concierge message: Looking it up.", "concierge tool_result: get_forecast() -> rain"}},
		{"a model gateway answers the caller's model call", []svcSpan{
			{"concierge", "0000000000000001", "", "POST /chat", 1, nil},
			{"concierge", "0000000000000002", "0000000000000001", "chat", 2, chat("Weather on Saturday?", "Saturday: rain.")},
			{"gateway", "0000000000000003", "0000000000000002", "POST /v1/chat/completions", 3, nil},
			{"gateway", "0000000000000004", "0000000000000003", "chat", 4, chat("Weather on Saturday?", "Saturday: rain.")},
		}, []string{"user user: Weather on Saturday?", "concierge message: Saturday: rain."}},
		{"a gateway that tried its provider twice for one call", []svcSpan{
			{"concierge", "0000000000000001", "", "POST /chat", 1, nil},
			{"concierge", "0000000000000002", "0000000000000001", "chat", 2, chat("Weather on Saturday?", "Saturday: rain.")},
			{"gateway", "0000000000000003", "0000000000000002", "POST /v1/chat/completions", 3, nil},
			{"gateway", "0000000000000004", "0000000000000003", "chat", 4, chat("Weather on Saturday?", "Saturday: sun.")},
			{"gateway", "0000000000000005", "0000000000000003", "chat", 5, chat("Weather on Saturday?", "Saturday: rain.")},
		}, []string{"user user: Weather on Saturday?", "concierge message: Saturday: sun.", "concierge message: Saturday: rain."}},
		{"a call inside another's that says something else is a call of its own", []svcSpan{
			{"concierge", "0000000000000001", "", "POST /chat", 1, nil},
			{"concierge", "0000000000000002", "0000000000000001", "chat", 2, chat("Weather on Saturday?", "Saturday: rain.")},
			{"concierge", "0000000000000003", "0000000000000002", "moderate", 3, nil},
			{"concierge", "0000000000000004", "0000000000000003", "chat", 4, chat("Is this reply safe?", "Safe.")},
		}, []string{"user user: Weather on Saturday?", "concierge message: Saturday: rain.", "concierge message: Safe."}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := run.Load(writeServices(t, tt.spans...), run.Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.want, steps(r))
		})
	}
}

// TestAgentInMetadata: model calls whose only mark of their agent is the
// metadata their framework gives them (CAMEL's agent_id on each model
// call it logs to Langfuse, LangChain's lc_agent_name, an agent_name a
// program adds) are the agents the metadata names, not one "assistant".
func TestAgentInMetadata(t *testing.T) {
	gen := func(id, start, key, agent, user, reply string) map[string]any {
		return map[string]any{"id": id, "traceId": "t1", "type": "GENERATION", "name": "OpenAIModel._run", "startTime": "2026-11-20T14:02:0" + start + ".000Z",
			"input":    map[string]any{"messages": []any{map[string]any{"role": "user", "content": user}}},
			"output":   map[string]any{"role": "assistant", "content": reply},
			"metadata": map[string]any{"source": "camel", key: agent}}
	}
	for _, key := range []string{"agent_id", "agent_name", "lc_agent_name"} {
		t.Run(key, func(t *testing.T) {
			b, err := json.Marshal(map[string]any{"trace": map[string]any{"id": "t1", "name": "Workforce", "timestamp": "2026-11-20T14:02:00.000Z"},
				"observations": []any{
					gen("o1", "1", key, "planner-7a41", "Split the task: find a tent under 2 kg.", "<tasks><task>Find a tent.</task></tasks>"),
					gen("o2", "2", key, "researcher-d814", "Find a tent.", "Trailhead Duo 2, 2.6 kg."),
				}})
			require.NoError(t, err)
			path := filepath.Join(t.TempDir(), "camel.trace.json")
			require.NoError(t, os.WriteFile(path, b, 0o644))
			r, err := run.Load(path, run.Options{})
			require.NoError(t, err)
			assert.Equal(t, []string{"user user: Split the task: find a tent under 2 kg.", "planner-7a41 message: <tasks><task>Find a tent.</task></tasks>",
				"researcher-d814 message: Trailhead Duo 2, 2.6 kg."}, steps(r))
		})
	}
}

// TestToolBesideNamedModelCalls: a tool's span put beside the model calls
// that asked for it, under a span that names no agent (CAMEL's step, as
// Langfuse records it), belongs to the one agent those calls name: its
// call is the one they made, not another agent's.
func TestToolBesideNamedModelCalls(t *testing.T) {
	call := map[string]any{"id": "c1", "type": "function", "function": map[string]any{"name": "run_query", "arguments": `{"city":"Leeds"}`}}
	b, err := json.Marshal(map[string]any{"trace": map[string]any{"id": "t1", "name": "Workforce", "timestamp": "2026-11-20T14:02:00.000Z"},
		"observations": []any{
			map[string]any{"id": "s", "traceId": "t1", "type": "SPAN", "name": "ChatAgent.step", "startTime": "2026-11-20T14:02:00.500Z", "endTime": "2026-11-20T14:02:09.000Z"},
			map[string]any{"id": "g1", "traceId": "t1", "parentObservationId": "s", "type": "GENERATION", "name": "_run", "startTime": "2026-11-20T14:02:01.000Z",
				"input":  map[string]any{"messages": []any{map[string]any{"role": "user", "content": "Median rent in Leeds?"}}},
				"output": map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{call}}, "metadata": map[string]any{"agent_id": "analyst-73e2"}},
			map[string]any{"id": "t", "traceId": "t1", "parentObservationId": "s", "type": "TOOL", "name": "run_query", "startTime": "2026-11-20T14:02:02.000Z",
				"input": map[string]any{"city": "Leeds"}, "output": "median 1040"},
			map[string]any{"id": "g2", "traceId": "t1", "parentObservationId": "s", "type": "GENERATION", "name": "_run", "startTime": "2026-11-20T14:02:03.000Z",
				"input": map[string]any{"messages": []any{map[string]any{"role": "user", "content": "Median rent in Leeds?"},
					map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{call}}, map[string]any{"role": "tool", "tool_call_id": "c1", "content": "median 1040"}}},
				"output": map[string]any{"role": "assistant", "content": "GBP 1,040."}, "metadata": map[string]any{"agent_id": "analyst-73e2"}},
		}})
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "camel.trace.json")
	require.NoError(t, os.WriteFile(path, b, 0o644))
	r, err := run.Load(path, run.Options{})
	require.NoError(t, err)
	for _, s := range r.Steps[1:] {
		assert.Equal(t, "analyst-73e2", s.Agent, "%s: %s", s.Kind, s.Content)
	}
}

// TestRemoteAgentInputIsItsCallers: what a remote agent is first given,
// reached over HTTP (A2A, MCP) from another agent's open tool call, is
// its caller's words, addressed to it, even where the call's arguments
// were rewritten on the way; the same words as the arguments are read
// once, as the call.
func TestRemoteAgentInputIsItsCallers(t *testing.T) {
	msgs := func(system, user string) string {
		return `[{"role":"system","parts":[{"type":"text","content":"` + system + `"}]},{"role":"user","parts":[{"type":"text","content":"` + user + `"}]}]`
	}
	call := map[string]string{"gen_ai.operation.name": "chat", "gen_ai.input.messages": msgs("You are a concierge.", "Weather on Saturday?"),
		"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"send_message","arguments":{"agent":"weather","task":"Forecast for Saturday 2026-11-14."}}]}]`}
	remote := func(given string) map[string]string {
		return map[string]string{"gen_ai.operation.name": "chat", "gen_ai.input.messages": msgs("You are the weather agent.", given),
			"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"Saturday: rain."}]}]`}
	}
	for _, tt := range []struct {
		name, given string
		want        []string
	}{
		{"the arguments rewritten on the way", "[from concierge] Forecast for Sat 2026-11-14.", []string{"user user: Weather on Saturday?",
			`concierge tool_call: send_message({"agent":"weather","task":"Forecast for Saturday 2026-11-14."})`,
			"concierge user: [from concierge] Forecast for Sat 2026-11-14.", "weather message: Saturday: rain."}},
		{"the arguments as they were", "Forecast for Saturday 2026-11-14.", []string{"user user: Weather on Saturday?",
			`concierge tool_call: send_message({"agent":"weather","task":"Forecast for Saturday 2026-11-14."})`, "weather message: Saturday: rain."}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := run.Load(writeServices(t,
				svcSpan{"concierge", "0000000000000001", "", "POST /chat", 1, nil},
				svcSpan{"concierge", "0000000000000002", "0000000000000001", "chat", 2, call},
				svcSpan{"concierge", "0000000000000003", "0000000000000001", "POST", 3, nil},
				svcSpan{"weather", "0000000000000004", "0000000000000003", "POST /", 4, nil},
				svcSpan{"weather", "0000000000000005", "0000000000000004", "chat", 5, remote(tt.given)},
			), run.Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.want, steps(r))
			for _, s := range r.Steps {
				if s.Kind == run.KindUser && s.Index > 0 {
					assert.Equal(t, "weather", s.Target(), "the caller's words are addressed to the agent it called")
				}
			}
		})
	}
}
