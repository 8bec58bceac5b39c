package run_test

import (
	"testing"

	"github.com/offattr/offattr/run"
)

// TestOpenInferenceFiles reads cuts of real files that follow OpenInference's spans, files no convention names whose messages are found by their shape, and other flat span lists (the OpenAI Agents SDK's own export, span_data and all).
func TestOpenInferenceFiles(t *testing.T) {
	checkRealFiles(t, []realFile{
		{
			file: "trail-smolagents.json", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"CodeAgent", "search_agent", "gaia-annotation-samples/app:GAIA-Samples"}, // the sub-agent by the name its manager declares
			question: "(the GAIA question, withheld: GAIA asks that its questions not be reposted)",
			contains: []string{
				"TypeError: PageDownTool.forward() got an unexpected keyword argument ''",
				"Execution logs:", // the manager's code ran with no tool span: its iteration's output
				"FINAL ANSWER: Louvrier",
			},
		},
		{
			file: "adot-claude.json", format: run.FormatOpenInference, runs: 1,
			question: "What is 42 * 7, and how many miles is that in kilometers?",
			contains: []string{`echo $((42 * 7))`},
		},
		{
			file: "adot-openinference.json", format: run.FormatOpenInference, runs: 2,
			contains: []string{"The weather in Alaska is -5C and snowy."},
		},
		{
			// A triage agent hands off to billing, whose currency tool
			// fails and whose FX expert, an agent used as a tool, answers
			// wrongly.
			file: "openai-agents-js.jsonl", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"Triage agent", "Billing agent", "FX expert"},
			question: "What is the total of order 1042 in EUR?",
			steps:    openAIAgentsSteps,
		},
		{
			// LangGraph.js through OpenInference's LangChain.js
			// instrumentation: two ReAct agents as the nodes of a graph,
			// named only by the langgraph_node of each span's metadata;
			// each runs a subgraph whose model and tools nodes are its
			// steps. A flight search times out and is retried; the
			// analyst converts the price and then reports it unconverted.
			file: "langgraph-js-openinference.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"researcher", "analyst"},
			question: "Find the cheapest flight from Oslo to Berlin on 1 December and give its price in EUR.",
			steps: []realStep{
				{"user", run.KindUser, "Find the cheapest flight from Oslo to Berlin on 1 December"},
				{"researcher", run.KindToolCall, `search_flights({"from":"OSL","to":"BER","date":"2026-12-01"})`},
				{"researcher", run.KindToolResult, "Error: flight API timeout after 30s"},
				{"researcher", run.KindToolCall, `"retry":true`},
				{"researcher", run.KindToolResult, `[{"flight":"SK4241","price":890,"currency":"NOK"}]`},
				{"researcher", run.KindMessage, "Cheapest flight OSL-BER on 2026-12-01: SK4241 at 890 NOK."},
				{"analyst", run.KindToolCall, `convert({"amount":890,"from":"NOK","to":"EUR"})`},
				{"analyst", run.KindToolResult, `{"amount":75.65,"currency":"EUR"}`},
				{"analyst", run.KindMessage, "The cheapest flight costs 890 EUR."},
			},
		},
		{
			// The same Vercel AI SDK run through OpenInference's span
			// processor for it (@arizeai/openinference-vercel 2.8.1 on
			// OpenTelemetry JS 2), which writes each call's arguments as
			// JSON text twice over and copies the trace's first error
			// onto the status of every span that ends after it: the
			// error is the failed call's alone.
			file: "ai-sdk-openinference.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKSteps,
		},
		{
			// LangGraph.js's supervisor (@langchain/langgraph-supervisor)
			// through OpenInference: the supervisor hands off by a tool
			// that returns a Command, which the graph raises as
			// ParentCommand (a JavaScript error whose message is its
			// stack); the math expert's buggy tool multiplies wrongly
			// and its answer is passed on.
			file: "langgraph-js-supervisor.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"supervisor", "math_expert"},
			question: "What do 56 units at 1234 EUR each cost in total?",
			steps: []realStep{
				{"user", run.KindUser, "What do 56 units at 1234 EUR each cost in total?"},
				{"supervisor", run.KindToolCall, "transfer_to_math_expert({})"},
				{"supervisor", run.KindToolResult, "Successfully transferred to math_expert"},
				{"supervisor", run.KindHandoff, "Hands off control: ParentCommand"},
				{"math_expert", run.KindToolCall, `multiply({"a":1234,"b":56})`},
				{"math_expert", run.KindToolResult, "69004"},
				{"math_expert", run.KindMessage, "1234 x 56 = 69,004."},
				{"supervisor", run.KindMessage, "The total cost is 69,004 EUR."},
			},
		},
		{
			// LangGraph.js's swarm (@langchain/langgraph-swarm) through
			// OpenInference: two agents and no supervisor, each handing off
			// to the other by a handoff tool that returns a Command for the
			// parent graph (raised as ParentCommand). The flight agent's
			// misspelt airport code fails and is retried; the hotel agent
			// reports its EUR rate as USD.
			file: "langgraph-js-swarm.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"flight_agent", "hotel_agent"},
			question: "Book a flight from Boston to Lisbon on 12 March and a hotel in Lisbon for 3 nights, and tell me the total in USD.",
			steps: []realStep{
				{"user", run.KindUser, "Book a flight from Boston to Lisbon on 12 March"},
				{"flight_agent", run.KindToolCall, `search_flights({"origin":"BOS","destination":"LSBN","date":"2026-03-12"})`},
				{"flight_agent", run.KindToolResult, "Error: unknown airport code: LSBN"},
				{"flight_agent", run.KindToolCall, `search_flights({"origin":"BOS","destination":"LIS","date":"2026-03-12"})`},
				{"flight_agent", run.KindToolResult, `"flight":"TP218"`},
				{"flight_agent", run.KindToolCall, "transfer_to_hotel_agent({})"},
				{"flight_agent", run.KindToolResult, "Successfully transferred to hotel_agent"},
				{"flight_agent", run.KindHandoff, "Hands off control: ParentCommand"},
				{"hotel_agent", run.KindToolCall, `search_hotels({"city":"Lisbon","check_in":"2026-03-12","nights":3})`},
				{"hotel_agent", run.KindToolResult, `"rate":140,"total":420,"currency":"EUR"`},
				{"hotel_agent", run.KindMessage, "at 140 USD a night (420 USD)"},
			},
		},
		{
			// LangChain's deep agents for JS through OpenInference: the
			// main agent writes its plan to a file (a tool returning a
			// Command that updates the agent's files) and delegates to a
			// sub-agent through its task tool; each agent is named by
			// lc_agent_name in its spans' metadata. The AI SDK's trip
			// again, the researcher a sub-agent.
			file: "deepagents-js.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps: []realStep{
				{"user", run.KindUser, "What should I pack for Oslo tomorrow?"},
				{"planner", run.KindToolCall, `write_file({"file_path":"/plan.md"`},
				{"planner", run.KindToolResult, "Successfully wrote to '/plan.md'"},
				{"planner", run.KindToolCall, `task({"description":"Find tomorrow's weather in Oslo: temperature and sky.","subagent_type":"researcher"})`},
				{"researcher", run.KindToolCall, `get_weather({"city":"Olso"})`},
				{"researcher", run.KindToolResult, "Error: unknown city: Olso"},
				{"researcher", run.KindToolCall, `get_weather({"city":"Oslo"})`},
				{"researcher", run.KindToolResult, `{"city":"Oslo","tempC":7,"sky":"rain"}`},
				{"researcher", run.KindMessage, "Oslo tomorrow: 7 degrees Fahrenheit and rain."},
				{"planner", run.KindMessage, "Oslo will be 7 °F and rainy tomorrow"},
			},
		},
		{
			// LangChain.js 1's createAgent through OpenInference: each
			// agent a graph of model_request and tools nodes, named only
			// by lc_agent_name in every span's metadata; the researcher
			// is an agent the planner's tool invokes. The AI SDK's trip
			// again.
			file: "langchain-js-agents.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    aiSDKSteps,
		},
		{
			// The same run of the OpenAI Agents SDK on a Vercel AI SDK
			// model (@openai/agents-extensions' aisdk): its model calls'
			// output is OpenAI Responses items (function_call), and the
			// results in their input the AI SDK's tool outputs
			// ({"type": "text", "value"}).
			file: "openai-agents-js-aisdk.jsonl", format: run.FormatOpenInference, runs: 1,
			agents:   []string{"Triage agent", "Billing agent", "FX expert"},
			question: "What is the total of order 1042 in EUR?",
			steps:    openAIAgentsSteps,
		},
		{
			// Mastra's Arize exporter (OpenInference over OTLP/HTTP
			// protobuf), which types a generation, each of its steps and
			// each streamed chunk alike LLM: Mastra's own span type,
			// written beside, says which is the model call.
			file: "mastra-arize.pb", format: run.FormatOTLP, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "What should I pack for Oslo tomorrow?",
			steps:    mastraSteps,
		},
		{
			// BeeAI for TypeScript through OpenInference: each event of
			// the framework's emitter a span (start, success or error,
			// finish), the model's calls in its output.value as AI SDK
			// parts, each tool's run context, with the call it answers, in
			// its spans' metadata. An AgentWorkflow runs each agent as a
			// trace of its own, and no span names the agent: two runs, the
			// researcher's first. The AI SDK's trip again; each agent
			// answers by its final_answer tool.
			file: "beeai-openinference-js.jsonl", format: run.FormatOTLP, runs: 2,
			agents:   []string{"agent.toolCalling"},
			question: "What should I pack for Oslo tomorrow?",
			steps: []realStep{
				{"user", run.KindUser, "What should I pack for Oslo tomorrow?"},
				{"agent.toolCalling", run.KindToolCall, `get_weather({"city":"Olso"})`},
				{"agent.toolCalling", run.KindToolResult, "unknown city: Olso"},
				{"agent.toolCalling", run.KindToolCall, `get_weather({"city":"Oslo"})`},
				{"agent.toolCalling", run.KindToolResult, `{"city":"Oslo","tempC":7,"sky":"rain"}`},
				{"agent.toolCalling", run.KindToolCall, `final_answer({"response":"Oslo tomorrow: 7 degrees Fahrenheit and rain."})`},
				{"agent.toolCalling", run.KindToolResult, "Message has been sent"},
			},
		},
	})
}

// openAIAgentsSteps are the steps of the OpenAI Agents SDK's run: a triage
// agent hands off to billing, whose currency tool fails and whose FX
// expert, an agent used as a tool, answers wrongly.
var openAIAgentsSteps = []realStep{
	{"user", run.KindUser, "What is the total of order 1042 in EUR?"},
	{"Triage agent", run.KindToolCall, "transfer_to_Billing_agent"},
	{"Triage agent", run.KindHandoff, "Hands off to Billing agent"},
	{"Billing agent", run.KindToolResult, `{"assistant":"Billing agent"}`},
	{"Billing agent", run.KindToolCall, `lookup_order({"order_id":"1042"})`},
	{"Billing agent", run.KindToolResult, `"total":120,"currency":"USD"`},
	{"Billing agent", run.KindToolCall, "convert_currency("},
	{"Billing agent", run.KindToolResult, "Error: Error running tool (non-fatal): Tool execution failed."},
	{"Billing agent", run.KindToolCall, "ask_fx_expert("},
	{"FX expert", run.KindMessage, "120 USD is 60 EUR (rate 0.5)."},
	{"Billing agent", run.KindMessage, "The total of order 1042 is 60 EUR."},
}
