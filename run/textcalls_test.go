package run

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTextCalls: the calls a model writes in its turn's text in its chat
// template's markup are read by the markup's structure; a tag quoted in
// prose, a placeholder or a body that is no call is none.
func TestTextCalls(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []ToolCall
	}{
		{"hermes", "<tool_call>\n{\"arguments\": {\"query\": \"Otis founded\"}, \"name\": \"search\"}\n</tool_call>",
			[]ToolCall{{Name: "search", Arguments: `{"query": "Otis founded"}`}}},
		{"qwen3 two calls after thinking", "<think>\nTwo searches.\n</think>\n\n<tool_call>\n{\"name\": \"search\", \"arguments\": {\"query\": \"a\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"search\", \"arguments\": {\"query\": \"b\"}}\n</tool_call>",
			[]ToolCall{{Name: "search", Arguments: `{"query": "a"}`}, {Name: "search", Arguments: `{"query": "b"}`}}},
		{"unclosed last call", "<tool_call>\n{\"name\": \"search\", \"arguments\": {\"query\": \"a\"}}",
			[]ToolCall{{Name: "search", Arguments: `{"query": "a"}`}}},
		{"arguments as a string", `<tool_call>{"name": "f", "arguments": "{\"x\": 1}"}</tool_call>`,
			[]ToolCall{{Name: "f", Arguments: `{"x": 1}`}}},
		{"template's placeholder", "<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>", nil},
		{"tag in prose", "I will wrap each call in <tool_call></tool_call> tags.", nil},
		{"llama python_tag", `<|python_tag|>{"name": "get_rate", "parameters": {"base": "EUR"}}<|eom_id|>`,
			[]ToolCall{{Name: "get_rate", Arguments: `{"base": "EUR"}`}}},
		{"llama built-in", `<|python_tag|>brave_search.call(query="Otis founded")`,
			[]ToolCall{{Name: "brave_search", Arguments: `{"query":"Otis founded"}`}}},
		{"llama built-in with an escaped quote", `<|python_tag|>brave_search.call(query="say \"hi\"", n="2")`,
			[]ToolCall{{Name: "brave_search", Arguments: `{"n":"2","query":"say \"hi\""}`}}},
		{"llama code interpreter", "<|python_tag|>print(38 * 47.5)",
			[]ToolCall{{Name: "code_interpreter", Arguments: `{"code":"print(38 * 47.5)"}`}}},
		{"llama bare json", `{"name": "get_weather", "parameters": {"city": "Oslo"}}`,
			[]ToolCall{{Name: "get_weather", Arguments: `{"city": "Oslo"}`}}},
		{"json that is no call", `{"name": "Oslo", "population": 709000}`, nil},
		{"llama function tag", `<function=calculator>{"expression": "38 * 47.5"}</function>`,
			[]ToolCall{{Name: "calculator", Arguments: `{"expression": "38 * 47.5"}`}}},
		{"function tag example", `<function=example_function_name>{"example_name": "example_value"}` + " is the format", nil},
		{"mistral", `[TOOL_CALLS] [{"name": "search_flights", "arguments": {"date": "2025-03-04"}, "id": "k3Xq9TbLm"}]`,
			[]ToolCall{{ID: "k3Xq9TbLm", Name: "search_flights", Arguments: `{"date": "2025-03-04"}`}}},
		{"mistral v11", `[TOOL_CALLS]get_weather[ARGS]{"city": "Oslo"}[TOOL_CALLS]get_time[ARGS]{"tz": "CET"}`,
			[]ToolCall{{Name: "get_weather", Arguments: `{"city": "Oslo"}`}, {Name: "get_time", Arguments: `{"tz": "CET"}`}}},
		{"qwen-agent", "✿FUNCTION✿: web_search\n✿ARGS✿: {\"query\": \"Harrowgate theatre\"}",
			[]ToolCall{{Name: "web_search", Arguments: `{"query": "Harrowgate theatre"}`}}},
		{"qwen-agent placeholder", "✿FUNCTION✿: The tool to use, should be one of [web_search]\n✿ARGS✿: The input of the tool\n✿RESULT✿: Tool results", nil},
		{"search-r1", "<think> I need the birthplace. </think>\n<search> Aino Rebane birthplace </search>",
			[]ToolCall{{Name: "search", Arguments: `{"query":"Aino Rebane birthplace"}`}}},
		{"search tag quoted", "The model should write `<search> query </search>` to search.", nil},
		{"codeact", "Let me look.\n<execute_bash>\nls -l /workspace\n</execute_bash>",
			[]ToolCall{{Name: "execute_bash", Arguments: `{"command":"ls -l /workspace"}`}}},
		{"codeact python", "<execute_ipython>\nprint(1 + 1)\n</execute_ipython>",
			[]ToolCall{{Name: "execute_ipython_cell", Arguments: `{"code":"print(1 + 1)"}`}}},
		{"empty execution tag", "<execute_bash></execute_bash>", nil},
		{"plain answer", "It was founded in 1853.", nil},
		{"react action", "Thought: I need the population.\nAction: Search\nAction Input: Tartu population 2023",
			[]ToolCall{{Name: "Search", Arguments: `{"input":"Tartu population 2023"}`}}},
		{"react action with its observation appended", "Thought: compute.\nAction: Calculator\nAction Input: 77.7 * 0.12\nObservation: Answer: 9.324\nThought: done",
			[]ToolCall{{Name: "Calculator", Arguments: `{"input":"77.7 * 0.12"}`}}},
		{"react action input as json", "Action: tavily_search\nAction Input: {\"query\": \"Stockholm Marathon 2023\"}",
			[]ToolCall{{Name: "tavily_search", Arguments: `{"query": "Stockholm Marathon 2023"}`}}},
		{"two react actions in one turn", "Action: search\nAction Input: cats\nAction: lookup\nAction Input: dogs",
			[]ToolCall{{Name: "search", Arguments: `{"input":"cats"}`}, {Name: "lookup", Arguments: `{"input":"dogs"}`}}},
		{"react action then its final answer", "Action: search\nAction Input: cats\nFinal Answer: none",
			[]ToolCall{{Name: "search", Arguments: `{"input":"cats"}`}}},
		{"react format line", "Action: the action to take, should be one of [Search, Calculator]\nAction Input: the input to the action", nil},
		{"react final answer", "Thought: I now know the final answer\nFinal Answer: 409.5", nil},
		{"json action blob", "Thought: add them.\nAction:\n```json\n{\n  \"action\": \"calculator\",\n  \"action_input\": {\"expression\": \"36200 + 16800\"}\n}\n```",
			[]ToolCall{{Name: "calculator", Arguments: `{"expression": "36200 + 16800"}`}}},
		{"json action blob with a text input", "Action:\n```\n{\"action\": \"search\", \"action_input\": \"Ratina capacity\"}\n```",
			[]ToolCall{{Name: "search", Arguments: `{"input":"Ratina capacity"}`}}},
		{"json blob's final answer", "Action:\n```json\n{\"action\": \"Final Answer\", \"action_input\": \"53,000 seats\"}\n```", nil},
		{"command reply", `{"thoughts": {"text": "search it", "plan": "- search"}, "command": {"name": "google", "args": {"input": "Näsinneula height"}}}`,
			[]ToolCall{{Name: "google", Arguments: `{"input": "Näsinneula height"}`}}},
		{"command placeholder", `{"thoughts": {"text": "thought"}, "command": {"name": "command name", "args": {"arg name": "value"}}}`, nil},
		{"fenced function call", "Let me check resource usage per pod.\n```\nexec_shell(\"kubectl top pods -n test-social-network --sort-by=cpu\")\n```",
			[]ToolCall{{Name: "exec_shell", Arguments: `{"input":"kubectl top pods -n test-social-network --sort-by=cpu"}`}}},
		{"fenced call of several arguments", "```\nget_logs(\"test-social-network\", 'user-timeline-service')\n```",
			[]ToolCall{{Name: "get_logs", Arguments: `{"args":["test-social-network","user-timeline-service"]}`}}},
		{"fenced call of a list, keywords", "```\nsubmit([\"geo\", \"mongodb-geo\"], dry_run=False, limit=3, note=None)\n```",
			[]ToolCall{{Name: "submit", Arguments: `{"dry_run":false,"input":["geo","mongodb-geo"],"limit":3,"note":null}`}}},
		{"fenced call of a dict", "```\nsubmit({\"system_level\": \"Application\", 'fault_type': \"Misconfiguration\"})\n```",
			[]ToolCall{{Name: "submit", Arguments: `{"input":{"fault_type":"Misconfiguration","system_level":"Application"}}`}}},
		{"fenced python code", "```python\nprint(grade(91))\n```", nil},
		{"fenced code beside a call", "```\nx = load()\nsubmit(x)\n```", nil},
		{"fenced call of a variable", "```\nsubmit(faulty)\n```", nil},
		{"inline fence", "Run ```exec_shell(\"ls\")``` next.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, textCalls(tt.text))
		})
	}
}

// TestTextResult: a turn that answers a call written in text is read
// without its markup; any other text is no result.
func TestTextResult(t *testing.T) {
	tests := []struct {
		name, text, body, id string
		ok                   bool
	}{
		{"qwen", "<tool_response>\nfounded in 1853\n</tool_response>", "founded in 1853", "", true},
		{"two results", "<tool_response>\na\n</tool_response>\n<tool_response>\nb\n</tool_response>", "a\nb", "", true},
		{"search-r1", "\n\n<information>Doc 1(Title: \"Otis\") 1853</information>\n\n", "Doc 1(Title: \"Otis\") 1853", "", true},
		{"mistral", `[TOOL_RESULTS] {"content": {"rate": 195.84}, "call_id": "k3Xq9TbLm"}[/TOOL_RESULTS]`, `{"rate": 195.84}`, "k3Xq9TbLm", true},
		{"qwen-agent", "✿RESULT✿: []", "[]", "", true},
		{"observation", "OBSERVATION:\n471", "OBSERVATION:\n471", "", true},
		{"a user's words", "No, I meant the 2017 figure.", "", "", false},
		{"command returned", "Command google returned: [{\"title\": \"Näsinneula\"}]", `[{"title": "Näsinneula"}]`, "", true},
		{"a sentence with returned", "The command he returned: nothing.", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, id, ok := textResult(tt.text)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.body, body)
			assert.Equal(t, tt.id, id)
		})
	}
}

// TestTranscriptTextCalls: in a chat whose calls are written in the
// assistant's text, the call is a call and the user's or ipython turn
// that answers it is the tool's result; a system prompt's example and a
// user's turn after no call stay what they were. A result is the tool's,
// in its role, as a dump's is (TestDumpTextCalls).
func TestTranscriptTextCalls(t *testing.T) {
	tests := []struct {
		name   string
		msgs   string
		kinds  []Kind
		agents []string
		calls  []string // the name of each step's first call, "" for none
	}{
		{"qwen, result in the user's turn",
			`[{"role":"system","content":"For each function call, return a json object within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>"},
			  {"role":"user","content":"In what year was the Otis Elevator Company founded?"},
			  {"role":"assistant","content":"<tool_call>\n{\"name\": \"search\", \"arguments\": {\"query\": \"Otis Elevator founded\"}}\n</tool_call>"},
			  {"role":"user","content":"<tool_response>\nOtis Elevator Company was founded in 1853.\n</tool_response>"},
			  {"role":"assistant","content":"It was founded in 1835."}]`,
			[]Kind{KindSystem, KindUser, KindToolCall, KindToolResult, KindMessage},
			[]string{"system", "user", "assistant", "tool", "assistant"},
			[]string{"", "", "search", "", ""}},
		{"llama, result in ipython's turn",
			`[{"role":"user","content":"Rate of EUR to JPY?"},
			  {"role":"assistant","content":"<|python_tag|>{\"name\": \"get_rate\", \"parameters\": {\"base\": \"EUR\"}}"},
			  {"role":"ipython","content":"{\"rate\": 162.1}"},
			  {"role":"assistant","content":"162.1 yen."}]`,
			[]Kind{KindUser, KindToolCall, KindToolResult, KindMessage},
			[]string{"user", "assistant", "ipython", "assistant"},
			[]string{"", "get_rate", "", ""}},
		{"mistral, two results in turns of their own",
			`[{"role":"user","content":"Weather in Bergen and Tromsø?"},
			  {"role":"assistant","content":"[TOOL_CALLS] [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Bergen\"}, \"id\": \"a1\"}, {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tromsø\"}, \"id\": \"b2\"}]"},
			  {"role":"tool","content":"[TOOL_RESULTS] {\"content\": \"11 C\", \"call_id\": \"a1\"}[/TOOL_RESULTS]"},
			  {"role":"tool","content":"[TOOL_RESULTS] {\"content\": \"4 C\", \"call_id\": \"b2\"}[/TOOL_RESULTS]"},
			  {"role":"assistant","content":"Bergen 11 C, Tromsø 4 C."}]`,
			[]Kind{KindUser, KindToolCall, KindToolResult, KindToolResult, KindMessage},
			[]string{"user", "assistant", "tool", "tool", "assistant"},
			[]string{"", "get_weather", "", "", ""}},
		{"no call before the user's turn",
			`[{"role":"user","content":"Search for Otis."},
			  {"role":"assistant","content":"Sure, what would you like to know?"},
			  {"role":"user","content":"<tool_response>founded</tool_response>"}]`,
			[]Kind{KindUser, KindMessage, KindUser},
			[]string{"user", "assistant", "user"},
			[]string{"", "", ""}},
		{"react in chat turns, the format in the system prompt",
			`[{"role":"system","content":"Use the following format:\nThought: you should always think about what to do\nAction: the action to take, should be one of [Calculator]\nAction Input: the input to the action\nObservation: the result of the action"},
			  {"role":"user","content":"What is 17.5% of 2,340?"},
			  {"role":"assistant","content":"Thought: I should use the calculator.\nAction: Calculator\nAction Input: 0.175 * 2340"},
			  {"role":"user","content":"Observation: 409.5"},
			  {"role":"assistant","content":"Thought: I now know the final answer.\nFinal Answer: 490.5"}]`,
			[]Kind{KindSystem, KindUser, KindToolCall, KindToolResult, KindMessage},
			[]string{"system", "user", "assistant", "tool", "assistant"},
			[]string{"", "", "Calculator", "", ""}},
		{"command replies answered in system turns",
			`[{"role":"system","content":"Respond in JSON: {\"thoughts\": {\"text\": \"thought\"}, \"command\": {\"name\": \"command name\", \"args\": {\"arg name\": \"value\"}}}"},
			  {"role":"user","content":"Determine which next command to use."},
			  {"role":"assistant","content":"{\"thoughts\": {\"text\": \"search\"}, \"command\": {\"name\": \"google\", \"args\": {\"input\": \"Näsinneula height\"}}}"},
			  {"role":"system","content":"Command google returned: Näsinneula is 168 metres tall."},
			  {"role":"system","content":"Remember to save your work."}]`,
			[]Kind{KindSystem, KindUser, KindToolCall, KindToolResult, KindSystem},
			[]string{"system", "user", "assistant", "tool", "system"},
			[]string{"", "", "google", "", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse("chat.json", []byte(tt.msgs), Options{Format: FormatTranscript})
			require.NoError(t, err)
			require.Len(t, r.Steps, len(tt.kinds))
			for i, s := range r.Steps {
				assert.Equal(t, tt.kinds[i], s.Kind, "step %d", i)
				assert.Equal(t, tt.agents[i], s.Agent, "step %d", i)
				name := ""
				if c := s.ToolCalls(); len(c) > 0 {
					name = c[0].Name
				}
				assert.Equal(t, tt.calls[i], name, "step %d", i)
				assert.NotContains(t, s.Content, "TOOL_RESULTS", "step %d: a result is read without its markup", i)
				if s.Kind == KindToolResult && s.Agent == "tool" {
					assert.Equal(t, "tool", s.Role, "step %d: a result given back in a user's or a system turn is in the tool's role", i)
				}
			}
		})
	}
}

// FuzzTextCalls: untrusted turns, however their markup is broken, read
// without a panic and within the bounds on calls.
func FuzzTextCalls(f *testing.F) {
	for _, s := range []string{
		"<tool_call>\n{\"name\": \"search\", \"arguments\": {\"query\": \"a\"}}\n</tool_call>",
		"<tool_call>{\"name\": \"f\", \"arguments\": \"{\\\"x\\\": [1, {\\\"y\\\": null}]}\"}",
		`<|python_tag|>{"name": "f", "parameters": {}}; {"name": "g", "parameters": {"a": 1}}`,
		`<|python_tag|>brave_search.call(query="x", count="3"`,
		`<function=f>{"a": 1}</function><function=>{}</function><function=g`,
		`[TOOL_CALLS]f[ARGS]{"a":1}[TOOL_CALLS]g[ARGS]{`,
		`[TOOL_CALLS] [{"name": "f", "arguments": {"a": 1}, "id": "x"}, 3]`,
		"✿FUNCTION✿: f\n✿ARGS✿: {\"a\": 1}\n✿RESULT✿: ok\n✿FUNCTION✿: ",
		"‘<search> x </search><search>y</search>`<execute_bash>ls</execute_bash>",
		"```\nsubmit([\"a\", (1, {'k': r'x'}), True], n=-1.5e3)\n```\n```\nf('a' \"b\", [[[[]]]])\n```",
		"[TOOL_RESULTS] {\"content\": \"x\", \"call_id\": 1}[/TOOL_RESULTS]",
		"<tool_response>a<tool_response>b</tool_response>",
		"Action: Search\nAction Input: x\nObservation: y\nAction: Calculator\nAction Input:",
		"Action:\n```json\n{\"action\": \"f\", \"action_input\": [1]}\n```\n```{\"action\": \"g\"",
		`{"thoughts": {}, "command": {"name": "f", "args": "{\"a\": 1}"}}`,
		"Command f returned:",
		"```\nf(" + strings.Repeat("'a' \"b\" ", 200) + ")\n```",
		"```\nf(" + strings.Repeat("[", 40) + strings.Repeat("]", 40) + ")\n```",
		"```\nf(x={" + strings.Repeat("'k': {", 20) + "})\n```",
		"```\nf('''a\n```\n''', r\"\\\"\", b=1_000.5e-3, c=-)\n```",
		"```\n" + strings.Repeat("f(1)\n```\n```\n", 50) + "```",
	} {
		f.Add(s)
	}
	f.Add(strings.Repeat("<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>", 100))
	f.Fuzz(func(t *testing.T, text string) {
		calls := textCalls(text)
		if len(calls) > maxTextCalls {
			t.Fatalf("%d calls", len(calls))
		}
		for _, c := range calls {
			if !toolName(c.Name) {
				t.Fatalf("call named %q", c.Name)
			}
		}
		if body, _, ok := textResult(text); !ok && body != "" {
			t.Fatal("a body for no result")
		}
	})
}

// TestInlineObservations: a ReAct turn that holds its call's observation
// is read as the call, the tool's result and the agent's text after it,
// as the observation answered in the next turn is; a label that counts
// the file's messages is read at the turn's first step.
func TestInlineObservations(t *testing.T) {
	tests := []struct {
		name  string
		msgs  string
		kinds []Kind
		label int
	}{
		{"observation at the turn's end",
			`{"messages":[{"role":"user","content":"What is 17.5% of 2,340?"},
			  {"role":"assistant","content":"Thought: compute.\nAction: Calculator\nAction Input: 0.175 * 2340\nObservation: 409.5"},
			  {"role":"assistant","content":"Thought: done.\nFinal Answer: 490.5"}],"mistake_agent":"assistant","mistake_step":2}`,
			[]Kind{KindUser, KindToolCall, KindToolResult, KindMessage}, 3},
		{"thought and answer after the observation",
			`{"messages":[{"role":"user","content":"What is 17.5% of 2,340?"},
			  {"role":"assistant","content":"Thought: compute.\nAction: Calculator\nAction Input: 0.175 * 2340\nObservation: 409.5\nThought: I now know the final answer.\nFinal Answer: 490.5"}],"mistake_agent":"assistant","mistake_step":1}`,
			[]Kind{KindUser, KindToolCall, KindToolResult, KindMessage}, 1},
		{"two calls answered in one turn",
			`{"messages":[{"role":"user","content":"Sum the two."},
			  {"role":"assistant","content":"Action: Search\nAction Input: a\nObservation: 3\nThought: next.\nAction: Search\nAction Input: b\nObservation: 4"},
			  {"role":"assistant","content":"Final Answer: 8"}],"mistake_agent":"assistant","mistake_step":2}`,
			[]Kind{KindUser, KindToolCall, KindToolResult, KindToolCall, KindToolResult, KindMessage}, 5},
		{"an observation with no call before it stays in its turn",
			`{"messages":[{"role":"user","content":"Look."},
			  {"role":"assistant","content":"Observation: the sky is blue.\nFinal Answer: blue"}],"mistake_agent":"assistant","mistake_step":1}`,
			[]Kind{KindUser, KindMessage}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCase("chat.json", []byte(tt.msgs), Options{})
			require.NoError(t, err)
			require.Len(t, c.Run.Steps, len(tt.kinds))
			for i, s := range c.Run.Steps {
				assert.Equal(t, tt.kinds[i], s.Kind, "step %d", i)
				if s.Kind == KindToolResult {
					assert.Equal(t, "tool", s.Agent)
					assert.True(t, strings.HasPrefix(s.Content, "Observation:"), "step %d: %q", i, s.Content)
				}
				if s.Kind == KindToolCall {
					assert.NotContains(t, s.Content, "Observation:", "step %d", i)
					assert.Len(t, s.ToolCalls(), 1, "step %d", i)
				}
			}
			require.NotNil(t, c.Label)
			assert.Equal(t, tt.label, c.Label.Step)
		})
	}
}

// TestFencedCallManyAdjacentStrings: a call's argument of many adjacent
// string literals, as Python joins them, reads as their joined text at a
// cost in memory of the order of its length, not its square, however
// many there are in a turn up to the bound textCalls reads.
func TestFencedCallManyAdjacentStrings(t *testing.T) {
	const n = 8000
	text := "```\nf(" + strings.Repeat("'ab' ", n) + ")\n```"
	var calls []ToolCall
	bytes := allocated(func() { calls = textCalls(text) })
	require.Len(t, calls, 1)
	assert.JSONEq(t, `{"input": "`+strings.Repeat("ab", n)+`"}`, calls[0].Arguments)
	assert.Less(t, bytes, uint64(64*len(text)), "bytes allocated for a %d-byte turn", len(text))
}
