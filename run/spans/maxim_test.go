package spans

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maximLogs are commit logs in the shape Maxim's JavaScript SDK posts
// them: a trace, an agent's span added to it, a generation and a tool
// call added to the span, the tool call failing.
const maximLogs = `trace{id=t1,action=create,data={"name":"trip","tags":{},"startTimestamp":"2026-11-27T16:06:04.309Z"}}
trace{id=t1,action=update,data={"input":"What should I pack for Oslo tomorrow?"}}
trace{id=t1,action=add-span,data={"id":"s1","name":"researcher","tags":{},"startTimestamp":"2026-11-27T16:06:04.310Z"}}
span{id=s1,action=add-generation,data={"id":"g1","messages":[{"role":"user","content":"Weather in Oslo?"}],"name":"chat","startTimestamp":"2026-11-27T16:06:04.310Z","model":"gpt-4o-mini"}}
generation{id=g1,action=result,data={"result":{"choices":[{"index":0,"message":{"role":"assistant","content":"7 °F."}}]}}}
generation{id=g1,action=end,data={"endTimestamp":"2026-11-27T16:06:04.400Z"}}
span{id=s1,action=add-tool-call,data={"id":"call_1","name":"get_weather","startTimestamp":"2026-11-27T16:06:04.401Z","args":"{\"city\":\"Olso\"}"}}
tool_call{id=call_1,action=error,data={"error":{"message":"unknown city: Olso","type":"Error"}}}
tool_call{id=call_1,action=end,data={"endTimestamp":"2026-11-27T16:06:04.402Z"}}
span{id=s1,action=end,data={"endTimestamp":"2026-11-27T16:06:04.500Z"}}
`

// TestMaxim: each entity is one span, of the trace at the root of its
// parents: a child is made by its parent's add- action, its result its
// output, its error its status, a generation an llm and a tool call a
// tool.
func TestMaxim(t *testing.T) {
	assert.Equal(t, Maxim, Detect([]byte(maximLogs)))

	ss, err := Decode(context.Background(), []byte(maximLogs), Maxim)
	require.NoError(t, err)
	require.Len(t, ss, 4)
	trace, span, gen, tool := ss[0], ss[1], ss[2], ss[3]
	assert.Equal(t, "What should I pack for Oslo tomorrow?", trace.Attrs.Str("input"))
	assert.Empty(t, trace.ParentID)

	assert.Equal(t, "researcher", span.Name)
	assert.Equal(t, "t1", span.TraceID)
	assert.Equal(t, "t1", span.ParentID)
	assert.Equal(t, "SPAN", span.Attrs.Str("openinference.span.kind"))
	assert.Equal(t, 3, span.Line, "the line that made it")
	assert.Less(t, span.Start, span.End)

	assert.Equal(t, "t1", gen.TraceID)
	assert.Equal(t, "s1", gen.ParentID)
	assert.Equal(t, "LLM", gen.Attrs.Str("openinference.span.kind"))
	assert.Contains(t, gen.Attrs.Str("input"), "Weather in Oslo?")
	assert.Contains(t, gen.Attrs.Str("output"), "7 °F.")

	assert.Equal(t, "TOOL", tool.Attrs.Str("openinference.span.kind"))
	assert.Equal(t, "get_weather", tool.Name)
	assert.JSONEq(t, `{"city":"Olso"}`, tool.Attrs.Str("input"))
	assert.Equal(t, Status{Code: StatusError, Message: "unknown city: Olso"}, tool.Status)
}

// TestMaximSession: a session groups traces and is no span; each trace
// added to it stays a trace of its own.
func TestMaximSession(t *testing.T) {
	data := `session{id=x,action=create,data={"name":"chat"}}
session{id=x,action=add-trace,data={"id":"t1","name":"turn 1"}}
session{id=x,action=add-trace,data={"id":"t2","name":"turn 2"}}
`
	ss, err := Decode(context.Background(), []byte(data), Maxim)
	require.NoError(t, err)
	require.Len(t, ss, 2)
	assert.Equal(t, "t1", ss[0].TraceID)
	assert.Empty(t, ss[0].ParentID)
	assert.Equal(t, "t2", ss[1].TraceID)
}

func TestMaximBadFiles(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"not a commit log", "trace{id=t1,action=create,data={}}\nhello\n", "line 2: not a Maxim commit log"},
		{"cut short", `trace{id=t1,action=create,data={"name":"x"}`, "the data of trace t1: invalid JSON at line 1, column 43"},
		{"bad data", `trace{id=t1,action=create,data={"name":}}`, "the data of trace t1: invalid JSON at line 1, column"},
		{"child with no id", `trace{id=t1,action=add-span,data={"name":"x"}}`, "line 1: trace t1: add-span names no id"},
		{"bad time", `trace{id=t1,action=create,data={"name":"x","startTimestamp":"soon"}}`, `span "x" at line 1: start time "soon" is not a time`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(context.Background(), []byte(tt.data), Maxim)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// TestMaximNotDetected: JSON and other text are not Maxim's.
func TestMaximNotDetected(t *testing.T) {
	for _, data := range []string{`{"trace":"x"}`, `trace{id=t1}`, `Trace{id=t1,action=create,data={}}`, "some text\n"} {
		assert.NotEqual(t, Maxim, Detect([]byte(data)), data)
	}
}

func FuzzMaxim(f *testing.F) {
	fuzzSeeds(f, "../traces/maxim-js.log")
	f.Add([]byte(maximLogs))
	fuzzDecode(f, Maxim)
}
