package run_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/offattr/offattr/run"
)

// TestTracerFiles reads the records LLM tracing tools' own SDKs send:
// LangSmith's runs, Opik's spans, Weave's calls, Laminar's and LangWatch's
// spans, Langtrace's spans, Lunary's run events, Literal AI's steps,
// PostHog's LLM analytics events, Sentry's envelopes, Datadog's span
// events, Maxim's commit logs, Galileo's traces, HoneyHive's and Keywords AI's
// spans, Mastra's span records, Logfire's OpenAI Agents spans.
func TestTracerFiles(t *testing.T) {
	checkRealFiles(t, []realFile{
		{
			// LangSmith's JavaScript SDK: traceable functions as the
			// agents (chain runs named for them) and tools, the OpenAI
			// client wrapped (llm runs holding its requests and chat
			// completions). A function's result is {"outputs": …}. The
			// AI SDK's trip again, in a loop written by hand.
			file: "langsmith-traceable-js.jsonl", format: run.FormatLangSmith, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKStepsSortedKeys,
		},
		{
			// Opik's JavaScript SDK: track() around each agent (a general
			// span) and tool, opik-openai's trackOpenAI nesting each model
			// call (typed general too) in its agent's span. Arguments are
			// {"arguments": […]}, results {"result": …}, the error
			// error_info.
			file: "opik-track-js.json", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKStepsSortedKeys,
		},
		{
			// W&B Weave's JavaScript SDK: weave.op around each agent and
			// tool, wrapOpenAI around the client; the calls as its trace
			// server lists them. No op says it is an agent or a tool: the
			// model calls inside one, and the calls they make, do.
			file: "weave-ops-js.jsonl", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKStepsSortedKeys,
		},
		{
			// Laminar's SDK over OTLP/HTTP protobuf: observe() around
			// each agent (a span of no type) and tool (TOOL), its OpenAI
			// instrumentation's GenAI chat spans; a function's arguments
			// are a JSON list.
			file: "laminar-observe-js.pb", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKSteps,
		},
		{
			// LangWatch's TypeScript SDK over OTLP/HTTP JSON: its tracer's
			// spans typed agent, llm and tool by langwatch.span.type,
			// their input and output {"type", "value"}.
			file: "langwatch-js.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKSteps,
		},
		{
			// Lunary's JavaScript SDK: wrapAgent and wrapTool around the
			// agents and tools, monitorOpenAI around the client; a run's
			// start and end are events of their own.
			file: "lunary-js.jsonl", format: run.FormatLunary, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKStepsSortedKeys,
		},
		{
			// Literal AI's TypeScript SDK: a run step around each agent, a
			// tool step around each tool, its OpenAI instrumentation's
			// llm steps. A tool that throws sends no step: its error is
			// in the next model call's input.
			file: "literalai-js.jsonl", format: run.FormatLiteralAI, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKStepsSortedKeys,
		},
		{
			// PostHog's LLM analytics: each agent and tool an $ai_span
			// captured by hand, as PostHog documents it, @posthog/ai's
			// OpenAI client making each model call an $ai_generation
			// under its agent's span; times of milliseconds.
			file: "posthog-ai-js.jsonl", format: run.FormatPostHog, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKStepsSortedKeys,
		},
		{
			// Mastra's LangSmith exporter: its agents, steps, inferences
			// and chunks all chain runs, a generation an llm run holding
			// all its steps' text and calls; each run's metadata keeps
			// Mastra's type as mastra_span_type. A failed tool's outputs
			// are only its end time.
			file: "mastra-langsmith.jsonl", format: run.FormatLangSmith, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    mastraStepsSortedKeys,
		},
		{
			// Mastra's Braintrust exporter: its agents, steps, inferences
			// and chunks all task spans, a generation an llm span holding
			// all its steps' messages; each span's metadata keeps
			// Mastra's type as spanType.
			file: "mastra-braintrust.jsonl", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    mastraSteps,
		},
		{
			// Mastra's PostHog exporter: every span an untyped $ai_span
			// named as Mastra names it ("agent run: 'planner'", "tool:
			// 'get_weather'", "step: 0"), a generation an $ai_generation
			// named by its $ai_generation_id, the root agent's run the
			// trace's record; a failed tool's message is its
			// error_message.
			file: "mastra-posthog.jsonl", format: run.FormatPostHog, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps: func() []realStep {
				steps := slices.Clone(mastraStepsSortedKeys)
				steps[7].contains = `"text":"Oslo tomorrow: 7 degrees Fahrenheit and rain."`
				return steps
			}(),
		},
		{
			// PostHog's tracing processor for the OpenAI Agents SDK: the
			// SDK's agent and function spans as $ai_span typed by
			// $ai_span_type, its generations as $ai_generation. The
			// researcher is the planner's tool (asTool); the SDK gives
			// the model the failed tool's error as its result.
			file: "posthog-openai-agents-js.jsonl", format: run.FormatPostHog, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps: []realStep{
				{"user", run.KindUser, "What should I pack for Oslo tomorrow?"},
				{"planner", run.KindToolCall, `research({"input":"Weather in Oslo tomorrow?"})`},
				{"researcher", run.KindToolCall, `get_weather({"city":"Olso"})`},
				{"researcher", run.KindToolResult, "An error occurred while running the tool. Please try again. Error: Error: unknown city: Olso"},
				{"researcher", run.KindToolCall, `get_weather({"city":"Oslo"})`},
				{"researcher", run.KindToolResult, `{"city":"Oslo","tempC":7,"sky":"rain"}`},
				{"researcher", run.KindMessage, "Oslo tomorrow: 7 degrees Fahrenheit and rain."},
				{"planner", run.KindMessage, "Pack for a freezing day in Oslo: 7 °F and rain."},
			},
		},
		{
			// Sentry's Node SDK streaming its spans (the default): span
			// containers of typed attributes, its OpenAI integration's
			// chat spans and the agents' and tools' spans as its AI agent
			// monitoring documents them. A failed span keeps only its
			// status: the error is the event captured in it.
			file: "sentry-node-spans.jsonl", format: run.FormatSentry, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKSteps,
		},
		{
			// The same SDK sending a transaction: its HTTP spans in the
			// transaction event, its AI spans in a span container beside
			// it.
			file: "sentry-node-transaction.jsonl", format: run.FormatSentry, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKSteps,
		},
		{
			// Sentry's Vercel AI integration over two AI SDK agents: the
			// SDK's spans rewritten as GenAI's (invoke_agent named by the
			// telemetry's functionId), a tool's result the SDK's part
			// for it, its error captured as an event.
			file: "sentry-ai-sdk.jsonl", format: run.FormatSentry, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKSteps,
		},
		{
			// Langtrace's TypeScript SDK: its exporter posts OpenTelemetry
			// JS's spans as they are (HrTime times, plain attributes), a
			// list a request. withLangTraceRootSpan around each agent and
			// tool makes a span of no type; its OpenAI instrumentation's
			// chat spans hold the messages in events, a tool's result
			// only in the next call's input, and a reply's calls as the
			// JSON list the model's message holds, the calls' text as
			// written.
			file: "langtrace-js.jsonl", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    writtenCallSteps(aiSDKSteps),
		},
		{
			// Maxim's commit logs, as its logger posts them: a trace, a
			// span for each agent, a generation for each model call and
			// a tool call for each call, logged by hand as its docs show.
			// A tool call holds nothing: the researcher's span is the
			// planner's, beside the research call that ran it.
			file: "maxim-js.log", format: run.FormatMaxim, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKStepsSortedKeys,
		},
		{
			// Galileo's traces, as its SDK posts them: log() around each
			// agent (agent) and tool (tool), wrapOpenAI's llm spans whose
			// reply is a JSON list of messages. A tool that throws logs
			// no span, and a tool's span holds nothing: the researcher's
			// span sits beside the research tool's, before it.
			file: "galileo-js.jsonl", format: run.FormatGalileo, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKStepsSortedKeys,
		},
		{
			// HoneyHive's tracer over OTLP/HTTP protobuf (OpenLLMetry
			// underneath): traceChain around each agent, traceTool around
			// each tool (honeyhive_event_type), their arguments and
			// results flattened into attributes a leaf; OpenLLMetry's
			// OpenAI spans, whose prompts keep no call ids.
			file: "honeyhive-js.pb", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKStepsSortedKeys,
		},
		{
			// Keywords AI's tracing over OTLP/HTTP protobuf: OpenLLMetry's
			// withWorkflow, withAgent and withTool spans, which its span
			// processor sends as roots of the trace (no parent), and the
			// OpenAI spans inside them, which keep theirs.
			file: "keywordsai-js.pb", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKSteps,
		},
		{
			// Mastra's own span records, as its DefaultExporter keeps them
			// in its storage and its API and Studio give a trace
			// ({"traceId", "spans"}): spanType says what each is,
			// entityName names the agent or tool, a generation's steps
			// are its model calls ({"text", "toolCalls"}). A supervisor
			// with the researcher as a sub-agent, run as a tool, whose
			// result keeps the sub-agent's thread.
			file: "mastra-storage-trace.json", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    mastraStepsSortedKeys,
		},
		{
			// Datadog LLM Observability's span events, as dd-trace posts
			// them: llmobs.wrap's agent and tool spans, its OpenAI
			// integration's llm spans. A model call's input keeps no
			// calls and no call ids.
			file: "datadog-llmobs-js.jsonl", format: run.FormatDatadog, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKSteps,
		},
		{
			// Logfire's OpenAI Agents instrumentation over OTLP/JSON:
			// each span named by its message template ("Agent run:
			// {name!r}", "Function: {name}", "Handoff: {from_agent} →
			// {to_agent}", "Responses API with …"), the SDK's span data
			// as its attributes without its type, a response span's
			// input items as raw_input and the response as response.
			file: "logfire-openai-agents.json", format: run.FormatOTLP, runs: 1,
			agents:   []string{"triage_agent", "weather_agent"},
			question: "Will it rain in Oslo tomorrow?",
			steps: []realStep{
				{"user", run.KindUser, "Will it rain in Oslo tomorrow?"},
				{"triage_agent", run.KindToolCall, "transfer_to_weather_agent({})"},
				{"triage_agent", run.KindHandoff, "Hands off to weather_agent"},
				{"weather_agent", run.KindToolResult, `{"assistant": "weather_agent"}`},
				{"weather_agent", run.KindToolCall, `get_forecast({"city": "Oslo", "day": "tomorrow"})`},
				{"weather_agent", run.KindToolResult, `"rain_mm": 4.2`},
				{"weather_agent", run.KindMessage, "Oslo expects 4.2 mm of rain tomorrow"},
			},
		},
	})
}

// aiSDKStepsSortedKeys are aiSDKSteps as SDKs that write a tool's result
// with its keys sorted give them.
var aiSDKStepsSortedKeys = func() []realStep {
	steps := slices.Clone(aiSDKSteps)
	steps[5].contains = `{"city":"Oslo","sky":"rain","tempC":7}`
	return steps
}()

// mastraSteps are the steps of a Mastra supervisor's trip, its researcher
// a sub-agent run as a tool: each model call once (a generation's step,
// not the generation around it nor the chunks inside it), and the
// sub-agent's result, which keeps its thread, as the planner's result of
// its call.
var mastraSteps = []realStep{
	{"user", run.KindUser, "What should I pack for Oslo tomorrow?"},
	{"planner", run.KindToolCall, `agent-researcher({"prompt":"Weather in Oslo tomorrow?"})`},
	{"researcher", run.KindToolCall, `get_weather({"city":"Olso"})`},
	{"researcher", run.KindToolResult, "Error: unknown city: Olso"},
	{"researcher", run.KindToolCall, `get_weather({"city":"Oslo"})`},
	{"researcher", run.KindToolResult, `{"city":"Oslo","tempC":7,"sky":"rain"}`},
	{"researcher", run.KindMessage, "Oslo tomorrow: 7 degrees Fahrenheit and rain."},
	{"planner", run.KindToolResult, `"text":"Oslo tomorrow: 7 degrees Fahrenheit and rain."`},
	{"planner", run.KindMessage, "Pack for a freezing day in Oslo: 7 °F and rain."},
}

// mastraStepsSortedKeys are mastraSteps as Mastra's span records give a
// tool's result, its keys sorted.
var mastraStepsSortedKeys = func() []realStep {
	steps := slices.Clone(mastraSteps)
	steps[5].contains = `{"city":"Oslo","sky":"rain","tempC":7}`
	return steps
}()

// writtenCallSteps is steps with each call's text as a reply's content
// writes it in OpenAI's JSON list of calls: name(arguments) as
// "name":"NAME","arguments":"ARGUMENTS", the arguments a JSON string.
func writtenCallSteps(steps []realStep) []realStep {
	out := slices.Clone(steps)
	for i, s := range out {
		if s.kind != run.KindToolCall {
			continue
		}
		name, args, _ := strings.Cut(strings.TrimSuffix(s.contains, ")"), "(")
		quoted, _ := json.Marshal(args)
		out[i].contains = `"name":"` + name + `","arguments":` + string(quoted)
	}
	return out
}
