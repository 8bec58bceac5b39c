package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProtocolLogs: the logs of agent protocols are read by their
// JSON-RPC messages. An MCP host's tools/call (and resources/read) is its
// model's call, the result's content its output (a JSON-RPC error or
// isError an error), the protocol's own handshake and notifications no
// step; an A2A Task is its agent's run (its history, artifacts and status
// message, each once), and a client that sends remote agents messages
// with no user's words in its log is the user.
func TestProtocolLogs(t *testing.T) {
	tests := []struct {
		file  string
		task  string
		steps []string
	}{
		{file: "mcp-host-log.jsonl", task: "Read notes.txt and tell me tomorrow's forecast for the city it names.", steps: []string{
			"system system: You help with files and the weather.",
			"user user: Read notes.txt and tell me tomorrow's forecast for the city it names.",
			`assistant tool_call: resources/read({"uri":"file:///home/u/notes.txt"})`,
			"assistant tool_result: Trip: Porto, 3-5 December.",
			"assistant message: The notes name Porto.",
			`assistant tool_call: forecast({"city":"Porto","days":1})`,
			"assistant tool_result: Error: Unknown city: Porto (did you mean Porto, PT?)",
			`assistant tool_call: forecast({"city":"Porto, PT","days":1})`,
			"assistant tool_result: Porto, PT, 2026-12-03: rain, 14°C / 9°C\n[image]",
			"assistant message: Tomorrow in Porto: rain, high 14°C, low 9°C.",
		}},
		{file: "a2a-task.json", task: "Convert 250 CHF to EUR.", steps: []string{
			"user user: Convert 250 CHF to EUR.",
			`Currency Agent message: {"from":"CHF","rate":1.0656,"to":"EUR"}`,
			"Currency Agent message: Converted: 250 CHF is 266.40 EUR.",
			"Currency Agent message: 266.40 EUR\n[file receipt.pdf]",
		}},
		{file: "a2a-jsonrpc.jsonl", task: "What is the status of order 7741?", steps: []string{
			"user user: What is the status of order 7741?",
			"agent message: Which store was it ordered from?",
			"user user: The Leeds store.",
			"agent message: Error: Task not found",
			`agent message: {"order":7741,"status":"shipped"}`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r, _ := loadedDump(t, tt.file)
			var got []string
			for _, s := range r.Steps {
				got = append(got, s.Agent+" "+string(s.Kind)+": "+s.Content)
			}
			assert.Equal(t, tt.steps, got)
			assert.Equal(t, tt.task, r.Question)
		})
	}
}

// TestA2AHostLog: a host's log of its remote agents, each record naming
// its peer (by name, else by its address's host), is the host's
// instructions to each agent and each agent's answers; the host's model
// names it, and a record holding only a label labels the run.
func TestA2AHostLog(t *testing.T) {
	data := []byte(`{"role": "user", "content": "Find a vegan bakery open Sunday."}
{"role": "assistant", "name": "concierge", "content": "Asking the places agent."}
{"peer": "http://places-agent.local:9000/", "message": {"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": {"role": "user", "messageId": "h1", "parts": [{"kind": "text", "text": "Bakeries open Sunday"}]}}}}
{"peer": "http://places-agent.local:9000/", "message": {"jsonrpc": "2.0", "id": 1, "result": {"kind": "message", "role": "agent", "messageId": "p1", "parts": [{"kind": "text", "text": "Crumb & Co opens Sunday 8-14."}]}}}
{"agent": "Reviews Agent", "message": {"jsonrpc": "2.0", "id": 7, "method": "message/send", "params": {"message": {"role": "user", "messageId": "h2", "parts": [{"kind": "text", "text": "Is Crumb & Co vegan?"}]}}}}
{"agent": "Reviews Agent", "message": {"jsonrpc": "2.0", "id": 7, "result": {"kind": "task", "id": "t", "contextId": "c", "status": {"state": "completed"}, "history": [{"role": "user", "messageId": "h2", "parts": [{"kind": "text", "text": "Is Crumb & Co vegan?"}]}, {"role": "agent", "messageId": "r1", "parts": [{"kind": "text", "text": "No, it uses butter."}]}]}}}
{"mistake_agent": "concierge", "mistake_step": 2, "mistake_reason": "drops vegan"}
`)
	c, err := ParseCase("host.jsonl", data, Options{})
	require.NoError(t, err)
	var got []string
	for _, s := range c.Run.Steps {
		got = append(got, s.Agent+" "+string(s.Kind)+" "+s.Target()+": "+s.Content)
	}
	assert.Equal(t, []string{
		"user user : Find a vegan bakery open Sunday.",
		"concierge message : Asking the places agent.",
		"concierge instruction places-agent: Bakeries open Sunday",
		"places-agent message : Crumb & Co opens Sunday 8-14.",
		"concierge instruction Reviews Agent: Is Crumb & Co vegan?",
		"Reviews Agent message : No, it uses butter.",
	}, got)
	require.NotNil(t, c.Label)
	assert.Equal(t, Label{Agent: "concierge", Step: 2, Reason: "drops vegan"}, *c.Label)
}

// TestProtocolLogBadInput: a protocol log that holds no call, result or
// message, or a label record of the wrong type, is an error, never a
// panic.
func TestProtocolLogBadInput(t *testing.T) {
	for _, data := range []string{
		`{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}}` + "\n" + `{"jsonrpc": "2.0", "id": 0, "result": {}}`,
		`{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "f"}}` + "\n" + `{"mistake_step": "two", "mistake_agent": 3}`,
	} {
		_, err := ParseCase("log.jsonl", []byte(data), Options{})
		assert.Error(t, err)
	}
}

// FuzzParseProtocolLogs reads fuzzed MCP and A2A logs and A2A Tasks, from
// the fixtures' shapes.
func FuzzParseProtocolLogs(f *testing.F) {
	f.Add([]byte(`{"server": "s", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "f", "arguments": {}}}}` + "\n" + `{"server": "s", "message": {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "x"}, {"type": "resource", "resource": {"uri": "u"}}], "isError": true}}}`))
	f.Add([]byte(`{"jsonrpc": "2.0", "id": "1", "method": "message/send", "params": {"message": {"role": "user", "parts": [{"kind": "file", "file": {}}]}}}` + "\n" + `{"jsonrpc": "2.0", "id": "1", "result": {"kind": "task", "history": [{"role": "agent", "parts": [{"kind": "data", "data": [1]}]}], "artifacts": [{"parts": null}], "status": {"message": {}}}}`))
	f.Add([]byte(`{"kind": "task", "id": "t", "contextId": "c", "status": {"state": "completed"}, "history": [{"role": "agent", "messageId": "m", "parts": [{"kind": "text", "text": "x"}]}], "mistake_step": 0}`))
	f.Add([]byte(`{"kind": "task", "contextId": "c", "status": {}, "history": [{"role": "agent", "parts": [{"kind": "data", "data": {"name": "f", "args": 1}, "metadata": {"adk_type": "function_call"}}, {"kind": "data", "data": [], "metadata": {"adk_type": "function_response"}}]}]}`))
	fuzzFormat(f, FormatAuto)
}

// TestA2AFunctionParts: a remote agent served by Google ADK sends its
// function's call and response as data parts it marks (metadata
// "adk_type"): they are its call and the call's result, the result
// matched to the call by id, else by the function's name.
func TestA2AFunctionParts(t *testing.T) {
	data := []byte(`{"kind": "task", "id": "t1", "contextId": "c1", "status": {"state": "completed"}, "metadata": {"agent_name": "weather_agent"},
		"history": [
			{"role": "user", "messageId": "u1", "parts": [{"kind": "text", "text": "Forecast for Bergen tomorrow?"}]},
			{"role": "agent", "messageId": "a1", "parts": [{"kind": "data", "data": {"id": "adk-7", "name": "get_forecast", "args": {"city": "Bergen"}}, "metadata": {"adk_type": "function_call"}}]},
			{"role": "agent", "messageId": "a2", "parts": [{"kind": "data", "data": {"id": "adk-7", "name": "get_forecast", "response": {"high_c": 9, "rain_mm": 14}}, "metadata": {"adk_type": "function_response"}}]},
			{"role": "agent", "messageId": "a3", "parts": [{"kind": "text", "text": "Checking the second source."}, {"kind": "data", "data": {"name": "get_alerts", "args": {"city": "Bergen"}}, "metadata": {"adk_type": "function_call"}}]},
			{"role": "agent", "messageId": "a4", "parts": [{"kind": "data", "data": {"name": "get_alerts", "response": {"alerts": []}}, "metadata": {"adk_type": "function_response"}}]},
			{"role": "agent", "messageId": "a5", "parts": [{"kind": "text", "text": "Bergen tomorrow: high 9°C, 14 mm of rain, no alerts."}]}]}`)
	c, err := ParseCase("task.json", data, Options{})
	require.NoError(t, err)
	var got []string
	for _, s := range c.Run.Steps {
		got = append(got, s.Agent+" "+string(s.Kind)+" "+s.ToolCallID()+": "+s.Content)
	}
	assert.Equal(t, []string{
		"user user : Forecast for Bergen tomorrow?",
		`weather_agent tool_call : get_forecast({"city":"Bergen"})`,
		`weather_agent tool_result adk-7: {"high_c":9,"rain_mm":14}`,
		"weather_agent tool_call : Checking the second source.",
		`weather_agent tool_result : {"alerts":[]}`,
		"weather_agent message : Bergen tomorrow: high 9°C, 14 mm of rain, no alerts.",
	}, got)
}

// TestPeerName: a record names its peer by its name, else by its
// address's host; peers served from one machine that no name tells apart
// (localhost, an IP address, each on its own port) are each their host
// and port, not one peer.
func TestPeerName(t *testing.T) {
	tests := []struct {
		rec  map[string]any
		want string
	}{
		{map[string]any{"agent": "Flights", "url": "http://localhost:10002"}, "Flights"},
		{map[string]any{"url": "http://flights-agent.internal:10001/"}, "flights-agent"},
		{map[string]any{"url": "http://localhost:10002/"}, "localhost:10002"},
		{map[string]any{"url": "http://localhost:10003"}, "localhost:10003"},
		{map[string]any{"endpoint": "http://127.0.0.1:9999/a2a"}, "127.0.0.1:9999"},
		{map[string]any{"peer": "http://[::1]:8001"}, "[::1]:8001"},
		{map[string]any{"url": "http://localhost/"}, "localhost"},
		{map[string]any{"peer": "hotels"}, "hotels"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, peerName(tt.rec), "%v", tt.rec)
	}
}
