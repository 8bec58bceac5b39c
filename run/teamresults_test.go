package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTeamResults: the results multi-agent teams return, saved as they
// are, are read as their agents' turns: the OpenAI Agents SDK's Python
// RunResult (its input, then each new item by its agent, a handoff's
// output by its source), a Strands Swarm's or Graph's result (each
// node's last message in the order the nodes ran, once), a PraisonAI
// team's task results (each task's description, then its agent's
// output, in the order of their ids), AG2's chat results (one, or those
// initiate_chats returns, beside the task and a label), Magentic-One's
// event log (the first message the user's task, the model calls' lines
// passed over) and a Mastra network's chunks (the router's choice a
// handoff, the agent's calls and what it gives back); a label beside
// them is the run's.
func TestTeamResults(t *testing.T) {
	tests := []struct {
		name, data string
		question   string
		steps      []string // "agent kind: content"
		label      *Label
	}{
		{"agents sdk run result", `{"input": "My TLS calls fail.", "new_items": [
			{"type": "handoff_call_item", "agent": "Triage", "raw_item": {"type": "function_call", "name": "transfer_to_billing", "arguments": "{}", "call_id": "c1"}},
			{"type": "handoff_output_item", "source_agent": {"name": "Triage"}, "target_agent": {"name": "Billing"}, "raw_item": {"type": "function_call_output", "call_id": "c1", "output": "{\"assistant\": \"Billing\"}"}},
			{"type": "message_output_item", "agent": {"name": "Billing"}, "raw_item": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Your invoice is paid."}]}}],
			"final_output": "Your invoice is paid.", "mistake_agent": "Triage", "mistake_step": 1}`,
			"My TLS calls fail.",
			[]string{"user user: My TLS calls fail.", "Triage tool_call: transfer_to_billing({})", `Triage tool_result: {"assistant": "Billing"}`, "Billing message: Your invoice is paid."},
			&Label{Agent: "Triage", Step: 1}},
		{"strands swarm result", `{"task": "Build it with auth.", "status": "COMPLETED",
			"node_history": [{"node_id": "researcher"}, {"node_id": "architect"}, {"node_id": "researcher"}, {"node_id": "coder"}],
			"results": {
				"coder": {"result": {"stop_reason": "end_turn", "message": {"role": "assistant", "content": [{"text": "Done."}, {"toolUse": {"toolUseId": "t", "name": "shell", "input": {}}}]}}, "status": "COMPLETED"},
				"architect": {"result": {"message": {"role": "assistant", "content": [{"text": "No auth needed."}]}}, "status": "COMPLETED"},
				"researcher": {"result": {"message": {"role": "assistant", "content": [{"text": "Auth is required."}]}}, "status": "COMPLETED"}},
			"mistake_agent": "architect", "mistake_step": 0}`,
			"Build it with auth.",
			[]string{"architect message: No auth needed.", "researcher message: Auth is required.", "coder message: Done."},
			&Label{Agent: "architect", Step: 0}},
		{"strands graph result", `{"status": "FAILED", "execution_order": ["plan", "act"], "results": {
			"plan": {"result": {"message": {"role": "assistant", "content": [{"text": "Plan A."}]}}},
			"act": {"status": "FAILED", "error": "tool crashed"}}}`,
			"",
			[]string{"plan message: Plan A.", "act message: Error: tool crashed"}, nil},
		{"praisonai task results", `{"task_status": {"0": "completed", "1": "completed", "10": "completed"}, "task_results": {
			"10": {"description": "Write.", "raw": "Brief.", "agent": "Writer"},
			"0": {"description": "Collect: South 980.", "raw": "South 980.", "agent": "Collector"},
			"1": {"description": "Sum.", "raw": "South 890.", "agent": "Analyst"}}}`,
			"Collect: South 980.",
			[]string{"user user: Collect: South 980.", "Collector message: South 980.", "user user: Sum.", "Analyst message: South 890.", "user user: Write.", "Writer message: Brief."}, nil},
		{"ag2 chat results beside a task", `{"task": "Plan a trip with a dog.", "mistake_agent": "researcher", "mistake_step": 1, "chats": [
			{"chat_id": null, "chat_history": [{"content": "Research it.", "role": "assistant", "name": "user_proxy"}, {"content": "Hotel X.", "role": "user", "name": "researcher"}], "summary": "Hotel X.", "cost": {}, "human_input": []},
			{"chat_id": null, "chat_history": [{"content": "Plan it.\nContext: \nHotel X.", "role": "assistant", "name": "user_proxy"}, {"content": "Day 1: Hotel X.", "role": "user", "name": "planner"}], "summary": "Day 1.", "cost": {}, "human_input": []}]}`,
			"Plan a trip with a dog.",
			[]string{"user_proxy user: Research it.", "researcher message: Hotel X.", "user_proxy message: Plan it.\nContext: \nHotel X.", "planner message: Day 1: Hotel X."},
			&Label{Agent: "researcher", Step: 1}},
		{"one ag2 chat result", `{"chat_id": null, "chat_history": [{"content": "Sum 2 and 2.", "role": "assistant", "name": "user_proxy"}, {"content": "5", "role": "user", "name": "solver"}], "summary": "5", "cost": {"usage_including_cached_inference": {"total_cost": 0}}, "human_input": []}`,
			"Sum 2 and 2.",
			[]string{"user_proxy user: Sum 2 and 2.", "solver message: 5"}, nil},
		{"magentic-one log", `{"timestamp": "t1", "source": "UserProxy", "message": "How many?", "type": "OrchestrationEvent"}
{"timestamp": "t2", "prompt_tokens": 10, "completion_tokens": 2, "type": "LLMCallEvent"}
{"timestamp": "t3", "source": "Orchestrator (thought)", "message": "Updated Ledger: {}", "type": "OrchestrationEvent"}
{"timestamp": "t4", "source": "Orchestrator (-> WebSurfer)", "message": "Look it up.", "type": "OrchestrationEvent"}
{"timestamp": "t5", "source": "WebSurfer", "message": "I clicked 'Stats'.", "url": "https://x.example", "action": "click", "type": "WebSurferEvent"}
{"mistake_agent": "WebSurfer", "mistake_step": 3, "mistake_reason": "r"}`,
			"How many?",
			[]string{"human user: How many?", "Orchestrator thought: Updated Ledger: {}", "Orchestrator instruction: Look it up.", "WebSurfer message: I clicked 'Stats'."},
			&Label{Agent: "WebSurfer", Step: 3, Reason: "r"}},
		{"mastra network chunks", `{"type": "routing-agent-start", "payload": {"agentId": "router", "inputData": {"task": "Cheapest flight?"}}}
{"type": "routing-agent-end", "payload": {"task": "Cheapest flight?", "primitiveId": "flights", "primitiveType": "agent", "prompt": "Search flights.", "selectionReason": "It can search.", "isComplete": false}}
{"type": "agent-execution-start", "payload": {"agentId": "flights"}}
{"type": "agent-execution-event-tool-call", "payload": {"toolCallId": "c1", "toolName": "search", "args": {"to": "MAD"}}}
{"type": "agent-execution-event-tool-result", "payload": {"toolCallId": "c1", "toolName": "search", "result": {"error": "timeout"}, "isError": true}}
{"type": "agent-execution-end", "payload": {"agentId": "flights", "result": "I2 3642 for 89 EUR."}}
{"type": "routing-agent-end", "payload": {"primitiveId": "", "primitiveType": "none", "result": "I2 3642 for 89 EUR.", "isComplete": true}}
{"type": "network-execution-event-step-finish", "payload": {"result": "I2 3642 for 89 EUR.", "isComplete": true}}`,
			"Cheapest flight?",
			[]string{"router handoff: It can search.\nSearch flights.", `flights tool_call: search({"to":"MAD"})`, `flights tool_result: Error: {"error":"timeout"}`, "flights message: I2 3642 for 89 EUR.", "router message: I2 3642 for 89 EUR."}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCase("run.json", []byte(tt.data), Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.steps, stepTexts(c.Run))
			assert.Equal(t, tt.question, c.Run.Question)
			assert.Equal(t, tt.label, c.Label)
		})
	}
	for _, bad := range []string{
		`{"results": {"a": {"result": {}}}, "node_history": ["b"]}`,
		`{"task_results": {"0": {"raw": "x"}}, "task_status": {}}`,
		`[{"type": "OrchestrationEvent"}, {"type": "LLMCallEvent"}]`,
		`[{"type": "routing-agent-start"}]`,
		`{"task": "t", "steps": [{"x": 1}]}`,
	} {
		_, err := Parse("run.json", []byte(bad), Options{})
		assert.ErrorIs(t, err, ErrUnknownFormat, bad)
	}
}

// stepTexts are the agent, kind and text of each step, as a test reads a
// run.
func stepTexts(r *Run) []string {
	out := make([]string, len(r.Steps))
	for i, s := range r.Steps {
		out[i] = s.Agent + " " + string(s.Kind) + ": " + s.Content
	}
	return out
}
