package run

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parsedSteps parses data and gives its steps as "agent kind: content".
func parsedSteps(t *testing.T, data string) (*Case, []string) {
	t.Helper()
	c, err := ParseCase("run.json", []byte(data), Options{})
	require.NoError(t, err)
	var got []string
	for _, s := range c.Run.Steps {
		got = append(got, s.Agent+" "+string(s.Kind)+": "+s.Content)
	}
	return c, got
}

// TestLowCodeRuns: low-code platforms' saved runs are read by their
// structure, a tool call and its result as steps, the node or agent that
// made a step as its agent, and a label beside them as the run's.
func TestLowCodeRuns(t *testing.T) {
	tests := []struct {
		name, data   string
		want         []string
		instructions string
		labelStep    int
	}{
		{
			name: "n8n execution: the model's calls, the tool nodes' results in run order, the agent's answer once",
			data: `{"id": "7", "finished": true, "status": "success", "data": {"resultData": {"runData": {
				"Calculator": [{"startTime": 1300, "executionIndex": 4, "source": [{"previousNode": "AI Agent"}], "data": {"ai_tool": [[{"json": {"response": "42"}}]]}, "inputOverride": {"ai_tool": [[{"json": {"query": "6 * 7"}}]]}}],
				"AI Agent": [{"startTime": 1001, "executionIndex": 1, "executionTime": 900, "source": [{"previousNode": "When chat message received"}], "data": {"main": [[{"json": {"output": "It is 42."}}]]}}],
				"Respond": [{"startTime": 2000, "executionIndex": 6, "source": [{"previousNode": "AI Agent"}], "data": {"main": [[{"json": {"output": "It is 42."}}]]}}],
				"OpenAI Chat Model": [
					{"startTime": 1100, "executionIndex": 2, "source": [{"previousNode": "AI Agent"}], "data": {"ai_languageModel": [[{"json": {"response": {"generations": [[{"text": "", "message": {"lc": 1, "type": "constructor", "kwargs": {"content": "", "tool_calls": [{"name": "calculator", "args": {"input": "6 * 7"}, "id": "c1", "type": "tool_call"}]}}}]]}}}]]},
					 "inputOverride": {"ai_languageModel": [[{"json": {"messages": ["System: Use the calculator.\nHuman: What is 6 times 7?"]}}]]}},
					{"startTime": 1500, "executionIndex": 5, "source": [{"previousNode": "AI Agent"}], "data": {"ai_languageModel": [[{"json": {"response": {"generations": [[{"text": "It is 42."}]]}}}]]}}],
				"When chat message received": [{"startTime": 1000, "executionIndex": 0, "source": [], "data": {"main": [[{"json": {"sessionId": "s", "action": "sendMessage", "chatInput": "What is 6 times 7?"}}]]}}]
			}}}, "mistake_agent": "AI Agent", "mistake_step": 1}`,
			want: []string{
				"user user: What is 6 times 7?",
				`AI Agent tool_call: calculator({"input":"6 * 7"})`,
				"AI Agent tool_result: 42",
				"AI Agent message: It is 42.",
			},
			instructions: "Use the calculator.",
			labelStep:    1,
		},
		{
			name: "n8n execution: an agent's intermediate steps when no sub-node's run is saved",
			data: `{"id": "8", "data": {"resultData": {"runData": {
				"Webhook": [{"startTime": 1, "source": [], "data": {"main": [[{"json": {"body": {"message": "Weather in Oslo?"}}}]]}}],
				"Agent": [{"startTime": 2, "source": [{"previousNode": "Webhook"}], "data": {"main": [[{"json": {"output": "Oslo: 3°C.", "intermediateSteps": [
					{"action": {"tool": "weather", "toolInput": {"city": "Oslo"}, "log": "Invoking \"weather\" with {\"city\":\"Oslo\"}", "toolCallId": "c1"}, "observation": "{\"temp_c\": 3}"}]}}]]}}]
			}}}}`,
			want: []string{
				"user user: Weather in Oslo?",
				`Agent tool_call: weather({"city":"Oslo"})`,
				`Agent tool_result: {"temp_c": 3}`,
				"Agent message: Oslo: 3°C.",
			},
			labelStep: -1,
		},
		{
			name: "n8n execution: a tool node's run whose call no model output saved is a call of its input, by the node's name",
			data: `{"id": "10", "data": {"resultData": {"runData": {
				"When chat message received": [{"startTime": 1, "source": [], "data": {"main": [[{"json": {"chatInput": "Who wrote Dune?"}}]]}}],
				"Agent": [{"startTime": 2, "executionTime": 50, "source": [{"previousNode": "When chat message received"}], "data": {"main": [[{"json": {"output": "Frank Herbert."}}]]}}],
				"Model": [{"startTime": 3, "source": [{"previousNode": "Agent"}], "data": {"ai_languageModel": [[{"json": {"response": {"generations": [[{"text": "", "generationInfo": {"finish_reason": "tool_calls"}}]]}}}]]}}],
				"Wiki Search": [{"startTime": 4, "source": [{"previousNode": "Agent"}], "data": {"ai_tool": [[{"json": {"response": "Dune is a 1965 novel by Frank Herbert."}}]]}, "inputOverride": {"ai_tool": [[{"json": {"query": "Dune novel author"}}]]}}],
				"Model ": [{"startTime": 5, "source": [{"previousNode": "Agent"}], "data": {"ai_languageModel": [[{"json": {"response": {"generations": [[{"text": "Frank Herbert."}]]}}}]]}}]
			}}}}`,
			want: []string{
				"user user: Who wrote Dune?",
				`Agent tool_call: wiki_search({"input":"Dune novel author"})`,
				"Agent tool_result: Dune is a 1965 novel by Frank Herbert.",
				"Agent message: Frank Herbert.",
			},
			labelStep: -1,
		},
		{
			name: "n8n execution: an agent used as a tool makes its own steps, the call hands it the task",
			data: `{"id": "9", "data": {"resultData": {"runData": {
				"Chat": [{"startTime": 1, "source": [], "data": {"main": [[{"json": {"chatInput": "Forecast for Denver on 6 Dec?"}}]]}}],
				"Boss": [{"startTime": 2, "executionTime": 90, "source": [{"previousNode": "Chat"}], "data": {"main": [[{"json": {"output": "Snow."}}]]}}],
				"Model": [
					{"startTime": 10, "source": [{"previousNode": "Boss"}], "data": {"ai_languageModel": [[{"json": {"response": {"generations": [[{"text": "", "message": {"kwargs": {"tool_calls": [{"name": "weather_agent", "args": {"input": "Denver on 7 Dec?"}, "id": "a"}]}}}]]}}}]]}},
					{"startTime": 30, "source": [{"previousNode": "Weather Agent"}], "data": {"ai_languageModel": [[{"json": {"response": {"generations": [[{"text": "", "message": {"kwargs": {"tool_calls": [{"name": "forecast", "args": {"date": "12-07"}, "id": "b"}]}}}]]}}}]]}},
					{"startTime": 50, "source": [{"previousNode": "Weather Agent"}], "data": {"ai_languageModel": [[{"json": {"response": {"generations": [[{"text": "Snow on 7 Dec."}]]}}}]]}},
					{"startTime": 70, "source": [{"previousNode": "Boss"}], "data": {"ai_languageModel": [[{"json": {"response": {"generations": [[{"text": "Snow."}]]}}}]]}}],
				"Weather Agent": [{"startTime": 20, "source": [{"previousNode": "Boss"}], "data": {"ai_tool": [[{"json": {"output": "Snow on 7 Dec."}}]]}}],
				"Forecast": [{"startTime": 40, "source": [{"previousNode": "Weather Agent"}], "data": {"ai_tool": [[{"json": {"response": "snow"}}]]}}]
			}}}}`,
			want: []string{
				"user user: Forecast for Denver on 6 Dec?",
				`Boss tool_call: weather_agent({"input":"Denver on 7 Dec?"})`,
				`Weather Agent tool_call: forecast({"date":"12-07"})`,
				"Weather Agent tool_result: snow",
				"Weather Agent message: Snow on 7 Dec.",
				"Boss tool_result: Snow on 7 Dec.",
				"Boss message: Snow.",
			},
			labelStep: -1,
		},
		{
			name: "Dify messages: oldest first, retrieved segments, calls of several tools, the answer once",
			data: `{"limit": 20, "has_more": false, "data": [
				{"id": "m2", "conversation_id": "c", "query": "Book it.", "answer": "Booked.", "created_at": 20, "retriever_resources": [], "agent_thoughts": [
					{"position": 2, "thought": "Booked.", "tool": "", "tool_input": "", "observation": ""},
					{"position": 1, "thought": "Booking.", "tool": "book;notify", "tool_input": "{\"book\": {\"id\": 7}, \"notify\": {\"to\": \"me\"}}", "observation": "{\"book\": \"ok\", \"notify\": \"sent\"}"}]},
				{"id": "m1", "conversation_id": "c", "query": "Which room?", "answer": "Room 7.", "created_at": 10, "agent_thoughts": [],
				 "retriever_resources": [{"document_name": "rooms.md", "content": "Room 7 is free."}]}],
				"mistake_agent": "assistant", "mistake_step": 5}`,
			want: []string{
				"user user: Which room?",
				`assistant tool_call: dataset_retrieval({"query":"Which room?"})`,
				"assistant tool_result: [rooms.md] Room 7 is free.",
				"assistant message: Room 7.",
				"user user: Book it.",
				"assistant tool_call: Booking.",
				"assistant tool_result: ok",
				`assistant tool_call: notify({"to":"me"})`,
				"assistant tool_result: sent",
				"assistant message: Booked.",
			},
			labelStep: 5,
		},
		{
			name: "Dify node executions: a model's output that a tool node takes is its call, a node's configuration no value of the run's, an answer node repeats no one",
			data: `[
				{"index": 3, "node_id": "3", "node_type": "knowledge-retrieval", "title": "Retrieve", "inputs": {"query": "leave policy"}, "outputs": {"result": [{"title": "hr.md", "content": "6 weeks."}]}, "status": "succeeded"},
				{"index": 1, "node_id": "1", "node_type": "start", "title": "Start", "inputs": {"sys.query": "Leave policy in 2024?", "sys.user_id": "u"}, "outputs": {}, "status": "succeeded"},
				{"index": 2, "node_id": "2", "node_type": "llm", "title": "Rewrite", "inputs": {}, "outputs": {"text": "leave policy"}, "status": "succeeded"},
				{"index": 4, "node_id": "4", "node_type": "tool", "title": "Calendar", "inputs": {"year": "2024", "limit": 5}, "outputs": {}, "status": "failed", "error": "timeout"},
				{"index": 5, "node_id": "5", "node_type": "llm", "title": "Answer", "inputs": {}, "outputs": {"text": "6 weeks."}, "status": "succeeded"},
				{"index": 6, "node_id": "6", "node_type": "end", "title": "End", "inputs": {}, "outputs": {"result": "6 weeks."}, "status": "succeeded"}]`,
			want: []string{
				"user user: Leave policy in 2024?",
				`Rewrite tool_call: Retrieve({"query":"leave policy"})`,
				"Rewrite tool_result: [hr.md] 6 weeks.",
				`Calendar tool_call: Calendar({"year":"2024"})`,
				"Calendar tool_result: Error: timeout",
				"Answer message: 6 weeks.",
			},
			labelStep: -1,
		},
		{
			name: "Dify node executions: an agent node's log, its model's turns and its tool calls, its rounds only grouping them",
			data: `{"data": [
				{"id": "e1", "index": 1, "predecessor_node_id": null, "node_id": "1733", "node_type": "start", "title": "Start", "inputs": {"sys.query": "Weather in Oslo?", "sys.files": []}, "process_data": null, "outputs": {}, "status": "succeeded", "error": null, "elapsed_time": 0.01, "execution_metadata": null, "extras": {}, "created_at": 1732870000},
				{"id": "e2", "index": 2, "predecessor_node_id": "1733", "node_id": "1734", "node_type": "agent", "title": "Agent", "inputs": {"query": "Weather in Oslo?"}, "process_data": null,
				 "outputs": {"text": "It is snowing in Oslo.", "files": [], "json": []}, "status": "succeeded", "error": null, "elapsed_time": 3.2, "created_at": 1732870001,
				 "execution_metadata": {"total_tokens": 812, "agent_log": [
					{"id": "r1", "label": "ROUND 1", "parent_id": null, "error": null, "status": "success", "data": {"output": {"llm_response": "", "tool_responses": [{"tool_call_id": "c1", "tool_call_name": "weather", "tool_response": "snow, -3 C"}]}}, "metadata": {"elapsed_time": 1.9}, "node_id": "1734", "node_execution_id": "e2"},
					{"id": "m1", "label": "gpt-4o Thought", "parent_id": "r1", "error": null, "status": "success", "data": {"output": "Let me check the forecast.", "tool_name": "weather", "tool_input": [{"name": "weather", "args": {"city": "Oslo"}}]}, "metadata": {"provider": "openai"}, "node_id": "1734", "node_execution_id": "e2"},
					{"id": "t1", "label": "CALL weather", "parent_id": "r1", "error": null, "status": "success", "data": {"tool_call_id": "c1", "tool_call_name": "weather", "tool_call_args": {"city": "Oslo"}, "output": "snow, -3 C"}, "metadata": {"provider": "weather"}, "node_id": "1734", "node_execution_id": "e2"},
					{"id": "r2", "label": "ROUND 2", "parent_id": null, "error": null, "status": "success", "data": {"output": {"llm_response": "It is snowing in Oslo.", "tool_responses": []}}, "metadata": {}, "node_id": "1734", "node_execution_id": "e2"},
					{"id": "m2", "label": "gpt-4o Thought", "parent_id": "r2", "error": null, "status": "success", "data": {"output": "It is snowing in Oslo.", "tool_name": "", "tool_input": []}, "metadata": {}, "node_id": "1734", "node_execution_id": "e2"}]}},
				{"id": "e3", "index": 3, "predecessor_node_id": "1734", "node_id": "1735", "node_type": "answer", "title": "Answer", "inputs": {}, "process_data": null, "outputs": {"answer": "It is snowing in Oslo."}, "status": "succeeded", "error": null, "elapsed_time": 0.01, "execution_metadata": null, "extras": {}, "created_at": 1732870004}]}`,
			want: []string{
				"user user: Weather in Oslo?",
				"Agent message: Let me check the forecast.",
				`Agent tool_call: weather({"city":"Oslo"})`,
				"Agent tool_result: snow, -3 C",
				"Agent message: It is snowing in Oslo.",
			},
			labelStep: -1,
		},
		{
			name: "Flowise prediction: a supervisor's instructions hand over, the workers' tools and words, the text once",
			data: `{"text": "Brief.", "question": "Revenue 2024?", "chatId": "c", "chatMessageId": "m", "agentReasoning": [
				{"agentName": "Supervisor", "messages": [], "next": "Researcher", "instructions": "Find revenue for 2023."},
				{"agentName": "Researcher", "messages": ["Revenue 2023: $5M."], "usedTools": [{"tool": "search", "toolInput": {"input": "revenue 2023"}, "toolOutput": "$5M"}]},
				{"agentName": "Writer", "messages": ["Brief."]},
				{"agentName": "Supervisor", "messages": [], "next": "FINISH", "instructions": "Conversation finished"}],
				"mistake_agent": "Supervisor", "mistake_step": 1}`,
			want: []string{
				"user user: Revenue 2024?",
				"Supervisor handoff: Find revenue for 2023.",
				`Researcher tool_call: search({"input":"revenue 2023"})`,
				"Researcher tool_result: $5M",
				"Researcher message: Revenue 2023: $5M.",
				"Writer message: Brief.",
			},
			labelStep: 1,
		},
		{
			name: "Flowise Agentflow: each executed node under its label, a tool node's call, a reply that repeats no one",
			data: `{"text": "Snow.", "question": "Weather in Oslo?", "chatId": "c", "chatMessageId": "m", "agentFlowExecutedData": [
				{"nodeId": "startAgentflow_0", "nodeLabel": "Start", "data": {"id": "startAgentflow_0", "name": "startAgentflow", "input": {"question": "Weather in Oslo?"}, "output": {"question": "Weather in Oslo?"}}, "previousNodeIds": [], "status": "FINISHED"},
				{"nodeId": "agentAgentflow_0", "nodeLabel": "Forecaster", "data": {"name": "agentAgentflow", "input": {"messages": []}, "output": {"content": "Oslo: snow.", "usedTools": [{"tool": "weather", "toolInput": {"city": "Oslo"}, "toolOutput": "snow"}]}}, "previousNodeIds": ["startAgentflow_0"], "status": "FINISHED"},
				{"nodeId": "conditionAgentflow_0", "nodeLabel": "Check", "data": {"name": "conditionAgentflow", "input": {}, "output": {"conditions": []}}, "status": "FINISHED"},
				{"nodeId": "toolAgentflow_0", "nodeLabel": "Notify", "data": {"name": "toolAgentflow", "input": {"selectedTool": "slack", "toolInputArgs": {"text": "snow"}}, "output": {"content": "HTTP 500"}}, "status": "ERROR"},
				{"nodeId": "llmAgentflow_0", "nodeLabel": "Writer", "data": {"name": "llmAgentflow", "input": {}, "output": {"content": "Snow."}}, "status": "FINISHED"},
				{"nodeId": "directReplyAgentflow_0", "nodeLabel": "Reply", "data": {"name": "directReplyAgentflow", "input": {}, "output": {"content": "Snow."}}, "status": "FINISHED"}]}`,
			want: []string{
				"user user: Weather in Oslo?",
				`Forecaster tool_call: weather({"city":"Oslo"})`,
				"Forecaster tool_result: snow",
				"Forecaster message: Oslo: snow.",
				`Notify tool_call: slack({"text":"snow"})`,
				"Notify tool_result: Error: HTTP 500",
				"Writer message: Snow.",
			},
			labelStep: -1,
		},
		{
			name: "Flowise chat messages: tools and documents kept as JSON text",
			data: `[
				{"id": "1", "role": "userMessage", "chatflowid": "f", "content": "Price of X2?", "chatId": "c", "createdDate": "2026-11-01T10:00:00.000Z"},
				{"id": "2", "role": "apiMessage", "chatflowid": "f", "content": "$900.", "chatId": "c", "usedTools": "[{\"tool\":\"catalog\",\"toolInput\":{\"input\":\"X2\"},\"toolOutput\":\"X2: $990\"}]",
				 "sourceDocuments": "[{\"pageContent\":\"X2 costs $990.\",\"metadata\":{\"source\":\"x2.pdf\"}}]", "agentReasoning": null}]`,
			want: []string{
				"user user: Price of X2?",
				`assistant tool_call: catalog({"input":"X2"})`,
				"assistant tool_result: X2: $990",
				"assistant tool_call: retriever({})",
				"assistant tool_result: [x2.pdf] X2 costs $990.",
				"assistant message: $900.",
			},
			labelStep: -1,
		},
		{
			name: "Langflow run output: the input, the agent's tool uses (a failed one), its text once",
			data: `{"session_id": "s", "outputs": [{"inputs": {"input_value": "Rain in Oslo?"}, "outputs": [{"results": {"message": {
				"text": "No rain.", "sender": "Machine", "sender_name": "AI", "session_id": "s", "content_blocks": [{"title": "Agent Steps", "contents": [
					{"type": "text", "header": {"title": "Input"}, "text": "Rain in Oslo?"},
					{"type": "tool_use", "name": "weather", "tool_input": {"city": "Oslo"}, "output": null, "error": "503"},
					{"type": "text", "header": {"title": "Output"}, "text": "No rain."}]}]}}}]}],
				"mistake_agent": "AI", "mistake_step": 3}`,
			want: []string{
				"user user: Rain in Oslo?",
				`AI tool_call: weather({"city":"Oslo"})`,
				"AI tool_result: Error: 503",
				"AI message: No rain.",
			},
			labelStep: 3,
		},
		{
			name: "Langflow messages: the user's and the machine's, each under its sender",
			data: `[
				{"id": "1", "flow_id": "f", "timestamp": "2026-11-28 10:00:00 UTC", "sender": "User", "sender_name": "User", "session_id": "s", "text": "Hi", "files": [], "content_blocks": []},
				{"id": "2", "flow_id": "f", "timestamp": "2026-11-28 10:00:02 UTC", "sender": "Machine", "sender_name": "Helper", "session_id": "s", "text": "Hello!", "files": [], "content_blocks": []}]`,
			want:      []string{"user user: Hi", "Helper message: Hello!"},
			labelStep: -1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, got := parsedSteps(t, tt.data)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.instructions, c.Run.Instructions)
			if tt.labelStep < 0 {
				assert.Nil(t, c.Label)
				return
			}
			require.NotNil(t, c.Label)
			assert.Equal(t, tt.labelStep, c.Label.Step)
		})
	}
}

// TestN8nSourceLoop: runs whose sources loop (a node its own sub-node,
// many times over) are read at once, not once per path: each run is a
// call and its result. Read once per path, 40 runs would not return; the
// wait below only catches that.
func TestN8nSourceLoop(t *testing.T) {
	const n = 40
	data := []byte(n8nSourceLoop(n))
	done := make(chan *Case, 1)
	go func() {
		c, err := ParseCase("loop.json", data, Options{})
		assert.NoError(t, err)
		done <- c
	}()
	select {
	case c := <-done:
		require.NotNil(t, c)
		assert.Len(t, c.Run.Steps, 2*n, "a call and its result per run")
	case <-time.After(5 * time.Minute):
		t.Fatal("reading the looping runs did not return")
	}
}

// BenchmarkN8nSourceLoop reads runs whose sources loop.
func BenchmarkN8nSourceLoop(b *testing.B) {
	data := []byte(n8nSourceLoop(40))
	for b.Loop() {
		if _, err := ParseCase("loop.json", data, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// n8nSourceLoop is an n8n execution of n runs of one node, each its own
// source.
func n8nSourceLoop(n int) string {
	var runs []string
	for i := range n {
		runs = append(runs, fmt.Sprintf(`{"startTime": %d, "source": [{"previousNode": "A"}], "data": {"ai_tool": [[{"json": {"response": "r"}}]]}}`, i))
	}
	return `{"data": {"resultData": {"runData": {"A": [` + strings.Join(runs, ",") + `]}}}}`
}

// FuzzParseLowCode reads fuzzed low-code platforms' saved runs, from the
// tests' shapes.
func FuzzParseLowCode(f *testing.F) {
	f.Add([]byte(`{"data": "[{\"resultData\":\"1\"},{\"runData\":\"2\"},{\"A\":\"3\"},[\"4\"],{\"source\":\"5\",\"data\":\"0\"},[]]"}`))
	f.Add([]byte(`{"data": "[{\"resultData\":\"1\"},{\"runData\":\"1\",\"x\":\"0\"}]"}`))
	f.Add([]byte(`{"data": "[{\"resultData\":\"1\"},[\"2\",\"2\",\"2\"],[\"3\",\"3\",\"3\"],[\"4\",\"4\",\"4\"],[\"5\",\"5\"],\"x\"]"}`))
	f.Add([]byte(`{"data": [{"node_type": "agent", "node_id": "1", "title": "A", "outputs": {"text": "x"}, "execution_metadata": "{\"agent_log\": [{\"id\": \"r\", \"parent_id\": \"r\", \"label\": \"CALL \", \"data\": {\"output\": {}}}]}"}]}`))
	f.Add([]byte(`{"data": {"resultData": {"runData": {"A": [{"startTime": 1, "source": [{"previousNode": "B"}], "data": {"ai_tool": [[{"json": {"response": "x"}}]]}}], "B": [{"source": [], "data": {"main": [[{"json": {"chatInput": "q", "intermediateSteps": [{"action": {"tool": "t"}}]}}]]}}]}}}}`))
	f.Add([]byte(`{"data": [{"query": "q", "answer": "a", "conversation_id": "c", "agent_thoughts": [{"position": 1, "tool": "a;;b", "tool_input": "{\"a\": 1}", "observation": "["}]}]}`))
	f.Add([]byte(`[{"node_type": "tool", "node_id": "1", "title": "T", "inputs": {"q": "x"}, "outputs": null, "status": "failed"}]`))
	f.Add([]byte(`{"text": "t", "chatId": "c", "agentReasoning": "[{\"agentName\": \"a\", \"next\": \"b\", \"instructions\": \"i\"}]", "usedTools": [{"tool": 3}]}`))
	f.Add([]byte(`{"text": "t", "chatId": "c", "agentFlowExecutedData": [{"nodeLabel": "a", "data": {"name": "toolAgentflow", "input": {"toolInputArgs": 1}, "output": {"content": ["x"]}}, "status": "ERROR"}, {"data": {"name": "startAgentflow", "output": {"question": "q"}}}]}`))
	f.Add([]byte(`{"outputs": [{"inputs": {}, "outputs": [{"results": {"message": {"content_blocks": [{"contents": [{"type": "tool_use"}]}]}}}]}]}`))
	fuzzFormat(f, FormatAuto)
}

// TestLowCodeBigRuns: the shapes of big saved runs, at a size read at
// once anywhere, read right: a model's run that makes many calls answered
// by many tools' runs, each tool's run answering the first call left; a
// Dify workflow's many nodes, each a call and its result. That their
// reading grows with their size, not its square, is
// BenchmarkLowCodeBigRuns's to show.
func TestLowCodeBigRuns(t *testing.T) {
	t.Run("an n8n model's many calls", func(t *testing.T) {
		const calls, tools = 100, 10
		c, err := ParseCase("big.json", []byte(n8nManyCalls(calls, tools)), Options{})
		require.NoError(t, err)
		var made []string
		var answered []string
		for _, s := range c.Run.Steps {
			switch s.Kind {
			case KindToolCall:
				for _, call := range s.ToolCalls() {
					made = append(made, call.ID)
				}
			case KindToolResult:
				answered = append(answered, s.ToolCallID())
			}
		}
		require.Len(t, made, calls)
		assert.Equal(t, made[:tools], answered, "each tool's run answers the first call left")
	})
	t.Run("a Dify workflow's many nodes", func(t *testing.T) {
		const nodes = 50
		c, err := ParseCase("big.json", []byte(difyManyNodes(nodes, 10, 8)), Options{})
		require.NoError(t, err)
		assert.Len(t, c.Run.Steps, 1+2*(nodes-1)+1, "the task, a call and its result per tool node, the answer")
	})
}

// BenchmarkLowCodeBigRuns reads big saved runs: a model's run that makes
// many calls answered by many tools' runs, and a Dify workflow's many
// nodes, each input looked for in the steps before it.
func BenchmarkLowCodeBigRuns(b *testing.B) {
	for name, data := range map[string]string{
		"n8n-many-calls":  n8nManyCalls(100000, 10000),
		"dify-many-nodes": difyManyNodes(2000, 100, 80),
	} {
		in := []byte(data)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				if _, err := ParseCase("big.json", in, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// n8nManyCalls is an n8n execution whose model's run makes calls calls,
// answered by the runs of tools tools, none named as a call's tool.
func n8nManyCalls(calls, tools int) string {
	var cs, ts []string
	for i := range calls {
		cs = append(cs, fmt.Sprintf(`{"name": "t%d", "args": {}}`, i))
	}
	for i := range tools {
		ts = append(ts, fmt.Sprintf(`"Tool %d": [{"startTime": %d, "source": [{"previousNode": "Agent"}], "data": {"ai_tool": [[{"json": {"response": "r"}}]]}}]`, i, 3+i))
	}
	return `{"data": {"resultData": {"runData": {
		"Chat": [{"startTime": 1, "source": [], "data": {"main": [[{"json": {"chatInput": "hi"}}]]}}],
		"Model": [{"startTime": 2, "source": [{"previousNode": "Agent"}], "data": {"ai_languageModel": [[{"json": {"response": {"generations": [[{"text": "", "message": {"kwargs": {"tool_calls": [` + strings.Join(cs, ",") + `]}}}]]}}}]]}}],
		"Agent": [{"startTime": 1.5, "source": [{"previousNode": "Chat"}], "data": {"main": [[{"json": {"output": "done"}}]]}}],
		` + strings.Join(ts, ",") + `}}}}`
}

// difyManyNodes is a Dify workflow of a start, nodes-1 tool nodes of
// inputs inputs each, each input's text among the words (words of them)
// its node writes, and an end.
func difyManyNodes(nodes, inputs, words int) string {
	ns := []string{`{"node_type": "start", "node_id": "s", "title": "Start", "index": 0, "inputs": {"sys.query": "find it"}, "outputs": {}}`}
	written := func(i int) string {
		var b strings.Builder
		for j := range words {
			fmt.Fprintf(&b, "w%dy%d ", i, j)
		}
		return b.String()
	}
	for i := 1; i < nodes; i++ {
		var in []string
		for k := range inputs {
			in = append(in, fmt.Sprintf(`"in%d": "w%dy%d %d"`, k, i, k, k))
		}
		ns = append(ns, fmt.Sprintf(`{"node_type": "tool", "node_id": "n%d", "title": "T%d", "index": %d, "inputs": {%s}, "outputs": {"text": "%s"}}`, i, i, i, strings.Join(in, ", "), written(i)))
	}
	return `{"data": [` + strings.Join(ns, ",") + fmt.Sprintf(`, {"node_type": "end", "node_id": "e", "title": "End", "index": %d, "outputs": {"a": "done"}}]}`, nodes)
}

// TestN8nFlattedExecution: an n8n execution whose data is flatted text,
// as n8n's own REST API answers GET /rest/executions/{id} and its
// database keeps it, reads as the same data written out does.
func TestN8nFlattedExecution(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "lowcode", "n8n_rest_execution_flatted.json"))
	require.NoError(t, err)
	c, got := parsedSteps(t, string(data))
	assert.Equal(t, []string{
		"user user: What is 6 times 7?",
		`AI Agent tool_call: calculator({"input":"6 * 7"})`,
		"AI Agent tool_result: 42",
		"AI Agent message: It is 42.",
	}, got)
	assert.Equal(t, "Use the calculator.", c.Run.Instructions)
}

// TestUnflatten: flatted text reads as its value; a reference to an
// entry that holds it is null, and text that is no flatted value, or
// whose entries refer to each other more often than it has bytes, is
// not read.
func TestUnflatten(t *testing.T) {
	tests := []struct {
		name, text string
		want       any // nil: refused
	}{
		{name: "shared string", text: `[{"a":"1","b":"2"},"x",["1",2,null]]`, want: map[string]any{"a": "x", "b": []any{"x", json.Number("2"), nil}}},
		{name: "a cycle", text: `[{"self":"0","n":1}]`, want: map[string]any{"self": nil, "n": json.Number("1")}},
		{name: "no entry", text: `[{"a":"7"}]`},
		{name: "no index", text: `[{"a":"x"}]`},
		{name: "not an array", text: `{"a":"1"}`},
		{name: "entries doubling", text: `[["1","1"],["2","2"],["3","3"],["4","4"],["5","5"],["6","6"],["7","7"],["8","8"],["9","9"],["10","10"],["11","11"],["12","12"],["13","13"],["14","14"],["15","15"],[]]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, ok := unflatten(tt.text)
			require.Equal(t, tt.want != nil, ok)
			assert.Equal(t, tt.want, v)
		})
	}
}
