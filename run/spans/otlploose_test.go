package spans

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// looseRequest is a request as Agent 365's exporter posts it: OTLP's
// structure, attributes as objects, kind and status code by name, times
// as numbers, null for none.
const looseRequest = `{"resourceSpans":[{"resource":{"attributes":{"service.name":"trip-planner-1.0.0"}},"scopeSpans":[{"scope":{"name":"Agent365Sdk"},"spans":[` +
	`{"traceId":"4fbf862398b57617b869f0def66157ad","spanId":"6216c8757f845ba9","parentSpanId":"ab6ff3d4c1af71cd","name":"execute_tool get_weather","kind":"INTERNAL","startTimeUnixNano":1795916087120000000,"endTimeUnixNano":1795916087123512300,"attributes":{"gen_ai.operation.name":"execute_tool","gen_ai.tool.name":"get_weather","gen_ai.usage.input_tokens":120,"gen_ai.response.finish_reasons":["tool_call"]},"events":[{"timeUnixNano":1795916087123000000,"name":"exception","attributes":{"exception.type":"Error","exception.message":"unknown city: Olso"}}],"links":null,"status":{"code":"ERROR","message":"unknown city: Olso"}},` +
	`{"traceId":"4fbf862398b57617b869f0def66157ad","spanId":"82f630e5dc8acfae","name":"invoke_agent planner","kind":"CLIENT","startTimeUnixNano":1795916087100000000,"endTimeUnixNano":1795916087200000000,"attributes":null,"events":null,"links":null,"status":{"code":"UNSET","message":""}}` +
	`]}]}]}`

func TestLooseOTLP(t *testing.T) {
	ss, err := Decode(context.Background(), []byte(looseRequest), Detect([]byte(looseRequest)))
	require.NoError(t, err)
	require.Len(t, ss, 2)
	res := Attrs{{Key: "service.name", Value: String("trip-planner-1.0.0")}}
	tool := ss[0]
	assert.Equal(t, Span{
		TraceID: "4fbf862398b57617b869f0def66157ad", SpanID: "6216c8757f845ba9", ParentID: "ab6ff3d4c1af71cd",
		Name: "execute_tool get_weather", Kind: "internal",
		Start: 1795916087120000000, End: 1795916087123512300,
		Status: Status{Code: StatusError, Message: "unknown city: Olso"},
		Attrs: Attrs{
			{Key: "gen_ai.operation.name", Value: String("execute_tool")},
			{Key: "gen_ai.response.finish_reasons", Value: Value{Kind: KindList, List: []Value{String("tool_call")}}},
			{Key: "gen_ai.tool.name", Value: String("get_weather")},
			{Key: "gen_ai.usage.input_tokens", Value: Value{Kind: KindInt, Int: 120}},
		},
		Events: []Event{{Name: "exception", Time: 1795916087123000000, Attrs: Attrs{
			{Key: "exception.message", Value: String("unknown city: Olso")},
			{Key: "exception.type", Value: String("Error")},
		}}},
		Resource: res,
		Line:     1,
	}, tool)
	agent := ss[1]
	assert.Empty(t, agent.ParentID)
	assert.Equal(t, "client", agent.Kind)
	assert.Equal(t, StatusUnset, agent.Status.Code)
	assert.Empty(t, agent.Attrs)
	assert.Equal(t, res, agent.Resource)
}

// TestLooseOTLPErrors: a record that is neither OTLP nor loose OTLP is
// refused with protojson's reason; a loose one whose span is broken, with
// the span's.
func TestLooseOTLPErrors(t *testing.T) {
	tests := []struct{ name, data, want string }{
		{"attributes as OTLP's list, a value bare", `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"4fbf862398b57617b869f0def66157ad","spanId":"6216c8757f845ba9","name":"s","kind":"CLIENT","attributes":[{"key":"a","value":"b"}]}]}]}]}`, "invalid OTLP/JSON at line 1"},
		{"loose span without ids", `{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"s","attributes":{"a":"b"}}]}]}]}`, `span "s" at line 1 has no trace id or span id`},
		{"loose span with a bad time", `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"4fbf862398b57617b869f0def66157ad","spanId":"6216c8757f845ba9","name":"s","startTimeUnixNano":"soon","attributes":{"a":"b"}}]}]}]}`, `span "s" at line 1: start time "soon" is not a time`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(context.Background(), []byte(tt.data), OTLP)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// TestBareEnumNames: a record in OTLP's own shape (attributes as lists)
// whose exporter wrote kinds and status codes by their bare names, in any
// case, keeps them; protojson knows only the prefixed names, and would
// drop the others silently, a failed span read as unset.
func TestBareEnumNames(t *testing.T) {
	for _, tt := range []struct {
		name, kind, code string
		wantKind         string
		wantCode         StatusCode
	}{
		{"bare names", `"CLIENT"`, `"ERROR"`, "client", StatusError},
		{"lower case", `"internal"`, `"ok"`, "internal", StatusOK},
		{"prefixed names", `"SPAN_KIND_SERVER"`, `"STATUS_CODE_ERROR"`, "server", StatusError},
		{"numbers", `3`, `2`, "client", StatusError},
		{"unset", `"UNSPECIFIED"`, `"UNSET"`, "", StatusUnset},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ss, err := Decode(context.Background(), []byte(bareEnumSpan(tt.kind, tt.code)), OTLP)
			require.NoError(t, err)
			require.Len(t, ss, 1)
			assert.Equal(t, tt.wantKind, ss[0].Kind)
			assert.Equal(t, tt.wantCode, ss[0].Status.Code)
			assert.Equal(t, "boom", ss[0].Status.Message)
		})
	}
}

// bareEnumSpan is one OTLP/JSON span, its attributes as OTLP's lists, with
// the kind and status code given as JSON values.
func bareEnumSpan(kind, code string) string {
	return `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"tool",` +
		`"kind":` + kind + `,"startTimeUnixNano":"100","endTimeUnixNano":"200",` +
		`"attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"execute_tool"}}],"status":{"code":` + code + `,"message":"boom"}}]}]}]}`
}
