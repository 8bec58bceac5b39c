package run_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestLangfuseFiles reads cuts of real files that follow Langfuse's observations, with each framework's own message shapes in their input and output.
func TestLangfuseFiles(t *testing.T) {
	checkRealFiles(t, []realFile{
		{
			file: "langfuse-langgraph.trace.json", format: run.FormatLangfuse, runs: 1,
			contains: []string{`The search for "example" primarily leads`},
		},
		{
			file: "langfuse-google-adk.trace.json", format: run.FormatLangfuse, runs: 1,
			agents:   []string{"hello_agent"}, // named by its span, agent_run [hello_agent]
			contains: []string{"Hello Langfuse"},
		},
		{
			file: "langfuse-pydantic-ai.trace.json", format: run.FormatLangfuse, runs: 1,
			agents:   []string{"joke_agent", "evaluator_agent"},
			contains: []string{"Why do programmers hate nature?"},
		},
		{
			// The Vercel AI SDK through Langfuse: each of its calls is a
			// generation, the ai.generateText around its model call too,
			// both answering the model's tool calls as the SDK lists them
			// ([{"toolCallId", "toolName", "input"}]).
			file: "langfuse-vercel-ai-sdk.trace.json", format: run.FormatLangfuse, runs: 1,
			question: "What is the weather like today in San Francisco?",
			steps: []realStep{
				{"user", run.KindUser, "What is the weather like today in San Francisco?"},
				{"assistant", run.KindToolCall, `getWeather({"location":"San Francisco"})`},
				{"assistant", run.KindToolResult, `{"location":"San Francisco","temperature":64}`},
			},
		},
		{
			// AutoGen through Langfuse's OpenAI integration, which
			// records the prompt flattened to "role: text" lines.
			file: "langfuse-autogen.trace.json", format: run.FormatLangfuse, runs: 1,
			question: "Say 'Hello World!'",
			steps: []realStep{
				{"user", run.KindUser, "Say 'Hello World!'"},
				{"assistant", run.KindMessage, "Hello World!"},
			},
		},
		{
			// BeeAI's OpenInference spans: each event of its emitter a
			// span (agent.react.update-13, tool.search.wikipedia.success-12),
			// all of them ended with the run; the model's replies only in
			// the next call's input. A tool that writes no spans of its
			// own (OpenMeteoTool) is run in the agent's update events,
			// which name it and its parameters beside its output.
			file: "langfuse-beeai.trace.json", format: run.FormatLangfuse, runs: 1,
			agents: []string{"agent.react"},
			steps: []realStep{
				{"user", run.KindUser, "I'm planning a trip to Barcelona, Spain."},
				{"agent.react", run.KindMessage, "Thought: I will first research key attractions"},
				{"agent.react", run.KindToolCall, `search.wikipedia({"query":"Tourism in Barcelona","full_text":false})`},
				{"agent.react", run.KindToolResult, "is a city on the northeastern coast of Spain"},
				{"agent.react", run.KindMessage, "Thought: I found information about Barcelona"},
				{"agent.react", run.KindToolCall, `OpenMeteoTool({"location_name": "Barcelona", "country": "Spain"})`},
				{"agent.react", run.KindToolResult, `"temperature_2m":29`},
			},
		},
		{
			// Agno's OpenInference spans, each model call of which holds
			// Langfuse's OpenAI integration's record of the same call
			// (its output flattened: "None" where the model only called
			// a tool, else the reply again).
			file: "langfuse-agno.trace.json", format: run.FormatLangfuse, runs: 1,
			agents:   []string{"Agent"},
			question: "What is currently trending on Twitter?",
			steps: []realStep{
				{"user", run.KindUser, "What is currently trending on Twitter?"},
				{"Agent", run.KindToolCall, `duckduckgo_search({"query":"currently trending on Twitter"})`},
				{"Agent", run.KindToolResult, "Explore trending topics, hashtags, and conversations on Twitter."},
				{"Agent", run.KindMessage, "To find out what's currently trending on Twitter, you can visit the following resources"},
			},
		},
		{
			// A C# agent on Microsoft.Extensions.AI with Gemini: each
			// reply carries the model's reasoning as an opaque signed
			// part (TextReasoningContent), and the second model call
			// starts on the millisecond the failed tool ends.
			file: "langfuse-csharp-gemini.trace.json", format: run.FormatLangfuse, runs: 1,
			steps: []realStep{
				{"user", run.KindUser, "What are my month over month performance insights the past quarter"},
				{"assistant", run.KindToolCall, `get_custom_report({"dimensions":["Campaign"]`},
				{"assistant", run.KindToolResult, "ERROR: No data found for dimensions: Campaign"},
				{"assistant", run.KindMessage, "I couldn't retrieve the month-over-month performance insights"},
				{"assistant", run.KindToolCall, `final_result({"input":{"comment":"I couldn't retrieve`},
			},
		},
		{
			// Langfuse's JS SDK's own spans over OTLP (its observation
			// types in lower case, an error as the observation's level):
			// a coordinator asks an analyst, an agent called as a tool,
			// whose CRM query fails and who answers all the same.
			file: "langfuse-sdk-otel.jsonl", format: run.FormatOTLP, runs: 1,
			agents:   []string{"coordinator", "analyst"},
			question: "Summarise Q3 revenue for the ACME account from the CRM.",
			steps: []realStep{
				{"user", run.KindUser, "Summarise Q3 revenue for the ACME account from the CRM."},
				{"coordinator", run.KindToolCall, `ask_analyst({"question":"ACME Q3 revenue"})`},
				{"analyst", run.KindToolCall, `crm_query({"account":"ACME","quarter":"2026-Q3"})`},
				{"analyst", run.KindToolResult, "Error: CRM session expired (401)"},
				{"analyst", run.KindMessage, "ACME Q3 revenue was 4.2M USD, up 12%."},
				{"coordinator", run.KindMessage, "ACME closed Q3 with 4.2M USD revenue (+12%)."},
			},
		},
		{
			// Langfuse's JS SDK 3.x instrumenting by hand (trace, span,
			// generation), its ingestion batches as posted: a planner whose
			// research tool runs a researcher; the researcher's misspelt
			// call fails (level ERROR) and it reports Celsius as
			// Fahrenheit. The SDK has no agent or tool type: the program's
			// spans are its agents and tools.
			file: "langfuse-js-v3.jsonl", format: run.FormatLangfuse, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "I fly to Oslo tomorrow. What should I pack?",
			steps: []realStep{
				{"user", run.KindUser, "I fly to Oslo tomorrow. What should I pack?"},
				{"planner", run.KindToolCall, `research({"question":"Weather in Oslo tomorrow?"})`},
				{"researcher", run.KindToolCall, `get_weather({"city":"Olso"})`},
				{"researcher", run.KindToolResult, "Error: unknown city: Olso"},
				{"researcher", run.KindToolCall, `get_weather({"city":"Oslo"})`},
				{"researcher", run.KindToolResult, `"unit":"celsius"`},
				{"researcher", run.KindMessage, "Oslo tomorrow: 7 degrees Fahrenheit and rain."},
				{"planner", run.KindMessage, "Pack for a freezing day in Oslo: 7 °F and rain."},
			},
		},
		{
			// langfuse-langchain's CallbackHandler over two LangGraph JS
			// ReAct agents, the researcher run by the planner's tool: the
			// graphs' runs, named for their agents, are the agents, and
			// the spans named as the calls the model made, with their
			// arguments, are the tools (the handler types neither).
			file: "langfuse-langchain-js.jsonl", format: run.FormatLangfuse, runs: 1,
			agents:   []string{"planner", "researcher"},
			question: "I fly to Oslo tomorrow. What should I pack?",
			steps: []realStep{
				{"user", run.KindUser, "I fly to Oslo tomorrow. What should I pack?"},
				{"planner", run.KindToolCall, `research({"question":"Weather in Oslo tomorrow?"})`},
				{"researcher", run.KindToolCall, `get_weather({"city":"Olso"})`},
				{"researcher", run.KindToolResult, "Error: unknown city: Olso"},
				{"researcher", run.KindToolCall, `get_weather({"city":"Oslo"})`},
				{"researcher", run.KindToolResult, `{"city":"Oslo","forecast":"rain","temperature":7,"unit":"celsius"}`},
				{"researcher", run.KindMessage, "Oslo tomorrow: 7 degrees Fahrenheit and rain."},
				{"planner", run.KindMessage, "Pack for a freezing day in Oslo: 7 °F and rain."},
			},
		},
	})
}

// TestLangfuseAPIListings: Langfuse's public API lists traces without
// their observations: GET /traces gives each trace's observations as ids
// (TraceWithDetails), and GET /sessions/{id} a session with its traces
// (SessionWithTraces), as langfuse/api's trace.yml, sessions.yml and
// commons.yml (in ../shared/telemetry-specs/langfuse) define them. Each
// trace holds its input and output, and the traces of one session are
// its turns, in time order: one run.
func TestLangfuseAPIListings(t *testing.T) {
	const (
		first = `{"id":"tr-1","timestamp":"2026-03-02T10:00:00.000Z","name":"chat","input":{"messages":[{"role":"user","content":"What was Q3 revenue?"}]},` +
			`"output":{"role":"assistant","content":"Q3 revenue was 4.2M USD."},"sessionId":"chat-42","release":null,"version":null,"userId":"u-7","metadata":{},"tags":[],"public":false,"environment":"default"`
		second = `{"id":"tr-2","timestamp":"2026-03-02T10:01:00.000Z","name":"chat","input":{"messages":[{"role":"user","content":"What was Q3 revenue?"},{"role":"assistant","content":"Q3 revenue was 4.2M USD."},{"role":"user","content":"In EUR, please."}]},` +
			`"output":{"role":"assistant","content":"That is 4.2M EUR."},"sessionId":"chat-42","release":null,"version":null,"userId":"u-7","metadata":{},"tags":[],"public":false,"environment":"default"`
		details = `,"htmlPath":"/project/proj-1/traces/%s","latency":1.2,"totalCost":0.0004,"observations":["o1","o2"],"scores":[]}`
	)
	conversation := []string{
		"user user: What was Q3 revenue?",
		"assistant message: Q3 revenue was 4.2M USD.",
		"user user: In EUR, please.",
		"assistant message: That is 4.2M EUR.",
	}
	tests := []struct {
		name, data string
		want       [][]string
	}{
		{
			name: "a session with its traces (GET /sessions/{id})",
			data: `{"id":"chat-42","createdAt":"2026-03-02T10:00:00.000Z","projectId":"proj-1","environment":"default","traces":[` + second + `},` + first + `}]}`,
			want: [][]string{conversation},
		},
		{
			name: "traces listed with their observations' ids (GET /traces)",
			data: `{"data":[` + first + fmt.Sprintf(details, "tr-1") + `,` + second + fmt.Sprintf(details, "tr-2") + `],"meta":{"page":1,"limit":50,"totalItems":2,"totalPages":1}}`,
			want: [][]string{conversation},
		},
		{
			name: "traces of no session stay apart",
			data: `{"data":[` + strings.Replace(first, `"chat-42"`, "null", 1) + fmt.Sprintf(details, "tr-1") + `,` +
				strings.Replace(second, `"chat-42"`, "null", 1) + fmt.Sprintf(details, "tr-2") + `],"meta":{"page":1,"limit":50,"totalItems":2,"totalPages":1}}`,
			want: [][]string{conversation[:2], {"user user: What was Q3 revenue?", "user user: In EUR, please.", "assistant message: That is 4.2M EUR."}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cases, err := run.ParseAll(context.Background(), "langfuse.json", []byte(tt.data), run.Options{})
			require.NoError(t, err)
			var got [][]string
			for _, c := range cases {
				assert.Equal(t, run.FormatLangfuse, c.Run.Format)
				got = append(got, steps(c.Run))
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestLangfuseToolOutputAsRecorded: a tool's output that Langfuse holds as
// text (a string holding JSON, as a tool that returns JSON text gives it
// and as every observation ingested over OpenTelemetry holds it) is the
// tool's result as written: its keys in their order and its numbers as
// they were, as the same run reads as an OpenInference or GenAI trace. A
// database dump that encodes that text once more reads the same.
func TestLangfuseToolOutputAsRecorded(t *testing.T) {
	const result = `{"order_id": "#W7730", "status": "return requested", "refund_amount": 60.0}`
	quoted := func(s string) string {
		b, err := json.Marshal(s)
		require.NoError(t, err)
		return string(b)
	}
	trace := func(output string) string {
		return `{"id":"tr-1","timestamp":"2026-03-02T10:00:00.000Z","name":"support","input":"Return order #W7730.","output":null,"observations":[` +
			`{"id":"g1","traceId":"tr-1","type":"GENERATION","name":"chat","startTime":"2026-03-02T10:00:00.100Z","endTime":"2026-03-02T10:00:00.200Z","parentObservationId":null,` +
			`"input":[{"role":"user","content":"Return order #W7730."}],` +
			`"output":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"return_order","arguments":"{\"order_id\": \"#W7730\"}"}}]}},` +
			`{"id":"t1","traceId":"tr-1","type":"TOOL","name":"return_order","startTime":"2026-03-02T10:00:00.300Z","endTime":"2026-03-02T10:00:00.400Z","parentObservationId":null,` +
			`"input":{"order_id":"#W7730"},"output":` + output + `}]}`
	}
	for name, output := range map[string]string{
		"an export":                 quoted(result),
		"a dump that encodes twice": quoted(quoted(result)),
	} {
		t.Run(name, func(t *testing.T) {
			r, err := run.Parse("langfuse.json", []byte(trace(output)), run.Options{})
			require.NoError(t, err)
			require.Equal(t, run.FormatLangfuse, r.Format)
			var results []string
			for _, s := range r.Steps {
				if s.Kind == run.KindToolResult {
					results = append(results, s.Content)
				}
			}
			assert.Equal(t, []string{result}, results)
		})
	}
}
