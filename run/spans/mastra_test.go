package spans

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMastraSpanRecords: a trace as Mastra's storage and API give it,
// {"traceId", "spans"}, is a flat span list whose times are startedAt
// and endedAt, whose type and entity are kept as attributes under their
// own names, and whose error is the status.
func TestMastraSpanRecords(t *testing.T) {
	data := `{"traceId":"78d00847c18ed529f89d7148bf5d0501","spans":[{"traceId":"78d00847c18ed529f89d7148bf5d0501","spanId":"909d682be512ebb9","parentSpanId":"916c867b4b4001d6","name":"tool: 'get_weather'","spanType":"tool_call","entityType":"tool","entityName":"get_weather","isEvent":false,"startedAt":"2026-11-29T01:27:02.012Z","endedAt":"2026-11-29T01:27:02.022Z","attributes":{"toolCallId":"call_r1","success":false},"input":{"city":"Olso"},"output":null,"error":{"message":"unknown city: Olso","name":"Error"}}]}`
	require.Equal(t, OpenInference, Detect([]byte(data)))
	ss, err := Decode(context.Background(), []byte(data), OpenInference)
	require.NoError(t, err)
	require.Len(t, ss, 1)
	s := ss[0]
	assert.Equal(t, "916c867b4b4001d6", s.ParentID)
	assert.Equal(t, int64(1795915622012000000), s.Start)
	assert.Equal(t, int64(10_000_000), s.End-s.Start)
	assert.Equal(t, Status{Code: StatusError, Message: "unknown city: Olso"}, s.Status)
	for k, want := range map[string]string{"spanType": "tool_call", "entityType": "tool", "entityName": "get_weather", "toolCallId": "call_r1", "input": `{"city":"Olso"}`} {
		assert.Equal(t, want, s.Attrs.Str(k), k)
	}
}
