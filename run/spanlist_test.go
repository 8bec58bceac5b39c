package run

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spanList builds a flat span list (the shape strands-evals keeps) for
// the agent-naming tests.
type spanList []any

func (l *spanList) add(id, parent string, start int, attrs map[string]any) {
	*l = append(*l, map[string]any{"trace_id": "t1", "span_id": id, "parent_span_id": parent, "name": attrs["name"],
		"start_time": start, "end_time": start + 5, "attributes": attrs})
}

// llm adds a model call answering reply.
func (l *spanList) llm(id, parent string, start int, reply string) {
	l.add(id, parent, start, map[string]any{"name": "completion", "openinference.span.kind": "LLM",
		"llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": "Do it.",
		"llm.output_messages.0.message.role": "assistant", "llm.output_messages.0.message.content": reply})
}

// agents reads the list and returns each step's agent by its text.
func (l spanList) agents(t *testing.T) map[string]string {
	data, err := json.Marshal(l)
	require.NoError(t, err)
	r, err := Parse("spans.json", data, Options{})
	require.NoError(t, err)
	byText := map[string]string{}
	for _, s := range r.Steps {
		byText[s.Content] = s.Agent
	}
	return byText
}

// kindsAndTexts reads the list and returns each step as "kind: text".
func (l spanList) kindsAndTexts(t *testing.T) []string {
	data, err := json.Marshal(l)
	require.NoError(t, err)
	r, err := Parse("spans.json", data, Options{})
	require.NoError(t, err)
	var got []string
	for _, s := range r.Steps {
		got = append(got, string(s.Kind)+": "+s.Content)
	}
	return got
}

// TestManagedAgents: agent spans named only by their class, run inside an
// agent that declares its sub-agents, are the sub-agent their input names.
func TestManagedAgents(t *testing.T) {
	var l spanList
	l.add("m", "", 0, map[string]any{"name": "CodeAgent.run", "openinference.span.kind": "AGENT",
		"smolagents.managed_agents.0.name": "search_agent", "smolagents.managed_agents.1.name": "file_agent"})
	l.llm("m1", "m", 1, "Delegating.")
	sub := func(id string, start int, task, reply string) {
		in, err := json.Marshal(map[string]any{"task": task})
		require.NoError(t, err)
		l.add(id, "m", start, map[string]any{"name": "ToolCallingAgent.run", "openinference.span.kind": "AGENT", "input.value": string(in)})
		l.llm(id+"1", id, start+1, reply)
	}
	sub("s", 10, "You're a helpful agent named 'search_agent'.\nFind it.", "Found.")
	sub("f", 20, "You're a helpful agent named 'file_agent'.\nRead it.", "Read.")
	sub("x", 30, "Compare what search_agent and file_agent said.", "Compared.")
	sub("y", 40, "Ask the research_agent_2 about it.", "Asked.")

	got := l.agents(t)
	assert.Equal(t, "CodeAgent", got["Delegating."])
	assert.Equal(t, "search_agent", got["Found."])
	assert.Equal(t, "file_agent", got["Read."])
	assert.Equal(t, "ToolCallingAgent", got["Compared."], "two declared names: neither")
	assert.Equal(t, "ToolCallingAgent", got["Asked."], "no declared name as a word")
}

// TestAgentInInput: an agent span that names no agent but runs one given
// in its input (CrewAI's Task._execute_core, one span name for every
// agent of a crew) is that agent's.
func TestAgentInInput(t *testing.T) {
	var l spanList
	task := func(id string, start int, agent any, reply string) {
		in, err := json.Marshal(map[string]any{"agent": agent, "context": ""})
		require.NoError(t, err)
		l.add(id, "", start, map[string]any{"name": "Task._execute_core", "openinference.span.kind": "AGENT", "input.value": string(in)})
		l.llm(id+"1", id, start+1, reply)
	}
	task("a", 10, "id=UUID('5b92f546') role='Researcher' goal='Find facts' backstory='Careful.'", "Facts found.")
	task("b", 20, map[string]any{"role": "Writer", "goal": "Write"}, "Site written.")
	task("c", 30, "a plain text with no fields", "Reviewed.")
	task("d", 40, `id=UUID('77') role="Editor's aide" goal='Edit'`, "Edited.")

	got := l.agents(t)
	assert.Equal(t, "Researcher", got["Facts found."], "a repr's role")
	assert.Equal(t, "Writer", got["Site written."], "an object's role")
	assert.Equal(t, "Task._execute_core", got["Reviewed."], "no agent in the input: the span's name")
	assert.Equal(t, "Editor's aide", got["Edited."], "a repr's double-quoted role")
}

// TestToolEventSpans: an emitter's spans for one run of a tool (start,
// success or error, finish) are one call and its result. The call's
// arguments are in the start span's tool.parameters (BeeAI's
// instrumentations); where the span's metadata holds the model's call it
// runs (BeeAI's JavaScript one), that call is the model's, made once, even
// when a sibling span's start is read first.
func TestToolEventSpans(t *testing.T) {
	toolCallMsg := `{"state": {"iteration": 1}, "toolCallMsg": {"type": "tool-call", "toolCallId": "call_1", "toolName": "get_weather", "args": {"city": "Olso"}}}`
	tests := []struct {
		name  string
		spans func(l *spanList)
		want  []string
	}{
		{
			name: "no arguments recorded",
			spans: func(l *spanList) {
				l.llm("a1", "a", 1, "I will search.")
				l.add("s", "a", 2, map[string]any{"name": "tool.search.wikipedia.start-12", "openinference.span.kind": "TOOL"})
				l.add("o", "a", 3, map[string]any{"name": "tool.search.wikipedia.success-12", "openinference.span.kind": "TOOL", "output.value": "Barcelona is a city."})
				l.add("f", "a", 4, map[string]any{"name": "tool.search.wikipedia.finish-12", "openinference.span.kind": "TOOL"})
			},
			want: []string{"user: Do it.", "message: I will search.", "tool_call: search.wikipedia()", "tool_result: Barcelona is a city."},
		},
		{
			name: "arguments in tool.parameters",
			spans: func(l *spanList) {
				l.llm("a1", "a", 1, "I will search.")
				l.add("s", "a", 2, map[string]any{"name": "tool.search.wikipedia.start-12", "openinference.span.kind": "TOOL", "tool.parameters": `{"query":"Barcelona"}`})
				l.add("o", "a", 3, map[string]any{"name": "tool.search.wikipedia.success-12", "openinference.span.kind": "TOOL", "tool.parameters": `{"query":"Barcelona"}`, "output.value": "Barcelona is a city."})
			},
			want: []string{"user: Do it.", "message: I will search.", `tool_call: search.wikipedia({"query":"Barcelona"})`, "tool_result: Barcelona is a city."},
		},
		{
			name: "the model's call in the metadata, its error span read first",
			spans: func(l *spanList) {
				l.add("a1", "a", 1, map[string]any{"name": "backend.openai.chat.success-1", "openinference.span.kind": "LLM",
					"llm.output_messages.0.message.role": "assistant", "llm.output_messages.0.message.content": "",
					"output.value": `[{"meta": {}, "content": [{"type": "tool-call", "toolCallId": "call_1", "toolName": "get_weather", "args": {"city": "Olso"}}], "role": "assistant"}]`})
				l.add("e", "a", 2, map[string]any{"name": "tool.dynamic.getWeather.error-1", "openinference.span.kind": "TOOL", "metadata": toolCallMsg,
					"tool.parameters": `{"city":"Olso"}`})
				failed := (*l)[len(*l)-1].(map[string]any)
				failed["status_code"], failed["status_message"] = "ERROR", "ToolError: unknown city: Olso"
				l.add("s", "a", 3, map[string]any{"name": "tool.dynamic.getWeather.start-1", "openinference.span.kind": "TOOL", "metadata": toolCallMsg, "tool.parameters": `{"city":"Olso"}`})
				l.add("f", "a", 4, map[string]any{"name": "tool.dynamic.getWeather.finish-1", "openinference.span.kind": "TOOL", "metadata": toolCallMsg})
			},
			want: []string{`tool_call: get_weather({"city":"Olso"})`, "tool_result: ToolError: unknown city: Olso"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var l spanList
			l.add("a", "", 0, map[string]any{"name": "agent.react.start-1", "openinference.span.kind": "AGENT"})
			tt.spans(&l)
			assert.Equal(t, tt.want, l.kindsAndTexts(t))
		})
	}
}

// TestProgramPrompts: the request a program gives an agent when it starts
// the agent's turn after the task (one agent's answer handed to the next)
// is a step of its own, addressed to that agent; the task, what a step
// said before, a text of one message, and the framework's messages inside
// a turn are not.
func TestProgramPrompts(t *testing.T) {
	var l spanList
	turn := func(id, agent string, start int, reply string, input ...string) {
		l.add(id, "", start, map[string]any{"name": agent, "openinference.span.kind": "AGENT", "agent.name": agent})
		attrs := map[string]any{"name": "completion", "openinference.span.kind": "LLM",
			"llm.output_messages.0.message.role": "assistant", "llm.output_messages.0.message.content": reply}
		for k := 0; k < len(input); k += 2 {
			attrs[fmt.Sprintf("llm.input_messages.%d.message.role", k/2)] = input[k]
			attrs[fmt.Sprintf("llm.input_messages.%d.message.content", k/2)] = input[k+1]
		}
		l.add(id+"1", id, start+1, attrs)
	}
	turn("w", "writer", 0, "Bugs live in nature.", "system", "You write jokes.", "user", "Write a joke.")
	turn("c", "critic", 10, "Good joke.", "system", "You rate jokes.", "user", "Rate this joke: Bugs live in nature.")
	turn("e", "editor", 20, "Edited.", "system", "You edit.", "user", "Good joke.")
	turn("s", "summary", 30, "Summed up.", "user", "Sum up the run.")
	turn("w2", "writer", 40, "Bugs and more bugs.", "system", "You write jokes.", "user", "Write a joke.",
		"assistant", "Bugs live in nature.", "user", "Now a longer one.")
	for i := range 9 { // more steps than saidJustBefore reads
		turn(fmt.Sprintf("f%d", i), "filler", 50+10*i, fmt.Sprintf("Filler %d.", i), "user", "Go on.")
	}
	turn("r", "reviewer", 200, "Reviewed.", "system", "You review.", "user", "Bugs live in nature.")
	l.add("w21", "w2", 45, map[string]any{"name": "completion", "openinference.span.kind": "LLM",
		"llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": "Write a joke.",
		"llm.input_messages.1.message.role": "assistant", "llm.input_messages.1.message.content": "Bugs and more bugs.",
		"llm.input_messages.2.message.role": "user", "llm.input_messages.2.message.content": "Observation: nothing to add.",
		"llm.output_messages.0.message.role": "assistant", "llm.output_messages.0.message.content": "Done."})

	data, err := json.Marshal(l)
	require.NoError(t, err)
	r, err := Parse("spans.json", data, Options{})
	require.NoError(t, err)
	type prompt struct{ text, to string }
	var got []prompt
	for _, s := range r.Steps[1:] {
		if s.Kind == KindUser {
			got = append(got, prompt{s.Content, s.Target()})
		}
	}
	assert.Equal(t, []prompt{{"Rate this joke: Bugs live in nature.", "critic"}, {"Now a longer one.", "writer"}}, got)
	assert.Equal(t, "Write a joke.", r.Question)
}

// TestAgentUpdatesRepeatNothing: agent spans with nothing inside them
// that repeat a step's text as the agent's state changes (an emitter's
// update spans: the tool's output, with or without spaces in its JSON, and
// the answer, twice) add no step; one that says something new does.
func TestAgentUpdatesRepeatNothing(t *testing.T) {
	var l spanList
	l.add("a", "", 0, map[string]any{"name": "agent.react.start-1", "openinference.span.kind": "AGENT"})
	l.llm("a1", "a", 1, "I will search.")
	l.add("s", "a", 2, map[string]any{"name": "tool.search.wikipedia.start-12", "openinference.span.kind": "TOOL"})
	l.add("o", "a", 3, map[string]any{"name": "tool.search.wikipedia.success-12", "openinference.span.kind": "TOOL", "output.value": `[{"title": "Barcelona"}]`})
	update := func(id string, start int, output string) {
		l.add(id, "", start, map[string]any{"name": "agent.react.update-" + id, "openinference.span.kind": "AGENT", "output.value": output})
	}
	update("u1", 4, `[{"title":"Barcelona"}]`)
	update("u2", 5, `[{"title": "Barcelona"}]`)
	update("u3", 6, "Barcelona is a city in Spain.")
	update("u4", 7, "Barcelona is a city in Spain.")
	got := l.kindsAndTexts(t)
	assert.Equal(t, []string{"user: Do it.", "message: I will search.", "tool_call: search.wikipedia()",
		`tool_result: [{"title": "Barcelona"}]`, "message: Barcelona is a city in Spain."}, got)
}

// TestCodeActionsFolded: a tool that the code of a model's message ran
// (no output of the model made the call) is that message's action: its
// call is written into its result, as TRAIL's cases write it. A call with
// no model message before it (the agent's model calls were not traced),
// or with no result, is a step of its own: a tool span's result is
// recorded at the instrumentation's choice (GenAI's is opt-in,
// OpenInference's outputs can be hidden) and an export that writes every
// field writes an unrecorded one empty, so an empty output is no result
// either, not an empty one.
func TestCodeActionsFolded(t *testing.T) {
	var l spanList
	tool := func(id, parent string, start int, name, args, output string) {
		attrs := map[string]any{"name": name, "openinference.span.kind": "TOOL", "tool.name": name, "input.value": args}
		if output != "" {
			attrs["output.value"] = output
		}
		l.add(id, parent, start, attrs)
	}
	l.add("a", "", 0, map[string]any{"name": "CodeAgent.run", "openinference.span.kind": "AGENT"})
	l.llm("a1", "a", 1, "Thought: search.\nCode:\n```py\nweb_search(query='Tokyo')\n```")
	tool("a2", "a", 2, "web_search", `{"query": "Tokyo"}`, "Tokyo has 14 million people.")
	tool("a3", "a", 8, "final_answer", `{"answer": "14 million"}`, "")
	l.add("b", "", 10, map[string]any{"name": "Helper.run", "openinference.span.kind": "AGENT"})
	tool("b1", "b", 11, "lookup", `{"q": "x"}`, "found x")
	l.add("c", "", 20, map[string]any{"name": "Writer.run", "openinference.span.kind": "AGENT"})
	l.llm("c1", "c", 21, "Thought: save.\nCode:\n```py\nsave_note(text='x')\n```")
	l.add("c2", "c", 22, map[string]any{"name": "save_note", "openinference.span.kind": "TOOL", "tool.name": "save_note", "input.value": `{"text": "x"}`, "output.value": ""})

	assert.Equal(t, []string{
		"user: Do it.",
		"message: Thought: search.\nCode:\n```py\nweb_search(query='Tokyo')\n```",
		`tool_result: web_search({"query": "Tokyo"}) -> Tokyo has 14 million people.`,
		`tool_call: final_answer({"answer": "14 million"})`,
		`tool_call: lookup({"q": "x"})`,
		"tool_result: found x",
		"message: Thought: save.\nCode:\n```py\nsave_note(text='x')\n```",
		`tool_call: save_note({"text": "x"})`,
	}, l.kindsAndTexts(t))
}

// TestRepeatedIterationOutput: an agent's iterations ("Step N" spans) in
// which the model's code ran with no tool span each give their output as
// the code's result, also when an iteration prints what an earlier one
// printed: running the same code again is a step of the run, and its
// result is one too.
func TestRepeatedIterationOutput(t *testing.T) {
	var l spanList
	l.add("a", "", 0, map[string]any{"name": "CodeAgent.run", "openinference.span.kind": "AGENT", "input.value": "Check the empty case."})
	out := "Execution logs:\nValueError: no arguments\nLast output from code snippet:\nNone"
	for i, reply := range []string{"Code:\n```py\nminmax()\n```", "Again.\nCode:\n```py\nminmax()\n```", "Once more.\nCode:\n```py\nminmax()\n```"} {
		id := fmt.Sprintf("s%d", i)
		l.add(id, "a", 10*(i+1), map[string]any{"name": fmt.Sprintf("Step %d", i+1), "openinference.span.kind": "CHAIN", "output.value": out})
		l.llm(id+"m", id, 10*(i+1)+1, reply)
	}
	got := l.kindsAndTexts(t)
	results := 0
	for _, s := range got {
		if s == "tool_result: "+out {
			results++
		}
	}
	assert.Equal(t, 3, results, "%q", got)
}

// TestIterationOutputAfterItsModelCall: an agent's iteration ("Step N")
// whose output is the result of code its model call wrote comes after
// that call, also where the exporter wrote the iteration's end as its
// start: a span's own output is read after the spans inside it.
func TestIterationOutputAfterItsModelCall(t *testing.T) {
	out := "Execution logs:\nVarso Tower 310 m\nLast output from code snippet:\nNone"
	reply := "Thought: ask.\nCode:\n```py\nsearch_agent(task='tallest building')\n```"
	for _, end := range []int{10, 20} {
		t.Run(fmt.Sprintf("ends at %d", end), func(t *testing.T) {
			var l spanList
			l.add("a", "", 0, map[string]any{"name": "CodeAgent.run", "openinference.span.kind": "AGENT", "input.value": "Find it."})
			l.add("s1", "a", 10, map[string]any{"name": "Step 1", "openinference.span.kind": "CHAIN", "output.value": out})
			l[len(l)-1].(map[string]any)["end_time"] = end
			l.llm("s1m", "s1", 11, reply)
			got := l.kindsAndTexts(t)
			assert.Equal(t, []string{"message: " + reply, "tool_result: " + out}, got[len(got)-2:], "%q", got)
		})
	}
}
