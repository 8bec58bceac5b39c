package run_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// Two flat spans of one trace: an agent and the model call inside it,
// whose answer is the step labelled below.
const (
	labelledSpanA = `{"name":"invoke_agent Planner","context":{"trace_id":"t1","span_id":"a"},"start_time":1,"end_time":9,"attributes":{"gen_ai.operation.name":"invoke_agent","gen_ai.agent.name":"Planner","gen_ai.input.messages":"[{\"role\":\"user\",\"content\":\"Capital of France?\"}]"}}`
	labelledSpanB = `{"name":"chat","context":{"trace_id":"t1","span_id":"b"},"parent_id":"a","start_time":2,"end_time":3,"attributes":{"gen_ai.operation.name":"chat","gen_ai.output.messages":"[{\"role\":\"assistant\",\"content\":\"Lyon.\"}]"}}`
)

// TestTraceFileLabelBeside: a trace file labelled as the other wrapped
// runs are, the label's keys beside its own members, beside the one list
// that holds its spans, or on a JSON line of its own, is read as the trace
// file it is and scored against that label.
func TestTraceFileLabelBeside(t *testing.T) {
	label := `"mistake_agent":"Planner","mistake_step":1,"mistake_reason":"wrong city"`
	tests := []struct{ name, data string }{
		{"beside the members of a trace", `{` + label + `,"spans":[` + labelledSpanA + `,` + labelledSpanB + `]}`},
		{"after the members of a trace", `{"spans":[` + labelledSpanA + `,` + labelledSpanB + `],` + label + `}`},
		{"beside one list", `{` + label + `,"rows":[` + labelledSpanA + `,` + labelledSpanB + `]}`},
		{"a JSON line of its own", labelledSpanA + "\n{" + label + "}\n" + labelledSpanB + "\n"},
		{"beside a data frame's columns and rows", `{"columns":[{"name":"name"}],` + label + `,"rows":[` + labelledSpanA + `,` + labelledSpanB + `]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cases, err := run.ParseAll(context.Background(), "trace.json", []byte(tt.data), run.Options{})
			require.NoError(t, err)
			require.Len(t, cases, 1)
			require.NotNil(t, cases[0].Label, "the label beside the trace is read")
			assert.Equal(t, run.Label{Agent: "Planner", Step: 1, Reason: "wrong city"}, *cases[0].Label)
			assert.Equal(t, "Lyon.", cases[0].Run.Steps[1].Content)
		})
	}
}

// TestTraceFileLabelBesideSeveralTraces: a label beside a file of two
// traces names neither, and says so.
func TestTraceFileLabelBesideSeveralTraces(t *testing.T) {
	other := `{"name":"chat","context":{"trace_id":"t2","span_id":"c"},"start_time":2,"end_time":3,"attributes":{"gen_ai.operation.name":"chat","gen_ai.output.messages":"[{\"role\":\"assistant\",\"content\":\"Rome.\"}]"}}`
	data := `{"mistake_agent":"Planner","mistake_step":1,"spans":[` + labelledSpanA + `,` + labelledSpanB + `,` + other + `]}`
	_, err := run.ParseAll(context.Background(), "trace.json", []byte(data), run.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "several traces")
	assert.Contains(t, err.Error(), "trace.json")
}

// TestOpikSpansPage: a page of spans as Opik's REST API lists them
// ({"page", "size", "total", "content"}) is read as its spans.
func TestOpikSpansPage(t *testing.T) {
	data := `{"page":1,"size":3,"total":3,"content":[
 {"id":"s1","trace_id":"t","parent_span_id":null,"name":"shop_agent","type":"general","start_time":"2024-11-29T10:00:00Z","end_time":"2024-11-29T10:00:09Z","input":{"input":"Where is order 88213?"},"output":{"output":"It shipped."}},
 {"id":"s2","trace_id":"t","parent_span_id":"s1","name":"get_order_status","type":"tool","start_time":"2024-11-29T10:00:01Z","end_time":"2024-11-29T10:00:05Z","input":{"order_id":"88213"},"output":null,"error_info":{"exception_type":"TimeoutError","message":"timed out"}},
 {"id":"s3","trace_id":"t","parent_span_id":"s1","name":"chat_completion_create","type":"llm","start_time":"2024-11-29T10:00:06Z","end_time":"2024-11-29T10:00:08Z","input":{"messages":[{"role":"user","content":"Where is order 88213?"}]},"output":{"choices":[{"message":{"role":"assistant","content":"It shipped."}}]}}]}`
	cases, err := run.ParseAll(context.Background(), "opik.json", []byte(data), run.Options{})
	require.NoError(t, err)
	require.Len(t, cases, 1)
	r := cases[0].Run
	assert.Equal(t, "t", r.TraceID)
	var kinds []run.Kind
	for _, s := range r.Steps {
		kinds = append(kinds, s.Kind)
	}
	assert.Contains(t, kinds, run.KindToolResult, "the failed lookup is read")
	assert.Equal(t, "It shipped.", r.Steps[len(r.Steps)-1].Content)
	assert.Equal(t, "shop_agent", r.Steps[len(r.Steps)-1].Agent)
}

// TestHoneyHiveEventsExport: HoneyHive's events export ({"events":
// [event…]}) is read as spans, each session a trace, each event a span
// of its type: a chain's model call is that agent's.
func TestHoneyHiveEventsExport(t *testing.T) {
	data := `{"events":[
 {"event_id":"s","session_id":"sess","parent_id":null,"event_type":"session","event_name":"Session","inputs":{},"outputs":{},"start_time":1732890000000,"end_time":1732890009000},
 {"event_id":"c1","session_id":"sess","parent_id":"s","event_type":"chain","event_name":"analyst","inputs":{"data":"Q3 revenue $4.2M"},"outputs":{"analysis":"Q3 revenue was $2.4M."},"start_time":1732890001000,"end_time":1732890004000},
 {"event_id":"m1","session_id":"sess","parent_id":"c1","event_type":"model","event_name":"openai.chat","config":{"model":"gpt-4o-mini"},"inputs":{"chat_history":[{"role":"user","content":"Q3 revenue $4.2M"}]},"outputs":{"role":"assistant","content":"Q3 revenue was $2.4M."},"start_time":1732890001500,"end_time":1732890003500}],"totalEvents":3}`
	cases, err := run.ParseAll(context.Background(), "honeyhive.json", []byte(data), run.Options{})
	require.NoError(t, err)
	require.Len(t, cases, 1)
	r := cases[0].Run
	assert.Equal(t, "sess", r.TraceID)
	last := r.Steps[len(r.Steps)-1]
	assert.Equal(t, "analyst", last.Agent)
	assert.Contains(t, last.Content, "$2.4M")
}

// TestLogfireRecordKind: a Logfire record's kind (span, log) says what the
// record is, no span's kind: Pydantic AI's agent run inside a tool's run
// is the agent its agent_name says, not a task named for the tool span.
func TestLogfireRecordKind(t *testing.T) {
	row := func(id, parent, name string, attrs string) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		return `{"start_timestamp":"2024-11-29T10:00:0` + id[len(id)-1:] + `Z","trace_id":"t","span_id":"` + id + `","parent_span_id":` + p + `,"kind":"span","level":"info","span_name":"` + name + `","message":"` + name + `","attributes":` + attrs + `}`
	}
	chat := func(call string) string {
		return `{"gen_ai.operation.name":"chat","gen_ai.system":"openai","events":[{"event.name":"gen_ai.user.message","role":"user","content":"Convert 250 EUR to JPY"},{"event.name":"gen_ai.choice","index":0,"message":{"role":"assistant","tool_calls":[{"id":"c` + call + `","type":"function","function":{"name":"` + call + `","arguments":"{}"}}]}}]}`
	}
	data := `{"columns":[{"name":"span_id"}],"rows":[` +
		row("a1", "", "agent run", `{"agent_name":"router_agent","final_result":"37,150 JPY"}`) + `,` +
		row("a2", "a1", "chat gpt-4o", chat("ask_finance")) + `,` +
		row("a3", "a1", "running tool", `{"gen_ai.tool.name":"ask_finance","tool_arguments":"{}","tool_response":"37,150 JPY"}`) + `,` +
		row("a4", "a3", "agent run", `{"agent_name":"finance_agent","final_result":"37,150 JPY"}`) + `,` +
		row("a5", "a4", "chat gpt-4o-mini", chat("convert_currency")) + `]}`
	cases, err := run.ParseAll(context.Background(), "logfire.json", []byte(data), run.Options{})
	require.NoError(t, err)
	require.Len(t, cases, 1)
	var agents []string
	for _, s := range cases[0].Run.Steps {
		if s.Kind == run.KindToolCall {
			agents = append(agents, s.Agent+":"+s.ToolCalls()[0].Name)
		}
	}
	assert.Equal(t, []string{"router_agent:ask_finance", "finance_agent:convert_currency"}, agents)
}

// TestAgentOpsSession: AgentOps' session records are read in the order
// their events began (a time with a fraction of a second and one
// without), each agent named by its record, a tool's run as its call and
// result, and the label beside them.
func TestAgentOpsSession(t *testing.T) {
	data := `{"mistake_agent":"QA Engineer","mistake_step":5,
 "session":{"session_id":"s","end_state":"Fail"},
 "agents":[{"id":"a1","name":"Developer"},{"id":"a2","name":"QA Engineer"}],
 "events":[
  {"id":"e3","event_type":"llms","agent_id":"a2","init_timestamp":"2024-11-29T10:00:06.400000Z","prompt":[{"role":"user","content":"Verify the fix."}],"completion":{"role":"assistant","content":"I will run the tests."}},
  {"id":"e1","event_type":"llms","agent_id":"a1","init_timestamp":"2024-11-29T10:00:00Z","prompt":[{"role":"system","content":"You fix bugs."},{"role":"user","content":"Fix paginate()."}],"completion":{"role":"assistant","content":"Fixed the range."}},
  {"id":"e4","event_type":"tools","agent_id":"a2","init_timestamp":"2024-11-29T10:00:07Z","name":"run_tests","params":{"path":"tests/"},"returns":"2 failed, 12 passed"},
  {"id":"e5","event_type":"llms","agent_id":"a2","init_timestamp":"2024-11-29T10:00:08Z","prompt":[{"role":"user","content":"Observation: 2 failed, 12 passed"}],"completion":{"role":"assistant","content":"All tests pass."}},
  {"id":"e2","event_type":"actions","agent_id":"a1","init_timestamp":"2024-11-29T10:00:06Z","action_type":"task_completed","logs":"done"}]}`
	cases, err := run.ParseAll(context.Background(), "agentops.json", []byte(data), run.Options{})
	require.NoError(t, err)
	require.Len(t, cases, 1)
	var got []string
	for _, s := range cases[0].Run.Steps {
		got = append(got, s.Agent+"|"+string(s.Kind)+"|"+s.Content)
	}
	assert.Equal(t, []string{
		"user|user|Fix paginate().",
		"Developer|message|Fixed the range.",
		"user|user|Verify the fix.",
		"QA Engineer|message|I will run the tests.",
		"QA Engineer|tool_call|" + cases[0].Run.Steps[4].Content,
		"QA Engineer|tool_result|2 failed, 12 passed",
		"QA Engineer|message|All tests pass.",
	}, got)
	assert.Contains(t, cases[0].Run.Steps[4].Content, "run_tests")
	require.NotNil(t, cases[0].Label)
	assert.Equal(t, "QA Engineer", cases[0].Label.Agent)
}
