package run_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestHandoffIsNoFault: LangGraph passes control to another agent by
// raising ParentCommand, which every span it climbs records as an
// exception and an error status. It is one handoff step addressed to the
// next agent, and no error line anywhere.
func TestHandoffIsNoFault(t *testing.T) {
	parentCommand := []map[string]any{{"name": "exception", "attributes": map[string]any{
		"exception.type":    "langgraph.errors.ParentCommand",
		"exception.message": "Command(graph='__parent__', update={'messages': []}, goto='researcher')",
	}}}
	llm := func(id, parent, text string, start float64) span {
		return span{id: id, parent: parent, name: "ChatOpenAI", start: start, attrs: map[string]any{"openinference.span.kind": "LLM",
			"llm.output_messages.0.message.role": "assistant", "llm.output_messages.0.message.content": text}}
	}
	tests := []struct {
		name  string
		spans []span
		want  []string
	}{
		{
			name: "ParentCommand raised by a tool, climbing its node",
			spans: []span{
				{id: "g", name: "LangGraph", start: 0, end: 9, attrs: map[string]any{"openinference.span.kind": "CHAIN", "input.value": `{"messages":[{"type":"human","content":"Find the paper."}]}`}},
				{id: "s", parent: "g", name: "supervisor", start: 1, end: 4, status: "ERROR", attrs: map[string]any{"openinference.span.kind": "CHAIN", "graph.node.id": "supervisor"}, events: parentCommand},
				llm("c", "s", "Sending this to the researcher.", 2),
				{id: "t", parent: "s", name: "transfer_to_researcher", start: 3, status: "ERROR", attrs: map[string]any{"openinference.span.kind": "TOOL", "tool.name": "transfer_to_researcher"}, events: parentCommand},
				{id: "r", parent: "g", name: "researcher", start: 5, end: 8, attrs: map[string]any{"openinference.span.kind": "CHAIN", "graph.node.id": "researcher"}},
				llm("f", "r", "Found it.", 6),
			},
			want: []string{
				"user user: Find the paper.",
				"supervisor message: Sending this to the researcher.",
				"supervisor tool_call: transfer_to_researcher()",
				"supervisor handoff: Hands off to researcher (ParentCommand): Command(graph='__parent__', update={'messages': []}, goto='researcher')",
				"researcher message: Found it.",
			},
		},
		{
			name: "a handoff span, its error status an agent transfer",
			spans: []span{
				{id: "a", name: "invoke_agent coordinator", start: 1, end: 3, attrs: map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "coordinator"}},
				{id: "h", parent: "a", name: "agent_handoff OpenAI Agent", start: 2, status: "ERROR", attrs: map[string]any{"gen_ai.operation.name": "agent_handoff",
					"gen_ai.agent.name": "OpenAI Agent", "gen_ai.handoff.from_agent": "coordinator", "gen_ai.handoff.to_agent": "math_specialist"}},
				{id: "m", name: "invoke_agent math_specialist", start: 4, end: 6, attrs: map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "math_specialist"}},
				{id: "c", parent: "m", name: "chat", start: 5, attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.agent.name": "OpenAI Agent",
					"gen_ai.output.messages": `[{"role":"assistant","content":"294."}]`}},
			},
			// The generic agent name the instrumentation puts on every span
			// does not win over the agent spans around them.
			want: []string{"coordinator handoff: Hands off to math_specialist", "math_specialist message: 294."},
		},
		{
			name: "an interrupt in the status message alone",
			spans: []span{
				{id: "a", name: "invoke_agent Planner", start: 1, end: 3, status: "ERROR", message: "GraphInterrupt(Interrupt(value='approve?'))", attrs: map[string]any{"gen_ai.operation.name": "invoke_agent"}},
				{id: "b", parent: "a", name: "chat", start: 2, attrs: map[string]any{"gen_ai.operation.name": "chat",
					"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"Shall I book it?"}]}]`}},
			},
			want: []string{"Planner message: Shall I book it?", "Planner handoff: Hands off control: GraphInterrupt(Interrupt(value='approve?'))"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := run.Load(writeSpans(t, tt.spans...), run.Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.want, steps(r))
			for _, s := range r.Steps {
				if s.Kind == run.KindHandoff {
					assert.False(t, s.RuntimeFailure())
				}
			}
		})
	}
}

// TestSubAgentsSideBySide: the Claude Agent SDK runs two sub-agents at
// once, each from its own Agent call (strands-agents' ADOT capture). Each
// call is addressed to the sub-agent it ran; no step of one sub-agent is
// addressed to the other because it came just before the other's first.
func TestSubAgentsSideBySide(t *testing.T) {
	r, err := run.Load(filepath.Join("..", "testdata", "traces", "adot-claude.json"), run.Options{})
	require.NoError(t, err)
	var got []string
	for _, s := range r.Steps {
		if s.Target() != "" {
			got = append(got, fmt.Sprintf("%d %s %s → %s", s.Index, s.Agent, s.Kind, s.Target()))
		}
	}
	assert.Equal(t, []string{
		"0 user user → ClaudeAgentSDK.query",
		"3 ClaudeAgentSDK.query tool_call → math-agent",
		"4 ClaudeAgentSDK.query tool_call → conversion-agent",
	}, got)
}

// TestAgentsToolsRan: an agent a tool ran is handed the work by the call
// that ran the tool, the latest one before it where a call id comes again
// (some OpenAI-compatible servers number each reply's calls from zero);
// an agent the first hands the work to inside the same tool (a triage
// agent used as a tool routing to a specialist, a tool running a writer
// then a reviewer) gets it from the first.
func TestAgentsToolsRan(t *testing.T) {
	agent := func(id, parent, name string, start, end float64) span {
		return span{id: id, parent: parent, name: name, start: start, end: end, attrs: map[string]any{"openinference.span.kind": "AGENT", "agent.name": name, "input.value": "Work for " + name + "."}}
	}
	tool := func(id, parent, name, out string, start, end float64) span {
		return span{id: id, parent: parent, name: name, start: start, end: end, attrs: map[string]any{"openinference.span.kind": "TOOL", "tool.name": name, "input.value": "{}", "output.value": out}}
	}
	model := func(id, parent, out string, start float64) span {
		return span{id: id, parent: parent, name: "chat", start: start, end: start + 0.1, attrs: map[string]any{"openinference.span.kind": "LLM", "output.value": out}}
	}
	call := func(id, name string) string {
		return `{"role":"assistant","content":null,"tool_calls":[{"id":"` + id + `","type":"function","function":{"name":"` + name + `","arguments":"{}"}}]}`
	}
	lead := agent("r", "", "lead", 0, 8)
	tests := []struct {
		name  string
		spans []span
		want  []string
	}{
		{"a call id again", []span{
			lead,
			model("m1", "r", call("0", "ask_expert"), 0.1), tool("t1", "r", "ask_expert", "Expert says A.", 0.3, 2), agent("e", "t1", "expert", 0.4, 1.9), model("em", "e", "A.", 0.5),
			model("m2", "r", call("0", "ask_critic"), 2.1), tool("t2", "r", "ask_critic", "Critic says B.", 2.3, 4), agent("c", "t2", "critic", 2.4, 3.9), model("cm", "c", "B.", 2.5),
		}, []string{"0 user → lead", "1 lead → expert", "4 lead → critic"}},
		{"an agent inside the agent the tool ran", []span{
			lead,
			model("m1", "r", call("c1", "triage"), 0.1), tool("t1", "r", "triage", `{"routed": true}`, 0.3, 5),
			agent("w", "t1", "triager", 0.4, 4.9), model("wm", "w", "This is for billing.", 0.5),
			agent("v", "w", "billing", 1, 4.8), model("vm", "v", "Refund issued.", 1.1),
		}, []string{"0 user → lead", "1 lead → triager", "2 triager → billing"}},
		{"two agents one after the other in one tool", []span{
			lead,
			model("m1", "r", call("c1", "write_and_review"), 0.1), tool("t1", "r", "write_and_review", `{"approved": true}`, 0.3, 5),
			agent("w", "t1", "writer", 0.4, 2), model("wm", "w", "A draft.", 0.5),
			agent("v", "t1", "reviewer", 2.1, 4.9), model("vm", "v", "The draft, reviewed.", 2.2),
		}, []string{"0 user → lead", "1 lead → writer", "2 writer → reviewer"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := run.Load(writeSpans(t, tt.spans...), run.Options{})
			require.NoError(t, err)
			var got []string
			for _, s := range r.Steps {
				if s.Target() != "" {
					got = append(got, fmt.Sprintf("%d %s → %s", s.Index, s.Agent, s.Target()))
				}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestRuntimeFailureStep: a model call that failed with no step of its
// own to show it is read as a step of its own, marked as the runtime's
// report (Step.RuntimeFailure); the agent's turns are not.
func TestRuntimeFailureStep(t *testing.T) {
	r, err := run.Load(writeSpans(t,
		span{id: "a", name: "invoke_agent Planner", start: 1, end: 5, attrs: map[string]any{"gen_ai.operation.name": "invoke_agent"}},
		span{id: "b", parent: "a", name: "chat", start: 2, attrs: map[string]any{"gen_ai.operation.name": "chat",
			"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"Searching."}]}]`}},
		span{id: "c", parent: "a", name: "chat", start: 3, status: "ERROR", message: "RateLimitError: quota exceeded",
			attrs: map[string]any{"gen_ai.operation.name": "chat"}},
	), run.Options{})
	require.NoError(t, err)
	var failures []string
	for _, s := range r.Steps {
		if s.RuntimeFailure() {
			failures = append(failures, s.Content)
		}
	}
	assert.Equal(t, []string{"RateLimitError: quota exceeded"}, failures)
	assert.Len(t, r.Steps, 2)
}
