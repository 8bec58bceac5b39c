package run_test

import (
	"encoding/json"
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
