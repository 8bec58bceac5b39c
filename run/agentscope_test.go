package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAgentScopeToolResult: AgentScope's messages (each Msg.to_dict(),
// as a memory's state_dict lists them) give a tool's result as a block of the system's
// message, {"type": "tool_result", "id", "name", "output"}, its output a
// text or a list of blocks: the result of the call whose id it has.
func TestAgentScopeToolResult(t *testing.T) {
	for name, output := range map[string]string{
		"blocks": `[{"type": "text", "text": "<returncode>1</returncode><stdout></stdout><stderr>FileNotFoundError: sales.csv</stderr>"}]`,
		"text":   `"<returncode>1</returncode><stdout></stdout><stderr>FileNotFoundError: sales.csv</stderr>"`,
	} {
		t.Run(name, func(t *testing.T) {
			data := `[
 {"id": "a", "name": "user", "role": "user", "content": "What was March's revenue?", "metadata": null, "timestamp": "2025-09-02 11:04:01.512"},
 {"id": "b", "name": "DataAnalyst", "role": "assistant", "content": [{"type": "tool_use", "id": "call_1", "name": "execute_python_code", "input": {"code": "print(1)"}}], "metadata": null, "timestamp": "2025-09-02 11:04:06.221"},
 {"id": "c", "name": "system", "role": "system", "content": [{"type": "tool_result", "id": "call_1", "name": "execute_python_code", "output": ` + output + `}], "metadata": null, "timestamp": "2025-09-02 11:04:07.019"},
 {"id": "d", "name": "DataAnalyst", "role": "assistant", "content": [{"type": "text", "text": "Revenue was 184,250 USD."}], "metadata": null, "timestamp": "2025-09-02 11:04:10.402"}]`
			r, err := Parse("memory.json", []byte(data), Options{})
			require.NoError(t, err)
			require.Len(t, r.Steps, 4)
			res := r.Steps[2]
			assert.Equal(t, KindToolResult, res.Kind)
			assert.Equal(t, "DataAnalyst", res.Agent)
			assert.Contains(t, res.Content, "FileNotFoundError: sales.csv")
			assert.Equal(t, "call_1", res.ToolCallID())
		})
	}
}

// agentScopeLog is a team's logging.chat as AgentScope's early versions
// write it, a Msg a line: a ReAct agent's reply its parsed
// {"thought", "speak", "function"}, the service toolkit's results the
// system's message, a numbered block for each function executed.
const agentScopeLog = `{"id": "u1", "timestamp": "2024-06-03 14:02:11", "name": "user", "content": "Which municipality had more residents in 2021, Lisbon or Porto?", "role": "user", "url": null, "metadata": null}
{"id": "r1", "timestamp": "2024-06-03 14:02:13", "name": "Researcher", "content": {"thought": "I need the census figures.", "speak": "Let me look them up.", "function": [{"name": "bing_search", "arguments": {"question": "2021 census Lisbon Porto"}}, {"name": "read_page", "arguments": {"url": "https://censos.ine.pt/"}}]}, "role": "assistant", "url": null, "metadata": null}
{"id": "s1", "timestamp": "2024-06-03 14:02:15", "name": "system", "content": "1. Execute function bing_search\n   [ARGUMENTS]:\n       question: 2021 census Lisbon Porto\n   [STATUS]: SUCCESS\n   [RESULT]: Lisboa 545 796; Porto 231 962\n\n2. Execute function read_page\n   [ARGUMENTS]:\n       url: https://censos.ine.pt/\n   [STATUS]: ERROR\n   [RESULT]: HTTP 403 Forbidden\n", "role": "system", "url": null, "metadata": null}
{"id": "r2", "timestamp": "2024-06-03 14:02:19", "name": "Researcher", "content": {"thought": "Lisboa 345 796 and Porto 231 962.", "speak": "Lisbon has 345,796 residents, Porto 231,962.", "function": []}, "role": "assistant", "url": null, "metadata": null}
{"id": "w1", "timestamp": "2024-06-03 14:02:24", "name": "Writer", "content": "Lisbon had more residents: 345,796 against 231,962.", "role": "assistant", "url": null, "metadata": null}
{"mistake_agent": "Researcher", "mistake_step": 4}`

// TestAgentScopeLog: AgentScope's logged messages read each agent's
// parsed reply as its words and calls, and the system's report of the
// functions it executed as their results, each of its call, failed when
// its status is an error.
func TestAgentScopeLog(t *testing.T) {
	c, err := ParseCase("logging.chat.jsonl", []byte(agentScopeLog), Options{})
	require.NoError(t, err)
	r := c.Run
	assert.Equal(t, "Which municipality had more residents in 2021, Lisbon or Porto?", r.Question)
	assert.Equal(t, []string{"user user", "Researcher tool_call", "Researcher tool_result", "Researcher tool_result", "Researcher message", "Writer message"}, agentKinds(r))
	require.Len(t, r.Steps[1].ToolCalls(), 2)
	assert.Equal(t, "bing_search", r.Steps[1].ToolCalls()[0].Name)
	assert.JSONEq(t, `{"question": "2021 census Lisbon Porto"}`, r.Steps[1].ToolCalls()[0].Arguments)
	assert.Contains(t, r.Steps[1].Content, "Let me look them up.")
	assert.Equal(t, "Lisboa 545 796; Porto 231 962", r.Steps[2].Content)
	assert.Contains(t, r.Steps[3].Content, "HTTP 403 Forbidden")
	assert.Contains(t, r.Steps[4].Content, "Lisbon has 345,796 residents")
	require.NotNil(t, c.Label)
	assert.Equal(t, 4, c.Label.Step)

	_, ok := agentScopeMessages([]byte(`[{"name": "a", "role": "assistant", "content": {"speak": "x"}}]`))
	assert.False(t, ok, "records without a Msg's id and timestamp")
}

// FuzzParseAgentScope reads fuzzed AgentScope logs and messages, from
// the tests' shapes.
func FuzzParseAgentScope(f *testing.F) {
	f.Add([]byte(agentScopeLog))
	f.Add([]byte(`[{"id": "s", "timestamp": "t", "name": "system", "role": "system", "content": "1. Execute function f\n   [STATUS]: ERROR\n   [RESULT]: x\ny\n2. Execute function g\n"}, {"id": "a", "timestamp": "t", "name": "A", "role": "assistant", "content": {"function": [{"name": "g", "arguments": "{"}]}}]`))
	f.Add([]byte(`[{"id": "c", "name": "system", "role": "system", "content": [{"type": "tool_result", "id": "1", "name": "f", "output": [{"type": "text", "text": "y"}]}], "timestamp": "t"}]`))
	fuzzFormat(f, FormatAuto)
}
