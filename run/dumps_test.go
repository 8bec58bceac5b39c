package run

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFrameworkDumps reads the message dumps agent frameworks write
// themselves (testdata/dumps, whose README says where each shape comes
// from): every step in order, its agent and kind, the task from the
// user's first message, and each tool result answering its call by id,
// a call of the same agent's.
func TestFrameworkDumps(t *testing.T) {
	tests := []struct {
		file, task string
		steps      []string // "agent kind", a handoff's "agent handoff>target"
		noIDs      bool     // the dump gives its calls no ids
	}{
		{"langgraph-supervisor-state.json", "What was the combined headcount of Meta and Alphabet at the end of 2024?", []string{
			"user user", "supervisor tool_call", "supervisor tool_result",
			"research_expert tool_call", "research_expert tool_result", "research_expert message",
			"research_expert tool_call", "research_expert tool_result",
			"supervisor tool_call", "supervisor tool_result",
			"math_expert tool_call", "math_expert tool_result", "math_expert message",
			"math_expert tool_call", "math_expert tool_result", "supervisor message"}, false},
		{"langchain-messages-to-dict.json", "Where is my order 40213? It was due on Monday.", []string{
			"system system", "user user", "assistant tool_call", "assistant tool_result",
			"assistant tool_call", "assistant tool_result", "assistant message"}, false},
		{"langchain-js-stored-messages.json", "Convert 250 US dollars to euros at today's rate.", []string{
			"user user", "assistant tool_call", "assistant tool_result", "assistant message"}, false},
		{"langchain-dumpd.json", "How many days of paid leave does a new employee get?", []string{
			"system system", "user user", "assistant tool_call", "assistant tool_result", "assistant message"}, false},
		{"autogen-selector-taskresult.json", "Which city had the higher population growth from 2010 to 2020, Austin or Denver?", []string{
			"user user", "planning_agent message", "web_search_agent tool_call", "web_search_agent tool_result",
			"data_analyst_agent thought", "data_analyst_agent tool_call", "data_analyst_agent tool_result",
			"data_analyst_agent tool_result", "planning_agent message"}, false},
		{"autogen-swarm-taskresult.json", "I want a refund for flight BA0283, it was cancelled.", []string{
			"user user", "travel_agent tool_call", "travel_agent tool_result", "travel_agent handoff>flights_refunder",
			"flights_refunder tool_call", "flights_refunder tool_result", "flights_refunder message"}, false},
		{"autogen-team-state.json", "Write a haiku about autumn, then check its syllables.", []string{
			"user user", "poet message", "critic tool_call", "critic tool_result", "critic message"}, false},
		{"pydantic-ai-messages.json", "What will the high be in Lyon tomorrow, in Fahrenheit?", []string{
			"system system", "user user", "assistant tool_call", "assistant tool_result",
			"assistant tool_call", "assistant tool_result", "assistant message"}, false},
		{"openai-agents-input-list.json", "Hola, ¿cuánto cuesta enviar un paquete de 2 kg a Madrid?", []string{
			"user user", "assistant tool_call", "assistant tool_result",
			"Spanish agent tool_call", "Spanish agent tool_result", "Spanish agent message"}, false},
		{"anthropic-messages.json", "Is the 09:40 train from Leeds to York running today?", []string{
			"user user", "assistant tool_call", "assistant tool_result", "assistant tool_call",
			"assistant tool_result", "assistant tool_result", "assistant message"}, false},
		{"google-genai-history.json", "How long would it take to drive from Porto to Lisbon, leaving at 8am?", []string{
			"user user", "assistant tool_call", "assistant tool_result", "assistant message"}, true},
		{"openai-agents-js-history.json", "What should I pack for Oslo tomorrow?", []string{
			"user user", "assistant tool_call", "assistant tool_result",
			"researcher tool_call", "researcher tool_result", "researcher tool_call", "researcher tool_result", "researcher message"}, false},
		{"openai-agents-js-run-state.json", "What should I pack for Oslo tomorrow?", []string{
			"user user", "planner tool_call", "planner tool_result",
			"researcher tool_call", "researcher tool_result", "researcher tool_call", "researcher tool_result", "researcher message"}, false},
		{"langgraph-js-thread-state.json", "What should I pack for Oslo tomorrow?", []string{
			"user user", "researcher tool_call", "researcher tool_result", "researcher tool_call", "researcher tool_result",
			"researcher message", "planner message"}, false},
		{"langgraph-js-thread-history.json", "What should I pack for Oslo tomorrow?", []string{
			"user user", "researcher tool_call", "researcher tool_result", "researcher tool_call", "researcher tool_result",
			"researcher message", "planner message"}, false},
		{"adk-session.json", "What should I pack for Oslo tomorrow?", []string{
			"user user", "coordinator tool_call", "coordinator tool_result",
			"researcher tool_call", "researcher tool_result", "researcher tool_call", "researcher tool_result", "researcher message"}, false},
		{"llamaindex-chat-history.json", "Am I free on Thursday at 3pm for a one-hour call?", []string{
			"system system", "user user", "assistant tool_call", "assistant tool_result", "assistant message"}, false},
		{"semantic-kernel-chat-history.json", "Draft a slogan for a bicycle shop and make sure it is under eight words.", []string{
			"user user", "CopyWriter message", "Reviewer tool_call", "Reviewer tool_result", "Reviewer message"}, false},
		{"semantic-kernel-dotnet-chat-history.json", "What is the status of invoice INV-2291, and is it overdue?", []string{
			"user user", "BillingAgent tool_call", "BillingAgent tool_result", "BillingAgent message"}, false},
		{"ai-sdk-model-messages.json", "Which plan is cheaper over a year for 20 GB a month: Plan A or Plan B?", []string{
			"system system", "user user", "assistant tool_call", "assistant tool_result", "assistant tool_result", "assistant message"}, false},
		{"ai-sdk-ui-messages.json", "Book me a table for four at 8pm on Friday at Luigi's.", []string{
			"user user", "assistant tool_call", "assistant tool_result", "assistant tool_call", "assistant tool_result", "assistant message"}, false},
		{"goose-session.jsonl", "The overdue total in report.py counts paid invoices too. Fix it so only unpaid invoices past their due date count, and run the tests.", []string{
			"user user", "assistant tool_call", "assistant tool_result", "assistant tool_call", "assistant tool_result",
			"assistant tool_call", "assistant tool_result", "assistant message"}, false},
		{"smolagents-memory-steps.json", "How many seconds are there in a leap year?", []string{
			"system system", "user user", "assistant message", "assistant tool_call", "assistant tool_result",
			"assistant tool_call", "assistant tool_result"}, false},
		{"gemini-generate-content-request.json", "What's the cheapest fare from Zurich to Milan next Friday morning?", []string{
			"user user", "assistant tool_call", "assistant tool_result", "assistant tool_call", "assistant tool_result", "assistant message"}, true},
		{"openai-responses-request.json", "Why was I charged twice in November? Account 7731.", []string{
			"user user", "assistant tool_call", "assistant tool_result", "assistant message",
			"user user", "assistant tool_call", "assistant tool_result"}, false},
		{"openai-responses-stored.json", "", []string{"assistant tool_call", "assistant message"}, false},
		{"bedrock-converse-messages.json", "Do we need to reorder SKU 4417-B? Reorder when fewer than 40 are left.", []string{
			"user user", "assistant tool_call", "assistant tool_result", "assistant tool_call", "assistant tool_result", "assistant message"}, false},
		{"anthropic-server-tools.json", "How tall is the Jungfrau, and what is that in feet?", []string{
			"user user", "assistant tool_call", "assistant tool_result", "assistant tool_call", "assistant tool_result", "assistant message"}, false},
		{"agency-swarm-thread.json", "Post the release notes for v2.3 to the #announcements channel.", []string{
			"user user", "Coordinator tool_call", "Writer tool_call", "Writer tool_result", "Writer message",
			"Coordinator tool_result", "Coordinator message"}, false},
		{"smolagents-dumped-bare.json", "How many days are there between 3 March 2025 and 19 April 2025?", []string{
			"user user", "assistant message", "assistant tool_call", "assistant tool_result",
			"assistant tool_call", "assistant tool_result", "assistant message"}, false},
		{"ai-sdk-4-ui-messages.json", "Is the Louvre open on Tuesday?", []string{
			"user user", "assistant tool_call", "assistant tool_result", "assistant message"}, false},
		{"llamaindex-ts-chat-history.json", "How many days of parental leave does a new hire get?", []string{
			"system system", "user user", "assistant tool_call", "assistant tool_result", "assistant tool_call", "assistant tool_result", "assistant message"}, false},
		{"ai-sdk-steps.json", "How many euros is 1,800 Swiss francs today?", []string{
			"system system", "user user", "assistant tool_call", "assistant tool_result", "assistant tool_call", "assistant tool_result", "assistant message"}, false},
		{"haystack-chat-messages.json", "Will it snow in Oslo tomorrow, 30 November?", []string{
			"system system", "user user", "assistant tool_call", "assistant tool_result", "assistant tool_call", "assistant tool_result", "assistant message"}, false},
		{"kaibanjs-team-state.json", "Find the first train from Zurich to Milan on 2025-10-03.", []string{
			"user user", "Ria tool_call", "Ria tool_result", "Ria tool_call", "Ria tool_result", "Ria message",
			"user user", "Sam thought", "Sam message"}, false},
		{"dspy-react-prediction.json", "How many years passed between the founding of Oxford University Press and that of Cambridge University Press?", []string{
			"user user", "assistant tool_call", "assistant tool_result", "assistant tool_call", "assistant tool_result",
			"assistant tool_call", "assistant tool_result", "assistant message", "assistant message"}, false},
		{"agno-team-run.json", "What is ASML's latest closing price?", []string{
			"system system", "user user", "Finance Team tool_call",
			"Stock Analyst tool_call", "Stock Analyst tool_result", "Stock Analyst message", "Finance Team message"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r, err := Load(filepath.Join("..", "testdata", "dumps", tt.file), Options{})
			require.NoError(t, err)
			assert.Equal(t, FormatTranscript, r.Format)
			assert.Equal(t, tt.task, r.Question)
			var got []string
			for _, s := range r.Steps {
				d := s.Agent + " " + string(s.Kind)
				if s.Kind == KindHandoff {
					d += ">" + s.Target()
				}
				got = append(got, d)
				assert.NotEmpty(t, strings.TrimSpace(s.Content), "step %d says something", s.Index)
			}
			assert.Equal(t, tt.steps, got)
			calls := map[string]string{} // id → agent
			for _, s := range r.Steps {
				for _, c := range s.ToolCalls() {
					assert.NotEmpty(t, c.Name, "step %d: a call names its tool", s.Index)
					if c.ID != "" {
						calls[c.ID] = s.Agent
					}
				}
				if s.Kind != KindToolResult || tt.noIDs {
					continue
				}
				require.NotEmpty(t, s.ToolCallID(), "step %d answers a call", s.Index)
				caller, ok := calls[s.ToolCallID()]
				require.True(t, ok, "step %d answers %s, a call made before it", s.Index, s.ToolCallID())
				assert.Equal(t, caller, s.Agent, "step %d is of the agent that called", s.Index)
			}
		})
	}
}

// TestDumpedResults: what a dump says of a tool's outcome is kept: a
// failure reads as an error, a result answers the call of its tool where
// the dump gives no ids, and AutoGen's summary of the results just read
// is no step of its own.
func TestDumpedResults(t *testing.T) {
	load := func(file string) *Run {
		r, err := Load(filepath.Join("..", "testdata", "dumps", file), Options{})
		require.NoError(t, err)
		return r
	}
	tests := []struct {
		file  string
		index int
		want  string
	}{
		{"langchain-messages-to-dict.json", 5, "Error: carrier service unavailable"},
		{"anthropic-messages.json", 5, "Error: Service timeout"},
		{"ai-sdk-model-messages.json", 4, "Error: plan B not found"},
		{"ai-sdk-ui-messages.json", 4, "Error: Slot not available"},
		{"google-genai-history.json", 2, `{"distance_km":313,"duration_min":195}`},
		{"openai-agents-js-history.json", 4, "An error occurred while running the tool. Please try again."},
		{"openai-agents-js-run-state.json", 6, `{"city":"Oslo","tempC":7,"sky":"rain"}`},
		{"langgraph-js-thread-state.json", 2, "Error: unknown city: Olso\n Please fix your mistakes."},
		{"adk-session.json", 2, "Transfer queued"},
		{"adk-session.json", 4, "Error in tool 'get_weather': unknown city: Olso"},
		{"adk-session.json", 6, `{"city":"Oslo","sky":"rain","tempC":7}`},
		{"autogen-swarm-taskresult.json", 5, "Flight BA0823 refunded"},
		{"smolagents-memory-steps.json", 4, "Execution logs:\n31536000\nLast output from code snippet:\nNone"},
		{"smolagents-dumped-bare.json", 3, "Error: Import of dateutil is not allowed."},
		{"goose-session.jsonl", 2, "def overdue_total(invoices, today):\n    return sum(i.amount for i in invoices if i.due < today)"},
		{"goose-session.jsonl", 6, "Error: Command failed with exit code 1: E   AttributeError: 'Invoice' object has no attribute 'paid'"},
		{"gemini-generate-content-request.json", 4, "Error: fare service unavailable"},
		{"openai-responses-request.json", 6, `{"refunded":12.5,"invoice":"INV-5521"}`},
		{"bedrock-converse-messages.json", 1, "Checking the stock level."},
		{"bedrock-converse-messages.json", 2, `{"on_hand":23,"reserved":5,"sku":"4417-B"}`},
		{"bedrock-converse-messages.json", 4, "Error: Supplier API returned 503 Service Unavailable"},
		{"anthropic-server-tools.json", 2, "Jungfrau - Wikipedia (https://en.wikipedia.org/wiki/Jungfrau)\nJungfrau 4,158 m - Jungfrau Region (https://www.jungfrau.ch/en-gb/jungfrau/)"},
		{"anthropic-server-tools.json", 4, "13642"},
		{"anthropic-server-tools.json", 5, "The Jungfrau is 4,158 m tall, about 13,642 feet.\n[source: Jungfrau 4,158 m - Jungfrau Region (https://www.jungfrau.ch/en-gb/jungfrau/): \"Jungfrau 4,158 m\"]"},
		{"llamaindex-ts-chat-history.json", 5, "Error: policy HR-204 not found"},
		{"ai-sdk-4-ui-messages.json", 2, `{"closed":["Tuesday"],"hours":"09:00-18:00","place":"Louvre Museum"}`},
		{"haystack-chat-messages.json", 3, "Error: Failed to invoke Tool `weather` with parameters {'city': 'Oslo', 'date': '2025-11-30'}. Error: missing required argument 'units'"},
		{"kaibanjs-team-state.json", 2, "Error: request to timetable service timed out after 10s"},
		{"kaibanjs-team-state.json", 1, "I'll look up the timetable."},
		{"dspy-react-prediction.json", 4, "Error: Execution error in search_wikipedia: ConnectionError: Max retries exceeded"},
		{"dspy-react-prediction.json", 8, "52 years"},
		{"agno-team-run.json", 4, "612.40"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r := load(tt.file)
			require.Greater(t, len(r.Steps), tt.index)
			assert.Equal(t, tt.want, r.Steps[tt.index].Content)
		})
	}
	r := load("pydantic-ai-messages.json")
	assert.True(t, strings.HasPrefix(r.Steps[3].Content, "Error: "), "a retry prompt refuses the call's arguments: %q", r.Steps[3].Content)
	assert.Equal(t, "call_fc1", r.Steps[3].ToolCallID())
	r, err := Parse("thinking.json", []byte(`[{"role": "user", "content": "Hi"},
		{"role": "assistant", "content": [{"type": "thinking", "thinking": "They greet me.", "signature": "EqQBCkYIBxgCKkC"}, {"type": "text", "text": "Hello"}, {"type": "tool_use", "id": "t1", "name": "wave", "input": {}}]},
		{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "waved"}]}]`), Options{})
	require.NoError(t, err)
	assert.Equal(t, "Hello", r.Steps[1].Content, "a model's thinking is not what it says")
	r, err = Load(filepath.Join("..", "testdata", "dumps", "autogen-team-state.json"), Options{Format: FormatTranscript})
	require.NoError(t, err, "a saved state is read as a transcript when the user names that format")
	assert.Len(t, r.Steps, 5)
	r = load("agno-team-run.json")
	assert.Equal(t, "Stock Analyst", r.Steps[2].Target(), "a delegation is addressed to the member it names")
	r = load("anthropic-messages.json")
	assert.Equal(t, "I'll check the live departures.", r.Steps[1].Content, "a reply's text and its call are one step")
	require.Len(t, r.Steps[1].ToolCalls(), 1)
	assert.Equal(t, ToolCall{ID: "toolu_01A9xKq3", Name: "departures", Arguments: `{"destination":"YRK","station":"LDS"}`}, r.Steps[1].ToolCalls()[0])
}

// TestRequestBodies: a request body saved with its messages (Gemini's
// generateContent, the Responses API's create), a stored Responses API
// response and the AI SDK's steps (the first one's request body giving the
// prompt) are read as the run their lists hold, the steps numbered from
// the list's first message, and a label beside them is the run's.
func TestRequestBodies(t *testing.T) {
	tests := []struct {
		name, data string
		steps      []string
		label      *Label
	}{
		{"gemini contents, labelled", `{"systemInstruction": {"parts": [{"text": "Be brief."}]},
			"contents": [{"role": "user", "parts": [{"text": "Rate?"}]}, {"role": "model", "parts": [{"functionCall": {"name": "rate", "args": {"to": "JPY"}}}]},
			{"role": "user", "parts": [{"functionResponse": {"name": "rate", "response": {"rate": 162.84}}}]}, {"role": "model", "parts": [{"text": "168.24"}]}],
			"mistake_agent": "model", "mistake_step": 3, "mistake_reason": "digits swapped"}`,
			[]string{"user user", "assistant tool_call", "assistant tool_result", "assistant message"}, &Label{Agent: "model", Step: 3, Reason: "digits swapped"}},
		{"responses input, labelled", `{"model": "gpt-4.1", "input": [{"role": "user", "content": "Refund 48213"},
			{"type": "function_call", "call_id": "c1", "name": "refund", "arguments": "{\"order\": \"48231\"}"},
			{"type": "function_call_output", "call_id": "c1", "output": "done"}], "mistake_agent": "assistant", "mistake_step": 1}`,
			[]string{"user user", "assistant tool_call", "assistant tool_result"}, &Label{Agent: "assistant", Step: 1}},
		{"AI SDK steps, a tool's error among them", `[{"content": [{"type": "tool-call", "toolCallId": "c1", "toolName": "f", "input": {}},
			{"type": "tool-error", "toolCallId": "c1", "toolName": "f", "input": {}, "error": "Error: no such city"}], "finishReason": "tool-calls", "request": {"body": "{\"messages\": [{\"role\": \"user\", \"content\": \"x\"}]}"}},
			{"content": [{"type": "text", "text": "Sorry."}], "finishReason": "stop", "request": {}}]`,
			[]string{"user user", "assistant tool_call", "assistant tool_result", "assistant message"}, nil},
		{"responses input as text, then its output", `{"object": "response", "input": "Who won?", "output": [
			{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "The home side."}]}]}`,
			[]string{"user user", "assistant message"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCase("body.json", []byte(tt.data), Options{})
			require.NoError(t, err)
			var got []string
			for _, s := range c.Run.Steps {
				got = append(got, s.Agent+" "+string(s.Kind))
			}
			assert.Equal(t, tt.steps, got)
			assert.Equal(t, tt.label, c.Label)
		})
	}
	for _, data := range []string{
		`{"input": {"question": "x"}, "output": {"answer": "y"}}`,
		`{"input": [1, 2], "output": "y"}`,
		`{"contents": [{"title": "x"}]}`,
	} {
		_, err := ParseCase("body.json", []byte(data), Options{})
		assert.ErrorIs(t, err, ErrUnknownFormat, "a body whose lists are no messages: %s", data)
	}
}

// TestGeminiSystemInstruction: a Gemini request's system instruction
// (its parts' texts, under the REST API's or the Python SDK's key, or a
// text) is the run's instructions, as Anthropic's "system" is.
func TestGeminiSystemInstruction(t *testing.T) {
	const contents = `"contents": [{"role": "user", "parts": [{"text": "Rate?"}]}, {"role": "model", "parts": [{"text": "162.84"}]}]`
	for _, tt := range []struct{ name, data, want string }{
		{"REST parts", `{"systemInstruction": {"parts": [{"text": "Be brief."}, {"text": "Quote the tool."}]}, ` + contents + `}`, "Be brief.\n\nQuote the tool."},
		{"Python SDK's key", `{"system_instruction": {"role": "system", "parts": [{"text": "Be brief."}]}, ` + contents + `}`, "Be brief."},
		{"a text", `{"systemInstruction": "Be brief.", ` + contents + `}`, "Be brief."},
		{"none", `{` + contents + `}`, ""},
	} {
		c, err := ParseCase("body.json", []byte(tt.data), Options{})
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, c.Run.Instructions, tt.name)
	}
}

// TestDumpsLeaveChatsAlone: a list of OpenAI chat messages is read as
// before, also where a message keeps lists of its own under a dump's
// names (items, blocks, parts) in no framework's shape; a dump's marks
// send a list to the dump's reader, and a list no reading finds messages
// in fails as it did.
func TestDumpsLeaveChatsAlone(t *testing.T) {
	tests := []struct {
		name, data string
		agents     []string
		err        string
	}{
		{"an OpenAI chat", `[{"role": "user", "content": "Hi"}, {"role": "assistant", "name": "Helper", "content": "Hello"}]`,
			[]string{"user", "Helper"}, ""},
		{"a LangChain message among them", `{"messages": [{"type": "human", "content": "Hi"}, {"type": "ai", "name": "Helper", "content": "Hello"}]}`,
			[]string{"user", "Helper"}, ""},
		{"a hosted tool's call, its action an object", `[{"role": "user", "content": "Who won?"},
			{"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "final score"}},
			{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "The home side."}]}]`,
			[]string{"user", "assistant", "assistant"}, ""},
		{"a dump one message a line", "{\"type\": \"human\", \"content\": \"Hi\"}\n{\"type\": \"ai\", \"name\": \"Helper\", \"content\": \"Hello\"}\n",
			[]string{"user", "Helper"}, ""},
		{"a chat whose result keeps its items beside its content", `[{"role": "user", "content": "Find it"},
			{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{}"}}]},
			{"role": "tool", "tool_call_id": "c1", "content": "3 matches", "items": [{"id": 1, "title": "x"}]}]`,
			[]string{"user", "assistant", "tool"}, ""},
		{"a chat whose message keeps options of its own", `[{"role": "user", "content": "Hi", "options": "fast"}, {"role": "assistant", "name": "Helper", "content": "Hello", "options": {"temperature": 0}}]`,
			[]string{"user", "Helper"}, ""},
		{"a chat whose message keeps its layout blocks", `[{"role": "user", "content": "Hi"},
			{"role": "assistant", "name": "Helper", "content": "Hello", "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": "Hello"}}]}]`,
			[]string{"user", "Helper"}, ""},
		{"a chat whose result keeps parts that are strings", `[{"role": "user", "content": "Find it"},
			{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{}"}}]},
			{"role": "tool", "tool_call_id": "c1", "content": "3 matches", "parts": ["3 matches"]}]`,
			[]string{"user", "assistant", "tool"}, ""},
		{"a message of no shape among chat messages", `[{"role": "user", "content": "Hi"}, {"content": "Hello"}]`, nil, `message 1: message has neither "name" nor "role"`},
		{"a field of another type in a chat", `[{"role": "user", "content": "Hi", "action": {"x": 1}}]`, nil, "action is object, want string"},
		{"messages of no shape", `[{"kind": "x"}, {"type": "y"}]`, nil, "unknown format: a list whose elements have no role"},
		{"a state with no thread", `{"type": "TeamState", "version": "1.0.0", "agent_states": {}}`, nil,
			"unknown format: a JSON object with neither"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse("dump.json", []byte(tt.data), Options{})
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				assert.True(t, strings.HasPrefix(err.Error(), "load dump.json: "), err.Error())
				return
			}
			require.NoError(t, err)
			var agents []string
			for _, s := range r.Steps {
				agents = append(agents, s.Agent)
			}
			assert.Equal(t, tt.agents, agents)
		})
	}
}

// FuzzParseDumps reads fuzzed framework dumps, from the fixtures' shapes.
func FuzzParseDumps(f *testing.F) {
	f.Add([]byte(`{"messages": [{"source": "user", "type": "TextMessage", "content": "x"}, {"source": "a", "type": "ToolCallRequestEvent", "content": [{"id": "1", "name": "f", "arguments": "{}"}]}, {"source": "a", "type": "ToolCallExecutionEvent", "content": [{"call_id": "1", "content": "y", "is_error": true}]}]}`))
	f.Add([]byte(`[{"kind": "request", "parts": [{"part_kind": "user-prompt", "content": "x"}]}, {"kind": "response", "parts": [{"part_kind": "tool-call", "tool_name": "f", "args": {}, "tool_call_id": "1"}]}]`))
	f.Add([]byte(`{"type": "TeamState", "agent_states": {"m": {"message_thread": [{"source": "user", "type": "TextMessage", "content": "x"}]}}}`))
	f.Add([]byte(`{"sessionId": "s", "history": [{"message": {"role": "user", "content": "x"}}, {"message": {"role": "assistant", "content": "", "toolCalls": [{"id": "1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}}, {"message": {"role": "tool", "content": "y", "toolCallId": "1"}}]}`))
	f.Add([]byte(`[{"role": "user", "content": "<task>x</task>"}, {"role": "assistant", "content": "<read_file><path>a</path></read_file><attempt_completion><result>r</result></attempt_completion>"}, {"role": "user", "content": "[read_file for 'a'] Result: y"}]`))
	f.Add([]byte(`{"working_dir": "/"}` + "\n" + `{"role": "assistant", "content": [{"type": "toolRequest", "id": "1", "toolCall": {"status": "success", "value": {"name": "f", "arguments": {}}}}]}` + "\n" + `{"role": "user", "content": [{"type": "toolResponse", "id": "1", "toolResult": {"status": "error", "error": "e"}}]}`))
	f.Add([]byte("# aider chat started at 2025-05-28\n\n#### fix it  \n\nsrc/a.py\n```python\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\n\n> Applied edit to src/a.py  \n"))
	f.Add([]byte(`[{"timestamp": "2025-05-28 10:00:01", "task_name": "t", "task": "x", "agent": "a", "status": "completed", "output": "y"}]`))
	f.Add([]byte("2025-05-28 10:00:01: task_name=\"t\", task=\"x\", agent=\"a\", status=\"completed\", output=\"y\nz\"\n"))
	f.Add([]byte(`{"contents": [{"role": "user", "parts": [{"text": "x"}]}, {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]}, {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {"error": "e"}}}]}], "mistake_step": 1}`))
	f.Add([]byte(`{"object": "response", "input": "x", "output": [{"type": "web_search_call", "id": "ws", "action": {"query": "q"}}, {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "y"}]}]}`))
	f.Add([]byte(`{"messages": [{"role": "user", "content": [{"text": "x"}]}, {"role": "assistant", "content": [{"reasoningContent": {"reasoningText": {"text": "t"}}}, {"toolUse": {"toolUseId": "1", "name": "f", "input": {}}}]}, {"role": "user", "content": [{"toolResult": {"toolUseId": "1", "content": [{"json": {"a": 1}}], "status": "error"}}]}]}`))
	f.Add([]byte(`[{"role": "user", "content": "x"}, {"role": "assistant", "content": [{"type": "server_tool_use", "id": "s1", "name": "web_search", "input": {"query": "q"}}, {"type": "web_search_tool_result", "tool_use_id": "s1", "content": {"type": "web_search_tool_result_error", "error_code": "max_uses_exceeded"}}, {"type": "code_execution_tool_result", "tool_use_id": "s2", "content": {"type": "code_execution_result", "stdout": "", "stderr": "e", "return_code": 1}}, {"type": "text", "text": "y"}]}]`))
	f.Add([]byte(`[{"role": "assistant", "content": "", "options": {"toolCall": [{"name": "f", "input": {}, "id": "1"}]}}, {"role": "user", "content": "y", "options": {"toolResult": {"result": "y", "isError": true, "id": "1"}}}]`))
	f.Add([]byte(`[{"content": [{"type": "text", "text": "x"}, {"type": "tool-call", "toolCallId": "1", "toolName": "f", "input": {}}, {"type": "tool-error", "toolCallId": "1", "toolName": "f", "error": "e"}], "finishReason": "tool-calls", "request": {"body": {"input": "q"}}}]`))
	f.Add([]byte(`[{"role": "assistant", "content": "y", "parts": [{"type": "tool-invocation", "toolInvocation": {"state": "call", "toolCallId": "1", "toolName": "f", "args": {}}}, {"type": "tool-invocation", "toolInvocation": {"state": "result", "toolCallId": "2", "toolName": "f", "args": {}, "result": "r"}}]}]`))
	f.Add([]byte(`{"messages": [{"role": "user", "content": [{"text": "x"}]}, {"role": "assistant", "content": [{"tool_call": {"tool_name": "f", "arguments": {}, "id": "1"}}]}, {"role": "tool", "content": [{"tool_call_result": {"result": "y", "origin": {"tool_name": "f", "id": "1"}, "error": true}}]}]}`))
	f.Add([]byte(`[{"_role": "user", "_content": [{"text": "x"}], "_name": null, "_meta": {}}, {"_role": "assistant", "_content": [{"tool_call": {"tool_name": "f", "arguments": {}, "id": "1"}}]}]`))
	f.Add([]byte(`{"workflowLogs": [{"logType": "TaskStatusUpdate", "taskStatus": "DOING", "task": {"description": "x"}}, {"logType": "AgentStatusUpdate", "agentName": "a", "agentStatus": "USING_TOOL", "metadata": {"tool": {"name": "f"}, "input": {}}}, {"logType": "AgentStatusUpdate", "agentName": "a", "agentStatus": "USING_TOOL_ERROR", "metadata": {"error": "e"}}, {"logType": "AgentStatusUpdate", "agentName": "a", "agentStatus": "FINAL_ANSWER", "metadata": {"output": {"finalAnswer": "y"}}}]}`))
	f.Add([]byte(`{"question": "x", "trajectory": {"thought_0": "t", "tool_name_0": "f", "tool_args_0": {}, "observation_0": ["a", 1], "thought_1": "u", "tool_name_1": "finish", "tool_args_1": {}, "observation_1": "Completed."}, "answer": "y"}`))
	f.Add([]byte(`{"team_name": "t", "messages": [{"role": "user", "content": "x"}, {"role": "assistant", "tool_calls": [{"id": "1", "type": "function", "function": {"name": "delegate_task_to_member", "arguments": "{\"member_id\": \"m\"}"}}]}], "member_responses": [{"agent_name": "M", "messages": [{"role": "user", "content": "x"}, {"role": "assistant", "content": "y"}], "member_responses": [{"messages": []}]}]}`))
	fuzzFormat(f, FormatAuto)
}

// TestTextOfKeepsWhatItReads: a value a reader writes back out as JSON
// (a call's arguments, a tool's structured result) keeps its characters
// as the log has them: "AT&T" or "a < b" escaped for HTML would be text
// the run never wrote, and a value quoted from it would be found nowhere.
func TestTextOfKeepsWhatItReads(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{map[string]any{"company": "AT&T", "check": "a < b && c > d"}, `{"check":"a < b && c > d","company":"AT&T"}`},
		{[]any{"<b>", 1.5}, `["<b>",1.5]`},
		{"as it is", "as it is"},
		{nil, ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, textOf(tt.in))
	}
}

// TestContinueSession: a Continue session's history wraps each message
// ({"message", "contextItems"}) and writes OpenAI's calls under camelCase;
// its model's thinking is not a step.
func TestContinueSession(t *testing.T) {
	r, got := loadedDump(t, "continue-session.json")
	assert.Equal(t, "Why does parse('2024-02-29') fail?", r.Question)
	assert.Equal(t, []string{"user user", "assistant tool_call", "tool tool_result", "assistant message"}, got, "as an OpenAI transcript reads")
	require.Len(t, r.Steps[1].ToolCalls(), 1)
	assert.Equal(t, ToolCall{ID: "call_7Hq", Name: "read_file", Arguments: `{"filepath": "src/dates.py"}`}, r.Steps[1].ToolCalls()[0])
	assert.Equal(t, "call_7Hq", r.Steps[2].ToolCallID())
}

// TestClineSession: a Cline conversation asks for its tools in XML
// blocks in its replies' text and gets their output back in the user's
// role under a result's head; the calls, their results, the task and the
// answer are read from them.
func TestClineSession(t *testing.T) {
	r, got := loadedDump(t, "cline-api-conversation-history.json")
	assert.Equal(t, "The cart total ignores the 10% discount for orders over 100 EUR. Fix total() in src/cart.py.", r.Question)
	for _, s := range r.Steps {
		assert.NotContains(t, s.Content, "environment_details", "step %d", s.Index)
	}
	assert.Equal(t, []string{"user user", "assistant tool_call", "tool tool_result", "assistant tool_call", "tool tool_result",
		"assistant tool_call", "tool tool_result", "assistant message"}, got)
	assert.Equal(t, []ToolCall{{Name: "read_file", Arguments: `{"path":"src/cart.py"}`}}, r.Steps[1].ToolCalls())
	assert.Equal(t, "I should read the cart module first.", r.Steps[1].Content)
	assert.Equal(t, "execute_command", r.Steps[5].ToolCalls()[0].Name)
	assert.Contains(t, r.Steps[5].ToolCalls()[0].Arguments, `"command":"python -m pytest -q tests/test_cart.py"`)
	assert.Equal(t, "Command executed.\nOutput:\n3 passed in 0.04s", r.Steps[6].Content)
	assert.Equal(t, "total() now takes 10% off orders over 100 EUR; the cart tests pass.", r.Steps[7].Content)

	// The result of a block that speaks is the user's reply to it: the
	// answer to a question, the feedback on an attempted completion.
	r, err := Parse("asks.json", []byte(`[{"role": "user", "content": [{"type": "text", "text": "<task>\nFix reserve().\n</task>"}]},
		{"role": "assistant", "content": [{"type": "text", "text": "<read_file>\n<path>stock.py</path>\n</read_file>"}]},
		{"role": "user", "content": [{"type": "text", "text": "[read_file for 'stock.py'] Result:"}, {"type": "text", "text": "def reserve(): ..."}]},
		{"role": "assistant", "content": [{"type": "text", "text": "<ask_followup_question>\n<question>Is the catalogue loaded first?</question>\n</ask_followup_question>"}]},
		{"role": "user", "content": [{"type": "text", "text": "[ask_followup_question for 'Is the catalogue loaded first?'] Result:"}, {"type": "text", "text": "<answer>\nJust fix it.\n</answer>"}]},
		{"role": "assistant", "content": [{"type": "text", "text": "<attempt_completion>\n<result>\nDone.\n</result>\n</attempt_completion>"}]},
		{"role": "user", "content": [{"type": "text", "text": "[attempt_completion] Result:"}, {"type": "text", "text": "The user has provided feedback on the results. Consider their input to continue the task, and then attempt completion again.\n<feedback>\nThe test still fails.\n</feedback>"}]}]`), Options{})
	require.NoError(t, err)
	assert.Equal(t, []Kind{KindUser, KindToolCall, KindToolResult, KindMessage, KindUser, KindMessage, KindUser}, kindsOf(r))
	assert.Equal(t, "user", r.Steps[4].Agent)
	assert.Equal(t, "Just fix it.", r.Steps[4].Content)
	assert.Equal(t, "The test still fails.", r.Steps[6].Content)
	assert.Equal(t, "Fix reserve().", r.Question)

	// A chat that only mentions a tag, with no result's head, is left as it is.
	r, err = Parse("chat.json", []byte(`[{"role": "user", "content": "What does <read_file> do in Cline?"},
		{"role": "assistant", "content": "It asks to read a file: <read_file><path>a.py</path></read_file>."}]`), Options{})
	require.NoError(t, err)
	assert.Equal(t, KindMessage, r.Steps[1].Kind)
	assert.Empty(t, r.Steps[1].ToolCalls())
}

// kindsOf returns the kind of each step of r.
func kindsOf(r *Run) []Kind {
	var out []Kind
	for _, s := range r.Steps {
		out = append(out, s.Kind)
	}
	return out
}

// loadedDump loads testdata/dumps' file and returns its run and each
// step's agent and kind.
func loadedDump(t *testing.T, file string) (*Run, []string) {
	t.Helper()
	r, err := Load(filepath.Join("..", "testdata", "dumps", file), Options{})
	require.NoError(t, err)
	var got []string
	for _, s := range r.Steps {
		got = append(got, s.Agent+" "+string(s.Kind))
	}
	return r, got
}

// TestAiderChatHistory: aider's Markdown history is read from its last
// session: the user's lines ("#### "), aider's own output ("> ": an edit
// applied, a commit) as a result with its banner and costs left out, and
// the model's replies, whose SEARCH/REPLACE blocks are calls of an editor
// and whose code keeps its lines whatever they start with.
func TestAiderChatHistory(t *testing.T) {
	r, got := loadedDump(t, "aider-chat-history.md")
	assert.Equal(t, FormatAider, r.Format)
	assert.Equal(t, "The cart total ignores the 10% discount for orders over 100 EUR. Fix total().", r.Question)
	assert.Equal(t, []string{"user user", "assistant tool_call", "tool tool_result", "user message", "tool tool_result",
		"user message", "assistant message"}, got)
	assert.Equal(t, "I'll apply the discount when the sum passes 100.", r.Steps[1].Content)
	assert.Equal(t, []ToolCall{{Name: "str_replace_editor", Arguments: `{"command":"str_replace","new_str":"    if s >= 100:\n        s = s * 0.9\n    return s","old_str":"    return s","path":"src/cart.py"}`}}, r.Steps[1].ToolCalls())
	assert.Equal(t, "Applied edit to src/cart.py\nCommit 3f9c2d1 fix: apply 10% discount to cart totals over 100 EUR", r.Steps[2].Content)
	assert.Contains(t, r.Steps[6].Content, "# > 100 qualifies\nassert total([Item(100, 1)]) == 90", "a quoted line of code is the reply's")
	for _, s := range r.Steps {
		assert.NotContains(t, s.Content, "Tokens:", "step %d", s.Index)
	}

	_, err := Parse("empty.md", []byte("# aider chat started at 2025-05-28 10:00:02\n\n> Aider v0.82.1  \n"), Options{})
	assert.ErrorContains(t, err, "holds no message")
}

// TestCrewAITaskLog: a crew's task log (output_log_file), as JSON or as
// text lines, is read as the tasks given and the outputs of the agents
// that took them; an output over several lines stays one.
func TestCrewAITaskLog(t *testing.T) {
	for _, file := range []string{"crewai-task-log.json", "crewai-task-log.txt"} {
		t.Run(file, func(t *testing.T) {
			r, got := loadedDump(t, file)
			assert.Equal(t, "Find the 2024 revenue of Acme Corp and its year-over-year growth.", r.Question)
			assert.Equal(t, []string{"user user", "Senior Financial Researcher message", "user message", "Reporting Analyst message"}, got)
			assert.Contains(t, r.Steps[1].Content, "a growth of 12%")
			assert.Contains(t, r.Steps[3].Content, "from $3.5 billion in 2023")
		})
	}
	_, err := Parse("half.json", []byte(`[{"timestamp": "t", "agent": "a", "status": "started"}, {"timestamp": "t", "agent": "a"}]`), Options{})
	assert.ErrorIs(t, err, ErrUnknownFormat, "records naming no task are no task log")
	_, err = Parse("half.txt", []byte("2025-05-28 10:00:01: task_name=\"t\", task=\"x\", status=\"started\"\n"), Options{})
	assert.ErrorIs(t, err, ErrUnknownFormat, "a line naming no agent is no task log")
}

// TestCAMELWorkforceLog: a CAMEL Workforce's logged events are read as
// the top task, each subtask given to a worker as the user's instruction
// and what the worker returned (or how it failed) as its message, by the
// name its description begins with, else its id; the top task's result,
// no worker's, is passed over.
func TestCAMELWorkforceLog(t *testing.T) {
	r, got := loadedDump(t, "camel-workforce-log.json")
	assert.Equal(t, "Plan a one-day visit to Kyoto's temples on a Monday.", r.Question)
	assert.Equal(t, []string{"user user", "user message", "Planner message", "user message", "w-91bc message"}, got)
	assert.Equal(t, "Check every stop is open on Monday.", r.Steps[3].Content)
	assert.Equal(t, "Error: opening-hours service timed out", r.Steps[4].Content)
	_, err := Parse("events.json", []byte(`[{"event_type": "task_created", "task_id": "0", "description": "x"}]`), Options{})
	assert.ErrorIs(t, err, ErrUnknownFormat, "events in which no worker completes a task are no workforce's run")
}

// TestCAMELWorkforceLogOfSeveralTasks: a workforce that processed
// several tasks logs each with its subtasks; each is a run of its own,
// named by its task's id, its workers' turns its own.
func TestCAMELWorkforceLogOfSeveralTasks(t *testing.T) {
	data := `[{"event_type": "worker_created", "worker_id": "w1", "role": "Planner: drafts itineraries"},
{"event_type": "task_created", "task_id": "0", "description": "Plan a day in Kyoto.", "parent_task_id": null},
{"event_type": "task_created", "task_id": "0.0", "description": "Draft the route.", "parent_task_id": "0"},
{"event_type": "task_assigned", "task_id": "0.0", "worker_id": "w1"},
{"event_type": "task_completed", "task_id": "0.0", "worker_id": "w1", "result_summary": "Kinkaku-ji at 9:00."},
{"event_type": "task_completed", "task_id": "0", "worker_id": null, "result_summary": "Kinkaku-ji at 9:00."},
{"event_type": "task_created", "task_id": "1", "description": "Plan a day in Nara.", "parent_task_id": null},
{"event_type": "task_created", "task_id": "1.0", "description": "Draft the Nara route.", "parent_task_id": "1"},
{"event_type": "task_assigned", "task_id": "1.0", "worker_id": "w1"},
{"event_type": "task_failed", "task_id": "1.0", "worker_id": "w1", "error_message": "map service timed out"}]`
	cs, err := ParseAll(t.Context(), "workforce.json", []byte(data), Options{})
	require.NoError(t, err)
	require.Len(t, cs, 2)
	for i, want := range []struct {
		name, question string
		steps          []string
	}{
		{"0", "Plan a day in Kyoto.", []string{"user Plan a day in Kyoto.", "user Draft the route.", "Planner Kinkaku-ji at 9:00."}},
		{"1", "Plan a day in Nara.", []string{"user Plan a day in Nara.", "user Draft the Nara route.", "Planner Error: map service timed out"}},
	} {
		r := cs[i].Run
		assert.Equal(t, want.name, r.TraceID)
		assert.Equal(t, want.question, r.Question)
		var got []string
		for _, s := range r.Steps {
			got = append(got, s.Agent+" "+s.Content)
		}
		assert.Equal(t, want.steps, got)
	}
	// Beside a label, in an object: one task's log is read labelled; a
	// log of two tasks labels neither, and says so.
	var events []json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(data), &events))
	wrapped, err := json.Marshal(map[string]any{"mistake_agent": "Planner", "mistake_step": 2, "logs": events[:6]})
	require.NoError(t, err)
	c, err := ParseCase("labelled.json", wrapped, Options{})
	require.NoError(t, err)
	require.NotNil(t, c.Label)
	assert.Equal(t, 2, c.Label.Step)
	assert.Equal(t, "Plan a day in Kyoto.", c.Run.Question)
	wrapped, err = json.Marshal(map[string]any{"mistake_agent": "Planner", "mistake_step": 2, "logs": events})
	require.NoError(t, err)
	_, err = ParseCase("labelled.json", wrapped, Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "2 tasks")
}

// TestMetaGPTConsoleLog: MetaGPT's console log is read as its roles'
// actions, each the records and streamed output after it, with the
// costs left out; the PRD's original requirements are the task; held as
// a string in a labelled JSON object, it is read the same, labelled.
func TestMetaGPTConsoleLog(t *testing.T) {
	r, got := loadedDump(t, "metagpt-console.log")
	assert.Equal(t, "Write a CLI that splits a bill among N people, rounding each share up to the cent.", r.Question)
	assert.Equal(t, []string{"Alice(Product Manager) message", "Alex(Engineer) message"}, got)
	assert.NotContains(t, r.Steps[0].Content, "Total running cost")
	assert.Contains(t, r.Steps[1].Content, "Writing main.py..\n## Code: main.py")
	data, err := os.ReadFile(filepath.Join("..", "testdata", "dumps", "metagpt-console.log"))
	require.NoError(t, err)
	wrapped, err := json.Marshal(map[string]any{"mistake_agent": "Alex", "mistake_step": 1, "log": string(data)})
	require.NoError(t, err)
	c, err := ParseCase("wrapped.json", wrapped, Options{})
	require.NoError(t, err)
	require.NotNil(t, c.Label)
	assert.Equal(t, 1, c.Label.Step)
	assert.Len(t, c.Run.Steps, 2)
}

// TestMetaGPTLogOfSeveralRuns: MetaGPT appends every run to its log file
// (logs/log.txt, a day's logs/YYYYMMDD.txt); each run begins with the
// record of the team's investment, and is a run of its own, named by
// that record's time, its task its own PRD's. A labelled object holding
// such a log labels none of its runs, and says so.
func TestMetaGPTLogOfSeveralRuns(t *testing.T) {
	run := func(at, idea, code string) string {
		return at + ".100 | INFO     | metagpt.team:invest:93 - Investment: $3.0.\n" +
			at + ".200 | INFO     | metagpt.roles.role:_act:403 - Alice(Product Manager): to do WritePRD(WritePRD)\n" +
			"[CONTENT]\n{\"Original Requirements\": \"" + idea + "\"}\n[/CONTENT]\n" +
			at + ".300 | INFO     | metagpt.roles.role:_act:403 - Alex(Engineer): to do WriteCode(WriteCode)\n" + code + "\n"
	}
	data := run("2025-01-20 14:03:10", "Write a bill splitter.", "def split(): pass") +
		"2025-01-20 14:04:00.000 | INFO     | metagpt.utils.file_repository:save:57 - Saving main.py\n" +
		run("2025-01-20 16:40:02", "Write a unit converter.", "def convert(): pass")
	cs, err := ParseAll(t.Context(), "20250120.txt", []byte(data), Options{})
	require.NoError(t, err)
	require.Len(t, cs, 2)
	for i, want := range []struct{ name, question, code string }{
		{"2025-01-20 14:03:10.100", "Write a bill splitter.", "def split(): pass"},
		{"2025-01-20 16:40:02.100", "Write a unit converter.", "def convert(): pass"},
	} {
		r := cs[i].Run
		assert.Equal(t, want.name, r.TraceID)
		assert.Equal(t, want.question, r.Question)
		require.Len(t, r.Steps, 2)
		assert.Contains(t, r.Steps[1].Content, want.code)
		assert.NotContains(t, r.Steps[1].Content, "Investment")
	}
	assert.Contains(t, cs[0].Run.Steps[1].Content, "Saving main.py")
	one, err := ParseAll(t.Context(), "one.txt", []byte(run("2025-01-20 14:03:10", "Write a bill splitter.", "x")), Options{})
	require.NoError(t, err)
	require.Len(t, one, 1)
	assert.Empty(t, one[0].Run.TraceID, "a log of one run names it by nothing of its own")
	wrapped, err := json.Marshal(map[string]any{"mistake_agent": "Alex", "mistake_step": 1, "log": data})
	require.NoError(t, err)
	_, err = ParseCase("wrapped.json", wrapped, Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "2 runs")
}

// TestMetaGPTMemory: a MetaGPT team's memory as it dumps it
// ({"storage", "index"}) is read as its messages in order, each by the
// role that wrote it, once: the index lists them again.
func TestMetaGPTMemory(t *testing.T) {
	r, got := loadedDump(t, "metagpt-memory.json")
	assert.Equal(t, "Write a CLI that converts Celsius to Fahrenheit, rounding to one decimal.", r.Question)
	assert.Equal(t, []string{"Human user", "Product Manager message", "Engineer message", "QaEngineer message"}, got)
}

// TestTeamLogsAndTrajectories: the other shapes KaibanJS, DSPy, Agno and
// Haystack save a run in are read as the ones in testdata/dumps: a
// KaibanJS team's logs saved alone, a tool asked for that the agent does
// not have, a DSPy trajectory saved without its prediction, Haystack's
// ChatMessage dumped as its dataclass, an Agno team whose call hands the
// task to every member, a team replaying its
// session's history in a member's run, STORM's conversation log (with
// its topic, outline and article, or alone), GPT Researcher's log of
// a task and a harness's session record with its turns under "trace"
// (AIOpsLab's, the environment's turns its actions' results); a label
// beside them is the run's, and an object that only looks like one is
// refused.
func TestTeamLogsAndTrajectories(t *testing.T) {
	tests := []struct {
		name, data string
		steps      []string // "agent kind: content"
		label      *Label
	}{
		{"kaiban logs alone", `[
			{"logType": "WorkflowStatusUpdate", "workflowStatus": "RUNNING", "metadata": {}},
			{"logType": "TaskStatusUpdate", "taskStatus": "DOING", "agentName": "Ava", "task": {"description": "Find the capital of {country}.", "interpolatedTaskDescription": "Find the capital of Peru."}},
			{"logType": "AgentStatusUpdate", "agentStatus": "THINKING_END", "agentName": "Ava", "metadata": {"output": {"parsedLLMOutput": {"thought": "Search it.", "action": "lookup", "actionInput": {"q": "Peru"}}}}},
			{"logType": "AgentStatusUpdate", "agentStatus": "USING_TOOL", "agentName": "Ava", "metadata": {"tool": {"name": "lookup"}, "input": {"q": "Peru"}}},
			{"logType": "AgentStatusUpdate", "agentStatus": "USING_TOOL_END", "agentName": "Ava", "metadata": {"output": "Lima"}},
			{"logType": "AgentStatusUpdate", "agentStatus": "FINAL_ANSWER", "agentName": "Ava", "metadata": {"output": {"finalAnswer": "Lima"}}},
			{"logType": "TaskStatusUpdate", "taskStatus": "DONE", "agentName": "Ava", "metadata": {"result": "Lima"}}]`,
			[]string{"user user: Find the capital of Peru.", "Ava tool_call: Search it.", "Ava tool_result: Lima", "Ava message: Lima"}, nil},
		{"kaiban tool it does not have", `{"name": "t", "workflowLogs": [
			{"logType": "TaskStatusUpdate", "taskStatus": "DOING", "task": {"description": "x"}},
			{"logType": "AgentStatusUpdate", "agentStatus": "TOOL_DOES_NOT_EXIST", "agent": {"agentInstance": {"name": "Bo"}}, "logDescription": "Tool search does not exist.", "metadata": {}},
			{"logType": "AgentStatusUpdate", "agentStatus": "FINAL_ANSWER", "agent": {"name": "Bo"}, "metadata": {"output": {"finalAnswer": {"total": 3}}}}],
			"mistake_agent": "Bo", "mistake_step": 1}`,
			[]string{"user user: x", "Bo message: Error: Tool search does not exist.", `Bo message: {"total":3}`}, &Label{Agent: "Bo", Step: 1}},
		{"dspy trajectory alone", `{"thought_0": "Look.", "tool_name_0": "search", "tool_args_0": {"query": "q"}, "observation_0": "r",
			"thought_1": "Done.", "tool_name_1": "finish", "tool_args_1": {}, "observation_1": "Completed."}`,
			[]string{`assistant tool_call: Look.`, "assistant tool_result: r", "assistant message: Done."}, nil},
		{"dspy prediction labelled", `{"question": "q?", "trajectory": {"thought_1": "b", "tool_name_1": "f", "tool_args_1": {}, "observation_1": 4, "thought_0": "a", "tool_name_0": "f", "tool_args_0": {"x": 1}, "observation_0": [1, 2]}, "answer": "4", "mistake_agent": "assistant", "mistake_step": 3}`,
			[]string{"user user: q?", "assistant tool_call: a", "assistant tool_result: [1,2]", "assistant tool_call: b", "assistant tool_result: 4", "assistant message: 4"}, &Label{Agent: "assistant", Step: 3}},
		{"haystack dataclass", `[{"_role": "user", "_content": [{"text": "x"}], "_name": null, "_meta": {}},
			{"_role": "assistant", "_content": [{"tool_call": {"tool_name": "f", "arguments": {"a": 1}, "id": "c1"}}], "_name": null, "_meta": {}},
			{"_role": "tool", "_content": [{"tool_call_result": {"result": "y", "origin": {"tool_name": "f", "arguments": {"a": 1}, "id": "c1"}, "error": false}}], "_name": null, "_meta": {}},
			{"_role": "assistant", "_content": [{"text": "z"}], "_name": null, "_meta": {}}]`,
			[]string{"user user: x", `assistant tool_call: f({"a":1})`, "assistant tool_result: y", "assistant message: z"}, nil},
		{"agno team collaborating", `{"team_name": "Panel", "messages": [
			{"role": "user", "content": "q"},
			{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "run_member_agents", "arguments": "{\"task_description\": \"q\"}"}}]},
			{"role": "tool", "tool_call_id": "c1", "content": "A: a\nB: b"},
			{"role": "assistant", "content": "a and b"}],
			"member_responses": [
			{"agent_name": "A", "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]},
			{"agent_name": "B", "messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "b"}]}]}`,
			[]string{"user user: q", `Panel tool_call: run_member_agents({"task_description": "q"})`, "A message: a", "B message: b", "Panel message: a and b"}, nil},
		{"agno team member unnamed by the call", `{"team_name": "T", "messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "done"}],
			"member_responses": [{"agent_id": "m1", "messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "r"}]}]}`,
			[]string{"user user: q", "m1 message: r", "T message: done"}, nil},
		{"agno member replaying history", `{"team_name": "T", "messages": [{"role": "user", "content": "old q", "from_history": true}, {"role": "assistant", "content": "old a", "from_history": true},
			{"role": "user", "content": "q"}, {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "delegate_task_to_member", "arguments": "{\"member_id\": \"m\", \"task\": \"t\"}"}}]},
			{"role": "tool", "tool_call_id": "c1", "content": "r"}, {"role": "assistant", "content": "r"}],
			"member_responses": [{"agent_id": "m", "agent_name": "M", "messages": [{"role": "user", "content": "old t", "from_history": true}, {"role": "assistant", "content": "old r", "from_history": true},
			{"role": "user", "content": "t"}, {"role": "assistant", "content": "r"}]}]}`,
			[]string{"user user: old q", "T message: old a", "user user: q", `T tool_call: delegate_task_to_member({"member_id": "m", "task": "t"})`, "M message: r", "T message: r"}, nil},
		{"storm run with its article", `{"topic": "Øresund Bridge",
			"conversation_log": [{"perspective": "Basic fact writer", "dlg_turns": [
				{"user_utterance": "How long is the bridge?", "agent_utterance": "It is 7,845 metres long [1].", "search_queries": ["Øresund Bridge length"],
				 "search_results": [{"url": "https://www.oresundsbron.com/facts", "description": "", "snippets": ["The bridge is 7,845 metres long."], "title": "Facts"}]}]}],
			"outline": "# Øresund Bridge", "article": "The bridge is 7,845 metres long.[1]", "mistake_agent": "ArticleGenerator", "mistake_step": 6}`,
			[]string{"user user: Øresund Bridge", "WikiWriter message: How long is the bridge?", `TopicExpert tool_call: search({"queries":["Øresund Bridge length"]})`,
				"TopicExpert tool_result: Facts\nhttps://www.oresundsbron.com/facts\nThe bridge is 7,845 metres long.", "TopicExpert message: It is 7,845 metres long [1].",
				"OutlineGenerator message: # Øresund Bridge", "ArticleGenerator message: The bridge is 7,845 metres long.[1]"}, &Label{Agent: "ArticleGenerator", Step: 6}},
		{"storm conversation log alone", `[{"perspective": "Engineer", "dlg_turns": [{"user_utterance": "What is the main span?", "agent_utterance": "490 metres.", "search_queries": [], "search_results": []}]}]`,
			[]string{"WikiWriter message: What is the main span?", "TopicExpert message: 490 metres."}, nil},
		{"gpt researcher log", `{"timestamp": "2026-10-02T14:03:00", "events": [
			{"timestamp": "t1", "type": "event", "data": {"type": "logs", "content": "starting_research", "output": "Starting the research task for 'Tesla deliveries'...", "metadata": null}},
			{"timestamp": "t2", "type": "event", "data": {"type": "logs", "content": "subqueries", "output": "I will conduct my research based on the following queries: ['Tesla deliveries 2024']...", "metadata": ["Tesla deliveries 2024"]}},
			{"timestamp": "t3", "type": "event", "data": {"type": "logs", "content": "running_subquery_research", "output": "\nRunning research for 'Tesla deliveries 2024'...", "metadata": null}},
			{"timestamp": "t4", "type": "event", "data": {"type": "logs", "content": "scraping_urls", "output": "Scraping content from 1 URLs...", "metadata": null}},
			{"timestamp": "t5", "type": "event", "data": {"type": "logs", "content": "subquery_context_window", "output": "📃 Tesla delivered 1,789,226 vehicles in 2024.", "metadata": null}}],
			"content": {"query": "How many vehicles did Tesla deliver in 2024?", "sources": [], "context": [], "report": "Tesla delivered 1,789,226 vehicles.", "costs": 0.01},
			"mistake_agent": "ReportGenerator", "mistake_step": 4}`,
			[]string{"user user: How many vehicles did Tesla deliver in 2024?", "ResearchConductor message: Sub-queries:\n1. Tesla deliveries 2024",
				`ResearchConductor tool_call: research_subquery({"query":"Tesla deliveries 2024"})`, "ResearchConductor tool_result: Tesla delivered 1,789,226 vehicles in 2024.",
				"ReportGenerator message: Tesla delivered 1,789,226 vehicles."}, &Label{Agent: "ReportGenerator", Step: 4}},
		{"aiopslab session", `{"agent": "gpt-4o", "session_id": "s1", "problem_id": "p-localization-1", "trace": [
			{"role": "system", "content": "You are an expert DevOps engineer."},
			{"role": "user", "content": "Localize the faulty component."},
			{"role": "assistant", "content": "exec_shell(\"kubectl get pods\")"},
			{"role": "env", "content": "geo 0/1 CrashLoopBackOff"},
			{"role": "assistant", "content": "submit([\"geo\"])"}],
			"results": {"Localization Accuracy": 100.0}, "mistake_agent": "assistant", "mistake_step": 4}`,
			[]string{"system system: You are an expert DevOps engineer.", "user user: Localize the faulty component.",
				`assistant message: exec_shell("kubectl get pods")`, "env tool_result: geo 0/1 CrashLoopBackOff", `assistant message: submit(["geo"])`},
			&Label{Agent: "assistant", Step: 4}},
		{"environment role", `{"trace": [{"role": "user", "content": "t"}, {"role": "assistant", "content": "ls"}, {"role": "environment", "content": "a.txt"}]}`,
			[]string{"user user: t", "assistant message: ls", "environment tool_result: a.txt"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCase("run.json", []byte(tt.data), Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.steps, stepTexts(c.Run))
			assert.Equal(t, tt.label, c.Label)
		})
	}
	for _, bad := range []string{
		`{"trajectory": {"thought_0": "a", "tool_name_0": "f", "notes": "x"}}`,
		`{"trajectory": {"thought_0": "a", "observation_0": "b"}}`,
		`{"workflowLogs": [{"logType": "AgentStatusUpdate", "agentStatus": 5, "metadata": 7}]}`,
		`{"workflowLogs": [{"logType": "Other"}]}`,
		`{"team_name": "T", "messages": [], "member_responses": [{"agent_name": "M", "messages": [{"role": "system", "content": "s"}]}]}`,
		`{"trace": {"spans": []}}`,
		`{"trace": [{"role": "user", "content": "t"}, {"role": "user", "content": "u"}]}`,
		`{"trace": [{"role": "assistant", "content": "a"}, {"name": "x"}]}`,
	} {
		_, err := Parse("run.json", []byte(bad), Options{})
		assert.Error(t, err, bad)
	}
}

// TestSwarmSenders: OpenAI Swarm's messages (response.messages) name the
// agent of each reply by its sender, where a handoff changed it; a
// user's or a tool's message keeps its role, and a name the message
// gives wins.
func TestSwarmSenders(t *testing.T) {
	data := `{"messages": [
		{"role": "user", "content": "Cancel my Lisbon flight.", "sender": "Priya"},
		{"content": null, "refusal": null, "role": "assistant", "audio": null, "function_call": null, "tool_calls": [{"id": "c1", "function": {"arguments": "{}", "name": "transfer_to_cancel"}, "type": "function"}], "sender": "Triage Agent"},
		{"role": "tool", "tool_call_id": "c1", "tool_name": "transfer_to_cancel", "content": "{\"assistant\": \"Cancel Agent\"}"},
		{"content": "Done.", "refusal": null, "role": "assistant", "tool_calls": null, "sender": "Cancel Agent"},
		{"content": "Anything else?", "role": "assistant", "name": "closer", "sender": "Cancel Agent"}]}`
	r, err := Parse("swarm.json", []byte(data), Options{})
	require.NoError(t, err)
	var got []string
	for _, s := range r.Steps {
		got = append(got, s.Agent+" "+string(s.Kind))
	}
	assert.Equal(t, []string{"user user", "Triage Agent tool_call", "tool tool_result", "Cancel Agent message", "closer message"}, got)
}

// TestAgnoTeamManyDelegationsReturns: an Agno team's run with many
// members and many delegations (each naming a member none is, one
// member many share the name of, or none, as run_member_agents calls
// them) is read whole: every call, and every member's message once. A log
// is untrusted, and matching each call against every member would hang
// on a few megabytes: BenchmarkAgnoTeamManyDelegations reads one of
// them, whose time must grow with its size, not its square.
func TestAgnoTeamManyDelegationsReturns(t *testing.T) {
	const n = 200
	for name, call := range agnoDelegations {
		t.Run(name, func(t *testing.T) {
			c, err := ParseCase("team.json", agnoTeamDelegating(n, call), Options{})
			require.NoError(t, err)
			calls, said := 0, 0
			for _, s := range c.Run.Steps {
				if s.Kind == KindToolCall {
					calls++
				}
				if s.Agent == "m" {
					said++
				}
			}
			assert.Equal(t, n, calls, "every delegation")
			assert.Equal(t, n, said, "every member's message, once")
		})
	}
}

// BenchmarkAgnoTeamManyDelegations reads an Agno team's run of 20000
// delegations and as many members' runs.
func BenchmarkAgnoTeamManyDelegations(b *testing.B) {
	for name, call := range agnoDelegations {
		data := agnoTeamDelegating(20000, call)
		b.Run(strings.ReplaceAll(name, " ", "-"), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := ParseCase("team.json", data, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// agnoDelegations are the calls of a team's delegations: naming a member
// none is, one member many share the name of, or none.
var agnoDelegations = map[string]string{
	"a member none is":  `delegate_task_to_member", "arguments": "{\"member_id\": \"nobody\"}`,
	"a name many share": `delegate_task_to_member", "arguments": "{\"member_id\": \"m\"}`,
	"no member named":   `run_member_agents", "arguments": "{}`,
}

// agnoTeamDelegating is an Agno team's run of n delegations by call,
// each answered, and n members' runs, every member named m.
func agnoTeamDelegating(n int, call string) []byte {
	var msgs, members []string
	msgs = append(msgs, `{"role": "user", "content": "q"}`)
	for i := range n {
		msgs = append(msgs, fmt.Sprintf(`{"role": "assistant", "tool_calls": [{"id": "c%d", "type": "function", "function": {"name": "%s"}}]}`, i, call),
			fmt.Sprintf(`{"role": "tool", "tool_call_id": "c%d", "content": "ok"}`, i))
		members = append(members, `{"agent_name": "m", "messages": [{"role": "assistant", "content": "a"}]}`)
	}
	return []byte(`{"team_name": "T", "messages": [` + strings.Join(msgs, ",") + `], "member_responses": [` + strings.Join(members, ",") + `]}`)
}

// TestKaibanParallelTasks: a KaibanJS team that runs its tasks in
// parallel interleaves its agents' logs, and each tool's result answers
// the call of the agent whose log it is, not the call logged last.
func TestKaibanParallelTasks(t *testing.T) {
	data := `[
		{"logType": "TaskStatusUpdate", "taskStatus": "DOING", "agentName": "Ava", "task": {"description": "Find the capital of Peru."}},
		{"logType": "TaskStatusUpdate", "taskStatus": "DOING", "agentName": "Bo", "task": {"description": "Find the capital of Chile."}},
		{"logType": "AgentStatusUpdate", "agentStatus": "USING_TOOL", "agentName": "Ava", "metadata": {"tool": {"name": "lookup"}, "input": {"q": "Peru"}}},
		{"logType": "AgentStatusUpdate", "agentStatus": "USING_TOOL", "agentName": "Bo", "metadata": {"tool": {"name": "lookup"}, "input": {"q": "Chile"}}},
		{"logType": "AgentStatusUpdate", "agentStatus": "USING_TOOL_END", "agentName": "Ava", "metadata": {"output": "Lima"}},
		{"logType": "AgentStatusUpdate", "agentStatus": "USING_TOOL_ERROR", "agentName": "Bo", "metadata": {"error": "rate limited"}},
		{"logType": "AgentStatusUpdate", "agentStatus": "FINAL_ANSWER", "agentName": "Ava", "metadata": {"output": {"finalAnswer": "Lima"}}}]`
	r, err := Parse("kaiban.json", []byte(data), Options{})
	require.NoError(t, err)
	calls := map[string]string{} // call id → its agent
	var got []string
	for _, s := range r.Steps {
		for _, c := range s.ToolCalls() {
			calls[c.ID] = s.Agent
		}
		if s.Kind == KindToolResult {
			got = append(got, calls[s.ToolCallID()]+" "+s.Content)
		}
	}
	assert.Equal(t, []string{"Ava Lima", "Bo Error: rate limited"}, got)
}

// TestDumpsWithTheirLabels: a label written beside a framework's saved
// messages is the run's, whatever shape holds them: an AutoGen team's
// saved state, a LangGraph state's values, and Semantic Kernel's .NET
// ChatHistory under "messages", whose roles are objects.
func TestDumpsWithTheirLabels(t *testing.T) {
	tests := []struct {
		name, data string
		agents     []string
		agent      string
		step       int
	}{
		{"autogen team state", `{"type": "TeamState", "version": "1.0.0", "agent_states": {
			"SwarmGroupChatManager/t1": {"type": "SwarmManagerState", "message_thread": [
				{"source": "user", "type": "TextMessage", "content": "Move my flight to 6 March."},
				{"source": "triage", "type": "ToolCallRequestEvent", "content": [{"id": "c1", "arguments": "{}", "name": "transfer_to_refunds"}]},
				{"source": "triage", "type": "ToolCallExecutionEvent", "content": [{"content": "Transferred to refunds.", "name": "transfer_to_refunds", "call_id": "c1", "is_error": false}]},
				{"source": "refunds", "type": "TextMessage", "content": "Your booking is cancelled and refunded."}]}},
			"team_id": "t1", "mistake_agent": "triage", "mistake_step": 1, "mistake_reason": "hands a change to refunds"}`,
			[]string{"user", "triage", "triage", "refunds"}, "triage", 1},
		{"langgraph state values", `{"values": {"messages": [
				{"type": "human", "content": "What is 2 + 3?"},
				{"type": "ai", "name": "math_expert", "content": "2 + 3 is 6."}]}, "next": [],
			"mistake_agent": "math_expert", "mistake_step": 1}`,
			[]string{"user", "math_expert"}, "math_expert", 1},
		{"semantic kernel .NET history", `{"messages": [
				{"AuthorName": null, "Role": {"Label": "user"}, "Items": [{"$type": "TextContent", "Text": "How long is the bridge?"}]},
				{"AuthorName": "Researcher", "Role": {"Label": "assistant"}, "Items": [{"$type": "FunctionCallContent", "Id": "c1", "PluginName": "Wiki", "FunctionName": "Lookup", "Arguments": {"topic": "bridge"}}]},
				{"AuthorName": null, "Role": {"Label": "tool"}, "Items": [{"$type": "FunctionResultContent", "CallId": "c1", "PluginName": "Wiki", "FunctionName": "Lookup", "Result": "7,845 m"}]},
				{"AuthorName": "Writer", "Role": {"Label": "assistant"}, "Items": [{"$type": "TextContent", "Text": "It is 7,485 m long."}]}],
			"mistake_agent": "Writer", "mistake_step": 3}`,
			[]string{"user", "Researcher", "Researcher", "Writer"}, "Writer", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCase("run.json", []byte(tt.data), Options{})
			require.NoError(t, err)
			var agents []string
			for _, s := range c.Run.Steps {
				agents = append(agents, s.Agent)
			}
			assert.Equal(t, tt.agents, agents)
			require.NotNil(t, c.Label, "the label beside the messages is read")
			assert.Equal(t, tt.agent, c.Label.Agent)
			assert.Equal(t, tt.step, c.Label.Step)
		})
	}
}

// TestGeminiContentsUnderHistory: Gemini's contents kept under "history"
// (a chat session's, a checkpoint with a label beside it) are read by
// their parts, not as a Who&When case's empty messages; a Who&When
// history of messages with content stays one.
func TestGeminiContentsUnderHistory(t *testing.T) {
	const contents = `[{"role": "user", "parts": [{"text": "Fix repro.py"}]},
		{"role": "model", "parts": [{"text": "Reading it."}, {"functionCall": {"name": "read_file", "args": {"absolute_path": "/w/repro.py"}}}]},
		{"role": "user", "parts": [{"functionResponse": {"name": "read_file", "response": {"output": "print(1)"}}}]},
		{"role": "model", "parts": [{"text": "Done."}]}]`
	for _, tt := range []struct {
		name, data string
		format     Format
		texts      []string
	}{
		{"contents under history", `{"mistake_agent": "assistant", "mistake_step": 3, "history": ` + contents + `}`, FormatTranscript, []string{"Fix repro.py", "Reading it.", "print(1)", "Done."}},
		{"Who&When messages", `{"history": [{"role": "user", "content": "Fix repro.py", "parts": [{"text": "x"}]}, {"role": "assistant", "name": "coder", "content": "Done."}]}`, FormatWhoWhen, []string{"Fix repro.py", "Done."}},
	} {
		c, err := ParseCase("run.json", []byte(tt.data), Options{})
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.format, c.Run.Format, tt.name)
		var texts []string
		for _, s := range c.Run.Steps {
			texts = append(texts, s.Content)
		}
		assert.Equal(t, tt.texts, texts, tt.name)
	}
}

// TestDumpTextCalls: a framework's dump that keeps a ReAct agent's turns
// as plain messages (LlamaIndex's ReAct agent, its memory's ChatMessages
// with their blocks, each observation in the user's role) has the calls
// those turns write in their text, each answered by the observation
// after it, the caller's result; a user's turn after a reply that writes
// no call stays the user's, and a dump that keeps calls of its own (a
// tool's event after the model's text, as AgentOps records them) has
// only those.
func TestDumpTextCalls(t *testing.T) {
	msg := func(role, text string) string {
		b, err := json.Marshal(map[string]any{"role": role, "additional_kwargs": map[string]any{},
			"blocks": []any{map[string]any{"block_type": "text", "text": text}}})
		require.NoError(t, err)
		return string(b)
	}
	tests := []struct {
		name  string
		msgs  []string
		steps []string
		call  ToolCall
	}{
		{"an action and its observation", []string{
			msg("user", "How tall is the Jungfrau?"),
			msg("assistant", "Thought: I need to use a tool.\nAction: search\nAction Input: {\"query\": \"Jungfrau height\"}"),
			msg("user", "Observation: The Jungfrau is 4,158 m tall."),
			msg("assistant", "Thought: I can answer.\nAnswer: 4,158 m"),
		}, []string{"user user", "assistant tool_call", "assistant tool_result", "assistant message"},
			ToolCall{Name: "search", Arguments: `{"query": "Jungfrau height"}`}},
		{"no action: the user's observation is the user's", []string{
			msg("user", "How tall is the Jungfrau?"),
			msg("assistant", "Which Jungfrau do you mean?"),
			msg("user", "Observation: the one in Switzerland."),
		}, []string{"user user", "assistant message", "user user"}, ToolCall{}},
		{"a dump that keeps its calls: the text's action is the call's words", []string{
			`{"role": "user", "content": [{"type": "text", "text": "How tall is the Jungfrau?"}]}`,
			`{"role": "assistant", "content": [{"type": "text", "text": "Thought: I need to search.\nAction: search\nAction Input: Jungfrau height"}]}`,
			`{"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "search", "input": {"query": "Jungfrau height"}}]}`,
			`{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "4,158 m"}]}`,
		}, []string{"user user", "assistant message", "assistant tool_call", "assistant tool_result"}, ToolCall{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse("memory.json", []byte("["+strings.Join(tt.msgs, ",")+"]"), Options{})
			require.NoError(t, err)
			var got []string
			for _, s := range r.Steps {
				got = append(got, s.Agent+" "+string(s.Kind))
			}
			assert.Equal(t, tt.steps, got)
			if tt.call.Name == "" {
				return
			}
			require.Len(t, r.Steps[1].ToolCalls(), 1)
			assert.Equal(t, tt.call, r.Steps[1].ToolCalls()[0])
			assert.Equal(t, "Observation: The Jungfrau is 4,158 m tall.", r.Steps[2].Content)
		})
	}
}

// FuzzDumpTextCalls reads fuzzed dumps whose replies write ReAct actions.
func FuzzDumpTextCalls(f *testing.F) {
	f.Add([]byte(`[{"role": "user", "additional_kwargs": {}, "blocks": [{"block_type": "text", "text": "q"}]},
		{"role": "assistant", "additional_kwargs": {}, "blocks": [{"block_type": "text", "text": "Action: search\nAction Input: {\"query\": \"x\"}"}]},
		{"role": "user", "additional_kwargs": {}, "blocks": [{"block_type": "text", "text": "Observation: y"}]},
		{"role": "assistant", "additional_kwargs": {}, "blocks": [{"block_type": "text", "text": "Answer: y"}]}]`))
	f.Add([]byte(`{"mistake_agent": "assistant", "mistake_step": 1, "chat_history": [{"role": "assistant", "blocks": [{"block_type": "text", "text": "<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>"}]}, {"role": "system", "blocks": [{"block_type": "text", "text": "<tool_response>1</tool_response>"}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) { checkParsed(t, data, FormatAuto) })
}
