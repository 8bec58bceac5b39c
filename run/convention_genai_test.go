package run_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestGenAIFiles reads cuts of real files that follow OpenTelemetry's GenAI conventions.
func TestGenAIFiles(t *testing.T) {
	checkRealFiles(t, []realFile{
		{
			file: "openai-agents-genai.json", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"coordinator", "research_specialist", "math_specialist"},
			question: "Look up the stock price for AMZN, then calculate what 1000 shares would be worth by multiplying the price by 1000.",
		},
		{
			// The same SDK through the AWS Distro for OpenTelemetry and
			// OpenTelemetry's OpenAI Agents instrumentation, which writes a
			// function call of the model's reply as the repr of its Python
			// object in a text part: a call, not words.
			file: "openai-agents-genai-adot.json", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"coordinator", "math_specialist"},
			question: "What is 42 * 7, and what's the weather in Seattle?",
			steps: []realStep{
				{"user", run.KindUser, "What is 42 * 7"},
				{"coordinator", run.KindToolCall, "transfer_to_math_specialist({})\ntransfer_to_research_specialist({})"},
				{"coordinator", run.KindHandoff, "math_specialist"},
				{"math_specialist", run.KindToolCall, `multiply_numbers({"a":42,"b":7})`},
				{"math_specialist", run.KindToolResult, "294.0"},
				{"math_specialist", run.KindMessage, "The product of 42 and 7 is 294."},
			},
		},
		{
			file: "any-agent-openai.json", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"any_agent"},
			contains: []string{`"timezone": "America/New_York"`},
		},
		{
			// The Vercel AI SDK's spans (ai.*, with gen_ai.* beside them)
			// over OTLP/HTTP JSON: a planner asks a researcher, an agent
			// used as a tool, whose misspelt call fails and who reports
			// Celsius as Fahrenheit. Starts are whole milliseconds and
			// ends are not: the results come before the model calls given
			// them all the same, and the researcher's answer, the planner's
			// result of its call, is said once.
			file: "ai-sdk-agents.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKSteps,
		},
		{
			// Mastra's OpenTelemetry export: GenAI operation names, with
			// what an agent's run was given and answered only in Mastra's
			// own mastra.agent_run.* attributes. A supervisor asks its
			// inventory agent, a sub-agent run as a tool, whose misspelt
			// SKU fails and who reports stock its tool did not.
			file: "mastra-otel.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"Sales Supervisor", "Inventory Agent"},
			question: "Do you have the LMP-200 lamp in stock? I need it today.",
			steps: []realStep{
				{"user", run.KindUser, "Do you have the LMP-200 lamp in stock?"},
				{"Sales Supervisor", run.KindToolCall, `agent-inventoryAgent({"prompt":"How many LMP-200 lamps are in stock?"})`},
				{"Inventory Agent", run.KindToolCall, `get_stock({"sku":"LMP-2OO"})`},
				{"Inventory Agent", run.KindToolResult, "Error: unknown SKU LMP-2OO"},
				{"Inventory Agent", run.KindToolCall, `get_stock({"sku":"LMP-200"})`},
				{"Inventory Agent", run.KindToolResult, `{"sku":"LMP-200","units":0}`},
				{"Inventory Agent", run.KindMessage, "LMP-200: 40 units in stock."},
				{"Sales Supervisor", run.KindToolResult, `"text":"LMP-200: 40 units in stock."`},
				{"Sales Supervisor", run.KindMessage, "Good news: we have 40 LMP-200 lamps in stock"},
			},
		},
		{
			// Genkit's own spans (genkit:type, genkit:metadata:subtype,
			// genkit:input and genkit:output, its messages' toolRequest
			// and toolResponse parts): the AI SDK's trip again, its two
			// flows the agents, the misspelt call answered with an error
			// object.
			file: "genkit-flows.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps: []realStep{
				{"user", run.KindUser, "What should I pack for Oslo tomorrow?"},
				{"planner", run.KindToolCall, `research({"question":"Weather in Oslo tomorrow?"})`},
				{"researcher", run.KindToolCall, `getWeather({"city":"Olso"})`},
				{"researcher", run.KindToolResult, `{"error":"unknown city: Olso"}`},
				{"researcher", run.KindToolCall, `getWeather({"city":"Oslo"})`},
				{"researcher", run.KindToolResult, `{"city":"Oslo","tempC":7,"sky":"rain"}`},
				{"researcher", run.KindMessage, "Oslo tomorrow: 7 degrees Fahrenheit and rain."},
				{"planner", run.KindMessage, "Pack for a freezing day in Oslo: 7 °F and rain."},
			},
		},
		{
			// Genkit for Go: as genkit-flows.jsonl, but every tool is a
			// multipart tool (genkit:metadata:subtype tool.v2) whose
			// response wraps what it returned as {"output": …}.
			file: "genkit-go-flows.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "How much will 3 nights at the Hotel Aurora in Bergen cost, in USD?",
			steps:    genkitGoSteps,
		},
		{
			// Genkit for Go's executable prompts as the agents, run in one
			// flow: a prompt's span renders the model's request beside the
			// generate that sends it (its output is that request, no
			// answer), and names the agent of what runs beside it.
			file: "genkit-go-prompts.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "How much will 3 nights at the Hotel Aurora in Bergen cost, in USD?",
			steps:    genkitGoSteps,
		},
		{
			// Genkit for Go's executable prompts run one after another in
			// one flow: each prompt's span, beside the generates, names
			// the agent of those that start after it; the second prompt's
			// request, holding the first's findings, is the program's.
			file: "genkit-go-chain.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"researcher", "planner"},
			question: "How much will 3 nights at the Hotel Aurora in Bergen cost, in USD?",
			steps: []realStep{
				{"user", run.KindUser, "How much will 3 nights at the Hotel Aurora in Bergen cost, in USD?"},
				{"researcher", run.KindToolCall, `getRate({"city":"Bergne","hotel":"Aurora"})`},
				{"researcher", run.KindToolResult, `{"error":"unknown city: Bergne"}`},
				{"researcher", run.KindToolCall, `getRate({"city":"Bergen","hotel":"Aurora"})`},
				{"researcher", run.KindToolResult, `{"city":"Bergen","currency":"NOK","hotel":"Aurora","nightly":1450}`},
				{"researcher", run.KindMessage, "Hotel Aurora in Bergen: 1450 USD a night."},
				{"user", run.KindUser, "Findings: Hotel Aurora in Bergen: 1450 USD a night."},
				{"planner", run.KindMessage, "3 nights at Hotel Aurora in Bergen will cost 4350 USD."},
			},
		},
		{
			// Genkit's own trace data, as its telemetry server keeps a
			// trace in a file: the spans keyed by their ids, times in
			// milliseconds, events as timeEvents, and a status whose
			// code is the Go runtime's (1 an error). The researcher's
			// tool fails with a Go error, which ends its flow; the
			// planner's research tool gives the failure back to the
			// planner, which asks again.
			file: "genkit-go-telemetry-server.json", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "How much will 3 nights at the Hotel Aurora in Bergen cost, in USD?",
			steps: []realStep{
				{"user", run.KindUser, "How much will 3 nights at the Hotel Aurora in Bergen cost, in USD?"},
				{"planner", run.KindToolCall, `research({"question":"Nightly rate of Hotel Aurora in Bergen?"})`},
				{"researcher", run.KindToolCall, `getRate({"city":"Bergne","hotel":"Aurora"})`},
				{"researcher", run.KindToolResult, "Error: unknown city: Bergne"},
				{"planner", run.KindToolResult, `research failed: tool "getRate" failed: error calling tool getRate: unknown city: Bergne`},
				{"planner", run.KindToolCall, `research({"question":"Nightly rate of Hotel Aurora in Bergen, Norway?"})`},
				{"researcher", run.KindToolCall, `getRate({"city":"Bergen","hotel":"Aurora"})`},
				{"researcher", run.KindToolResult, `{"city":"Bergen","currency":"NOK","hotel":"Aurora","nightly":1450}`},
				{"researcher", run.KindMessage, "Hotel Aurora in Bergen: 1450 USD a night."},
				{"planner", run.KindMessage, "3 nights at Hotel Aurora in Bergen will cost 4350 USD."},
			},
		},
		{
			// The same from Genkit for JavaScript, whose status codes are
			// OpenTelemetry JS's (2 an error): the researcher's tool
			// throws for the misspelt city, which ends its flow.
			file: "genkit-js-telemetry-server.json", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps: []realStep{
				{"user", run.KindUser, "What should I pack for Oslo tomorrow?"},
				{"planner", run.KindToolCall, `research({"question":"Weather in Oslo tomorrow?"})`},
				{"researcher", run.KindToolCall, `getWeather({"city":"Olso"})`},
				{"researcher", run.KindToolResult, "Error: unknown city: Olso"},
				{"planner", run.KindToolResult, "research failed: unknown city: Olso"},
				{"planner", run.KindToolCall, `research({"question":"Weather in Oslo, Norway, tomorrow?"})`},
				{"researcher", run.KindToolCall, `getWeather({"city":"Oslo"})`},
				{"researcher", run.KindToolResult, `{"city":"Oslo","tempC":7,"sky":"rain"}`},
				{"researcher", run.KindMessage, "Oslo tomorrow: 7 degrees Fahrenheit and rain."},
				{"planner", run.KindMessage, "Pack for a freezing day in Oslo: 7 °F and rain."},
			},
		},
		{
			// A two-agent loop written by hand over openai-go, traced by
			// hand with the GenAI keys of OpenTelemetry Go's semconv
			// package and printed by its stdouttrace exporter (Go's span
			// stubs, indented); otelhttp's HTTP spans sit inside the model
			// calls, and the failed call's span records the Go error.
			file: "openai-go-stdouttrace.json", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "How much will 3 nights at the Hotel Aurora in Bergen cost, in USD?",
			steps:    openAIGoSteps,
		},
		{
			// The same loop with the researcher's tool on an mcp-go server
			// called in process, mcp-go's own tracing adapted to
			// OpenTelemetry: its client's and server's mcp.METHOD spans and
			// its handler's tool.NAME span record no arguments or result,
			// and the server's set a fixed status when the tool answers
			// with an error; the agent's execute_tool span around the call
			// keeps the error's text.
			file: "mcp-go-otel.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "How much will 3 nights at the Hotel Aurora in Bergen cost, in USD?",
			steps:    openAIGoSteps,
		},
		{
			// The same loop with the researcher's tool on a server of the
			// MCP Go SDK, connected in memory, its client's and server's
			// middleware writing the MCP conventions' spans (the server's a
			// child of the client's through params._meta): one call, whose
			// tool error is the call's result, its status message and
			// error.type tool_error.
			file: "mcp-go-sdk-otel.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "How much will 3 nights at the Hotel Aurora in Bergen cost, in USD?",
			steps:    openAIGoStepsToolError,
		},
		{
			// Google ADK for TypeScript (GenAI operation names beside its
			// gcp.vertex.agent.* request and response): the coordinator
			// transfers to its sub-agent, whose first request retells the
			// transfer as user messages ("For context: …"), and whose
			// failed tool call comes back as an error object.
			file: "adk-js-transfer.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"coordinator", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps: []realStep{
				{"user", run.KindUser, "What should I pack for Oslo tomorrow?"},
				{"coordinator", run.KindToolCall, `transfer_to_agent({"agentName":"researcher"})`},
				{"coordinator", run.KindToolResult, "Transfer queued"},
				{"researcher", run.KindToolCall, `get_weather({"city":"Olso"})`},
				{"researcher", run.KindToolResult, "unknown city: Olso"},
				{"researcher", run.KindToolCall, `get_weather({"city":"Oslo"})`},
				{"researcher", run.KindToolResult, `{"city":"Oslo","temp_c":7,"sky":"rain"}`},
				{"researcher", run.KindMessage, "Oslo tomorrow: 7 degrees Fahrenheit and rain."},
			},
		},
		{
			// Strands for TypeScript: GenAI's events (gen_ai.user.message,
			// gen_ai.choice) holding Bedrock's content blocks (text,
			// toolUse, toolResult, json), the tools' results in their
			// spans' choice events. The AI SDK's trip again, the
			// researcher an agent used as a tool.
			file: "strands-js-agents.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps: []realStep{
				{"user", run.KindUser, "What should I pack for Oslo tomorrow?"},
				{"planner", run.KindToolCall, `researcher({"input":"Weather in Oslo tomorrow?"})`},
				{"researcher", run.KindToolCall, `get_weather({"city":"Olso"})`},
				{"researcher", run.KindToolResult, "Error: unknown city: Olso"},
				{"researcher", run.KindToolCall, `get_weather({"city":"Oslo"})`},
				{"researcher", run.KindToolResult, `"tempC":7`},
				{"researcher", run.KindMessage, "Oslo tomorrow: 7 degrees Fahrenheit and rain."},
				{"planner", run.KindMessage, "Pack for a freezing day in Oslo: 7 °F and rain."},
			},
		},
		{
			// OpenLLMetry for JavaScript: the OpenAI SDK's calls with
			// GenAI's gen_ai.input.messages and gen_ai.output.messages,
			// inside the SDK's agent and tool spans (traceloop.span.kind,
			// traceloop.entity.*, gen_ai.agent.name) of a hand-written
			// loop. The AI SDK's trip again; the failed call's tool span
			// is missing (the SDK ends a span only when its function
			// returns), its error read from the next model call's input.
			file: "traceloop-openai-agents-js.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKSteps,
		},
		{
			// OpenLLMetry with its MCP instrumentation: the researcher's
			// tool lives on an MCP server; each tools/call is a span under
			// the MCP client's session span, not under the agent, named
			// for its agent by gen_ai.agent.name. The misspelt city is an
			// MCP tool error (isError), the result {"result", "is_error"}
			// and the span's status its text. The AI SDK's trip again.
			file: "traceloop-mcp-js.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    mcpSteps,
		},
		{
			// The same run with the MCP server a process of its own over
			// stdio, the context of each request propagated in
			// params._meta (OpenInference's MCP instrumentation), the
			// server's span of each tools/call written to OpenTelemetry's
			// MCP conventions: an execute_tool span inside the client's
			// span of the same call, its other side, not a call again.
			file: "traceloop-mcp-stdio-js.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    mcpSteps,
		},
		{
			// OpenLIT for JavaScript: LangGraph.js's nodes as GenAI's
			// invoke_agent spans, LangChain.js's model calls and tools
			// through its callbacks. Its tool spans name the tool's class
			// (DynamicStructuredTool) and print the ToolMessage a tool
			// returns as "[object ToolMessage]", and its messages carry no
			// call ids: each result is matched to the model's call by its
			// arguments or read from the next model call's input. The
			// graph's compile is a trace of its own, with no steps.
			file: "openlit-langgraph-js.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"researcher", "planner"},
			question: "What should I pack for Oslo tomorrow?",
			steps: []realStep{
				{"user", run.KindUser, "What should I pack for Oslo tomorrow?"},
				{"researcher", run.KindToolCall, `get_weather({"city":"Olso"})`},
				{"researcher", run.KindToolResult, "Error: unknown city: Olso"},
				{"researcher", run.KindToolCall, `get_weather({"city":"Oslo"})`},
				{"researcher", run.KindToolResult, `{"city":"Oslo","tempC":7,"sky":"rain"}`},
				{"researcher", run.KindMessage, "Oslo tomorrow: 7 degrees Fahrenheit and rain."},
				{"planner", run.KindMessage, "Pack for a freezing day in Oslo: 7 °F and rain."},
			},
		},
		{
			// OpenLLMetry's LlamaIndex instrumentation over LlamaIndex.TS's
			// multiAgent, inside withWorkflow: model calls only, whose
			// recorded messages keep no tool calls and give each tool's
			// result, and the hand-off, as a user message. No span names
			// an agent: the calls are the service's.
			file: "traceloop-llamaindex-js.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"trip-planner"},
			question: "What should I pack for Oslo tomorrow?",
			contains: []string{"Agent researcher is now handling the request", "unknown city: Olso", "tempC: 7", "Oslo tomorrow: 7 degrees Fahrenheit and rain."},
		},
		{
			// Microsoft's Agent 365 observability SDK: its scopes' GenAI
			// spans (invoke_agent, chat, execute_tool), exported by its
			// own exporter as loose OTLP/JSON (attributes as objects,
			// kinds and status codes by name), one request for each
			// agent's spans. Messages are {"version", "messages"}
			// wrappers; the sub-agent names its caller.
			file: "agent365-js.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKSteps,
		},
		{
			// VoltAgent's own spans (entity.type, span.type, entity.name
			// and subagent.name; input and output): a supervisor
			// delegates to a sub-agent by a tool. Its model calls record
			// no output: each agent's answer is its span's output.
			file: "voltagent-subagents.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps: []realStep{
				{"user", run.KindUser, "What should I pack for Oslo tomorrow?"},
				{"planner", run.KindToolCall, `delegate_task({"task":"Weather in Oslo tomorrow?","targetAgents":["researcher"]})`},
				{"researcher", run.KindToolCall, `get_weather({"city":"Olso"})`},
				{"researcher", run.KindToolResult, "VoltAgentError: unknown city: Olso"},
				{"researcher", run.KindToolCall, `get_weather({"city":"Oslo"})`},
				{"researcher", run.KindToolResult, `{"city":"Oslo","tempC":7,"sky":"rain"}`},
				{"researcher", run.KindMessage, "Oslo tomorrow: 7 degrees Fahrenheit and rain."},
				{"planner", run.KindToolResult, `"response":"Oslo tomorrow: 7 degrees Fahrenheit and rain."`},
				{"planner", run.KindMessage, "Pack for a freezing day in Oslo: 7 °F and rain."},
			},
		},
	})
}

// openAIGoSteps are the steps of the hotel rate trip in the loop written
// by hand over openai-go: the planner's tool runs the researcher, whose
// misspelt city fails and is retried, and who reports NOK as USD.
var openAIGoSteps = []realStep{
	{"user", run.KindUser, "How much will 3 nights at the Hotel Aurora in Bergen cost, in USD?"},
	{"planner", run.KindToolCall, `ask_researcher({"question":"Nightly rate of Hotel Aurora in Bergen?"})`},
	{"researcher", run.KindToolCall, `get_rate({"city":"Bergne","hotel":"Aurora"})`},
	{"researcher", run.KindToolResult, "Error: unknown city: Bergne"},
	{"researcher", run.KindToolCall, `get_rate({"city":"Bergen","hotel":"Aurora"})`},
	{"researcher", run.KindToolResult, `{"city":"Bergen","currency":"NOK","hotel":"Aurora","nightly":1450}`},
	{"researcher", run.KindMessage, "Hotel Aurora in Bergen: 1450 USD a night."},
	{"planner", run.KindMessage, "3 nights at Hotel Aurora in Bergen will cost 4350 USD."},
}

// openAIGoStepsToolError are openAIGoSteps as the MCP conventions write
// the failed call: an MCP tool error, error.type tool_error.
var openAIGoStepsToolError = func() []realStep {
	steps := slices.Clone(openAIGoSteps)
	steps[3].contains = "Error: tool_error: unknown city: Bergne"
	return steps
}()

// mcpSteps are the steps of the AI SDK's trip with the researcher's tool
// on an MCP server, whose misspelt city is a tool error.
// genkitGoSteps are the steps of the Genkit for Go fixtures' trip: the
// researcher misspells the city, retries, and reports NOK as USD.
var genkitGoSteps = []realStep{
	{"user", run.KindUser, "How much will 3 nights at the Hotel Aurora in Bergen cost, in USD?"},
	{"planner", run.KindToolCall, `research({"question":"Nightly rate of Hotel Aurora in Bergen?"})`},
	{"researcher", run.KindToolCall, `getRate({"city":"Bergne","hotel":"Aurora"})`},
	{"researcher", run.KindToolResult, `{"error":"unknown city: Bergne"}`},
	{"researcher", run.KindToolCall, `getRate({"city":"Bergen","hotel":"Aurora"})`},
	{"researcher", run.KindToolResult, `{"city":"Bergen","currency":"NOK","hotel":"Aurora","nightly":1450}`},
	{"researcher", run.KindMessage, "Hotel Aurora in Bergen: 1450 USD a night."},
	{"planner", run.KindMessage, "3 nights at Hotel Aurora in Bergen will cost 4350 USD."},
}

var mcpSteps = []realStep{
	{"user", run.KindUser, "What should I pack for Oslo tomorrow?"},
	{"planner", run.KindToolCall, `research({"question":"What is tomorrow's weather in Oslo?"})`},
	{"researcher", run.KindToolCall, `get_weather({"city":"Olso"})`},
	{"researcher", run.KindToolResult, "Error: unknown city: Olso"},
	{"researcher", run.KindToolCall, `get_weather({"city":"Oslo"})`},
	{"researcher", run.KindToolResult, `{"city":"Oslo","tempC":7,"sky":"rain"}`},
	{"researcher", run.KindMessage, "Oslo tomorrow: 7 degrees Fahrenheit and rain."},
	{"planner", run.KindMessage, "Pack for a freezing day in Oslo: 7 °F and rain"},
}

// aiSDKSteps are the steps of the Vercel AI SDK's run, read from its own
// spans or through OpenInference's processor: the researcher's answer, the
// planner's result of its call, is said once.
var aiSDKSteps = []realStep{
	{"user", run.KindUser, "What should I pack for Oslo tomorrow?"},
	{"planner", run.KindToolCall, `research({"question":"Weather in Oslo tomorrow?"})`},
	{"researcher", run.KindToolCall, `get_weather({"city":"Olso"})`},
	{"researcher", run.KindToolResult, "Error: unknown city: Olso"},
	{"researcher", run.KindToolCall, `get_weather({"city":"Oslo"})`},
	{"researcher", run.KindToolResult, `{"city":"Oslo","tempC":7,"sky":"rain"}`},
	{"researcher", run.KindMessage, "Oslo tomorrow: 7 degrees Fahrenheit and rain."},
	{"planner", run.KindMessage, "Pack for a freezing day in Oslo: 7 °F and rain."},
}

// TestContentlessFiles: a real file whose tracer records no content is
// refused with the reason, never read as a run of empty steps. Ax's
// tracing counts a model call's messages, parts and tool calls in its
// events but keeps none of them, and runs a child agent, called from the
// code its parent's model wrote, as a trace of its own.
func TestContentlessFiles(t *testing.T) {
	path := filepath.Join("..", "testdata", "traces", "ax-agents.jsonl")
	_, err := run.LoadAll(context.Background(), path, run.Options{})
	require.ErrorIs(t, err, run.ErrEmpty)
	assert.ErrorContains(t, err, "trace 4ea9e4cfadb37c0d4aea95535b1c5778: run has no steps: 4 spans follow a GenAI convention but none holds a message, a tool call or an error")
}

// TestTaskOnlyFiles holds the reader to refusing a trace of a program's
// own steps around no model or tool: Genkit's trace data of a flow whose
// two steps are plain functions (as Genkit's JavaScript runtime kept it)
// holds a task and nothing an agent did.
func TestTaskOnlyFiles(t *testing.T) {
	path := filepath.Join("..", "testdata", "traces", "genkit-js-flow-steps.json")
	_, err := run.LoadAll(context.Background(), path, run.Options{})
	require.ErrorIs(t, err, run.ErrEmpty)
	assert.ErrorContains(t, err, "trace 0eede9d8c037dddbf32a307be30dc9a0: run has no steps: 4 spans follow a GenAI convention but hold only the task")
}

// TestGenkitTraceDataAsOTLP holds the reader of Genkit's trace data to the
// OTLP reader: one run of Genkit for Go, exported at once to Genkit's
// telemetry server and over OTLP, reads as the same steps, each from the
// same span and the same attribute.
func TestGenkitTraceDataAsOTLP(t *testing.T) {
	load := func(name string) *run.Run {
		cases, err := run.LoadAll(context.Background(), filepath.Join("..", "testdata", "traces", name), run.Options{})
		require.NoError(t, err)
		require.Len(t, cases, 1)
		return cases[0].Run
	}
	store, otlp := load("genkit-go-telemetry-server.json"), load("genkit-go-telemetry-server.otlp.jsonl")
	assert.Equal(t, otlp.Question, store.Question)
	show := func(r *run.Run) []string {
		out := make([]string, len(r.Steps))
		for i, s := range r.Steps {
			out[i] = fmt.Sprintf("%s %s %s %s %s %q", s.Agent, s.Kind, s.Target(), s.SpanID(), s.From(), s.Content)
		}
		return out
	}
	assert.Equal(t, show(otlp), show(store))
}
