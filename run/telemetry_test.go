package run_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/run/spans"
)

// TestTelemetryExamples reads the trip in every format's example, as the
// tool that exports that format writes it, and finds the same run.
func TestTelemetryExamples(t *testing.T) {
	tests := []struct {
		file    string
		format  run.Format
		errLine string
	}{
		{"otel-sdk.jsonl", run.FormatOTLP, "run_test.CityNotFoundError: no forecast for city Olso"},
		{"tempo.json", run.FormatTempo, "CityNotFoundError: no forecast for city Olso"},
		{"jaeger.json", run.FormatJaeger, "CityNotFoundError: no forecast for city Olso"},
		{"phoenix.jsonl", run.FormatOpenInference, "CityNotFoundError: no forecast for city Olso"},
		{"phoenix-frame.json", run.FormatOpenInference, "CityNotFoundError: no forecast for city Olso"},
		{"phoenix-frame.csv", run.FormatOpenInference, "CityNotFoundError: no forecast for city Olso"},
		// The same frame written by Arrow (apache-arrow 17 and parquet-wasm
		// 0.6.1 in Node, as pandas' to_parquet writes through pyarrow):
		// strings, UTC nanosecond times, lists of structs.
		{"phoenix-frame.parquet", run.FormatOpenInference, "CityNotFoundError: no forecast for city Olso"},
		{"logfire.json", run.FormatOpenInference, "CityNotFoundError: no forecast for city Olso"},
		{"langfuse.json", run.FormatLangfuse, "CityNotFoundError: no forecast for city Olso"},
		{"mlflow.json", run.FormatOpenInference, "CityNotFoundError: no forecast for city Olso"},
		{"ai-sdk.json", run.FormatOTLP, "CityNotFoundError: no forecast for city Olso"},
		{"zipkin.json", run.FormatOpenInference, "CityNotFoundError: no forecast for city Olso"},
		{"langsmith.json", run.FormatLangSmith, "CityNotFoundError: no forecast for city Olso"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join("..", "testdata", "telemetry", tt.file)
			for _, forced := range []run.Format{run.FormatAuto, tt.format} {
				c := loadOne(t, path, forced)
				checkTrip(t, c, path, tt.format, tt.errLine)
			}
		})
	}
}

// TestOTLPProtoTrip: the trip written as OTLP's binary protobuf, framed
// as the Collector's file exporter writes it or as one request body, reads
// as from OTLP/JSON, found or named.
func TestOTLPProtoTrip(t *testing.T) {
	for _, file := range []string{"otel-sdk.binpb", "otel-sdk-request.binpb"} {
		t.Run(file, func(t *testing.T) {
			path := filepath.Join("..", "testdata", "proto", file)
			for _, format := range []run.Format{run.FormatAuto, run.FormatOTLP} {
				c := loadOne(t, path, format)
				checkTrip(t, c, path, run.FormatOTLP, "run_test.CityNotFoundError: no forecast for city Olso")
			}
		})
	}
}

// TestOTLPProtoDecodedOnce: a binary file is decoded once, found or
// named: reading it costs what decoding it costs and what reading the same
// trip's spans costs beyond decoding them from OTLP/JSON, in allocations
// (a count the inputs fix, unlike a time).
func TestOTLPProtoDecodedOnce(t *testing.T) {
	ctx := context.Background()
	beyondDecoding := func(path string, format run.Format) float64 {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		read := testing.AllocsPerRun(10, func() {
			_, err = run.ParseAll(ctx, path, data, run.Options{Format: format})
		})
		require.NoError(t, err)
		decode := testing.AllocsPerRun(10, func() { _, err = spans.Decode(ctx, data, spans.OTLP) })
		require.NoError(t, err)
		return read - decode
	}
	fromJSON := beyondDecoding(filepath.Join("..", "testdata", "telemetry", "otel-sdk.jsonl"), run.FormatOTLP)
	tests := []struct {
		file   string
		format run.Format
	}{
		{"otel-sdk.binpb", run.FormatAuto},
		{"otel-sdk.binpb", run.FormatOTLP},
		{"otel-sdk-request.binpb", run.FormatAuto},
		{"otel-sdk-request.binpb", run.FormatOTLP},
	}
	for _, tt := range tests {
		t.Run(tt.file+" "+string(tt.format), func(t *testing.T) {
			assert.LessOrEqual(t, beyondDecoding(filepath.Join("..", "testdata", "proto", tt.file), tt.format), fromJSON)
		})
	}
}

// span is a flat span for the tests: start in seconds, attributes as they
// would be on the wire.
type span struct {
	trace, id, parent, name string
	start, end              float64
	attrs                   map[string]any
	status, message         string
	events                  []map[string]any
}

// writeSpans writes spans as a flat span list (one a line), the easiest
// format to write by hand; the conventions read the same from any format.
func writeSpans(t *testing.T, ss ...span) string {
	t.Helper()
	var b strings.Builder
	for _, s := range ss {
		if s.trace == "" {
			s.trace = "t1"
		}
		if s.end == 0 {
			s.end = s.start + 0.5
		}
		line, err := json.Marshal(map[string]any{
			"name": s.name, "context": map[string]any{"trace_id": s.trace, "span_id": s.id}, "parent_id": s.parent,
			"start_time": int64(s.start * 1e9), "end_time": int64(s.end * 1e9), "status_code": s.status, "status_message": s.message,
			"attributes": s.attrs, "events": s.events,
		})
		require.NoError(t, err)
		b.Write(line)
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "spans.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

// steps renders a run's steps one a line, "agent kind: content".
// loadOne loads the file at path, read as format, and returns its one run.
func loadOne(t *testing.T, path string, format run.Format) *run.Case {
	t.Helper()
	cases, err := run.LoadAll(context.Background(), path, run.Options{Format: format})
	require.NoError(t, err)
	require.Len(t, cases, 1)
	return cases[0]
}

// kinds lists a run's steps as "kind: text".
func kinds(r *run.Run) []string {
	var out []string
	for _, s := range r.Steps {
		out = append(out, string(s.Kind)+": "+s.Content)
	}
	return out
}

func steps(r *run.Run) []string {
	var out []string
	for _, s := range r.Steps {
		out = append(out, s.Agent+" "+string(s.Kind)+": "+s.Content)
	}
	return out
}

func TestSpansToSteps(t *testing.T) {
	tests := []struct {
		name     string
		spans    []span
		question string
		want     []string
	}{
		{
			name: "OpenLLMetry indexed prompt and completion, with a tool message no tool span answered",
			spans: []span{
				{id: "a", name: "crew", start: 1, attrs: map[string]any{"traceloop.span.kind": "agent", "traceloop.entity.name": "Analyst"}},
				{id: "b", parent: "a", name: "openai.chat", start: 2, attrs: map[string]any{
					"llm.request.type": "chat", "gen_ai.system": "openai",
					"gen_ai.prompt.0.role": "user", "gen_ai.prompt.0.content": "Sum 2 and 3.",
					"gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.tool_calls.0.id": "c1",
					"gen_ai.completion.0.tool_calls.0.name": "add", "gen_ai.completion.0.tool_calls.0.arguments": `{"a":2,"b":3}`,
				}},
				{id: "c", parent: "a", name: "openai.chat", start: 3, attrs: map[string]any{
					"llm.request.type":     "chat",
					"gen_ai.prompt.0.role": "user", "gen_ai.prompt.0.content": "Sum 2 and 3.",
					"gen_ai.prompt.1.role": "tool", "gen_ai.prompt.1.tool_call_id": "c1", "gen_ai.prompt.1.content": "5",
					"gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.content": "The sum is 5.",
				}},
			},
			question: "Sum 2 and 3.",
			want:     []string{"user user: Sum 2 and 3.", `Analyst tool_call: add({"a":2,"b":3})`, "Analyst tool_result: 5", "Analyst message: The sum is 5."},
		},
		{
			name: "tool messages whose role is the tool's name and carry no call id (LangChain.js), the same tool called twice",
			spans: []span{
				{id: "a", name: "chat", start: 1, attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.agent.name": "Bot",
					"gen_ai.prompt":     `[{"role":"user","content":"Weather in Oslo, then Rome?"}]`,
					"gen_ai.completion": `[{"role":"assistant","content":"","tool_calls":[{"id":"k1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]}]`,
				}},
				{id: "b", name: "chat", start: 2, attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.agent.name": "Bot",
					"gen_ai.prompt": `[{"role":"user","content":"Weather in Oslo, then Rome?"},` +
						`{"role":"assistant","content":"","tool_calls":[{"id":"k1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]},` +
						`{"role":"get_weather","content":"rain"}]`,
					"gen_ai.completion": `[{"role":"assistant","content":"","tool_calls":[{"id":"k2","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Rome\"}"}}]}]`,
				}},
				{id: "c", name: "chat", start: 3, attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.agent.name": "Bot",
					"gen_ai.prompt": `[{"role":"user","content":"Weather in Oslo, then Rome?"},` +
						`{"role":"assistant","content":"","tool_calls":[{"id":"k1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]},` +
						`{"role":"get_weather","content":"rain"},` +
						`{"role":"assistant","content":"","tool_calls":[{"id":"k2","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Rome\"}"}}]},` +
						`{"role":"get_weather","content":"sun"}]`,
					"gen_ai.completion": `[{"role":"assistant","content":"Rain in Oslo, sun in Rome."}]`,
				}},
			},
			question: "Weather in Oslo, then Rome?",
			want: []string{"user user: Weather in Oslo, then Rome?", `Bot tool_call: get_weather({"city":"Oslo"})`, "Bot tool_result: rain",
				`Bot tool_call: get_weather({"city":"Rome"})`, "Bot tool_result: sun", "Bot message: Rain in Oslo, sun in Rome."},
		},
		{
			name: "model calls whose outputs were not recorded (BeeAI): each reply is read from the agent's next call's input",
			spans: []span{
				{id: "a", name: "chat", start: 1, attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.agent.name": "Bot",
					"gen_ai.prompt": `[{"role":"user","content":"Plan a trip."}]`}},
				{id: "b", name: "chat", start: 2, attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.agent.name": "Bot",
					"gen_ai.prompt": `[{"role":"user","content":"Plan a trip."},{"role":"assistant","content":"Thought: look up sights."}]`}},
				// The next input does not repeat the last one's: it is
				// another conversation, whose messages are not replies;
				// with no agent span in the trace, its new prompt past
				// the last assistant message is a step.
				{id: "c", name: "chat", start: 3, attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.agent.name": "Bot",
					"gen_ai.prompt": `[{"role":"user","content":"Summarise."},{"role":"assistant","content":"Not a reply."},{"role":"user","content":"Again."}]`}},
				// A reply the call gives as its own output is its own.
				{id: "d", name: "chat", start: 4, attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.agent.name": "Bot",
					"gen_ai.prompt":     `[{"role":"user","content":"Summarise."},{"role":"assistant","content":"Not a reply."},{"role":"user","content":"Again."},{"role":"assistant","content":"Done."}]`,
					"gen_ai.completion": `[{"role":"assistant","content":"Done."}]`}},
			},
			question: "Plan a trip.",
			want:     []string{"user user: Plan a trip.", "Bot message: Thought: look up sights.", "user user: Again.", "Bot message: Done."},
		},
		{
			name: "a model's output written as the tool calls it requests (any-agent), one with no arguments its tool span ran with",
			spans: []span{
				{id: "a", name: "invoke_agent any_agent", start: 1, end: 9, attrs: map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "any_agent"}},
				{id: "b", parent: "a", name: "call_llm m", start: 2, attrs: map[string]any{"gen_ai.operation.name": "call_llm",
					"gen_ai.input.messages": `[{"role":"user","content":"Year in New York?"}]`,
					"gen_ai.output":         `[{"tool.name":"get_time","tool.args":{"tz":"America/New_York"}}]`, "gen_ai.output.type": "json"}},
				{id: "c", parent: "a", name: "execute_tool get_time", start: 3, attrs: map[string]any{"gen_ai.operation.name": "execute_tool",
					"gen_ai.tool.name": "get_time", "gen_ai.tool.args": `{"tz": "America/New_York"}`, "gen_ai.output": "2025"}},
				{id: "d", parent: "a", name: "call_llm m", start: 4, attrs: map[string]any{"gen_ai.operation.name": "call_llm",
					"gen_ai.output": `[{"tool.name":"write_file","tool.args":"{}"}]`, "gen_ai.output.type": "json"}},
				{id: "e", parent: "a", name: "execute_tool write_file", start: 5, attrs: map[string]any{"gen_ai.operation.name": "execute_tool",
					"gen_ai.tool.name": "write_file", "gen_ai.tool.args": `{"text": "2025"}`, "gen_ai.output": "ok"}},
			},
			question: "Year in New York?",
			want: []string{"user user: Year in New York?", `any_agent tool_call: get_time({"tz":"America/New_York"})`, "any_agent tool_result: 2025",
				`any_agent tool_call: write_file({"text": "2025"})`, "any_agent tool_result: ok"},
		},
		{
			// OpenManus adds the page the browser shows after browser_use's
			// result to the next model call's input: the call's result too,
			// which no span gives. A labelled loop part ("Observation: …")
			// only restates the result.
			name: "what a framework shows an agent after its calls' results is their result",
			spans: []span{
				{id: "a", name: "invoke_agent Manus", start: 1, end: 9, attrs: map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "Manus"}},
				{id: "b", parent: "a", name: "chat gpt-4o", start: 2, attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.agent.name": "Manus",
					"gen_ai.input.messages":  `[{"role":"user","parts":[{"type":"text","content":"Price of the oak table?"}]}]`,
					"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"browser_use","arguments":{"action":"go_to_url","url":"http://shop.test/?q=oak+table"}}]}]`}},
				{id: "c", parent: "a", name: "execute_tool browser_use", start: 3, attrs: map[string]any{"gen_ai.operation.name": "execute_tool",
					"gen_ai.tool.name": "browser_use", "gen_ai.tool.call.id": "call_1", "gen_ai.tool.call.result": "Navigated to http://shop.test/?q=oak+table"}},
				{id: "d", parent: "a", name: "chat gpt-4o", start: 4, attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.agent.name": "Manus",
					"gen_ai.input.messages": `[{"role":"user","parts":[{"type":"text","content":"Price of the oak table?"}]},` +
						`{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"browser_use","arguments":{"action":"go_to_url","url":"http://shop.test/?q=oak+table"}}]},` +
						`{"role":"tool","parts":[{"type":"tool_call_response","id":"call_1","response":"Navigated to http://shop.test/?q=oak+table"}]},` +
						`{"role":"user","parts":[{"type":"text","content":"Current browser state:\n[20]<a >Oak Table />\n[21]<span >$529.00 />"}]},` +
						`{"role":"user","parts":[{"type":"text","content":"Observation: the page is open."}]}]`,
					"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"The oak table costs $529.00."}]}]`}},
			},
			question: "Price of the oak table?",
			want: []string{"user user: Price of the oak table?", `Manus tool_call: browser_use({"action":"go_to_url","url":"http://shop.test/?q=oak+table"})`,
				"Manus tool_result: Navigated to http://shop.test/?q=oak+table", "Manus tool_result: Current browser state:\n[20]<a >Oak Table />\n[21]<span >$529.00 />",
				"Manus message: The oak table costs $529.00."},
		},
		{
			name: "GenAI events of older instrumentations",
			spans: []span{
				{id: "a", name: "chat", start: 1, attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.agent.name": "Bot"},
					events: []map[string]any{
						{"name": "gen_ai.content.prompt", "attributes": map[string]any{"gen_ai.prompt": `[{"role":"user","content":"Capital of France?"}]`}},
						{"name": "gen_ai.content.completion", "attributes": map[string]any{"gen_ai.completion": `[{"role":"assistant","content":"Paris."}]`}},
					}},
				{id: "b", name: "chat", start: 2, attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.agent.name": "Bot"},
					events: []map[string]any{
						{"name": "gen_ai.user.message", "attributes": map[string]any{"content": "And of Spain?"}},
						{"name": "gen_ai.choice", "attributes": map[string]any{"message": `{"role":"assistant","content":"Madrid."}`}},
					}},
			},
			question: "Capital of France?",
			want:     []string{"user user: Capital of France?", "Bot message: Paris.", "Bot message: Madrid."},
		},
		{
			// OpenLIT writes the content events' values as text, the
			// prompt's messages flattened to "role: content" lines, and
			// names a CrewAI agent's run operation "agent", its agent by
			// its role.
			name: "GenAI content events holding text, OpenLIT's agents",
			spans: []span{
				{id: "a", name: "crewai.agent_execute_task", start: 1, end: 4, attrs: map[string]any{"gen_ai.operation.name": "agent", "gen_ai.agent.role": "Researcher", "gen_ai.agent.id": "9d1c0a2e-1f3b-4c5d-8e7f-0a1b2c3d4e5f"}},
				{id: "b", parent: "a", name: "chat gpt-4o-mini", start: 2, attrs: map[string]any{"gen_ai.operation.name": "chat"},
					events: []map[string]any{
						{"name": "gen_ai.content.prompt", "attributes": map[string]any{"gen_ai.prompt": "system: You are Researcher.\nuser: Find the growth.\nIt is in the report."}},
						{"name": "gen_ai.content.completion", "attributes": map[string]any{"gen_ai.completion": "Growth was 14.2%."}},
					}},
				{id: "c", name: "crewai.agent_execute_task", start: 5, end: 8, attrs: map[string]any{"gen_ai.operation.name": "agent", "gen_ai.agent.role": "Writer"}},
				{id: "d", parent: "c", name: "chat gpt-4o-mini", start: 6, attrs: map[string]any{"gen_ai.operation.name": "chat"},
					events: []map[string]any{
						{"name": "gen_ai.content.prompt", "attributes": map[string]any{"gen_ai.prompt": "Write the brief: growth was 14.2%."}},
						{"name": "gen_ai.content.completion", "attributes": map[string]any{"gen_ai.completion": "Growth was 12.4%."}},
					}},
			},
			question: "Find the growth.\nIt is in the report.",
			want:     []string{"user user: Find the growth.\nIt is in the report.", "Researcher message: Growth was 14.2%.", "Writer message: Growth was 12.4%."},
		},
		{
			// Semantic Kernel names its model calls' operations
			// chat.completions and text.completions (streaming:
			// chat.streaming_completions), beside the GenAI events.
			name: "Semantic Kernel's operation names of model calls",
			spans: []span{
				{id: "a", name: "invoke_agent Scout", start: 1, end: 9, attrs: map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "Scout"}},
				{id: "b", parent: "a", name: "chat.completions gpt-4o", start: 2, attrs: map[string]any{"gen_ai.operation.name": "chat.completions"},
					events: []map[string]any{
						{"name": "gen_ai.content.prompt", "attributes": map[string]any{"gen_ai.prompt": `[{"role":"user","content":"Capital of France?"}]`}},
						{"name": "gen_ai.content.completion", "attributes": map[string]any{"gen_ai.completion": `[{"role":"assistant","content":"Paris."}]`}},
					}},
				{id: "c", parent: "a", name: "chat.streaming_completions gpt-4o", start: 3, attrs: map[string]any{"gen_ai.operation.name": "chat.streaming_completions"},
					events: []map[string]any{
						{"name": "gen_ai.content.completion", "attributes": map[string]any{"gen_ai.completion": `[{"role":"assistant","content":"Lyon is second."}]`}},
					}},
			},
			question: "Capital of France?",
			want:     []string{"user user: Capital of France?", "Scout message: Paris.", "Scout message: Lyon is second."},
		},
		{
			// Azure AI Inference's tracing writes each event's body as one
			// JSON attribute, gen_ai.event.content.
			name: "GenAI events whose body is one JSON attribute",
			spans: []span{
				{id: "a", name: "chat gpt-4o", start: 1, attrs: map[string]any{"gen_ai.operation.name": "chat"},
					events: []map[string]any{
						{"name": "gen_ai.system.message", "attributes": map[string]any{"gen_ai.system": "az.ai.inference", "gen_ai.event.content": `{"content": "Be brief."}`}},
						{"name": "gen_ai.user.message", "attributes": map[string]any{"gen_ai.system": "az.ai.inference", "gen_ai.event.content": `{"content": "Capital of France?"}`}},
						{"name": "gen_ai.choice", "attributes": map[string]any{"gen_ai.system": "az.ai.inference", "gen_ai.event.content": `{"message": {"content": "Paris."}, "finish_reason": "stop", "index": 0}`}},
					}},
				{id: "b", name: "chat gpt-4o", start: 2, attrs: map[string]any{"gen_ai.operation.name": "chat"},
					events: []map[string]any{
						{"name": "gen_ai.user.message", "attributes": map[string]any{"gen_ai.event.content": `{"content": "Capital of France?"}`}},
						{"name": "gen_ai.assistant.message", "attributes": map[string]any{"gen_ai.event.content": `{"content": "Paris."}`}},
						{"name": "gen_ai.user.message", "attributes": map[string]any{"gen_ai.event.content": `{"content": "How many live there?"}`}},
						{"name": "gen_ai.choice", "attributes": map[string]any{"gen_ai.event.content": `{"message": {"tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": "{\"city\": \"Paris\"}"}}]}, "finish_reason": "tool_calls", "index": 0}`}},
					}},
				{id: "c", name: "chat gpt-4o", start: 3, attrs: map[string]any{"gen_ai.operation.name": "chat"},
					events: []map[string]any{
						{"name": "gen_ai.user.message", "attributes": map[string]any{"gen_ai.event.content": `{"content": "Capital of France?"}`}},
						{"name": "gen_ai.assistant.message", "attributes": map[string]any{"gen_ai.event.content": `{"content": "Paris."}`}},
						{"name": "gen_ai.user.message", "attributes": map[string]any{"gen_ai.event.content": `{"content": "How many live there?"}`}},
						{"name": "gen_ai.assistant.message", "attributes": map[string]any{"gen_ai.event.content": `{"tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": "{\"city\": \"Paris\"}"}}]}`}},
						{"name": "gen_ai.tool.message", "attributes": map[string]any{"gen_ai.event.content": `{"content": "2.1 million", "id": "call_1"}`}},
						{"name": "gen_ai.choice", "attributes": map[string]any{"gen_ai.event.content": `{"message": {"content": "About 2.1 million live there."}, "finish_reason": "stop", "index": 0}`}},
					}},
			},
			question: "Capital of France?",
			want: []string{"user user: Capital of France?", "assistant message: Paris.", "user user: How many live there?", `assistant tool_call: lookup({"city": "Paris"})`,
				"assistant tool_result: 2.1 million", "assistant message: About 2.1 million live there."},
		},
		{
			name: "a span whose parent is missing still makes steps; its agent is the service's",
			spans: []span{
				{id: "x", parent: "gone", name: "chat", start: 1, attrs: map[string]any{"gen_ai.operation.name": "chat",
					"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"orphan answer"}]}]`}},
			},
			want: []string{"assistant message: orphan answer"},
		},
		{
			name: "an agent whose inside was not traced gives its output; a model call that failed is a step of its own",
			spans: []span{
				{id: "a", name: "Writer", start: 1, end: 5, attrs: map[string]any{"openinference.span.kind": "AGENT", "agent.name": "Writer", "input.value": "Write a haiku.", "output.value": "Autumn moonlight"}},
				{id: "b", name: "Critic", start: 6, end: 9, attrs: map[string]any{"openinference.span.kind": "AGENT", "agent.name": "Critic"}},
				{id: "c", parent: "b", name: "llm", start: 7, status: "ERROR", attrs: map[string]any{"openinference.span.kind": "LLM"},
					events: []map[string]any{{"name": "exception", "attributes": map[string]any{"exception.type": "openai.RateLimitError", "exception.message": "429 Too Many Requests"}}}},
			},
			question: "Write a haiku.",
			want:     []string{"user user: Write a haiku.", "Writer message: Autumn moonlight", "Critic message: openai.RateLimitError: 429 Too Many Requests"},
		},
		{
			name: "an error inside a tool belongs to the tool's result, once",
			spans: []span{
				{id: "a", name: "invoke_agent Fetcher", start: 1, end: 9, status: "ERROR", attrs: map[string]any{"gen_ai.operation.name": "invoke_agent"}},
				{id: "b", parent: "a", name: "execute_tool http_get", start: 2, end: 4, status: "ERROR", attrs: map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "http_get", "gen_ai.tool.call.arguments": `{"url":"x"}`}},
				{id: "c", parent: "b", name: "GET", start: 3, status: "ERROR", attrs: map[string]any{"http.response.status_code": 503},
					events: []map[string]any{{"name": "exception", "attributes": map[string]any{"exception.type": "httpx.HTTPStatusError", "exception.message": "503 Service Unavailable"}}}},
			},
			// The tool and the agent fail because the request did: their
			// status says nothing the exception has not.
			want: []string{`Fetcher tool_call: http_get({"url":"x"})`, "Fetcher tool_result: httpx.HTTPStatusError: 503 Service Unavailable"},
		},
		{
			name: "an agent span named by a generated id of its run (Koog's run.<uuid>) is the agent its gen_ai.agent.id names, in every run",
			spans: []span{
				{id: "a", name: "run.6f8d2449-33ed-4c7c-82e7-5410e34ee4e6", start: 1, end: 4, attrs: map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.id": "greeter"}},
				{id: "c1", parent: "a", name: "llm.chat", start: 2, end: 3, attrs: map[string]any{"gen_ai.operation.name": "chat",
					"gen_ai.input.messages": `[{"role":"user","content":"Greet Bob."}]`, "gen_ai.output.messages": `[{"role":"assistant","content":"Hello Bob!"}]`}},
				{id: "b", name: "run.0b1e9d3c-8a52-4f7e-9d1a-5c2e7f3b9a10", start: 5, end: 8, attrs: map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.id": "greeter"}},
				{id: "c2", parent: "b", name: "llm.chat", start: 6, end: 7, attrs: map[string]any{"gen_ai.operation.name": "chat",
					"gen_ai.output.messages": `[{"role":"assistant","content":"Bye Bob!"}]`}},
			},
			question: "Greet Bob.",
			want:     []string{"user user: Greet Bob.", "greeter message: Hello Bob!", "greeter message: Bye Bob!"},
		},
		{
			name: "an agent span beside its model call, not around it, names the call's agent",
			spans: []span{
				{id: "w", name: "workflow", start: 1, end: 9, attrs: map[string]any{"openinference.span.kind": "CHAIN"}},
				{id: "a", parent: "w", name: "invoke_agent Weather", start: 1, end: 2, attrs: map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "Weather",
					"gen_ai.input.messages": `[{"role":"user","content":"Rain in Oslo?"}]`}},
				{id: "c", parent: "w", name: "chat", start: 3, attrs: map[string]any{"gen_ai.operation.name": "chat",
					"gen_ai.output.messages": `[{"role":"assistant","content":"Yes, rain."}]`}},
			},
			question: "Rain in Oslo?",
			want:     []string{"user user: Rain in Oslo?", "Weather message: Yes, rain."},
		},
		{
			name: "agent spans of two agents beside their model calls each name the calls after them; a span whose output is a request says nothing",
			spans: []span{
				{id: "w", name: "workflow", start: 1, end: 9, attrs: map[string]any{"openinference.span.kind": "CHAIN"}},
				{id: "a", parent: "w", name: "Researcher", start: 1, end: 2, attrs: map[string]any{"openinference.span.kind": "AGENT", "agent.name": "Researcher",
					"output.value": `{"messages":[{"role":"system","content":"You research."},{"role":"user","content":"Rain in Oslo?"}]}`}},
				{id: "c1", parent: "w", name: "chat", start: 3, end: 4, attrs: map[string]any{"gen_ai.operation.name": "chat",
					"gen_ai.input.messages": `[{"role":"user","content":"Rain in Oslo?"}]`, "gen_ai.output.messages": `[{"role":"assistant","content":"Yes, rain."}]`}},
				{id: "b", parent: "w", name: "Writer", start: 5, end: 6, attrs: map[string]any{"openinference.span.kind": "AGENT", "agent.name": "Writer"}},
				{id: "c2", parent: "w", name: "chat", start: 7, end: 8, attrs: map[string]any{"gen_ai.operation.name": "chat",
					"gen_ai.output.messages": `[{"role":"assistant","content":"Pack an umbrella."}]`}},
			},
			question: "Rain in Oslo?",
			want:     []string{"user user: Rain in Oslo?", "Researcher message: Yes, rain.", "Writer message: Pack an umbrella."},
		},
		{
			name: "an agent span that only marks a router's decision, between model calls, is no agent",
			spans: []span{
				{id: "w", name: "LangGraph", start: 1, end: 9, attrs: map[string]any{"openinference.span.kind": "CHAIN"}},
				{id: "c1", parent: "w", name: "chat", start: 1, end: 2, attrs: map[string]any{"openinference.span.kind": "LLM",
					"llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": "Warmer, Taipei or Seattle?",
					"llm.output_messages.0.message.role": "assistant", "llm.output_messages.0.message.content": "Checking both."}},
				{id: "r", parent: "w", name: "route_to_agent", start: 2, end: 3, attrs: map[string]any{"openinference.span.kind": "AGENT",
					"input.value": "{'agent_name': 'research_agent'}"}},
				{id: "c2", parent: "w", name: "chat", start: 3, end: 4, attrs: map[string]any{"openinference.span.kind": "LLM",
					"llm.output_messages.0.message.role": "assistant", "llm.output_messages.0.message.content": "Taipei."}},
			},
			question: "Warmer, Taipei or Seattle?",
			want:     []string{"user user: Warmer, Taipei or Seattle?", "assistant message: Checking both.", "assistant message: Taipei."},
		},
		{
			name: "an agent run by a tool call and named as the tool is named by the agent the call asks for",
			spans: []span{
				{id: "q", name: "query", start: 1, end: 9, attrs: map[string]any{"openinference.span.kind": "AGENT", "agent.name": "lead",
					"input.value": "What is 42 * 7?"}},
				{id: "t", parent: "q", name: "Agent", start: 2, end: 8, attrs: map[string]any{"openinference.span.kind": "TOOL", "tool.name": "Agent",
					"input.value": `{"description": "multiply", "subagent_type": "math-agent"}`, "output.value": "294"}},
				{id: "a", parent: "t", name: "SDK.Agent", start: 3, end: 7, attrs: map[string]any{"openinference.span.kind": "AGENT", "agent.name": "Agent"}},
				{id: "c", parent: "a", name: "chat", start: 4, end: 5, attrs: map[string]any{"openinference.span.kind": "LLM",
					"llm.output_messages.0.message.role": "assistant", "llm.output_messages.0.message.content": "42 * 7 = 294."}},
			},
			question: "What is 42 * 7?",
			want: []string{"user user: What is 42 * 7?", `lead tool_call: Agent({"description": "multiply", "subagent_type": "math-agent"})`,
				"math-agent message: 42 * 7 = 294.", "lead tool_result: 294"},
		},
		{
			name: "agent names lose their control characters",
			spans: []span{
				{id: "a", name: "x", start: 1, attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.agent.name": "Ev\x1b[31mil\x07",
					"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"hi \u001b[2J"}]}]`}},
			},
			// The text's terminal escape is read away with the others, and
			// the name's escape whole.
			want: []string{"Evil message: hi "},
		},
		{
			// Laminar: observe() names a function's span for it (an agent,
			// when a model call runs inside it), a TOOL span is a tool,
			// and a function's arguments are a JSON list. The tool and the
			// model call given its result start on the same millisecond;
			// the file lists the model call first.
			name: "Laminar's observed functions, a tool and the call after it on one tick",
			spans: []span{
				{id: "a", name: "researcher", start: 1, end: 9, attrs: map[string]any{"lmnr.span.path": `["researcher"]`, "lmnr.span.input": `["Weather in Oslo?"]`, "lmnr.span.output": `"7 °F."`}},
				{id: "m", parent: "a", name: "chat", start: 2, attrs: map[string]any{"gen_ai.operation.name": "chat", "lmnr.span.path": `["researcher","chat"]`,
					"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"get_weather","arguments":{"city":"Oslo"}}]}]`}},
				{id: "m2", parent: "a", name: "chat", start: 3, end: 3.5, attrs: map[string]any{"gen_ai.operation.name": "chat", "lmnr.span.path": `["researcher","chat"]`,
					"gen_ai.input.messages":  `[{"role":"user","parts":[{"type":"text","content":"Weather in Oslo?"}]},{"role":"tool","parts":[{"type":"tool_call_response","id":"c1","response":"{\"tempC\":7}"}]}]`,
					"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"7 °F."}]}]`}},
				{id: "w", parent: "a", name: "get_weather", start: 3, end: 3.1, attrs: map[string]any{"lmnr.span.type": "TOOL", "lmnr.span.path": `["researcher","get_weather"]`,
					"lmnr.span.input": `{"city":"Oslo"}`, "lmnr.span.output": `{"tempC":7}`}},
			},
			question: "Weather in Oslo?",
			want: []string{"user user: Weather in Oslo?", `researcher tool_call: get_weather({"city":"Oslo"})`,
				`researcher tool_result: {"tempC":7}`, "researcher message: 7 °F."},
		},
		{
			// LangWatch: langwatch.span.type says what a span is, and its
			// input and output are {"type", "value"}: text, messages, JSON
			// (kept as written).
			name: "LangWatch's typed spans and values",
			spans: []span{
				{id: "a", name: "researcher", start: 1, end: 9, attrs: map[string]any{"langwatch.span.type": "agent",
					"langwatch.input": `{"type":"text","value":"Weather in Oslo?"}`, "langwatch.output": `{"type":"text","value":"7 °F."}`}},
				{id: "m", parent: "a", name: "chat", start: 2, attrs: map[string]any{"langwatch.span.type": "llm",
					"langwatch.input":  `{"type":"chat_messages","value":[{"role":"user","content":"Weather in Oslo?"}]}`,
					"langwatch.output": `{"type":"chat_messages","value":[{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]}]}`}},
				{id: "w", parent: "a", name: "get_weather", start: 3, attrs: map[string]any{"langwatch.span.type": "tool",
					"langwatch.input": `{"type":"json","value":{"city":"Oslo"}}`, "langwatch.output": `{"type":"json","value":{"tempC":7,"sky":"rain"}}`}},
				{id: "m2", parent: "a", name: "chat", start: 4, attrs: map[string]any{"langwatch.span.type": "llm",
					"langwatch.output": `{"type":"chat_messages","value":[{"role":"assistant","content":"7 °F."}]}`}},
			},
			question: "Weather in Oslo?",
			want: []string{"user user: Weather in Oslo?", `researcher tool_call: get_weather({"city":"Oslo"})`,
				`researcher tool_result: {"tempC":7,"sky":"rain"}`, "researcher message: 7 °F."},
		},
		{
			// OpenLLMetry's MCP instrumentation writes a CallToolResult
			// as {"result": …}, with "is_error" when the tool's isError is
			// set, and the error's text as the span's status message.
			name: "an MCP tool's error result, written with its flag and as the span's status",
			spans: []span{
				{id: "a", name: "researcher.agent", start: 1, end: 9, attrs: map[string]any{"traceloop.span.kind": "agent", "traceloop.entity.name": "researcher"}},
				{id: "m", parent: "a", name: "chat gpt-4o-mini", start: 2, attrs: map[string]any{"llm.request.type": "chat",
					"gen_ai.prompt.0.role": "user", "gen_ai.prompt.0.content": "Weather in Olso?",
					"gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.tool_calls.0.id": "c1",
					"gen_ai.completion.0.tool_calls.0.name": "get_weather", "gen_ai.completion.0.tool_calls.0.arguments": `{"city":"Olso"}`}},
				{id: "t", parent: "a", name: "get_weather.tool", start: 3, status: "ERROR", message: "unknown city: Olso", attrs: map[string]any{
					"traceloop.span.kind": "tool", "traceloop.entity.name": "get_weather",
					"traceloop.entity.input":  `{"tool_name":"get_weather","arguments":{"city":"Olso"}}`,
					"traceloop.entity.output": `{"result":"unknown city: Olso","is_error":true}`}},
			},
			question: "Weather in Olso?",
			want: []string{"user user: Weather in Olso?", `researcher tool_call: get_weather({"city":"Olso"})`,
				"researcher tool_result: Error: unknown city: Olso"},
		},
		{
			// The tool call of the GenAI conventions' MCP examples
			// (semconv docs/gen-ai/mcp.md, "Stdio transport"): the MCP
			// client's and the server's tools/call spans, the server's a
			// child of the client's through the context MCP propagates in
			// params._meta, are both execute_tool spans of one call, and
			// both record its arguments and result.
			name: "an MCP tool call's client and server spans, one call",
			spans: []span{
				{id: "s1", name: "invoke_agent weather-forecast-agent", start: 1, end: 9, attrs: map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "weather-forecast-agent"}},
				{id: "s2", parent: "s1", name: "chat gpt-4o", start: 2, attrs: map[string]any{"gen_ai.operation.name": "chat",
					"gen_ai.input.messages":  `[{"role":"user","parts":[{"type":"text","content":"Weather in San Francisco on 1 October?"}]}]`,
					"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"get-weather","arguments":{"location":"San Francisco?","date":"2025-10-01"}}]}]`}},
				{id: "s3", parent: "s1", name: "tools/call get-weather", start: 3, end: 5, attrs: map[string]any{"gen_ai.operation.name": "execute_tool",
					"gen_ai.tool.name": "get-weather", "mcp.method.name": "tools/call", "jsonrpc.request.id": "3", "mcp.session.id": "8267461134f24305af708e66b8eda71a",
					"gen_ai.tool.call.arguments": `{"location":"San Francisco?","date":"2025-10-01"}`,
					"gen_ai.tool.call.result":    `{"temperature_range":{"high":75,"low":60}}`}},
				{id: "s4", parent: "s3", name: "tools/call get-weather", start: 3.5, end: 4.5, attrs: map[string]any{"gen_ai.operation.name": "execute_tool",
					"gen_ai.tool.name": "get-weather", "mcp.method.name": "tools/call", "jsonrpc.request.id": "3", "mcp.session.id": "8267461134f24305af708e66b8eda71a",
					"gen_ai.tool.call.arguments": `{"location":"San Francisco?","date":"2025-10-01"}`,
					"gen_ai.tool.call.result":    `{"temperature_range":{"high":75,"low":60}}`}},
				{id: "s5", parent: "s1", name: "chat gpt-4o", start: 6, attrs: map[string]any{"gen_ai.operation.name": "chat",
					"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"Highs of 75 °F, lows of 60 °F."}]}]`}},
			},
			question: "Weather in San Francisco on 1 October?",
			want: []string{"user user: Weather in San Francisco on 1 October?",
				`weather-forecast-agent tool_call: get-weather({"date":"2025-10-01","location":"San Francisco?"})`,
				`weather-forecast-agent tool_result: {"temperature_range":{"high":75,"low":60}}`,
				"weather-forecast-agent message: Highs of 75 °F, lows of 60 °F."},
		},
		{
			// The same call failing: an MCP tool error (isError) is
			// error.type tool_error on both spans (semconv mcp.md, note
			// [1] of the client span's attributes), reported once.
			name: "an MCP tool call's client and server spans, failed",
			spans: []span{
				{id: "s1", name: "invoke_agent weather-forecast-agent", start: 1, end: 9, attrs: map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "weather-forecast-agent"}},
				{id: "s2", parent: "s1", name: "chat gpt-4o", start: 2, attrs: map[string]any{"gen_ai.operation.name": "chat",
					"gen_ai.input.messages":  `[{"role":"user","parts":[{"type":"text","content":"Weather in Olso?"}]}]`,
					"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"get-weather","arguments":{"location":"Olso"}}]}]`}},
				{id: "s3", parent: "s1", name: "tools/call get-weather", start: 3, end: 5, status: "ERROR", attrs: map[string]any{"gen_ai.operation.name": "execute_tool",
					"gen_ai.tool.name": "get-weather", "mcp.method.name": "tools/call", "jsonrpc.request.id": "3", "error.type": "tool_error",
					"gen_ai.tool.call.arguments": `{"location":"Olso"}`}},
				{id: "s4", parent: "s3", name: "tools/call get-weather", start: 3.5, end: 4.5, status: "ERROR", attrs: map[string]any{"gen_ai.operation.name": "execute_tool",
					"gen_ai.tool.name": "get-weather", "mcp.method.name": "tools/call", "jsonrpc.request.id": "3", "error.type": "tool_error",
					"gen_ai.tool.call.arguments": `{"location":"Olso"}`}},
			},
			question: "Weather in Olso?",
			want: []string{"user user: Weather in Olso?",
				`weather-forecast-agent tool_call: get-weather({"location":"Olso"})`,
				`weather-forecast-agent tool_result: Error: tool_error`},
		},
		{
			// The same, the spans keeping the tool's error result as the
			// call's result and as their status message, beside
			// error.type tool_error: the error's line names its type, and
			// the result it repeats is read once.
			name: "an MCP tool call's client and server spans, failed, the error's text their result",
			spans: []span{
				{id: "s1", name: "invoke_agent weather-forecast-agent", start: 1, end: 9, attrs: map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "weather-forecast-agent"}},
				{id: "s2", parent: "s1", name: "chat gpt-4o", start: 2, attrs: map[string]any{"gen_ai.operation.name": "chat",
					"gen_ai.input.messages":  `[{"role":"user","parts":[{"type":"text","content":"Weather in Olso?"}]}]`,
					"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"get-weather","arguments":{"location":"Olso"}}]}]`}},
				{id: "s3", parent: "s1", name: "tools/call get-weather", start: 3, end: 5, status: "ERROR", message: "unknown city: Olso", attrs: map[string]any{"gen_ai.operation.name": "execute_tool",
					"gen_ai.tool.name": "get-weather", "mcp.method.name": "tools/call", "error.type": "tool_error",
					"gen_ai.tool.call.arguments": `{"location":"Olso"}`, "gen_ai.tool.call.result": "unknown city: Olso"}},
				{id: "s4", parent: "s3", name: "tools/call get-weather", start: 3.5, end: 4.5, status: "ERROR", message: "unknown city: Olso", attrs: map[string]any{"gen_ai.operation.name": "execute_tool",
					"gen_ai.tool.name": "get-weather", "mcp.method.name": "tools/call", "error.type": "tool_error",
					"gen_ai.tool.call.arguments": `{"location":"Olso"}`, "gen_ai.tool.call.result": "unknown city: Olso"}},
			},
			question: "Weather in Olso?",
			want: []string{"user user: Weather in Olso?",
				`weather-forecast-agent tool_call: get-weather({"location":"Olso"})`,
				`weather-forecast-agent tool_result: Error: tool_error: unknown city: Olso`},
		},
		{
			// The OpenAI Agents SDK gives the model a function tool's
			// exception inside a note of its own (its default
			// failure_error_function), and OpenLLMetry's instrumentation
			// of it keeps that as the result, the exception as the span's
			// status: the error the result holds within its line begins
			// a line, where an error is read.
			name: "a tool's error inside the note a tool runner wraps it in",
			spans: []span{
				{id: "a", name: "inventory.agent", start: 1, end: 9, attrs: map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "inventory"}},
				{id: "m", parent: "a", name: "openai.response", start: 2, attrs: map[string]any{"gen_ai.operation.name": "chat",
					"gen_ai.input.messages":  `[{"role":"user","parts":[{"type":"text","content":"Price of SKU B-4471?"}]}]`,
					"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"get_list_price","arguments":{"sku":"B-4471"}}]}]`}},
				{id: "t", parent: "a", name: "get_list_price.tool", start: 3, status: "ERROR", message: "PriceServiceError: price service unavailable", attrs: map[string]any{
					"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "get_list_price", "gen_ai.tool.call.arguments": `{"sku":"B-4471"}`,
					"gen_ai.tool.call.result": "An error occurred while running the tool. Please try again. Error: PriceServiceError: price service unavailable"}},
			},
			question: "Price of SKU B-4471?",
			want: []string{"user user: Price of SKU B-4471?", `inventory tool_call: get_list_price({"sku":"B-4471"})`,
				"inventory tool_result: An error occurred while running the tool. Please try again. Error:\nPriceServiceError: price service unavailable"},
		},
		{
			// mcp-go's own tracing (its server's WithTracer) around a
			// tool that answers with an error result: the server's
			// mcp.tools/call span and the handler's tool.NAME span set a
			// fixed status and raise nothing; the agent's execute_tool
			// span around the MCP call keeps the error's text.
			name: "an MCP SDK's spans inside a failed tool call, whose status says only that it failed",
			spans: []span{
				{id: "a", name: "invoke_agent researcher", start: 1, end: 9, attrs: map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "researcher"}},
				{id: "m", parent: "a", name: "chat gpt-4o-mini", start: 2, attrs: map[string]any{"gen_ai.operation.name": "chat",
					"gen_ai.input.messages":  `[{"role":"user","parts":[{"type":"text","content":"Rate of Hotel Aurora in Bergen?"}]}]`,
					"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"get_rate","arguments":{"city":"Bergne"}}]}]`}},
				{id: "t", parent: "a", name: "execute_tool get_rate", start: 3, end: 6, status: "ERROR", message: "unknown city: Bergne", attrs: map[string]any{"gen_ai.operation.name": "execute_tool",
					"gen_ai.tool.name": "get_rate", "gen_ai.tool.call.id": "c1", "gen_ai.tool.call.arguments": `{"city":"Bergne"}`, "error.type": "_OTHER"},
					events: []map[string]any{{"name": "exception", "attributes": map[string]any{"exception.type": "*errors.errorString", "exception.message": "unknown city: Bergne"}}}},
				{id: "c", parent: "t", name: "mcp.tools/call", start: 3.1, end: 5.9, attrs: map[string]any{"mcp.method": "tools/call"}},
				{id: "s", parent: "t", name: "mcp.tools/call", start: 3.2, end: 5.8, status: "ERROR", message: "tool returned error result", attrs: map[string]any{"mcp.method": "tools/call", "mcp.tool.name": "get_rate"}},
				{id: "h", parent: "s", name: "tool.get_rate", start: 3.3, end: 5.7, status: "ERROR", message: "tool returned error result", attrs: map[string]any{"mcp.tool.name": "get_rate"}},
			},
			question: "Rate of Hotel Aurora in Bergen?",
			want: []string{"user user: Rate of Hotel Aurora in Bergen?",
				`researcher tool_call: get_rate({"city":"Bergne"})`,
				`researcher tool_result: Error: unknown city: Bergne`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := run.Load(writeSpans(t, tt.spans...), run.Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.want, steps(r))
			assert.Equal(t, tt.question, r.Question)
		})
	}
}

// agentSpan is a GenAI invoke_agent span "a" of the agent name, around
// the chat spans chatIn makes.
func agentSpan(name string) span {
	return span{id: "a", name: "invoke_agent " + name, start: 1, end: 20, attrs: map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": name}}
}

// chatIn is a GenAI chat span inside agentSpan's, with its input and
// output messages.
func chatIn(id string, start float64, input, output string) span {
	return span{id: id, parent: "a", name: "chat", start: start, attrs: map[string]any{"gen_ai.operation.name": "chat",
		"gen_ai.input.messages": input, "gen_ai.output.messages": output}}
}

// TestUserAnswersWithinAnAgent: an agent's span holds a conversation
// (GenAI's invoke_agent around its chat spans), and the customer's answer
// to the agent's question reaches the agent only as a later call's input:
// it is a turn of the conversation, as is the customer's own turn right
// after the agent's reply. A user message a framework adds after the
// agent's working text, which asks no one, is not.
func TestUserAnswersWithinAnAgent(t *testing.T) {
	agent := agentSpan("support")
	text := func(role, content string) string {
		return `{"role":"` + role + `","parts":[{"type":"text","content":"` + content + `"}]}`
	}
	const (
		task = "Add roaming to line L-90177."
		call = `[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"add_roaming","arguments":{"line_id":"L-90177"}}]}]`
	)
	for _, tt := range []struct {
		name, reply, then string
		want              []string
	}{
		{"an answer to the agent's question", "Roaming on L-90177. Shall I go ahead?", "Yes, go ahead.",
			[]string{"user user: " + task, "support message: Roaming on L-90177. Shall I go ahead?", "user user: Yes, go ahead.", `support tool_call: add_roaming({"line_id":"L-90177"})`}},
		{"the customer's turn after the agent's reply", "Roaming is available on L-90177 and L-90178.", "Add it to L-90178 only.",
			[]string{"user user: " + task, "support message: Roaming is available on L-90177 and L-90178.", "user user: Add it to L-90178 only.", `support tool_call: add_roaming({"line_id":"L-90177"})`}},
		{"a framework's prompt after working text", "Thought: I will add roaming.", "Observation: none. Now go on.",
			[]string{"user user: " + task, "support message: Thought: I will add roaming.", `support tool_call: add_roaming({"line_id":"L-90177"})`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := run.Load(writeSpans(t, agent,
				chatIn("c1", 2, "["+text("user", task)+"]", "["+text("assistant", tt.reply)+"]"),
				chatIn("c2", 3, "["+text("user", task)+","+text("assistant", tt.reply)+","+text("user", tt.then)+"]", call),
			), run.Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.want, steps(r))
		})
	}
}

// TestUnnamedToolRuns: tool spans that name no tool, or record no
// result, and tool messages with no call id (as OpenLIT writes
// LangChain.js's runs) answer the calls the model made.
func TestUnnamedToolRuns(t *testing.T) {
	agent := agentSpan("researcher")
	call := func(id, city string) string {
		return `[{"role":"assistant","parts":[{"type":"tool_call","id":"` + id + `","name":"get_weather","arguments":{"city":"` + city + `"}}]}]`
	}
	const (
		question = `[{"role":"user","parts":[{"type":"text","content":"Weather in Oslo?"}]}]`
		answered = `[{"role":"user","parts":[{"type":"text","content":"Weather in Oslo?"}]},{"role":"assistant","parts":[{"type":"text","content":""}]},{"role":"tool","parts":[{"type":"text","content":"7 °C"}]}]`
		answer   = `[{"role":"assistant","parts":[{"type":"text","content":"7 °F."}]}]`
	)
	tool := func(id, name, callID, args string, start float64, attrs ...string) span {
		s := span{id: id, parent: "a", name: "execute_tool " + name, start: start, attrs: map[string]any{"gen_ai.operation.name": "execute_tool",
			"gen_ai.tool.name": name, "gen_ai.tool.call.id": callID, "gen_ai.tool.call.arguments": args}}
		for k := 0; k < len(attrs); k += 2 {
			s.attrs[attrs[k]] = attrs[k+1]
		}
		return s
	}
	tests := []struct {
		name  string
		spans []span
		want  []string
	}{
		{
			name: "a tool's class for its name: the call with the same arguments",
			spans: []span{agent, chatIn("c1", 2, question, call("call_1", "Olso")),
				tool("t1", "DynamicStructuredTool", "run-7f3a", `{"city": "Olso"}`, 3, "gen_ai.tool.call.result", "unknown city")},
			want: []string{"user user: Weather in Oslo?", `researcher tool_call: get_weather({"city":"Olso"})`, "researcher tool_result: unknown city"},
		},
		{
			name: "other arguments: not that call, but the agent's action",
			spans: []span{agent, chatIn("c1", 2, question, call("call_1", "Olso")),
				tool("t1", "DynamicStructuredTool", "run-7f3a", `{"city": "Rome"}`, 3, "gen_ai.tool.call.result", "19 °C")},
			want: []string{"user user: Weather in Oslo?", `researcher tool_call: get_weather({"city":"Olso"})`,
				`researcher tool_result: DynamicStructuredTool({"city": "Rome"}) -> 19 °C`},
		},
		{
			name: "a result JavaScript printed as [object ToolMessage]: the model's next input gives it",
			spans: []span{agent, chatIn("c1", 2, question, call("call_1", "Oslo")),
				tool("t1", "DynamicStructuredTool", "call_1", `{"city": "Oslo"}`, 3, "gen_ai.tool.call.result", "[object ToolMessage]"),
				chatIn("c2", 4, answered, answer)},
			want: []string{"user user: Weather in Oslo?", `researcher tool_call: get_weather({"city":"Oslo"})`, "researcher tool_result: 7 °C", "researcher message: 7 °F."},
		},
		{
			name:  "no tool span: a tool message with no call id answers the open call",
			spans: []span{agent, chatIn("c1", 2, question, call("call_1", "Oslo")), chatIn("c2", 4, answered, answer)},
			want:  []string{"user user: Weather in Oslo?", `researcher tool_call: get_weather({"city":"Oslo"})`, "researcher tool_result: 7 °C", "researcher message: 7 °F."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := run.Load(writeSpans(t, tt.spans...), run.Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.want, steps(r))
		})
	}
}

func TestTelemetryFiles(t *testing.T) {
	chat := func(trace, id, text string, start float64) span {
		return span{trace: trace, id: id, name: "chat", start: start, attrs: map[string]any{"gen_ai.operation.name": "chat",
			"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"` + text + `"}]}]`}}
	}
	path := writeSpans(t,
		chat("bbb", "1", "second trace", 5),
		span{trace: "ccc", id: "h", name: "GET /health", start: 1},
		chat("aaa", "2", "first trace", 1),
		chat("bbb", "3", "second trace again", 6),
	)
	cases, err := run.LoadAll(context.Background(), path, run.Options{})
	require.NoError(t, err)
	require.Len(t, cases, 2, "the HTTP trace is no run")
	assert.Equal(t, path+"#bbb", cases[0].Run.Source, "in the order the file first mentions each trace")
	assert.Equal(t, []string{"assistant message: second trace", "assistant message: second trace again"}, steps(cases[0].Run))
	assert.Equal(t, "aaa", cases[1].Run.TraceID)

	_, err = run.Load(path, run.Options{})
	require.ErrorIs(t, err, run.ErrManyRuns)
	assert.EqualError(t, err, "load "+path+": the file holds several runs: 2 traces; name one as FILE#TRACEID (bbb, aaa)")

	r, err := run.Load(path+"#AAA", run.Options{})
	require.NoError(t, err, "trace ids match in any case")
	assert.Equal(t, path+"#aaa", r.Source)

	_, err = run.Load(path+"#ccc", run.Options{})
	require.ErrorIs(t, err, run.ErrNoTrace)
	assert.EqualError(t, err, "load "+path+"#ccc: no such trace ccc in this file (it holds bbb, aaa)")
}

func TestTelemetryErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
		return p
	}
	otlp := `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"GET /"}]}]}]}`
	tests := []struct {
		name, data string
		format     run.Format
		want       string
	}{
		{"no_genai.json", otlp, "", "no GenAI or OpenInference spans in 1 spans of 1 traces: looked for Mastra (mastra.span.type, or spanType in its span records), OpenTelemetry GenAI (gen_ai.operation.name), OpenInference (openinference.span.kind), Langfuse (observation types), " +
			"GenAI model calls from before gen_ai.operation.name (gen_ai.system with messages), OpenLLMetry (traceloop.span.kind), OpenLLMetry's model calls (llm.request.type), Google ADK (gcp.vertex.agent.llm_response), " +
			"the OpenAI Agents SDK's export (span_data.type), the Vercel AI SDK (ai.operationId), Genkit (genkit:metadata:subtype), VoltAgent (entity.type, span.type), Haystack (haystack.component.type), GenAI tool spans from before gen_ai.operation.name (gen_ai.tool.name), Pydantic AI under Logfire (agent_name), LangSmith (run_type), Laminar (lmnr.span.type), PostHog LLM analytics (posthog.event), LangWatch (langwatch.span.type), Datadog LLM Observability (_ml_obs.meta.span.kind), MLflow (mlflow.spanType), HoneyHive (honeyhive_event_type) " +
			`or messages by their shape under an input or output key; the first span, "GET /", has no attributes`},
		{"truncated.json", otlp[:100], "", "invalid JSON at line 1, column 101: unexpected end of file (is the file truncated?)"},
		{"mixed.jsonl", otlp + "\n" + `{"role":"user","content":"hi"}` + "\n", "", `line 2, column 1: a JSON object without "resourceSpans" or "resourceLogs" (OTLP) or "batches" (Tempo): is the file mixed?`},
		{"forced.json", `{"question":"q","history":[]}`, run.FormatJaeger, `line 1, column 1: a Jaeger trace without "spans"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := write(tt.name, tt.data)
			_, err := run.LoadAll(context.Background(), p, run.Options{Format: tt.format})
			require.Error(t, err)
			assert.Equal(t, "load "+p+": "+tt.want, err.Error())
		})
	}
}

func TestLabelsFile(t *testing.T) {
	path := filepath.Join("..", "testdata", "telemetry", "otel-sdk.jsonl")
	labels := filepath.Join(t.TempDir(), "labels.jsonl")
	require.NoError(t, os.WriteFile(labels, []byte(
		`{"trace_id":"4BF92F3577B34DA65EED0000CAFE0001","span_id":"00f067aa0ba90004","reason":"the first forecast call misspelt the city"}`+"\n"), 0o644))
	ls, err := run.ReadLabels(labels, 0)
	require.NoError(t, err)
	c, err := run.LoadCase(path, run.Options{Labels: ls})
	require.NoError(t, err)
	assert.Equal(t, &run.Label{Agent: "Researcher", Step: 2, Reason: "the first forecast call misspelt the city"}, c.Label,
		"the file's labels win over offattr.mistake; an agent's turn is labelled at its first step")

	require.NoError(t, os.WriteFile(labels, []byte(`{"trace_id":"4bf92f3577b34da65eed0000cafe0001","span_id":"ffffffffffffffff"}`), 0o644))
	ls, err = run.ReadLabels(labels, 0)
	require.NoError(t, err)
	_, err = run.LoadCase(path, run.Options{Labels: ls})
	assert.ErrorContains(t, err, "trace 4bf92f3577b34da65eed0000cafe0001: labelled span ffffffffffffffff (from the labels file) is not in this trace")

	for _, bad := range []string{`{"trace_id":"t"}`, `{"trace_id":"t","span_id":"s","extra":1}`, "{", ""} {
		require.NoError(t, os.WriteFile(labels, []byte(bad), 0o644))
		_, err = run.ReadLabels(labels, 0)
		assert.ErrorContains(t, err, "labels "+labels+": ", bad)
	}
}

// TestMarkedAgentSpanLabelsItsWork: an agent's span marked as the
// decisive fault whose input is the team's request (read as the user's
// step) and whose model call inside it gives the agent's message is
// labelled at that message, not at the request it was given. The shape
// is an OpenInference trace of a MetaGPT-like team: an AGENT span per
// role with an LLM span inside.
func TestMarkedAgentSpanLabelsItsWork(t *testing.T) {
	const task = "Write can_register(age): people aged 18 or older may register."
	at := func(s int) string { return fmt.Sprintf("2026-03-01T10:00:%02d.000+00:00", s) }
	sp := func(id, parent, name string, start int, attrs map[string]any) map[string]any {
		return map[string]any{"name": name, "context": map[string]any{"trace_id": "0000000000000000000000000000abcd", "span_id": id},
			"parent_id": parent, "start_time": at(start), "end_time": at(start + 4), "status_code": "OK", "attributes": attrs}
	}
	spans := []any{sp("00000000000000a0", "", "Team.run", 0, map[string]any{"openinference.span.kind": "CHAIN", "input.value": task})}
	in := task
	for k, a := range []struct {
		name, out string
		marked    bool
	}{{"ProductManager", "## Requirement Pool\n- P0: ages over 18 may register", true}, {"Architect", "## Implementation approach\nreturn age > 18", false}} {
		id, llm := fmt.Sprintf("00000000000000b%d", k), fmt.Sprintf("00000000000000c%d", k)
		attrs := map[string]any{"openinference.span.kind": "AGENT", "agent.name": a.name, "input.value": in, "output.value": a.out}
		if a.marked {
			attrs["offattr.mistake"] = true
		}
		spans = append(spans, sp(id, "00000000000000a0", a.name+".run", 10*k+1, attrs), sp(llm, id, "ChatCompletion", 10*k+2, map[string]any{
			"openinference.span.kind": "LLM", "llm": map[string]any{
				"input_messages":  []any{map[string]any{"message.role": "system", "message.content": "You are the " + a.name + "."}, map[string]any{"message.role": "user", "message.content": in}},
				"output_messages": []any{map[string]any{"message.role": "assistant", "message.content": a.out}},
			}}))
		in = a.out
	}
	data, err := json.Marshal(spans)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "team.json")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	c, err := run.LoadCase(path, run.Options{})
	require.NoError(t, err)
	require.NotNil(t, c.Label)
	require.Equal(t, run.KindUser, c.Run.Steps[0].Kind)
	assert.Equal(t, &run.Label{Agent: "ProductManager", Step: 1}, c.Label)
}

// TestGoogleADK reads Google ADK's spans, whose model calls carry Gemini
// requests and responses in its own attributes: the framework fallback.
func TestGoogleADK(t *testing.T) {
	path := writeSpans(t,
		span{id: "a", name: "invoke_agent weather_agent", start: 1, end: 9, attrs: map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "weather_agent"}},
		span{id: "b", parent: "a", name: "call_llm", start: 2, attrs: map[string]any{
			"gen_ai.system": "gcp.vertex.agent", "gen_ai.request.model": "gemini-2.0-flash",
			"gcp.vertex.agent.llm_request":  `{"model":"gemini-2.0-flash","contents":[{"role":"user","parts":[{"text":"Weather in Oslo?"}]}]}`,
			"gcp.vertex.agent.llm_response": `{"content":{"role":"model","parts":[{"function_call":{"id":"adk-1","name":"get_weather","args":{"city":"Oslo"}}}]}}`,
		}},
		span{id: "c", parent: "a", name: "execute_tool get_weather", start: 3, attrs: map[string]any{
			"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "get_weather", "gen_ai.tool.call.id": "adk-1",
			"gcp.vertex.agent.tool_call_args": `{"city":"Oslo"}`, "gcp.vertex.agent.tool_response": `{"result":"rain, 7 C"}`,
		}},
		span{id: "d", parent: "a", name: "call_llm", start: 4, attrs: map[string]any{
			"gen_ai.system":                 "gcp.vertex.agent",
			"gcp.vertex.agent.llm_response": `{"content":{"role":"model","parts":[{"text":"Rain and 7 °C in Oslo."}]}}`,
		}},
	)
	r, err := run.Load(path, run.Options{})
	require.NoError(t, err)
	assert.Equal(t, "Weather in Oslo?", r.Question)
	assert.Equal(t, []string{
		"user user: Weather in Oslo?",
		`weather_agent tool_call: get_weather({"city":"Oslo"})`,
		"weather_agent tool_result: rain, 7 C",
		"weather_agent message: Rain and 7 °C in Oslo.",
	}, steps(r))
	assert.Equal(t, "adk-1", r.Steps[2].ToolCallID())
}

// TestVercelAISDK reads the Vercel AI SDK's spans: ai.operationId says
// what a span is, the doGenerate calls hold the messages, and the
// generateText call around them, named by its functionId, is the agent.
func TestVercelAISDK(t *testing.T) {
	path := writeSpans(t,
		span{id: "a", name: "ai.generateText", start: 1, end: 9, attrs: map[string]any{
			"ai.operationId": "ai.generateText", "operation.name": "ai.generateText researcher", "ai.telemetry.functionId": "researcher",
			"ai.prompt":        `{"system":"You research the weather.","prompt":"Weather in Oslo tomorrow?"}`,
			"ai.response.text": "Rain and 7 °C in Oslo tomorrow.",
		}},
		span{id: "b", parent: "a", name: "ai.generateText.doGenerate", start: 2, attrs: map[string]any{
			"ai.operationId": "ai.generateText.doGenerate", "gen_ai.system": "openai.chat", "gen_ai.request.model": "gpt-4o",
			"ai.prompt.messages":    `[{"role":"system","content":"You research the weather."},{"role":"user","content":[{"type":"text","text":"Weather in Oslo tomorrow?"}]}]`,
			"ai.response.toolCalls": `[{"toolCallType":"function","toolCallId":"call-1","toolName":"getWeather","args":"{\"city\":\"Oslo\"}"}]`,
		}},
		span{id: "c", parent: "a", name: "ai.toolCall", start: 3, attrs: map[string]any{
			"ai.operationId": "ai.toolCall", "ai.toolCall.name": "getWeather", "ai.toolCall.id": "call-1",
			"ai.toolCall.args": `{"city":"Oslo"}`, "ai.toolCall.result": `{"forecast":"rain","tempC":7}`,
		}},
		span{id: "d", parent: "a", name: "ai.generateText.doGenerate", start: 4, attrs: map[string]any{
			"ai.operationId": "ai.generateText.doGenerate", "gen_ai.system": "openai.chat",
			"ai.prompt.messages": `[{"role":"user","content":[{"type":"text","text":"Weather in Oslo tomorrow?"}]},` +
				`{"role":"assistant","content":[{"type":"tool-call","toolCallId":"call-1","toolName":"getWeather","input":{"city":"Oslo"}}]},` +
				`{"role":"tool","content":[{"type":"tool-result","toolCallId":"call-1","toolName":"getWeather","output":{"forecast":"rain","tempC":7}}]}]`,
			"ai.response.text": "Rain and 7 °C in Oslo tomorrow.",
		}},
	)
	checkWeather(t, path, "researcher", `getWeather({"city":"Oslo"})`, `{"forecast":"rain","tempC":7}`, "call-1")
}

// TestAnthropicMessages reads Anthropic's message shapes: tool_use parts
// are the calls a model made, and a user message's tool_result parts in
// the next call's input are their results when no tool span gave them.
func TestAnthropicMessages(t *testing.T) {
	path := writeSpans(t,
		span{id: "a", name: "invoke_agent weather", start: 1, end: 9, attrs: map[string]any{
			"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "weather",
		}},
		span{id: "b", parent: "a", name: "chat", start: 2, attrs: map[string]any{
			"gen_ai.operation.name": "chat", "gen_ai.system": "anthropic",
			"gen_ai.prompt":     `[{"role":"user","content":"Weather in Oslo tomorrow?"}]`,
			"gen_ai.completion": `[{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"getWeather","input":{"city":"Oslo"}}]}]`,
		}},
		span{id: "c", parent: "a", name: "chat", start: 4, attrs: map[string]any{
			"gen_ai.operation.name": "chat", "gen_ai.system": "anthropic",
			"gen_ai.prompt": `[{"role":"user","content":"Weather in Oslo tomorrow?"},` +
				`{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"getWeather","input":{"city":"Oslo"}}]},` +
				`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"rain, 7 °C"}]}]}]`,
			"gen_ai.completion": `[{"role":"assistant","content":[{"type":"text","text":"Rain and 7 °C in Oslo tomorrow."}]}]`,
		}},
	)
	checkWeather(t, path, "weather", `getWeather({"city":"Oslo"})`, "rain, 7 °C", "toolu_1")
}

// TestConversationInOneSpan: an agent span that holds a whole
// conversation (the Claude Agent SDK's) has its messages placed among the
// tool runs they answer: parallel calls before their tools start, a reply
// after the results of the calls made before it.
func TestConversationInOneSpan(t *testing.T) {
	out := func(i int, kv ...string) map[string]any {
		m := map[string]any{}
		for k := 0; k < len(kv); k += 2 {
			m[fmt.Sprintf("llm.output_messages.%d.message.%s", i, kv[k])] = kv[k+1]
		}
		return m
	}
	call := func(i int, id, city string) map[string]any {
		return out(i, "role", "assistant", "tool_calls.0.tool_call.id", id,
			"tool_calls.0.tool_call.function.name", "weather", "tool_calls.0.tool_call.function.arguments", `{"city":"`+city+`"}`)
	}
	attrs := map[string]any{"openinference.span.kind": "AGENT", "input.value": "Compare Oslo and Rome."}
	for _, m := range []map[string]any{
		out(0, "role", "assistant", "content", "Looking both up."),
		call(1, "c1", "Oslo"), call(2, "c2", "Rome"),
		out(3, "role", "assistant", "content", "Rome is warmer by 12 °C."),
	} {
		maps.Copy(attrs, m)
	}
	tool := func(id, callID, city, result string, start, end float64) span {
		return span{id: id, parent: "q", name: "weather", start: start, end: end, attrs: map[string]any{
			"openinference.span.kind": "TOOL", "tool.name": "weather", "tool.id": callID,
			"input.value": `{"city":"` + city + `"}`, "output.value": result,
		}}
	}
	path := writeSpans(t,
		span{id: "q", name: "query", start: 1, end: 20, attrs: attrs},
		tool("t1", "c1", "Oslo", "7 °C", 5, 9),
		tool("t2", "c2", "Rome", "19 °C", 6, 8),
	)
	r, err := run.Load(path, run.Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"user user: Compare Oslo and Rome.",
		"query message: Looking both up.",
		`query tool_call: weather({"city":"Oslo"})`,
		`query tool_call: weather({"city":"Rome"})`,
		"query tool_result: 19 °C",
		"query tool_result: 7 °C",
		"query message: Rome is warmer by 12 °C.",
	}, steps(r))
}

// TestTaskInWords: an agent's input that is the JSON of the arguments its
// framework was called with is the task only when no model call was given
// one in words.
func TestTaskInWords(t *testing.T) {
	kickoff := `{"agent":"role='writer' goal='clear code'","tools":[]}`
	agent := span{id: "a", name: "crew", start: 1, end: 9, attrs: map[string]any{"openinference.span.kind": "AGENT", "input.value": kickoff}}
	model := func(input string) span {
		return span{id: "m", parent: "a", name: "llm", start: 2, attrs: map[string]any{
			"openinference.span.kind":               "LLM",
			"llm.input_messages.0.message.role":     "user",
			"llm.input_messages.0.message.content":  input,
			"llm.output_messages.0.message.role":    "assistant",
			"llm.output_messages.0.message.content": "<h1>Hello World!</h1>",
		}}
	}
	for _, tt := range []struct{ name, input, task string }{
		{"words", "Current Task: write a page that says Hello World!", "Current Task: write a page that says Hello World!"},
		{"no words", `{"task_id":7}`, kickoff},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := run.Load(writeSpans(t, agent, model(tt.input)), run.Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.task, r.Question)
			assert.Equal(t, tt.task, r.Steps[0].Content)
		})
	}
}

// TestStreamedReply: a model call whose output messages are the pieces a
// reply was streamed in is one step, the pieces joined as they were;
// whole messages stay apart.
func TestStreamedReply(t *testing.T) {
	callFrom := func(first int, pieces ...string) span {
		attrs := map[string]any{"openinference.span.kind": "LLM",
			"llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": "Where to go in Barcelona?"}
		for i, p := range pieces {
			attrs[fmt.Sprintf("llm.output_messages.%d.message.role", first+i)] = "assistant"
			attrs[fmt.Sprintf("llm.output_messages.%d.message.content", first+i)] = p
		}
		return span{id: "m", name: "chat", start: 1, attrs: attrs}
	}
	call := func(pieces ...string) span { return callFrom(0, pieces...) }
	stream := []string{"Visit", " **Mont", "ju", "ïc**", ",", " a", " hill", " with", " views", "."}
	r, err := run.Load(writeSpans(t, call(stream...)), run.Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"user user: Where to go in Barcelona?", "assistant message: Visit **Montjuïc**, a hill with views."}, steps(r))

	whole := make([]string, 8)
	for i := range whole {
		whole[i] = fmt.Sprintf("Choice %d: visit the Sagrada Família first.", i)
	}
	r, err = run.Load(writeSpans(t, call(whole...)), run.Options{})
	require.NoError(t, err)
	assert.Len(t, r.Steps, 9, "whole messages are steps of their own")

	// A record of a stream's later pieces only (BeeAI's, from piece 233
	// on) is no reply: its start is not in it. The reply is whole in the
	// agent's record of it after.
	agent := span{id: "a", name: "agent", start: 0, end: 3, attrs: map[string]any{"openinference.span.kind": "AGENT",
		"input.value": "Where to go in Barcelona?", "output.value": "Visit **Montjuïc**, a hill with views."}}
	tail := callFrom(233, stream[1:]...)
	tail.parent = "a"
	r, err = run.Load(writeSpans(t, agent, tail), run.Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"user user: Where to go in Barcelona?", "agent message: Visit **Montjuïc**, a hill with views."}, steps(r))
}

// TestMLflow reads MLflow's spans: mlflow.spanType (JSON-quoted) says what
// a span is, mlflow.spanInputs and mlflow.spanOutputs what it was given
// and returned, in OpenAI's shapes for chat models.
func TestMLflow(t *testing.T) {
	path := writeSpans(t,
		span{id: "a", name: "weather_agent", start: 1, end: 9, attrs: map[string]any{
			"mlflow.spanType": `"AGENT"`, "mlflow.traceRequestId": `"tr-1"`,
			"mlflow.spanInputs": `{"messages":[{"role":"user","content":"Weather in Oslo tomorrow?"}]}`, "mlflow.spanOutputs": `"Rain and 7 °C."`,
		}},
		span{id: "b", parent: "a", name: "ChatOpenAI", start: 2, attrs: map[string]any{
			"mlflow.spanType":   `"CHAT_MODEL"`,
			"mlflow.spanInputs": `{"messages":[{"role":"user","content":"Weather in Oslo tomorrow?"}]}`,
			"mlflow.spanOutputs": `{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",` +
				`"function":{"name":"get_weather","arguments":"{\"city\": \"Oslo\"}"}}]}}]}`,
		}},
		span{id: "c", parent: "a", name: "get_weather", start: 3, attrs: map[string]any{
			"mlflow.spanType": `"TOOL"`, "mlflow.spanInputs": `{"city": "Oslo"}`, "mlflow.spanOutputs": `"rain, 7 C"`,
		}},
		span{id: "d", parent: "a", name: "ChatOpenAI", start: 4, attrs: map[string]any{
			"mlflow.spanType":    `"CHAT_MODEL"`,
			"mlflow.spanOutputs": `{"choices":[{"message":{"role":"assistant","content":"Rain and 7 °C in Oslo tomorrow."}}]}`,
		}},
	)
	checkWeather(t, path, "weather_agent", `get_weather({"city": "Oslo"})`, `rain, 7 C`, "call_1")
}

// TestPydanticAILogfire reads Pydantic AI as Logfire records it: the
// model call's messages are GenAI events kept in its "events" attribute,
// the agent run names its agent in agent_name, and the tool span has a
// gen_ai.tool.name but no operation name.
func TestPydanticAILogfire(t *testing.T) {
	path := writeSpans(t,
		span{id: "a", name: "agent run", start: 1, end: 9, attrs: map[string]any{
			"agent_name": "weather_agent", "model_name": "gpt-4o", "logfire.msg": "weather_agent run",
			"all_messages_events": `[{"event.name":"gen_ai.user.message","role":"user","content":"Weather in Oslo tomorrow?"}]`,
			"final_result":        "Rain and 7 °C in Oslo tomorrow.",
		}},
		span{id: "b", parent: "a", name: "chat gpt-4o", start: 2, attrs: map[string]any{
			"gen_ai.operation.name": "chat", "gen_ai.system": "openai", "gen_ai.request.model": "gpt-4o",
			"events": `[{"event.name":"gen_ai.system.message","role":"system","content":"You answer weather questions."},` +
				`{"event.name":"gen_ai.user.message","role":"user","content":"Weather in Oslo tomorrow?"},` +
				`{"event.name":"gen_ai.choice","index":0,"message":{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]}}]`,
		}},
		span{id: "c", parent: "a", name: "running tool", start: 3, attrs: map[string]any{
			"gen_ai.tool.name": "get_weather", "gen_ai.tool.call.id": "call_1", "logfire.msg": "running tool: get_weather",
			"tool_arguments": `{"city":"Oslo"}`, "tool_response": "rain, 7 C",
		}},
		span{id: "d", parent: "a", name: "chat gpt-4o", start: 4, attrs: map[string]any{
			"gen_ai.operation.name": "chat", "gen_ai.system": "openai",
			"events": `[{"event.name":"gen_ai.tool.message","role":"tool","id":"call_1","name":"get_weather","content":"rain, 7 C"},` +
				`{"event.name":"gen_ai.choice","index":0,"message":{"role":"assistant","content":"Rain and 7 °C in Oslo tomorrow."}}]`,
		}},
	)
	checkWeather(t, path, "weather_agent", `get_weather({"city":"Oslo"})`, `rain, 7 C`, "call_1")
}

// TestHaystack reads Haystack's component spans: generators are model
// calls, with ChatMessages (parts of text, tool_call and tool_call_result)
// in haystack.component.input and .output; a tool's result comes back in
// the next model call's input.
func TestHaystack(t *testing.T) {
	path := writeSpans(t,
		span{id: "p", name: "haystack.pipeline.run", start: 0.5, end: 9.5, attrs: map[string]any{
			"haystack.pipeline.input_data": `{"agent":{"messages":[{"role":"user","content":[{"text":"Weather in Oslo tomorrow?"}]}]}}`,
		}},
		span{id: "a", parent: "p", name: "haystack.component.run", start: 1, end: 9, attrs: map[string]any{
			"haystack.component.name": "weather_agent", "haystack.component.type": "Agent",
			"haystack.component.input": `{"messages":[{"role":"user","meta":{},"name":null,"content":[{"text":"Weather in Oslo tomorrow?"}]}]}`,
		}},
		span{id: "b", parent: "a", name: "haystack.component.run", start: 2, attrs: map[string]any{
			"haystack.component.name": "chat_generator", "haystack.component.type": "OpenAIChatGenerator",
			"haystack.component.input": `{"messages":[{"role":"system","content":[{"text":"You answer weather questions."}]},{"role":"user","content":[{"text":"Weather in Oslo tomorrow?"}]}]}`,
			"haystack.component.output": `{"replies":[{"role":"assistant","meta":{"model":"gpt-4o"},"name":null,` +
				`"content":[{"tool_call":{"tool_name":"get_weather","arguments":{"city":"Oslo"},"id":"call_1"}}]}]}`,
		}},
		span{id: "c", parent: "a", name: "haystack.component.run", start: 3, attrs: map[string]any{
			"haystack.component.name": "tool_invoker", "haystack.component.type": "ToolInvoker",
			"haystack.component.output": `{"tool_messages":[{"role":"tool","content":[{"tool_call_result":{"result":"rain, 7 C","origin":{"tool_name":"get_weather","arguments":{"city":"Oslo"},"id":"call_1"},"error":false}}]}]}`,
		}},
		span{id: "d", parent: "a", name: "haystack.component.run", start: 4, attrs: map[string]any{
			"haystack.component.name": "chat_generator", "haystack.component.type": "OpenAIChatGenerator",
			"haystack.component.input": `{"messages":[{"role":"user","content":[{"text":"Weather in Oslo tomorrow?"}]},` +
				`{"role":"assistant","content":[{"tool_call":{"tool_name":"get_weather","arguments":{"city":"Oslo"},"id":"call_1"}}]},` +
				`{"role":"tool","content":[{"tool_call_result":{"result":"rain, 7 C","origin":{"tool_name":"get_weather","arguments":{"city":"Oslo"},"id":"call_1"},"error":false}}]}]}`,
			"haystack.component.output": `{"replies":[{"_role":"assistant","_content":[{"text":"Rain and 7 °C in Oslo tomorrow."}],"_name":null,"_meta":{}}]}`,
		}},
	)
	checkWeather(t, path, "weather_agent", `get_weather({"city":"Oslo"})`, `rain, 7 C`, "call_1")
}

// checkWeather checks the one-agent weather run the framework tests trace:
// the task, the call, its result and the answer, and the call id the
// result answers ("" when the trace gives none).
func checkWeather(t *testing.T, path, agent, call, result, callID string) {
	t.Helper()
	r, err := run.Load(path, run.Options{})
	require.NoError(t, err)
	assert.Equal(t, "Weather in Oslo tomorrow?", r.Question)
	assert.Equal(t, []string{
		"user user: Weather in Oslo tomorrow?",
		agent + " tool_call: " + call,
		agent + " tool_result: " + result,
		agent + " message: Rain and 7 °C in Oslo tomorrow.",
	}, steps(r))
	if callID != "" {
		assert.Equal(t, callID, r.Steps[2].ToolCallID())
	}
}

// TestTraceWithoutContent: a trace whose GenAI spans hold nothing (content
// capture off) is no run; alone in its file it says why.
func TestTraceWithoutContent(t *testing.T) {
	bare := span{trace: "bare", id: "1", name: "chat", start: 1, attrs: map[string]any{"gen_ai.operation.name": "chat"}}
	_, err := run.LoadAll(context.Background(), writeSpans(t, bare), run.Options{})
	require.ErrorIs(t, err, run.ErrEmpty)
	assert.ErrorContains(t, err, "trace bare: run has no steps: 1 spans follow a GenAI convention but none holds a message, a tool call or an error (is content capture off?")

	full := span{trace: "full", id: "2", name: "chat", start: 1, attrs: map[string]any{"gen_ai.operation.name": "chat",
		"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"hello"}]}]`}}
	cases, err := run.LoadAll(context.Background(), writeSpans(t, bare, full), run.Options{})
	require.NoError(t, err)
	require.Len(t, cases, 1)
	assert.Equal(t, "full", cases[0].Run.TraceID)
}

// TestModelCallInsideModelCall: a model call recorded inside another's
// span (a framework's instrumentation around its provider SDK's) is read
// once when the inner record only repeats the outer one, or writes a reply
// of calls as Python's None; an inner call that says more is its own step.
func TestModelCallInsideModelCall(t *testing.T) {
	reply := func(id, parent, content, calls string) span {
		msg := `{"role":"assistant","content":` + content
		if calls != "" {
			msg += `,"tool_calls":[` + calls + `]`
		}
		return span{id: id, parent: parent, name: "chat", start: 1, end: 2, attrs: map[string]any{"openinference.span.kind": "LLM", "output.value": msg + "}"}}
	}
	const call = `{"id":"c1","type":"function","function":{"name":"search","arguments":"{\"q\":\"x\"}"}}`
	tests := []struct {
		name         string
		outer, inner span
		want         []string
	}{
		{"the same reply", reply("o", "", `"Hello."`, ""), reply("i", "o", `"Hello."`, ""), []string{"assistant message: Hello."}},
		{"calls, and None inside", reply("o", "", "null", call), reply("i", "o", `"None"`, ""), []string{`assistant tool_call: search({"q":"x"})`}},
		{"the same calls", reply("o", "", "null", call), reply("i", "o", "null", call), []string{`assistant tool_call: search({"q":"x"})`}},
		{"another reply", reply("o", "", `"Hello."`, ""), reply("i", "o", `"Goodbye."`, ""), []string{"assistant message: Hello.", "assistant message: Goodbye."}},
		{"another call", reply("o", "", "null", call), reply("i", "o", "null", strings.Replace(call, "search", "fetch", 1)), []string{`assistant tool_call: search({"q":"x"})`, `assistant tool_call: fetch({"q":"x"})`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := run.Load(writeSpans(t, tt.outer, tt.inner), run.Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.want, steps(r))
		})
	}
}

// TestModelCallsInsideModelCall: a model call's span that holds several
// (a framework's call around its retries, or around a loop of calls and
// tools) is no second record of one call. Each inner call is read at its
// own time; the outer one's reply, which the last of them made, is not
// read again at the outer span's start, before the calls and errors that
// led to it.
func TestModelCallsInsideModelCall(t *testing.T) {
	model := func(id, parent, out string, start float64) span {
		return span{id: id, parent: parent, name: "chat", start: start, end: start + 1, attrs: map[string]any{"openinference.span.kind": "LLM", "output.value": out}}
	}
	agent := span{id: "a", name: "agent", start: 0, end: 8.5, attrs: map[string]any{"openinference.span.kind": "AGENT", "input.value": "Find x."}}
	const answer = `{"role":"assistant","content":"x is 3."}`
	outer := model("o", "a", answer, 1)
	outer.end = 8
	failed := span{id: "i1", parent: "o", name: "chat", start: 2, end: 3, status: "ERROR", message: "rate limited", attrs: map[string]any{"openinference.span.kind": "LLM"}}
	tests := []struct {
		name  string
		inner []span
		want  []string
	}{
		{"a loop of calls and a tool", []span{
			model("i1", "o", `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"search","arguments":"{}"}}]}`, 2),
			{id: "t", parent: "o", name: "search", start: 4, end: 5, attrs: map[string]any{"openinference.span.kind": "TOOL", "tool.name": "search", "output.value": "3"}},
			model("i2", "o", answer, 6),
		}, []string{"user user: Find x.", "agent tool_call: search({})", "agent tool_result: 3", "agent message: x is 3."}},
		{"a retry", []span{failed, model("i2", "o", answer, 6)}, []string{"user user: Find x.", "agent message: Error: rate limited", "agent message: x is 3."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := run.Load(writeSpans(t, append([]span{agent, outer}, tt.inner...)...), run.Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.want, steps(r))
		})
	}
}

// TestFanOutOnOneTick: an agent runs sub-agents side by side (the Claude
// Agent SDK's parallel Task calls), each one's tool ending on the
// millisecond its model call, given the result, starts. However the file
// orders the spans (OTLP groups them by the instrumentation that made
// them), each result comes before the reply made from it, and so for
// many sub-agents, whose steps at that tick sort as one order.
func TestFanOutOnOneTick(t *testing.T) {
	const n = 8
	agents := []span{{id: "r", name: "lead", start: 0, end: 8, attrs: map[string]any{"openinference.span.kind": "AGENT", "input.value": "Split the work."}}}
	var tools, models []span
	for k := range n {
		id := fmt.Sprint(k)
		agents = append(agents, span{id: "a" + id, parent: "r", name: "worker" + id, start: 1, end: 7, attrs: map[string]any{"openinference.span.kind": "AGENT", "input.value": "Part " + id}})
		tools = append(tools, span{id: "t" + id, parent: "a" + id, name: "fetch", start: 2, end: 5, attrs: map[string]any{"openinference.span.kind": "TOOL", "tool.name": "fetch", "input.value": "{}", "output.value": "result " + id}})
		models = append(models, span{id: "m" + id, parent: "a" + id, name: "chat", start: 5, end: 6, attrs: map[string]any{"openinference.span.kind": "LLM", "output.value": "answer " + id}})
	}
	tests := []struct {
		name  string
		spans []span
	}{
		{"model calls first", slices.Concat(agents, models, tools)},
		{"tools first", slices.Concat(agents, tools, models)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := run.Load(writeSpans(t, tt.spans...), run.Options{})
			require.NoError(t, err)
			at := map[string]int{}
			for _, s := range r.Steps {
				at[s.Content] = s.Index
			}
			for k := range n {
				assert.Less(t, at[fmt.Sprint("result ", k)], at[fmt.Sprint("answer ", k)], "worker%d", k)
			}
		})
	}
}

// TestTaskQuotingLines: what a user gives an agent may quote a
// conversation or lines that start with a role's name; it is the task as
// written, not messages flattened to text, which only a model's input is
// read as.
func TestTaskQuotingLines(t *testing.T) {
	tests := []struct{ name, task string }{
		{"a conversation to answer", "User: My order #123 never came.\nAssistant: Sorry! When did you order it?\nUser: In May."},
		{"a system log", "System: disk /dev/sda1 at 95%\nSystem: nginx restarted\nUser: admin logged in\nWhy did nginx restart?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := run.Load(writeSpans(t,
				span{id: "a", name: "support", start: 0, end: 8, attrs: map[string]any{"openinference.span.kind": "AGENT", "input.value": tt.task}},
				span{id: "m", parent: "a", name: "chat", start: 1, end: 2, attrs: map[string]any{"openinference.span.kind": "LLM", "output.value": "Looking into it."}},
			), run.Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.task, r.Question)
		})
	}
}

// TestParentLoop: spans that are each other's parents still make steps.
func TestParentLoop(t *testing.T) {
	out := func(id, parent, text string, start float64) span {
		return span{id: id, parent: parent, name: "chat", start: start, attrs: map[string]any{"gen_ai.operation.name": "chat",
			"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"` + text + `"}]}]`}}
	}
	r, err := run.Load(writeSpans(t, out("a", "c", "one", 1), out("b", "a", "two", 2), out("c", "b", "three", 3)), run.Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"assistant message: one", "assistant message: two", "assistant message: three"}, steps(r))
}

// TestAdoptedRoots: spans of a trace that name no parent, while the model
// calls inside them name theirs (a processor that sends decorated spans as
// roots), belong to the span around them in time, the shortest; a trace
// of roots alone is left as it is.
func TestAdoptedRoots(t *testing.T) {
	agent := func(id, name string, start, end float64) span {
		return span{id: id, name: name + ".agent", start: start, end: end, attrs: map[string]any{"traceloop.span.kind": "agent", "traceloop.entity.name": name}}
	}
	chat := func(id, parent, text string, start float64) span {
		return span{id: id, parent: parent, name: "chat", start: start, end: start + 0.1, attrs: map[string]any{"gen_ai.operation.name": "chat",
			"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"` + text + `"}]}]`}}
	}
	tool := span{id: "t", name: "ask.tool", start: 2, end: 5, attrs: map[string]any{"traceloop.span.kind": "tool", "traceloop.entity.name": "ask",
		"traceloop.entity.input": `{"q":"x"}`, "traceloop.entity.output": "inner answer"}}
	r, err := run.Load(writeSpans(t,
		agent("p", "outer", 1, 9), span{id: "c1", parent: "p", name: "chat", start: 1.5, end: 1.6, attrs: map[string]any{"gen_ai.operation.name": "chat",
			"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"tool_call","id":"k1","name":"ask","arguments":{"q":"x"}}]}]`}}, tool,
		agent("i", "inner", 2, 4.9), chat("c2", "i", "inner answer", 3),
		chat("c3", "p", "outer last", 6)), run.Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"outer tool_call: ask({\"q\":\"x\"})", "inner message: inner answer", "outer message: outer last"}, steps(r))

	r, err = run.Load(writeSpans(t, chat("a", "", "one", 1), span{id: "b", name: "chat", start: 0, end: 9, attrs: map[string]any{"gen_ai.operation.name": "chat",
		"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"two"}]}]`}}), run.Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"assistant message: two", "assistant message: one"}, steps(r), "no span names a parent: none is given one")
}

func TestErrorLines(t *testing.T) {
	tests := []struct {
		name   string
		status string
		msg    string
		events []map[string]any
		attrs  map[string]any
		want   string
	}{
		{"exception event", "ERROR", "boom", []map[string]any{{"name": "exception", "attributes": map[string]any{"exception.type": "ValueError", "exception.message": "boom"}}}, nil, "ValueError: boom"},
		{"Go type with its import path", "", "", []map[string]any{{"name": "exception", "attributes": map[string]any{"exception.type": "github.com/acme/tools.NotFoundError", "exception.message": "no such city"}}}, nil, "tools.NotFoundError: no such city"},
		{"Go's errors.New, as RecordError names its type", "ERROR", "unknown city: Bergne", []map[string]any{{"name": "exception", "attributes": map[string]any{"exception.type": "*errors.errorString", "exception.message": "unknown city: Bergne"}}}, nil, "Error: unknown city: Bergne"},
		{"Go's fmt.Errorf wrapping", "", "", []map[string]any{{"name": "exception", "attributes": map[string]any{"exception.type": "*fmt.wrapError", "exception.message": "lookup: KeyError: 'city'"}}}, nil, "Error: lookup: KeyError: 'city'"},
		{"a type that does not read as an error", "", "", []map[string]any{{"name": "exception", "attributes": map[string]any{"exception.type": "httpx.ConnectTimeout", "exception.message": "timed out"}}}, nil, "Error: httpx.ConnectTimeout: timed out"},
		{"status message", "ERROR", "rate limited", nil, nil, "Error: rate limited"},
		{"status message that is an exception's line", "ERROR", "KeyError: 'city'", nil, nil, "KeyError: 'city'"},
		{"status with error.type only", "ERROR", "", nil, map[string]any{"error.type": "TimeoutError"}, "TimeoutError"},
		{"status message that names error.type already", "ERROR", "Error: unknown city", nil, map[string]any{"error.type": "Error"}, "Error: unknown city"},
		{"bare status", "ERROR", "", nil, nil, "Error: execute_tool lookup failed (span status ERROR)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			attrs := map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup"}
			for k, v := range tt.attrs {
				attrs[k] = v
			}
			path := writeSpans(t, span{id: "a", name: "execute_tool lookup", start: 1, status: tt.status, message: tt.msg, events: tt.events, attrs: attrs})
			r, err := run.Load(path, run.Options{})
			require.NoError(t, err)
			require.Len(t, r.Steps, 2)
			assert.Equal(t, tt.want, r.Steps[1].Content)
		})
	}
}

// TestLoadAllCancelled: a large trace file is read on every core for
// seconds; a cancelled context ends it.
func TestLoadAllCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, f := range []string{"otel-sdk.jsonl", "jaeger.json", "phoenix.jsonl", "langfuse.json"} {
		_, err := run.LoadAll(ctx, filepath.Join("..", "testdata", "telemetry", f), run.Options{})
		assert.ErrorIs(t, err, context.Canceled, f)
	}
}

// TestGenAIEventsAsLogs: GenAI instrumentations may log a model call's
// messages as OTLP log records apart from its span. Beside the spans they
// are the spans' events; alone (the inference details event of current
// GenAI conventions), each span's records are its model call.
func TestGenAIEventsAsLogs(t *testing.T) {
	const trace = "5b8efff798038103d269b633813fc60c"
	str := func(k, v string) string {
		b, err := json.Marshal(map[string]any{"key": k, "value": map[string]any{"stringValue": v}})
		require.NoError(t, err)
		return string(b)
	}
	record := func(span, t, event, body string, attrs ...string) string {
		r := `{"timeUnixNano":"` + t + `","eventName":"` + event + `","traceId":"` + trace + `","spanId":"` + span + `","attributes":[` + strings.Join(attrs, ",") + `]`
		if body != "" {
			r += `,"body":` + body
		}
		return r + `}`
	}
	logs := func(records ...string) string {
		return `{"resourceLogs":[{"scopeLogs":[{"logRecords":[` + strings.Join(records, ",") + `]}]}]}`
	}
	write := func(content string) string {
		path := filepath.Join(t.TempDir(), "otlp.jsonl")
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		return path
	}

	t.Run("beside their spans", func(t *testing.T) {
		span := `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"` + trace + `","spanId":"eee19b7ec3c1b173","name":"chat gpt","startTimeUnixNano":"100","endTimeUnixNano":"200","attributes":[` +
			str("gen_ai.operation.name", "chat") + `,` + str("gen_ai.agent.name", "Bot") + `]}]}]}]}`
		path := write(span + "\n" + logs(
			record("eee19b7ec3c1b173", "110", "gen_ai.user.message", `{"kvlistValue":{"values":[`+str("content", "Capital of France?")+`]}}`, str("gen_ai.system", "openai")),
			record("eee19b7ec3c1b173", "190", "gen_ai.choice", `{"kvlistValue":{"values":[`+str("content", "Paris.")+`]}}`, str("gen_ai.system", "openai")),
		) + "\n")
		c := loadOne(t, path, "")
		assert.Equal(t, []string{"user user: Capital of France?", "Bot message: Paris."}, steps(c.Run))
	})
	details := func(span, t, in, out string) string {
		return record(span, t, "gen_ai.client.inference.operation.details", "",
			str("gen_ai.operation.name", "chat"), str("gen_ai.input.messages", in), str("gen_ai.output.messages", out))
	}
	t.Run("the inference details beside their span", func(t *testing.T) {
		span := `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"` + trace + `","spanId":"eee19b7ec3c1b173","name":"chat gpt","startTimeUnixNano":"100","endTimeUnixNano":"200","attributes":[` +
			str("gen_ai.operation.name", "chat") + `]}]}]}]}`
		path := write(span + "\n" + logs(details("eee19b7ec3c1b173", "150",
			`[{"role":"user","parts":[{"type":"text","content":"Capital of France?"}]}]`,
			`[{"role":"assistant","parts":[{"type":"text","content":"Paris."}]}]`)) + "\n")
		c := loadOne(t, path, "")
		assert.Equal(t, []string{"user user: Capital of France?", "assistant message: Paris."}, steps(c.Run))
	})
	t.Run("alone", func(t *testing.T) {
		path := write(logs(
			details("eee19b7ec3c1b173", "100",
				`[{"role":"user","parts":[{"type":"text","content":"Weather in Oslo?"}]}]`,
				`[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"weather","arguments":{"city":"Oslo"}}]}]`),
			details("d75597dee50b0cac", "200",
				`[{"role":"user","parts":[{"type":"text","content":"Weather in Oslo?"}]},{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"weather","arguments":{"city":"Oslo"}}]},{"role":"tool","parts":[{"type":"tool_call_response","id":"c1","response":"rain"}]}]`,
				`[{"role":"assistant","parts":[{"type":"text","content":"Rain in Oslo."}]}]`),
		))
		c := loadOne(t, path, "")
		got := steps(c.Run)
		require.Len(t, got, 4, "%q", got)
		assert.Equal(t, "user user: Weather in Oslo?", got[0])
		assert.Contains(t, got[1], `tool_call: weather({"city":"Oslo"})`)
		assert.Contains(t, got[2], "tool_result: rain")
		assert.Contains(t, got[3], "message: Rain in Oslo.")
	})
}

// TestCallRecords: tracing tools that record calls rather than spans
// (Opik, Weave) write each as {"id", "trace_id", "parent_span_id", "name",
// "type", "input", "output"}: the type is its kind, the input and output
// hold its messages, and a tool's result wrapped as {"output": …} is the
// text.
func TestCallRecords(t *testing.T) {
	const trace = `[
{"id":"a","trace_id":"t","parent_span_id":null,"name":"agent","type":"general","start_time":"2025-03-01T10:00:00Z","end_time":"2025-03-01T10:00:09Z","input":{"question":"What is the capital of Australia?"},"output":{"answer":"Sydney"}},
{"id":"b","trace_id":"t","parent_span_id":"a","name":"chat","type":"llm","start_time":"2025-03-01T10:00:01Z","end_time":"2025-03-01T10:00:02Z","input":{"messages":[{"role":"system","content":"You answer questions."},{"role":"user","content":"What is the capital of Australia?"}]},"output":{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"search","arguments":"{\"q\": \"capital of Australia\"}"}}]}}]}},
{"id":"c","trace_id":"t","parent_span_id":"a","name":"search","type":"tool","start_time":"2025-03-01T10:00:03Z","end_time":"2025-03-01T10:00:04Z","input":{"q":"capital of Australia"},"output":{"output":"Canberra is the capital city of Australia."}},
{"id":"d","trace_id":"t","parent_span_id":"a","name":"chat","type":"llm","start_time":"2025-03-01T10:00:05Z","end_time":"2025-03-01T10:00:06Z","input":{"messages":[{"role":"user","content":"What is the capital of Australia?"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"search","arguments":"{\"q\": \"capital of Australia\"}"}}]},{"role":"tool","tool_call_id":"call_1","content":"Canberra is the capital city of Australia."}]},"output":{"choices":[{"message":{"role":"assistant","content":"The capital of Australia is Sydney."}}]}}
]`
	path := filepath.Join(t.TempDir(), "calls.json")
	require.NoError(t, os.WriteFile(path, []byte(trace), 0o644))
	c := loadOne(t, path, "")
	got := kinds(c.Run)
	assert.Equal(t, []string{"user: What is the capital of Australia?", `tool_call: search({"q": "capital of Australia"})`,
		"tool_result: Canberra is the capital city of Australia.", "message: The capital of Australia is Sydney."}, got)
}

// TestOpikJSRecords: Opik's JavaScript SDK records a tracked function as
// a general span (an agent, named for the function) or a tool span, its
// arguments as {"arguments": […]}, its return value as {"result": …} and
// its error as error_info; its OpenAI integration types the model calls
// general too.
func TestOpikJSRecords(t *testing.T) {
	rec := func(id, parent, name, typ string, start int, input, output, extra string) string {
		r := `{"id":"` + id + `","trace_id":"t","name":"` + name + `","type":"` + typ + `","start_time":"2025-03-01T10:00:0` + strconv.Itoa(start) + `Z","end_time":"2025-03-01T10:00:0` + strconv.Itoa(start) + `.5Z","input":` + input
		if parent != "" {
			r += `,"parent_span_id":"` + parent + `"`
		}
		if output != "" {
			r += `,"output":` + output
		}
		return r + extra + "}"
	}
	ask := `{"messages":[{"role":"user","content":"Weather in Oslo?"}]}`
	tests := []struct {
		name    string
		records []string
		want    []string
	}{
		{
			name: "an agent, its model call and a failed tool",
			records: []string{
				rec("a", "", "researcher", "general", 0, `{"arguments":["Weather in Oslo?"]}`, `{"result":"7 °F."}`, ""),
				rec("m", "a", "OpenAI.chat", "general", 1, ask, `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Olso\"}"}}]}`, `,"model":"gpt-4o-mini","provider":"openai"`),
				rec("w", "a", "get_weather", "tool", 2, `{"arguments":[{"city":"Olso"}]}`, "", `,"error_info":{"message":"unknown city: Olso","exception_type":"Error","traceback":"Error: unknown city: Olso"}`),
				rec("m2", "a", "OpenAI.chat", "general", 3, ask, `{"role":"assistant","content":"7 °F."}`, ""),
			},
			want: []string{"user user: Weather in Oslo?", `researcher tool_call: get_weather({"city":"Olso"})`,
				"researcher tool_result: Error: unknown city: Olso", "researcher message: 7 °F."},
		},
		{
			name: "two arguments stay a list",
			records: []string{
				rec("a", "", "researcher", "general", 0, `{"arguments":["Weather in Oslo?"]}`, `{"result":"7 °F."}`, ""),
				rec("m", "a", "OpenAI.chat", "general", 1, ask, `{"role":"assistant","content":"Looking it up."}`, ""),
				rec("w", "a", "get_weather", "tool", 2, `{"arguments":["Oslo","C"]}`, `{"result":"7"}`, ""),
			},
			want: []string{"user user: Weather in Oslo?", "researcher message: Looking it up.", `researcher tool_result: get_weather({"arguments":["Oslo","C"]}) -> 7`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "spans.json")
			require.NoError(t, os.WriteFile(path, []byte(`{"spans":[`+strings.Join(tt.records, ",")+`]}`), 0o644))
			c := loadOne(t, path, "")
			assert.Equal(t, tt.want, steps(c.Run))
		})
	}
}

// TestWeaveOps: Weave records every function a program traces as an op,
// without saying which are agents or tools. An op with a model call in it
// is an agent, named for its op; an op named as a call that a model call
// beside it made before it is that call's run; any other op is neither.
func TestWeaveOps(t *testing.T) {
	row := func(id, parent, op string, start int, inputs, output, extra string) string {
		r := `{"id":"` + id + `","trace_id":"t","op_name":"weave:///e/p/op/` + op + `:d1","started_at":"2025-03-01T10:00:0` + strconv.Itoa(start) +
			`Z","ended_at":"2025-03-01T10:00:0` + strconv.Itoa(start) + `.5Z","inputs":` + inputs + `,"output":` + output + extra
		if parent != "" {
			r += `,"parent_id":"` + parent + `"`
		}
		return r + "}"
	}
	ask := `{"model":"m","messages":[{"role":"user","content":"Weather in Oslo?"}]}`
	call := func(name string) string {
		return `{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"` + name + `","arguments":"{\"city\":\"Olso\"}"}}]}}]}`
	}
	answer := `{"choices":[{"message":{"role":"assistant","content":"7 °F."}}]}`
	tests := []struct {
		name string
		rows []string
		want []string
	}{
		{
			name: "a called op is a tool",
			rows: []string{
				row("a", "", "researcher", 0, `{"arg0":"Weather in Oslo?"}`, `"7 °F."`, ""),
				row("m", "a", "openai.chat.completions.create", 1, ask, call("get_weather"), ""),
				row("w", "a", "get_weather", 2, `{"arg0":{"city":"Olso"}}`, "null", `,"exception":"unknown city: Olso"`),
				row("m2", "a", "openai.chat.completions.create", 3, ask, answer, ""),
			},
			want: []string{"user user: Weather in Oslo?", `researcher tool_call: get_weather({"city":"Olso"})`,
				"researcher tool_result: Error: unknown city: Olso", "researcher message: 7 °F."},
		},
		{
			name: "an op no model called is no tool",
			rows: []string{
				row("a", "", "researcher", 0, `{"arg0":"Weather in Oslo?"}`, `"7 °F."`, ""),
				row("m", "a", "openai.chat.completions.create", 1, ask, call("get_forecast"), ""),
				row("w", "a", "get_weather", 2, `{"arg0":{"city":"Olso"}}`, "null", `,"exception":"unknown city: Olso"`),
				row("m2", "a", "openai.chat.completions.create", 3, ask, answer, ""),
			},
			want: []string{"user user: Weather in Oslo?", `researcher tool_call: get_forecast({"city":"Olso"})`,
				"researcher message: Error: unknown city: Olso", "researcher message: 7 °F."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "calls.jsonl")
			require.NoError(t, os.WriteFile(path, []byte(strings.Join(tt.rows, "\n")), 0o644))
			c := loadOne(t, path, "")
			assert.Equal(t, tt.want, steps(c.Run))
		})
	}
}

// TestSentryAIAttributes: Sentry's AI agent monitoring keeps an agent's
// input in gen_ai.request.messages, a call's answer in
// gen_ai.response.text (its text, or a JSON list of its choices' texts)
// and gen_ai.response.tool_calls (OpenAI's calls, the Responses API's
// function_call items, or a provider's content parts), and a tool's arguments and result in gen_ai.tool.input and
// gen_ai.tool.output.
func TestSentryAIAttributes(t *testing.T) {
	span := func(id, parent, op string, start int, data string) string {
		return `{"span_id":"` + id + `","parent_span_id":"` + parent + `","op":"` + op + `","description":"` + op + `","start_timestamp":` + strconv.Itoa(1764250000+start) +
			`,"timestamp":` + strconv.Itoa(1764250000+start) + `.5,"status":"ok","data":{"gen_ai.operation.name":"` + strings.TrimPrefix(op, "gen_ai.") + `",` + data + `}}`
	}
	agent := span("a", "r", "gen_ai.invoke_agent", 1, `"gen_ai.agent.name":"researcher","gen_ai.request.messages":"[{\"role\":\"user\",\"content\":\"Weather in Oslo?\"}]","gen_ai.response.text":"7 °F."`)
	tool := span("w", "a", "gen_ai.execute_tool", 3, `"gen_ai.tool.name":"get_weather","gen_ai.tool.input":"{\"city\":\"Oslo\"}","gen_ai.tool.output":"{\"tempC\":7}"`)
	tests := []struct {
		name  string
		calls []string
		want  []string
	}{
		{
			name: "OpenAI's calls, choices' texts",
			calls: []string{
				span("m1", "a", "gen_ai.chat", 2, `"gen_ai.response.text":"[\"\"]","gen_ai.response.tool_calls":"[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\":\\\"Oslo\\\"}\"}}]"`),
				span("m2", "a", "gen_ai.chat", 4, `"gen_ai.response.text":"[\"7 °F.\"]"`),
			},
			want: []string{"user user: Weather in Oslo?", `researcher tool_call: get_weather({"city":"Oslo"})`, `researcher tool_result: {"tempC":7}`, "researcher message: 7 °F."},
		},
		{
			name: "Anthropic's tool_use parts, a plain text",
			calls: []string{
				span("m1", "a", "gen_ai.chat", 2, `"gen_ai.response.text":"Looking it up.","gen_ai.response.tool_calls":"[{\"type\":\"tool_use\",\"id\":\"c1\",\"name\":\"get_weather\",\"input\":{\"city\":\"Oslo\"}}]"`),
				span("m2", "a", "gen_ai.chat", 4, `"gen_ai.response.text":"7 °F."`),
			},
			// A message that says something and calls is one step, its words
			// the text.
			want: []string{"user user: Weather in Oslo?", "researcher tool_call: Looking it up.", `researcher tool_result: {"tempC":7}`, "researcher message: 7 °F."},
		},
		{
			name: "the Responses API's function_call items",
			calls: []string{
				span("m1", "a", "gen_ai.chat", 2, `"gen_ai.response.tool_calls":"[{\"arguments\":\"{\\\"city\\\":\\\"Oslo\\\"}\",\"call_id\":\"c1\",\"name\":\"get_weather\",\"type\":\"function_call\",\"id\":\"fc_1\",\"status\":\"completed\"}]"`),
				span("m2", "a", "gen_ai.chat", 4, `"gen_ai.response.text":"[\"7 °F.\"]"`),
			},
			want: []string{"user user: Weather in Oslo?", `researcher tool_call: get_weather({"city":"Oslo"})`, `researcher tool_result: {"tempC":7}`, "researcher message: 7 °F."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tx := `{"type":"transaction","transaction":"trip","start_timestamp":1764250000,"timestamp":1764250009,"contexts":{"trace":{"trace_id":"3a6493a6fbbd4cc989111816b0006e28","span_id":"r","op":"task"}},"spans":[` +
				strings.Join(append([]string{agent, tool}, tt.calls...), ",") + `]}`
			path := filepath.Join(t.TempDir(), "event.json")
			require.NoError(t, os.WriteFile(path, []byte(tx), 0o644))
			c := loadOne(t, path, "")
			assert.Equal(t, run.FormatSentry, c.Run.Format)
			assert.Equal(t, tt.want, steps(c.Run))
		})
	}
}

// TestDatadogSpanEvents: Datadog LLM Observability's span kinds say what
// a span is, its meta's input and output hold the messages (calls as
// {"name", "arguments", "tool_id"}, results as tool_results) or a value.
func TestDatadogSpanEvents(t *testing.T) {
	span := func(id, parent, name, kind string, start int, meta string) string {
		return `{"trace_id":"6b0999890000000078294037d9a2e150","span_id":"` + id + `","parent_id":"` + parent + `","name":"` + name + `","start_ns":` + strconv.Itoa(start) +
			`000000000,"duration":500000000,"status":"ok","meta":{"span.kind":"` + kind + `",` + meta + `}}`
	}
	ask := `{"role":"user","content":"Weather in Oslo?"}`
	events := `{"event_type":"span","spans":[` + strings.Join([]string{
		span("1", "undefined", "researcher", "agent", 1, `"input":{"value":"Weather in Oslo?"},"output":{"value":"7 °F."}`),
		span("2", "1", "OpenAI.createChatCompletion", "llm", 2, `"input":{"messages":[`+ask+`]},"output":{"messages":[{"role":"assistant","content":"","tool_calls":[{"name":"get_weather","arguments":{"city":"Oslo"},"tool_id":"c1","type":"function"}]}]}`),
		span("3", "1", "get_weather", "tool", 3, `"input":{"value":"{\"city\":\"Oslo\"}"},"output":{}`),
		span("4", "1", "OpenAI.createChatCompletion", "llm", 4, `"input":{"messages":[`+ask+`,{"role":"assistant","content":"","tool_calls":[{"name":"get_weather","arguments":{"city":"Oslo"},"tool_id":"c1"}]},{"role":"tool","tool_results":[{"name":"get_weather","result":"7 degrees","tool_id":"c1","type":"function"}]}]},"output":{"messages":[{"role":"assistant","content":"7 °F."}]}`),
	}, ",") + `]}`
	path := filepath.Join(t.TempDir(), "events.json")
	require.NoError(t, os.WriteFile(path, []byte(events), 0o644))
	c := loadOne(t, path, "")
	assert.Equal(t, run.FormatDatadog, c.Run.Format)
	// The tool span records no result: the next call's input gives it,
	// by the call's id.
	assert.Equal(t, []string{"user user: Weather in Oslo?", `researcher tool_call: get_weather({"city":"Oslo"})`, "researcher tool_result: 7 degrees", "researcher message: 7 °F."}, steps(c.Run))
	assert.Equal(t, "c1", c.Run.Steps[1].ToolCalls()[0].ID)
}

// TestDataFrames: a data frame written by pandas in any orient reads as
// its rows: spans as a trace (TestTelemetryExamples reads phoenix-frame.json
// so), messages as a transcript. A frame of rows of no known format is
// refused as the object it is, and a frame of spans that are not an
// agent's says so, naming the orient it was read in.
func TestDataFrames(t *testing.T) {
	chat := []string{"user: What is 2+2?", "message: 5", "message: Looks right."}
	tests := []struct {
		name, data string
		want       []string
		err        string
	}{
		{"columns.json", `{"role":{"0":"user","1":"assistant","2":"assistant"},"content":{"0":"What is 2+2?","1":"5","2":"Looks right."},"name":{"0":null,"1":"solver","2":"checker"}}`, chat, ""},
		{"index.json", `{"0":{"role":"user","content":"What is 2+2?","name":null},"1":{"role":"assistant","content":"5","name":"solver"},"2":{"role":"assistant","content":"Looks right.","name":"checker"}}`, chat, ""},
		{"split.json", `{"columns":["role","content","name"],"index":[0,1,2],"data":[["user","What is 2+2?",null],["assistant","5","solver"],["assistant","Looks right.","checker"]]}`, chat, ""},
		{"unknown.json", `{"a":{"0":1,"1":2},"b":{"0":3,"1":4}}`, nil,
			`unknown format: a JSON object with neither "history" (Who&When) nor "messages" (transcript), nor a trace layout (its keys: a, b)`},
		{"http.json", `{"name":{"0":"GET /"},"context.trace_id":{"0":"t"},"context.span_id":{"0":"s"}}`, nil,
			`read as a data frame's rows (columns orient): no GenAI or OpenInference spans in 1 spans of 1 traces`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), tt.name)
			require.NoError(t, os.WriteFile(p, []byte(tt.data), 0o644))
			cases, err := run.LoadAll(context.Background(), p, run.Options{})
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			require.Len(t, cases, 1)
			r := cases[0].Run
			assert.Equal(t, tt.want, kinds(r))
			assert.Equal(t, []string{"user", "solver", "checker"}, []string{r.Steps[0].Agent, r.Steps[1].Agent, r.Steps[2].Agent})
		})
	}
}

// TestBraintrustEvents: Braintrust's logged spans, as its fetch API lists
// them ({"events": […]}) or a list of them, read as spans: the trace from
// root_span_id, the parent from span_parents, times from metrics, the
// name and type from span_attributes, and an error beside the output.
func TestBraintrustEvents(t *testing.T) {
	const events = `[
{"id":"r1","span_id":"s1","root_span_id":"s1","span_parents":null,"input":"What is the capital of Australia?","output":"Sydney","error":null,"metrics":{"start":1740823200.0,"end":1740823209.0},"span_attributes":{"name":"answer","type":"task"}},
{"id":"r2","span_id":"s2","root_span_id":"s1","span_parents":["s1"],"input":[{"role":"system","content":"You answer questions."},{"role":"user","content":"What is the capital of Australia?"}],"output":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"search","arguments":"{\"q\": \"capital of Australia\"}"}}]},"finish_reason":"tool_calls"}],"metrics":{"start":1740823201.0,"end":1740823202.0},"span_attributes":{"name":"Chat Completion","type":"llm"}},
{"id":"r3","span_id":"s3","root_span_id":"s1","span_parents":["s1"],"input":{"q":"capital of Australia"},"output":null,"error":"TimeoutError: search timed out","metrics":{"start":1740823203.0,"end":1740823204.0},"span_attributes":{"name":"search","type":"tool"}},
{"id":"r4","span_id":"s4","root_span_id":"s1","span_parents":["s1"],"input":[{"role":"user","content":"What is the capital of Australia?"}],"output":[{"index":0,"message":{"role":"assistant","content":"The capital of Australia is Sydney."},"finish_reason":"stop"}],"metrics":{"start":1740823205.0,"end":1740823206.0},"span_attributes":{"name":"Chat Completion","type":"llm"}}
]`
	want := []string{"user: What is the capital of Australia?", `tool_call: search({"q": "capital of Australia"})`,
		"tool_result: TimeoutError: search timed out", "message: The capital of Australia is Sydney."}
	for name, data := range map[string]string{"list.json": events, "fetch.json": `{"events": ` + events + `, "cursor": null}`} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
			c := loadOne(t, path, "")
			assert.Equal(t, "s1", c.Run.TraceID)
			got := kinds(c.Run)
			assert.Equal(t, want, got)
		})
	}
}

// TestModelCallLogs: a log of model calls reads as the conversation its
// calls hold: the task, each call's reply by the agent that asked for it,
// and what came between two calls (a tool's result, another participant's
// message, named as OpenAI's messages name one).
func TestModelCallLogs(t *testing.T) {
	tests := []struct {
		file  string
		trace string
		want  []string
	}{
		{"autogen-runtime.log", "1", []string{
			"user user | What is the 10th Fibonacci number?",
			"assistant message | ```python\na,b=0,1\nfor _ in range(10): a,b=b,a+b\nprint(b)\n```",
			"user_proxy user | exitcode: 0 (execution succeeded)\nCode output: 89",
			"assistant message | The 10th Fibonacci number is 89. TERMINATE",
		}},
		{"gateway.jsonl", "calls", []string{
			"user user | What is the capital of Australia?",
			`assistant tool_call | search({"q": "capital of Australia"})`,
			"assistant tool_result | Canberra is the capital city of Australia.",
			"assistant message | The capital of Australia is Sydney.",
		}},
		{"helicone.json", "sess-1", []string{
			"user user | How long is the main span of the Storseisundet Bridge?",
			`caption tool_call | ask_researcher({"question": "Main span of the Storseisundet Bridge?"})`,
			`research tool_call | search({"q": "Storseisundet Bridge main span"})`,
			"research tool_result | Its main span is 130 metres.",
			"research message | The main span is 130 metres.",
			"caption tool_result | The main span is 130 metres.",
			"caption message | Main span: 130 m.",
		}},
		{"litellm-payload.jsonl", "trace-7", []string{
			"user user | What is 17 times 23?",
			`calculator tool_call | multiply({"a": 17, "b": 23})`,
			"calculator tool_result | 391",
			"calculator message | 17 times 23 is 391.",
		}},
		{"humanloop-flow.json", "log_flow", []string{
			"user user | What is the population of Graz?",
			`assistant tool_call | web_search({"query": "Graz population"})`,
			"assistant tool_result | Graz: 304,817 (1 January 2026).",
			"assistant message | Graz has 304,817 inhabitants.",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join("..", "testdata", "calls", tt.file)
			for _, format := range []run.Format{run.FormatAuto, run.FormatCalls} {
				c := loadOne(t, path, format)
				r := c.Run
				assert.Equal(t, run.FormatCalls, r.Format)
				assert.Equal(t, tt.trace, r.TraceID)
				var got []string
				for _, s := range r.Steps {
					got = append(got, s.Agent+" "+string(s.Kind)+" | "+s.Content)
				}
				assert.Equal(t, tt.want, got)
			}
		})
	}
}

// TestSystemInstructions: a trace keeps the system prompt in its model
// calls' input (GenAI's gen_ai.input.messages, OpenInference's
// llm.input_messages) or apart from it (gen_ai.system_instructions, a
// Responses API object's instructions, a request body's system prompt
// beside its messages: Anthropic's, Gemini's, Google ADK's), not as a
// step; the run holds it as its instructions, the first model call's.
func TestSystemInstructions(t *testing.T) {
	const policy = "Before cancelling a booking, obtain explicit user confirmation (yes)."
	tests := []struct {
		name  string
		attrs map[string]any
	}{
		{"GenAI input messages", map[string]any{
			"gen_ai.operation.name": "chat",
			"gen_ai.input.messages": `[{"role":"system","parts":[{"type":"text","content":"` + policy + `"}]},{"role":"user","parts":[{"type":"text","content":"Cancel AIXC49."}]}]`,
		}},
		{"GenAI system instructions", map[string]any{
			"gen_ai.operation.name":      "chat",
			"gen_ai.system_instructions": `[{"type":"text","content":"` + policy + `"}]`,
			"gen_ai.input.messages":      `[{"role":"user","parts":[{"type":"text","content":"Cancel AIXC49."}]}]`,
		}},
		{"OpenInference input messages", map[string]any{
			"openinference.span.kind":               "LLM",
			"llm.input_messages.0.message.role":     "system",
			"llm.input_messages.0.message.content":  policy,
			"llm.input_messages.1.message.role":     "user",
			"llm.input_messages.1.message.content":  "Cancel AIXC49.",
			"llm.output_messages.0.message.role":    "assistant",
			"llm.output_messages.0.message.content": "Done: AIXC49 is cancelled.",
		}},
		{"a Responses API response as Logfire's OpenAI Agents instrumentation writes it", map[string]any{
			"logfire.msg_template":  "Responses API with {gen_ai.request.model!r}",
			"gen_ai.operation.name": "chat",
			"raw_input":             `[{"role": "user", "content": "Cancel AIXC49."}]`,
			"response":              `{"id": "resp_1", "model": "gpt-4o", "instructions": "` + policy + `", "output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Done: AIXC49 is cancelled."}]}]}`,
		}},
		{"a Responses API request and response as OpenInference's values", map[string]any{
			"openinference.span.kind":               "LLM",
			"input.value":                           `{"model": "gpt-4o", "instructions": "` + policy + `", "input": "Cancel AIXC49."}`,
			"output.value":                          `{"id": "resp_1", "object": "response", "instructions": "` + policy + `", "output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Done: AIXC49 is cancelled."}]}]}`,
			"llm.input_messages.0.message.role":     "user",
			"llm.input_messages.0.message.content":  "Cancel AIXC49.",
			"llm.output_messages.0.message.role":    "assistant",
			"llm.output_messages.0.message.content": "Done: AIXC49 is cancelled.",
		}},
		{"Google ADK's request with its config's system instruction", map[string]any{
			"gen_ai.system":                 "gcp.vertex.agent",
			"gcp.vertex.agent.llm_request":  `{"model": "gemini-2.0-flash", "config": {"system_instruction": "` + policy + `"}, "contents": [{"role": "user", "parts": [{"text": "Cancel AIXC49."}]}]}`,
			"gcp.vertex.agent.llm_response": `{"content": {"role": "model", "parts": [{"text": "Done: AIXC49 is cancelled."}]}}`,
		}},
		{"a Gemini REST request's systemInstruction as OpenInference's input value", map[string]any{
			"openinference.span.kind": "LLM",
			"input.value":             `{"systemInstruction": {"parts": [{"text": "` + policy + `"}]}, "contents": [{"role": "user", "parts": [{"text": "Cancel AIXC49."}]}]}`,
			"output.value":            "Done: AIXC49 is cancelled.",
		}},
		{"an Anthropic request's system blocks as Langfuse's observation input", map[string]any{
			"langfuse.observation.type":   "generation",
			"langfuse.observation.input":  `{"model": "claude-sonnet-4", "system": [{"type": "text", "text": "` + policy + `"}], "messages": [{"role": "user", "content": "Cancel AIXC49."}]}`,
			"langfuse.observation.output": "Done: AIXC49 is cancelled.",
		}},
		{"an OpenAI request's system message, read once", map[string]any{
			"openinference.span.kind": "LLM",
			"input.value":             `{"model": "gpt-4o", "messages": [{"role": "system", "content": "` + policy + `"}, {"role": "user", "content": "Cancel AIXC49."}]}`,
			"output.value":            "Done: AIXC49 is cancelled.",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			attrs := maps.Clone(tt.attrs)
			if _, ok := attrs["gen_ai.operation.name"]; ok {
				attrs["gen_ai.output.messages"] = `[{"role":"assistant","parts":[{"type":"text","content":"Done: AIXC49 is cancelled."}]}]`
			}
			path := writeSpans(t, span{id: "a", name: "chat", start: 1, attrs: attrs})
			r := loadOne(t, path, "").Run
			assert.Equal(t, policy, r.Instructions)
			assert.Equal(t, "Cancel AIXC49.", r.Question)
			assert.Equal(t, []string{"user user: Cancel AIXC49.", "assistant message: Done: AIXC49 is cancelled."}, steps(r), "the instructions are no step")
		})
	}
}

// TestMarkedToolSpanLabelsItsCall: an agent used as a tool whose span is
// marked as the decisive fault is labelled at the call that ran it (the
// coordinator's model output lists its calls; the tool span holds the
// sub-agent's work, then the result), not at the sub-agent's first step;
// a tool span whose own step comes first is labelled there, as before.
func TestMarkedToolSpanLabelsItsCall(t *testing.T) {
	coordinator := map[string]any{
		"openinference.span.kind": "AGENT", "input.value": "What is 89 minus 72?",
		"llm.output_messages.0.message.role":                                      "assistant",
		"llm.output_messages.0.message.tool_calls.0.tool_call.id":                 "toolu_1",
		"llm.output_messages.0.message.tool_calls.0.tool_call.function.name":      "Agent",
		"llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": `{"subagent_type": "math-specialist", "prompt": "Calculate 89 minus 27."}`,
		"llm.output_messages.1.message.role":                                      "assistant",
		"llm.output_messages.1.message.content.0":                                 "The difference is 62.",
	}
	agentTool := func(marked bool) map[string]any {
		a := map[string]any{"openinference.span.kind": "TOOL", "tool.id": "toolu_1", "tool.name": "Agent",
			"input.value":  `{"subagent_type": "math-specialist", "prompt": "Calculate 89 minus 27."}`,
			"output.value": `{"status": "completed", "agentType": "math-specialist", "content": [{"type": "text", "text": "62"}]}`}
		if marked {
			a["offattr.mistake"] = true
		}
		return a
	}
	bash := func(marked bool) map[string]any {
		a := map[string]any{"openinference.span.kind": "TOOL", "tool.name": "Bash",
			"input.value": `{"command": "python3 -c 'print(89 - 27)'"}`, "output.value": `{"stdout": "62"}`}
		if marked {
			a["offattr.mistake"] = true
		}
		return a
	}
	tests := []struct {
		name             string
		markAgent, markB bool
		subAgent         bool // whether the sub-agent's spans are in the tool span
		want             run.Label
	}{
		{"agent tool span: the coordinator's call", true, false, true, run.Label{Agent: "ClaudeAgentSDK.query", Step: 1}},
		{"tool span with its own call step: that step", false, true, true, run.Label{Agent: "math-specialist", Step: 2}},
		{"tool span holding only its result: the result", true, false, false, run.Label{Agent: "ClaudeAgentSDK.query", Step: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ss := []span{
				{id: "a", name: "ClaudeAgentSDK.query", start: 1, end: 9, attrs: coordinator},
				{id: "b", parent: "a", name: "Agent", start: 2, end: 6, attrs: agentTool(tt.markAgent)},
			}
			want := []string{
				"user user: What is 89 minus 72?",
				`ClaudeAgentSDK.query tool_call: Agent({"subagent_type": "math-specialist", "prompt": "Calculate 89 minus 27."})`,
				`math-specialist tool_call: Bash({"command": "python3 -c 'print(89 - 27)'"})`,
				`math-specialist tool_result: {"stdout": "62"}`,
				`ClaudeAgentSDK.query tool_result: {"status": "completed", "agentType": "math-specialist", "content": [{"type": "text", "text": "62"}]}`,
				"ClaudeAgentSDK.query message: The difference is 62.",
			}
			if tt.subAgent {
				ss = append(ss,
					span{id: "c", parent: "b", name: "ClaudeAgentSDK.Agent", start: 3, end: 5, attrs: map[string]any{"openinference.span.kind": "AGENT", "agent.name": "Agent"}},
					span{id: "d", parent: "c", name: "Bash", start: 4, attrs: bash(tt.markB)})
			} else {
				want = append(want[:2], want[4:]...)
			}
			c := loadOne(t, writeSpans(t, ss...), "")
			require.Equal(t, want, steps(c.Run))
			require.NotNil(t, c.Label)
			assert.Equal(t, tt.want, *c.Label)
		})
	}
}

// TestMarkedChatSpanLabelsItsOwnCall: a model call's span marked as the
// decisive fault whose prompt carries the result of an earlier call (read
// as a tool result, its execute_tool span holding no result) and whose
// output makes a call of its own is labelled at its call: the result it
// was given is its input, not its work. A marked span whose only step is
// a tool result is still labelled there.
func TestMarkedChatSpanLabelsItsOwnCall(t *testing.T) {
	chat := func(id string, start float64, in, out string, marked bool) span {
		a := map[string]any{"gen_ai.operation.name": "chat", "gen_ai.agent.name": "booker", "gen_ai.input.messages": in, "gen_ai.output.messages": out}
		if marked {
			a["offattr.mistake"] = true
		}
		return span{id: id, parent: "a", name: "chat gpt-4o", start: start, attrs: a}
	}
	tool := func(id, call string, start float64, marked bool) span {
		a := map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "search", "gen_ai.tool.call.id": call}
		if marked {
			a["offattr.mistake"] = true
		}
		return span{id: id, parent: "a", name: "execute_tool search", start: start, attrs: a}
	}
	const (
		user   = `[{"role":"user","parts":[{"type":"text","content":"Book 2 nights in Ghent from 14 October."}]}]`
		call1  = `[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"search","arguments":{"city":"Ghent"}}]}]`
		prompt = `[{"role":"user","parts":[{"type":"text","content":"Book 2 nights in Ghent from 14 October."}]},{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"search","arguments":{"city":"Ghent"}}]},{"role":"tool","parts":[{"type":"tool_call_response","id":"c1","response":"GNT-087: Ibis, 96 EUR a night"}]}]`
		call2  = `[{"role":"assistant","parts":[{"type":"tool_call","id":"c2","name":"book","arguments":{"hotel":"GNT-087","nights":3}}]}]`
	)
	for _, tc := range []struct {
		name             string
		chatMarked, tool bool
		want             run.Kind
	}{
		{"marked model call", true, false, run.KindToolCall},
		{"marked tool span", false, true, run.KindToolResult},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeSpans(t,
				span{id: "a", name: "invoke_agent booker", start: 1, end: 9, attrs: map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "booker"}},
				chat("b", 2, user, call1, false),
				tool("c", "c1", 3, tc.tool),
				chat("d", 4, prompt, call2, tc.chatMarked),
			)
			c, err := run.LoadCase(path, run.Options{})
			require.NoError(t, err)
			require.NotNil(t, c.Label)
			assert.Equal(t, tc.want, c.Run.Steps[c.Label.Step].Kind, steps(c.Run))
		})
	}
}

// TestTaskAroundPrompt: a trace whose root span was given the task, and
// whose first model call's prompt quotes it inside a framework's own
// instructions (a planner told to split it), has the root's input as its
// task; a prompt that does not quote it whole, or holds it as a message of
// its own beside others, leaves the prompt the task.
func TestTaskAroundPrompt(t *testing.T) {
	const wrapped = `[{"role":"user","parts":[{"type":"text","content":"Split the given task into subtasks. The task is: Weather in Oslo tomorrow?"}]}]`
	for _, tt := range []struct {
		name, root, input, want string
	}{
		{"quoted", "Weather in Oslo tomorrow?", wrapped, "Weather in Oslo tomorrow?"},
		{"not quoted", "Weather in Bergen tomorrow?", wrapped, "Split the given task into subtasks. The task is: Weather in Oslo tomorrow?"},
		{"a message of its own", "Weather in Oslo tomorrow?",
			`[{"role":"user","parts":[{"type":"text","content":"Be brief."}]},{"role":"user","parts":[{"type":"text","content":"Weather in Oslo tomorrow?"}]}]`,
			"Be brief.\nWeather in Oslo tomorrow?"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := writeSpans(t,
				span{id: "w", name: "Workforce.process_task", start: 0.5, end: 9.5, attrs: map[string]any{
					"input.value": `{"task":"` + tt.root + `"}`,
				}},
				span{id: "b", parent: "w", name: "chat", start: 2, attrs: map[string]any{
					"gen_ai.operation.name": "chat", "gen_ai.agent.name": "planner",
					"gen_ai.input.messages":  tt.input,
					"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"<tasks><task>Look up the forecast.</task></tasks>"}]}]`,
				}},
			)
			r, err := run.Load(path, run.Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.want, r.Question)
		})
	}
}

// TestCallsWrittenAsContent: a model call whose completion's content is
// the list of its tool calls as JSON (Koog's) is a step of those calls
// whose text is the content as written, as the tracer's own view of the
// message shows it, and which says nothing in words of its own.
func TestCallsWrittenAsContent(t *testing.T) {
	list := `[{"function":{"name":"HelloTool","arguments":"{\"name\": \"Bob\"}"},"id":"call_1","type":"function"}]`
	r, err := run.Load(writeSpans(t, span{id: "a", name: "llm.chat", start: 1, attrs: map[string]any{
		"gen_ai.operation.name": "chat", "gen_ai.system": "openai",
		"gen_ai.prompt.0.role": "user", "gen_ai.prompt.0.content": "Greet Bob.",
		"gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.content": list, "gen_ai.completion.0.finish_reason": "tool_calls",
	}}), run.Options{})
	require.NoError(t, err)
	require.Len(t, r.Steps, 2)
	s := r.Steps[1]
	assert.Equal(t, run.KindToolCall, s.Kind)
	assert.Equal(t, list, s.Content)
	assert.Equal(t, []run.ToolCall{{ID: "call_1", Name: "HelloTool", Arguments: `{"name": "Bob"}`}}, s.ToolCalls())
	assert.True(t, s.OnlyCalls())
}

// TestElasticLabels: Elastic APM's documents keep a span's attributes as
// labels, dots made underscores; they are read as the conventions' names
// (the agents, their calls and results, the placed mistake).
func TestElasticLabels(t *testing.T) {
	c := loadOne(t, filepath.Join("..", "testdata", "kinds", "trace-team", "elastic239_elastic-apm-hotel-agent-searches-wrong-checkin.json"), "")
	got := steps(c.Run)
	require.Len(t, got, 8)
	assert.Equal(t, "Supervisor tool_call: transfer_to_hotel_agent({})", got[1])
	assert.Contains(t, got[3], `Hotel Agent tool_call: search_hotels({"city":"Porto"`)
	assert.Contains(t, got[4], `Hotel Agent tool_result: {"hotels"`)
	require.NotNil(t, c.Label)
	assert.Equal(t, "Hotel Agent", c.Label.Agent)
	assert.Equal(t, 3, c.Label.Step)
}

// TestTraceErrorsCutIDs: an error about one trace of a file names the
// trace by its id cut short, however long the file wrote it.
func TestTraceErrorsCutIDs(t *testing.T) {
	long := strings.Repeat("a", 1<<20)
	_, err := run.ParseAll(context.Background(), "t.json", []byte(`[{"trace_id":"`+long+`","span_id":"s","name":"chat","start_time":1,"end_time":2,"attributes":{"gen_ai.operation.name":"chat"}}]`), run.Options{})
	require.Error(t, err)
	msg := err.Error()
	require.Less(t, len(msg), 600, "an error of %d bytes", len(msg))
	assert.Contains(t, msg, "t.json")
	assert.Contains(t, msg, "…")
}
