package spans

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keywordsLogs is a page of Keywords AI's request logs, newest first: a
// workflow, a model call that calls a tool, and the tool, which failed.
const keywordsLogs = `{"count":3,"next":null,"previous":null,"results":[` +
	`{"id":"l3","trace_unique_id":"t1","span_unique_id":"s3","span_parent_id":"s1","span_name":"get_price.tool","log_type":"tool","start_time":"2024-11-30T09:11:56Z","timestamp":"2024-11-30T09:11:58Z","input":"{\"ticker\": \"NVDA\"}","output":"timeout","status_code":504,"error_message":"upstream timed out"},` +
	`{"id":"l2","trace_unique_id":"t1","span_unique_id":"s2","span_parent_id":"s1","span_name":"openai.chat","log_type":"chat","model":"gpt-4o","timestamp":"2024-11-30T09:11:55Z","prompt_messages":[{"role":"user","content":"NVDA close?"}],"completion_message":{"role":"assistant","content":"Checking."},"status_code":200},` +
	`{"id":"l1","trace_unique_id":"t1","span_unique_id":"s1","span_parent_id":null,"span_name":"stock.workflow","log_type":"workflow","start_time":"2024-11-30T09:11:54Z","timestamp":"2024-11-30T09:11:59Z","status_code":200}]}`

// TestResultsShapes: a page of "results" is Keywords AI's only when its
// first element is a span; PostHog's listed events, New Relic's NRQL
// answer and "results" of anything else read as they did before.
func TestResultsShapes(t *testing.T) {
	postHog := strings.Replace(postHogBatchFile, `"batch":`, `"results":`, 1)
	for _, tc := range []struct {
		name, data string
		want       Format
	}{
		{"Keywords AI's logs", keywordsLogs, OpenInference},
		{"PostHog's events as its API lists them", postHog, PostHog},
		{"New Relic's NRQL answer", `{"results":[{"events":[` + newRelicRowsOnly() + `]}],"metadata":{}}`, OpenInference},
		{"Langfuse's events, which are a batch only", `{"results":[{"id":"e1","type":"trace-create","timestamp":"2026-11-27T15:09:49.194Z","body":{"id":"t1","name":"trip"}}]}`, ""},
		{"an evaluation's results", `{"results":[{"input":"q","output":"a","score":1}]}`, ""},
		{"results of an agent team by id", `{"task":"t","results":{"a":{"result":"r","status":"COMPLETED"}}}`, ""},
		{"results of plain text", `{"results":["a","b"]}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Detect([]byte(tc.data)))
			if tc.want == "" {
				return
			}
			ss, err := Decode(context.Background(), []byte(tc.data), tc.want)
			require.NoError(t, err)
			assert.NotEmpty(t, ss)
		})
	}
}

// TestKeywordsAILogs: each log is a span of its trace; a model call's
// messages are its input and its completion its output, a workflow's type
// is OpenLLMetry's span kind, and a failed request's status an error.
func TestKeywordsAILogs(t *testing.T) {
	require.Equal(t, OpenInference, Detect([]byte(keywordsLogs)))
	ss, err := Decode(context.Background(), []byte(keywordsLogs), OpenInference)
	require.NoError(t, err)
	require.Len(t, ss, 3)
	byID := map[string]Span{}
	for _, s := range ss {
		assert.Equal(t, "t1", s.TraceID)
		byID[s.SpanID] = s
	}
	tool, chat, flow := byID["s3"], byID["s2"], byID["s1"]
	assert.Equal(t, "s1", tool.ParentID)
	assert.Equal(t, Status{Code: StatusError, Message: "upstream timed out"}, tool.Status)
	assert.Less(t, tool.Start, tool.End, "its timestamp is its end when its start is beside it")
	assert.Equal(t, "LLM", chat.Attrs.Str("openinference.span.kind"))
	assert.Contains(t, chat.Attrs.Str("input"), "NVDA close?")
	assert.Contains(t, chat.Attrs.Str("output"), "Checking.")
	assert.NotEqual(t, StatusError, chat.Status.Code)
	assert.Equal(t, "workflow", flow.Attrs.Str("traceloop.span.kind"))
	assert.Equal(t, "stock", flow.Attrs.Str("traceloop.entity.name"))
	assert.Empty(t, flow.ParentID)
}

// pareaTrace is one of Parea's trace logs with its children's logs: a
// function's, and a model call's inside it.
const pareaTrace = `{"trace_id":"r","root_trace_id":"r","parent_trace_id":"r","trace_name":"team","start_timestamp":"2024-12-02T14:00:00Z","end_timestamp":"2024-12-02T14:00:09Z","inputs":{"task":"t"},"output":"done","status":"success","children":["c"],"children_logs":[` +
	`{"trace_id":"c","root_trace_id":"r","parent_trace_id":"r","trace_name":"coder","start_timestamp":"2024-12-02T14:00:01Z","end_timestamp":"2024-12-02T14:00:05Z","output":"code","status":"success","children":["l"],"children_logs":[` +
	`{"trace_id":"l","root_trace_id":"r","parent_trace_id":"c","trace_name":"llm-openai","start_timestamp":"2024-12-02T14:00:02Z","end_timestamp":"2024-12-02T14:00:04Z","configuration":{"model":"gpt-4o","messages":[{"role":"user","content":"write it"}]},"output":"code","status":"error","error":"rate limited"}]}]}`

// TestPareaTraceLog: each log is a span of its root's trace, a child of
// the log that holds it; a traced function's log is a function span, a
// model call's its messages as input; the root is its own parent, no
// span's child.
func TestPareaTraceLog(t *testing.T) {
	require.Equal(t, OpenInference, Detect([]byte(pareaTrace)))
	ss, err := Decode(context.Background(), []byte(pareaTrace), OpenInference)
	require.NoError(t, err)
	require.Len(t, ss, 3)
	root, coder, llm := ss[0], ss[1], ss[2]
	for _, s := range ss {
		assert.Equal(t, "r", s.TraceID)
	}
	assert.Equal(t, "team", root.Name)
	assert.Empty(t, root.ParentID)
	assert.Equal(t, "r", coder.ParentID)
	assert.Equal(t, "FUNCTION", coder.Attrs.Str("openinference.span.kind"))
	assert.Equal(t, "code", coder.Attrs.Str("output"))
	assert.Equal(t, "c", llm.ParentID)
	assert.Equal(t, "LLM", llm.Attrs.Str("openinference.span.kind"))
	assert.Contains(t, llm.Attrs.Str("input"), "write it")
	assert.Equal(t, "gpt-4o", llm.Attrs.Str("configuration.model"))
	assert.Equal(t, Status{Code: StatusError, Message: "rate limited"}, llm.Status)
	assert.Less(t, root.Start, coder.Start)
}

// agentaTraces are Agenta's traces in its own format: a workflow holding
// an agent, whose chat calls and tool sit under their names.
const agentaTraces = `{"version":"1.0.0","count":1,"trees":[{"tree":{"id":"T"},"nodes":{"app":{"tree":{"id":"T"},"node":{"id":"w","name":"app","type":"workflow"},"parent":null,"time":{"start":"2025-02-20T10:00:00Z","end":"2025-02-20T10:00:09Z"},"status":{"code":"OK"},"data":{"inputs":{"q":"Porto"},"outputs":{"__default__":"booked"}},"nodes":{` +
	`"hotel_agent":{"node":{"id":"a","name":"hotel_agent","type":"agent"},"parent":{"id":"w"},"time":{"start":"2025-02-20T10:00:01Z","end":"2025-02-20T10:00:08Z"},"status":{"code":"OK"},"data":{"inputs":{"task":"Porto"}},"nodes":{` +
	`"chat":[{"node":{"id":"c1","name":"chat","type":"chat"},"parent":{"id":"a"},"time":{"start":"2025-02-20T10:00:02Z","end":"2025-02-20T10:00:03Z"},"data":{"inputs":{"prompt":[{"role":"user","content":"Porto"}]},"outputs":{"completion":[{"role":"assistant","content":"ok"}]}}},` +
	`{"node":{"id":"c2","name":"chat","type":"chat"},"parent":{"id":"a"},"time":{"start":"2025-02-20T10:00:05Z","end":"2025-02-20T10:00:06Z"}}],` +
	`"search":{"node":{"id":"s","name":"search","type":"tool"},"parent":{"id":"a"},"time":{"start":"2025-02-20T10:00:03Z","end":"2025-02-20T10:00:04Z"},"status":{"code":"ERROR","message":"no city"},"data":{"inputs":{"city":"Porto"}}}}}}}}}]}`

// TestAgentaTraces: every node of a tree is a span of the tree's trace,
// a child of its parent; a chat's prompt and completion are its messages,
// a function's default output its value.
func TestAgentaTraces(t *testing.T) {
	require.Equal(t, OpenInference, Detect([]byte(agentaTraces)))
	ss, err := Decode(context.Background(), []byte(agentaTraces), OpenInference)
	require.NoError(t, err)
	require.Len(t, ss, 5)
	byID := map[string]Span{}
	for _, s := range ss {
		assert.Equal(t, "T", s.TraceID)
		byID[s.SpanID] = s
	}
	assert.Equal(t, "booked", byID["w"].Attrs.Str("output"))
	assert.Equal(t, "w", byID["a"].ParentID)
	assert.Equal(t, "AGENT", byID["a"].Attrs.Str("openinference.span.kind"))
	c1 := byID["c1"]
	assert.Equal(t, "a", c1.ParentID)
	assert.Equal(t, "LLM", c1.Attrs.Str("openinference.span.kind"))
	assert.Equal(t, `[{"content":"Porto","role":"user"}]`, c1.Attrs.Str("input"))
	assert.Equal(t, `[{"content":"ok","role":"assistant"}]`, c1.Attrs.Str("output"))
	assert.Contains(t, byID, "c2")
	assert.Equal(t, "TOOL", byID["s"].Attrs.Str("openinference.span.kind"))
	assert.Equal(t, Status{Code: StatusError, Message: "no city"}, byID["s"].Status)
}

// TestLangWatchTypedValues: LangWatch's traces, as its API returns them,
// keep a span's input and output as typed values and its times under
// timestamps: the value is the span's input, the times its own.
func TestLangWatchTypedValues(t *testing.T) {
	const trace = `{"trace_id":"t","spans":[{"span_id":"s","parent_id":null,"trace_id":"t","type":"llm","name":null,` +
		`"input":{"type":"chat_messages","value":[{"role":"user","content":"hi"}]},"output":{"type":"text","value":"hello"},` +
		`"timestamps":{"started_at":1732950000100,"finished_at":1732950001200}},` +
		`{"span_id":"l","trace_id":"t","type":"span","input":{"type":"list","value":[{"type":"text","value":"a"},{"type":"json","value":{"b":1}}]},"output":{"type":"text","value":"x","other":1}}]}`
	ss, err := Decode(context.Background(), []byte(trace), OpenInference)
	require.NoError(t, err)
	require.Len(t, ss, 2)
	s := ss[0]
	assert.Equal(t, `[{"content":"hi","role":"user"}]`, s.Attrs.Str("input"))
	assert.Equal(t, "hello", s.Attrs.Str("output"))
	assert.Equal(t, int64(1732950000100000000), s.Start)
	assert.Equal(t, int64(1732950001200000000), s.End)
	assert.Equal(t, `["a",{"b":1}]`, ss[1].Attrs.Str("input"), "a list's values, each unwrapped")
	assert.Contains(t, ss[1].Attrs.Str("output"), `"other"`, "an object with more than a type and a value is no typed value")
}

func FuzzKeywordsAI(f *testing.F) {
	f.Add([]byte(keywordsLogs))
	fuzzDecode(f, OpenInference)
}

func FuzzParea(f *testing.F) {
	f.Add([]byte(pareaTrace))
	fuzzDecode(f, OpenInference)
}

func FuzzAgenta(f *testing.F) {
	f.Add([]byte(agentaTraces))
	fuzzDecode(f, OpenInference)
}
