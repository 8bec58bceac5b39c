package spans

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// appInsightsQuery is Log Analytics' answer to a query of Application
// Insights' requests and dependencies: a request, an agent's dependency
// under it, and a failed tool call, customDimensions as its text.
const appInsightsQuery = `{"tables":[{"name":"PrimaryResult","columns":[{"name":"timestamp","type":"datetime"},{"name":"itemType","type":"string"},{"name":"id","type":"string"},{"name":"name","type":"string"},{"name":"success","type":"bool"},{"name":"resultCode","type":"string"},{"name":"duration","type":"real"},{"name":"operation_Id","type":"string"},{"name":"operation_ParentId","type":"string"},{"name":"customDimensions","type":"dynamic"}],` +
	`"rows":[["2026-11-27T14:02:00.000Z","request","b7ad6b7169203331","POST /chat",true,"200",9120.0,"4bf92f3577b34da6a3ce929d0e0e4736","4bf92f3577b34da6a3ce929d0e0e4736","{\"http.route\":\"/chat\"}"],` +
	`["2026-11-27T14:02:00.010Z","dependency","c100000000000001","invoke_agent Planner",true,"0",9100.5,"4bf92f3577b34da6a3ce929d0e0e4736","b7ad6b7169203331","{\"gen_ai.operation.name\":\"invoke_agent\",\"gen_ai.agent.name\":\"Planner\",\"offattr.mistake\":\"true\"}"],` +
	`["2026-11-27T14:02:01.000Z","dependency","c100000000000002","execute_tool search",false,"TimeoutError",10.0,"4bf92f3577b34da6a3ce929d0e0e4736","c100000000000001",null]]}]}`

// TestAppInsights: the first table of a Log Analytics answer is a frame of
// rows; a row of requests or dependencies is a span of its operation, its
// customDimensions its attributes, its duration in milliseconds, a row
// that did not succeed an error.
func TestAppInsights(t *testing.T) {
	var rows []byte
	for fr := range Frames([]byte(appInsightsQuery)) {
		assert.Equal(t, "tables", fr.Orient)
		rows = fr.Rows
		break
	}
	require.NotNil(t, rows)
	require.Equal(t, OpenInference, Detect(rows))
	ss, err := Decode(context.Background(), rows, OpenInference)
	require.NoError(t, err)
	require.Len(t, ss, 3)
	req, agent, tool := ss[0], ss[1], ss[2]
	for _, s := range ss {
		assert.Equal(t, "4bf92f3577b34da6a3ce929d0e0e4736", s.TraceID)
	}
	assert.Empty(t, req.ParentID, "the operation itself is no parent")
	assert.Equal(t, "server", req.Kind)
	assert.Equal(t, "/chat", req.Attrs.Str("http.route"))

	assert.Equal(t, "invoke_agent Planner", agent.Name)
	assert.Equal(t, req.SpanID, agent.ParentID)
	assert.Equal(t, "Planner", agent.Attrs.Str("gen_ai.agent.name"))
	assert.Equal(t, "true", agent.Attrs.Str("offattr.mistake"))
	assert.Equal(t, int64(9100500000), agent.End-agent.Start)
	assert.Equal(t, StatusUnset, agent.Status.Code)
	assert.Empty(t, agent.Kind)

	assert.Equal(t, Status{Code: StatusError, Message: "result code TimeoutError"}, tool.Status)
}

// TestAppInsightsWorkspace: a workspace's AppDependencies rows, as a
// query of the workspace lists them, are read the same way.
func TestAppInsightsWorkspace(t *testing.T) {
	data := `[{"TimeGenerated":"2026-11-27T14:02:00.010Z","Id":"c1","Name":"chat gpt-4o","OperationId":"4bf92f3577b34da6a3ce929d0e0e4736","ParentId":"b7","DurationMs":12,"Success":"False","ResultCode":"429","Type":"AppDependencies","Properties":{"gen_ai.operation.name":"chat"}}]`
	require.Equal(t, OpenInference, Detect([]byte(data)))
	ss, err := Decode(context.Background(), []byte(data), OpenInference)
	require.NoError(t, err)
	require.Len(t, ss, 1)
	assert.Equal(t, "chat gpt-4o", ss[0].Name)
	assert.Equal(t, "b7", ss[0].ParentID)
	assert.Equal(t, "chat", ss[0].Attrs.Str("gen_ai.operation.name"))
	assert.Equal(t, int64(12e6), ss[0].End-ss[0].Start)
	assert.Equal(t, Status{Code: StatusError, Message: "result code 429"}, ss[0].Status)
}

// TestKustoRowsRefused: a table whose rows do not match its columns is
// no frame.
func TestKustoRowsRefused(t *testing.T) {
	for _, data := range []string{
		`{"tables":[{"columns":[{"name":"a"}],"rows":[[1,2]]}]}`,
		`{"tables":[{"columns":["a"],"rows":[[1]]}]}`,
		`{"tables":[3]}`,
		`{"tables":[]}`,
	} {
		for fr := range Frames([]byte(data)) {
			assert.NotEqual(t, "tables", fr.Orient, data)
		}
	}
}

func FuzzAppInsights(f *testing.F) {
	for fr := range Frames([]byte(appInsightsQuery)) {
		f.Add(fr.Rows)
	}
	fuzzDecode(f, OpenInference)
}
