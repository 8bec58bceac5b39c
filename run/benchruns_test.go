package run

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBenchmarkTrajectories: the trajectories benchmarks publish are read
// as runs: AgentBench's task outputs (a JSONL line each, the messages
// under the output's history, a label record beside the one run),
// ToolBench's answers (the longest of the train_messages, the query the
// task, a legacy function call the step's call), the debates of Du et
// al. (each agent's replies in rounds, the answer the ground truth),
// MetaGPT's saved team (its roles' memories, each message once) and
// BFCL's multi-turn results (each step's output with the calls its
// handler decoded, then their results).
func TestBenchmarkTrajectories(t *testing.T) {
	tests := []struct {
		name, data  string
		runs        []string
		steps       []string
		question    string
		truth       string
		label       *Label
		secondSteps []string
	}{
		{
			name: "agentbench runs",
			data: `{"index": 3, "error": null, "info": null, "output": {"result": {"result": false}, "history": [{"role": "user", "content": "How many files?"}, {"role": "agent", "content": "Act: bash\n\n` + "```bash\\nls\\n```" + `"}, {"role": "user", "content": "The output of the OS:\n\na b"}, {"role": "agent", "content": "Act: answer(3)"}], "status": "completed"}, "time": {"timestamp": 1}}
{"mistake_agent": "agent", "mistake_step": 3}`,
			runs:     []string{"3"},
			steps:    []string{"user user", "agent message", "user user", "agent message"},
			question: "How many files?",
			label:    &Label{Agent: "agent", Step: 3},
		},
		{
			name: "agentbench runs, several",
			data: `{"index": 0, "output": {"history": [{"role": "user", "content": "Q0"}, {"role": "agent", "content": "A0"}], "status": "completed"}}
{"index": 1, "output": {"history": [{"role": "user", "content": "Q1"}, {"role": "agent", "content": "A1"}], "status": "completed"}}`,
			runs:        []string{"0", "1"},
			steps:       []string{"user user", "agent message"},
			question:    "Q0",
			secondSteps: []string{"user user", "agent message"},
		},
		{
			name: "toolbench answer",
			data: `{"win": true, "answer_generation": {"valid_data": true, "finish_type": "give_answer", "query": "Rate of USD to EUR?",
				"train_messages": [
				[{"role": "system", "content": "You are AutoGPT."}, {"role": "user", "content": "Rate of USD to EUR?\nBegin!\n"}, {"role": "assistant", "content": "Convert.", "function_call": {"name": "convert", "arguments": "{\"to\": \"EUR\"}"}}],
				[{"role": "system", "content": "You are AutoGPT."}, {"role": "user", "content": "Rate of USD to EUR?\nBegin!\n"}, {"role": "assistant", "content": "Convert.", "function_call": {"name": "convert", "arguments": "{\"to\": \"EUR\"}"}},
				 {"role": "function", "name": "convert", "content": "{\"error\": \"401\", \"response\": \"\"}"},
				 {"role": "assistant", "content": "Done.", "function_call": {"name": "Finish", "arguments": "{\"return_type\": \"give_answer\", \"final_answer\": \"0.92\"}"}}]]},
				"mistake_agent": "assistant", "mistake_step": 4}`,
			runs:     []string{""},
			steps:    []string{"system system", "user user", `assistant tool_call convert{"to": "EUR"}`, "convert tool_result", `assistant tool_call Finish{"return_type": "give_answer", "final_answer": "0.92"}`},
			question: "Rate of USD to EUR?",
			label:    &Label{Agent: "assistant", Step: 4},
		},
		{
			name: "debate agent contexts",
			data: `{"What is 2+3?": [[
				[{"role": "user", "content": "Can you solve 2+3?"}, {"role": "assistant", "content": "5"}, {"role": "user", "content": "Other agents said 6."}, {"role": "assistant", "content": "6"}],
				[{"role": "user", "content": "Can you solve 2+3?"}, {"role": "assistant", "content": "6"}, {"role": "user", "content": "Other agents said 5."}, {"role": "assistant", "content": "6"}]], "5"],
				"mistake_agent": "agent 2", "mistake_step": 2}`,
			runs:     []string{""},
			steps:    []string{"user user", "agent 1 message", "agent 2 message", "agent 1 message", "agent 2 message"},
			question: "What is 2+3?",
			truth:    "5",
			label:    &Label{Agent: "agent 2", Step: 2},
		},
		{
			name: "metagpt team",
			data: `{"env": {"desc": "", "roles": {
				"Alice": {"name": "Alice", "profile": "Product Manager", "rc": {"memory": {"storage": [
					{"id": "m0", "content": "Write a game.", "role": "Human", "cause_by": "metagpt.actions.add_requirement.UserRequirement", "sent_from": "", "send_to": ["<all>"]},
					{"id": "m1", "content": "PRD: save scores.", "role": "Alice(Product Manager)", "cause_by": "metagpt.actions.write_prd.WritePRD", "sent_from": "", "send_to": ["<all>"]}], "index": {}}}},
				"Bob": {"name": "Bob", "profile": "Architect", "rc": {"memory": {"storage": [
					{"id": "m1", "content": "PRD: save scores.", "role": "Alice(Product Manager)", "cause_by": "metagpt.actions.write_prd.WritePRD", "sent_from": "", "send_to": ["<all>"]},
					{"id": "m2", "content": "Design: scores in memory.", "role": "Bob(Architect)", "cause_by": "metagpt.actions.design_api.WriteDesign", "sent_from": "", "send_to": ["<all>"]}], "index": {}}}}},
				"history": "\nHuman: Write a game."}, "investment": 3.0, "idea": "Write a game.",
				"mistake_agent": "Architect", "mistake_step": 2}`,
			runs:     []string{""},
			steps:    []string{"Human user", "Alice(Product Manager) message", "Bob(Architect) message"},
			question: "Write a game.",
			label:    &Label{Agent: "Architect", Step: 2},
		},
		{
			name: "bfcl multi-turn result",
			data: `{"id": "multi_turn_base_1", "result": [], "inference_log": [{"begin_of_turn_query": [{"role": "user", "content": "Find 'budget analysis' in a.pdf."}],
				"step_0": [{"role": "inference_input", "content": {"message": "[...]"}}, {"role": "inference_output", "content": "[grep(file_name='a.pdf', pattern='budget')]"},
					{"role": "handler_log", "content": "Successfully decoded model response.", "model_response_decoded": ["grep(file_name='a.pdf', pattern='budget')"]},
					{"role": "tool", "content": "{\"matching_lines\": [\"budget 1\"]}"}],
				"step_1": [{"role": "inference_output", "content": "Found it."}, {"role": "handler_log", "content": "Error decoding the model response. Proceed to next turn."}]}]}
{"mistake_agent": "assistant", "mistake_step": 1}`,
			runs:     []string{""},
			steps:    []string{"user user", `assistant tool_call grep{"file_name":"a.pdf","pattern":"budget"}`, "assistant tool_result", "assistant message"},
			question: "Find 'budget analysis' in a.pdf.",
			label:    &Label{Agent: "assistant", Step: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cases, err := ParseAll(context.Background(), "run.json", []byte(tt.data), Options{})
			require.NoError(t, err)
			require.Len(t, cases, len(tt.runs))
			for i, c := range cases {
				assert.Equal(t, tt.runs[i], c.Run.TraceID)
			}
			first := cases[0]
			assert.Equal(t, tt.steps, stepLines(first.Run))
			assert.Equal(t, tt.question, first.Run.Question)
			assert.Equal(t, tt.truth, first.Run.GroundTruth)
			if tt.label == nil {
				assert.Nil(t, first.Label)
			} else {
				require.NotNil(t, first.Label)
				assert.Equal(t, tt.label.Agent, first.Label.Agent)
				assert.Equal(t, tt.label.Step, first.Label.Step)
			}
			if tt.secondSteps != nil {
				assert.Equal(t, tt.secondSteps, stepLines(cases[1].Run))
			}
		})
	}
}

// Objects that only look like these trajectories (a step that is no list
// of entries, a question whose agents hold no messages, a team without
// memories) are no run of them: the error says the format is unknown.
func TestBenchmarkTrajectoriesMisshapen(t *testing.T) {
	for _, data := range []string{
		`{"id": "m", "inference_log": [{"begin_of_turn_query": [{"role": "user", "content": "q"}], "step_0": 5}]}`,
		`{"id": "m", "inference_log": [{"turn": []}]}`,
		`{"What is 2+3?": [[], "5"]}`,
		`{"What is 2+3?": [[[1], [2]], "5"]}`,
		`{"env": {"roles": {"Alice": {"rc": {"memory": {"storage": []}}}}}, "idea": "x"}`,
		`{"answer_generation": {"query": "q", "train_messages": []}}`,
		`{"index": 1, "output": {"history": [], "status": "completed"}}` + "\n" + `{"index": 2, "output": {"history": [], "status": "completed"}}`,
	} {
		_, err := ParseAll(context.Background(), "run.json", []byte(data), Options{})
		assert.ErrorIs(t, err, ErrUnknownFormat, data)
	}
}

// TestBenchmarkRecordNames: each record of a file of several is a run of
// its own name, as a harness's records are: one without an id, or with an
// id another record of the file repeats, is named by its place too, so no
// two runs of the file share a name.
func TestBenchmarkRecordNames(t *testing.T) {
	bfcl := func(id string) string {
		return `{` + id + `"inference_log": [{"begin_of_turn_query": [{"role": "user", "content": "q"}], "step_0": [{"role": "inference_output", "content": "ok"}]}]}`
	}
	tests := []struct {
		name, data string
		runs       []string
	}{
		{"bfcl, ids", bfcl(`"id": "a", `) + "\n" + bfcl(`"id": "b", `), []string{"a", "b"}},
		{"bfcl, no ids", bfcl("") + "\n" + bfcl(""), []string{"1", "2"}},
		{"bfcl, an id repeated", bfcl(`"id": "a", `) + "\n" + bfcl(`"id": "a", `) + "\n" + bfcl(`"id": "b", `), []string{"a-1", "a-2", "b"}},
		{"agentbench, an index repeated", `{"index": 0, "output": {"history": [{"role": "user", "content": "Q"}, {"role": "agent", "content": "A"}]}}
{"index": 0, "output": {"history": [{"role": "user", "content": "Q"}, {"role": "agent", "content": "A"}]}}`, []string{"0-1", "0-2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cases, err := ParseAll(context.Background(), "run.jsonl", []byte(tt.data), Options{})
			require.NoError(t, err)
			var got []string
			for _, c := range cases {
				got = append(got, c.Run.TraceID)
			}
			assert.Equal(t, tt.runs, got)
		})
	}
}
