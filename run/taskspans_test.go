package run_test

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

// btRow is one of Braintrust's logged span rows, as its SDKs send them and
// its fetch API lists them: span_id, root_span_id, span_parents, the name
// and type in span_attributes, input, output and metrics.start.
func btRow(id, parent, typ, name string, start float64, input, output any) map[string]any {
	row := map[string]any{"id": "row-" + id, "span_id": id, "root_span_id": "root", "span_attributes": map[string]any{"name": name, "type": typ},
		"metrics": map[string]any{"start": 1795785436 + start, "end": 1795785436 + start + 0.5}, "input": input, "output": output}
	if parent != "" {
		row["span_parents"] = []string{parent}
	}
	return row
}

// btReply is a model call's output as Braintrust's wrappers log it: the
// choices of a Chat Completion.
func btReply(text string) []any {
	return []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": text}}}
}

// TestBraintrustTaskAgents: Braintrust's integrations log each agent's
// turn as a task span named for the agent, beside task spans for the
// workflow around the agents and for the turns and chains inside each. A
// model call belongs to the agent whose span holds it, so a run of two
// agents reads as two.
func TestBraintrustTaskAgents(t *testing.T) {
	ask := []any{map[string]any{"role": "user", "content": "What was Q3 revenue in EUR?"}}
	tests := []struct {
		name string
		file string // a fixture, else rows
		rows []map[string]any
		want []string
	}{
		{
			// Braintrust's OpenAI Agents SDK processor (@braintrust/openai-agents
			// 0.1.5): an agent span is a task named for the agent, the SDK's
			// turns inside it are tasks named "Unknown", the workflow around
			// both agents is a task too.
			name: "OpenAI Agents SDK, a handoff",
			file: filepath.Join("..", "testdata", "traces", "braintrust-openai-agents-js.jsonl"),
			want: []string{
				"user user: How much will I get back for invoice INV-2041?",
				"Triage agent tool_call: transfer_to_Billing_agent({})",
				`Billing agent tool_result: {"assistant":"Billing agent"}`,
				`Billing agent tool_call: lookup_invoice({"invoice_id": "INV-2041"})`,
				`Billing agent tool_result: {"amount":"125.00","currency":"EUR","invoice_id":"INV-2041","status":"paid"}`,
				"Billing agent message: Invoice INV-2041 was for 1,250.00 EUR and is still open; the refund will be 1,250.00 EUR.",
			},
		},
		{
			// Braintrust's LangChain handler (braintrust 3.35.0's
			// BraintrustLangChainCallbackHandler) logs every chain as a task
			// named for its run: the graph, its nodes, and inside each
			// ReAct agent the same "agent" node and RunnableSequence.
			name: "LangGraph, two nodes running ReAct agents",
			rows: []map[string]any{
				btRow("g", "", "task", "LangGraph", 0, map[string]any{"messages": ask}, nil),
				btRow("r", "g", "task", "researcher", 1, nil, nil),
				btRow("ra", "r", "task", "agent", 1.1, nil, nil),
				btRow("rs", "ra", "task", "RunnableSequence", 1.2, nil, nil),
				btRow("rm", "rs", "llm", "ChatOpenAI", 1.3, ask, btReply("Q3 revenue was 4.2M USD.")),
				btRow("a", "g", "task", "analyst", 2, nil, nil),
				btRow("aa", "a", "task", "agent", 2.1, nil, nil),
				btRow("as", "aa", "task", "RunnableSequence", 2.2, nil, nil),
				btRow("am", "as", "llm", "ChatOpenAI", 2.3, ask, btReply("That is 4.2M EUR.")),
			},
			want: []string{
				"user user: What was Q3 revenue in EUR?",
				"researcher message: Q3 revenue was 4.2M USD.",
				"analyst message: That is 4.2M EUR.",
			},
		},
		{
			name: "one agent: its turns are its steps",
			rows: []map[string]any{
				btRow("w", "", "task", "Agent workflow", 0, nil, nil),
				btRow("x", "w", "task", "Assistant", 0.1, nil, nil),
				btRow("t1", "x", "task", "Unknown", 0.2, nil, nil),
				btRow("m1", "t1", "llm", "Generation", 0.3, ask, btReply("Looking it up.")),
				btRow("t2", "x", "task", "Unknown", 1, nil, nil),
				btRow("m2", "t2", "llm", "Generation", 1.1, ask, btReply("4.2M EUR.")),
			},
			want: []string{"user user: What was Q3 revenue in EUR?", "Agent workflow message: Looking it up.", "Agent workflow message: 4.2M EUR."},
		},
		{
			name: "a supervisor calling the model itself, an agent as its tool",
			rows: []map[string]any{
				btRow("s", "", "function", "supervisor", 0, nil, nil),
				btRow("sm", "s", "llm", "Chat Completion", 0.1, ask, btReply("Asking the analyst.")),
				btRow("tool", "s", "tool", "ask_analyst", 1, map[string]any{"q": "Q3 revenue"}, "4.2M EUR"),
				btRow("an", "tool", "task", "analyst", 1.1, nil, nil),
				btRow("am", "an", "llm", "Chat Completion", 1.2, ask, btReply("4.2M EUR.")),
				btRow("w", "s", "task", "writer", 2, nil, nil),
				btRow("wm", "w", "llm", "Chat Completion", 2.1, ask, btReply("Revenue: 4.2M EUR.")),
			},
			want: []string{
				"user user: What was Q3 revenue in EUR?",
				"supervisor message: Asking the analyst.",
				"analyst message: 4.2M EUR.",
				`supervisor tool_result: ask_analyst({"q":"Q3 revenue"}) -> 4.2M EUR`,
				"writer message: Revenue: 4.2M EUR.",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.file
			if path == "" {
				var b strings.Builder
				for _, r := range tt.rows {
					line, err := json.Marshal(r)
					require.NoError(t, err)
					b.Write(line)
					b.WriteByte('\n')
				}
				path = filepath.Join(t.TempDir(), "braintrust.jsonl")
				require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
			}
			c := loadOne(t, path, "")
			assert.Equal(t, tt.want, steps(c.Run))
		})
	}
}

// lsRun is a LangSmith run as its SDKs send it and list_runs returns it.
func lsRun(id, parent, typ, name string, start, end float64, inputs, outputs any, metadata map[string]any) map[string]any {
	r := map[string]any{"id": id, "trace_id": "root", "name": name, "run_type": typ, "inputs": inputs, "outputs": outputs,
		"start_time": fmt.Sprintf("2026-03-02T09:00:%06.3fZ", start), "end_time": fmt.Sprintf("2026-03-02T09:00:%06.3fZ", end)}
	if parent != "" {
		r["parent_run_id"] = parent
	}
	if metadata != nil {
		r["extra"] = map[string]any{"metadata": metadata}
	}
	return r
}

// TestLangSmithChainAgents: LangSmith's traceable functions log a
// program's agents as chain runs named for them, which name the agent of
// the model calls inside; a chain around runs a convention names
// (LangGraph's nodes, by langgraph_node) leaves those names.
func TestLangSmithChainAgents(t *testing.T) {
	ask := map[string]any{"messages": []any{map[string]any{"role": "user", "content": "What was Q3 revenue in EUR?"}}}
	reply := func(text string) map[string]any {
		return map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": text}}}}
	}
	call := map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": nil,
		"tool_calls": []any{map[string]any{"id": "c1", "type": "function", "function": map[string]any{"name": "ask_analyst", "arguments": `{"question":"Q3 revenue?"}`}}}}}}}
	node := func(name string) map[string]any { return map[string]any{"langgraph_node": name} }
	tests := []struct {
		name string
		runs []map[string]any
		want []string
	}{
		{
			name: "traceable agents, one run by the other's tool",
			runs: []map[string]any{
				lsRun("p", "", "chain", "planner", 0, 9, map[string]any{"input": "What was Q3 revenue in EUR?"}, map[string]any{"outputs": "4.2M EUR."}, nil),
				lsRun("pm", "p", "llm", "ChatOpenAI", 1, 1.5, ask, call, nil),
				lsRun("t", "p", "tool", "ask_analyst", 2, 5, map[string]any{"question": "Q3 revenue?"}, map[string]any{"outputs": "4.2M USD."}, nil),
				lsRun("a", "t", "chain", "analyst", 2.1, 4.9, map[string]any{"input": "Q3 revenue?"}, map[string]any{"outputs": "4.2M USD."}, nil),
				lsRun("am", "a", "llm", "ChatOpenAI", 3, 3.5, ask, reply("4.2M USD."), nil),
				lsRun("pm2", "p", "llm", "ChatOpenAI", 6, 6.5, ask, reply("4.2M EUR."), nil),
			},
			want: []string{
				"user user: What was Q3 revenue in EUR?",
				`planner tool_call: ask_analyst({"question":"Q3 revenue?"})`,
				"analyst message: 4.2M USD.",
				"planner message: 4.2M EUR.",
			},
		},
		{
			name: "a graph's chain around its named nodes",
			runs: []map[string]any{
				lsRun("g", "", "chain", "LangGraph", 0, 9, ask, nil, nil),
				lsRun("r", "g", "chain", "researcher", 1, 4, nil, nil, node("researcher")),
				lsRun("rm", "r", "llm", "ChatOpenAI", 2, 3, ask, reply("Q3 revenue was 4.2M USD."), node("researcher")),
				lsRun("a", "g", "chain", "analyst", 5, 8, nil, nil, node("analyst")),
				lsRun("am", "a", "llm", "ChatOpenAI", 6, 7, ask, reply("That is 4.2M EUR."), node("analyst")),
			},
			want: []string{
				"user user: What was Q3 revenue in EUR?",
				"researcher message: Q3 revenue was 4.2M USD.",
				"analyst message: That is 4.2M EUR.",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			for _, r := range tt.runs {
				line, err := json.Marshal(r)
				require.NoError(t, err)
				b.Write(line)
				b.WriteByte('\n')
			}
			path := filepath.Join(t.TempDir(), "runs.jsonl")
			require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
			c := loadOne(t, path, "")
			assert.Equal(t, tt.want, steps(c.Run))
		})
	}
}
